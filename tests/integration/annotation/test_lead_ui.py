"""The lead's cockpit over HTTP, without a browser, on SQLite and PostgreSQL: only a lead's session
opens it (another role gets 403 ``lead_required`` in the one error body), a decision made from the
page is the store's decision, every number on a chart page is the lead API's, and the export
download is the CLI's export."""

from __future__ import annotations

import json
import re
from html import unescape

import httpx
import pytest

from rcaloop.annotation import app as annotation_app
from rcaloop.annotation import export, reports
from rcaloop.annotation.api import guard
from rcaloop.annotation.auth import Annotators
from rcaloop.annotation.settings import AnnotationSettings
from rcaloop.annotation.submission import ApiState
from rcaloop.shared import jsonpath
from rcaloop.shared.service import Service, http_app
from rcaloop.shared.tokens import Tokens
from tests.helpers.lead_seed import VALID, seed
from tests.integration.annotation.conftest import LEADS, OPERATORS, REVIEWERS, TOKENS, auth, tokens

LEAD_PAGES = ("/ui/lead", "/ui/lead/adjudications", "/ui/lead/agreement", "/ui/lead/charts/harness",
              "/ui/lead/charts/throughput", "/ui/lead/charts/calibration", "/ui/lead/export",
              "/ui/lead/export/download")
LEAD_API = ("/api/v1/review/lead/summary", "/api/v1/review/charts/verdicts", "/api/v1/review/charts/failing-rules",
            "/api/v1/review/charts/throughput", "/api/v1/review/charts/calibration",
            "/api/v1/review/agreement/reviewers")
CHART_PAGES = ("/ui/lead/charts/harness", "/ui/lead/charts/throughput", "/ui/lead/charts/calibration",
               "/ui/lead/agreement")
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


@pytest.fixture
async def state(store, analysis_root):
    return ApiState(
        settings=AnnotationSettings(rcaloop_analysis_root=analysis_root, review_lease_s=60),
        annotators=Annotators.parse(tokens(REVIEWERS)), store=store,
        operators=Tokens.parse(tokens(OPERATORS), "RCALOOP_OPERATOR_TOKENS"),
        leads=Tokens.parse(tokens(LEADS), "RCALOOP_LEAD_TOKENS"),
    )


@pytest.fixture
async def site(state):
    """The service's routes exactly as the service mounts them (``app._routes``)."""
    service = Service(name="annotation", subscriptions=[], http_router=annotation_app._routes(state),
                      http_guards=[guard(state)], http_browser_paths=["/ui"])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(http_app([service])), base_url="http://test",
                                 headers={"Origin": "http://test"}) as client:
        yield client


async def _sign_in(site, who: str) -> None:
    site.cookies.clear()
    resp = await site.post("/ui/login", content=f"token={TOKENS[who]}", headers=FORM)
    assert resp.status_code == 303
    site.cookies = resp.cookies


def cells(html: str) -> list[tuple[str, str, str]]:
    """(table's API, data-key, data-value) of every figure cell on a page."""
    out = []
    for table in re.finditer(r'<table[^>]*data-api="([^"]+)"[^>]*>(.*?)</table>', html, re.S):
        for key, value in re.findall(r'data-key="([^"]+)" data-value="([^"]*)"', table.group(2)):
            out.append((table.group(1), unescape(key), unescape(value)))
    return out


async def test_only_a_lead_opens_the_cockpit(site, state):
    await seed(state, state.store)
    for page in LEAD_PAGES:  # signed out: the sign-in page
        resp = await site.get(page)
        assert resp.status_code == 303 and resp.headers["location"] == "/ui/login", page
    for who in ("alice", "olga"):  # a reviewer, an operator
        await _sign_in(site, who)
        for page in LEAD_PAGES:
            resp = await site.get(page)
            assert resp.status_code == 403, (who, page)
            assert resp.json()["error"]["code"] == "lead_required", (who, page)
        queue = await site.get("/ui/")
        assert queue.status_code == 200 and 'id="nav-lead"' not in queue.text
        for route in LEAD_API:
            resp = await site.get(route, headers=auth(who))
            assert resp.status_code == 403 and resp.json()["error"]["code"] == "lead_required", (who, route)
        refused = await site.post("/ui/lead/adjudications/task-x/decision", content="adopt=x", headers=FORM)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "lead_required"
    await _sign_in(site, "lena")
    assert 'id="nav-lead"' in (await site.get("/ui/")).text
    for page in LEAD_PAGES:
        resp = await site.get(page)
        assert resp.status_code == 200, (page, resp.text[:300])
        assert "script-src 'self'" in resp.headers["content-security-policy"]


async def test_the_cockpit_counts_what_the_api_counts(site, state):
    await seed(state, state.store)
    await _sign_in(site, "lena")
    summary = (await site.get("/api/v1/review/lead/summary", headers=auth("lena"))).json()
    assert summary["disputed"] == 1
    assert summary["backlog"] == 3  # two single tasks nobody reviewed, and the disputed one
    home = (await site.get("/ui/lead")).text
    for key in ("disputed", "backlog", "decided", "reviews", "verdicts"):
        assert re.search(rf'id="count-{key}">{summary[key]}<', home), key


async def test_a_lead_adopts_a_review_from_the_page_and_the_store_decides(site, state):
    ids = await seed(state, state.store)
    task_id = ids["disputed"]
    await _sign_in(site, "lena")
    listed = await site.get("/ui/lead/adjudications")
    assert f'data-task="{task_id}"' in listed.text and ids["agreed"] not in listed.text
    page = (await site.get(f"/ui/lead/adjudications/{task_id}")).text
    assert 'data-field="root_cause.category"' in page
    differs = re.findall(r'<tr class="differs[^"]*" data-field="([^"]+)"', page)
    assert {"category_correct", "root_cause.category", "category_comment"} <= set(differs)
    assert "≠ differs" in page  # marked in words, not by colour alone
    assert "Nothing promotes yet" in page

    outcome = await state.store.task_outcome(task_id)
    bob = next(r for r in outcome["reviews"] if r["annotator"] == "bob")
    resp = await site.post(f"/ui/lead/adjudications/{task_id}/decision",
                           content=f"adopt={bob['annotation_id']}&comment=resolver+logs", headers=FORM)
    assert resp.status_code == 303, resp.text[:500]
    decided = await state.store.task_outcome(task_id)
    assert decided["state"] == "adjudicated" and decided["decided_by"] == "lena"
    assert decided["comment"] == "resolver logs" and decided["decided_review"]["root_cause"]["category"] == "network"
    after = (await site.get(resp.headers["location"])).text
    assert "is what reaches" in after and "network" in after


async def test_a_written_decision_is_checked_like_a_review(site, state):
    ids = await seed(state, state.store)
    task_id = ids["disputed"]
    await _sign_in(site, "lena")
    broken = json.loads(json.dumps(VALID))
    broken["evidence"][0]["json_path"] = "no.such[9]"
    body = httpx.QueryParams({"review": json.dumps(broken), "comment": ""})
    refused = await site.post(f"/ui/lead/adjudications/{task_id}/decision", content=str(body), headers=FORM)
    assert refused.status_code == 422 and 'id="decision-errors"' in refused.text and "ANN126" in refused.text
    assert (await state.store.task_outcome(task_id))["state"] == "disputed"
    not_json = await site.post(f"/ui/lead/adjudications/{task_id}/decision", content="review=%7Bnope", headers=FORM)
    assert not_json.status_code == 422 and "invalid_json" in not_json.text
    body = httpx.QueryParams({"review": json.dumps(VALID), "comment": "the vault audit log"})
    done = await site.post(f"/ui/lead/adjudications/{task_id}/decision", content=str(body), headers=FORM)
    assert done.status_code == 303
    decided = await state.store.task_outcome(task_id)
    assert decided["state"] == "adjudicated" and decided["decided_review"]["root_cause"]["category"] == "credential"


@pytest.mark.parametrize("page", CHART_PAGES)
async def test_every_number_on_a_chart_page_is_the_apis(site, state, page):
    await seed(state, state.store)
    await _sign_in(site, "lena")
    html = (await site.get(page)).text
    found = cells(html)
    assert len(found) >= 8, page
    answers: dict[str, object] = {}
    for api, key, value in found:
        if api not in answers:
            resp = await site.get(api, headers=auth("lena"))
            assert resp.status_code == 200, resp.text
            answers[api] = resp.json()
        resolved = jsonpath.resolve(answers[api], key)
        assert resolved.found, (api, key)
        assert json.loads(value) == resolved.value, (api, key, value, resolved.value)


async def test_the_charts_tell_series_apart_without_colour(site, state):
    await seed(state, state.store)
    await _sign_in(site, "lena")
    html = (await site.get("/ui/lead/charts/harness")).text
    svg = re.search(r'<svg[^>]*id="chart-verdicts".*?</svg>', html, re.S).group(0)
    assert 'role="img"' in svg and "<title" in svg and "<desc" in svg
    for name in ("pass", "degraded", "insufficient_evidence"):
        assert f">{name}</text>" in svg  # a legend entry beside its pattern
    assert len(set(re.findall(r'fill="url\(#(chart-verdicts-p\d)\)"', svg))) == 3


async def test_the_export_download_is_the_clis_export(site, state):
    await seed(state, state.store)
    await _sign_in(site, "lena")
    records = await reports.export_records(state.store)
    for fmt in ("jsonl", "csv"):
        resp = await site.get("/ui/lead/export/download", params={"format": fmt})
        assert resp.status_code == 200 and "attachment" in resp.headers["content-disposition"]
        assert resp.text == export.render(records, fmt)
    network = await site.get("/ui/lead/export/download", params={"format": "jsonl", "category": "network"})
    assert {json.loads(line)["human_category"] for line in network.text.splitlines()} == {"network"}
    bad = await site.get("/ui/lead/export/download", params={"format": "xml"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_parameter"
