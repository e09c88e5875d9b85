"""The harness judges with the bundled family catalog until an activated one arrives on knowledge.events,
then with that one — without a restart, and whether or not the knowledge store answers."""

from __future__ import annotations

from prometheus_client import REGISTRY

from rcaloop.contracts import Stream
from rcaloop.contracts.catalog import FamilyCatalog
from rcaloop.harness import app as harness_app
from rcaloop.harness.app import HarnessSettings, build
from rcaloop.knowledge.app import RedisPublisher
from rcaloop.knowledge.settings import KnowledgeSettings
from rcaloop.knowledge.snapshot import SnapshotCache
from rcaloop.knowledge.sqlite_store import SqliteKnowledgeStore
from rcaloop.knowledge.workflow import KnowledgeWorkflow
from rcaloop.shared.catalog import bundled_catalog
from rcaloop.shared.wire import encode
from tests.conftest import running
from tests.helpers.streams import entries
from tests.integration.harness import catalog_spy
from tests.unit.harness.cases import all_cases

BUNDLED = bundled_catalog()


def _newer(version: str) -> FamilyCatalog:
    data = BUNDLED.model_dump(mode="json", exclude_none=True)
    data["version"] = version
    next(f for f in data["families"] if f["name"] == "oom_kill")["supports"].append(
        {"kind": "log_pattern", "pattern": "invoked oom-killer"})
    return FamilyCatalog.model_validate(data)


def _parsed(n: int):
    case = next(c for c in all_cases() if c.config.enabled)
    return case.parsed.model_copy(update={"analysis_hash": f"catalog-case-{n}"})


def _in_use(version: str) -> bool:
    return any(s.labels["version"] == version and s.value == 1
               for m in REGISTRY.collect() if m.name == "rcaloop_family_catalog" for s in m.samples)


async def _judged_with(redis, prefix, wait, n: int) -> str:
    await redis.xadd(Stream.PARSED.key(prefix), encode(_parsed(n)))

    async def verdict():
        found = [v for v in await entries(redis, Stream.EVALUATED, prefix) if v["analysis_hash"] == f"catalog-case-{n}"]
        return found[0] if found else None

    judged = await wait(verdict)
    return next(r for r in judged["reasons"] if r.startswith("catalog:")).removeprefix("catalog:")


async def _activate(settings_factory, tmp_path, catalog: FamilyCatalog) -> None:
    """What the knowledge service does on a reviewer's approval, with its real publisher on this Redis."""
    knowledge = settings_factory(KnowledgeSettings)
    publisher = RedisPublisher(knowledge)
    workflow = KnowledgeWorkflow(SqliteKnowledgeStore(tmp_path / "k.sqlite3"), SnapshotCache(tmp_path / "s.json"),
                                 publisher)
    try:
        await workflow.offer_bundled_catalog()
        package, _ = await workflow.propose_catalog(catalog, "mira")
        await workflow.decide_catalog(package.package_id, "approve", "mira")
    finally:
        await workflow.store.close()
        await publisher.close()


async def test_the_harness_judges_with_the_bundled_catalog_then_an_activated_one_without_restart(
    redis, prefix, settings_factory, wait, tmp_path, monkeypatch
):
    monkeypatch.setattr(harness_app, "core", catalog_spy)
    settings = settings_factory(HarnessSettings)
    async with running([build(settings)], settings):  # no knowledge service or store runs: the harness never asks one
        assert await _judged_with(redis, prefix, wait, 1) == BUNDLED.version
        assert _in_use(BUNDLED.version)

        newer = _newer("2026.12.9")
        await _activate(settings_factory, tmp_path, newer)  # the knowledge service announces the activation
        await wait(lambda: _in_use_soon("2026.12.9"))
        assert await _judged_with(redis, prefix, wait, 2) == "2026.12.9"

        # an older announcement arriving late (an outbox re-sent after a Redis outage) changes nothing
        [bundled_event] = [e for e in await entries(redis, Stream.KNOWLEDGE_EVENTS, prefix)
                           if e["kind"] == "activated" and e["package_id"] == f"kc-{BUNDLED.version}"]
        await redis.xadd(Stream.KNOWLEDGE_EVENTS.key(prefix), {"payload": _json(bundled_event)})
        assert await _judged_with(redis, prefix, wait, 3) == "2026.12.9"


async def test_a_harness_started_after_the_activation_catches_up_from_the_stream(
    redis, prefix, settings_factory, wait, tmp_path, monkeypatch
):
    monkeypatch.setattr(harness_app, "core", catalog_spy)
    await _activate(settings_factory, tmp_path, _newer("2026.12.8"))
    for _ in range(150):  # later events that carry no catalog: the newest catalog event lies pages back
        await redis.xadd(Stream.KNOWLEDGE_EVENTS.key(prefix), {"payload": '{"not": "an event"}'})
    settings = settings_factory(HarnessSettings)
    async with running([build(settings)], settings):
        assert await _judged_with(redis, prefix, wait, 4) == "2026.12.8"


async def _in_use_soon(version: str) -> bool:
    return _in_use(version)


def _json(event: dict) -> str:
    import json  # noqa: PLC0415

    return json.dumps(event)
