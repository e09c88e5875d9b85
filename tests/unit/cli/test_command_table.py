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
    listed = [line.split()[1] for line in result.output.splitlines() if line.startswith("│ ") and line.split()[1] in COMMANDS]
    assert listed == list(COMMANDS)


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
