"""The ``rcaloop`` command table: what ``--help`` lists without importing is what runs."""

from __future__ import annotations

import importlib

import pytest
import typer
from typer import _click as click

from rcaloop.cli.compose import cli_deps
from rcaloop.cli.main import COMMANDS, LazyGroup, app, load
from typer.testing import CliRunner


@pytest.mark.parametrize("name", list(COMMANDS))
def test_listed_help_is_the_commands_own_first_paragraph(name):
    command = load(name)
    assert command.name == name
    assert " ".join((command.help or "").split("\n\n")[0].split()) == COMMANDS[name].help


@pytest.mark.parametrize("module", sorted({c.module for c in COMMANDS.values()}))
def test_every_command_a_module_registers_is_listed_under_that_module(module):
    registered = typer.Typer()
    importlib.import_module(module).register(registered, cli_deps())
    names = set(typer.main.get_group(registered).commands)
    assert names == {name for name, c in COMMANDS.items() if c.module == module}


def test_help_lists_every_command_in_table_order():
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    rows: list[list[str]] = []
    for line in result.output.split("Commands:", 1)[1].splitlines():
        if line[2:3].strip():  # a command's first line; deeper-indented lines continue its help
            rows.append(line.split(None, 1))
        elif line.strip() and rows:
            rows[-1][1] += " " + line.strip()
    assert [name for name, _ in rows] == list(COMMANDS)
    assert all("".join(text.split()) == "".join(COMMANDS[name].help.split()) for name, text in rows)  # whole, never cut


def test_help_and_usage_errors_are_plain_text():
    """Rich's help renderer is never imported: help and usage errors are click's plain text."""
    import subprocess
    import sys

    probe = ("import sys; from rcaloop.cli.main import main; sys.argv = ['rcaloop', *sys.argv[1:]]\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print('typer.rich_utils' in sys.modules, file=sys.stderr)")
    for argv in (["--help"], ["eval", "--help"], ["gate", "check", "--help"], ["pars"], ["show"]):
        done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=60)
        assert done.stderr.strip().endswith("False"), (argv, done.stderr)
        assert "╭" not in done.stdout + done.stderr, argv


def test_a_listed_command_is_replaced_by_the_real_one_when_looked_up():
    group = typer.main.get_command(app)
    assert isinstance(group, LazyGroup)
    ctx = click.Context(group)
    command = group.get_command(ctx, "parse")
    assert command is load("parse")
    assert {p.name for p in command.params} >= {"path", "registry", "as_json"}


def test_an_unknown_command_suggests_a_listed_one():
    result = CliRunner().invoke(app, ["pars"])
    assert result.exit_code == 2
    assert "parse" in result.output
