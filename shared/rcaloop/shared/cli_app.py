"""The ``rcaloop`` CLI's apps and command groups: plain-text help, each command's whole first line.

Help and usage errors are plain text (click's), not Rich's: its help renderer costs more to
import than most commands take to run. Results and errors a command prints still go through
Rich (``rcaloop.shared.cli_output``).
"""

from __future__ import annotations

from typing import Any

import typer
from typer import _click as click
from typer.core import TyperGroup


class Group(TyperGroup):
    """A command group whose help lists each command with the whole first paragraph of its help,
    wrapped (click would cut it at the terminal's width)."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                text = command.short_help or (command.help or "").split("\n\n")[0]
                rows.append((name, " ".join(text.split())))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def cli_app(**options: Any) -> typer.Typer:
    """A Typer app (or command group) of the ``rcaloop`` CLI, with plain-text help."""
    return typer.Typer(cls=options.pop("cls", Group), rich_markup_mode=None, **options)
