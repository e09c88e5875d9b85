"""Broker ceiling: raw redis-py XADD (pipelined) + XREADGROUP (batched) + XACK, messages/s.

The same payloads as the pipeline benchmark (the bundled examples as ``RawResult`` JSON),
no contracts decoded, no handler: what one Python process can push through Redis
Streams. Usage: ``python benchmarks/broker.py [--n 20000] [--batch 100]``.
"""

from __future__ import annotations

import argparse
import time

from _common import cleanup, client, machine, new_prefix, results

from rcaloop.contracts import Stream
from rcaloop.shared.wire import encode


def round_trip(n: int, batch: int, pipe_chunk: int = 500) -> dict[str, float]:
    r = client()
    prefix = new_prefix("broker")
    key = Stream.RESULTS.key(prefix)
    payloads = [encode(res) for res in results(n, "b")]
    try:
        r.xgroup_create(key, "bench", id="0", mkstream=True)
        cpu = _server_cpu(r)
        started = time.perf_counter()
        for i in range(0, n, pipe_chunk):
            pipe = r.pipeline(transaction=False)
            for fields in payloads[i : i + pipe_chunk]:
                pipe.xadd(key, fields)
            pipe.execute()
        published = time.perf_counter()
        done = 0
        while done < n:
            resp = r.xreadgroup("bench", "c1", {key: ">"}, count=batch, block=1000)
            ids = [entry_id for entry_id, _fields in resp[0][1]] if resp else []
            if ids:
                r.xack(key, "bench", *ids)
            done += len(ids)
        consumed = time.perf_counter()
        return {
            "n": n,
            "payload_bytes": sum(len(f["payload"]) for f in payloads) / n,
            "xadd_per_s": n / (published - started),
            "read_ack_per_s": n / (consumed - published),
            "round_trip_per_s": n / (consumed - started),
            "server_cpu_us": (_server_cpu(r) - cpu) / n * 1e6,
        }
    finally:
        cleanup(r, prefix)
        r.close()


def _server_cpu(r) -> float:
    """Redis' own CPU seconds so far (every client's work, if the server is shared)."""
    info = r.info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--batch", type=int, default=100, help="XREADGROUP COUNT (the runtime's BATCH_SIZE)")
    args = ap.parse_args()
    r = client()
    print(f"machine: {machine(r)}")
    res = round_trip(args.n, args.batch)
    print(f"payload: {res['payload_bytes']:.0f} bytes avg, n={args.n}, read batch={args.batch}")
    print(f"XADD pipelined:        {res['xadd_per_s']:>9,.0f} msg/s")
    print(f"XREADGROUP+XACK:       {res['read_ack_per_s']:>9,.0f} msg/s")
    print(f"round trip (ceiling):  {res['round_trip_per_s']:>9,.0f} msg/s")
    print(f"Redis server CPU:      {res['server_cpu_us']:>9,.1f} µs per message (XADD + read + ack; all clients)")


if __name__ == "__main__":
    main()
