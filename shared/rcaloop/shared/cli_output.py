"""How every ``rcaloop`` command writes: results to stdout, one-line errors to stderr.

Rich consoles look up ``sys.stdout``/``sys.stderr`` when they print, so test runners that
swap the streams still capture everything.
"""

from __future__ import annotations

import sys
from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape

out = Console(width=None if sys.stdout.isatty() else 140)  # pipes and CI logs: no 80-column wrap
err = Console(stderr=True, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """``error: <message>`` on one line (never read as Rich markup), then exit ``code``."""
    err.print(f"[red]error:[/red] {escape(message)}", highlight=False)
    raise typer.Exit(code)
