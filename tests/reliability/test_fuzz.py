"""Fuzz every stream each service reads, on a real Redis, with the real services.

Hostile entries (deep nesting, huge integers, invalid UTF-8, binary, wrong types, missing
fields, huge fields — ``tests/helpers/hostile.py``) are interleaved at random with good
ones (some in odd but valid layouts). Each good entry must be processed exactly once, each
bad one dead-lettered with one of its codes in a bounded letter, and the worker must still
consume afterwards. The seed is random per run and named in every failure; set
``RCALOOP_FUZZ_SEED`` to replay one.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

import pytest
from prometheus_client import REGISTRY
from pydantic import BaseModel

from rcaloop.annotation.app import AnnotationSettings
from rcaloop.annotation.app import build as build_annotation
from rcaloop.annotation.store import Store
from rcaloop.cli.compose import cli_deps
from rcaloop.contracts import IngestedRecord, KnowledgeEvent, RawResult, Stream, analysis_hash
from rcaloop.contracts.knowledge import Provenance
from rcaloop.gate.app import GateSettings
from rcaloop.gate.app import build as build_gate
from rcaloop.gate.store import GateStore
from rcaloop.harness.app import HarnessSettings
from rcaloop.harness.app import build as build_harness
from rcaloop.ingestion.app import IngestionSettings
from rcaloop.ingestion.app import build as build_ingestion
from rcaloop.knowledge.app import KnowledgeSettings
from rcaloop.knowledge.app import build as build_knowledge
from rcaloop.knowledge.sqlite_store import SqliteKnowledgeStore
from rcaloop.parser.app import ParserSettings
from rcaloop.parser.app import build as build_parser
from rcaloop.shared.wire import encode
from tests.conftest import running
from tests.helpers.hostile import Hostile, hostile_entries, odd_but_good
from tests.reliability.flow import SAMPLE
from tests.unit.knowledge.builders import evaluation

SEED = int(os.environ.get("RCALOOP_FUZZ_SEED") or random.SystemRandom().randrange(2**32))
GOOD, AFTER = 9, 3  # good entries among the hostile ones, and good entries sent once those are done


def _raw(tag: str) -> RawResult:
    return RawResult(result_id=tag, kind="skill_text", content=f"{SAMPLE}\n<!-- run {tag} -->\n", producer="fuzz")


def _ingested(tag: str) -> IngestedRecord:
    raw = _raw(tag)
    return IngestedRecord(**raw.model_dump(), analysis_hash=analysis_hash(raw.kind, raw.content))


def good_model(stream: Stream, tag: str) -> BaseModel:
    """A realistic, unique message of ``stream``'s contract, made by the real cores."""
    if stream is Stream.RESULTS:
        return _raw(tag)
    if stream is Stream.INGESTED:
        return _ingested(tag)
    if stream is Stream.PARSED:
        return cli_deps().parse(_raw(tag), None)
    if stream is Stream.EVALUATED:
        return cli_deps().analyze(_raw(tag))
    if stream is Stream.REVIEW_ANNOTATIONS:
        return evaluation(analysis_hash=_ingested(tag).analysis_hash, annotation_id=tag)
    if stream is Stream.KNOWLEDGE_EVENTS:
        return KnowledgeEvent(event_id=tag, kind="candidate", package_id=f"pkg-{tag}", analysis_hash=tag,
                              evidence_source="harness_claim", provenance=Provenance(promotion_path="harness_claim"))
    raise AssertionError(stream)


def identity(model: BaseModel) -> str:
    """The natural id a good message's effect is found by."""
    if type(model) is RawResult:
        return model.result_id
    for name in ("annotation_id", "event_id", "analysis_hash"):
        if hasattr(model, name):
            return getattr(model, name)
    raise AssertionError(type(model))


Effects = Callable[[object, str, list[BaseModel]], Awaitable[Counter]]


def emitted(out: Stream, key: str) -> Effects:
    """How often each good message's effect reached ``out`` (by its ``key`` field)."""

    async def count(redis, prefix: str, _goods: list[BaseModel]) -> Counter:
        return Counter(json.loads(f[b"payload"])[key] for _id, f in await redis.xrange(out.key(prefix)))

    return count


def _knowledge(settings: KnowledgeSettings, stream: Stream) -> Effects:
    async def count(_redis, _prefix: str, goods: list[BaseModel]) -> Counter:
        store = SqliteKnowledgeStore(settings.sqlite_path)
        try:
            seen: Counter = Counter()
            for g in goods:
                if stream is Stream.EVALUATED:
                    seen[g.analysis_hash] += await store.get_verdict(g.analysis_hash) is not None
                else:
                    seen[g.annotation_id] += sum(r.annotation_id == g.annotation_id
                                                 for r in await store.reviews_for(g.analysis_hash))
            return seen
        finally:
            await store.close()

    return count


def _artifacts(settings: AnnotationSettings) -> Effects:
    async def count(_redis, _prefix: str, goods: list[BaseModel]) -> Counter:
        store = Store(settings.store_url())
        try:  # the result's files, kept with its analysis (content-addressed: once)
            return Counter({g.analysis_hash: 1 for g in goods if await store.artifact_files(g.analysis_hash)})
        finally:
            await store.close()

    return count


def _gate(settings: GateSettings, table: str) -> Effects:
    async def count(_redis, _prefix: str, goods: list[BaseModel]) -> Counter:
        store = GateStore(settings.store_path())
        try:  # insert-if-absent by natural id: the table holds each good message once, nothing else
            return Counter({identity(g): 1 for g in goods}) if store.counts()[table] == len(goods) else Counter()
        finally:
            store.close()

    return count


@dataclass
class Case:
    build: Callable
    settings_cls: type
    effects: Callable[[object], dict[Stream, Effects]]


CASES = {
    "ingestion": Case(build_ingestion, IngestionSettings,
                      lambda s: {Stream.RESULTS: emitted(Stream.INGESTED, "result_id")}),
    "parser": Case(build_parser, ParserSettings, lambda s: {Stream.INGESTED: emitted(Stream.PARSED, "analysis_hash")}),
    "harness": Case(build_harness, HarnessSettings,
                    lambda s: {Stream.PARSED: emitted(Stream.EVALUATED, "analysis_hash")}),
    "annotation": Case(build_annotation, AnnotationSettings,
                       lambda s: {Stream.EVALUATED: emitted(Stream.REVIEW_TASKS, "analysis_hash"),
                                  Stream.INGESTED: _artifacts(s)}),
    "knowledge": Case(build_knowledge, KnowledgeSettings,
                      lambda s: {Stream.EVALUATED: _knowledge(s, Stream.EVALUATED),
                                 Stream.REVIEW_ANNOTATIONS: _knowledge(s, Stream.REVIEW_ANNOTATIONS)}),
    "gate": Case(build_gate, GateSettings, lambda s: {Stream.EVALUATED: _gate(s, "verdicts"),
                                                       Stream.REVIEW_ANNOTATIONS: _gate(s, "reviews"),
                                                       Stream.KNOWLEDGE_EVENTS: _gate(s, "knowledge_events")}),
}


def _counter(metric, service: str, key: str) -> float:
    """The counter's total for one service and stream, over its other labels (dead letters: by code)."""
    return sum(s.value for m in REGISTRY.collect() if m.name == metric for s in m.samples
               if s.name == f"{metric}_total" and s.labels.get("service") == service and s.labels.get("stream") == key)


@pytest.mark.parametrize("name", sorted(CASES))
async def test_hostile_entries_are_dead_lettered_and_good_ones_processed_once(
    name, redis, prefix, settings_factory, wait
):
    rng = random.Random(f"{SEED}:{name}")
    why = f"(RCALOOP_FUZZ_SEED={SEED})"
    case = CASES[name]
    settings = settings_factory(case.settings_cls, max_deliveries=2, batch_size=rng.choice([1, 7, 100]))
    service = case.build(settings)
    effects = case.effects(settings)
    streams = list(effects)
    assert {s.stream for s in service.subscriptions} == set(streams), "every stream the service reads is fuzzed"

    goods: dict[Stream, list[BaseModel]] = {}
    bad: dict[Stream, dict[str, Hostile]] = {}
    before = {s: (_counter("rcaloop_messages_processed", name, s.key(prefix)),
                  _counter("rcaloop_messages_dead_lettered", name, s.key(prefix))) for s in streams}
    for stream in streams:
        goods[stream] = [good_model(stream, f"{name}-{stream.value}-{i}") for i in range(GOOD + AFTER)]
        template = json.loads(goods[stream][0].model_dump_json())
        hostile = hostile_entries(type(goods[stream][0]), template, rng)
        entries = [(None, odd_but_good(json.loads(g.model_dump_json()), i, rng) if i % 2 else encode(g))
                   for i, g in enumerate(goods[stream][:GOOD])] + [(h, h.fields) for h in hostile]
        rng.shuffle(entries)
        bad[stream] = {}
        for h, fields in entries:
            msg_id = (await redis.xadd(stream.key(prefix), fields)).decode()
            if h is not None:
                bad[stream][msg_id] = h

    async with running([service], settings) as host:
        for stream in streams:  # everything read and acknowledged …
            group = next(s.group for s in service.subscriptions if s.stream is stream)
            await wait(partial(_settled, redis, stream.key(prefix), group), timeout=90)
        for stream in streams:  # … and the worker still consumes
            for g in goods[stream][GOOD:]:
                await redis.xadd(stream.key(prefix), encode(g))
        for stream in streams:
            group = next(s.group for s in service.subscriptions if s.stream is stream)
            await wait(partial(_settled, redis, stream.key(prefix), group, at_least=GOOD + AFTER + len(bad[stream])),
                       timeout=60)
        assert not host.done(), f"the host stopped {why}"

    for stream in streams:
        letters = {d["message_id"]: d for d in await _letters(redis, stream, prefix)}
        assert set(letters) == set(bad[stream]), (
            f"{stream.value}: dead-lettered {sorted(letters)} for the hostile {sorted(bad[stream])} {why}")
        for msg_id, h in bad[stream].items():
            letter = letters[msg_id]
            assert letter["error_code"] in h.codes, (
                f"{stream.value}: {h.label}: {letter['error_code']} {letter['error'][:200]} {why}")
            assert letter["deliveries"] == 1, (
                f"{h.label} was retried: unreadable entries are dead-lettered at once {why}")
        biggest = max(len(e[1][b"payload"]) for e in await redis.xrange(stream.dlq_key(prefix)))
        assert biggest < 256 * 1024, f"{stream.value}: a dead letter of {biggest} bytes copies a huge field {why}"

        seen = await effects[stream](redis, prefix, goods[stream])
        expected = Counter({identity(g): 1 for g in goods[stream]})
        assert seen == expected, f"{stream.value}: good entries' effects {seen} != once each {why}"
        processed = _counter("rcaloop_messages_processed", name, stream.key(prefix)) - before[stream][0]
        dead = _counter("rcaloop_messages_dead_lettered", name, stream.key(prefix)) - before[stream][1]
        assert (processed, dead) == (GOOD + AFTER + len(bad[stream]), len(bad[stream])), why


async def _settled(redis, key: str, group: str, at_least: int = 0) -> bool:
    info = next((g for g in await redis.xinfo_groups(key) if g["name"].decode() == group), None)
    return bool(info) and info["pending"] == 0 and info["lag"] == 0 and info["entries-read"] >= at_least


async def _letters(redis, stream: Stream, prefix: str) -> list[dict]:
    return [json.loads(f[b"payload"]) for _id, f in await redis.xrange(stream.dlq_key(prefix))]

