"""``rcaloop`` sub-commands of the annotation service (thin adapters over ``core``)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this service's commands to the ``rcaloop`` CLI."""
