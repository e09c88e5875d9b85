"""CPU-heavy pure work off the event loop, in a child process, with a time budget per call.

The event loop of a service process also answers ``/readyz`` and serves every other
consumer group; judging one large or hostile output can take a minute of CPU. Running the
pure core in a child process keeps the loop free, and — unlike a thread — lets a call that
outlives its budget be stopped: the child is killed (pebble's ``ProcessPool`` restarts it)
and the entry is dead-lettered as ``time_budget_exceeded`` at once, since it would take as
long again. pebble is used because it kills a worker on a per-task timeout, which the
standard library's ``ProcessPoolExecutor`` cannot do.

Children start from a fork server (never a fork of the running service, whose event loop,
sockets and threads must not be copied), and import what they run on first use.
"""

from __future__ import annotations

import asyncio
import importlib
import multiprocessing
from collections.abc import Callable
from concurrent.futures import CancelledError
from typing import Any, TypeVar

from pebble import ProcessExpired, ProcessPool

from rcaloop.shared.consumer import PermanentError

T = TypeVar("T")


class Offload:
    """``await offload.run(fn, *args, **kwargs)``: ``fn(*args, **kwargs)`` in a child process, within ``budget_s``.

    ``fn`` and its arguments are pickled: a module-level function of a pure core, models
    and plain values. ``workers`` children share the calls (one is enough for a worker that
    handles one entry at a time).
    """

    def __init__(self, budget_s: float, *, imports: tuple[str, ...] = (), workers: int = 1):
        self.budget_s = budget_s
        self.imports = imports
        self.workers = workers
        self._pool: ProcessPool | None = None

    def _opened(self) -> ProcessPool:
        if self._pool is None or not self._pool.active:
            self._pool = ProcessPool(max_workers=self.workers, context=multiprocessing.get_context("forkserver"),
                                     initializer=_import, initargs=(self.imports,))
        return self._pool

    async def start(self) -> None:
        """Start the children and import ``imports`` there now (a service's startup hook), so
        the first entry does not pay for it and is not reclaimed by another worker meanwhile."""
        await asyncio.wrap_future(self._opened().schedule(_import, args=(self.imports,)))

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        future = self._opened().schedule(fn, args=args, kwargs=kwargs, timeout=self.budget_s)
        try:
            return await asyncio.wrap_future(future)
        except TimeoutError:
            raise PermanentError("time_budget_exceeded", f"{getattr(fn, '__name__', 'the work')} took longer than "
                                 f"its budget of {self.budget_s:g} s (ENTRY_BUDGET_S) and was stopped") from None
        except ProcessExpired as exc:  # the child died (killed, out of memory): a failure, retried
            raise RuntimeError(f"the worker process ended while judging the entry (exit code {exc.exitcode})") from None
        except asyncio.CancelledError:
            future.cancel()
            raise
        except CancelledError:
            raise RuntimeError("the worker process was stopped") from None

    async def close(self) -> None:
        """Stop the children (a service's shutdown hook)."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.stop()
            await asyncio.to_thread(pool.join, 10)


def _import(modules: tuple[str, ...]) -> None:
    """Import each module; one with a ``warm()`` (the secret engine's rule catalog) is warmed too."""
    for name in modules:
        warm = getattr(importlib.import_module(name), "warm", None)
        if callable(warm):
            warm()
