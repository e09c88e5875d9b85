"""The knowledge service on a real Redis: review + verdict → one candidate; decisions → events."""

from __future__ import annotations

import asyncio

import httpx

from rcaloop.contracts import Stream
from rcaloop.knowledge.app import RedisPublisher, build, workflow_for
from rcaloop.knowledge.settings import KnowledgeSettings
from rcaloop.shared.service import http_app
from rcaloop.shared.wire import encode
from tests.conftest import running
from tests.helpers.streams import dlq, entries
from tests.unit.knowledge import incident_set
from tests.unit.knowledge.builders import evaluation, verdict

TOKEN = "t0ken-for-tests-5Gx8Kp2Rm7"


def _settings(settings_factory) -> KnowledgeSettings:
    return settings_factory(KnowledgeSettings, rcaloop_lead_tokens=f"mira:{TOKEN}")


async def _events(redis, prefix) -> list[dict]:
    """The events of case packages (a new installation also announces its bundled family catalog, ``kc-…``)."""
    return [e for e in await entries(redis, Stream.KNOWLEDGE_EVENTS, prefix) if e["package_id"].startswith("kp-")]


async def test_approved_review_and_verdict_yield_exactly_one_candidate_event(redis, prefix, settings_factory, wait):
    review = evaluation()
    await redis.xadd(Stream.REVIEW_ANNOTATIONS.key(prefix), encode(review))
    await redis.xadd(Stream.REVIEW_ANNOTATIONS.key(prefix), encode(review))  # a duplicate delivery
    await redis.xadd(Stream.REVIEW_ANNOTATIONS.key(prefix), {"payload": "{broken"})  # never crashes the consumer
    async with running([build(_settings(settings_factory))], _settings(settings_factory)):
        await asyncio.sleep(0.3)  # the review is stored, waiting for its verdict
        assert await _events(redis, prefix) == []
        await redis.xadd(Stream.EVALUATED.key(prefix), encode(verdict()))
        await wait(lambda: _count(redis, prefix, 1))
        await asyncio.sleep(0.5)
    [event] = await _events(redis, prefix)
    assert event["kind"] == "candidate" and event["analysis_hash"] == review.analysis_hash
    assert event["evidence_source"] == "ledger" and event["provenance"]["annotation_id"] == review.annotation_id
    assert [d["error_code"] for d in await dlq(redis, Stream.REVIEW_ANNOTATIONS, prefix)] == ["invalid_json"]


async def test_a_batch_of_verdicts_is_stored_together_and_pairs_only_where_a_review_waits(
    redis, prefix, settings_factory, wait
):
    settings = _settings(settings_factory)
    await redis.xadd(Stream.REVIEW_ANNOTATIONS.key(prefix), encode(evaluation()))
    hashes = [verdict().analysis_hash, "b" * 64, "c" * 64]
    await redis.xadd(Stream.EVALUATED.key(prefix), encode(verdict()))
    for n, analysis_hash in enumerate(hashes[1:]):  # other incidents, read with it in one batch
        await redis.xadd(Stream.EVALUATED.key(prefix),
                         encode(verdict(_incident(f"inc-{n}"), analysis_hash=analysis_hash)))
    workflow = workflow_for(settings)
    async with running([build(settings)], settings):
        await wait(lambda: _count(redis, prefix, 1))
        await wait(lambda: _settled(redis, prefix))
    [event] = await _events(redis, prefix)
    assert event["kind"] == "candidate" and event["analysis_hash"] == hashes[0]
    await workflow.store.open()
    try:
        assert [(await workflow.store.get_verdict(h)) is not None for h in hashes] == [True, True, True]
    finally:
        await workflow.store.close()


def _incident(name: str):
    def change(d: dict) -> None:
        d.update(job_id=name, result_id=name)
        d["parsed"].update(job_id=name, result_id=name)

    return change


async def _settled(redis, prefix) -> bool:
    [group] = await redis.xinfo_groups(Stream.EVALUATED.key(prefix))
    return group["pending"] == 0 and group["lag"] == 0


async def test_verdict_first_then_review_also_pairs(redis, prefix, settings_factory, wait):
    settings = _settings(settings_factory)
    await redis.xadd(Stream.EVALUATED.key(prefix), encode(verdict()))
    async with running([build(settings)], settings):
        await asyncio.sleep(0.3)
        await redis.xadd(Stream.REVIEW_ANNOTATIONS.key(prefix), encode(evaluation()))
        await wait(lambda: _count(redis, prefix, 1))
        await asyncio.sleep(0.3)
    assert [e["kind"] for e in await _events(redis, prefix)] == ["candidate"]


async def test_http_decisions_publish_their_events(redis, prefix, settings_factory, wait):
    settings = _settings(settings_factory)
    service = build(settings)
    await redis.xadd(Stream.REVIEW_ANNOTATIONS.key(prefix), encode(evaluation()))
    await redis.xadd(Stream.REVIEW_ANNOTATIONS.key(prefix), encode(evaluation(annotation_id="ev-4711-2")))
    await redis.xadd(Stream.EVALUATED.key(prefix), encode(verdict()))
    async with running([service], settings):
        await wait(lambda: _count(redis, prefix, 2))
        first, second = sorted(e["package_id"] for e in await _events(redis, prefix))
        transport = httpx.ASGITransport(http_app([service]))
        async with httpx.AsyncClient(transport=transport, base_url="http://rcaloop") as client:
            auth = {"Authorization": f"Bearer {TOKEN}"}
            url = "/api/v1/knowledge/packages/{}/decisions"
            assert (await client.post(url.format(first), json={"decision": "approve"}, headers=auth)).status_code == 200
            assert (await client.post(url.format(second), json={"decision": "shadow"}, headers=auth)).status_code == 200
            assert (
                await client.post(url.format(second), json={"decision": "activate"}, headers=auth)
            ).status_code == 200
            snapshot = (await client.get("/api/v1/knowledge/snapshot", headers=auth)).json()
    events = await _events(redis, prefix)
    decided = [(e["package_id"], e["kind"]) for e in events if e["kind"] != "candidate"]
    assert decided == [(first, "approved"), (first, "activated"), (second, "shadowed"), (second, "activated")]
    activated = [e for e in events if e["kind"] == "activated"]
    assert all(e["activation_latency_seconds"] >= 0 and e["inadmissible"] is False for e in activated)
    assert all(e["detail"]["typedb_outage_runtime_activation_success"] is True for e in activated)
    assert sorted(p["package_id"] for p in snapshot["packages"]) == [first, second]
    assert (settings.snapshot_path).is_file()  # the runtime cache the agent falls back to


async def _count(redis, prefix, n: int) -> bool:
    return len(await _events(redis, prefix)) >= n


async def test_decision_events_survive_a_redis_outage_through_the_outbox(redis, prefix, settings_factory, tmp_path):
    settings = _settings(settings_factory)
    dead = settings_factory(KnowledgeSettings, redis_url="redis://127.0.0.1:1/0")  # nobody listens there
    down_publisher = RedisPublisher(dead)
    workflow = workflow_for(settings, down_publisher)
    await workflow.on_review(evaluation())
    [candidate] = await workflow.on_verdict(verdict())

    package, events = await workflow.decide(candidate.package_id, "approve", "mira")
    assert package.state == "activated" and [e.kind for e in events] == ["approved", "activated"]
    stored = await workflow.package(candidate.package_id)
    assert [e.event_id for e in stored.outbox] == [e.event_id for e in events]
    assert stored.outbox[1].detail["typedb_outage_runtime_activation_success"] is True
    assert await _events(redis, prefix) == []
    await down_publisher.close()

    publisher = RedisPublisher(settings)  # Redis is back
    workflow.publish = publisher
    assert await workflow.flush_outbox() == 2
    assert await workflow.flush_outbox() == 0
    await publisher.close()
    assert (await workflow.package(candidate.package_id)).outbox == []
    await workflow.store.close()
    assert [e["event_id"] for e in await _events(redis, prefix)] == [e.event_id for e in events]


async def test_probe_ranking_and_metrics_over_http_after_the_incident_set_flowed_through_redis(
    redis, prefix, settings_factory, wait
):
    """The worked incident set as messages on real streams; reviewers decide over HTTP; the graph answers."""
    settings = _settings(settings_factory)
    service = build(settings)
    for incident in (*incident_set.PAST, incident_set.D):
        if incident is not incident_set.D:
            await redis.xadd(Stream.REVIEW_ANNOTATIONS.key(prefix), encode(incident.evaluation()))
        await redis.xadd(Stream.EVALUATED.key(prefix), encode(incident.verdict()))
    async with running([service], settings):
        await wait(lambda: _count(redis, prefix, len(incident_set.PAST)))
        candidates = {e["analysis_hash"]: e["package_id"] for e in await _events(redis, prefix)}
        transport = httpx.ASGITransport(http_app([service]))
        auth = {"Authorization": f"Bearer {TOKEN}"}  # reads need a token too
        async with httpx.AsyncClient(transport=transport, base_url="http://rcaloop", headers=auth) as client:
            ready = {"ready": True, "store": "typedb" if settings.typedb_address else "sqlite"}
            assert (await client.get("/api/v1/knowledge/ready")).json() == ready
            assert (await client.get("/api/v1/knowledge/probe-metrics")).json() == []  # nothing approved yet
            for incident in incident_set.PAST:
                url = f"/api/v1/knowledge/packages/{candidates[incident.analysis_hash]}/decisions"
                decided = await client.post(url, json={"decision": incident.decision}, headers=auth)
                assert decided.status_code == 200, decided.text
            metrics = (await client.get("/api/v1/knowledge/probe-metrics")).json()
            plan = await client.get("/api/v1/knowledge/probes", params={"incident": "inc-D"})
            unknown = await client.get("/api/v1/knowledge/probes", params={"incident": "inc-nope"})
            missing = await client.get("/api/v1/knowledge/probes")
            actions = await client.get("/api/v1/knowledge/verified-actions", params={"family": incident_set.POOL})
            similar = await client.get("/api/v1/knowledge/similar-incidents", params={"incident": "inc-D"})
    assert {m["probe_template_id"]: (m["executions"], m["supports"], m["refutes"], m["contributions"])
            for m in metrics} == incident_set.EXPECTED_METRICS
    assert plan.status_code == 200
    assert [p["probe_template_id"] for p in plan.json()["probes"]] == incident_set.EXPECTED_PROBES_FOR_D
    assert [o["family"] for o in plan.json()["open_hypotheses"]] == incident_set.EXPECTED_OPEN_FOR_D
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "KQ404"
    assert missing.status_code == 422 and missing.json()["error"]["code"] == "invalid_request"
    assert [a["incidents"] for a in actions.json()] == [["inc-A"]]
    assert [(s["incident_id"], s["history"]) for s in similar.json()] == [("inc-A", True), ("inc-B", True)]
