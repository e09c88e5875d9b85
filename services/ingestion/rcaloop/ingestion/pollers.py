"""Pollers: publish finished job directories (local ``.analysis/`` root, jumpbox) to ``rca.results``.

Off by default; ``RCALOOP_POLL_LOCAL`` / ``RCALOOP_POLL_JUMPBOX`` turn them on. Each job
version is published once: a Redis set remembers ``<job_id>:<analysis_hash>`` and one Lua
script adds the member and the stream entry together, so neither a restart nor two
pollers on the same root publish a job twice. A changed job (new content, new hash) is
published again; the ingestion worker decides what to keep.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from redis.exceptions import RedisError

from rcaloop.contracts import RawResult, Stream, analysis_hash
from rcaloop.contracts.results import job_id_problem
from rcaloop.shared.jumpbox import Jumpbox, JumpboxError, JumpboxSettings
from rcaloop.shared.logs import get_logger
from rcaloop.shared.sources import STEP_FILES, SourceError, load_result
from rcaloop.shared.wire import encode

LOCAL_PRODUCER = "ingestion-local-poller"
JUMPBOX_PRODUCER = "ingestion-jumpbox-poller"

_PUBLISH_ONCE_LUA = """
if redis.call('SADD', KEYS[1], ARGV[1]) == 1 then
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', 'payload', ARGV[3], 'producer', ARGV[4])
  return 1
end
return 0
"""

def log():
    """The service logger, looked up at call time (after the host configured logging)."""
    return get_logger("ingestion")


def published_key(prefix: str) -> str:
    return f"{prefix}rcaloop:ingestion:published"


def jumpbox_seen_key(prefix: str) -> str:
    return f"{prefix}rcaloop:ingestion:jumpbox_seen"


async def publish_once(redis, prefix: str, raw: RawResult, maxlen: int = 100_000) -> bool:
    """XADD ``raw`` to ``rca.results`` unless this job version was published before."""
    member = f"{raw.job_id or raw.result_id}:{analysis_hash(raw.kind, raw.content)}"
    fields = encode(raw)
    keys = (published_key(prefix), Stream.RESULTS.key(prefix))
    added = await redis.eval(_PUBLISH_ONCE_LUA, 2, *keys, member, maxlen, fields["payload"], raw.producer)
    return bool(added)


@dataclass
class LocalPoller:
    """Scans ``root`` for ``<job_id>/step5_summary.json`` directories that have settled."""

    root: Path
    prefix: str
    settle_s: float = 2.0
    maxlen: int = 100_000
    _signatures: dict[str, tuple] = field(default_factory=dict)

    async def poll_once(self, redis) -> int:
        published = 0
        for job_dir, signature in await asyncio.to_thread(self._changed):
            try:
                raw = await asyncio.to_thread(load_result, job_dir, producer=LOCAL_PRODUCER)
            except SourceError as exc:
                log().warning("poll_skipped", job_id=job_dir.name, reason=str(exc))
                self._signatures[job_dir.name] = signature
                continue
            if await publish_once(redis, self.prefix, raw, self.maxlen):
                published += 1
                log().info("poll_published", source="local", job_id=job_dir.name)
            self._signatures[job_dir.name] = signature
        return published

    def _changed(self) -> list[tuple[Path, tuple]]:
        """Job directories whose files changed since the last scan and are quiet now."""
        if not self.root.is_dir():
            return []
        now, found = time.time(), []
        for job_dir in sorted(self.root.iterdir()):
            if job_id_problem(job_dir.name) or not (job_dir / STEP_FILES[0]).is_file():
                continue  # hidden partial downloads, stray files, unfinished jobs
            stats = [(p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in sorted(job_dir.iterdir()) if p.is_file()]
            signature = tuple(stats)
            newest = max(m for _, m, _ in stats) / 1e9
            if self._signatures.get(job_dir.name) != signature and now - newest >= self.settle_s:
                found.append((job_dir, signature))
        return found


@dataclass
class JumpboxPoller:
    """Lists the jumpbox's job directories; downloads and publishes new or changed ones."""

    settings: JumpboxSettings
    prefix: str
    maxlen: int = 100_000

    async def poll_once(self, redis) -> int:
        published = 0
        seen_key = jumpbox_seen_key(self.prefix)
        async with Jumpbox(self.settings) as jb:
            for job in await jb.list_jobs():
                signature = f"{job.step5_mtime}:{job.step5_size}".encode()
                if await redis.hget(seen_key, job.job_id) == signature:
                    continue
                try:
                    path = await jb.download(job.job_id)
                    raw = await asyncio.to_thread(load_result, path, producer=JUMPBOX_PRODUCER)
                except (JumpboxError, SourceError) as exc:
                    if isinstance(exc, JumpboxError) and exc.exit_code in (5, 6, 7):
                        raise  # the connection itself is broken: retry the whole poll later
                    log().warning("poll_skipped", source="jumpbox", job_id=job.job_id, reason=str(exc))
                    continue  # probably still being written: look again next round
                if await publish_once(redis, self.prefix, raw, self.maxlen):
                    published += 1
                    log().info("poll_published", source="jumpbox", job_id=job.job_id)
                await redis.hset(seen_key, job.job_id, signature)
        return published


async def poll_forever(name: str, poll_once: Callable[[], Awaitable[int]], interval_s: float,
                       stop: asyncio.Event) -> None:
    """Run ``poll_once`` every ``interval_s`` until ``stop``; failures are logged, never fatal."""
    log().info("poller_started", poller=name, interval_s=interval_s)
    while not stop.is_set():
        try:
            await poll_once()
        except JumpboxError as exc:
            log().warning("poll_failed", poller=name, error_code=exc.code, error=exc.message)
        except (RedisError, OSError) as exc:
            log().warning("poll_failed", poller=name, error=type(exc).__name__)
        except Exception as exc:  # noqa: BLE001 - a poller bug must not stop the service
            log().error("poll_failed", poller=name, error=f"{type(exc).__name__}: {exc}"[:300])
        try:
            await asyncio.wait_for(stop.wait(), timeout=interval_s)
        except TimeoutError:
            pass
    log().info("poller_stopped", poller=name)
