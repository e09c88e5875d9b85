"""How every ``rcaloop`` command writes: results to stdout, one-line errors to stderr.

Rich consoles look up ``sys.stdout``/``sys.stderr`` when they print, so test runners that
swap the streams still capture everything.
"""

from __future__ import annotations

import sys
from pathlib import Path
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


def read_input(path: Path, what: str) -> bytes:
    """The file's bytes, or a one-line error naming ``what`` it was meant to be (exit 2)."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        fail(f"{what} {path}: no such file")
    except IsADirectoryError:
        fail(f"{what} {path}: is a directory")
    except OSError as exc:
        fail(f"{what} {path}: {exc.strerror}")


def read_text_input(path: Path, what: str) -> str:
    """As ``read_input``, decoded as UTF-8 (anything else is a one-line error)."""
    try:
        return read_input(path, what).decode("utf-8")
    except UnicodeDecodeError:
        fail(f"{what} {path}: not UTF-8 text")
