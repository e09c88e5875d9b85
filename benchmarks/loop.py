"""The whole loop on real Redis: ``rca.results`` → review task stored, knowledge and gate recorded.

* in-process, the same work in one thread: each result's JSON decoded, ingestion's rules,
  the result's files kept for review, the parse, the harness, the verdict's JSON, then per
  batch of 100 what the three verdict consumers store — the review tasks (annotation
  store), the runs (knowledge store), the verdicts (gate store) — with the same embedded
  stores the services use;
* the loop: every service a process (ingestion, parser, two harness workers, annotation,
  knowledge, gate), a burst of N results ``XADD``ed; results/s from the first
  ``rca.results`` entry to the moment the last review task is on ``review.tasks`` and the
  knowledge and gate groups have read and acknowledged every verdict (Redis' clock);
* the verdict consumers' capacity: each alone draining a burst of N verdicts, then the
  three together, against the pipeline's throughput (ingestion → harness) in the same run.

Every figure is from this one run, so the ratios compare like with like on a shared machine.
Usage: ``python benchmarks/loop.py [--n 3000] [--repeat 2]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time

from _common import Services, cleanup, client, id_ms, machine, new_prefix, print_rows, results
from pipeline import PIPELINE, _server_cpu, downstream, parsed_entries, publish, throughput

from rcaloop.contracts import Stream
from rcaloop.shared.service import tune_gc
from rcaloop.shared.wire import encode

LOOP = ["ingestion", "parser", "harness", "harness", "annotation", "knowledge", "gate"]
VERDICT_GROUPS = ["annotation", "knowledge", "gate"]


def in_process(n: int, batch: int = 100) -> tuple[float, float]:
    """(results/s, CPU s/result) of the loop's work in one thread, no broker."""
    from rcaloop.annotation import artifacts  # noqa: PLC0415
    from rcaloop.annotation import core as annotation  # noqa: PLC0415
    from rcaloop.annotation.settings import AnnotationSettings  # noqa: PLC0415
    from rcaloop.annotation.store import Store  # noqa: PLC0415
    from rcaloop.contracts import RawResult  # noqa: PLC0415
    from rcaloop.contracts.common import utcnow  # noqa: PLC0415
    from rcaloop.gate.store import GateStore  # noqa: PLC0415
    from rcaloop.judge import core as harness  # noqa: PLC0415
    from rcaloop.harness.settings import HarnessSettings  # noqa: PLC0415
    from rcaloop.ingestion import core as ingestion  # noqa: PLC0415
    from rcaloop.knowledge.app import workflow_for  # noqa: PLC0415
    from rcaloop.knowledge.settings import KnowledgeSettings  # noqa: PLC0415
    from rcaloop.parser import core as parser  # noqa: PLC0415

    config, limits = HarnessSettings().harness_config(), ingestion.Limits()
    payloads = [encode(x)["payload"] for x in results(n, f"inproc-{time.monotonic_ns()}")]

    async def run(data: str) -> tuple[float, float]:
        settings = AnnotationSettings(rcaloop_data_dir=data)
        store = Store(settings.store_url())
        await store.migrate()
        knowledge = workflow_for(KnowledgeSettings(rcaloop_data_dir=data))
        await knowledge.store.open()
        gate = GateStore(os.path.join(data, "gate.db"))
        started, cpu = time.perf_counter(), time.process_time()
        for i in range(0, n, batch):
            verdicts, kept = [], []
            for payload in payloads[i : i + batch]:
                record = ingestion.ingest(ingestion.assess(RawResult.model_validate_json(payload), limits))
                kept.append((record.analysis_hash, record.job_id, artifacts.artifacts_of(
                    record, settings.review_artifact_max_bytes, settings.review_artifacts_max_total_bytes)))
                parsed = parser.parse_record(record, None)
                verdict = harness.evaluate(parsed, config, now=utcnow())
                verdict.model_dump_json()  # what the harness publishes
                verdicts.append(verdict)
            await store.add_artifacts_batch(kept)
            await store.add_verdicts([(v, annotation.review_task_for(v)) for v in verdicts])
            await knowledge.on_verdicts(verdicts)
            gate.record_verdicts(verdicts)
        rate, per = n / (time.perf_counter() - started), (time.process_time() - cpu) / n
        await store.close()
        await knowledge.store.close()
        gate.close()
        return rate, per

    with tempfile.TemporaryDirectory(prefix="rcaloop-loop-") as data:
        return asyncio.run(run(data))


def loop(n: int) -> tuple[float, list[float], float]:
    """(results/s, CPU s/result per process, Redis CPU s/result) of the whole loop on a burst."""
    r, prefix = client(), new_prefix("loop")
    payloads = [encode(x) for x in results(n, f"loop-{time.monotonic_ns()}")]
    try:
        with Services(prefix) as svc:
            for i, name in enumerate(LOOP):
                svc.start(name, f"{name}-{i}")
            svc.wait_ready(r, PIPELINE + [(Stream.EVALUATED, g) for g in VERDICT_GROUPS])
            cpu, server = svc.cpu_each(), _server_cpu(r)
            first = publish(r, Stream.RESULTS.key(prefix), payloads)[0]
            end = _loop_done(r, prefix, n)
            if end is None:
                raise SystemExit(f"the loop did not finish {n} results; logs in {svc.dir}")
            cpu = [(b - a) / n for a, b in zip(cpu, svc.cpu_each(), strict=True)]
            server = (_server_cpu(r) - server) / n
        return n / ((end - id_ms(first)) / 1000), cpu, server
    finally:
        cleanup(r, prefix)


def _loop_done(r, prefix: str, n: int, stall_s: float = 60) -> int | None:
    """Redis' clock (ms) when every review task is published and knowledge and gate have acknowledged
    every verdict; None when nothing moves for ``stall_s``."""
    key, tasks = Stream.EVALUATED.key(prefix), Stream.REVIEW_TASKS.key(prefix)
    last, moved = None, time.monotonic()
    while time.monotonic() - moved < stall_s:
        groups = {g["name"].decode(): g for g in r.xinfo_groups(key)} if r.exists(key) else {}
        done = [(g := groups.get(name)) is not None and (g["entries-read"] or 0) >= n and g["pending"] == 0
                for name in ("knowledge", "gate")]
        state = (r.xlen(tasks), *done)
        if state[0] >= n and all(done):
            seconds, micros = r.time()
            return seconds * 1000 + micros // 1000
        if state != last:
            last, moved = state, time.monotonic()
        time.sleep(0.01)
    return None


def alone(parsed: list, name: str) -> tuple[float, float]:
    """(verdicts/s, CPU s/verdict) of one verdict consumer draining a burst by itself."""
    [(_name, rate, cpu)] = downstream(parsed, [(name, name)])
    return rate, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=3000, help="results per run")
    ap.add_argument("--repeat", type=int, default=2, help="runs of each measure, alternated; the best is kept")
    args = ap.parse_args()
    tune_gc()  # the in-process baselines collect garbage as the services do
    print(f"machine: {machine(client())}")
    inproc, loops, pipes = [], [], []
    for _ in range(args.repeat):  # alternated: other load on the machine only ever slows a run
        inproc.append(in_process(min(args.n, 2000)))
        loops.append(loop(args.n))
        pipes.append(throughput(args.n, 2))
    parsed = parsed_entries(args.n)
    consumers = {name: max(alone(parsed, name) for _ in range(args.repeat)) for name in VERDICT_GROUPS}
    together = downstream(parsed)
    (base, base_cpu), (rate, cpu, server), (pipe, _) = max(inproc), max(loops, key=lambda x: x[0]), max(pipes)
    rows = [
        (f"in-process, JSON in → review task, knowledge, gate stored (1 core, best of {len(inproc)})",
         f"{base:,.0f} results/s · {base_cpu * 1000:.2f} ms CPU/result"),
        (f"loop, {len(LOOP)} processes ({args.n} results, best of {len(loops)})",
         f"{rate:,.0f} results/s · {sum(cpu) * 1000:.2f} ms CPU/result + Redis {server * 1000:.2f} ms"),
        ("  CPU per result by process", " · ".join(f"{n} {c * 1000:.2f}" for n, c in zip(LOOP, cpu, strict=True))),
        ("  ratio loop / in-process (target ≥ 0.8)", f"{rate / base:.2f}"),
        (f"pipeline ingestion → 2 harness workers (best of {len(pipes)})", f"{pipe:,.0f} results/s"),
    ]
    measured = [(f"{name} alone, {args.n} verdicts (best of {args.repeat})", *consumers[name])
                for name in VERDICT_GROUPS]
    measured += [(f"{name} with the other two, {args.n} verdicts", c_rate, c_cpu) for name, c_rate, c_cpu in together]
    rows += [
        (label, f"{c_rate:,.0f} verdicts/s · {c_cpu * 1000:.2f} ms CPU/verdict · {c_rate / pipe:.2f}× the pipeline")
             for label, c_rate, c_cpu in measured]
    print_rows(rows)


if __name__ == "__main__":
    main()
