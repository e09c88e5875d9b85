"""A reviewer's work in the browser, each part once broken: the root-cause confidence they pick is
the one stored, question 5 gives one editable alternative row (an empty one never blocks a
submission), the lease indicator tells the truth (extended in a background tab, failing with the
server's reason, lost), "Submit and next", the queue's text search, ``rcaloop annotate`` after a
review in the UI, and one verdict for a sample whether ``rcaloop demo`` or ``rcaloop up`` judged it.

``rcaloop up`` as a process on real Redis, headless Chromium (see test_review_ui.py). Every wait is
for a condition, with generous bounds.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis as redis_lib

from rcaloop.contracts import Stream
from tests.conftest import delete_prefixed
from tests.e2e.annotation.test_review_ui import (
    ROOT,
    WAIT_MS,
    Pipeline,
    _annotations,
    _page,
    _publish,
    _ready,
    _row,
    _sign_in,
    _signed_in,
)

ANSWERS = ROOT / "tests" / "fixtures" / "annotation" / "answers_1234567.txt"


def _claim(page, base: str, job: str) -> str:
    row = _row(page, base, job)
    task_id = row.get_attribute("data-task")
    row.locator("button", has_text="Claim").click()
    _ready(page, "#review")
    return task_id


def _answer_all(page) -> None:
    """Questions 1–5: category and summary right, no evidence problem, difficulty appropriate, no
    alternative to add."""
    for q, value in (("q1", "yes"), ("q2", "yes"), ("q3", "no"), ("q4", "yes"), ("q5", "no")):
        page.locator(f"#{q} .yesno button[data-value={value}]").click()


def _stored(pipeline: Pipeline, job: str) -> dict:
    deadline = time.monotonic() + 60
    while not (records := [r for r in _annotations(pipeline) if r["annotation"] and r["annotation"]["job_id"] == job]):
        assert time.monotonic() < deadline, f"no annotation of job {job} on review.annotations"
        time.sleep(0.5)
    return records[-1]["annotation"]


def _submitted(page) -> None:
    page.wait_for_selector("#submit-status:has-text('Submitted and stored'), #errors:not([hidden])")
    assert "Submitted and stored" in page.locator("#submit-status").inner_text(), (
        page.locator("#review .field-error").all_inner_texts())


def test_the_root_cause_confidence_the_reviewer_picks_is_stored(pipeline, browser):
    job = "881001"
    _publish(pipeline, job)  # the agent says "high"
    page = _signed_in(browser, pipeline.base, "alice")
    _claim(page, pipeline.base, job)
    assert page.locator("#confidence").evaluate("n => n.tagName") == "SELECT"
    page.select_option("#confidence", "medium")
    _answer_all(page)
    page.keyboard.press("Control+Enter")
    _submitted(page)
    assert _stored(pipeline, job)["root_cause"]["confidence"] == "medium"
    assert page.errors == []


def test_yes_to_question_5_gives_one_alternative_row_and_an_empty_row_never_blocks(pipeline, browser):
    job = "881002"
    _publish(pipeline, job)  # the agent considered one alternative
    page = _signed_in(browser, pipeline.base, "alice")
    _claim(page, pipeline.base, job)
    rows = page.locator("#alternatives .alternative")
    assert rows.count() == 1
    page.locator("#q5 .yesno button[data-value=yes]").click()
    assert rows.count() == 2
    assert page.locator("#q5 .yesno button[data-value=yes]").get_attribute("aria-pressed") == "true"
    page.click("#add-alternative")  # the empty row waits: no second one
    assert rows.count() == 2
    assert page.evaluate("document.activeElement.closest('.alternative') !== null")
    # left empty, it is left out of the submission — and the reviewer is told so
    for q, value in (("q1", "yes"), ("q2", "yes"), ("q3", "no"), ("q4", "yes")):
        page.locator(f"#{q} .yesno button[data-value={value}]").click()
    page.click("#submit")
    _submitted(page)
    assert "empty alternative row was left out" in page.locator("#submit-status").inner_text()
    assert len(_stored(pipeline, job)["alternative_diagnoses"]) == 1
    assert page.errors == []


def test_a_filled_alternative_is_submitted_and_no_takes_the_empty_row_away(pipeline, browser):
    job = "881003"
    _publish(pipeline, job)
    page = _signed_in(browser, pipeline.base, "alice")
    _claim(page, pipeline.base, job)
    rows = page.locator("#alternatives .alternative")
    page.locator("#q5 .yesno button[data-value=yes]").click()
    page.locator("#q5 .yesno button[data-value=no]").click()
    assert rows.count() == 1
    page.keyboard.press("Escape")
    page.locator("#q5").click(position={"x": 5, "y": 5})
    page.keyboard.press("a")
    assert rows.count() == 2
    new = rows.nth(1)
    new.locator("select[aria-label=category]").select_option("configuration")
    new.locator("select[aria-label=plausibility]").select_option("medium")
    new.locator("textarea").nth(0).fill("The inventory lacks the secret_id override.")
    new.locator("textarea").nth(1).fill("The audit log names an expired secret_id.")
    for q, value in (("q1", "yes"), ("q2", "yes"), ("q3", "no"), ("q4", "yes")):
        page.locator(f"#{q} .yesno button[data-value={value}]").click()
    page.click("#submit")
    _submitted(page)
    alternatives = _stored(pipeline, job)["alternative_diagnoses"]
    assert [a["category"] for a in alternatives][-1] == "configuration" and len(alternatives) == 2


# -- the lease indicator -------------------------------------------------------------------------
LEASE_S = 15  # extended every 5 s: a lost extension shows within seconds


@pytest.fixture(scope="module")
def short_leases(redis_url, tmp_path_factory, browser):
    p = Pipeline(redis_url, tmp_path_factory.mktemp("short-leases"), REVIEW_LEASE_S=str(LEASE_S))
    yield p
    p.stop()


HIDDEN_TAB = """
Object.defineProperty(Document.prototype, "hidden", {configurable: true, get: () => !!window.__hidden});
Object.defineProperty(Document.prototype, "visibilityState", {configurable: true,
  get: () => window.__hidden ? "hidden" : "visible"});
"""


def test_the_lease_is_kept_while_the_tab_is_hidden(short_leases, browser):
    job = "881101"
    _publish(short_leases, job)
    alice = _page(browser, "alice")
    alice.context.add_init_script(HIDDEN_TAB)
    _sign_in(alice, short_leases.base, "alice")
    _claim(alice, short_leases.base, job)
    alice.evaluate("window.__hidden = true; document.dispatchEvent(new Event('visibilitychange'))")
    extended = []
    alice.on("response", lambda r: extended.append(r.status) if r.url.endswith("/extend") else None)
    deadline = time.monotonic() + 3 * LEASE_S  # three lease lengths in the background
    while time.monotonic() < deadline:
        alice.wait_for_timeout(1000)
    assert extended and set(extended) == {200}, extended
    assert alice.locator("#lease").get_attribute("data-status") == "leased"
    bob = _signed_in(browser, short_leases.base, "bob")
    row = _row(bob, short_leases.base, job)
    assert row.locator("button", has_text="Claim").count() == 0 and "full" in row.inner_text()


def test_a_lease_released_elsewhere_shows_as_lost_with_the_reason(short_leases, browser):
    job = "881102"
    _publish(short_leases, job)
    alice = _signed_in(browser, short_leases.base, "alice")
    task_id = _claim(alice, short_leases.base, job)
    assert alice.locator("#lease-badge").inner_text() == "leased to you"
    assert alice.locator("#claim-this").is_hidden()
    # another tab of the same reviewer leaves the task
    alice.request.post(f"{short_leases.base}/ui/tasks/{task_id}/release", headers={"Origin": short_leases.base})
    alice.wait_for_selector("#lease[data-status=lost]", timeout=4 * LEASE_S * 1000)
    assert alice.locator("#lease-badge").inner_text() == "lease lost"
    assert "holds no active lease" in alice.locator("#lease").inner_text()
    assert alice.locator("#lease-until").is_hidden()  # no time already past shown as the lease's end
    assert alice.locator("#lease-lost").is_visible() and alice.locator("#claim-this").is_visible()
    alice.click("#claim-this")  # claiming again comes back to the task, leased
    alice.wait_for_selector("#lease[data-status=leased]")


def test_failing_extensions_show_the_reason_then_the_expiry(short_leases, browser):
    job = "881103"
    _publish(short_leases, job)
    alice = _signed_in(browser, short_leases.base, "alice")
    _claim(alice, short_leases.base, job)
    # the session ends in another tab: every extension now fails with 401
    alice.request.post(f"{short_leases.base}/ui/logout", headers={"Origin": short_leases.base}, max_redirects=0)
    alice.wait_for_selector("#lease[data-status=failing], #lease[data-status=lost]", timeout=4 * LEASE_S * 1000)
    text = alice.locator("#lease").inner_text()
    if alice.locator("#lease").get_attribute("data-status") == "failing":
        assert "extension failing" in text and "sign in again (401)" in text, text
    alice.wait_for_selector("#lease[data-status=lost]", timeout=4 * LEASE_S * 1000)
    text = alice.locator("#lease").inner_text()
    assert "expired at" in text and "lease lost" in text, text
    assert alice.errors == []


# -- submit and next -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def own_queue(redis_url, tmp_path_factory, browser):
    """A pipeline whose queue holds only this module's tasks of one test."""
    p = Pipeline(redis_url, tmp_path_factory.mktemp("own-queue"))
    yield p
    p.stop()


def test_submit_and_next_opens_the_next_task_then_says_none_is_left(own_queue, browser):
    first, second = "881201", "881202"
    _publish(own_queue, first)
    _publish(own_queue, second)
    page = _signed_in(browser, own_queue.base, "alice")
    _row(page, own_queue.base, second)  # both tasks are in the queue
    task_id = _claim(page, own_queue.base, first)
    _answer_all(page)
    page.click("#submit-next")
    page.wait_for_url(lambda url: "/ui/tasks/" in url and task_id not in url)
    _ready(page, "#review")
    assert second in page.locator(".crumbs").inner_text()
    assert page.locator("#lease").get_attribute("data-status") == "leased"
    _answer_all(page)
    page.keyboard.press("Control+Shift+Enter")
    page.wait_for_selector(".note:has-text('Nothing left to review')")
    assert page.url.rstrip("/").endswith("/ui") or "/ui/?" in page.url
    assert _stored(own_queue, first) and _stored(own_queue, second)  # both published (the outbox drains soon)
    assert page.errors == []


def test_the_queue_search_finds_text_in_job_ids_titles_and_result_ids(pipeline, browser):
    job = "8813057"
    _publish(pipeline, job)
    page = _signed_in(browser, pipeline.base, "alice")
    row = _row(page, pipeline.base, job)
    title = row.locator("td").nth(3).inner_text()
    for text in ("81305", title[3:15].upper(), f"JOB-{job}"[:9]):
        page.goto(pipeline.base + "/ui/?q=" + urllib_quote(text))
        assert page.locator("tr.task-row", has_text=job).count() == 1, text
    page.goto(pipeline.base + "/ui/")
    page.fill("#filters input[name=q]", "8813057")
    page.press("#filters input[name=q]", "Enter")
    # waited for from here, not by a function run in the page (its CSP forbids evaluating a string
    # there, which Playwright's wait_for_function does once its first try comes too early)
    from playwright.sync_api import expect  # noqa: PLC0415

    page.wait_for_url(re.compile(rf"[?&]q={job}(&|$)"))
    rows = page.locator("#rows tr.task-row")
    expect(rows.filter(has_not_text=job)).to_have_count(0, timeout=WAIT_MS)
    expect(rows.filter(has_text=job)).to_have_count(1, timeout=WAIT_MS)
    page.goto(pipeline.base + "/ui/?q=" + urllib_quote("no such text 50%_"))
    assert page.locator("tr.task-row").count() == 0


def urllib_quote(text: str) -> str:
    from urllib.parse import quote  # noqa: PLC0415

    return quote(text)


# -- the terminal walkthrough after a review in the UI ---------------------------------------------
def test_rcaloop_annotate_still_reads_the_job_after_a_review_in_the_ui(pipeline, browser):
    job = "881401"
    _publish(pipeline, job)
    page = _signed_in(browser, pipeline.base, "alice")
    _claim(page, pipeline.base, job)
    _answer_all(page)
    page.keyboard.press("Control+Enter")
    _submitted(page)
    job_dir = Path(pipeline.env["RCALOOP_ANALYSIS_ROOT"]) / job
    deadline = time.monotonic() + 60
    while not (job_dir / "annotation.json").is_file():  # the UI wrote the job directory
        assert time.monotonic() < deadline, "the UI's annotation.json was never written"
        time.sleep(0.5)
    assert not list(job_dir.glob("step*.json"))
    exe = str(Path(sys.executable).parent / "rcaloop")
    done = subprocess.run([exe, "annotate", "--job-id", job, "--answers", str(ANSWERS)], env=pipeline.env,
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "from the annotation store" in done.stdout
    assert (job_dir / "step5_summary.json").is_file()
    assert json.loads((job_dir / "annotation.json").read_text())["job_id"] == job


# -- one sample, one verdict ------------------------------------------------------------------------
def _demo_verdict(redis_url: str, tmp: Path, result_id: str) -> tuple[str, float]:
    prefix = f"demo-{uuid.uuid4().hex[:10]}:"
    env = {k: v for k, v in os.environ.items()
           if k not in ("JUMPBOX_URI", "DATABASE_URL", "RCALOOP_REGISTRY", "RCALOOP_DB_SCHEMA")}
    env.update(REDIS_URL=redis_url, RCALOOP_STREAM_PREFIX=prefix, RCALOOP_DATA_DIR=str(tmp / "data"),
               RCALOOP_ANALYSIS_ROOT=str(tmp / "analysis"))
    try:
        done = subprocess.run([str(Path(sys.executable).parent / "rcaloop"), "demo"], env=env, capture_output=True,
                              text=True, timeout=600, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        client = redis_lib.Redis.from_url(redis_url)
        try:
            entries = client.xrange(Stream.EVALUATED.key(prefix))
        finally:
            client.close()
    finally:
        delete_prefixed(redis_url, prefix)
    verdicts = [json.loads(fields[b"payload"]) for _id, fields in entries]
    mine = [v for v in verdicts if v.get("result_id") == result_id]
    assert mine, [v.get("result_id") for v in verdicts]
    return mine[-1]["verdict"], mine[-1]["score"]


def test_a_sample_gets_the_same_verdict_from_demo_and_from_up(pipeline, browser, redis_url, tmp_path):
    sample = ROOT / "examples" / "skill_outputs" / "checkout-5xx.txt"
    verdict, score = _demo_verdict(redis_url, tmp_path, "checkout-5xx")
    exe = str(Path(sys.executable).parent / "rcaloop")
    done = subprocess.run([exe, "submit", str(sample)], env=pipeline.env, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    page = _signed_in(browser, pipeline.base, "alice")
    row = _row(page, pipeline.base, "checkout-5xx")
    assert row.locator("span[class*='v-']").inner_text() == verdict
    assert row.locator("td.num").first.inner_text() == f"{score:.0f}"
