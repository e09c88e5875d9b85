"""The review API on SQLite and PostgreSQL: leases, overlap, authentication, evaluations."""

from __future__ import annotations

import asyncio
import copy
import json
from datetime import UTC, datetime, timedelta

from rcaloop.annotation import core
from rcaloop.contracts.evaluation import EVALUATION_ITEMS
from tests.integration.annotation.conftest import ROOT, auth, verdict

VALID = json.loads((ROOT / "tests" / "fixtures" / "annotation" / "valid_1234567.json").read_text())


async def _add(store, n: int, overlap: int = 1, **kw):
    v = verdict(n, **kw)
    task = core.review_task_for(v, overlap=overlap)
    assert await store.add_verdict(v, task)
    return task


async def _claim(api, who: str):
    resp = await api.post("/api/v1/review/tasks/claim", headers=auth(who))
    assert resp.status_code in (200, 204), resp.text
    return resp.json() if resp.status_code == 200 else None


async def test_claim_lease_expiry_returns_task_to_queue(api, store):
    task = await _add(store, 1)
    lease = await _claim(api, "alice")
    assert lease["task"]["task_id"] == task.task_id and lease["annotator"] == "alice"
    assert await _claim(api, "bob") is None  # leased: not offered to anyone else

    listed = (await api.get("/api/v1/review/tasks", params={"state": "open"}, headers=auth("bob"))).json()
    assert listed == []

    store.clock.now += 61  # the 60 s lease runs out
    assert (await api.post(f"/api/v1/review/tasks/{task.task_id}/extend", headers=auth("alice"))).status_code == 409
    lease_bob = await _claim(api, "bob")
    assert lease_bob["task"]["task_id"] == task.task_id

    resp = await api.post(f"/api/v1/review/tasks/{task.task_id}/annotation", json=VALID, headers=auth("alice"))
    assert resp.status_code == 409 and resp.json()["error"]["code"] == "no_active_lease"
    # the lost lease is the answer even when the body is also wrong
    resp = await api.post(f"/api/v1/review/tasks/{task.task_id}/annotation", json={"job_id": 5}, headers=auth("alice"))
    assert resp.status_code == 409 and resp.json()["error"]["code"] == "no_active_lease"


async def test_extend_keeps_and_release_returns_the_task(api, store):
    task = await _add(store, 1)
    await _claim(api, "alice")
    store.clock.now += 50
    resp = await api.post(f"/api/v1/review/tasks/{task.task_id}/extend", headers=auth("alice"))
    assert resp.status_code == 200 and resp.json()["expires_at"] == store.clock.now + 60
    store.clock.now += 50  # past the first lease, inside the extended one
    assert await _claim(api, "bob") is None
    assert (await api.post(f"/api/v1/review/tasks/{task.task_id}/release", headers=auth("alice"))).status_code == 204
    assert (await _claim(api, "bob"))["task"]["task_id"] == task.task_id


async def test_two_annotators_never_get_the_same_non_overlap_task(api, store):
    for n in range(6):
        await _add(store, n)
    names = ["alice", "bob", "carol"] * 3
    leases = await asyncio.gather(*(_claim(api, who) for who in names))
    got = [lease["task"]["task_id"] for lease in leases if lease]
    assert len(got) == 6 and len(set(got)) == 6  # every task exactly once, the rest found the queue empty


async def test_overlap_two_gives_each_task_to_two_people(api, store):
    task = await _add(store, 1, overlap=2)
    first, second = await _claim(api, "alice"), await _claim(api, "bob")
    assert first["task"]["task_id"] == second["task"]["task_id"] == task.task_id
    assert await _claim(api, "carol") is None  # two slots, both taken
    assert await _claim(api, "alice") is None  # nobody gets the same task twice

    for who in ("alice", "bob"):
        resp = await api.post(f"/api/v1/review/tasks/{task.task_id}/annotation", json=VALID, headers=auth(who))
        assert resp.status_code == 201, resp.text
    [row] = (await api.get("/api/v1/review/tasks", headers=auth("alice"))).json()
    assert row["submitted"] == 2
    assert (await api.get("/api/v1/review/tasks", params={"state": "done"}, headers=auth("alice"))).json()
    assert (await api.get("/api/v1/review/agreement", headers=auth("carol"))).status_code == 403  # a reviewer's
    agreement = (await api.get("/api/v1/review/agreement", headers=auth("lena"))).json()["fields"]
    assert {f["field"]: f["observed_agreement"] for f in agreement} == {
        "category_correct": 1.0,
        "root_cause.category": 1.0,
        "summary_accurate": 1.0,
    }


async def test_unauthenticated_writes_are_refused(api, store):
    task = await _add(store, 1)
    assert (await api.post("/api/v1/review/tasks/claim")).status_code == 401
    bad = {"Authorization": "Bearer not-a-token"}
    assert (await api.post("/api/v1/review/tasks/claim", headers=bad)).status_code == 401
    assert (await api.post(f"/api/v1/review/tasks/{task.task_id}/annotation", json=VALID)).status_code == 401
    assert (await api.post("/api/v1/evaluations", json={})).status_code == 401
    assert await store.annotation_rows() == []


async def test_one_annotator_cannot_overwrite_anothers_annotation(api, store, analysis_root):
    task = await _add(store, 1)
    await _claim(api, "alice")
    # bob holds no lease on alice's task
    resp = await api.post(f"/api/v1/review/tasks/{task.task_id}/annotation", json=VALID, headers=auth("bob"))
    assert resp.status_code == 409
    resp = await api.post(f"/api/v1/review/tasks/{task.task_id}/annotation", json=VALID, headers=auth("alice"))
    assert resp.status_code == 201
    annotation_id = resp.json()["annotation_id"]

    changed = copy.deepcopy(VALID)
    changed["category_correct"] = False
    changed["root_cause"]["category"] = "configuration"
    resp = await api.put(f"/api/v1/annotations/{annotation_id}", json=changed, headers=auth("bob"))
    assert resp.status_code == 403 and resp.json()["error"]["code"] == "not_your_annotation"
    [row] = await store.annotation_rows()
    assert row["annotator"] == "alice" and row["annotation"]["category_correct"] is True

    resp = await api.put(f"/api/v1/annotations/{annotation_id}", json=changed, headers=auth("alice"))
    assert resp.status_code == 200
    [row] = await store.annotation_rows()
    assert row["revision"] == 2 and row["annotation"]["category_correct"] is False
    written = json.loads((analysis_root / "1234567" / "annotation.json").read_text())
    assert written["category_correct"] is False and list(written) == list(VALID)


async def test_invalid_annotation_is_refused_with_every_error(api, store):
    task = await _add(store, 1)
    await _claim(api, "alice")
    bad = copy.deepcopy(VALID)
    bad["category_correct"] = False
    bad["root_cause"]["category"] = "auth"
    bad["evidence"][1]["json_path"] = "failed_tasks[9].duration"
    bad["difficulty"] = "hard"
    resp = await api.post(f"/api/v1/review/tasks/{task.task_id}/annotation", json=bad, headers=auth("alice"))
    assert resp.status_code == 422
    body = resp.json()
    assert body["valid"] is False
    assert {(e["code"], e["path"]) for e in body["errors"]} == {
        ("ANN101", "root_cause.category"),
        ("ANN126", "evidence[1].json_path"),
        ("ANN141", "difficulty"),
    }
    assert await store.annotation_rows() == []


async def test_resubmitting_the_same_annotation_is_idempotent(api, store):
    task = await _add(store, 1)
    await _claim(api, "alice")
    url = f"/api/v1/review/tasks/{task.task_id}/annotation"
    first = await api.post(url, json=VALID, headers=auth("alice"))
    again = await api.post(url, json=VALID, headers=auth("alice"))
    assert (first.status_code, again.status_code) == (201, 200)
    assert len(await store.pending_outbox()) == 1


def _form(**over):
    form = {
        "case_type": "known",
        "expected_family": "credential",
        "scores": dict.fromkeys(EVALUATION_ITEMS, 4),
        "hard_gate_judgement": {"agrees_with_harness": True},
        "resolution_outcome": "resolved",
        "action_that_worked": "rotate the secret_id",
        "verified_actions": ["restart everything"],
        "memo": "good",
    }
    form.update(over)
    return form


async def test_evaluation_history_is_kept_across_reanalysis(api, store):
    t0 = datetime(2026, 3, 19, 12, tzinfo=UTC)
    first = verdict(1, job_id=None, kind="capture", result_id="INC-7", evaluated_at=t0)
    await store.add_verdict(first, core.review_task_for(first))
    resp = await api.post("/api/v1/evaluations", json=_form(analysis_hash=first.analysis_hash), headers=auth("olga"))
    assert resp.status_code == 201, resp.text
    stored = resp.json()["evaluation"]
    assert stored["verified_actions"] == ["rotate the secret_id"]  # the client's list is not trusted

    view = (await api.get(f"/api/v1/incidents/{first.analysis_hash}", headers=auth("bob"))).json()
    assert view["needs_evaluation"] is False and len(view["evaluations"]) == 1 and view["history"] == []
    assert view["confidence_breakdown"]["fields"]["harness_score"] == 80.0
    assert "ranker_deltas" in view["confidence_breakdown"]["missing"]  # an old run shows what it has

    second = verdict(2, job_id=None, kind="capture", result_id="INC-7", evaluated_at=t0 + timedelta(hours=1))
    await store.add_verdict(second, core.review_task_for(second))
    view = (await api.get(f"/api/v1/incidents/{second.analysis_hash}", headers=auth("bob"))).json()
    assert view["latest_analysis_hash"] == second.analysis_hash
    assert view["needs_evaluation"] is True and view["evaluations"] == []
    assert [e["analysis_hash"] for e in view["history"]] == [first.analysis_hash]
    assert view["history"][0]["superseded"] is True

    resp = await api.post(
        "/api/v1/evaluations",
        json=_form(analysis_hash=second.analysis_hash, resolution_outcome="not_resolved"),
        headers=auth("olga"),
    )
    assert resp.status_code == 201 and resp.json()["evaluation"]["verified_actions"] == []
    view = (await api.get(f"/api/v1/incidents/{first.analysis_hash}", headers=auth("bob"))).json()
    assert view["is_latest"] is False and view["needs_evaluation"] is False
    assert len(view["evaluations"]) == 1 and len(view["history"]) == 1


async def test_evaluation_form_is_checked(api, store):
    v = verdict(1, job_id=None, kind="capture", result_id="INC-8")
    task = core.review_task_for(v)
    await store.add_verdict(v, task)
    bad = _form(case_type="weird")
    bad["scores"]["tool_efficiency"] = 9
    resp = await api.post("/api/v1/evaluations", json={**bad, "analysis_hash": v.analysis_hash}, headers=auth("olga"))
    assert resp.status_code == 422
    assert {e["path"] for e in resp.json()["errors"]} == {"case_type", "scores.tool_efficiency"}
    resp = await api.post(
        "/api/v1/evaluations", json=_form(analysis_hash=v.analysis_hash, action_that_worked=None), headers=auth("olga")
    )
    assert resp.status_code == 422 and resp.json()["errors"][0]["code"] == "EVL101"

    lease = await _claim(api, "bob")
    assert lease["task"]["kind"] == "operator_evaluation"
    resp = await api.post(f"/api/v1/review/tasks/{task.task_id}/evaluation", json=_form(), headers=auth("bob"))
    assert resp.status_code == 201 and resp.json()["analysis_hash"] == v.analysis_hash


async def test_rubric_endpoint(api):
    resp = await api.post(
        "/api/v1/annotation/rubric",
        json={"criteria": ["cross_source_correlation", "generic_error"]},
        headers=auth("alice"),
    )
    assert resp.json()["difficulty_score"] == 5 and resp.json()["difficulty"] == "medium"


async def test_stored_tokens_authenticate_until_revoked(api, store):
    await _add(store, 1)
    token = await store.create_token("dave")
    headers = {"Authorization": f"Bearer {token}"}
    lease = (await api.post("/api/v1/review/tasks/claim", headers=headers)).json()
    assert lease["annotator"] == "dave"
    assert await store.revoke_tokens("dave") == 1
    assert (await api.get("/api/v1/review/tasks", headers=headers)).status_code == 401


async def test_bad_queue_filters_are_422_not_an_empty_queue_or_a_500(api, store):
    await _add(store, 1)
    bogus_kind = await api.post("/api/v1/review/tasks/claim", json={"kind": "bogus"}, headers=auth("alice"))
    assert bogus_kind.status_code == 422 and "operator_evaluation" in bogus_kind.text
    listed = await api.get("/api/v1/review/tasks", params={"kind": "bogus"}, headers=auth("alice"))
    assert listed.status_code == 422
    huge = await api.get("/api/v1/review/tasks", params={"offset": str(10**20)}, headers=auth("alice"))
    assert huge.status_code == 422  # was a 500: the integer overflowed the database's
    ok = await api.get("/api/v1/review/tasks", params={"kind": "annotation"}, headers=auth("alice"))
    assert ok.status_code == 200


async def test_add_verdicts_stores_a_batch_in_one_call_and_reports_what_was_new(store):
    already = verdict(1)
    assert await store.add_verdict(already, core.review_task_for(already))
    batch = [verdict(1), verdict(2), verdict(3), verdict(2)]  # one stored before, one twice in the batch
    created = await store.add_verdicts([(v, core.review_task_for(v)) for v in batch])
    assert created == [False, True, True, False]
    listed = await store.list_tasks(limit=10)
    assert sorted(t["task"]["analysis_hash"] for t in listed) == sorted({v.analysis_hash for v in batch})


async def test_add_verdicts_retries_one_by_one_when_a_row_conflicts(store):
    clash = verdict(1)
    await store.add_verdict(clash, core.review_task_for(clash))
    other = verdict(2)
    stolen = core.review_task_for(other).model_copy(update={"task_id": core.review_task_for(clash).task_id})
    fine = verdict(3)
    # the task id is taken (as if a concurrent writer had won): the batch's insert fails as a whole
    created = await store.add_verdicts([(other, stolen), (fine, core.review_task_for(fine))])
    assert created == [False, True]
    assert await store.task(core.review_task_for(fine).task_id) is not None
