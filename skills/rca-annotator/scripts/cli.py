"""The original skill's entry point, kept so its commands work unchanged:
``python scripts/cli.py download|annotate|upload --job-id <job_id>`` runs the same ``rcaloop`` command."""

from __future__ import annotations

import shutil
import sys

COMMANDS = ("download", "annotate", "upload")


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: python scripts/cli.py {{{'|'.join(COMMANDS)}}} --job-id <job_id>", file=sys.stderr)
        return 2
    rcaloop = shutil.which("rcaloop")
    if rcaloop is None:
        from rcaloop.cli.main import app  # noqa: PLC0415 - installed as a package but not on PATH

        app(argv, prog_name="rcaloop")
        return 0
    import os  # noqa: PLC0415

    os.execv(rcaloop, [rcaloop, *argv])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
