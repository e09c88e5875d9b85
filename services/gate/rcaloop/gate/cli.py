"""``rcaloop eval …`` and ``rcaloop gate …``: the gate service's commands."""

from __future__ import annotations

import typer

from rcaloop.gate import cli_eval, cli_gate
from rcaloop.shared.cli_deps import CliDeps


def register(app: typer.Typer, deps: CliDeps) -> None:
    """Add this service's command groups to the ``rcaloop`` CLI."""
    eval_app = typer.Typer(help="Offline evaluation: fixture runs, novelty mutations, novel-incident E2E gate.", no_args_is_help=True)
    gate_app = typer.Typer(help="Release gate, measurement and rollout stages.", no_args_is_help=True)
    cli_eval.register(eval_app, deps)
    cli_gate.register(gate_app, deps)
    app.add_typer(eval_app, name="eval")
    app.add_typer(gate_app, name="gate")
