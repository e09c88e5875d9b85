"""The original skill's entry point, kept so its commands work unchanged from any Python 3:
``python scripts/cli.py download|annotate|upload --job-id <job_id>`` runs the same ``rcaloop``
command.

Inside an rcaloop checkout (this file at ``skills/rca-annotator/scripts/``) the command goes
through the checkout's ``run`` script: it uses the checkout's ``.venv`` (creating it the first
time) and works in the checkout, so every job lands in its ``.analysis/`` and the annotation
store is its ``var/``, as with ``./run``. Elsewhere the ``rcaloop`` on PATH runs it. Only the
standard library is used here: the interpreter that starts this file needs nothing installed.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

COMMANDS = ("download", "annotate", "upload")
CHECKOUT = Path(__file__).resolve().parents[3]
FILE_OPTIONS = ("--answers",)
"""Options that name a file: made absolute, since ``run`` works in the checkout."""


def _absolute(argv: list[str]) -> list[str]:
    out = list(argv)
    for i, arg in enumerate(out):
        name, eq, value = arg.partition("=")
        if eq and name in FILE_OPTIONS:
            out[i] = f"{name}={os.path.abspath(value)}"
        elif arg in FILE_OPTIONS and i + 1 < len(out):
            out[i + 1] = os.path.abspath(out[i + 1])
    return out


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: python scripts/cli.py {{{'|'.join(COMMANDS)}}} --job-id <job_id>", file=sys.stderr)
        return 2
    run = CHECKOUT / "run"
    if run.is_file() and os.access(run, os.X_OK):
        os.execv(str(run), [str(run), *_absolute(argv)])
    rcaloop = shutil.which("rcaloop")
    if rcaloop is not None:
        os.execv(rcaloop, [rcaloop, *argv])
    print("rcaloop is not installed: run ./run setup in the rcaloop checkout (it creates .venv), "
          "or pip install its packages", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
