"""Compose and the image: what a rule does not cover (no Docker engine runs here)."""

from __future__ import annotations

import re

import pytest

from tests.unit.deploy.files import ROOT, Deploy

SERVICES = ("ingestion", "parser", "harness", "annotation", "knowledge", "gate")


def _compose() -> dict:
    return Deploy(ROOT).compose


def test_compose_runs_every_service_from_the_parametrised_dockerfile():
    services = _compose()["services"]
    assert {"redis", "postgres", "typedb"} <= set(services)
    assert "appendonly" in " ".join(services["redis"]["command"])
    assert services["typedb"]["image"].startswith("typedb/typedb:3.")
    for name in SERVICES:
        assert services[name]["build"]["args"]["SERVICE"] == name
        assert "healthcheck" in services[name]
        assert "container_name" not in services[name], "a fixed name would break --scale"


@pytest.mark.parametrize("service", SERVICES)
def test_each_image_entrypoint_exists(service):
    package = ROOT / "services" / service / "rcaloop" / service
    assert (package / "__main__.py").is_file()
    assert "def main" in (package / "app.py").read_text()
    assert (ROOT / "services" / service / "pyproject.toml").is_file()


def test_dockerfile_installs_only_the_named_service():
    text = (ROOT / "Dockerfile").read_text()
    assert "COPY services/${SERVICE}/" in text
    assert "python -m rcaloop.${RCALOOP_SERVICE}" in text


def test_harness_image_carries_neither_typedb_nor_asyncssh():
    deps = (ROOT / "services" / "harness" / "pyproject.toml").read_text()
    deps += (ROOT / "shared" / "pyproject.toml").read_text().split("[project.optional-dependencies]")[0]
    deps += (ROOT / "contracts" / "pyproject.toml").read_text()
    assert "typedb" not in deps and "asyncssh" not in deps


def test_k8s_deployments_drain_before_kill():
    for doc in Deploy(ROOT).objects("Deployment"):
        spec = doc["spec"]["template"]["spec"]
        assert spec["terminationGracePeriodSeconds"] > 20
        assert re.fullmatch(r"rcaloop\.\w+", spec["containers"][0]["command"][-1])
