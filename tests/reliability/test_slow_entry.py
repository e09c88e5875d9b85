"""One entry may not freeze the process: the harness judges off its event loop, within a budget.

The slowest entry the fuzz corpus has for the harness (``hostile.slowest_skill_output``: a
1.3 MB report of step lines, about a minute of judging on this machine) arrives before good
ones. While the worker chews it, ``/readyz`` keeps answering within a second; the entry is
dead-lettered as ``time_budget_exceeded`` once its budget is spent, and the good entries
behind it are judged.
"""

from __future__ import annotations

import json
import time
import urllib.request


from rcaloop.cli.compose import cli_deps
from rcaloop.contracts import Stream
from rcaloop.shared.wire import encode
from tests.helpers.hostile import slowest_skill_output
from tests.reliability.conftest import _free_port
from tests.reliability.flow import dlq, result, wait_until

BUDGET_S = 8


def _readyz(port: int) -> tuple[int, float]:
    started = time.monotonic()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=10) as resp:
            status = resp.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    return status, time.monotonic() - started


def test_readyz_answers_while_a_worker_chews_the_slowest_entry(r, procs, prefix):
    port = _free_port()
    harness = procs.start("harness", METRICS_PORT=str(port), ENTRY_BUDGET_S=str(BUDGET_S))
    wait_until(lambda: _readyz(port)[0] == 200, 60, "harness ready")
    slow = cli_deps().parse(slowest_skill_output("slow-1"), None)
    goods = [cli_deps().parse(result(i, "good"), None) for i in range(3)]
    key = Stream.PARSED.key(prefix)
    r.xadd(key, encode(slow))
    for parsed in goods:
        r.xadd(key, encode(parsed))

    answers: list[tuple[int, float]] = []
    started = time.monotonic()
    while not dlq(r, prefix, Stream.PARSED) and time.monotonic() - started < 180:
        answers.append(_readyz(port))
        time.sleep(0.2)
    chewed = time.monotonic() - started
    [letter] = dlq(r, prefix, Stream.PARSED)
    assert letter["error_code"] == "time_budget_exceeded" and letter["deliveries"] == 1, letter
    assert json.loads(letter["fields"]["payload"])["analysis_hash"] == slow.analysis_hash
    assert chewed >= BUDGET_S - 1 and len(answers) >= 10, (chewed, len(answers))
    slowest = max(seconds for _, seconds in answers)
    print(f"/readyz: {len(answers)} answers while the entry was judged for {chewed:.1f} s, slowest {slowest:.3f} s")
    assert all(status == 200 for status, _ in answers), answers
    assert slowest < 1.0, f"/readyz took {slowest:.2f} s while the entry was judged"

    wait_until(lambda: r.xlen(Stream.EVALUATED.key(prefix)) >= 3, 60, "the good entries behind it")
    judged = {json.loads(f[b"payload"])["analysis_hash"] for _, f in r.xrange(Stream.EVALUATED.key(prefix))}
    assert judged == {p.analysis_hash for p in goods}
    assert harness.proc.poll() is None and "Traceback" not in harness.logs()
    assert _readyz(port)[0] == 200
