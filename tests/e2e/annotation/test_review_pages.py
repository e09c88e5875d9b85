"""Every page the review UI serves, as a browser renders it (its scripts run): element ids are
unique, axe-core finds no serious or critical accessibility violation, and at a phone's 390 px
width no page scrolls sideways (wide tables scroll inside their own box).

The pages: sign-in, queue, a CI job's task page (its evidence views: step1/3/4 trees, the review
questions with an alternative row open), an alert task's page, the incident view, and the
not-found page. ``rcaloop up`` as a process on real Redis, headless Chromium (test_review_ui.py).
"""

from __future__ import annotations

import json
from functools import partial

import pytest

from tests.e2e.annotation.page_checks import (
    DESKTOP,
    IMAGES,
    PHONE,
    accessibility_problems,
    id_problems,
    screenshots,
    width_problems,
)
from tests.e2e.annotation.test_review_ui import (
    ROOT,
    Pipeline,
    _page,
    _publish,
    _ready,
    _row,
    _sign_in,
    _signed_in,
)


@pytest.fixture(scope="module")
def pages(pipeline, browser) -> dict[str, str]:
    """name → address of each page, with a CI task and an alert task leased to alice."""
    job, incident = "882001", "incident-882002"
    _publish(pipeline, job)
    capture = json.loads((ROOT / "examples" / "captures" / "checkout-db-pool.json").read_text())
    pipeline.xadd({"result_id": incident, "kind": "capture", "content": capture})
    page = _signed_in(browser, pipeline.base, "alice")
    out = {"login": pipeline.base + "/ui/login", "queue": pipeline.base + "/ui/"}
    for name, subject in (("task", job), ("alert task", incident)):
        row = _row(page, pipeline.base, subject)
        out[name] = f"{pipeline.base}/ui/tasks/{row.get_attribute('data-task')}"
        row.locator("button", has_text="Claim").click()
        page.wait_for_url(out[name])
    page.goto(out["alert task"])
    _ready(page, "#evaluation-form")
    analysis = json.loads(page.locator("#page-data").text_content())["analysis_hash"]
    out["incident"] = f"{pipeline.base}/ui/incidents/{analysis}"
    out["missing"] = f"{pipeline.base}/ui/tasks/task-0000000000000000"
    page.context.close()
    return out


def _open(browser, pipeline: Pipeline, name: str, url: str, width: int = DESKTOP):
    """The page as alice sees it (the sign-in page signed out), its scripts run; on the task page
    every evidence view is shown in turn and question 5 has an alternative row open."""
    page = _page(browser, "alice", width=width, height=900)
    if name != "login":
        _sign_in(page, pipeline.base, "alice")
    page.goto(url)
    page.wait_for_load_state("load")
    if name == "task":
        _ready(page, "#review")
        page.locator("#q5 .yesno button[data-value=yes]").click()
    return page


def _views(page, name: str):
    """Each state of the page worth checking: the task page once per evidence tab."""
    if name != "task":
        yield name
        return
    for tab in page.locator("#sources .tab").all():
        tab.click()
        yield f"task ({tab.get_attribute('data-tab')})"


def test_every_page_has_unique_element_ids(pipeline, browser, pages):
    assert id_problems(partial(_open, browser, pipeline), _views, pages) == {}


def test_no_page_has_a_serious_or_critical_accessibility_violation(pipeline, browser, pages):
    found = accessibility_problems(partial(_open, browser, pipeline), _views, pages)
    assert found == {}, json.dumps(found, indent=1, ensure_ascii=False)


def test_every_page_fits_a_390_px_wide_screen(pipeline, browser, pages):
    assert width_problems(partial(_open, browser, pipeline), _views, pages) == {}


@screenshots
def test_screenshots_for_the_docs(pipeline, browser, pages):
    """docs/images/review-*.png at desktop (1440 × 900) and, with ``-390``, a phone's width (the
    first screen; the parts whole). Run on demand, then look at each one."""
    shots = [  # (image, page, what to show: None = the top of the page, else an element)
        ("review-queue", "queue", None),
        ("review-task", "task", None),
        ("review-evidence", "task", "#q3"),
        ("review-alternatives", "task", "#q5"),
        ("review-incident", "incident", None),
        ("review-evaluation", "incident", "#evaluation"),
    ]
    for stem, name, part in shots:
        for width, suffix in ((DESKTOP, ""), (PHONE, "-390")):
            page = _open(browser, pipeline, name, pages[name], width=width)
            page.set_viewport_size({"width": width, "height": 900 if width > PHONE else 844})
            if name == "task":
                page.locator("#q2 select#confidence").select_option("medium")
                page.locator("#sources .tab", has_text="step1").click()
                page.locator('#src-step1 .val[data-jp="failed_tasks[0].retries"]').click()
                page.keyboard.press("Escape")
            target = IMAGES / f"{stem}{suffix}.png"
            if part is None:
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(target))
            else:
                page.locator(part).screenshot(path=str(target))
            page.context.close()
            assert target.is_file()
