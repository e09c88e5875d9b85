"""HTTP API and dashboard over a real (embedded SQLite) store, in-process via ASGI."""

from __future__ import annotations

import sqlite3

import httpx
import pytest
from rcaloop.knowledge.api import guards, router
from rcaloop.knowledge.snapshot import SnapshotCache, UnreachableStore, typedb_outage_runtime_activation_success
from rcaloop.knowledge.sqlite_store import SqliteKnowledgeStore
from rcaloop.knowledge.workflow import KnowledgeWorkflow
from rcaloop.shared.service import Service, http_app
from rcaloop.shared.tokens import Tokens
from tests.unit.knowledge.builders import evaluation, no_ledger, verdict

TOKEN = "s3cret-lead-token-9Lk4-Hq7"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
"""A lead's: every decision."""
REVIEWER = "s3cret-reviewer-token-9Lk4"
REVIEW = {"Authorization": f"Bearer {REVIEWER}"}
"""A knowledge reviewer's: may reject, never bring a package toward the runtime."""
READER = "r3ader-token-for-agents-2Wq"
READ = {"Authorization": f"Bearer {READER}"}
HASH_B = "b" * 64


@pytest.fixture
async def ctx(tmp_path):
    published = []

    async def publish(events):
        published.extend(events)

    store = SqliteKnowledgeStore(tmp_path / "knowledge.sqlite3")
    workflow = KnowledgeWorkflow(store, SnapshotCache(tmp_path / "snapshot.json"), publish)
    async with _client(workflow, headers=READ) as client:  # reads with a reader's token; decisions pass AUTH
        yield client, workflow, published
    await store.close()


def _client(workflow, *, reviewers: str = f"mira:{REVIEWER}", readers: str = f"rita:{READER}",
            leads: str = f"lena:{TOKEN}", public_reads: bool = False, headers: dict | None = None) -> httpx.AsyncClient:
    """The knowledge routes behind the shared edge, as ``http_app`` hosts them."""
    edge = guards(Tokens.parse(reviewers, "RCALOOP_REVIEWER_TOKENS"), Tokens.parse(readers, "RCALOOP_READER_TOKENS"),
                  Tokens.parse(leads, "RCALOOP_LEAD_TOKENS"), public_reads=public_reads)
    app = http_app([Service(name="knowledge", http_router=router(lambda: workflow), http_guards=edge)])
    return httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://knowledge", headers=headers)


async def _candidate(workflow, *edits, analysis_hash=None, annotation_id=None) -> str:
    await workflow.on_review(evaluation(analysis_hash=analysis_hash, annotation_id=annotation_id))
    [event] = await workflow.on_verdict(verdict(*edits, analysis_hash=analysis_hash))
    return event.package_id


async def _decide(client, package_id, decision, headers=AUTH):
    return await client.post(
        f"/api/v1/knowledge/packages/{package_id}/decisions", json={"decision": decision}, headers=headers
    )


async def test_decisions_need_a_known_reviewer_token_and_never_echo_it(ctx):
    _, workflow, published = ctx
    pid = await _candidate(workflow)
    async with _client(workflow) as client:
        assert (await _decide(client, pid, "approve", headers={})).status_code == 401
        wrong = await _decide(client, pid, "approve", headers={"Authorization": "Bearer guess-123-guess-123-guess"})
        assert wrong.status_code == 401 and "guess-123" not in wrong.text
        assert (await _decide(client, pid, "approve", headers={"Authorization": f"Basic {TOKEN}"})).status_code == 401
        reader = await _decide(client, pid, "approve", headers=READ)
        assert reader.status_code == 403 and reader.json()["error"]["code"] == "KA403" and READER not in reader.text
    async with _client(workflow, reviewers="", readers="", leads="") as unconfigured:
        assert (await _decide(unconfigured, pid, "approve")).status_code == 503

    assert published == [] and (await workflow.package(pid)).state == "candidate"


READS = ("/api/v1/knowledge/packages", "/api/v1/knowledge/packages/kp-x", "/api/v1/knowledge/snapshot",
         "/api/v1/knowledge/probe-metrics", "/knowledge")


async def test_reads_need_a_reader_or_reviewer_token_unless_reads_are_public(ctx):
    _, workflow, _ = ctx
    pid = await _candidate(workflow)
    async with _client(workflow) as client:
        for path in READS:
            anonymous = await client.get(path)
            assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "unauthorized", path
            assert (await client.get(path, headers={"Authorization": "Bearer " + "n" * 30})).status_code == 401, path
            for headers in (READ, AUTH):
                assert (await client.get(path, headers=headers)).status_code in (200, 404), (path, headers)
        assert (await client.get("/api/v1/knowledge/ready")).status_code == 200  # probes hold no token
    async with _client(workflow, public_reads=True) as public:
        for path in READS:
            assert (await public.get(path)).status_code in (200, 404), path
        assert (await _decide(public, pid, "approve", headers={})).status_code == 401  # deciding never is public


async def test_approve_activates_and_the_snapshot_serves_it(ctx):
    client, workflow, published = ctx
    pid = await _candidate(workflow)
    resp = await _decide(client, pid, "approve")
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert body["package"]["state"] == "activated" and TOKEN not in resp.text
    assert [e["kind"] for e in body["events"]] == ["approved", "activated"] == [e.kind for e in published]
    assert body["events"][1]["activation_latency_seconds"] >= 0
    assert body["events"][1]["detail"]["typedb_outage_runtime_activation_success"] is True
    assert 0 <= body["events"][1]["detail"]["runtime_activation_seconds"] < 5
    listed = (await client.get("/api/v1/knowledge/packages", params={"state": "activated"})).json()
    assert [p["package_id"] for p in listed] == [pid]
    snap = (await client.get("/api/v1/knowledge/snapshot")).json()
    assert [p["package_id"] for p in snap["packages"]] == [pid] and snap["stale"] is False


async def test_shadow_then_activate(ctx):
    client, workflow, published = ctx
    pid = await _candidate(workflow)
    assert (await _decide(client, pid, "shadow")).json()["package"]["state"] == "shadowed"
    assert (await client.get("/api/v1/knowledge/snapshot")).json()["packages"] == []
    resp = await _decide(client, pid, "activate")
    assert resp.status_code == 200 and resp.json()["package"]["state"] == "activated"
    assert [e.kind for e in published] == ["shadowed", "activated"]


async def test_not_allowed_unknown_and_inadmissible_decisions(ctx):
    client, workflow, published = ctx
    pid = await _candidate(workflow)
    conflict = await _decide(client, pid, "activate")
    assert conflict.status_code == 409 and conflict.json()["error"]["code"] == "KD101"
    missing = await _decide(client, "kp-nope", "approve")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "KD404"
    bad_decision = await client.post(
        f"/api/v1/knowledge/packages/{pid}/decisions", json={"decision": "yolo"}, headers=AUTH
    )
    assert bad_decision.status_code == 422
    assert published == []

    refuted = lambda d: d["claims"][0].update(status="refuted")  # noqa: E731
    invalid = await _candidate(workflow, no_ledger, refuted, analysis_hash=HASH_B, annotation_id="ev-b")
    refused = await _decide(client, invalid, "approve")
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "KD201"
    [event] = published
    assert event.kind == "rejected" and event.inadmissible and event.decision == "approve"
    package = (await client.get(f"/api/v1/knowledge/packages/{invalid}")).json()
    assert package["state"] == "rejected" and package["history"][-1]["accepted"] is False


async def test_probe_metrics_and_dashboard(ctx):
    client, workflow, _ = ctx
    pid = await _candidate(workflow, lambda d: d["parsed"].update(title="<script>alert(1)</script>"))
    assert (await client.get("/api/v1/knowledge/probe-metrics")).json() == []  # a candidate is not approved yet
    await _decide(client, pid, "approve")
    metrics = {m["probe_template_id"]: m for m in (await client.get("/api/v1/knowledge/probe-metrics")).json()}
    assert metrics["pt.db.pool_usage"] == {
        "probe_template_id": "pt.db.pool_usage",
        "executions": 1,
        "supports": 1,
        "refutes": 0,
        "contributions": 1,
    }
    page = await client.get("/knowledge")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "activated (1)" in page.text and "pt.db.pool_usage" in page.text and "<script>" not in page.text


async def test_store_outage_snapshot_still_serves_and_other_reads_say_503(ctx, tmp_path):
    client, workflow, _ = ctx
    pid = await _candidate(workflow)
    await _decide(client, pid, "approve")
    workflow.store = UnreachableStore()
    snap = await client.get("/api/v1/knowledge/snapshot")
    assert snap.status_code == 200 and snap.json()["stale"] is True and snap.json()["source"] == "cache"
    assert [p["package_id"] for p in snap.json()["packages"]] == [pid]
    down = await client.get("/api/v1/knowledge/packages")
    assert down.status_code == 503 and down.json()["error"]["code"] == "KS503"
    assert (await client.get("/knowledge")).status_code == 503


async def test_outage_check_fails_without_any_cached_snapshot(tmp_path):
    check = await typedb_outage_runtime_activation_success(UnreachableStore(), SnapshotCache(tmp_path / "none.json"))
    assert check.typedb_outage_runtime_activation_success is False and check.reason


async def test_readiness_says_no_while_the_store_refuses_writes(ctx, tmp_path):
    client, workflow, _ = ctx
    assert (await client.get("/api/v1/knowledge/ready")).json() == {"ready": True, "store": "sqlite"}
    (tmp_path / "not-a-dir").write_text("a file where the store's directory should be")
    workflow.store = SqliteKnowledgeStore(tmp_path / "not-a-dir" / "knowledge.sqlite3")
    refused = await client.get("/api/v1/knowledge/ready")
    assert refused.status_code == 503 and refused.json()["error"]["code"] == "KS503"
    assert "not-a-dir" in refused.json()["error"]["message"]
    workflow.store = UnreachableStore()
    assert (await client.get("/api/v1/knowledge/ready")).status_code == 503


async def test_a_refused_query_is_a_500_not_an_outage(ctx):
    client, workflow, _ = ctx
    await workflow.store.open()
    with sqlite3.connect(workflow.store.path) as conn:  # a defect: the query's view is gone
        conn.execute("DROP VIEW approved_executions")
    refused = await client.get("/api/v1/knowledge/probe-metrics")
    assert refused.status_code == 500 and refused.json()["error"]["code"] == "KS500"
    assert "approved_executions" in refused.json()["error"]["message"]
    assert (await client.get("/api/v1/knowledge/packages")).status_code == 200  # the store itself is up


async def test_only_a_lead_brings_a_package_toward_the_runtime_and_every_decision_names_who(ctx):
    client, workflow, published = ctx
    pid = await _candidate(workflow)
    for decision in ("approve", "shadow", "activate"):
        refused = await _decide(client, pid, decision, headers=REVIEW)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "KA403", decision
        assert REVIEWER not in refused.text
    assert (await workflow.package(pid)).state == "candidate" and published == []
    assert (await _decide(client, pid, "shadow")).status_code == 200
    rejected = await _decide(client, pid, "reject", headers=REVIEW)  # taking a package out: any reviewer
    assert rejected.status_code == 200
    history = (await workflow.package(pid)).history
    assert [(d.decision, d.reviewer) for d in history] == [("shadow", "lena"), ("reject", "mira")]


async def test_catalogs_are_proposed_by_reviewers_decided_by_leads_and_read_by_readers(ctx):
    client, workflow, published = ctx
    from rcaloop.shared.catalog import bundled_catalog  # noqa: PLC0415

    active = (await client.get("/api/v1/knowledge/catalog")).json()
    assert active["source"] == "bundled" and active["package_id"] is None
    assert active["version"] == bundled_catalog().version
    data = bundled_catalog().model_dump(mode="json", exclude_none=True)
    data["version"] = "2026.12.7"
    assert (await client.post("/api/v1/knowledge/catalogs", json=data)).status_code == 403  # a reader's token
    proposed = await client.post("/api/v1/knowledge/catalogs", json=data, headers=REVIEW)
    assert proposed.status_code == 200, proposed.text
    assert proposed.json()["package"]["proposed_by"] == "mira" and [e["kind"]
                                                                    for e in proposed.json()["events"]] == ["candidate"]
    bad = dict(data, version="2026.12.8", families=[])
    refused = await client.post("/api/v1/knowledge/catalogs", json=bad, headers=REVIEW)
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "invalid_request"
    url = "/api/v1/knowledge/catalogs/kc-2026.12.7/decisions"
    denied = await client.post(url, json={"decision": "approve"}, headers=REVIEW)
    assert denied.status_code == 403 and denied.json()["error"]["code"] == "KA403"  # toward the runtime: a lead only
    decided = await client.post(url, json={"decision": "approve"}, headers=AUTH)
    assert decided.status_code == 200 and decided.json()["package"]["state"] == "activated"
    assert (await client.get("/api/v1/knowledge/catalog")).json()["package_id"] == "kc-2026.12.7"
    assert [c["state"] for c in (await client.get("/api/v1/knowledge/catalogs")).json()] == ["activated"]
    again = await client.post(url, json={"decision": "activate"}, headers=AUTH)
    assert again.status_code == 409 and again.json()["error"]["code"] == "KD101"
    assert "Family catalogs" in (await client.get("/knowledge")).text
    assert [e.kind for e in published] == ["candidate", "approved", "activated"]
    assert (await workflow.store.get_catalog("kc-2026.12.7")).history[0].reviewer == "lena"
