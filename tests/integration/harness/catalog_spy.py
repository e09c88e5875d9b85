"""The judge, recording which family catalog the harness handed it (in the verdict's reasons).

The harness judges in a child process, so what it passes can only be seen in what comes back.
"""

from __future__ import annotations

from rcaloop.judge import core


def evaluate(parsed, config=None, *, now, catalog=None):
    verdict = core.evaluate(parsed, config, now=now, catalog=catalog)
    return verdict.model_copy(update={"reasons": [*verdict.reasons, f"catalog:{catalog.version if catalog else None}"]})
