"""TypeDB as deployed: a server the pinned driver can talk to, its data on a volume, health that means something.

No Docker engine or cluster runs here: the files are read, the versions compared through the
protocol table, and the healthcheck command run against a local HTTP server.
"""

from __future__ import annotations

import http.server
import importlib.metadata
import re
import socket
import subprocess
import threading
import tomllib

import pytest
from packaging.specifiers import SpecifierSet

from rcaloop.knowledge.api import guards, router
from rcaloop.shared.tokens import Tokens
from rcaloop.knowledge.typedb_versions import DATA_DIR, DRIVER_PROTOCOL, cannot_talk, minor
from tests.unit.deploy.files import ROOT, Deploy

READY = "/api/v1/knowledge/ready"


def _compose() -> dict:
    return Deploy(ROOT).compose


def _k8s(kind: str, name: str) -> dict:
    found = Deploy(ROOT).obj(kind, name)
    assert found is not None, f"no {kind} {name} in deploy/k8s"
    return found


def _driver_pin() -> SpecifierSet:
    deps = tomllib.loads((ROOT / "services" / "knowledge" / "pyproject.toml").read_text())["project"]["dependencies"]
    [pin] = [d for d in deps if d.startswith("typedb-driver")]
    return SpecifierSet(pin.removeprefix("typedb-driver"))


def _servers() -> dict[str, str]:
    statefulset = _k8s("StatefulSet", "typedb")
    return {
        "docker-compose.yml": _compose()["services"]["typedb"]["image"],
        "deploy/k8s/infra/typedb.yaml": statefulset["spec"]["template"]["spec"]["containers"][0]["image"],
    }


def test_the_pinned_servers_and_driver_speak_one_protocol():
    installed = importlib.metadata.version("typedb-driver")
    pin = _driver_pin()
    assert installed in pin
    admitted = [f"3.{n}.0" for n in range(10, 30) if f"3.{n}.0" in pin or f"3.{n}.99" in pin]
    assert admitted and all(minor(v) in DRIVER_PROTOCOL for v in admitted), (
        f"the pin {pin} admits drivers whose protocol is unknown: {admitted}"
    )
    for where, image in _servers().items():
        assert image.startswith("typedb/typedb:3."), where
        for driver in (installed, *admitted):
            assert cannot_talk(image, driver) is None, f"{where}: {cannot_talk(image, driver)}"


@pytest.mark.parametrize(
    ("server", "reason"),
    [
        ("typedb/typedb:3.4.0", "protocol 7, driver 3.14.0 protocol 8"),  # the image this repository once pinned
        ("typedb/typedb:3.11.5", "needs protocol extension 2"),
        ("typedb/typedb:3.99.0", "protocol unknown"),
    ],
)
def test_a_server_the_driver_cannot_talk_to_is_named_with_the_reason(server, reason):
    assert reason in cannot_talk(server, "3.14.0")


def test_typedb_keeps_its_data_on_a_volume_at_the_image_data_directory():
    compose = _compose()
    [volume] = compose["services"]["typedb"]["volumes"]
    name, target = volume.split(":", 1)
    assert target == DATA_DIR and name in compose["volumes"]
    spec = _k8s("StatefulSet", "typedb")["spec"]
    [mount] = spec["template"]["spec"]["containers"][0]["volumeMounts"]
    assert mount["mountPath"] == DATA_DIR
    assert mount["name"] in {t["metadata"]["name"] for t in spec["volumeClaimTemplates"]}
    service = _k8s("Service", "typedb")
    address = _k8s("ConfigMap", "rcaloop-config")["data"]["TYPEDB_ADDRESS"]
    assert address == f"{service['metadata']['name']}.{service['metadata']['namespace']}.svc:1729"


def test_the_knowledge_service_is_ready_only_while_its_store_accepts_writes(tmp_path):
    from rcaloop.knowledge.app import KnowledgeSettings, build  # noqa: PLC0415

    service = build(KnowledgeSettings(rcaloop_data_dir=tmp_path))
    assert [check.__name__ for check in service.readiness] == ["store"], "its /readyz asks the knowledge store"
    paths = {route.path for route in router(lambda: None).routes}
    assert READY in paths
    assert all(g.public and g.public("GET", READY) for g in guards(Tokens({}), Tokens({}))), "probes hold no token"
    assert "/readyz" in " ".join(_compose()["services"]["knowledge"]["healthcheck"]["test"])
    container = _k8s("Deployment", "rcaloop-knowledge")["spec"]["template"]["spec"]["containers"][0]
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}


def test_the_knowledge_package_ships_its_schema():
    config = tomllib.loads((ROOT / "services" / "knowledge" / "pyproject.toml").read_text())
    assert "schema.tql" in config["tool"]["setuptools"]["package-data"]["rcaloop.knowledge"]
    assert (ROOT / "services" / "knowledge" / "rcaloop" / "knowledge" / "schema.tql").is_file()


# -- the TypeDB healthcheck command, run against a local HTTP server ------------------------------------------------
class _Health(http.server.BaseHTTPRequestHandler):
    status = 204

    def do_GET(self):  # noqa: N802 - the http.server hook
        self.send_response(self.status if self.path == "/health" else 404)
        self.end_headers()

    def log_message(self, *_args):
        pass


def _serve(status: int):
    handler = type("Health", (_Health,), {"status": status})
    server = http.server.HTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _healthcheck(port: int) -> int:
    command = _compose()["services"]["typedb"]["healthcheck"]["test"]
    assert command[:3] == ["CMD", "bash", "-c"]
    script = re.sub(r"/127\.0\.0\.1/8000\b", f"/127.0.0.1/{port}", command[3])
    return subprocess.run(["bash", "-c", script], timeout=20, capture_output=True).returncode


@pytest.mark.parametrize(("status", "healthy"), [(204, True), (503, False)])
def test_the_typedb_healthcheck_passes_only_on_its_health_answer(status, healthy):
    server = _serve(status)
    try:
        assert (_healthcheck(server.server_address[1]) == 0) is healthy
    finally:
        server.shutdown()
        server.server_close()


def test_the_typedb_healthcheck_fails_when_nothing_listens():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert _healthcheck(port) != 0
