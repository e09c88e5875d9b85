"""Every HTTP error has one body: ``{"error": {"code", "message"}}``, whoever raised it."""

from __future__ import annotations

import httpx
from fastapi import APIRouter
from pydantic import BaseModel

from rcaloop.shared.http_errors import api_error
from rcaloop.shared.service import Service, http_app


class Body(BaseModel):
    decision: str
    limit: int = 10


def _app():
    router = APIRouter()

    @router.get("/api/v1/things/{thing_id}")
    async def get_thing(thing_id: str):
        raise api_error(404, "thing_not_found", f"no thing {thing_id!r}", path="thing_id")

    @router.post("/api/v1/things")
    async def post_thing(body: Body):
        return {"ok": True}

    return http_app([Service(name="t", subscriptions=[], http_router=router)])


async def _call(method: str, url: str, **kw) -> httpx.Response:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(_app()), base_url="http://t") as client:
        return await client.request(method, url, **kw)


async def test_a_route_error_keeps_its_code_message_and_extra_fields():
    resp = await _call("GET", "/api/v1/things/x1")
    assert resp.status_code == 404
    assert resp.json() == {"error": {"code": "thing_not_found", "message": "no thing 'x1'", "path": "thing_id"}}


async def test_framework_errors_use_the_same_body():
    unknown = await _call("GET", "/api/v1/nothing-here")
    wrong_method = await _call("DELETE", "/api/v1/things")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"
    assert wrong_method.status_code == 405 and wrong_method.json()["error"]["code"] == "method_not_allowed"


async def test_a_request_that_does_not_match_the_api_names_every_problem_without_echoing_input():
    secret = "tok-" + "s" * 40
    resp = await _call("POST", "/api/v1/things", json={"limit": secret})
    error = resp.json()["error"]
    assert resp.status_code == 422 and error["code"] == "invalid_request"
    assert {i["path"] for i in error["issues"]} == {"body.decision", "body.limit"}
    assert "body.decision" in error["message"]
    assert secret not in resp.text

    bad_json = await _call("POST", "/api/v1/things", content=b'{"decision',
                           headers={"content-type": "application/json"})
    assert bad_json.status_code == 422 and bad_json.json()["error"]["code"] == "invalid_request"
