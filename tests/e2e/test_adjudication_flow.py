"""End to end on a real Redis and real stores: two reviewers disagree → the task goes to
adjudication → a lead decides → exactly one knowledge candidate and one gate record, both from
the adjudicated review only; ``annotation.json`` holds it.

The annotation, knowledge and gate services run together on one Redis (each in its own
consumer groups), the annotation store on SQLite and on PostgreSQL; the verdict is the real
harness's judgement of the bundled CI job, the reviews are posted over the annotation API as a
reviewer's UI would, and the lead decides over the same API.
"""

from __future__ import annotations

import copy
import json
import shutil
import uuid
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from rcaloop.annotation.app import build as annotation_service
from rcaloop.annotation.settings import AnnotationSettings
from rcaloop.cli.compose import cli_deps
from rcaloop.contracts import AnnotationRecord, Stream
from rcaloop.gate.app import GateSettings
from rcaloop.gate.app import build as gate_service
from rcaloop.gate.store import GateStore
from rcaloop.knowledge.app import KnowledgeSettings
from rcaloop.knowledge.app import build as knowledge_service
from rcaloop.shared.service import http_app
from rcaloop.shared.sources import load_result
from rcaloop.shared.wire import encode
from tests.conftest import running
from tests.helpers.streams import entries

ROOT = Path(__file__).resolve().parents[2]
JOB = ROOT / "examples" / "jobs" / "1234567"
VALID = json.loads((ROOT / "tests" / "fixtures" / "annotation" / "valid_1234567.json").read_text())
DISSENT = copy.deepcopy(VALID) | {"category_correct": False, "category_comment": "a network fault"}
DISSENT["root_cause"] = {**VALID["root_cause"], "category": "network"}
TOKENS = {name: f"e2e-{name}-token-7Hw2Qx9Lm4Zp" for name in ("alice", "bob", "lena")}


def auth(name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKENS[name]}"}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def annotation_db(request, tmp_path):
    """(DATABASE_URL, schema) of the annotation store: a SQLite file, or a schema of its own in PostgreSQL."""
    if request.param == "sqlite":
        yield None, None
        return
    url = request.getfixturevalue("pg_url")
    schema = f"adj_{uuid.uuid4().hex[:12]}"
    admin = create_async_engine(url)
    async with admin.begin() as conn:
        await conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    yield url.replace("+asyncpg", ""), schema
    async with admin.begin() as conn:
        await conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
    await admin.dispose()


async def _review(api: httpx.AsyncClient, who: str, document: dict) -> str:
    lease = await api.post("/api/v1/review/tasks/claim", headers=auth(who))
    assert lease.status_code == 200, lease.text
    task_id = lease.json()["task"]["task_id"]
    resp = await api.post(f"/api/v1/review/tasks/{task_id}/annotation", json=document, headers=auth(who))
    assert resp.status_code == 201, resp.text
    return resp.json()["annotation_id"]


async def test_two_reviewers_disagree_a_lead_decides_and_only_the_decision_promotes_and_feeds_the_gate(
    redis, prefix, settings_factory, tmp_path, wait, annotation_db
):
    database_url, schema = annotation_db
    analysis_root = tmp_path / "analysis"
    shutil.copytree(JOB, analysis_root / "1234567")
    ann_settings = settings_factory(
        AnnotationSettings, rcaloop_annotator_tokens=f"alice:{TOKENS['alice']},bob:{TOKENS['bob']}",
        rcaloop_lead_tokens=f"lena:{TOKENS['lena']}", review_overlap=2, outbox_interval_ms=20,
        rcaloop_analysis_root=analysis_root, database_url=database_url, rcaloop_db_schema=schema,
    )
    knowledge_settings = settings_factory(KnowledgeSettings, rcaloop_lead_tokens=f"lena:{TOKENS['lena']}")
    gate_settings = settings_factory(GateSettings)
    verdict = cli_deps().analyze(load_result(JOB))  # the real parser and harness on the bundled CI job
    assert verdict.verdict == "pass" and verdict.job_id == "1234567"
    await redis.xadd(Stream.EVALUATED.key(prefix), encode(verdict))

    annotation, knowledge, gate = (annotation_service(ann_settings), knowledge_service(knowledge_settings),
                                   gate_service(gate_settings))
    async with running([annotation, knowledge, gate], ann_settings):
        transport = httpx.ASGITransport(http_app([annotation]))
        async with httpx.AsyncClient(transport=transport, base_url="http://annotation") as api:

            async def task_listed() -> list:
                resp = await api.get("/api/v1/review/tasks", headers=auth("alice"))  # 503 until the store is open
                return resp.json() if resp.status_code == 200 else []

            [row] = await wait(task_listed)
            task_id = row["task"]["task_id"]
            assert row["task"]["overlap"] == 2
            alice = await _review(api, "alice", VALID)
            await _review(api, "bob", DISSENT)

            # the disagreement is an adjudication task; nothing of either reviewer went downstream
            listed = await api.get("/api/v1/adjudications", params={"state": "disputed"}, headers=auth("lena"))
            assert listed.status_code == 200, listed.text
            [disputed] = listed.json()
            assert disputed["task_id"] == task_id
            assert {d["judgement"] for d in disputed["disputed"]} == {"category_correct", "root_cause.category"}
            assert not (analysis_root / "1234567" / "annotation.json").exists()

            decided = await api.post(f"/api/v1/adjudications/{task_id}/decision", headers=auth("lena"),
                                     json={"adopt": alice, "comment": "the vault audit log shows the expiry"})
            assert decided.status_code == 200, decided.text
            final_id = decided.json()["annotation_id"]

            async def knowledge_event() -> list:
                return [e for e in await entries(redis, Stream.KNOWLEDGE_EVENTS, prefix)
                        if e["analysis_hash"] == verdict.analysis_hash]

            events = await wait(knowledge_event)

            async def gate_has_review() -> bool:
                groups = await redis.xinfo_groups(Stream.REVIEW_ANNOTATIONS.key(prefix))
                return any(g["name"] in ("gate", b"gate") and g["pending"] == 0 and g.get("lag") == 0 for g in groups)

            await wait(gate_has_review)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(http_app([knowledge])), base_url="http://k",
                                     headers=auth("lena")) as kapi:
            packages = (await kapi.get("/api/v1/knowledge/packages")).json()

    # the review stream carried the lead's decision only
    [record] = [AnnotationRecord.model_validate(e) for e in await entries(redis, Stream.REVIEW_ANNOTATIONS, prefix)]
    assert record.annotation_id == final_id and record.annotator == "lena"
    assert record.decision.how == "adjudicated" and record.decision.reviewers == ["alice", "bob"]

    # exactly one knowledge candidate, built from the adjudicated review
    [package] = [p for p in packages if p["analysis_hash"] == verdict.analysis_hash]
    assert package["state"] == "candidate" and package["valid"], package["issues"]
    assert package["annotation_id"] == final_id and package["family"] == "credential"
    assert package["provenance"]["reviewer"] == "lena" and package["provenance"]["review_decision"] == "adjudicated"
    assert [e["kind"] for e in events] == ["candidate"]

    # exactly one gate record of the review, the adjudicated one
    store = GateStore(gate_settings.store_path())
    try:
        far = (datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC))
        [stored] = store.reviews(*far)
    finally:
        store.close()
    assert stored.annotation_id == final_id and stored.annotation.category_correct is True

    # annotation.json (what `rcaloop upload` pushes) holds the adjudicated review
    written = json.loads((analysis_root / "1234567" / "annotation.json").read_text())
    assert written["root_cause"]["category"] == "credential" and written["category_correct"] is True
