"""Tasks several reviewers review, on SQLite and PostgreSQL: agreement decides, disagreement goes to
adjudication (a third reviewer or a lead), only the decided review is published and written to
``annotation.json``; who may evaluate and who may adjudicate is bound to the token's role."""

from __future__ import annotations

import copy
import json

from rcaloop.annotation import core
from rcaloop.contracts import AnnotationRecord
from tests.integration.annotation.conftest import TOKENS, auth, verdict
from tests.integration.annotation.test_api import VALID, _add, _claim, _form

DISSENT = copy.deepcopy(VALID) | {"category_correct": False, "category_comment": "a network fault, not the credential"}
DISSENT["root_cause"] = {**VALID["root_cause"], "category": "network"}


async def _published(store) -> list[AnnotationRecord]:
    return [AnnotationRecord.model_validate_json(payload) for _key, _stream, payload in await store.pending_outbox()]


async def _review(api, task, who: str, document: dict) -> dict:
    lease = await _claim(api, who)
    assert lease and lease["task"]["task_id"] == task.task_id, (who, lease)
    resp = await api.post(f"/api/v1/review/tasks/{task.task_id}/annotation", json=document, headers=auth(who))
    assert resp.status_code == 201, resp.text
    return resp.json()


def _file(analysis_root) -> dict | None:
    path = analysis_root / "1234567" / "annotation.json"
    return json.loads(path.read_text()) if path.exists() else None


async def test_agreeing_reviewers_publish_one_decided_review(api, store, analysis_root):
    task = await _add(store, 1, overlap=2)
    alice = await _review(api, task, "alice", VALID)
    bob = await _review(api, task, "bob", VALID)
    [record] = await _published(store)  # not one per reviewer
    assert record.annotation_id.startswith("final-") and record.task_id == task.task_id
    assert record.decision.how == "agreed" and record.annotator == "alice+bob"
    assert record.decision.reviews == [alice["annotation_id"], bob["annotation_id"]]
    assert record.annotation.root_cause.category == "credential"
    assert _file(analysis_root)["root_cause"]["category"] == "credential"
    [outcome] = (await api.get("/api/v1/adjudications", params={"state": "decided"}, headers=auth("lena"))).json()
    assert outcome["state"] == "agreed" and outcome["disputed"] == []


async def test_disagreeing_reviewers_send_the_task_to_adjudication_and_a_lead_decides(api, store, analysis_root):
    task = await _add(store, 1, overlap=2)
    await _review(api, task, "alice", VALID)
    bob = await _review(api, task, "bob", DISSENT)
    assert await _published(store) == [], "neither reviewer's review is published while they disagree"
    assert _file(analysis_root) is None, "the last reviewer's file does not win"

    denied = await api.get("/api/v1/adjudications", headers=auth("alice"))
    assert denied.status_code == 403 and denied.json()["error"]["code"] == "lead_required"
    [disputed] = (await api.get("/api/v1/adjudications", params={"state": "disputed"}, headers=auth("lena"))).json()
    assert disputed["task_id"] == task.task_id
    assert {d["judgement"] for d in disputed["disputed"]} == {"category_correct", "root_cause.category"}
    detail = (await api.get(f"/api/v1/adjudications/{task.task_id}", headers=auth("lena"))).json()
    assert {r["annotator"]: r["review"]["root_cause"]["category"] for r in detail["reviews"]} == {
        "alice": "credential", "bob": "network"}
    assert (await _claim(api, "alice")) is None  # nobody reviews a task twice …
    third = await _claim(api, "carol")  # … but the task has one more slot for a third reviewer
    assert third["task"]["task_id"] == task.task_id
    assert (await api.post(f"/api/v1/review/tasks/{task.task_id}/release", headers=auth("carol"))).status_code == 204

    decided = await api.post(f"/api/v1/adjudications/{task.task_id}/decision", headers=auth("lena"),
                             json={"adopt": bob["annotation_id"], "comment": "the resolver logs show it"})
    assert decided.status_code == 200, decided.text
    record = AnnotationRecord.model_validate(decided.json())
    assert record.decision.how == "adjudicated" and record.annotator == "lena" and record.revision == 1
    assert record.decision.disputed == ["category_correct", "root_cause.category"]
    assert [r.annotation_id for r in await _published(store)] == [record.annotation_id]
    assert _file(analysis_root)["root_cause"]["category"] == "network"
    assert (await _claim(api, "carol")) is None  # decided: the extra slot is closed

    # the lead may decide again: a new revision of the same decided review
    again = await api.post(f"/api/v1/adjudications/{task.task_id}/decision", headers=auth("lena"),
                           json={"review": VALID})
    assert again.status_code == 200 and again.json()["revision"] == 2
    assert _file(analysis_root)["root_cause"]["category"] == "credential"
    assert [(r.annotation_id, r.revision) for r in await _published(store)] == [(record.annotation_id, 1),
                                                                                   (record.annotation_id, 2)]


async def test_a_third_reviewer_settles_a_dispute_by_majority(api, store, analysis_root):
    task = await _add(store, 1, overlap=2)
    alice = await _review(api, task, "alice", VALID)
    await _review(api, task, "bob", DISSENT)
    carol = await _review(api, task, "carol", VALID)
    [record] = await _published(store)
    assert record.decision.how == "majority" and record.annotator == "alice+carol"
    assert record.decision.reviews[0] == alice["annotation_id"] and carol["annotation_id"] in record.decision.reviews
    assert _file(analysis_root)["root_cause"]["category"] == "credential"


async def test_a_lead_decision_is_checked_like_a_review(api, store):
    task = await _add(store, 1, overlap=2)
    url = f"/api/v1/adjudications/{task.task_id}/decision"
    nothing = await api.post(url, json={"adopt": "ann-x"}, headers=auth("lena"))
    assert nothing.status_code == 409 and nothing.json()["error"]["code"] == "nothing_to_adjudicate"
    await _review(api, task, "alice", VALID)
    await _review(api, task, "bob", DISSENT)
    both = await api.post(url, json={"adopt": "ann-x", "review": VALID}, headers=auth("lena"))
    assert both.status_code == 422 and both.json()["error"]["code"] == "invalid_decision"
    unknown = await api.post(url, json={"adopt": "ann-not-a-review"}, headers=auth("lena"))
    assert unknown.status_code == 422 and unknown.json()["error"]["code"] == "unknown_review"
    broken = copy.deepcopy(VALID)
    broken["evidence"][0]["json_path"] = "no.such[9]"
    invalid = await api.post(url, json={"review": broken}, headers=auth("lena"))
    assert invalid.status_code == 422 and invalid.json()["valid"] is False and invalid.json()["errors"]
    assert (await api.post(url, json={"review": VALID}, headers=auth("carol"))).status_code == 403
    assert await _published(store) == []


async def test_evaluators_who_disagree_on_a_hard_gate_go_to_adjudication(api, store):
    v = verdict(1, job_id=None, kind="capture", result_id="INC-9")
    task = core.review_task_for(v, overlap=2)
    await store.add_verdict(v, task)
    for who, form in (("alice", _form()), ("bob", _form(hard_gate_judgement={"agrees_with_harness": False,
                                                                             "failed_gates": ["G2"]}))):
        await _claim(api, who)
        resp = await api.post(f"/api/v1/review/tasks/{task.task_id}/evaluation", json=form, headers=auth(who))
        assert resp.status_code == 201, resp.text
    assert await _published(store) == []
    [disputed] = (await api.get("/api/v1/adjudications", headers=auth("lena"))).json()
    assert {d["judgement"] for d in disputed["disputed"]} == {"hard_gate_judgement.agrees_with_harness",
                                                             "hard_gate_judgement.failed_gates"}
    decided = await api.post(f"/api/v1/adjudications/{task.task_id}/decision", headers=auth("lena"),
                             json={"review": _form(resolution_outcome="unknown", action_that_worked=None)})
    assert decided.status_code == 200, decided.text
    [record] = await _published(store)
    assert record.kind == "operator_evaluation" and record.evaluation.annotator == "lena"
    assert record.evaluation.evaluation_id == record.annotation_id and record.evaluation.verified_actions == []


async def test_an_agreed_evaluation_takes_each_items_lowest_score(api, store):
    v = verdict(1, job_id=None, kind="capture", result_id="INC-10")
    task = core.review_task_for(v, overlap=2)
    await store.add_verdict(v, task)
    low = _form()
    low["scores"] = {**low["scores"], "safety": 2}
    for who, form in (("alice", _form()), ("bob", low)):
        await _claim(api, who)
        assert (await api.post(f"/api/v1/review/tasks/{task.task_id}/evaluation", json=form,
                               headers=auth(who))).status_code == 201
    [record] = await _published(store)
    assert record.decision.how == "agreed" and record.evaluation.scores.safety == 2
    assert record.evaluation.verified_actions == ["rotate the secret_id"]


async def test_a_reviewer_may_evaluate_only_an_incident_they_hold_a_lease_on(api, store):
    v = verdict(1, job_id=None, kind="capture", result_id="INC-11")
    task = core.review_task_for(v)
    await store.add_verdict(v, task)
    assert (await _claim(api, "bob"))["task"]["task_id"] == task.task_id
    hostile = _form(analysis_hash=v.analysis_hash, action_that_worked="rm -rf /")
    refused = await api.post("/api/v1/evaluations", json=hostile, headers=auth("alice"))
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "lease_required"
    assert await store.evaluations_for(v.analysis_hash) == [] and await store.pending_outbox() == []

    own = await api.post("/api/v1/evaluations", json=_form(analysis_hash=v.analysis_hash), headers=auth("bob"))
    assert own.status_code == 201 and own.json()["task_id"] == task.task_id  # counts for the task bob leased
    operator = await api.post("/api/v1/evaluations", json=_form(analysis_hash=v.analysis_hash), headers=auth("olga"))
    assert operator.status_code == 201 and operator.json()["task_id"] is None  # an operator's own evaluation
    assert {r.annotator for r in await _published(store)} == {"bob", "olga"}


async def test_roles_are_bound_to_tokens_and_stored_tokens_default_to_reviewer(api, store):
    reviewer = await store.create_token("dave")
    lead = await store.create_token("dana", "lead")
    operator = await store.create_token("otto", "operator")
    url = "/api/v1/adjudications"
    assert (await api.get(url, headers={"Authorization": f"Bearer {reviewer}"})).status_code == 403
    assert (await api.get(url, headers={"Authorization": f"Bearer {operator}"})).status_code == 403
    assert (await api.get(url, headers={"Authorization": f"Bearer {lead}"})).status_code == 200
    assert (await api.get(url, headers={"Authorization": f"Bearer {TOKENS['lena']}"})).status_code == 200
    v = verdict(1, job_id=None, kind="capture", result_id="INC-12")
    await store.add_verdict(v, core.review_task_for(v))
    body = _form(analysis_hash=v.analysis_hash)
    assert (await api.post("/api/v1/evaluations", json=body,
                           headers={"Authorization": f"Bearer {reviewer}"})).status_code == 403
    assert (await api.post("/api/v1/evaluations", json=body,
                           headers={"Authorization": f"Bearer {operator}"})).status_code == 201


async def test_agreement_is_computed_per_batch_for_the_lead(api, store):
    for n, dissent in ((1, False), (2, True)):
        task = await _add(store, n, overlap=2)
        await _review(api, task, "alice", VALID)
        await _review(api, task, "bob", DISSENT if dissent else VALID)
    assert (await api.get("/api/v1/review/agreement", headers=auth("bob"))).status_code == 403
    figures = (await api.get("/api/v1/review/agreement", headers=auth("lena"))).json()
    [batch] = figures["batches"]
    assert batch["tasks"] == 2
    fields = {f["field"]: f for f in batch["kinds"]["annotation"]}
    assert fields["category_correct"]["observed_agreement"] == 0.5
    assert fields["summary_accurate"]["observed_agreement"] == 1.0
    assert figures["kinds"]["annotation"] == batch["kinds"]["annotation"]
    none = (await api.get("/api/v1/review/agreement", params={"batch": "2001-01-01"}, headers=auth("lena"))).json()
    assert none["batches"] == [] and all(f["items"] == 0 for f in none["fields"])


async def test_reviews_submitted_at_once_settle_the_task_once(api, store, analysis_root):
    """Each submission takes the task's row lock first: two at once still see each other."""
    import asyncio

    task = await _add(store, 1, overlap=2)
    for who in ("alice", "bob"):
        assert (await _claim(api, who))["task"]["task_id"] == task.task_id
    responses = await asyncio.gather(*(
        api.post(f"/api/v1/review/tasks/{task.task_id}/annotation", json=VALID, headers=auth(who))
        for who in ("alice", "bob")))
    assert [r.status_code for r in responses] == [201, 201], [r.text for r in responses]
    [record] = await _published(store)
    assert record.decision.how == "agreed" and sorted(record.decision.reviewers) == ["alice", "bob"]
