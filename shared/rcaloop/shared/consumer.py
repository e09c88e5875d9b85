"""The reliable stream worker every service subscribes through.

Guarantees, in the order a message meets them:

* the group is created from id ``0`` (FastStream would create it at ``$`` and skip
  older entries);
* entries are read in batches (``XREADGROUP COUNT n``); an entry that cannot become the
  stream's contract (over ``MAX_PAYLOAD_BYTES``, not UTF-8, not JSON, nested too deep, a
  contract violation — or anything else the decoder raises) is dead-lettered at once
  with its code: retrying cannot fix it;
* an optional ``prepare`` step turns the payload into what both the idempotency key
  and the handler need, so work they share is done once per entry;
* the handler (a thin adapter over a pure core) returns the messages to emit — once
  per entry, or once per batch for a subscription with ``handle_batch``; the
  emits, the idempotency key and the ``XACK`` are committed in **one Lua script**, so a
  message is either fully processed or not at all, and a key already committed turns
  a redelivery into a no-op (exactly-once effects on stream hops);
* every step of an entry's path runs inside one guard: whatever it raises is recorded
  against that entry alone, never the batch or the worker. A ``PermanentError`` (a value
  a store refuses, a time budget spent) dead-letters the entry at once with its code:
  retrying would meet the same refusal. Any other ``prepare``, key or handler
  exception leaves the entry pending (FastStream's nack would be a no-op too); the
  reclaim loop (``XAUTOCLAIM``) retries it — and takes over entries of dead consumers —
  until ``MAX_DELIVERIES``, then moves it to ``<stream>.dlq`` with the step's code
  (``prepare_failed``, ``key_failed``, ``handler_failed``) and the last error, and acks
  it; emits that cannot be encoded dead-letter the entry at once (``emit_unencodable``);
* Redis going away, or refusing writes (out of memory, a failed disk, a read-only
  replica after a failover), is logged once per outage and retried with capped backoff;
  nothing is acknowledged before its effects are written (one script does both), and
  no entry is reclaimed while writes are refused, so an outage never exhausts deliveries;
* every ``RETENTION_INTERVAL_S`` the worker lets go of what nobody needs (``retention``):
  entries every group acknowledged that are older than the stream's retention, and
  consumers of its group that are gone;
* a stop request is honoured between batches: the batch in hand is finished and acked.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import redis.asyncio as aioredis
from pydantic import BaseModel
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, OutOfMemoryError, ReadOnlyError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.typing import KeyT, StreamIdT

from rcaloop.contracts import DeadLetter, Stream
from rcaloop.shared import metrics
from rcaloop.shared.commit import COMMIT_LUA, Item, commit_args
from rcaloop.shared.lag import group_lag
from rcaloop.shared.logs import get_logger
from rcaloop.shared.retention import release, retention_s
from rcaloop.shared.settings import RuntimeSettings
from rcaloop.shared.secrets import ScanBudgetExceeded, redact_dead_letter
from rcaloop.shared.status import trimmed_unread
from rcaloop.shared.wire import Fields, PayloadError, as_text, decode, encode, entry_size, letter_fields, read_fields


class PermanentError(Exception):
    """Raised by a ``prepare`` step or handler for an entry that can never succeed.

    The worker dead-letters it at once with ``code`` instead of retrying it
    ``MAX_DELIVERIES`` times under ``handler_failed`` (a code that says "replay me").
    """

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Emit:
    """A message a handler wants published once its input is acknowledged."""

    stream: Stream | str
    model: BaseModel
    headers: dict[str, str] = field(default_factory=dict)


Handler = Callable[[Any], Sequence[Emit] | Awaitable[Sequence[Emit]]]
BatchHandler = Callable[[list[Any]], Sequence[Sequence[Emit]] | Awaitable[Sequence[Sequence[Emit]]]]


@dataclass(frozen=True)
class Delivery:
    """The entry a handler is working on, for a handler that rejects it itself.

    A handler that finds a well-formed payload unacceptable (too large, bad ids) returns
    ``Emit(current_delivery().dlq_key, DeadLetter(...))`` built from these fields.
    """

    stream: str
    group: str
    message_id: str
    fields: dict[str, str]
    deliveries: int
    consumer: str
    dlq_key: str


_current_delivery: ContextVar[Delivery | None] = ContextVar("rcaloop_current_delivery", default=None)


def current_delivery() -> Delivery | None:
    """The entry being handled, inside a handler called by ``StreamWorker``; else None."""
    return _current_delivery.get()


@dataclass(frozen=True)
class Subscription:
    """One stream and group: ``handle(prepare(payload))``, committed under ``idempotency_key``.

    ``prepare`` (default: the payload as decoded) runs once per entry; the key function
    and the handler both receive its value. ``handle_batch`` (optional) takes a batch's
    values and returns one list of emits per value, in order — for a handler whose cost
    is per call (a database commit); ``handle`` still serves single entries and retries.
    """

    stream: Stream
    model: type[BaseModel]
    handle: Handler
    group: str
    idempotency_key: Callable[[Any], str] | None = None
    prepare: Callable[[BaseModel], Any] | None = None
    handle_batch: BatchHandler | None = None


_REDIS_DOWN = (RedisConnectionError, RedisTimeoutError, ConnectionError, OSError)

_REFUSALS = (  # marker in the error text → reason logged
    ("when used memory > 'maxmemory'", "out_of_memory"),
    ("MISCONF ", "disk_error"),
    ("Errors writing to the AOF file", "disk_error"),
    ("write against a read only replica", "read_only_replica"),
    ("NOREPLICAS ", "not_enough_replicas"),
    ("MASTERDOWN ", "master_down"),
    ("UNBLOCKED ", "read_only_replica"),  # a blocked read cut off as the server became a replica
)


def write_refusal(exc: BaseException) -> str | None:
    """Why Redis refused a write (a state it recovers from), or None for any other error.

    Inside the commit script Redis 7 keeps the refusal's class (``OOM``, ``READONLY`` …)
    and Redis 6.2 wraps it in a script error, so the text is what is matched.
    """
    if isinstance(exc, OutOfMemoryError):
        return "out_of_memory"
    if isinstance(exc, ReadOnlyError):
        return "read_only_replica"
    if isinstance(exc, ResponseError):
        text = str(exc)
        return next((reason for marker, reason in _REFUSALS if marker in text), None)
    return None


@dataclass(frozen=True)
class _Metrics:
    """This worker's labelled metric children (looked up once, not per message)."""

    processed: Any
    failed: Any
    duplicates: Any
    reclaimed: Any
    pending: Any
    lag: Any
    handler_seconds: Any
    trimmed_unread: Any


class StreamWorker:
    """Consumes one stream for one consumer group; see the module docstring."""

    def __init__(self, redis: aioredis.Redis, sub: Subscription, settings: RuntimeSettings, service: str):
        self.redis = redis
        self.sub = sub
        self.settings = settings
        self.service = service
        prefix = settings.prefix
        self.key = sub.stream.key(prefix)
        self.dlq_key = sub.stream.dlq_key(prefix)
        self.errors_key = f"{prefix}rcaloop:errors:{self.key}:{sub.group}"
        self.done_prefix = f"{prefix}rcaloop:done:{sub.group}:"
        self.probe_key = f"{prefix}rcaloop:probe:{settings.consumer_name}"
        self.prefix = prefix
        self.log = get_logger(service, stream=self.key, group=sub.group)
        labels = {"service": service, "stream": self.key}
        self._labels = labels
        self._m = _Metrics(*(m.labels(**labels) for m in (
            metrics.PROCESSED, metrics.FAILED, metrics.DUPLICATES,
            metrics.RECLAIMED, metrics.PENDING, metrics.LAG, metrics.HANDLER_SECONDS, metrics.TRIMMED_UNREAD)))
        self._commit = redis.register_script(COMMIT_LUA)
        self._group_ready = False
        self._last_reclaim = 0.0
        self._last_release = 0.0
        self._deferred: list[Item] = []  # a fresh batch's commit, sent with the next read
        self._refused: str | None = None  # why Redis refuses writes, while it does

    @property
    def refusing_writes(self) -> str | None:
        """Why Redis refuses this worker's writes right now (``out_of_memory`` …), or None."""
        return self._refused

    # -- lifecycle -------------------------------------------------------------------
    async def ensure_group(self) -> None:
        try:
            await self.redis.xgroup_create(self.key, self.sub.group, id="0", mkstream=True)
        except ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise
        self._group_ready = True

    async def run(self, stop: asyncio.Event) -> None:
        """Consume until ``stop``; only a bug in the worker itself (never an entry) ends it early."""
        backoff, down_since = 0.5, None
        while not stop.is_set():
            try:
                if self._refused:  # nothing is read or reclaimed until Redis takes writes again
                    await self._probe_writes()
                if not self._group_ready:
                    await self.ensure_group()
                if time.monotonic() - self._last_reclaim >= self.settings.claim_interval_ms / 1000:
                    await self.flush()
                    await self.reclaim()
                await self.read_once()
                if down_since is not None:
                    self._recovered(time.monotonic() - down_since)
                    down_since, backoff = None, 0.5
            except (*_REDIS_DOWN, ResponseError) as exc:
                if isinstance(exc, ResponseError) and "NOGROUP" in str(exc):  # Redis restarted empty
                    self._group_ready = False
                    continue
                reason = write_refusal(exc) if isinstance(exc, ResponseError) else None
                if isinstance(exc, ResponseError) and reason is None:
                    raise
                if down_since is None:
                    down_since = time.monotonic()
                    self._outage(exc, reason, backoff)
                self._refused = reason or self._refused
                self._group_ready = self._group_ready and reason is not None
                await _sleep_or_stop(stop, backoff)
                backoff = min(backoff * 2, 10.0)
        try:
            await self.flush()
        except (*_REDIS_DOWN, ResponseError):  # uncommitted entries stay pending: another consumer reclaims them
            self.log.warning("stopped_with_uncommitted_batch", entries=len(self._deferred))
        self.log.info("worker_stopped")

    def _outage(self, exc: BaseException, reason: str | None, retry_in_s: float) -> None:
        if reason:
            self.log.warning("redis_refusing_writes", reason=reason, error=str(exc)[:300], retry_in_s=retry_in_s,
                             uncommitted=len(self._deferred))
        else:
            self.log.warning("redis_unreachable", error=type(exc).__name__, retry_in_s=retry_in_s)

    def _recovered(self, outage_s: float) -> None:
        if self._refused:
            self.log.info("redis_accepting_writes", reason=self._refused, outage_s=round(outage_s, 1))
            self._refused = None
        else:
            self.log.info("redis_reconnected", outage_s=round(outage_s, 1))

    async def _probe_writes(self) -> None:
        """One small write: raises while Redis still refuses, so the loop keeps backing off.

        Until it succeeds the worker neither reads nor reclaims: a reclaim would count a
        delivery for entries that cannot be committed, and enough of those would
        dead-letter good entries for an outage that was Redis's, not theirs.
        """
        await self.redis.set(self.probe_key, "1", px=60_000)
        await self.flush()

    async def read_once(self) -> int:
        """Read the next batch; the previous batch's commit rides in the same round trip.

        Redis runs the commit script before the (blocking) read, so effects and acks land
        as soon as they are sent; pipelining them only saves a round trip per batch, which
        is most of the cost of a batch of one at moderate traffic. A refused commit keeps
        its batch in hand (``_deferred``) to be committed once Redis takes writes again.
        """
        group, consumer = self.sub.group, self.settings.consumer_name
        count, block = self.settings.batch_size, self.settings.block_ms
        streams: dict[KeyT, StreamIdT] = {self.key: ">"}
        if self._deferred:
            items = self._deferred
            pipe = self.redis.pipeline(transaction=False)
            pipe.execute_command("EVALSHA", self._commit.sha, 0, *self._commit_args(items))
            pipe.xreadgroup(group, consumer, streams, count=count, block=block)
            skipped, resp = await pipe.execute(raise_on_error=False)
            if isinstance(skipped, NoScriptError):  # Redis lost its scripts (restart): load and commit again
                skipped = await self._commit(args=self._commit_args(items))
            elif isinstance(skipped, Exception):
                raise skipped  # entries read with it stay pending and are reclaimed
            self._deferred = []
            await self._committed(items, skipped, redelivered=False)
            if isinstance(resp, Exception):
                raise resp
        else:
            resp = await self.redis.xreadgroup(group, consumer, streams, count=count, block=block)
        if not resp:
            return 0
        entries = resp[0][1]
        await self.process(entries, deliveries=None, defer=True)
        return len(entries)

    async def flush(self) -> None:
        """Commit a deferred batch now (before a reclaim pass, on stop, when writes resume)."""
        if self._deferred:
            items = self._deferred
            skipped = await self._commit(args=self._commit_args(items))
            self._deferred = []
            await self._committed(items, skipped, redelivered=False)

    # -- processing --------------------------------------------------------------------
    async def process(self, entries: list, deliveries: dict[str, int] | None, *, defer: bool = False) -> None:
        """Handle a batch and commit its effects and acks atomically (or leave the commit
        to ride with the next read, ``defer``). Every entry ends as an item to commit
        (handled, duplicate or dead letter) or as a recorded failure: never as an exception."""
        items: list[Item] = []
        failures: Fields = {}
        ready: list[_Ready] = []
        for raw_id, raw_fields in entries:
            msg_id = as_text(raw_id)
            n = (deliveries or {}).get(msg_id, 1)
            entry = self._prepared(msg_id, raw_fields or {}, n, failures)
            if isinstance(entry, Item):
                items.append(entry)
            elif entry is not None:
                ready.append(entry)

        done = await self._already_done([e.key for e in ready]) if deliveries is not None else set()
        todo: list[_Ready] = []
        in_batch: set[str] = set()
        for entry in ready:
            if entry.key and (entry.key in done or entry.key in in_batch):  # committed earlier, or twice in this batch
                self._m.duplicates.inc()
                self.log.info("duplicate_skipped", message_id=entry.msg_id)
                items.append(Item(entry.msg_id))
                continue
            in_batch.add(entry.key)
            todo.append(entry)
        items += await self._handled(todo, failures)

        if failures:
            await self.redis.hset(self.errors_key, mapping=failures)
        if items and defer:
            self._deferred = items
        elif items:
            skipped = await self._commit(args=self._commit_args(items))
            await self._committed(items, skipped, redelivered=deliveries is not None)

    def _prepared(self, msg_id: str, raw: dict, n: int, failures: Fields) -> _Ready | Item | None:
        """Decode, prepare and key one entry: what to handle, a dead letter, or None (failed, retried)."""
        sub = self.sub
        try:
            if (size := entry_size(raw)) > self.settings.max_payload_bytes:  # never parse it: it could take the memory
                raise PayloadError("payload_too_large",
                                   f"entry is {size} bytes, over the {self.settings.max_payload_bytes} byte limit "
                                   "(MAX_PAYLOAD_BYTES)")
            fields = read_fields(raw)
            model = decode(fields, sub.model)
        except PayloadError as exc:
            return self._dead_letter(msg_id, raw, exc.code, str(exc), n)
        except Exception as exc:  # noqa: BLE001 - the decoder's bug, yet the entry's alone: retrying cannot fix it
            return self._dead_letter(msg_id, raw, "undecodable", _error_text(exc), n)
        step = "prepare_failed"
        try:
            value = sub.prepare(model) if sub.prepare else model
            step = "key_failed"
            key = self.done_prefix + sub.idempotency_key(value) if sub.idempotency_key else ""
        except (PermanentError, ScanBudgetExceeded) as exc:
            return self._dead_letter(msg_id, raw, exc.code, str(exc), n)
        except Exception as exc:  # noqa: BLE001 - like a handler failure: retried, then dead-lettered
            self._failed(failures, msg_id, step, exc)
            return None
        return _Ready(msg_id, fields, value, key, n)

    async def _handled(self, todo: list[_Ready], failures: Fields) -> list[Item]:
        """Run the handler: once for the whole batch when the subscription has
        ``handle_batch`` (and the batch holds more than one entry), else — or when the
        batch call raises — once per entry, so one bad entry cannot fail the rest."""
        sub = self.sub
        if sub.handle_batch is not None and len(todo) > 1:
            started = time.perf_counter()
            try:
                outs = sub.handle_batch([e.value for e in todo])
                if inspect.isawaitable(outs):
                    outs = await outs
                if len(outs) != len(todo):
                    raise ValueError(f"handle_batch returned {len(outs)} results for {len(todo)} entries")
            except Exception as exc:  # noqa: BLE001 - retried one entry at a time below
                self.log.warning("batch_failed", entries=len(todo), error=type(exc).__name__)
            else:
                share = (time.perf_counter() - started) / len(todo)
                for _ in todo:
                    self._m.handler_seconds.observe(share)
                return [self._item(e, out) for e, out in zip(todo, outs, strict=True)]
        items = []
        for entry in todo:
            started = time.perf_counter()
            token = _current_delivery.set(
                Delivery(self.key, sub.group, entry.msg_id, entry.fields, entry.deliveries,
                         self.settings.consumer_name, self.dlq_key)
            )
            try:
                result = sub.handle(entry.value)
                if inspect.isawaitable(result):
                    result = await result
            except (PermanentError, ScanBudgetExceeded) as exc:
                items.append(self._dead_letter(entry.msg_id, entry.fields, exc.code, str(exc), entry.deliveries))
                continue
            except Exception as exc:  # noqa: BLE001 - a handler bug must not kill the worker
                self._failed(failures, entry.msg_id, "handler_failed", exc)
                continue
            finally:
                _current_delivery.reset(token)
            self._m.handler_seconds.observe(time.perf_counter() - started)
            items.append(self._item(entry, result))
        return items

    def _item(self, entry: _Ready, emits: Sequence[Emit] | None) -> Item:
        """The entry's commit; emits that cannot be written dead-letter it instead (a retry
        would build the same ones)."""
        try:
            encoded = [(self._stream_key(e.stream), encode(e.model, **e.headers)) for e in emits or ()]
        except Exception as exc:  # noqa: BLE001 - e.g. nesting past the encoder's depth limit
            return self._dead_letter(entry.msg_id, entry.fields, "emit_unencodable", _error_text(exc), entry.deliveries)
        return Item(entry.msg_id, entry.key, encoded)

    def _failed(self, failures: Fields, msg_id: str, code: str, exc: Exception) -> None:
        self._m.failed.inc()
        failures[msg_id] = json.dumps({"code": code, "error": _error_text(exc)})
        self.log.warning(code, message_id=msg_id, error=type(exc).__name__)

    async def _committed(self, items: list[Item], skipped, *, redelivered: bool) -> None:
        processed = len(items) - int(skipped or 0)
        self._m.processed.inc(processed)
        if skipped:
            self._m.duplicates.inc(int(skipped))
            self.log.info("duplicate_skipped", count=int(skipped))
        if redelivered:  # only redeliveries can have an error recorded
            await self.redis.hdel(self.errors_key, *[i.msg_id for i in items])

    async def _already_done(self, keys: list[str]) -> set[str]:
        """The keys already committed, for redeliveries (the likely duplicates).

        The commit script is the guard: it claims each key with ``SET NX`` and skips the
        emits of a key claimed before. Looking the keys up first (``MGET``) only saves the
        handler's work, so a fresh read skips it (a third of a small batch's cost).
        """
        keys = [k for k in keys if k]
        if not keys:
            return set()
        found = await self.redis.mget(keys)
        return {key for key, hit in zip(keys, found, strict=True) if hit}

    def _stream_key(self, stream: Stream | str) -> str:
        return stream.key(self.prefix) if isinstance(stream, Stream) else stream

    def _dead_letter(self, msg_id: str, raw: dict, code: str, error: str, deliveries: int) -> Item:
        """The entry's dead letter: its fields bounded (the payload whole unless the entry is
        over ``MAX_PAYLOAD_BYTES``, every other field clipped), the code and the reason."""
        letter = _redacted(self.settings.secret_scan_budget_s, DeadLetter(
            stream=self.key,
            group=self.sub.group,
            message_id=msg_id,
            fields=letter_fields(raw, keep_payload=entry_size(raw) <= self.settings.max_payload_bytes),
            error_code=code,
            error=error,
            deliveries=deliveries,
            consumer=self.settings.consumer_name,
        ))
        metrics.DEAD_LETTERED.labels(code=code, **self._labels).inc()
        self.log.warning("dead_lettered", message_id=msg_id, error_code=code, deliveries=deliveries)
        return Item(msg_id, "", [(self.dlq_key, encode(letter))])

    def _commit_args(self, items: list[Item]) -> list[Any]:
        return commit_args(items, self.key, self.sub.group, self.settings.stream_maxlen,
                           self.settings.idempotency_ttl_s)

    # -- reclaim -----------------------------------------------------------------------
    async def reclaim(self) -> int:
        """Take over messages idle longer than ``CLAIM_IDLE_MS``; dead-letter exhausted ones."""
        self._last_reclaim = time.monotonic()
        total, cursor = 0, "0-0"
        for _ in range(100):  # bounded: at most 100 batches per pass
            resp = await self.redis.xautoclaim(
                self.key,
                self.sub.group,
                self.settings.consumer_name,
                min_idle_time=self.settings.claim_idle_ms,
                start_id=cursor,
                count=self.settings.batch_size,
            )
            cursor = as_text(resp[0])
            entries = [e for e in resp[1] if e[1] is not None]
            gone = [e[0] for e in resp[1] if e[1] is None] + (list(resp[2]) if len(resp) > 2 else [])
            if gone:  # trimmed away while pending: nothing left to process
                await self.redis.xack(self.key, self.sub.group, *gone)
            if entries:
                total += len(entries)
                self._m.reclaimed.inc(len(entries))
                await self._process_reclaimed(entries)
            if cursor == "0-0":
                break
        await self._update_gauges()
        if time.monotonic() - self._last_release >= self.settings.retention_interval_s:
            await self._release()
        return total

    async def _release(self) -> None:
        self._last_release = time.monotonic()
        s = self.settings
        try:
            done = await release(self.redis, self.key, self.sub.group,
                                 keep_s=retention_s(self.sub.stream.value, s.stream_retention_s, s.stream_retention),
                                 consumer_idle_s=s.consumer_idle_s, me=s.consumer_name)
        except ResponseError as exc:
            if write_refusal(exc):
                raise  # the run loop reports the outage and backs off
            self.log.warning("release_failed", error=str(exc)[:300])
            return
        if done.trimmed or done.consumers_removed:
            self.log.info("released", trimmed=done.trimmed, consumers_removed=done.consumers_removed)

    async def _process_reclaimed(self, entries: list) -> None:
        ids = [as_text(e[0]) for e in entries]
        pipe = self.redis.pipeline(transaction=False)
        for msg_id in ids:
            pipe.xpending_range(self.key, self.sub.group, min=msg_id, max=msg_id, count=1)
        pipe.hmget(self.errors_key, ids)
        *pending, errors = await pipe.execute()
        deliveries = {msg_id: (p[0]["times_delivered"] if p else 1) for msg_id, p in zip(ids, pending, strict=True)}
        exhausted, retry = [], []
        for entry, msg_id, err in zip(entries, ids, errors, strict=True):
            if deliveries[msg_id] > self.settings.max_deliveries:
                code, error = _recorded(err)
                exhausted.append(self._dead_letter(msg_id, entry[1], code, error, deliveries[msg_id] - 1))
            else:
                retry.append(entry)
        if exhausted:
            await self._commit(args=self._commit_args(exhausted))
            await self.redis.hdel(self.errors_key, *[i.msg_id for i in exhausted])
        if retry:
            self.log.info("reclaimed", count=len(retry))
            await self.process(retry, deliveries)

    async def _update_gauges(self) -> None:
        """Pending and lag of this group; the lag is checked, and Redis's counter corrected
        when a restart left it wrong (``lag.group_lag``), before anything reads it."""
        try:
            lag = await group_lag(self.redis, self.key, self.sub.group, self.prefix)
            groups = await self.redis.xinfo_groups(self.key)
        except ResponseError:  # no stream yet, or writes refused (the run loop reports that)
            return
        if lag.corrected:
            self.log.info("lag_corrected", lag=lag.entries, exact=lag.exact,
                          hint="Redis's lag counter was wrong after a restart (its AOF does not keep it); set right")
        if lag.entries is not None:
            self._m.lag.set(lag.entries)
        for g in groups:
            if as_text(g.get("name")) == self.sub.group:
                self._m.pending.set(g.get("pending", 0) or 0)
                await self._check_trimmed_unread(g)

    async def _check_trimmed_unread(self, group: dict) -> None:
        """Say so, loudly, when ``MAXLEN`` trimmed entries this group had not read yet.

        Runs before the worker's first read and with every reclaim pass, so it sees a group
        that was down, or stays behind, while its backlog was trimmed; a group that reads
        past a trim between two checks is not seen (see ``status.trimmed_unread``).
        """
        try:
            info = await self.redis.xinfo_stream(self.key)
        except ResponseError:
            return
        missed = trimmed_unread(group, info)
        self._m.trimmed_unread.set(missed)
        if missed:
            self.log.error("entries_trimmed_unread", missed=missed, last_read=as_text(group.get("last-delivered-id")),
                           first_left=as_text(info.get("recorded-first-entry-id")),
                           hint="this group fell more than STREAM_MAXLEN behind: raise STREAM_MAXLEN or add consumers")


@dataclass(frozen=True)
class _Ready:
    """An entry decoded, prepared and keyed: what the handler gets and how it is committed."""

    msg_id: str
    fields: dict[str, str]
    value: Any
    key: str
    deliveries: int


def _redacted(budget_s: float, letter: DeadLetter) -> DeadLetter:
    """The letter through the secret detector within ``budget_s``; if the detector cannot read
    it in time (or at all), nothing of the entry leaves unredacted (fail closed): only field
    names, sizes and the code remain. An entry whose scan already ran out of time is withheld
    without a second try."""
    if letter.error_code == ScanBudgetExceeded.code:
        return withheld(letter, "the secret scan of the entry took longer than its budget")
    try:
        return redact_dead_letter(letter, budget_s)
    except Exception as exc:  # noqa: BLE001 - dead-lettering must not fail: it is how an entry is let go
        return withheld(letter, f"the secret detector could not read it ({type(exc).__name__})")


def withheld(letter: DeadLetter, reason: str) -> DeadLetter:
    """The letter with every field replaced by its size: what a letter keeps when its text
    cannot be redacted."""
    fields = {name: f"({len(value)} characters withheld: {reason})" for name, value in letter.fields.items()}
    return letter.model_copy(update={"fields": fields, "error": f"{letter.error_code} (withheld: {reason})"})


def _error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:2000]


def _recorded(value: bytes | None) -> tuple[str, str]:
    """(code, error) of the last recorded failure of an exhausted entry."""
    if not value:
        return "max_deliveries", "no error recorded (the consumer died while handling it)"
    text = as_text(value)
    try:
        found = json.loads(text)
        return str(found["code"]), str(found["error"])
    except (ValueError, KeyError, TypeError):  # recorded by an earlier version: the error text alone
        return "max_deliveries", text


async def _sleep_or_stop(stop: asyncio.Event, seconds: float) -> None:
    try:
        await asyncio.wait_for(stop.wait(), timeout=seconds)
    except TimeoutError:
        pass
