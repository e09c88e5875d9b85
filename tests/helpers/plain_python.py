"""A newcomer's shell: the Python the venv was made from, with no venv on PATH.

The seed's commands (``python scripts/cli.py …``, ``python -m eval.…``) must work from such an
interpreter, which has neither rcaloop nor its dependencies.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DROPPED = ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "JUMPBOX_URI", "DATABASE_URL", "REDIS_URL")


def plain_python() -> str:
    """The base interpreter of the running venv (Python 3.11+, nothing of rcaloop installed)."""
    for name in ("python3", "python"):
        candidate = Path(sys.base_prefix) / "bin" / name
        if candidate.is_file():
            return str(candidate)
    raise AssertionError(f"no interpreter under {sys.base_prefix}")


def plain_env(**extra: str) -> dict[str, str]:
    """This process's environment without the venv: its bin directory is off PATH."""
    venv_bin = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if k not in DROPPED}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p and p != venv_bin)
    return env | extra
