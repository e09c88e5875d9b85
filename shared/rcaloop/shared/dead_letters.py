"""Dead letters as an operator handles them: select, replay, drop (``rcaloop dlq``).

A letter is one entry of ``<stream>.dlq`` holding a ``DeadLetter`` (``payload`` = its JSON). A
selection names streams, error codes, an age window or ids; reads are bounded pages (``XRANGE``
``COUNT``) that stop at the limit. Replaying puts the entry back on its source stream as a new
entry in the producers' wire format (its ``payload`` and header fields, plus ``replay_of``,
``replayed_from`` and ``replays``) and removes the letter, in one script: a letter replayed twice
is replayed once. Consumers that handled the entry before skip it by its idempotency key
(``IDEMPOTENCY_TTL_S``), so a replay only does what had not been done.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field

import redis.asyncio as aioredis
from pydantic import ValidationError

from rcaloop.contracts import DeadLetter, Stream
from rcaloop.shared.wire import PAYLOAD_FIELD, PayloadError, as_text, decode, decode_fields

PAGE = 200
REPLAY_MARKERS = ("replay_of", "replayed_from", "replays")
"""Header fields a replayed entry carries: the original entry's id, the letter's id, how many times."""
NOT_AS_SENT = {
    "payload_too_large": "the letter keeps only the first KiB of each field, not the payload as sent",
    "invalid_utf8": "the payload's bytes were not UTF-8: the letter shows them escaped, not as sent",
    "missing_payload": "the entry had no payload: its producer must send it again",
}
"""Error codes whose letter does not hold the entry as it was sent: replaying it cannot help."""

_MOVE = """
if #redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[1]) == 0 then return false end
local id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', unpack(ARGV, 3))
redis.call('XDEL', KEYS[1], ARGV[1])
return id
"""


@dataclass(frozen=True)
class Selection:
    """Which letters: by source stream (names without the prefix; none = every stream), error code,
    age in seconds (``older_than``/``newer_than``) and letter ids (one stream only)."""

    streams: tuple[Stream, ...] = ()
    codes: frozenset[str] = frozenset()
    older_than_s: float | None = None
    newer_than_s: float | None = None
    ids: tuple[str, ...] = ()

    def problem(self) -> str | None:
        if self.ids and len(self.streams) != 1:
            return "letter ids belong to one dead-letter queue: name its stream once (--stream)"
        return None

    def id_range(self, now_ms: int) -> tuple[str, str]:
        """The entry-id window of the age filter (an entry id starts with its time in ms)."""
        low = f"{now_ms - int(self.newer_than_s * 1000)}-0" if self.newer_than_s is not None else "-"
        high = (f"{now_ms - int(self.older_than_s * 1000)}-18446744073709551615"
                if self.older_than_s is not None else "+")
        return low, high


@dataclass(frozen=True)
class Letter:
    """One entry of a dead-letter queue: where it is, and the ``DeadLetter`` (None if unreadable)."""

    dlq_key: str
    letter_id: str
    letter: DeadLetter | None
    problem: str | None = None  # why the entry is not a readable DeadLetter

    @property
    def age_s(self) -> float:
        return max(time.time() - int(self.letter_id.split("-")[0]) / 1000, 0.0)


def read_letter(dlq_key: str, letter_id: str, raw: dict) -> Letter:
    try:
        return Letter(dlq_key, letter_id, decode(decode_fields(raw), DeadLetter))
    except (PayloadError, ValidationError) as exc:
        return Letter(dlq_key, letter_id, None, str(exc)[:300])


def matches(letter: Letter, selection: Selection) -> bool:
    if selection.codes and (letter.letter is None or letter.letter.error_code not in selection.codes):
        return False
    return not selection.ids or letter.letter_id in selection.ids


async def select(redis: aioredis.Redis, prefix: str, selection: Selection, *, limit: int | None,
                 newest_first: bool = False) -> AsyncIterator[Letter]:
    """The letters that match, stream by stream, at most ``limit`` (None: all), read in pages."""
    left = limit
    for stream in selection.streams or tuple(Stream):
        key = stream.dlq_key(prefix)
        if selection.ids:
            for letter_id in selection.ids:
                for entry_id, raw in await redis.xrange(key, letter_id, letter_id) or []:
                    letter = read_letter(key, as_text(entry_id), raw or {})
                    if matches(letter, selection) and (left is None or left > 0):
                        left = None if left is None else left - 1
                        yield letter
            continue
        async for letter in _pages(redis, key, selection, newest_first):
            if left is not None and left <= 0:
                return
            if matches(letter, selection):
                left = None if left is None else left - 1
                yield letter


async def _pages(redis: aioredis.Redis, key: str, selection: Selection, newest_first: bool) -> AsyncIterator[Letter]:
    low, high = selection.id_range(int(time.time() * 1000))
    while True:
        if newest_first:
            page = await redis.xrevrange(key, max=high, min=low, count=PAGE) or []
        else:
            page = await redis.xrange(key, min=low, max=high, count=PAGE) or []
        for entry_id, raw in page:
            yield read_letter(key, as_text(entry_id), raw or {})
        if len(page) < PAGE:
            return
        last = as_text(page[-1][0])
        if newest_first:
            high = f"({last}"
        else:
            low = f"({last}"


def source_key(letter: Letter, prefix: str) -> str | None:
    """The stream the letter's entry came from, when it is the one its queue belongs to (a letter
    naming another key is refused: replay writes only where the entry was)."""
    if letter.letter is None:
        return None
    for stream in Stream:
        if letter.dlq_key == stream.dlq_key(prefix) and letter.letter.stream == stream.key(prefix):
            return stream.key(prefix)
    return None


def replay_problem(letter: Letter, prefix: str) -> str | None:
    """Why this letter cannot be replayed, or None."""
    if letter.letter is None:
        return f"the letter is not readable ({letter.problem})"
    if source_key(letter, prefix) is None:
        return f"the letter names the stream {letter.letter.stream!r}, not the one its queue belongs to"
    if letter.letter.error_code in NOT_AS_SENT:
        return NOT_AS_SENT[letter.letter.error_code]
    if "payload_truncated_from" in letter.letter.fields:
        return "the letter keeps only part of the payload"
    if PAYLOAD_FIELD not in letter.letter.fields:
        return "the letter holds no payload"
    return None


def replay_fields(letter: Letter) -> dict[str, str]:
    """The entry as producers write it: the letter's payload and header fields, and the replay's marks."""
    dead = letter.letter
    assert dead is not None
    fields = {k: v for k, v in dead.fields.items() if k not in (*REPLAY_MARKERS, "fields_omitted")}
    try:
        replays = int(dead.fields.get("replays", "0")) + 1
    except ValueError:
        replays = 1
    return fields | {"replay_of": dead.message_id, "replayed_from": letter.letter_id, "replays": str(replays)}


@dataclass
class Outcome:
    done: list[tuple[Letter, str]] = field(default_factory=list)  # (letter, new entry id) or (letter, "")
    refused: list[tuple[Letter, str]] = field(default_factory=list)  # (letter, why)


async def replay(redis: aioredis.Redis, prefix: str, letters: Iterable[Letter], maxlen: int, *,
                 dry_run: bool = False) -> Outcome:
    """Put each letter's entry back on its stream and remove the letter, atomically per letter.

    An entry several groups dead-lettered (one letter each) goes back once: every group of the
    stream reads it again anyway; its other letters are removed with it.
    """
    move = redis.register_script(_MOVE)
    outcome = Outcome()
    sent: dict[tuple[str, str], str] = {}  # (source stream, original entry id) → the new entry's id
    for letter in letters:
        if why := replay_problem(letter, prefix):
            outcome.refused.append((letter, why))
            continue
        source = source_key(letter, prefix)
        assert source is not None and letter.letter is not None  # replay_problem refused the others
        entry = (source, letter.letter.message_id)
        if dry_run:
            outcome.done.append((letter, ""))
            continue
        if entry in sent:
            if await redis.xdel(letter.dlq_key, letter.letter_id):
                outcome.done.append((letter, sent[entry]))
            else:
                outcome.refused.append((letter, "gone: replayed or dropped meanwhile"))
            continue
        pairs = [item for kv in replay_fields(letter).items() for item in kv]
        new_id = await move(keys=[letter.dlq_key, entry[0]], args=[letter.letter_id, maxlen, *pairs])
        if new_id is None:
            outcome.refused.append((letter, "gone: replayed or dropped meanwhile"))
        else:
            sent[entry] = as_text(new_id)
            outcome.done.append((letter, sent[entry]))
    return outcome


async def drop(redis: aioredis.Redis, letters: Iterable[Letter], *, dry_run: bool = False) -> Outcome:
    outcome = Outcome()
    for letter in letters:
        if dry_run or await redis.xdel(letter.dlq_key, letter.letter_id):
            outcome.done.append((letter, ""))
        else:
            outcome.refused.append((letter, "gone: replayed or dropped meanwhile"))
    return outcome
