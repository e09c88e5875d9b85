"""The HTTP API as the host serves it (uvicorn on a real socket): where it listens, what it
reads before it authenticates, whether its documentation is open, a port already in use."""

from __future__ import annotations

import asyncio
import socket

import httpx
import pytest

from rcaloop.annotation.app import AnnotationSettings
from rcaloop.annotation.app import build as build_annotation
from rcaloop.shared import metrics
from rcaloop.shared.service import HostError, run_services
from tests.conftest import running
from tests.reliability.conftest import _free_port

TOKEN = "annotator-token-Wq8Zr3Lm6Tp1"
HUNDRED_MB = 100 * 1024 * 1024


def _listening_addresses(port: int) -> set[str]:
    """The local addresses a TCP socket listens on at ``port`` (Linux ``/proc/net/tcp``)."""
    found = set()
    for table, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if int(hex_port, 16) == port and state == "0A":  # LISTEN
                if width == 8:
                    found.add(socket.inet_ntoa(bytes.fromhex(address)[::-1]))
                else:
                    found.add(address)
    return found


def _settings(settings_factory, **over) -> AnnotationSettings:
    return settings_factory(AnnotationSettings, rcaloop_annotator_tokens=f"olga:{TOKEN}", http_max_body_bytes=64 * 1024,
                            **over)


async def _serving(port: int) -> None:
    for _ in range(200):
        try:
            _r, w = await asyncio.open_connection("127.0.0.1", port)
            w.close()
            return
        except OSError:
            await asyncio.sleep(0.05)
    raise AssertionError(f"nothing listens on {port}")


async def _raw_request(port: int, head: str, body: bytes = b"") -> int:
    """Send a request head (and maybe part of a body) and return the status of the answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(head.encode() + body)
        await writer.drain()
        status_line = await asyncio.wait_for(reader.readline(), 30)
        return int(status_line.split()[1])
    finally:
        writer.close()


async def test_the_api_listens_on_loopback_and_answers_before_reading_a_body(settings_factory):
    settings = _settings(settings_factory)
    port = _free_port()
    async with running([build_annotation(settings)], settings, http_port=port):
        await _serving(port)
        assert _listening_addresses(port) == {"127.0.0.1"}
        post = "POST /api/v1/evaluations HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        # 100 MB announced, nothing sent: the answer comes at once, so nothing was waited for
        assert await _raw_request(port, post + f"Content-Length: {HUNDRED_MB}\r\n\r\n") == 401
        assert await _raw_request(port, post + "Transfer-Encoding: chunked\r\n\r\n", b"10000\r\n" + b"x" * 10) == 401
        with_token = post + f"Authorization: Bearer {TOKEN}\r\n"
        assert await _raw_request(port, with_token + f"Content-Length: {HUNDRED_MB}\r\n\r\n") == 413
        chunk = b"%x\r\n%s\r\n" % (32 * 1024, b"x" * 32 * 1024)
        assert await _raw_request(port, with_token + "Transfer-Encoding: chunked\r\n\r\n", chunk * 3) == 413
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            assert (await client.get("/docs")).status_code == 200  # on loopback the documentation is served
            assert (await client.get("/openapi.json")).status_code == 200


@pytest.mark.parametrize("docs,served", [(None, False), (True, True)])
async def test_documentation_is_closed_on_a_public_address_unless_asked_for(settings_factory, docs, served):
    settings = _settings(settings_factory, http_host="0.0.0.0", http_docs=docs)
    port = _free_port()
    async with running([build_annotation(settings)], settings, http_port=port):
        await _serving(port)
        assert _listening_addresses(port) == {"0.0.0.0"}
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            for path in ("/docs", "/openapi.json"):
                assert ((await client.get(path)).status_code == 200) is served, path


async def test_a_port_in_use_is_one_clear_error_before_anything_starts(settings_factory):
    settings = _settings(settings_factory)
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        with pytest.raises(HostError, match=f"cannot listen on 127.0.0.1:{port}: Address already in use"):
            await run_services([build_annotation(settings)], settings, asyncio.Event(), http_port=port)


def test_metrics_listen_on_loopback_by_default():
    port = _free_port()
    metrics.serve_metrics(port)
    assert _listening_addresses(port) == {"127.0.0.1"}
    assert httpx.get(f"http://127.0.0.1:{port}/healthz").json()["status"] in ("ok", "failing")
