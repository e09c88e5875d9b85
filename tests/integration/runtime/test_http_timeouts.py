"""Slow clients against the real server on a socket: request heads and bodies that trickle in
are cut off at their deadline, connections past the limit are refused at once, and the
server keeps answering everyone else; the proxy's scheme is believed only when configured."""

from __future__ import annotations

import asyncio
import json
import time

from rcaloop.annotation import ui
from rcaloop.annotation.app import AnnotationSettings
from rcaloop.annotation.app import build as build_annotation
from tests.conftest import running
from tests.integration.runtime.test_http_host import _serving
from tests.reliability.conftest import _free_port

TOKEN = "annotator-token-Wq8Zr3Lm6Tp1"


def _settings(settings_factory, **over) -> AnnotationSettings:
    values = {"http_header_timeout_s": 2.0, "http_body_timeout_s": 2.0, **over}
    return settings_factory(AnnotationSettings, rcaloop_annotator_tokens=f"olga:{TOKEN}", **values)


async def _trickle(port: int, first: bytes, drip: bytes, bound_s: float) -> tuple[str, float]:
    """Send ``first``, then one byte of ``drip`` every 0.25 s (never finishing the request);
    return the status line the server answered with ('' when it only closed) and when."""
    started = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(first)
        await writer.drain()
        i = 0
        while time.monotonic() - started < bound_s:
            try:
                line = await asyncio.wait_for(reader.readline(), timeout=0.25)
                return line.decode(errors="replace").strip(), time.monotonic() - started
            except TimeoutError:
                pass
            try:
                writer.write(drip[i % len(drip): i % len(drip) + 1])
                await writer.drain()
            except ConnectionError:
                return "", time.monotonic() - started
            i += 1
        return "still open", time.monotonic() - started
    finally:
        writer.close()


async def _get(port: int, path: str = "/healthz", headers: str = "") -> tuple[int, dict[str, str], bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n{headers}\r\n".encode())
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), timeout=30)
    finally:
        writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    return int(lines[0].split()[1]), {k.lower(): v for k, _, v in (x.partition(": ") for x in lines[1:])}, body


async def test_slow_heads_and_bodies_are_cut_off_while_others_are_served(settings_factory):
    port = _free_port()
    settings = _settings(settings_factory, http_max_connections=500)
    slow_head = b"GET /ui/login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
    slow_body = (f"POST /ui/login HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                 "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\ntoken=").encode()
    async with running([build_annotation(settings)], settings, http_port=port):
        await _serving(port)
        clients = [asyncio.create_task(_trickle(port, slow_head, b"abcdefgh", 60)) for _ in range(300)]
        clients += [asyncio.create_task(_trickle(port, slow_body, b"x", 60)) for _ in range(100)]
        await asyncio.sleep(0.5)
        status, _, _ = await _get(port)  # everyone else is still answered meanwhile
        assert status == 200
        results = await asyncio.gather(*clients)
        heads, bodies = results[:300], results[300:]
        assert all(line.startswith("HTTP/1.1 408") for line, _ in heads), sorted({line for line, _ in heads})
        assert all(line.startswith("HTTP/1.1 408") for line, _ in bodies), sorted({line for line, _ in bodies})
        assert all(after >= 1.9 for _, after in results), "cut off before its deadline"
        status, _, _ = await _get(port)
        assert status == 200


async def test_connections_past_the_limit_are_refused_at_once_with_the_error_body(settings_factory):
    port = _free_port()
    settings = _settings(settings_factory, http_max_connections=40, http_header_timeout_s=20.0)
    async with running([build_annotation(settings)], settings, http_port=port):
        await _serving(port)
        await asyncio.sleep(1.0)  # the probe connection is gone
        held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(40)]
        await asyncio.sleep(0.3)
        status, headers, body = await _get(port)
        assert status == 503 and headers["content-type"] == "application/json"
        assert json.loads(body)["error"]["code"] == "too_many_connections"
        for _reader, writer in held:
            writer.close()
        await asyncio.sleep(0.5)
        assert (await _get(port))[0] == 200  # freed connections are served again


async def _login_cookie(port: int, forwarded: bool) -> str:
    origin = f"https://127.0.0.1:{port}" if forwarded else f"http://127.0.0.1:{port}"
    form = f"token={TOKEN}"
    extra = "X-Forwarded-Proto: https\r\n" if forwarded else ""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write((f"POST /ui/login HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {origin}\r\n{extra}"
                      f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(form)}\r\n"
                      f"Connection: close\r\n\r\n{form}").encode())
        await writer.drain()
        raw = (await asyncio.wait_for(reader.read(), timeout=30)).decode()
    finally:
        writer.close()
    assert raw.startswith("HTTP/1.1 303"), raw[:500]
    return next(line for line in raw.split("\r\n") if line.lower().startswith("set-cookie:"))


async def test_the_proxy_scheme_is_believed_only_from_configured_proxies(settings_factory, tmp_path):
    port = _free_port()
    settings = _settings(settings_factory)
    async with running([build_annotation(settings)], settings, http_port=port):
        await _serving(port)
        with_header = await _login_cookie(port, forwarded=False)
        assert f"{ui.COOKIE}=" in with_header and "Secure" not in with_header
        # a client claiming https itself is not a proxy: its Origin (https) is not this server's either
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        form = f"token={TOKEN}"
        writer.write((f"POST /ui/login HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: https://127.0.0.1:{port}\r\n"
                      f"X-Forwarded-Proto: https\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                      f"Content-Length: {len(form)}\r\nConnection: close\r\n\r\n{form}").encode())
        raw = (await asyncio.wait_for(reader.read(), timeout=30)).decode()
        writer.close()
        assert raw.startswith("HTTP/1.1 403") and "Set-Cookie" not in raw and "set-cookie" not in raw

    port = _free_port()
    settings = _settings(settings_factory, http_forwarded_allow_ips="127.0.0.1", rcaloop_data_dir=tmp_path / "proxied")
    async with running([build_annotation(settings)], settings, http_port=port):
        await _serving(port)
        cookie = await _login_cookie(port, forwarded=True)
        assert f"{ui.SECURE_COOKIE}=" in cookie and "Secure" in cookie
