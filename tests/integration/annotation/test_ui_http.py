"""The web UI's HTTP edge without a browser: sign-in, security headers, the script-call guard,
local assets only (also for /docs)."""

from __future__ import annotations

import re

import httpx
import pytest

from rcaloop.annotation import core, ui
from rcaloop.annotation.auth import Annotators
from rcaloop.annotation.settings import AnnotationSettings
from rcaloop.annotation.submission import ApiState
from rcaloop.shared.service import Service, http_app
from tests.integration.annotation.conftest import TOKENS, verdict


@pytest.fixture
async def site(store, analysis_root):
    state = ApiState(
        settings=AnnotationSettings(rcaloop_analysis_root=analysis_root, review_lease_s=60),
        annotators=Annotators.parse(",".join(f"{k}:{v}" for k, v in TOKENS.items())),
        store=store,
    )
    app = http_app([Service(name="annotation", subscriptions=[], http_router=ui.build_router(state),
                            http_browser_paths=["/ui"])])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://test",
                                 headers={"Origin": "http://test"}) as client:
        yield client


async def _signed_in(site, who="alice"):
    resp = await site.post("/ui/login", content=f"token={TOKENS[who]}",
                           headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert resp.status_code == 303 and resp.headers["location"] == "/ui/"
    cookie = resp.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    return resp.cookies


async def test_pages_need_a_signed_in_reviewer(site):
    assert (await site.get("/")).headers["location"] == "/ui/"
    assert (await site.get("/ui/")).headers["location"] == "/ui/login"
    refused = await site.post("/ui/login", content="token=nope",
                              headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert refused.status_code == 401 and "names no annotator" in refused.text and "nope" not in refused.text
    login = await site.get("/ui/login")
    assert "rcaloop annotation token create" in login.text  # how to get a token, on the page


async def test_pages_carry_a_strict_policy_and_load_nothing_from_elsewhere(site, store):
    v = verdict(1)
    task = core.review_task_for(v)
    await store.add_verdict(v, task)
    site.cookies = await _signed_in(site)
    for url in ("/ui/", f"/ui/tasks/{task.task_id}"):
        page = await site.get(url)
        assert page.status_code == 200, page.text[:500]
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert not re.search(r'(src|href)="(https?:)?//', page.text)  # every asset from this server
    assert (await site.get("/ui/static/htmx.min.js")).status_code == 200
    assert (await site.get("/ui/static/..%2Fui.py")).status_code == 404


async def test_script_calls_need_the_ui_header_and_a_session(site, store):
    v = verdict(2)
    task = core.review_task_for(v)
    await store.add_verdict(v, task)
    url = f"/ui/tasks/{task.task_id}/draft"
    assert (await site.put(url, json={"a": 1}, headers={"X-Rcaloop-UI": "1"})).status_code == 401
    site.cookies = await _signed_in(site)
    assert (await site.put(url, json={"a": 1})).status_code == 403  # a form on another site can't add the header
    assert (await site.put(url, json={"a": 1}, headers={"X-Rcaloop-UI": "1"})).status_code == 204
    assert await store.draft(task.task_id, "alice") == {"a": 1}
    assert (await site.put(url, content=b"[1", headers={"X-Rcaloop-UI": "1"})).status_code == 400


async def test_api_docs_are_served_without_a_cdn(site):
    docs = await site.get("/docs")
    assert docs.status_code == 200 and "/docs/assets/swagger-ui-bundle.js" in docs.text
    assert not re.search(r"https?://", docs.text)
    bundle = await site.get("/docs/assets/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and len(bundle.content) > 100_000
    assert (await site.get("/docs/assets/nope.js")).status_code == 404


async def test_red_flags_show_type_and_place_first(site, store):
    from rcaloop.contracts.parsed import RedFlag

    v = verdict(3)
    v.parsed.red_flags = [
        RedFlag(code="RCA701", type="aws-access-key", where="step1_job_context.json:failed_tasks[0].error", line=2,
                source="detected")
    ]
    task = core.review_task_for(v)
    await store.add_verdict(v, task)
    site.cookies = await _signed_in(site)
    page = (await site.get(f"/ui/tasks/{task.task_id}")).text
    banner = page.index('id="red-flag-banner"')
    assert banner < page.index('id="diagnosis"')
    assert "aws-access-key · step1_job_context.json:failed_tasks[0].error:2" in page
    assert "⚑ 1" in (await site.get("/ui/?red_flags=yes")).text
