"""``rcaloop``: one CLI for running the pipeline and for every service's offline core.

A command's module is imported only when that command runs: ``rcaloop parse FILE`` loads
the parser and nothing of the HTTP API, the stores or the other services, and
``rcaloop --help`` loads none of them. ``COMMANDS`` is the whole command line: each
top-level name, the module whose ``register(app, deps)`` adds it, and the one-line help
``--help`` lists without importing that module (``tests/unit/cli`` checks both against the
registered commands).

Adding a command: write ``register(app: typer.Typer, deps: CliDeps)`` in its module (it
may add several names, e.g. a group and a command) and list each name it adds here.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from functools import lru_cache

import typer
from typer import _click as click  # the click typer builds its commands on (it carries its own)
from typer.core import TyperCommand, TyperGroup

from rcaloop.shared.cli_app import Group, cli_app


@dataclass(frozen=True)
class Command:
    module: str
    """Imported when the command runs; its ``register(app, deps)`` adds the command."""
    help: str
    """The first paragraph of the command's help, as ``rcaloop --help`` lists it."""


COMMANDS: dict[str, Command] = {  # in the order --help lists them
    "download": Command("rcaloop.ingestion.cli",
                        "Fetch JUMPBOX_ROOT/<job_id>/ into .analysis/<job_id>/ (JUMPBOX_URI unset: check the local "
                        "files)."),
    "upload": Command("rcaloop.ingestion.cli",
                      "Validate, then push .analysis/<job_id>/annotation.json to the jumpbox; the local copy is always "
                      "kept."),
    "ingest-check": Command("rcaloop.ingestion.cli",
                            "Run the ingestion rules on one record offline. Exit 0 accepted, 1 rejected, 2 "
                            "unreadable."),
    "parse": Command("rcaloop.parser.cli",
                     "Parse one RCA output against the output contract. Exit 0 with any outcome; 2 when unreadable."),
    "harness": Command("rcaloop.harness.cli",
                       "Judge one RCA output with the runtime harness. Exit 0 with any verdict; 2 when unreadable."),
    "annotate": Command("rcaloop.annotation.cli",
                        "Walk through annotating a CI-job RCA and write .analysis/<job_id>/annotation.json."),
    "up": Command("rcaloop.cli.commands",
                  "Run every service plus the HTTP API locally (embedded Redis when REDIS_URL is unset)."),
    "demo": Command("rcaloop.cli.commands",
                    "Bring the pipeline up, run the bundled samples through it, print where results are."),
    "submit": Command("rcaloop.cli.commands", "Publish RCA results to rca.results (as an upstream agent would)."),
    "status": Command("rcaloop.cli.commands", "Per-stream length, group lag, pending and DLQ counts."),
    "annotation": Command("rcaloop.annotation.cli",
                          "Annotation store: validation, rubric, migrations, export, agreement."),
    "knowledge": Command("rcaloop.knowledge.cli",
                         "Knowledge packages promoted from passed reviews, and the knowledge graph's queries."),
    "eval": Command("rcaloop.gate.cli_eval",
                    "Offline evaluation: fixture runs, novelty mutations, novel-incident E2E gate."),
    "gate": Command("rcaloop.gate.cli_gate", "Release gate, measurement and rollout stages."),
    "dlq": Command("rcaloop.cli.dlq", "Dead letters: list, show, replay onto their stream, drop."),
    "show": Command("rcaloop.cli.show",
                    "One result's path: ingested, parsed, verdict (gates, repairs), review task and its "
                    "state, annotations, knowledge and gate records, dead letters."),
}


@lru_cache(maxsize=None)
def registered(module: str) -> TyperGroup:
    """Every command ``module`` registers, as one click group (imported once per process)."""
    from rcaloop.cli.compose import cli_deps  # noqa: PLC0415 - the services' cores load on first use only

    commands = cli_app()
    importlib.import_module(module).register(commands, cli_deps())
    return typer.main.get_group(commands)


def load(name: str) -> click.Command:
    """The real command ``name`` (imports its module)."""
    return registered(COMMANDS[name].module).commands[name]


class LazyGroup(Group):
    """The root group: lists ``COMMANDS`` from the table, imports a command's module to run it.

    While it writes its own help it hands out placeholders that carry only the listed help,
    so ``rcaloop --help`` imports no command; every other lookup (running, completion,
    ``rcaloop NAME --help``) gets the real command.
    """

    def __init__(self, **attrs) -> None:
        super().__init__(**attrs)
        self._listing = False
        for name, command in COMMANDS.items():
            self.commands.setdefault(name, _Listed(name, help=command.help))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = self.commands.get(cmd_name)
        if isinstance(command, _Listed) and not self._listing:
            command = self.commands[cmd_name] = load(cmd_name)
        return command

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


class _Listed(TyperCommand):
    """A command as ``rcaloop --help`` lists it, before its module is imported."""


def _root() -> None:
    """rcaloop — the quality loop for root-cause-analysis agents."""


app = cli_app(cls=LazyGroup, callback=_root, no_args_is_help=True)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:
        from pydantic import ValidationError  # noqa: PLC0415 - only on the way out

        if not (isinstance(exc, ValidationError) and exc.title.endswith("Settings")):
            raise
        from rich.markup import escape  # noqa: PLC0415

        from rcaloop.shared.cli_output import err  # noqa: PLC0415
        from rcaloop.shared.settings import settings_problems  # noqa: PLC0415

        err.print(f"[red]error:[/red] {escape(f'configuration: {settings_problems(exc)}')}", highlight=False)
        sys.exit(2)
