"""Pipeline throughput, latency and scaling on real Redis, with ratios.

* in-process: the same work with no broker, in one thread: each result's JSON decoded,
  ingestion's rules, the parse, the harness, the verdict's JSON (and, for reference, the
  parse + harness cores alone on decoded results, ``cli_deps().analyze``);
* throughput: N results pre-loaded on ``rca.results``, then ingestion → parser → harness
  as separate processes (1 and 2 harness workers); results/s between the first
  ``rca.results`` entry and the last ``rca.evaluated`` one;
* latency: results published at 50 % of that throughput; per result, the ``rca.evaluated``
  entry id's timestamp minus the ``rca.results`` one's (Redis clock, ms resolution);
* scaling: 1 vs 2 harness processes on pre-parsed ``rca.parsed`` entries (harness-bound);
* downstream: the verdict consumers (annotation, knowledge, gate) draining a burst of
  verdicts on ``rca.evaluated`` with their embedded stores (opt in: ``--only downstream``);
* profile: one harness worker in this process under cProfile (the hottest path).

Usage: ``python benchmarks/pipeline.py [--n 3000] [--only throughput,latency,scaling,profile]``.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import pstats
import time

from _common import (Services, cleanup, client, id_ms, machine, new_prefix, percentile, print_rows,
                     results, wait_len)

from rcaloop.cli.compose import cli_deps
from rcaloop.contracts import Stream
from rcaloop.shared.service import tune_gc
from rcaloop.shared.wire import encode


def in_process(n: int) -> tuple[float, float]:
    """(results/s, CPU s/result) of the pipeline's work with no broker, in one thread.

    The same steps the three services run, called directly: the result's JSON decoded,
    ingestion's rules and record, the parse, the harness, the verdict's JSON encoded.
    """
    from rcaloop.contracts import RawResult  # noqa: PLC0415
    from rcaloop.contracts.common import utcnow  # noqa: PLC0415
    from rcaloop.judge import core as harness  # noqa: PLC0415
    from rcaloop.harness.settings import HarnessSettings  # noqa: PLC0415
    from rcaloop.ingestion import core as ingestion  # noqa: PLC0415
    from rcaloop.parser import core as parser  # noqa: PLC0415

    config, limits = HarnessSettings().harness_config(), ingestion.Limits()
    payloads = [encode(x)["payload"] for x in results(n, "inproc")]

    def run(batch: list[str]) -> None:
        for payload in batch:
            raw = RawResult.model_validate_json(payload)
            assessed = ingestion.assess(raw, limits)
            parsed = parser.parse_record(ingestion.ingest(assessed), None)
            harness.evaluate(parsed, config, now=utcnow()).model_dump_json()

    return _best_of(run, payloads)


def _best_of(run, batch: list, repeat: int = 3) -> tuple[float, float]:
    """(results/s, CPU s/result): the best of ``repeat`` timed passes after a warm-up pass
    (the first calls fill regex and lru caches; the services are warm when measured too)."""
    run(batch[: max(1, len(batch) // 5)])
    best_rate, best_cpu = 0.0, float("inf")
    for _ in range(repeat):
        started, cpu = time.perf_counter(), time.process_time()
        run(batch)
        best_rate = max(best_rate, len(batch) / (time.perf_counter() - started))
        best_cpu = min(best_cpu, (time.process_time() - cpu) / len(batch))
    return best_rate, best_cpu


def in_process_cores(n: int) -> tuple[float, float]:
    """As ``in_process`` but parse + harness only, on decoded results (``cli_deps().analyze``)."""
    deps = cli_deps()

    def run(batch: list) -> None:
        for raw in batch:
            deps.analyze(raw)

    return _best_of(run, results(n, "inproc-cores"))


def harness_only_in_process(parsed: list) -> float:
    deps = cli_deps()
    started = time.perf_counter()
    for p in parsed:
        deps.evaluate(p)
    return len(parsed) / (time.perf_counter() - started)


def publish(r, key: str, entries: list[dict]) -> list[bytes]:
    ids = []
    for i in range(0, len(entries), 500):
        pipe = r.pipeline(transaction=False)
        for fields in entries[i : i + 500]:
            pipe.xadd(key, fields)
        ids += pipe.execute()
    return ids


PIPELINE = [(Stream.RESULTS, "ingestion"), (Stream.INGESTED, "parser"), (Stream.PARSED, "harness")]


def throughput(n: int, harness_workers: int = 1) -> tuple[float, float]:
    """(results/s, service CPU seconds per result): a burst of ``n`` into running services.

    Wall clock from the first ``rca.results`` entry to the last ``rca.evaluated`` one; CPU
    summed over the three service processes (Redis server excluded).
    """
    r, prefix = client(), new_prefix("pipe")
    payloads = [encode(x) for x in results(n, "tp")]
    try:
        with Services(prefix) as svc:
            svc.start("ingestion", "ingestion-1")
            svc.start("parser", "parser-1")
            for i in range(harness_workers):
                svc.start("harness", f"harness-{i}")
            svc.wait_ready(r, PIPELINE)
            cpu, server = svc.cpu_each(), _server_cpu(r)
            first = publish(r, Stream.RESULTS.key(prefix), payloads)[0]
            if not wait_len(r, Stream.EVALUATED.key(prefix), n):
                raise SystemExit(f"pipeline did not finish {n} results; logs in {svc.dir}")
            cpu = [(b - a) / n for a, b in zip(cpu, svc.cpu_each(), strict=True)]
            server = (_server_cpu(r) - server) / n
        last = r.xrevrange(Stream.EVALUATED.key(prefix), count=1)[0][0]
        names = ["ingestion", "parser"] + [f"harness-{i}" for i in range(harness_workers)]
        print("  burst CPU per result: " + " · ".join(f"{k} {v * 1000:.2f} ms" for k, v in zip(names, cpu, strict=True))
              + f" · Redis server {server * 1000:.2f} ms (all its clients)")
        return n / ((id_ms(last) - id_ms(first)) / 1000), sum(cpu)
    finally:
        cleanup(r, prefix)


def _server_cpu(r) -> float:
    info = r.info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


def latency(rate: float, seconds: float) -> dict[str, float]:
    """Publish at ``rate`` results/s for ``seconds``; per-result results→evaluated latency (ms)."""
    r, prefix = client(), new_prefix("lat")
    n = int(rate * seconds)
    payloads = [encode(x) for x in results(n, "lat")]
    sent: dict[str, int] = {}
    try:
        with Services(prefix) as svc:
            for name in ("ingestion", "parser", "harness"):
                svc.start(name, f"{name}-1")
            svc.wait_ready(r, PIPELINE)
            warm = [encode(x) for x in results(50, "warm")]
            publish(r, Stream.RESULTS.key(prefix), warm)
            if not wait_len(r, Stream.EVALUATED.key(prefix), 50):
                raise SystemExit(f"warm-up did not finish; logs in {svc.dir}")
            cpu = svc.cpu_each()
            started, i, tick = time.perf_counter(), 0, 0.01
            while i < n:
                due = min(n, int((time.perf_counter() - started) * rate) + 1)
                if due > i:
                    pipe = r.pipeline(transaction=False)
                    for fields in payloads[i:due]:
                        pipe.xadd(Stream.RESULTS.key(prefix), fields)
                    for fields, entry_id in zip(payloads[i:due], pipe.execute(), strict=True):
                        sent[json.loads(fields["payload"])["result_id"]] = id_ms(entry_id)
                    i = due
                time.sleep(tick)
            if not wait_len(r, Stream.EVALUATED.key(prefix), n + 50):
                raise SystemExit(f"latency run did not finish; logs in {svc.dir}")
            cpu = [(b - a) / n * 1000 for a, b in zip(cpu, svc.cpu_each(), strict=True)]
        at = {s: _stamps(r, s.key(prefix), sent) for s in (Stream.INGESTED, Stream.PARSED, Stream.EVALUATED)}
        lat = [at[Stream.EVALUATED][rid] - sent[rid] for rid in sent]
        hops = {}
        for name, a, b in (("ingestion", None, Stream.INGESTED), ("parser", Stream.INGESTED, Stream.PARSED),
                           ("harness", Stream.PARSED, Stream.EVALUATED)):
            d = [at[b][rid] - (sent[rid] if a is None else at[a][rid]) for rid in sent]
            hops[name] = f"{percentile(d, 50):.0f}/{percentile(d, 95):.0f} ({cpu[len(hops)]:.2f} ms CPU)"
        return {"n": len(lat), "p50": percentile(lat, 50), "p95": percentile(lat, 95), "p99": percentile(lat, 99),
                "max": max(lat), "hops": hops}
    finally:
        cleanup(r, prefix)


def _stamps(r, key: str, wanted: dict) -> dict[str, int]:
    """result_id → the ms timestamp of its entry on ``key``."""
    out = {}
    for entry_id, fields in r.xrange(key):
        rid = json.loads(fields[b"payload"])["result_id"]
        if rid in wanted:
            out[rid] = id_ms(entry_id)
    return out


def parsed_entries(n: int) -> list:
    deps = cli_deps()
    return [deps.parse(raw, None) for raw in results(n, "sc")]


def scaling(parsed: list, workers: int) -> float:
    r, prefix = client(), new_prefix("scale")
    try:
        payloads = [encode(p) for p in parsed]
        with Services(prefix) as svc:
            for i in range(workers):
                svc.start("harness", f"harness-{i}")
            svc.wait_ready(r, [(Stream.PARSED, "harness")])
            cpu = svc.cpu_each()
            first = publish(r, Stream.PARSED.key(prefix), payloads)[0]
            if not wait_len(r, Stream.EVALUATED.key(prefix), len(parsed)):
                raise SystemExit(f"harness did not finish; logs in {svc.dir}")
            spent = sum(b - a for a, b in zip(cpu, svc.cpu_each(), strict=True)) / len(parsed)
        print(f"  {workers} harness worker(s): {spent * 1000:.2f} ms CPU per result (sum over workers)")
        last = r.xrevrange(Stream.EVALUATED.key(prefix), count=1)[0][0]
        return len(parsed) / ((id_ms(last) - id_ms(first)) / 1000)
    finally:
        cleanup(r, prefix)


DOWNSTREAM = [("annotation", "annotation"), ("knowledge", "knowledge"), ("gate", "gate")]


def downstream(parsed: list, consumers: list[tuple[str, str]] = DOWNSTREAM) -> list[tuple[str, float, float]]:
    """The verdict consumers: (service, verdicts/s, CPU s/verdict) draining a burst on
    ``rca.evaluated`` together, with their default embedded stores (SQLite under the data dir)."""
    from rcaloop.contracts.common import utcnow  # noqa: PLC0415
    from rcaloop.judge import core as harness  # noqa: PLC0415
    from rcaloop.harness.settings import HarnessSettings  # noqa: PLC0415

    config = HarnessSettings().harness_config()
    payloads = [encode(harness.evaluate(p, config, now=utcnow())) for p in parsed]
    r, prefix = client(), new_prefix("down")
    key = Stream.EVALUATED.key(prefix)
    try:
        with Services(prefix) as svc:
            for name, _group in consumers:
                svc.start(name, f"{name}-1")
            svc.wait_ready(r, [(Stream.EVALUATED, group) for _, group in consumers])
            cpu = svc.cpu_each()
            started = id_ms(publish(r, key, payloads)[0]) / 1000  # Redis' clock, as the end is
            done: dict[str, float] = {}
            spent: dict[str, float] = {}
            stall = time.monotonic() + 120
            while len(done) < len(consumers) and time.monotonic() < stall:
                for (name, group), before, after in zip(consumers, cpu, svc.cpu_each(), strict=True):
                    if name not in done and _drained(r, key, group, len(payloads)):
                        seconds, micros = r.time()
                        done[name], spent[name] = seconds + micros / 1e6 - started, after - before
                time.sleep(0.01)
        return [(name, len(payloads) / done[name] if name in done else 0.0,
                 spent.get(name, 0.0) / len(payloads)) for name, _ in consumers]
    finally:
        cleanup(r, prefix)


def _drained(r, key: str, group: str, n: int) -> bool:
    for g in r.xinfo_groups(key):
        if g["name"].decode() == group:
            return g["entries-read"] is not None and g["entries-read"] >= n and g["pending"] == 0
    return False


PROFILE_PARTS = {  # label: (file suffix, function) whose cumulative time is the part
    "harness core (evaluate)": ("harness/core.py", "evaluate"),
    "decode the ParsedRCA payload (pydantic, from JSON)": ("shared/wire.py", "decode"),
    "encode the verdict (model_dump_json)": ("shared/wire.py", "encode"),
    "Redis round trips (pipelined commit + XREADGROUP)": ("redis/asyncio/client.py", "execute"),
}


def profile(parsed: list, top: int = 18) -> str:
    """One harness worker in this process under cProfile, until the pre-loaded stream is done."""
    from rcaloop.harness.app import HarnessSettings, build  # noqa: PLC0415
    from rcaloop.shared.service import run_services  # noqa: PLC0415

    from rcaloop.shared.logs import configure_logging  # noqa: PLC0415

    configure_logging("harness", "WARNING")
    r, prefix = client(), new_prefix("prof")
    publish(r, Stream.PARSED.key(prefix), [encode(p) for p in parsed])
    settings = HarnessSettings(rcaloop_stream_prefix=prefix, log_level="WARNING")

    async def run() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(run_services([build(settings)], settings, stop))
        while r.xlen(Stream.EVALUATED.key(prefix)) < len(parsed):
            await asyncio.sleep(0.05)
        stop.set()
        await task

    prof = cProfile.Profile()
    try:
        prof.enable()
        asyncio.run(run())
        prof.disable()
    finally:
        cleanup(r, prefix)
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out).sort_stats("cumulative")
    stats.print_stats(top)
    idle = sum(tt for (file, _l, func), (_c, _n, tt, _ct, _callers) in stats.stats.items()
               if func == "<method 'poll' of 'select.epoll' objects>")
    busy = stats.total_tt - idle
    shares: dict[str, float] = {}
    for (file, _line, func), (_cc, _nc, _tt, ct, _callers) in stats.stats.items():
        for label, (suffix, name) in PROFILE_PARTS.items():
            if file.endswith(suffix) and func == name:
                shares[label] = shares.get(label, 0) + ct
    shares["the rest: worker loop, asyncio, metrics, logging"] = busy - sum(shares.values())
    summary = "\n".join(f"  {label:<52} {ct:6.2f} s  {ct / busy:5.1%}" for label, ct in shares.items())
    summary += f"\n  {'(busy; waiting in epoll excluded)':<52} {busy:6.2f} s"
    return f"{summary}\n{out.getvalue()}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=3000, help="results for throughput and scaling")
    ap.add_argument("--latency-seconds", type=float, default=10.0)
    ap.add_argument("--rate", type=float, default=None, help="latency publish rate (default: 50 %% of throughput)")
    ap.add_argument("--broker", type=float, default=None, help="broker ceiling msg/s (from broker.py) for the ratio")
    ap.add_argument("--repeat", type=int, default=3, help="throughput and scaling runs per worker count (best is kept)")
    ap.add_argument("--only", default="throughput,latency,scaling,profile")
    ap.add_argument("--downstream-n", type=int, default=1000, help="verdicts for the downstream consumers")
    ap.add_argument("--harness-workers", default="1,2",
                    help="harness processes in the throughput runs, comma-separated (latency runs one)")
    args = ap.parse_args()
    tune_gc()  # the in-process baselines collect garbage as the services do
    only = set(args.only.split(","))
    r = client()
    print(f"machine: {machine(r)}")
    rows: list[tuple[str, str]] = []

    inproc, cores = [in_process(min(args.n, 1000))], [in_process_cores(min(args.n, 1000))]
    tp = None
    runs: dict[int, list[tuple[float, float]]] = {}
    if "throughput" in only or ("latency" in only and not args.rate):
        # Alternate worker counts and re-measure the in-process baselines between pipeline
        # runs; keep the best of each (other work on the machine only ever slows a run).
        runs = {int(w): [] for w in sorted(set(args.harness_workers.split(",")))}
        for _ in range(args.repeat):
            for workers in runs:
                runs[workers].append(throughput(args.n, workers))
            inproc.append(in_process(min(args.n, 1000)))
            cores.append(in_process_cores(min(args.n, 1000)))
    (base, base_cpu), (core_rate, core_cpu) = max(inproc), max(cores)
    rows.append((f"in-process, JSON in → ingestion → parse → harness → JSON out (1 core, best of {len(inproc)})",
                 f"{base:,.0f} results/s · {base_cpu * 1000:.2f} ms CPU/result"))
    rows.append((f"in-process, parse + harness cores only (1 core, best of {len(cores)})",
                 f"{core_rate:,.0f} results/s · {core_cpu * 1000:.2f} ms CPU/result"))
    for workers, measured in runs.items():
        rate, rate_cpu = max(measured)
        tp = tp or rate
        label = (f"pipeline, {workers} harness worker{'s' if workers > 1 else ''} "
                 f"({args.n} results, {2 + workers} processes)")
        rows.append((f"{label}, best of {len(measured)}",
                     f"{rate:,.0f} results/s · {rate_cpu * 1000:.2f} ms CPU/result (all: "
                     + ", ".join(f"{r:,.0f}" for r, _ in measured) + ")"))
        rows.append(("  ratio to in-process, best vs best (target ≥ 0.8)", f"{rate / base:.2f}"))
        rows.append(("  ratio to parse + harness cores only", f"{rate / core_rate:.2f}"))
        rows.append(("  CPU per result, in-process / pipeline", f"{base_cpu / rate_cpu:.2f}"))
        if args.broker:
            rows.append(("  ratio to broker ceiling",
                         f"{rate / args.broker:.3f} (×3 hops = {3 * rate / args.broker:.3f} of it)"))
    if "latency" in only and (tp or args.rate):
        rate = args.rate or tp / 2
        lat = latency(rate, args.latency_seconds)
        share = f" ({rate / tp:.0%} of max)" if tp else ""
        rows.append((f"latency at {rate:,.0f} results/s{share}, n={lat['n']}",
                     f"p50 {lat['p50']:.0f} ms · p95 {lat['p95']:.0f} ms · p99 {lat['p99']:.0f} ms · max "
                     f"{lat['max']:.0f} ms"))
        rows.append(("  per hop p50/p95 ms (CPU per result)", " · ".join(f"{k} {v}" for k, v in lat["hops"].items())))
    if only & {"scaling", "profile", "downstream"}:
        parsed = parsed_entries(args.n)
        if "downstream" in only:
            for name, rate, cpu in downstream(parsed[: args.downstream_n]):
                rows.append((f"downstream {name} ({args.downstream_n} verdicts)",
                             f"{rate:,.0f} verdicts/s · {cpu * 1000:.2f} ms CPU/verdict" if rate
                             else "did not drain in 120 s"))
        rows.append(("in-process harness only (1 core)", f"{harness_only_in_process(parsed[:1000]):,.0f} results/s"))
        if "scaling" in only:
            runs: dict[int, list[float]] = {1: [], 2: []}
            for _ in range(args.repeat):  # alternated, best of each: other load only ever slows a run
                for workers in (1, 2):
                    runs[workers].append(scaling(parsed, workers))
            for workers, label in ((1, "1 worker process"), (2, "2 worker processes")):
                rows.append((f"harness, {label} (best of {args.repeat})",
                             f"{max(runs[workers]):,.0f} results/s (all: "
                             f"{', '.join(f'{x:,.0f}' for x in runs[workers])})"))
            rows.append(("  scaling 2 vs 1, best vs best (target ≥ 1.6)", f"{max(runs[2]) / max(runs[1]):.2f}×"))
        if "profile" in only:
            print("\nprofile of one harness worker (cProfile, cumulative):")
            print(profile(parsed[: min(len(parsed), 1500)]))
    print_rows(rows)


if __name__ == "__main__":
    main()
