"""The lead's cockpit in a real browser, against the annotation service run as a process on real
Redis and PostgreSQL (a schema of its own): a lead adjudicates a disputed task and the store holds
the decision; a reviewer gets 403; every number on every chart page equals the lead API's; the
export downloads; every id on every lead page is unique (test_lead_pages.py checks each page for
accessibility and a phone's width).

Headless Chromium (Debian's ``/usr/bin/chromium``) driven by Playwright. With
``RCALOOP_SCREENSHOTS=1`` set, each page is also saved as docs/images/lead-<page>.png (the whole
page at 1440 px): how those images are made.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import urllib.request
import uuid
from pathlib import Path

import pytest

from rcaloop.annotation import export, reports
from rcaloop.annotation.auth import Annotators
from rcaloop.annotation.settings import AnnotationSettings
from rcaloop.annotation.store import Store
from rcaloop.annotation.submission import ApiState
from tests.e2e.annotation.page_checks import DESKTOP, IMAGES, duplicate_ids
from tests.e2e.annotation import test_review_ui as review_ui
from tests.e2e.annotation.test_review_ui import _free_port, _stop, _wait_http
from tests.helpers.deployment import run_sql
from tests.helpers.lead_seed import JOB_DIR, seed

TOKENS = {name: f"tok-{name}-{uuid.uuid4().hex[:20]}" for name in ("alice", "bob", "olga", "lena")}
PAGES = {
    "home": "/ui/lead",
    "adjudications": "/ui/lead/adjudications",
    "agreement": "/ui/lead/agreement",
    "harness": "/ui/lead/charts/harness",
    "throughput": "/ui/lead/charts/throughput",
    "calibration": "/ui/lead/charts/calibration",
    "export": "/ui/lead/export",
}


class LeadService:
    """``python -m rcaloop.annotation`` with its HTTP port, on a PostgreSQL schema of its own."""

    def __init__(self, redis_url: str, pg_url: str, tmp: Path):
        self.tmp, self.pg_url = tmp, pg_url
        self.schema = f"lead_{uuid.uuid4().hex[:12]}"
        asyncio.run(run_sql(pg_url, f'CREATE SCHEMA "{self.schema}"'))
        self.analysis = tmp / "analysis"
        shutil.copytree(JOB_DIR, self.analysis / "1234567")
        self.ids = asyncio.run(self._seed())
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.prefix = f"lead-{uuid.uuid4().hex[:10]}:"
        env = {k: v for k, v in os.environ.items() if k not in ("JUMPBOX_URI",)}
        env.update(
            REDIS_URL=redis_url, RCALOOP_STREAM_PREFIX=self.prefix, RCALOOP_DATA_DIR=str(tmp / "data"),
            RCALOOP_ANALYSIS_ROOT=str(self.analysis), DATABASE_URL=pg_url, RCALOOP_DB_SCHEMA=self.schema,
            RCALOOP_ANNOTATOR_TOKENS=",".join(f"{k}:{TOKENS[k]}" for k in ("alice", "bob")),
            RCALOOP_OPERATOR_TOKENS=f"olga:{TOKENS['olga']}", RCALOOP_LEAD_TOKENS=f"lena:{TOKENS['lena']}",
            HTTP_PORT=str(self.port), METRICS_PORT="0", LOG_LEVEL="WARNING",
        )
        self.log = (tmp / "service.log").open("w")
        self.proc = subprocess.Popen([sys.executable, "-m", "rcaloop.annotation"], env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT)
        _wait_http(self.proc, self.base, tmp / "service.log", "the annotation service")

    def store(self) -> Store:
        return Store(self.pg_url, schema=self.schema)

    async def _seed(self) -> dict[str, str]:
        store = self.store()
        await store.migrate()
        state = ApiState(settings=AnnotationSettings(rcaloop_analysis_root=self.analysis),
                         annotators=Annotators.parse(None), store=store)
        try:
            return await seed(state, store)
        finally:
            await store.close()

    def api(self, path: str, who: str = "lena") -> object:
        request = urllib.request.Request(self.base + path, headers={"Authorization": f"Bearer {TOKENS[who]}"})
        with urllib.request.urlopen(request, timeout=30) as resp:
            return json.loads(resp.read())

    def run(self, work):
        async def go():
            store = self.store()
            try:
                return await work(store)
            finally:
                await store.close()
        with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread
            return pool.submit(asyncio.run, go()).result()

    def stop(self) -> None:
        _stop(self.proc, self.log)
        asyncio.run(run_sql(self.pg_url, f'DROP SCHEMA "{self.schema}" CASCADE'))


def _signed_in(browser, lead_service: LeadService, who: str, width: int = DESKTOP):
    return review_ui._signed_in(browser, lead_service.base, who, TOKENS, width=width, height=900,
                                accept_downloads=True)


def _shot(page, name: str) -> None:
    if os.environ.get("RCALOOP_SCREENSHOTS") == "1":
        page.screenshot(path=str(IMAGES / f"lead-{name}.png"), full_page=True)


def _unique_ids(page) -> None:
    assert duplicate_ids(page) == []


def test_a_reviewer_gets_403_on_every_lead_page(lead_service, browser):
    page = _signed_in(browser, lead_service, "alice")
    assert page.locator("#nav-lead").count() == 0
    for path in (*PAGES.values(), f"/ui/lead/adjudications/{lead_service.ids['disputed']}"):
        response = page.goto(lead_service.base + path)
        assert response.status == 403, path
        assert json.loads(response.text())["error"]["code"] == "lead_required", path
    page.context.close()


def test_a_lead_adjudicates_a_disputed_task_in_the_browser(lead_service, browser):
    task_id = lead_service.ids["disputed"]
    page = _signed_in(browser, lead_service, "lena")
    page.click("#nav-lead")
    page.wait_for_selector("#lead-home")
    assert page.locator("#count-disputed").inner_text() == "1"
    _unique_ids(page)
    _shot(page, "home")
    page.click("#tile-disputed")
    row = page.locator(f'tr.adjudication-row[data-task="{task_id}"]')
    assert row.locator(".badge.differs").count() == 2
    _unique_ids(page)
    _shot(page, "adjudications")
    row.locator("a", has_text="Adjudicate").click()
    page.wait_for_selector("#compare")
    # side by side, the differences marked in words as well as by colour
    category = page.locator('#compare tr[data-field="root_cause.category"]')
    assert "differs" in category.get_attribute("class") and category.locator(".badge.differs").count() == 1
    assert category.locator("td").all_inner_texts() == ["credential", "network"]
    assert "differs" not in page.locator('#compare tr[data-field="job_id"]').get_attribute("class")
    assert "Nothing promotes yet" in page.locator("#promotes").inner_text()
    # "Edit from this review" puts bob's review in the written decision
    page.locator(".start-from").nth(1).click()
    assert json.loads(page.locator("#own-review").input_value())["root_cause"]["category"] == "network"
    _unique_ids(page)
    page.wait_for_load_state("load")
    _shot(page, "adjudication")
    page.fill("#comment", "the resolver logs show the network fault")
    page.click("#adopt-bob")
    page.wait_for_selector("#decision-note")
    assert page.locator("#outcome-state").inner_text() == "adjudicated"
    assert "is what reaches" in page.locator("#promotes").inner_text()
    _shot(page, "adjudication-decided")
    assert page.errors == []

    decided = lead_service.run(lambda store: store.task_outcome(task_id))
    assert decided["state"] == "adjudicated" and decided["decided_by"] == "lena"
    assert decided["comment"] == "the resolver logs show the network fault"
    assert decided["decided_review"]["root_cause"]["category"] == "network"
    assert (lead_service.analysis / "1234567" / "annotation.json").exists()
    page.context.close()


@pytest.mark.parametrize("name", ["agreement", "harness", "throughput", "calibration"])
def test_each_chart_page_shows_the_apis_numbers(lead_service, browser, name):
    page = _signed_in(browser, lead_service, "lena")
    page.goto(lead_service.base + PAGES[name])
    page.wait_for_selector("svg.chart")
    cells = page.evaluate("""() => Array.from(document.querySelectorAll('table[data-api] [data-key]')).map(n =>
        [n.closest('table').dataset.api, n.dataset.key, n.dataset.value])""")
    assert len(cells) >= 8
    answers: dict[str, object] = {}
    from rcaloop.shared import jsonpath  # noqa: PLC0415

    for api, key, value in cells:
        answers.setdefault(api, lead_service.api(api))
        resolved = jsonpath.resolve(answers[api], key)
        assert resolved.found and json.loads(value) == resolved.value, (api, key, value)
    assert page.locator("svg.chart title").count() >= 1
    _unique_ids(page)
    _shot(page, name)
    assert page.errors == []
    page.context.close()


def test_a_lead_downloads_the_export(lead_service, browser):
    page = _signed_in(browser, lead_service, "lena")
    page.goto(lead_service.base + PAGES["export"])
    _unique_ids(page)
    _shot(page, "export")
    page.select_option("#export-format", "csv")
    with page.expect_download() as info:
        page.click("#export-download")
    text = Path(info.value.path()).read_text()
    records = lead_service.run(lambda store: reports.export_records(store))
    assert text == export.render(records, "csv")
    assert text.splitlines()[0].split(",") == list(export.COLUMNS)
    page.context.close()
