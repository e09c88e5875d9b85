"""Driving an agent command per case (``rcaloop eval run --agent-cmd``): an I/O adapter.

The command gets the case input (context block + incident) on stdin and must print
its skill text output on stdout. It runs without a shell, with a timeout, in a
thread pool of ``parallel`` workers; a timeout, a non-zero exit or empty output is a
per-case error (code ``EV002``), never a crash of the run.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass

from rcaloop.contracts import Issue

MAX_OUTPUT_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class AgentRun:
    case_id: str
    output: str | None
    error: Issue | None
    duration_s: float


def split_command(cmd: str) -> list[str]:
    try:
        argv = shlex.split(cmd)
    except ValueError as exc:
        raise ValueError(f"--agent-cmd is not a valid command line: {exc}") from None
    if not argv:
        raise ValueError("--agent-cmd is empty")
    return argv


def run_one(argv: list[str], case_id: str, stdin: str, timeout: float) -> AgentRun:
    started = time.perf_counter()
    env = {**os.environ, "RCALOOP_CASE_ID": case_id}
    try:
        proc = subprocess.run(  # noqa: S603
            argv, input=stdin.encode("utf-8"), capture_output=True, timeout=timeout, env=env, check=False
        )
    except subprocess.TimeoutExpired:
        return AgentRun(case_id, None, Issue(code="EV002", message=f"{case_id}: agent timed out after {timeout:g} s"),
                        time.perf_counter() - started)
    except OSError as exc:
        return AgentRun(case_id, None,
                        Issue(code="EV002", message=f"{case_id}: agent could not start: {exc.strerror or exc}"),
                        time.perf_counter() - started)
    elapsed = time.perf_counter() - started
    out = proc.stdout[:MAX_OUTPUT_BYTES].decode("utf-8", "replace")
    if proc.returncode != 0:
        tail = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        return AgentRun(case_id, None,
                        Issue(code="EV002", message=f"{case_id}: agent exited {proc.returncode}: {tail[0][:200]}"),
                        elapsed)
    if not out.strip():
        return AgentRun(case_id, None, Issue(code="EV002", message=f"{case_id}: agent printed nothing"), elapsed)
    return AgentRun(case_id, out, None, elapsed)


def run_all(
    argv: list[str], inputs: dict[str, str], *, timeout: float, parallel: int,
    on_done: Callable[[AgentRun], None] | None = None
) -> Iterator[AgentRun]:
    """Every case's run, yielded as each completes."""
    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        futures = [pool.submit(run_one, argv, cid, text, timeout) for cid, text in inputs.items()]
        for fut in as_completed(futures):
            run = fut.result()
            if on_done:
                on_done(run)
            yield run
