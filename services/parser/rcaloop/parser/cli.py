"""``rcaloop`` sub-commands of the parser service (thin adapters over ``core``)."""

from __future__ import annotations

import typer

from rcaloop.shared.cli_deps import CliDeps


def register(app: typer.Typer, deps: CliDeps) -> None:
    """Add this service's commands to the ``rcaloop`` CLI."""
