"""Export and agreement over a real store (both backends)."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta

from rcaloop.annotation import core, export
from rcaloop.annotation.reports import agreement_report, export_records
from rcaloop.contracts import Annotation
from tests.integration.annotation.conftest import ROOT, verdict

VALID = json.loads((ROOT / "tests" / "fixtures" / "annotation" / "valid_1234567.json").read_text())


async def _annotate(store, task, who: str, **changes):
    doc = copy.deepcopy(VALID)
    for key, value in changes.items():
        if key == "category":
            doc["root_cause"]["category"] = value
        else:
            doc[key] = value
    await store.save_annotation(
        Annotation.model_validate(doc),
        annotator=who,
        analysis_hash=task.analysis_hash,
        task_id=task.task_id,
        lease_required=False,
    )


async def test_export_and_agreement(store):
    tasks = []
    for n in range(3):
        v = verdict(n, verdict="degraded")
        tasks.append(core.review_task_for(v, overlap=2))
        await store.add_verdict(v, tasks[-1])
    await _annotate(store, tasks[0], "alice")
    await _annotate(store, tasks[0], "bob")
    await _annotate(store, tasks[1], "alice")
    await _annotate(store, tasks[1], "bob", category_correct=False, category="configuration")
    await _annotate(store, tasks[2], "alice")

    records = await export_records(store)
    assert len(records) == 6  # every reviewer's own annotation, and the agreed one of task 0
    assert all(set(export.COLUMNS) <= set(r) and r["annotation"]["job_id"] == "1234567" for r in records)
    assert {r["harness_verdict"] for r in records} == {"degraded"}
    assert [r["decision"] for r in records] == ["review", "review", "agreed", "review", "review", "review"]
    assert [r["agreed"] for r in records] == [True, True, True, False, False, None]
    assert records[2]["annotator"] == "alice+bob" and records[2]["annotation_id"].startswith("final-")

    agreed = await export_records(store, agreed_only=True)
    assert [(r["task_id"], r["annotator"]) for r in agreed] == [
        (tasks[0].task_id, "alice"), (tasks[0].task_id, "bob"), (tasks[0].task_id, "alice+bob")]
    assert [r["annotator"] for r in await export_records(store, category="configuration")] == ["bob"]
    assert await export_records(store, since=datetime.now(UTC) + timedelta(hours=1)) == []

    fields = {f.field: f for f in await agreement_report(store)}
    assert fields["category_correct"].items == 2 and fields["category_correct"].observed_agreement == 0.5
    assert fields["root_cause.category"].annotators == 2
