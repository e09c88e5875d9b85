"""CLI start-up: each ``rcaloop`` command a script or CI runs per file, against ``python -c pass``.

Every command runs ``--runs`` times, interleaved with the others (and with the other checkouts'
CLIs when several are given) so they meet the same machine; the script prints the median wall
time, the median CPU time (user + system of the process, what other load on the machine changes
least), the peak memory, and each command's ratio to the interpreter of the same venv starting
and doing nothing. Targets: ``--help`` ≤ 0.3 s and ≤ 6×, a one-file command ≤ 0.5 s and ≤ 10×.

Usage: ``python benchmarks/cli_startup.py [--runs 15] [--rcaloop [LABEL=]PATH …]`` (default: the
``rcaloop`` installed beside this Python). Give ``--rcaloop before=../main/.venv/bin/rcaloop
--rcaloop after=.venv/bin/rcaloop`` to compare two checkouts in one run.
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

COMMANDS = {  # label → arguments after rcaloop
    "rcaloop --help": ["--help"],
    "rcaloop parse FILE": ["parse", "examples/skill_outputs/checkout-5xx.txt"],
    "rcaloop harness FILE": ["harness", "examples/skill_outputs/checkout-5xx.txt"],
    "rcaloop annotation validate FILE": ["annotation", "validate", "tests/fixtures/annotation/valid_1234567.json",
                                         "--job-dir", "examples/jobs/1234567"],
    "rcaloop gate check FILE": ["gate", "check", "examples/eval/release_gate.synthetic.pass.json", "--allow-synthetic"],
}
TARGETS = {"rcaloop --help": (0.3, 6.0)}
"""(wall seconds, ratio to ``python -c pass``); every other command: (0.5, 10)."""
BASELINE = "python -c pass"


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


def _clis(given: list[str]) -> dict[str, Path]:
    clis: dict[str, Path] = {}
    for item in given or [str(Path(sys.executable).with_name("rcaloop"))]:
        label, _, path = item.rpartition("=")
        clis[label or str(Path(path).parents[2].name or path)] = Path(path)
    return clis


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--rcaloop", action="append", default=[], metavar="[LABEL=]PATH",
                    help="an rcaloop executable (repeat to compare checkouts; its venv's python is the baseline)")
    args = ap.parse_args()
    cases: dict[tuple[str, str], list[str]] = {}
    for label, cli in _clis(args.rcaloop).items():
        cases[(label, BASELINE)] = [str(cli.with_name("python")), "-c", "pass"]
        cases |= {(label, name): [str(cli), *argv] for name, argv in COMMANDS.items()}
    for argv in cases.values():  # warm the file cache: the first run of a day is not the figure
        run_once(argv)
    seen: dict[tuple[str, str], list[tuple[float, float, float]]] = {key: [] for key in cases}
    for _ in range(args.runs):
        for key, argv in cases.items():
            seen[key].append(run_once(argv))
    bytecode = "PYTHONDONTWRITEBYTECODE=1 (nothing compiled at run time is kept)" if os.environ.get(
        "PYTHONDONTWRITEBYTECODE") else "bytecode written as usual"
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · {os.cpu_count()} cores · load average "
          f"{os.getloadavg()[0]:.1f} · {args.runs} runs each, medians, interleaved · {bytecode}")
    for label, cli in _clis(args.rcaloop).items():
        print(f"\n{label}: {cli}")
        print(f"{'command':<34} {'wall':>8} {'CPU':>8} {'memory':>8} "
              f"{'wall ÷ python':>14} {'CPU ÷ python':>13}  target")
        base_wall, base_cpu = (statistics.median(x[i] for x in seen[(label, BASELINE)]) for i in (0, 1))
        for name in (BASELINE, *COMMANDS):
            runs = seen[(label, name)]
            wall, cpu = (statistics.median(x[i] for x in runs) for i in (0, 1))
            rss = max(x[2] for x in runs)
            limit, ratio = TARGETS.get(name, (0.5, 10.0))
            target = "" if name == BASELINE else f"≤ {limit} s and ≤ {ratio:.0f}× wall"
            print(f"{name:<34} {wall:7.3f}s {cpu:7.3f}s {rss:6.0f}MB "
                  f"{wall / base_wall:13.1f}× {cpu / base_cpu:12.1f}×  {target}")


if __name__ == "__main__":
    main()
