"""Each ``rcaloop`` command imports what it uses and nothing else (a process per command).

Scripts and CI call the CLI once per file, so what a command imports is paid on every
call: the HTTP API, the database drivers, Redis and the other services stay unloaded
unless the command needs them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SERVICES = ("ingestion", "parser", "harness", "annotation", "knowledge", "gate")
HEAVY = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "asyncpg", "redis", "faststream", "jinja2", "typedb")

RUN = """
import atexit, sys
listing, sys.argv = sys.argv[1], ["rcaloop", *sys.argv[2:]]
atexit.register(lambda: open(listing, "w").write("\\n".join(sorted(sys.modules))))
from rcaloop.cli.main import main
main()
"""

CASES = {  # argv → the services it may load
    "--help": (),
    "parse examples/skill_outputs/checkout-5xx.txt": ("parser",),
    "harness examples/skill_outputs/checkout-5xx.txt": ("parser", "harness"),
    "annotation validate tests/fixtures/annotation/valid_1234567.json --job-dir examples/jobs/1234567": ("annotation",),
    "gate check examples/eval/release_gate.synthetic.pass.json --allow-synthetic": ("gate",),
}


@pytest.mark.parametrize("argv", list(CASES))
def test_a_command_loads_only_what_it_uses(argv, tmp_path):
    listing = tmp_path / "modules.txt"
    done = subprocess.run([sys.executable, "-c", RUN, str(listing), *argv.split()], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    modules = set(listing.read_text().split())
    tops = {m.split(".")[0] for m in modules}
    assert not tops & set(HEAVY), sorted(tops & set(HEAVY))
    services = {name for name in SERVICES if f"rcaloop.{name}" in modules}
    assert services <= set(CASES[argv]), sorted(services)
