"""What one result costs to keep, per stream and per store, and what retention gives back.

All six services run as processes on their embedded stores (SQLite files) against the Redis
of ``REDIS_URL``; ``N`` results cycling through the bundled samples go through the whole
pipeline. Printed:

* per stream: entries, Redis memory (``MEMORY USAGE … SAMPLES 0``) and bytes per result;
* per store: file bytes (SQLite with its WAL) per result;
* after the services restart with ``STREAM_RETENTION_S=0`` (every stream acknowledged by all
  its groups may be trimmed at once): what stays in Redis;
* the cost of judging off the event loop: one parse + harness call in this process versus
  through ``Offload`` (a child process: pickling both ways).

Usage: ``python benchmarks/retention.py [--n 600]``. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path

from _common import Services, cleanup, client, machine, new_prefix, print_rows, results

from rcaloop.cli.compose import cli_deps
from rcaloop.contracts import Stream
from rcaloop.contracts.common import utcnow
from rcaloop.judge import core
from rcaloop.judge.config import HarnessConfig
from rcaloop.shared.offload import Offload
from rcaloop.shared.wire import encode

SERVICES = ("ingestion", "parser", "harness", "annotation", "knowledge", "gate")


def _memory(r, prefix: str) -> dict[str, tuple[int, int]]:
    out = {}
    for s in Stream:
        key = s.key(prefix)
        if r.exists(key):
            out[s.value] = (r.xlen(key), int(r.memory_usage(key, samples=0) or 0))
    return out


def _files(data: Path) -> dict[str, int]:
    stores = {"annotation": ["annotation.db*"], "knowledge": ["knowledge/*.sqlite3*", "knowledge/*.json"],
              "gate": ["gate.db*"]}
    return {name: sum(p.stat().st_size for g in globs for p in data.glob(g)) for name, globs in stores.items()}


def _drained(r, prefix: str) -> bool:
    for s in Stream:
        try:
            groups = r.xinfo_groups(s.key(prefix))
        except Exception:  # noqa: BLE001 - no such stream yet
            continue
        info = r.xinfo_stream(s.key(prefix)) if groups else {}
        for g in groups:
            if g["pending"] or g["last-delivered-id"] != info["last-generated-id"]:
                return False
    return True


def _wait(r, prefix: str, n: int, timeout: float = 900) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if r.xlen(Stream.EVALUATED.key(prefix)) >= n and _drained(r, prefix):
            return
        time.sleep(0.5)
    raise SystemExit("the pipeline did not drain in time")


def offload_cost(n: int = 200) -> tuple[float, float]:
    """(ms per result in this process, ms through the child process) for parse + harness."""
    parsed = [cli_deps().parse(r, None) for r in results(n, "offload")]
    config = HarnessConfig()
    started = time.perf_counter()
    for p in parsed:
        core.evaluate(p, config, now=utcnow())
    inline = (time.perf_counter() - started) / n * 1000

    async def through_child() -> float:
        judge = Offload(30, imports=(core.__name__,))
        await judge.start()
        t = time.perf_counter()
        for p in parsed:
            await judge.run(core.evaluate, p, config, now=utcnow())
        spent = (time.perf_counter() - t) / n * 1000
        await judge.close()
        return spent

    return inline, asyncio.run(through_child())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=600)
    args = ap.parse_args()
    r = client()
    prefix = new_prefix("retention")
    print(f"# retention and sizing — {machine(r)}\n")
    try:
        with Services(prefix, STREAM_RETENTION_S=str(7 * 86400)) as svc:
            for name in SERVICES:
                svc.start(name, f"{name}-0")
            svc.wait_ready(r, [(Stream.RESULTS, "ingestion"), (Stream.EVALUATED, "annotation")], timeout=300)
            pipe = r.pipeline(transaction=False)
            for res in results(args.n, "size"):
                pipe.xadd(Stream.RESULTS.key(prefix), encode(res, producer="bench"))
            pipe.execute()
            _wait(r, prefix, args.n)
            time.sleep(2)  # outbox drains, knowledge and gate settle
            kept, files = _memory(r, prefix), _files(svc.dir / "data")
            rows = [(f"stream {name}", f"{n} entries, {mem / 1e6:.1f} MB, {mem / args.n / 1024:.1f} KiB per result")
                    for name, (n, mem) in kept.items()]
            total = sum(mem for _, mem in kept.values())
            rows.append(("streams in all", f"{total / 1e6:.1f} MB, {total / args.n / 1024:.1f} KiB per result"))
            rows += [(f"store {name}", f"{size / 1e6:.1f} MB, {size / args.n / 1024:.1f} KiB per result")
                     for name, size in files.items()]
            svc.stop()
            for name in SERVICES:  # again, every stream's acknowledged entries may go at once
                svc.start(name, f"{name}-1", STREAM_RETENTION_S="0", RETENTION_INTERVAL_S="1")
            time.sleep(8)
            left = _memory(r, prefix)
            rows.append(("after STREAM_RETENTION_S=0", ", ".join(f"{k} {n}" for k, (n, _) in left.items())
                         + f"; {sum(m for _, m in left.values()) / 1e6:.2f} MB left"))
        inline, child = offload_cost()
        rows.append(("parse result → verdict", f"{inline:.1f} ms in the process, {child:.1f} ms through the child "
                                               f"process ({child - inline:+.1f} ms)"))
        print_rows(rows)
        print("\n" + json.dumps({"n": args.n, "streams": kept, "stores": files}, default=list))
    finally:
        cleanup(r, prefix)


if __name__ == "__main__":
    main()
