"""What a service process writes: every line in the configured format, no secret in any."""

from __future__ import annotations

import json
import socket
import time

import redis

from rcaloop.contracts import Stream
from tests.reliability.conftest import _free_port
from tests.reliability.flow import publish, result, wait_until
from tests.reliability.procs import Procs

PASSWORD = "hunter2-never-in-a-log"


def test_every_line_is_json_and_the_redis_password_is_never_logged(private_redis, prefix, tmp_path):
    admin = redis.Redis.from_url(private_redis.url)
    admin.config_set("requirepass", PASSWORD)
    admin.close()
    url = f"{private_redis.url}?password={PASSWORD}"  # the form redis-py reads a password from
    r = redis.Redis.from_url(url)
    procs = Procs(url, prefix, tmp_path)
    port = _free_port()
    try:
        ingestion = procs.start("ingestion")
        annotation = procs.start("annotation", HTTP_PORT=str(port), LOG_FORMAT="json")
        publish(r, prefix, [result(i) for i in range(5)])
        r.xadd(Stream.RESULTS.key(prefix), {"payload": "{not json"})  # a dead letter: a warning line
        wait_until(lambda: r.xlen(Stream.INGESTED.key(prefix)) == 5 and r.xlen(Stream.RESULTS.dlq_key(prefix)) == 1, 60,
                   "ingested")
        with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:  # garbage: the HTTP server warns
            raw.sendall(b"\x16\x03\x01 not http at all\r\n\r\n")
            raw.recv(1024)
        wait_until(lambda: "Invalid HTTP request" in annotation.logs(), 60, "the HTTP server's warning")
        for sp in (ingestion, annotation):
            sp.proc.terminate()
            sp.proc.wait(15)
            time.sleep(0.1)
            lines = [line for line in sp.logs().splitlines() if line.strip()]
            assert lines, sp.consumer
            for line in lines:
                event = json.loads(line)  # every line, the libraries' included
                assert "event" in event and "level" in event, line
            assert PASSWORD not in sp.logs()
            assert "?password=***" in sp.logs() or "?password=[REDACTED" in sp.logs()  # masked where the URL is logged
        warning = next(json.loads(line) for line in annotation.logs().splitlines() if "Invalid HTTP request" in line)
        assert warning["logger"] == "uvicorn.error" and warning["level"] == "warning"
    finally:
        procs.stop_all()
        r.close()
