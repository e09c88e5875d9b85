"""The review UI against an adversary: cross-origin posts, sessions as secrets of their own,
hostile bodies on every route that takes one (both store backends)."""

from __future__ import annotations

import json
from datetime import timedelta

import httpx
import pytest

from rcaloop.annotation import core, ui
from rcaloop.annotation.auth import Annotators
from rcaloop.annotation.settings import AnnotationSettings
from rcaloop.annotation.submission import ApiState
from rcaloop.shared.service import Service, http_app
from tests.integration.annotation.conftest import TOKENS, verdict

FORM = {"Content-Type": "application/x-www-form-urlencoded"}
UI_CALL = {"X-Rcaloop-UI": "1"}
HOSTILE_ORIGINS = {
    "another site": {"Origin": "http://evil.example"},
    "another port of the same host": {"Origin": "http://test:9999"},
    "a sibling subdomain": {"Origin": "http://a.test"},
    "an opaque origin": {"Origin": "null"},
    "no Origin at all": {},
    "a same-site page that forged nothing else": {"Origin": "http://test", "Sec-Fetch-Site": "same-site"},
    "a cross-site fetch": {"Origin": "http://test", "Sec-Fetch-Site": "cross-site"},
}


def _site(store, analysis_root, **settings) -> httpx.AsyncClient:
    state = ApiState(
        settings=AnnotationSettings(rcaloop_analysis_root=analysis_root, review_lease_s=60, **settings),
        annotators=Annotators.parse(",".join(f"{k}:{v}" for k, v in TOKENS.items())),
        store=store,
    )
    app = http_app([Service(name="annotation", http_router=ui.build_router(state), http_browser_paths=["/ui"])],
                   state.settings)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://test")


@pytest.fixture
async def site(store, analysis_root):
    async with _site(store, analysis_root) as client:
        yield client


def _own(extra: dict | None = None) -> dict:
    return {"Origin": "http://test", "Sec-Fetch-Site": "same-origin", **(extra or {})}


async def _sign_in(site, who="alice") -> str:
    resp = await site.post("/ui/login", content=f"token={TOKENS[who]}", headers={**FORM, **_own()})
    assert resp.status_code == 303, resp.text
    return resp.cookies[ui.COOKIE]


async def _task(store, n: int = 1):
    v = verdict(n)
    task = core.review_task_for(v)
    await store.add_verdict(v, task)
    return task


@pytest.mark.parametrize("how", list(HOSTILE_ORIGINS))
async def test_no_change_is_accepted_from_anywhere_but_the_ui_itself(site, store, how):
    task = await _task(store)
    session = await _sign_in(site)
    bad = HOSTILE_ORIGINS[how]
    cookie = {"Cookie": f"{ui.COOKIE}={session}"}

    # login CSRF: another page signing the browser in as someone else
    resp = await site.post("/ui/login", content=f"token={TOKENS['bob']}", headers={**FORM, **bad})
    assert resp.status_code == 403 and resp.json()["error"]["code"] == "cross_origin_request", resp.text
    assert "set-cookie" not in resp.headers
    # claims, release and sign-out from another origin change nothing
    for url in ("/ui/claim", f"/ui/tasks/{task.task_id}/claim", f"/ui/tasks/{task.task_id}/release", "/ui/logout"):
        resp = await site.post(url, content="", headers={**FORM, **bad, **cookie})
        assert resp.status_code == 403 and resp.json()["error"]["code"] == "cross_origin_request", (url, resp.text)
    assert await store.lease_of(task.task_id, "alice") is None
    # script calls too, whatever headers they add
    resp = await site.put(f"/ui/tasks/{task.task_id}/draft", json={"a": 1}, headers={**UI_CALL, **bad, **cookie})
    assert resp.status_code == 403
    assert await store.draft(task.task_id, "alice") is None

    # the same requests from the UI's own pages work, and the session survived the attempts
    assert (await site.post(f"/ui/tasks/{task.task_id}/claim", headers={**FORM, **_own(), **cookie})).status_code == 303
    assert (await store.lease_of(task.task_id, "alice"))["status"] == "leased"
    resp = await site.post(f"/ui/tasks/{task.task_id}/release", headers={**FORM, **_own(), **cookie})
    assert resp.status_code == 303 and "back%20in%20the%20queue" in resp.headers["location"]
    # reading needs no Origin: a link from elsewhere still opens the page
    assert (await site.get("/ui/", headers={**cookie, "Origin": "http://evil.example"})).status_code == 200


async def test_the_public_url_is_the_one_origin_and_makes_cookies_secure(store, analysis_root):
    async with _site(store, analysis_root, http_public_url="https://review.example.com") as site:
        refused = await site.post("/ui/login", content=f"token={TOKENS['alice']}",
                                  headers={**FORM, "Origin": "http://test"})
        assert refused.status_code == 403
        resp = await site.post("/ui/login", content=f"token={TOKENS['alice']}",
                               headers={**FORM, "Origin": "https://review.example.com"})
        assert resp.status_code == 303
        cookie = resp.headers["set-cookie"]
        assert cookie.startswith(f"{ui.SECURE_COOKIE}=") and "Secure" in cookie and "Domain" not in cookie
        assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower() and "Path=/" in cookie
        session = resp.cookies[ui.SECURE_COOKIE]
        page = await site.get("/ui/", headers={"Cookie": f"{ui.SECURE_COOKIE}={session}"})
        assert page.status_code == 200
        # the plain cookie name means nothing here: a sibling subdomain could have set it
        assert (await site.get("/ui/", headers={"Cookie": f"{ui.COOKIE}={session}"})).status_code == 303


async def test_a_session_is_its_own_secret_and_ends_at_sign_out(site, store):
    session = await _sign_in(site)
    assert session != TOKENS["alice"] and TOKENS["alice"] not in session
    cookie = {"Cookie": f"{ui.COOKIE}={session}"}
    assert (await site.get("/ui/", headers=cookie)).status_code == 200
    # the raw token in the cookie opens nothing: the cookie never held it
    assert (await site.get("/ui/", headers={"Cookie": f"{ui.COOKIE}={TOKENS['alice']}"})).status_code == 303
    out = await site.post("/ui/logout", headers={**FORM, **_own(), **cookie})
    assert out.status_code == 303 and ui.COOKIE in out.headers["set-cookie"]
    # a copy of the cookie kept from before sign-out opens nothing any more
    again = await site.get("/ui/", headers=cookie)
    assert again.status_code == 303 and again.headers["location"].startswith("/ui/login")
    task = await _task(store, 2)
    call = await site.put(f"/ui/tasks/{task.task_id}/draft", json={"a": 1}, headers={**UI_CALL, **_own(), **cookie})
    assert call.status_code == 401 and call.json()["error"]["code"] == "unauthorized"


async def test_sessions_end_when_idle_when_old_and_when_their_token_is_revoked(store, analysis_root):
    async with _site(store, analysis_root, review_session_idle_s=600, review_session_max_s=3600) as site:
        idle = await _sign_in(site)
        store.clock.now += 601
        assert (await site.get("/ui/", headers={"Cookie": f"{ui.COOKIE}={idle}"})).status_code == 303

        kept_busy = await _sign_in(site)
        for _ in range(7):  # used every 9 minutes: never idle, but not past the maximum age
            store.clock.now += 540
            status = (await site.get("/ui/", headers={"Cookie": f"{ui.COOKIE}={kept_busy}"})).status_code
        assert status == 303, "a session ends REVIEW_SESSION_MAX_S after sign-in, however busy"

        token = await store.create_token("dora")
        resp = await site.post("/ui/login", content=f"token={token}", headers={**FORM, **_own()})
        stored = resp.cookies[ui.COOKIE]
        assert (await site.get("/ui/", headers={"Cookie": f"{ui.COOKIE}={stored}"})).status_code == 200
        await store.revoke_tokens("dora")
        assert (await site.get("/ui/", headers={"Cookie": f"{ui.COOKIE}={stored}"})).status_code == 303


def _nested(depth: int) -> bytes:
    return b'{"a":' * depth + b"1" + b"}" * depth


HOSTILE_BODIES = {
    "400 KB nested JSON": (_nested(80_000), {"payload_too_deep"}),
    "a number of 5,000 digits": (b'{"a": ' + b"9" * 5000 + b"}", {"number_out_of_range"}),
    "NaN": (b'{"a": NaN}', {"invalid_json"}),
    "invalid UTF-8": (b'{"a": "\xff\xfe"}', {"invalid_json", "invalid_utf8"}),
    "an unpaired surrogate": (b'{"a": "\\ud800"}', {"invalid_text"}),
    "not JSON": (b"[1", {"invalid_json"}),
}


@pytest.mark.parametrize("label", list(HOSTILE_BODIES))
async def test_every_ui_route_with_a_body_answers_hostile_json_with_the_one_error_body(site, store, label):
    task = await _task(store, 3)
    session = await _sign_in(site)
    await site.post(f"/ui/tasks/{task.task_id}/claim", headers={**FORM, **_own(), "Cookie": f"{ui.COOKIE}={session}"})
    body, codes = HOSTILE_BODIES[label]
    values = {"task_id": task.task_id, "analysis_hash": task.analysis_hash}
    every = ui.build_router(ApiState(settings=AnnotationSettings(), annotators=Annotators.parse(None))).routes
    routes = [(m, r.path) for r in every if getattr(r, "path", "").startswith("/ui/")
              for m in getattr(r, "methods", ()) if m in ("POST", "PUT")]
    assert len(routes) >= 8, routes
    for method, path in sorted(routes, key=lambda r: r[1] == "/ui/logout"):  # signing out last
        url = path.format(**values)
        resp = await site.request(method, url, content=body,
                                  headers={**_own(), **UI_CALL, "Content-Type": "application/json",
                                           "Cookie": f"{ui.COOKIE}={session}"})
        assert resp.status_code < 500, (method, path, resp.status_code, resp.text[:300])
        if resp.headers.get("content-type", "").startswith("application/json"):
            data = resp.json()
            assert "error" in data or data.get("valid") is False, (method, path, data)
            if "error" in data and path.endswith(("/draft", "/evaluation", "/annotation")):
                assert data["error"]["code"] in codes, (method, path, data)
        assert "Traceback" not in resp.text and json.dumps(TOKENS["alice"]) not in resp.text


async def test_the_store_lets_go_of_ended_sessions_stale_drafts_and_sent_outbox_rows(site, store):
    import sqlalchemy as sa  # noqa: PLC0415

    from rcaloop.annotation.tables import drafts, outbox, sessions  # noqa: PLC0415
    from rcaloop.contracts.common import utcnow  # noqa: PLC0415

    task = await _task(store, 4)
    live, ended = await _sign_in(site), await store.open_session("bob", "0" * 64, max_s=10)
    await store.save_draft(task.task_id, "alice", {"q1": "yes"})
    await store.save_draft(task.task_id, "bob", {"q1": "no"})
    long_ago = utcnow() - timedelta(days=40)
    async with store.engine.begin() as conn:
        await conn.execute(drafts.update().where(drafts.c.annotator == "bob").values(updated_at=long_ago))
        await conn.execute(outbox.insert().values(record_key="sent", stream="s", payload="{}", created_at=long_ago,
                                                  published_at=long_ago))
        await conn.execute(outbox.insert().values(record_key="unsent", stream="s", payload="{}", created_at=long_ago))
    store.clock.now += 11
    done = await store.purge(drafts_older_than_s=30 * 86400, outbox_older_than_s=7 * 86400)
    assert done == {"sessions": 1, "drafts": 1, "outbox": 1}
    async with store.engine.connect() as conn:
        assert (await conn.execute(sa.select(sa.func.count()).select_from(sessions))).scalar() == 1
        assert set(await conn.scalars(sa.select(outbox.c.record_key))) == {"unsent"}, "unpublished rows stay"
    assert await store.draft(task.task_id, "alice") == {"q1": "yes"} and await store.draft(task.task_id, "bob") is None
    assert (await site.get("/ui/", headers={"Cookie": f"{ui.COOKIE}={live}"})).status_code == 200
    assert ended
