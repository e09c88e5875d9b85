"""The annotation API's edge on both backends (SQLite, PostgreSQL), as an adversary calls it:
evaluations of analyses that do not exist, oversized bodies, bodies sent without a token,
control characters in ids, open documentation."""

from __future__ import annotations

import httpx
import pytest

from rcaloop.annotation import core
from rcaloop.annotation.api import ApiState, build_router, guard
from rcaloop.annotation.auth import Annotators
from rcaloop.annotation.settings import AnnotationSettings
from rcaloop.shared.service import Service, http_app
from rcaloop.shared.tokens import Tokens
from tests.integration.annotation.conftest import OPERATORS, REVIEWERS, TOKENS, auth, tokens, verdict
from tests.integration.annotation.test_api import _form

LIMIT = 64 * 1024


@pytest.fixture
def app(store, analysis_root):
    settings = AnnotationSettings(rcaloop_analysis_root=analysis_root, http_max_body_bytes=LIMIT)
    state = ApiState(settings=settings, annotators=Annotators.parse(tokens(REVIEWERS)), store=store,
                     operators=Tokens.parse(tokens(OPERATORS), "RCALOOP_OPERATOR_TOKENS"))
    return http_app([Service(name="annotation", http_router=build_router(state), http_guards=[guard(state)])], settings)


@pytest.fixture
async def client(app):
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://test") as c:
        yield c


@pytest.mark.parametrize("analysis_hash", ["f" * 64, "../../etc/passwd", "%00"])
async def test_an_evaluation_of_an_analysis_that_does_not_exist_is_refused_and_nothing_is_kept(
    client, store, analysis_hash
):
    resp = await client.post("/api/v1/evaluations", json=_form(analysis_hash=analysis_hash), headers=auth("olga"))
    if analysis_hash == "f" * 64:  # an id, of no stored analysis
        assert resp.status_code == 404, resp.text
        assert resp.json()["error"]["code"] == "analysis_not_found"
    else:  # not an id at all: the contract's one id type refuses it, as a finding at its path
        assert resp.status_code == 422, resp.text
        assert [(e["code"], e["path"]) for e in resp.json()["errors"]] == [("EVL001", "analysis_hash")]
    assert await store.pending_outbox() == [], "nothing is published for it"
    assert await store.evaluations_for(analysis_hash) == []


async def test_an_evaluation_of_a_stored_analysis_is_still_accepted(client, store):
    v = verdict(1, job_id=None, kind="capture", result_id="INC-1")
    await store.add_verdict(v, core.review_task_for(v))
    resp = await client.post("/api/v1/evaluations", json=_form(analysis_hash=v.analysis_hash), headers=auth("olga"))
    assert resp.status_code == 201, resp.text
    assert len(await store.pending_outbox()) == 1


async def test_a_body_over_the_limit_is_413(client):
    big = {"job_id": "1234567", "memo": "m" * (LIMIT + 1)}
    resp = await client.post("/api/v1/annotation/validate", json=big, headers=auth("alice"))
    assert resp.status_code == 413
    assert resp.json()["error"] == {"code": "payload_too_large",
                                    "message": f"the request body is over the {LIMIT} byte limit (HTTP_MAX_BODY_BYTES)"}
    ok = await client.post("/api/v1/annotation/validate", json={"job_id": "1234567"}, headers=auth("alice"))
    assert ok.status_code == 200


class Unread:
    """An ASGI ``receive`` that fails the test if the app ever asks for the body."""

    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self):
        self.calls += 1
        raise AssertionError("the body was read")


async def _raw(app, path: str, headers: dict[str, str]) -> tuple[int, dict]:
    """Call the app directly with a body it must not read; (status, JSON body)."""
    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
             "client": ("127.0.0.1", 1), "server": ("test", 80)}
    receive = Unread()
    await app(scope, receive, send)
    import json  # noqa: PLC0415

    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    assert receive.calls == 0
    return sent[0]["status"], json.loads(body)


@pytest.mark.parametrize("authorization", [None, "Bearer not-a-known-token-at-all", "Basic YWxpY2U6cHc="])
async def test_a_request_without_a_valid_token_is_refused_before_its_body_is_read(app, authorization):
    headers = {"content-type": "application/json", "content-length": str(100 * 1024 * 1024)}
    if authorization:
        headers["authorization"] = authorization
    status, body = await _raw(app, "/api/v1/evaluations", headers)
    assert status == 401 and body["error"]["code"] == "unauthorized"


async def test_a_declared_length_over_the_limit_is_refused_before_the_body_is_read(app):
    headers = {"content-type": "application/json", "content-length": str(100 * 1024 * 1024),
               "authorization": f"Bearer {TOKENS['alice']}"}
    status, body = await _raw(app, "/api/v1/evaluations", headers)
    assert status == 413 and body["error"]["code"] == "payload_too_large"


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/review/tasks/%00",
        "/api/v1/review/tasks/a%0Ab",
        "/api/v1/review/tasks/%E2%80%AEtxt.exe",  # right-to-left override
        "/api/v1/review/tasks/%FF%FE",  # not UTF-8
        "/api/v1/review/tasks?job_id=x%00y",
        "/api/v1/review/tasks?verdict=%1B%5B31m",  # an ANSI escape
        "/api/v1/review/tasks?job_id=" + "j" * 600,
        "/api/v1/incidents/%00",
        "/api/v1/annotations/%07/x",
    ],
)
async def test_control_characters_in_ids_are_400_with_the_one_error_body(client, url):
    for headers in (auth("alice"), {}):  # the rule holds before authentication too
        resp = await client.get(url, headers=headers)
        assert resp.status_code == 400, (url, resp.text)
        error = resp.json()["error"]
        assert error["code"] == "invalid_parameter" and "\x00" not in error["message"]


@pytest.mark.parametrize("analysis_hash", ["x\x00y", "x" * 5000, "\u202eabc"])
async def test_an_id_in_the_body_that_breaks_the_id_rule_is_400_not_a_500(client, store, analysis_hash):
    resp = await client.post("/api/v1/evaluations", json=_form(analysis_hash=analysis_hash), headers=auth("alice"))
    assert resp.status_code == 400, resp.text
    assert resp.json()["error"]["code"] == "invalid_parameter" and "\x00" not in resp.text
    assert await store.pending_outbox() == []

