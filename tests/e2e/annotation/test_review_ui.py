"""The review loop in a real browser: a result published with plain ``redis-cli XADD`` becomes a
task in the web UI, a reviewer annotates it (evidence cited by clicking a JSON value), and the
stored annotation is valid and reaches ``review.annotations``.

Headless Chromium (Debian's ``/usr/bin/chromium``) driven by Playwright, against ``rcaloop up``
run as a process on real Redis. Skips only when no browser is installed outside CI; in CI
(``CI=true``) a missing browser fails. Every wait is for a condition, with generous bounds.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path
from typing import IO

import pytest
import redis as redis_lib

from rcaloop.annotation import files as annotation_files
from rcaloop.annotation.validation import validate
from rcaloop.contracts import Stream
from tests.conftest import delete_prefixed

ROOT = Path(__file__).resolve().parents[3]
JOB_DIR = ROOT / "examples" / "jobs" / "1234567"
CHROMIUM = os.environ.get("RCALOOP_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
TOKENS = {"alice": "tok-alice-" + uuid.uuid4().hex[:20], "bob": "tok-bob-" + uuid.uuid4().hex[:20]}
WAIT_MS = 60_000


def _need_browser():
    """Playwright and Chromium, or a skip outside CI (a failure in CI: .ci/run installs both)."""
    problem = None
    try:
        from playwright.sync_api import sync_playwright  # noqa: F401
    except ImportError:
        problem = "the playwright Python package is not installed (pip install playwright)"
    if problem is None and not Path(CHROMIUM).exists():
        problem = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if problem:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser test must run in CI: {problem}")
        pytest.skip(problem)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_http(proc: subprocess.Popen, base: str, log: Path, what: str) -> None:
    """Until the UI's sign-in page answers (90 s at most); the end of ``log`` when ``what`` exits first."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"{what} exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(base + "/ui/login", timeout=5) as resp:
                if resp.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"{what} did not answer within 90 s")


def _stop(proc: subprocess.Popen, log: IO[str]) -> None:
    """SIGTERM, SIGKILL after 30 s; then its log is closed."""
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
    log.close()


class Pipeline:
    """``rcaloop up`` as a process: every service plus the review UI, on a private stream prefix."""

    def __init__(self, redis_url: str, tmp: Path, **settings: str):
        self.redis_url, self.tmp = redis_url, tmp
        self.prefix = f"ui-{uuid.uuid4().hex[:10]}:"
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {k: v for k, v in os.environ.items() if k not in ("JUMPBOX_URI", "DATABASE_URL")}
        self.env.update(
            REDIS_URL=redis_url,
            RCALOOP_STREAM_PREFIX=self.prefix,
            RCALOOP_DATA_DIR=str(tmp / "data"),
            RCALOOP_ANALYSIS_ROOT=str(tmp / "analysis"),
            RCALOOP_ANNOTATOR_TOKENS=",".join(f"{k}:{v}" for k, v in TOKENS.items()),
            REVIEW_OVERLAP="1",
            LOG_LEVEL="WARNING",
        )
        self.env.pop("RCALOOP_REGISTRY", None)  # each pipeline judges with rcaloop's own default
        self.env.update(settings)
        self.log = (tmp / "up.log").open("w")
        exe = str(Path(sys.executable).parent / "rcaloop")
        self.proc = subprocess.Popen(
            [exe, "up", "--http-port", str(self.port), "--metrics-port", "0"], env=self.env, stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        _wait_http(self.proc, self.base, self.tmp / "up.log", "rcaloop up")

    def xadd(self, raw: dict) -> None:
        """Publish as an external agent does: plain redis-cli, one ``payload`` field."""
        key = Stream.RESULTS.key(self.prefix)
        subprocess.run(
            ["redis-cli", "-u", self.redis_url, "XADD", key, "*", "payload", json.dumps(raw), "producer", "ci-agent"],
            check=True,
            capture_output=True,
            timeout=30,
        )

    def stop(self) -> None:
        _stop(self.proc, self.log)
        delete_prefixed(self.redis_url, self.prefix)


def _page(browser, who: str, width: int = 1400, height: int = 1000, **options):
    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


def _sign_in(page, base: str, who: str, tokens: dict[str, str] = TOKENS) -> None:
    page.goto(base + "/")
    page.fill("#token", tokens[who])
    page.click("button[type=submit]")
    page.wait_for_selector("#rows")


def _signed_in(browser, base: str, who: str, tokens: dict[str, str] = TOKENS, **page_options):
    """A new browser page, ``who`` signed in with their token from ``tokens``: the queue is open."""
    page = _page(browser, who, **page_options)
    _sign_in(page, base, who, tokens)
    return page


def _ready(page, selector: str) -> None:
    """Until ``selector`` is on the page and its scripts have run (they bind the keys and buttons
    on DOMContentLoaded: a key pressed before is lost)."""
    page.wait_for_selector(selector)
    page.wait_for_load_state("load")


def _step_files(job_id: str, mutate=None) -> dict:
    content = {p.name: json.loads(p.read_text()) for p in sorted(JOB_DIR.glob("step*.json"))}
    for name in ("step1_job_context.json", "step3_correlation.json", "step4_github_fetch_history.json",
                 "step5_summary.json"):
        content[name]["job_id"] = job_id
    for item in content["step5_summary.json"]["evidence"]:
        item["source_file"] = item["source_file"].replace("1234567", job_id)
    if mutate:
        mutate(content)
    return content


def _publish(pipeline: Pipeline, job_id: str, mutate=None) -> None:
    pipeline.xadd(
        {"result_id": f"job-{job_id}", "kind": "step_files", "job_id": job_id, "content": _step_files(job_id, mutate)}
    )


def _row(page, base: str, job_id: str):
    """The queue row of the job, reloading the queue until the task arrives."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        page.goto(base + "/ui/?q=" + job_id)
        row = page.locator("tr.task-row", has_text=job_id)
        if row.count():
            return row.first
        if time.monotonic() > deadline:
            raise AssertionError(f"task of job {job_id} never appeared in the queue")
        page.wait_for_timeout(500)


def _annotations(pipeline: Pipeline) -> list[dict]:
    client = redis_lib.Redis.from_url(pipeline.redis_url)
    try:
        entries = client.xrange(Stream.REVIEW_ANNOTATIONS.key(pipeline.prefix))
    finally:
        client.close()
    return [json.loads(fields[b"payload"]) for _id, fields in entries]


def test_reviewer_annotates_a_streamed_result_in_the_browser(pipeline, browser):
    job = "880001"
    _publish(pipeline, job)
    page = _signed_in(browser, pipeline.base, "alice")
    _row(page, pipeline.base, job).locator("button", has_text="Claim").click()
    _ready(page, "#review")
    assert page.locator("#lease .badge", has_text="leased to you").count() == 1
    # the agent's diagnosis first, then the harness verdict, then the questions
    order = page.evaluate(
        "['diagnosis','harness','review'].map(id => document.getElementById(id).getBoundingClientRect().top)"
    )
    assert order == sorted(order)
    assert page.locator("#agent-evidence .badge", has_text="traces").count() == 3

    # 1–2: keyboard answers
    page.keyboard.press("y")
    page.keyboard.press("j")
    page.keyboard.press("y")
    assert page.locator("#q1 .yesno button.chosen").inner_text().startswith("Yes")
    assert page.locator("#q2 .yesno button.chosen").inner_text().startswith("Yes")
    # 3: cite a value by clicking it in step1's tree; path and value come from the click
    page.locator("#sources .tab", has_text="step1").click()
    page.locator('#src-step1 .val[data-jp="failed_tasks[0].retries"]').click()
    added = page.locator("#evidence-list .evidence").nth(3)
    added.locator("input:not([type=radio])").first.fill("12 retries of the same 403.")
    page.fill("#evidence_feedback", "The retry count shows the 403 was never transient.")
    page.wait_for_selector("#draft-note:has-text('Draft saved')")
    page.wait_for_timeout(600)  # the debounced save of the last keystrokes

    # a reload mid-task keeps the draft
    page.reload()
    page.wait_for_selector("#draft-note:has-text('restored')")
    assert page.locator("#evidence-list .evidence").count() == 4
    assert page.locator("#evidence_feedback").input_value().startswith("The retry count")
    assert page.locator("#q3 .yesno button.chosen").inner_text().startswith("Yes")

    # 4: rubric checkboxes give the live score and label
    page.locator("#q4").click(position={"x": 5, "y": 5})
    for key in ("cross_source_correlation", "generic_error"):
        page.check(f'.criterion[value="{key}"]')
    assert page.locator("#rubric-score").inner_text() == "5/10"
    assert page.locator("#rubric-label").inner_text() == "medium"
    page.keyboard.press("y")
    # 5: no alternatives to add; submit with the keyboard
    page.keyboard.press("j")
    page.keyboard.press("n")
    page.keyboard.press("Control+Enter")
    page.wait_for_selector("#submit-status:has-text('Submitted and stored'), #errors:not([hidden])")
    errors = page.locator("#review .field-error").all_inner_texts()
    assert "Submitted and stored" in page.locator("#submit-status").inner_text(), errors
    assert page.errors == []

    # the stored annotation is valid against the run's own files and reaches review.annotations
    deadline = time.monotonic() + 60
    while not (records := [r for r in _annotations(pipeline) if r["annotation"] and r["annotation"]["job_id"] == job]):
        assert time.monotonic() < deadline, "no annotation on review.annotations"
        time.sleep(0.5)
    doc = records[-1]["annotation"]
    assert records[-1]["annotator"] == "alice"
    cited = [e for e in doc["evidence"] if e["json_path"] == "failed_tasks[0].retries"]
    assert cited == [
        {
            **cited[0],
            "source": "step1",
            "source_file": f".analysis/{job}/step1_job_context.json",
            "exact_value": 12,
            "message": "12 retries of the same 403.",
        }
    ]
    assert doc["difficulty_score"] == 5 and doc["difficulty"] == "medium"
    step_files = _step_files(job)
    assert validate(json.loads(annotation_files.annotation_json(_model(doc))), step_files, job) == []


def _model(doc):
    from rcaloop.contracts import Annotation

    return Annotation.model_validate(doc)


def test_agent_text_renders_inert(pipeline, browser):
    job = "880002"
    attack = ('<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> '
              '[open](javascript:window.__pwned=3)')

    def poison(content):
        step5 = content["step5_summary.json"]
        step5["root_cause"]["summary"] = "Vault login failed. " + attack
        step5["evidence"][0]["message"] = attack
        step5["recommendations"][0]["action"] = "See [the runbook](javascript:alert(1)) <script>alert(1)</script>"

    _publish(pipeline, job, poison)
    page = _signed_in(browser, pipeline.base, "alice")
    _row(page, pipeline.base, job).locator("button", has_text="Claim").click()
    _ready(page, "#review")
    page.locator("#report summary").click()
    assert "<script>window.__pwned = 1</script>" in page.locator("#agent-summary").inner_text()  # shown as text
    assert page.evaluate("window.__pwned") is None
    assert page.locator("a[href^='javascript'], a[href^='JAVASCRIPT'], [onerror]").count() == 0
    assert page.locator("#report .markdown script, #report .markdown img").count() == 0
    scripts = page.evaluate("Array.from(document.scripts).map(s => s.src || s.type)")
    assert all(s == "application/json" or "/ui/static/" in s for s in scripts), scripts
    assert page.errors == []


def test_second_reviewer_cannot_take_a_task_past_its_overlap(pipeline, browser):
    job = "880003"
    _publish(pipeline, job)
    alice = _signed_in(browser, pipeline.base, "alice")
    row = _row(alice, pipeline.base, job)
    task_id = row.get_attribute("data-task")
    row.locator("button", has_text="Claim").click()
    _ready(alice, "#review")

    bob = _signed_in(browser, pipeline.base, "bob")
    bob_row = _row(bob, pipeline.base, job)
    assert bob_row.locator("button", has_text="Claim").count() == 0 and "full" in bob_row.inner_text()
    own = {"Origin": pipeline.base}  # as the UI's own page would send it
    # straight at the route, past the hidden button
    bob.request.post(f"{pipeline.base}/ui/tasks/{task_id}/claim", headers=own)
    bob.goto(f"{pipeline.base}/ui/tasks/{task_id}")
    assert bob.locator("#lease .badge", has_text="not leased to you").count() == 1
    response = bob.request.post(f"{pipeline.base}/ui/tasks/{task_id}/claim", max_redirects=0, headers=own)
    assert response.status == 303 and "overlap" in urllib.request.unquote(response.headers["location"])
    # alice leaves: the task returns to the queue and bob may take it
    alice.click("#leave")
    alice.wait_for_selector(".note:has-text('back in the queue')")
    bob_row = _row(bob, pipeline.base, job)
    bob_row.locator("button", has_text="Claim").click()
    bob.wait_for_selector("#lease .badge:has-text('leased to you')")


def test_incident_view_opens_for_a_capture_without_diagnostics(pipeline, browser):
    capture = json.loads((ROOT / "examples" / "captures" / "kafka-consumer-lag-legacy.json").read_text())
    pipeline.xadd({"result_id": "incident-880004", "kind": "capture", "content": capture})
    page = _signed_in(browser, pipeline.base, "alice")
    _row(page, pipeline.base, "incident-880004").locator("button", has_text="Claim").click()
    _ready(page, "#evaluation-form")
    assert "Not recorded for this run" in page.locator("#harness").inner_text()
    page.select_option("#case_type", "known")
    for item in ("evidence_grounding", "diagnostic_reasoning", "investigation_plan", "uncertainty_calibration",
                 "operational_usefulness", "safety", "tool_efficiency"):
        page.check(f'input[name="score-{item}"][value="3"]')
    page.select_option("#resolution_outcome", "mitigated")
    page.click("#submit")
    page.wait_for_selector(".field-error[data-code='EVL101']")  # beside its field: the action that worked
    assert page.locator("[data-path='action_that_worked'] .field-error").count() == 1
    page.fill("#action_that_worked", "restarted the consumer group")
    page.click("#submit")
    page.wait_for_selector(".evaluation:has-text('alice')")
    assert page.errors == []


class _AttackerSite:
    """A page on another port of the same host that makes the visitor's browser post to the UI."""

    def __init__(self, target: str):
        import http.server  # noqa: PLC0415
        import threading  # noqa: PLC0415

        pages = {
            "/claim.html": f'<form id="f" method="post" action="{target}/ui/claim"></form>'
                           "<script>document.getElementById('f').submit()</script>",
            "/login.html": f'<form id="f" method="post" action="{target}/ui/login">'
                           f'<input name="token" value="{TOKENS["bob"]}"></form>'
                           "<script>document.getElementById('f').submit()</script>",
        }

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the stdlib's name
                body = pages.get(self.path, "").encode()
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()


def test_a_page_on_another_port_cannot_make_a_signed_in_reviewer_claim_or_sign_in(pipeline, browser):
    job = "880009"
    _publish(pipeline, job)
    alice = _signed_in(browser, pipeline.base, "alice")
    _row(alice, pipeline.base, job)  # the task is in the queue
    attacker = _AttackerSite(pipeline.base)
    try:
        with alice.expect_response(lambda r: r.url.endswith("/ui/claim")) as claimed:
            alice.goto(attacker.base + "/claim.html")
        assert claimed.value.status == 403
        row = _row(alice, pipeline.base, job)
        assert row.locator("button", has_text="Claim").count() == 1, "the task was claimed from another site"
        with alice.expect_response(lambda r: r.url.endswith("/ui/login")) as login:
            alice.goto(attacker.base + "/login.html")
        assert login.value.status == 403
        alice.goto(pipeline.base + "/ui/")
        assert "alice" in alice.locator("header").inner_text(), "another site signed the browser in as someone else"
    finally:
        attacker.close()
