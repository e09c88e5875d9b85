"""CLI start-up: each ``rcaloop`` command a script or CI runs per file, against ``python -c pass``.

Every command runs ``--runs`` times, interleaved with the others so they meet the same
machine; the script prints the median wall time, the median CPU time (user + system of the
process, what other load on the machine changes least), the peak memory, and each
command's ratio to the interpreter starting and doing nothing.

Usage: ``python benchmarks/cli_startup.py [--runs 15] [--rcaloop PATH]`` (default: the
``rcaloop`` installed beside this Python; point it at another checkout's to compare).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

COMMANDS = {  # label → arguments after rcaloop; targets: --help ≤ 0.3 s, the rest ≤ 0.5 s wall
    "rcaloop --help": ["--help"],
    "rcaloop parse FILE": ["parse", "examples/skill_outputs/checkout-5xx.txt"],
    "rcaloop harness FILE": ["harness", "examples/skill_outputs/checkout-5xx.txt"],
    "rcaloop annotation validate FILE": ["annotation", "validate", "tests/fixtures/annotation/valid_1234567.json",
                                         "--job-dir", "examples/jobs/1234567"],
    "rcaloop gate check FILE": ["gate", "check", "examples/eval/release_gate.synthetic.pass.json", "--allow-synthetic"],
}
TARGET_S = {"rcaloop --help": 0.3}


def run_once(argv: list[str]) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MB) of one process run to its end."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL, env={**os.environ, "COLUMNS": "100"})
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--rcaloop", default=str(Path(sys.executable).with_name("rcaloop")))
    args = ap.parse_args()
    cases = {"python -c pass": [sys.executable, "-c", "pass"]}
    cases |= {label: [args.rcaloop, *argv] for label, argv in COMMANDS.items()}
    for argv in cases.values():  # warm the file cache: the first run of a day is not the figure
        run_once(argv)
    seen: dict[str, list[tuple[float, float, float]]] = {label: [] for label in cases}
    for _ in range(args.runs):
        for label, argv in cases.items():
            seen[label].append(run_once(argv))
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · {os.cpu_count()} cores · "
          f"load average {os.getloadavg()[0]:.1f} · {args.runs} runs each, medians · {args.rcaloop}")
    base_wall, base_cpu = (statistics.median(x[i] for x in seen["python -c pass"]) for i in (0, 1))
    print(f"{'command':<34} {'wall':>8} {'CPU':>8} {'memory':>8} {'wall ÷ python':>14} {'CPU ÷ python':>13}  target")
    for label, runs in seen.items():
        wall, cpu = (statistics.median(x[i] for x in runs) for i in (0, 1))
        rss = max(x[2] for x in runs)
        target = "" if label == "python -c pass" else f"≤ {TARGET_S.get(label, 0.5)} s wall"
        print(f"{label:<34} {wall:7.3f}s {cpu:7.3f}s {rss:6.0f}MB {wall / base_wall:13.1f}× {cpu / base_cpu:12.1f}×  {target}")


if __name__ == "__main__":
    main()
