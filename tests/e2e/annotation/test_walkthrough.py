"""``rcaloop annotate`` driven end to end with scripted answers, as a user runs it."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ANSWERS = ROOT / "tests" / "fixtures" / "annotation" / "answers_1234567.txt"


def _rcaloop(*args: str, root: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("JUMPBOX_URI", "DATABASE_URL")}
    env.update(RCALOOP_ANALYSIS_ROOT=str(root), RCALOOP_DATA_DIR=str(root.parent / "data"), COLUMNS="120")
    exe = str(Path(sys.executable).parent / "rcaloop")
    return subprocess.run([exe, *args], capture_output=True, text=True, env=env, input=stdin, timeout=60)


def _job(tmp_path: Path) -> Path:
    root = tmp_path / ".analysis"
    shutil.copytree(ROOT / "examples" / "jobs" / "1234567", root / "1234567")
    return root


def test_scripted_walkthrough_writes_a_valid_annotation(tmp_path, monkeypatch):
    root = _job(tmp_path)
    run = _rcaloop("annotate", "--job-id", "1234567", "--answers", str(ANSWERS), root=root)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "secret_id expired" in run.stdout  # the cross-checked step3 value was shown
    assert "does not resolve" not in run.stdout and "source must be one of" in run.stdout  # the typo was refused

    written = json.loads((root / "1234567" / "annotation.json").read_text())
    assert list(written)[:4] == ["job_id", "annotated_at", "category_correct", "category_comment"]
    assert written["root_cause"]["category"] == "credential" and written["root_cause"]["confidence"] == "high"
    assert written["difficulty"] == "medium" and written["difficulty_score"] == 6
    assert written["difficulty_appropriate"] is False
    assert [e["is_root_cause"] for e in written["evidence"]] == [True, False, False, False, False]
    added = written["evidence"][4]
    assert added["exact_quote"] == "delay: 75" and added["line_number"] == 7
    assert added["github_path"] == "org/deploy-playbooks:roles/vault_login/tasks/main.yml:7"
    assert written["evidence"][3]["exact_value"] == 404
    assert written["alternative_diagnoses"][1]["plausibility"] == "medium"

    check = _cli(monkeypatch, root, "annotation", "validate", str(root / "1234567"), "--json")
    assert check.returncode == 0 and json.loads(check.stdout) == {"valid": True, "errors": []}


def test_answers_from_stdin_and_early_end_writes_nothing(tmp_path):
    root = _job(tmp_path)
    run = _rcaloop("annotate", "--job-id", "1234567", root=root, stdin="y\n\n")
    assert run.returncode == 2 and "answers ended early" in run.stderr
    assert "Traceback" not in run.stderr
    # the question, no markup
    assert "no answer for: " in run.stderr and "[bold" not in run.stderr and "[/" not in run.stderr
    assert not (root / "1234567" / "annotation.json").exists()


def test_binary_answers_file_is_a_clear_error(tmp_path):
    root = _job(tmp_path)
    answers = tmp_path / "answers.bin"
    answers.write_bytes(b"\xff\xfe\x00garbage\x80\n")
    run = _rcaloop("annotate", "--job-id", "1234567", "--answers", str(answers), root=root)
    assert run.returncode == 2 and "not UTF-8 text; nothing written" in run.stderr
    assert "Traceback" not in run.stderr
    assert not (root / "1234567" / "annotation.json").exists()


def _cli(monkeypatch, root: Path, *args: str):
    """The same commands in-process (Typer's runner): exit codes and output as a user sees them."""
    from typer.testing import CliRunner

    from rcaloop.cli.main import app

    monkeypatch.setenv("RCALOOP_ANALYSIS_ROOT", str(root))
    monkeypatch.setenv("RCALOOP_DATA_DIR", str(root.parent / "data"))
    for name in ("JUMPBOX_URI", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    result = CliRunner().invoke(app, list(args))
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def test_validate_exit_codes(tmp_path, monkeypatch):
    root = _job(tmp_path)
    bad = json.loads((ROOT / "tests" / "fixtures" / "annotation" / "valid_1234567.json").read_text())
    bad["evidence"][0]["exact_value"] = "something else"
    (root / "1234567" / "annotation.json").write_text(json.dumps(bad))
    run = _cli(monkeypatch, root, "annotation", "validate", str(root / "1234567"), "--json")
    assert run.returncode == 1
    assert json.loads(run.stdout)["errors"] == [
        {"code": "ANN127", "path": "evidence[0].exact_value", "message": json.loads(run.stdout)["errors"][0]["message"]}
    ]
    (root / "1234567" / "annotation.json").write_text("{not json")
    run = _cli(monkeypatch, root, "annotation", "validate", str(root / "1234567"), "--json")
    assert run.returncode == 1, run.stderr  # read, but not JSON: an invalid annotation
    body = json.loads(run.stdout)
    assert body["valid"] is False and [e["code"] for e in body["errors"]] == ["ANN000"]
    assert "invalid JSON" in body["errors"][0]["message"]
    run = _cli(monkeypatch, root, "annotation", "validate", str(root / "1234567" / "nope.json"), "--json")
    assert run.returncode == 2 and "no such file" in run.stderr  # a path that can't be read
    fixture = str(ROOT / "tests" / "fixtures" / "annotation" / "valid_1234567.json")
    run = _cli(monkeypatch, root, "annotation", "validate", fixture, "--job-dir", str(root / "7654321"))
    assert run.returncode == 2 and "no such directory (--job-dir)" in run.stderr


def test_export_cli_csv_and_seed_layout(tmp_path, monkeypatch):
    import asyncio

    from rcaloop.annotation import core
    from rcaloop.annotation.store import Store, database_url
    from rcaloop.contracts import Annotation
    from tests.integration.annotation.conftest import verdict

    root = _job(tmp_path)
    doc = json.loads((ROOT / "tests" / "fixtures" / "annotation" / "valid_1234567.json").read_text())

    async def fill():
        store = Store(database_url(None, tmp_path / "data"))
        await store.migrate()
        v = verdict(1)
        task = core.review_task_for(v)
        await store.add_verdict(v, task)
        await store.save_annotation(
            Annotation.model_validate(doc),
            annotator="alice",
            analysis_hash=v.analysis_hash,
            task_id=task.task_id,
            lease_required=False,
        )
        await store.close()

    asyncio.run(fill())
    run = _cli(monkeypatch, root, "annotation", "export", "--format", "csv")
    assert run.returncode == 0, run.stderr
    header, row = run.stdout.splitlines()
    assert header.split(",")[:3] == ["export_schema", "annotation_id", "task_id"]
    assert ",alice," in row and ",credential," in row

    out = tmp_path / "dataset"
    run = _cli(monkeypatch, root, "annotation", "export", "--layout", "seed", "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert json.loads((out / "1234567" / "annotation.json").read_text())["root_cause"] == doc["root_cause"]
    run = _cli(monkeypatch, root, "annotation", "export", "--since", "yesterday")
    assert run.returncode == 2 and "not an ISO date" in run.stderr
    run = _cli(monkeypatch, root, "annotation", "export", "--out", str(out))  # a directory, not a file
    assert run.returncode == 2 and "cannot write" in run.stderr
    run = _cli(monkeypatch, root, "annotation", "export", "--layout", "seed", "--out",
               str(out / "1234567" / "annotation.json"))
    assert run.returncode == 2 and "cannot write under" in run.stderr


def test_token_create_and_revoke(tmp_path, monkeypatch):
    root = _job(tmp_path)
    created = _cli(monkeypatch, root, "annotation", "token", "create", "alice")
    assert created.returncode == 0 and len(created.stdout.strip()) >= 16
    revoked = _cli(monkeypatch, root, "annotation", "token", "revoke", "alice")
    assert revoked.returncode == 0 and "revoked 1 token(s) of alice" in revoked.stdout
    again = _cli(monkeypatch, root, "annotation", "token", "revoke", "alice")
    assert again.returncode == 1 and "alice has no active token" in again.stderr
    odd = _cli(monkeypatch, root, "annotation", "token", "revoke", "\x1b[31mmallory\u202e")
    assert odd.returncode == 2 and "invalid annotator name" in odd.stderr and "\x1b" not in odd.stderr


def test_a_token_carries_its_role_reviewer_unless_said(tmp_path, monkeypatch):
    root = _job(tmp_path)
    made = {role: _cli(monkeypatch, root, "annotation", "token", "create", f"{role or 'rev'}-1",
                       *(("--role", role) if role else ()))
            for role in ("", "operator", "lead")}
    assert all(r.returncode == 0 for r in made.values()), [r.stderr for r in made.values()]
    assert "reviewer token for rev-1" in made[""].stderr
    assert "lead token" in made["lead"].stderr
    bad = _cli(monkeypatch, root, "annotation", "token", "create", "eve", "--role", "admin")
    assert bad.returncode == 2 and "--role must be one of reviewer, operator, lead" in bad.stderr

    async def roles() -> dict:
        from rcaloop.annotation.store import Store, database_url  # noqa: PLC0415

        store = Store(database_url(None, root.parent / "data"))
        found = {name: await store.token_identity(made[name_key].stdout.strip())
                 for name, name_key in (("reviewer", ""), ("operator", "operator"), ("lead", "lead"))}
        await store.close()
        return found

    assert asyncio.run(roles()) == {"reviewer": ("rev-1", "reviewer"), "operator": ("operator-1", "operator"),
                                    "lead": ("lead-1", "lead")}


def test_agreement_per_batch_from_the_cli(tmp_path, monkeypatch):
    root = _job(tmp_path)
    doc = json.loads((ROOT / "tests" / "fixtures" / "annotation" / "valid_1234567.json").read_text())

    async def fill() -> str:
        from rcaloop.annotation import core  # noqa: PLC0415
        from rcaloop.contracts import Annotation  # noqa: PLC0415
        from rcaloop.annotation.store import Store, database_url  # noqa: PLC0415
        from tests.integration.annotation.conftest import verdict  # noqa: PLC0415

        store = Store(database_url(None, root.parent / "data"))
        await store.migrate()
        v = verdict(1)
        task = core.review_task_for(v, overlap=2)
        await store.add_verdict(v, task)
        for who, category in (("alice", "credential"), ("bob", "network")):
            await store.save_annotation(
                Annotation.model_validate(dict(doc, root_cause={**doc["root_cause"], "category": category})),
                                        annotator=who, analysis_hash=v.analysis_hash, task_id=task.task_id,
                                        lease_required=False)
        await store.close()
        return v.evaluated_at.date().isoformat()

    day = asyncio.run(fill())
    run = _cli(monkeypatch, root, "annotation", "agreement", "--json")
    assert run.returncode == 0, run.stderr
    [batch] = json.loads(run.stdout)["batches"]
    fields = {f["field"]: f for f in batch["kinds"]["annotation"]}
    assert batch["tasks"] == 1 and fields["root_cause.category"]["observed_agreement"] == 0.0
    table = _cli(monkeypatch, root, "annotation", "agreement")
    assert table.returncode == 0 and "root_cause.category" in table.stdout and "batch" in table.stdout
    assert _cli(monkeypatch, root, "annotation", "agreement", "--batch", "last week").returncode == 2
    assert json.loads(
        _cli(monkeypatch, root, "annotation", "agreement", "--batch", "2001-01-01", "--json").stdout)["batches"] == []
    assert day


def test_upload_validates_first_and_refuses_an_invalid_file(tmp_path, monkeypatch):
    root = _job(tmp_path)
    doc = json.loads((ROOT / "tests" / "fixtures" / "annotation" / "valid_1234567.json").read_text())
    bad = dict(doc, category_correct=False)  # "wrong", yet the agent's category kept
    (root / "1234567" / "annotation.json").write_text(json.dumps(bad))
    run = _cli(monkeypatch, root, "upload", "--job-id", "1234567")
    assert run.returncode == 1 and "ANN105" in run.stderr and "nothing uploaded" in run.stderr
    (root / "1234567" / "annotation.json").write_text("{half written")
    run = _cli(monkeypatch, root, "upload", "--job-id", "1234567")
    assert run.returncode == 1 and "ANN000" in run.stderr
    (root / "1234567" / "annotation.json").write_text(json.dumps(doc))
    run = _cli(monkeypatch, root, "upload", "--job-id", "1234567")
    assert run.returncode == 0 and "annotation.json stays local" in run.stdout


def _split_answers(tmp_path: Path) -> tuple[Path, Path]:
    """The fixture's answers cut after question 2: a session that stops, and the rest."""
    text = ANSWERS.read_text()
    cut = text.index("# 3. Evidence")
    first, rest = tmp_path / "first.txt", tmp_path / "rest.txt"
    first.write_text(text[:cut])
    rest.write_text(text[cut:])
    return first, rest


def test_a_stopped_walkthrough_resumes_from_its_draft(tmp_path):
    root = _job(tmp_path)
    first, rest = _split_answers(tmp_path)
    run = _rcaloop("annotate", "--job-id", "1234567", "--answers", str(first), root=root)
    assert run.returncode == 2 and "answers ended early" in run.stderr and "run again to resume" in run.stderr
    draft = json.loads((root / "1234567" / ".annotation-draft.json").read_text())
    assert sorted(draft["done"]) == ["category", "summary"]
    assert draft["done"]["category"]["category_comment"] == "Confirmed — matches the auth retry pattern."

    run = _rcaloop("annotate", "--job-id", "1234567", "--answers", str(rest), root=root)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "resuming the draft" in run.stdout and "Is the root cause category correct?" not in run.stdout
    written = json.loads((root / "1234567" / "annotation.json").read_text())
    assert written["category_comment"] == "Confirmed — matches the auth retry pattern."
    assert written["difficulty_score"] == 6
    assert not (root / "1234567" / ".annotation-draft.json").exists()


def test_each_answer_is_checked_as_it_is_given(tmp_path):
    root = _job(tmp_path)
    step5_path = root / "1234567" / "step5_summary.json"
    step5 = json.loads(step5_path.read_text())
    step5["root_cause"]["category"] = "auth"  # not a category
    step5["evidence"][1]["json_path"] = "failed_tasks[7].duration"  # does not resolve
    step5_path.write_text(json.dumps(step5))
    _first, rest = _split_answers(tmp_path)
    answers = tmp_path / "answers.txt"
    # 1: the category can't be right, so it is asked for directly; "credential" is then kept.
    # 2: as in the fixture. 3: the broken item 2 is dropped before the rest of the fixture.
    text = rest.read_text().replace("Missing the vault.yml 404 from step4 github_fetches.\n\n",
                                    "Missing the vault.yml 404 from step4 github_fetches.\n2\n", 1)
    answers.write_text("credential\n\ny\nClear and specific.\n\n" + text)
    run = _rcaloop("annotate", "--job-id", "1234567", "--answers", str(answers), root=root)
    out = run.stdout
    assert "is not one of the ten: it cannot be correct" in out
    assert out.index("is not one of the ten") < out.index("2. Summary")  # during question 1, not at the end
    assert "broken:" in out and "item(s) 2 do not trace" in out
    assert out.index("do not trace into the step files") < out.index("4. Difficulty")
    assert run.returncode == 0, out + run.stderr
    written = json.loads((root / "1234567" / "annotation.json").read_text())
    assert written["category_correct"] is False and written["root_cause"]["category"] == "credential"
    assert all(e["json_path"] != "failed_tasks[7].duration" for e in written["evidence"])


def test_an_answer_that_breaks_a_rule_is_asked_again(tmp_path):
    root = _job(tmp_path)
    _first, rest = _split_answers(tmp_path)
    answers = tmp_path / "answers.txt"
    # "not correct" but the agent's own category again (ANN105), then the right answer
    answers.write_text("n\ncredential\n\ny\n\ny\nClear and specific.\n\n" + rest.read_text())
    run = _rcaloop("annotate", "--job-id", "1234567", "--answers", str(answers), root=root)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "ANN105" in run.stdout and run.stdout.count("Is the root cause category correct?") == 2
    assert json.loads((root / "1234567" / "annotation.json").read_text())["category_correct"] is True


def test_annotate_reads_a_streamed_result_from_the_store(tmp_path):
    """No job directory, no jumpbox: the files kept with the ingested result are used."""
    import asyncio

    from rcaloop.annotation.artifacts import artifacts_of
    from rcaloop.annotation.store import Store, database_url
    from rcaloop.contracts import IngestedRecord

    content = {p.name: json.loads(p.read_text()) for p in (ROOT / "examples" / "jobs" / "1234567").glob("*.json")}
    record = IngestedRecord(result_id="job-1234567", kind="step_files", job_id="1234567", content=content,
                            analysis_hash="a" * 64)

    async def keep():
        store = Store(database_url(None, tmp_path / "data"))
        await store.migrate()
        await store.add_artifacts(record.analysis_hash, record.job_id, artifacts_of(record))
        await store.close()

    asyncio.run(keep())
    root = tmp_path / ".analysis"
    run = _rcaloop("annotate", "--job-id", "1234567", "--answers", str(ANSWERS), root=root)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "from the annotation store" in run.stdout
    assert json.loads((root / "1234567" / "step1_job_context.json").read_text()) == content["step1_job_context.json"]
    assert (root / "1234567" / "annotation.json").is_file()
    run = _rcaloop("annotate", "--job-id", "7654321", "--answers", str(ANSWERS), root=root)
    assert run.returncode == 2 and "holds no result of job 7654321" in run.stderr
