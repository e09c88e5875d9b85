"""The evaluation commands of the agent repository rcaloop grew out of, kept as thin entry
points onto the ``rcaloop`` CLI. From the repository root, with any Python 3:

    python -m eval.run_eval --fixtures eval/fixtures.jsonl --min-top1 0.95    # rcaloop eval run
    python -m eval.run_novel_incident_e2e_eval                                # rcaloop eval novel-e2e
    python -m eval.check_release_gate path/to/metrics.json                    # rcaloop gate check

Each one replaces itself with ``./run <rcaloop command> <its arguments>``: the checkout's
``.venv`` runs it (``./run`` creates it the first time), so the interpreter that starts these
modules needs nothing installed. ``eval/*.jsonl`` are the shipped sample sets of
``examples/eval/`` under the names these commands used.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]


def rcaloop(*command: str, default: tuple[str, ...] = ()) -> None:
    """Become ``./run <command> <this process's arguments>`` (``default`` when it was given none)."""
    run = CHECKOUT / "run"
    os.execv(str(run), [str(run), *command, *(sys.argv[1:] or default)])
