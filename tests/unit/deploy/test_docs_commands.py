"""Every ``rcaloop`` command the operations guide and the deploy notes name exists, with its options."""

from __future__ import annotations

import re

import pytest
import typer
from typer import _click as click

from rcaloop.cli.main import app
from tests.unit.deploy.files import ROOT

DOCS = ("docs/operations.md", "deploy/README.md", "docs/wire-format.md")


def _invocations() -> list[tuple[str, list[str]]]:
    found = []
    for doc in DOCS:
        for line in re.findall(r"(?:^|`)rcaloop ([a-z][^`#\n]*)", (ROOT / doc).read_text(), re.M):
            found.append((doc, line.split()))
    return found


@pytest.mark.parametrize(("doc", "words"), _invocations(), ids=lambda v: " ".join(v) if isinstance(v, list) else v)
def test_each_command_the_docs_name_exists_with_its_options(doc, words):
    command = typer.main.get_command(app)
    for word in words:
        if not hasattr(command, "commands"):
            break
        found = command.get_command(click.Context(command), word)  # the CLI loads a command when it is asked for
        assert found is not None, f"{doc}: rcaloop {' '.join(words)}: no command {word!r}"
        command = found
    assert not hasattr(command, "commands"), f"{doc}: rcaloop {' '.join(words)} names a group, not a command"
    known = {opt for p in command.params for opt in getattr(p, "opts", [])}
    for option in (w.strip("[]").split("=")[0] for w in words if w.strip("[]").startswith("--")):
        assert option in known, f"{doc}: rcaloop {' '.join(words)}: no option {option}"
