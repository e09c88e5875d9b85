"""``rcaloop knowledge …`` as a user runs it, over the embedded store and a real Redis."""

from __future__ import annotations

import asyncio
import json

import pytest
import redis as sync_redis
from typer.testing import CliRunner

from rcaloop.cli.main import app
from rcaloop.contracts import Stream
from rcaloop.knowledge.snapshot import SnapshotCache
from rcaloop.knowledge.sqlite_store import SqliteKnowledgeStore
from rcaloop.knowledge.workflow import KnowledgeWorkflow
from tests.unit.knowledge import incident_set
from tests.unit.knowledge.builders import evaluation, verdict

TOKEN = "cli-lead-token-8Qw3Zr5Tn-4Lp"
REVIEWER = "cli-reviewer-token-8Qw3Zr5Tn"


@pytest.fixture
def env(tmp_path, redis_url, prefix, monkeypatch):
    data = tmp_path / "data"
    for key, value in {
        "RCALOOP_DATA_DIR": str(data),
        "REDIS_URL": redis_url,
        "RCALOOP_STREAM_PREFIX": prefix,
        "RCALOOP_LEAD_TOKENS": f"mira:{TOKEN}",
        "RCALOOP_REVIEWER_TOKENS": f"rex:{REVIEWER}",
        "RCALOOP_REVIEWER_TOKEN": TOKEN,
    }.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("TYPEDB_ADDRESS", raising=False)

    async def seed() -> str:
        store = SqliteKnowledgeStore(data / "knowledge" / "knowledge.sqlite3")
        workflow = KnowledgeWorkflow(store, SnapshotCache(data / "knowledge" / "runtime_snapshot.json"))
        await workflow.on_review(evaluation())
        [event] = await workflow.on_verdict(verdict())
        await store.close()
        return event.package_id

    client = sync_redis.Redis.from_url(redis_url)
    yield asyncio.run(seed()), client, prefix
    client.close()


def _run(*args: str):
    return CliRunner().invoke(app, ["knowledge", *args])


def test_list_decide_snapshot_and_probe_metrics(env):
    package_id, client, prefix = env
    listed = _run("list", "--state", "candidate", "--json")
    assert listed.exit_code == 0, listed.output
    assert [p["package_id"] for p in json.loads(listed.output)] == [package_id]

    decided = _run("decide", package_id, "approve", "--comment", "verified in the incident review", "--json")
    assert decided.exit_code == 0, decided.output
    body = json.loads(decided.output)
    assert body["accepted"] and body["package"]["state"] == "activated" and TOKEN not in decided.output
    kinds = [json.loads(f[b"payload"])["kind"] for _, f in client.xrange(Stream.KNOWLEDGE_EVENTS.key(prefix))]
    assert kinds == ["approved", "activated"]

    snapshot = json.loads(_run("snapshot", "--json").output)
    assert [p["package_id"] for p in snapshot["packages"]] == [package_id]
    metrics = json.loads(_run("probe-metrics", "--json").output)
    assert {m["probe_template_id"] for m in metrics} == {
        "pt.db.pool_usage",
        "pt.logs.error_signature",
        "pt.db.slow_query_log",
    }
    check = _run("outage-check", "--json")
    assert check.exit_code == 0 and json.loads(check.output)["typedb_outage_runtime_activation_success"] is True


def test_bad_input_gets_a_clear_error_and_exit_code(env, monkeypatch):
    package_id, _, _ = env
    assert _run("list", "--state", "bogus").exit_code == 2
    assert _run("decide", package_id, "maybe").exit_code == 2
    not_allowed = _run("decide", package_id, "activate")
    assert not_allowed.exit_code == 1 and "KD101" in not_allowed.output
    assert _run("decide", "kp-missing", "approve").exit_code == 2
    monkeypatch.setenv("RCALOOP_REVIEWER_TOKEN", "wrong-token")
    wrong = _run("decide", package_id, "approve")
    assert wrong.exit_code == 2 and "wrong-token" not in wrong.output and "Traceback" not in wrong.output
    monkeypatch.setenv("RCALOOP_REVIEWER_TOKEN", REVIEWER)  # a reviewer's token: reject only
    refused = _run("decide", package_id, "approve")
    assert refused.exit_code == 1 and "needs a lead" in refused.output and REVIEWER not in refused.output


def test_bracketed_input_is_printed_literally_not_as_rich_markup(env):
    """``[/x]`` in an argument used to crash Rich (MarkupError traceback) instead of the error line."""
    bad_state = _run("list", "--state", "[/x]")
    assert bad_state.exit_code == 2 and "unknown state '[/x]'" in bad_state.output
    missing = _run("decide", "[/red]kp", "approve")
    assert missing.exit_code == 2 and "KD404" in missing.output and "[/red]kp" in missing.output


def test_probes_ranks_the_open_incident_from_the_store_the_service_uses(tmp_path, monkeypatch):
    data = tmp_path / "data"
    monkeypatch.setenv("RCALOOP_DATA_DIR", str(data))
    monkeypatch.delenv("TYPEDB_ADDRESS", raising=False)

    async def seed() -> None:
        store = SqliteKnowledgeStore(data / "knowledge" / "knowledge.sqlite3")
        await incident_set.load(KnowledgeWorkflow(store, SnapshotCache(data / "knowledge" / "snapshot.json")))
        await store.close()

    asyncio.run(seed())
    ranked = _run("probes", "--incident", "inc-D", "--json")
    assert ranked.exit_code == 0, ranked.output
    assert [p["probe_template_id"] for p in json.loads(ranked.output)["probes"]] == incident_set.EXPECTED_PROBES_FOR_D
    table = _run("probes", "--incident", "inc-D")
    assert table.exit_code == 0 and "pt.db.query_latency" in table.output and "slow_query" in table.output
    unknown = _run("probes", "--incident", "[/x]inc")
    assert unknown.exit_code == 2 and "no incident '[/x]inc'" in unknown.output


def test_a_catalog_is_shown_proposed_from_a_file_and_decided(env, tmp_path):
    _, client, prefix = env
    shown = _run("catalog", "show", "--json")
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.output)["source"] == "bundled"

    import yaml  # noqa: PLC0415

    from rcaloop.shared.catalog import bundled_catalog  # noqa: PLC0415

    data = bundled_catalog().model_dump(mode="json", exclude_none=True)
    data["version"] = "2026.12.5"
    next(f for f in data["families"] if f["name"] == "disk_full")["supports"].append(
        {"kind": "log_pattern", "pattern": "write error: disk full"})
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(data))
    proposed = _run("catalog", "propose", str(path), "--json")
    assert proposed.exit_code == 0, proposed.output
    answer = json.loads(proposed.output)
    assert answer["package"]["state"] == "candidate"
    assert answer["package"]["changes"]["added_signatures"] == ["disk_full/supports/log_pattern:write error: disk full"]

    decided = _run("catalog", "decide", "kc-2026.12.5", "approve", "--json")
    assert decided.exit_code == 0, decided.output
    assert [e["kind"] for e in json.loads(decided.output)["events"]] == ["approved", "activated"]
    assert json.loads(_run("catalog", "show", "--json").output)["catalog"]["version"] == "2026.12.5"
    listed = json.loads(_run("catalog", "list", "--json").output)
    assert [(p["package_id"], p["state"]) for p in listed] == [("kc-2026.12.5", "activated")]
    kinds = [json.loads(f[b"payload"])["kind"] for _, f in client.xrange(f"{prefix}{Stream.KNOWLEDGE_EVENTS.value}")]
    assert kinds == ["candidate", "approved", "activated"]

    path.write_text("version: 2026.12.6\nfamilies: []\n")
    refused = _run("catalog", "propose", str(path))
    assert refused.exit_code == 2 and "families" in refused.output
    assert _run("catalog", "decide", "kc-nope", "approve").exit_code == 2
