"""The deployment rules hold for the repository's files, and each catches the defect it names.

Every defect below is one these files had (or a typo of the kind a schema catches): the copy of
the files gets it back, and the rule must fail on it.
"""

from __future__ import annotations

import shutil

import pytest

from tests.unit.deploy.files import ROOT, Deploy
from tests.unit.deploy.rules import RULES, rule

needs_kubectl = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")


@pytest.mark.parametrize("checked", RULES, ids=lambda r: f"{r.code}-{r.name}")
def test_the_deployment_files_hold(checked):
    if checked.code == "DEP002" and shutil.which("kubectl") is None:
        pytest.skip("kubectl is not installed")
    assert checked.check(Deploy(ROOT)) == []


def _dup_redis_password(d: Deploy) -> None:
    d.edit("deploy/k8s/app/base.yaml", '  REDIS_PASSWORD: "change-me"',
           '  REDIS_PASSWORD: "change-me"\n  REDIS_PASSWORD: "other"')


def _harness_replicas(d: Deploy) -> None:
    d.edit("deploy/k8s/app/services.yaml",
           "  name: rcaloop-harness\n  namespace: rcaloop\n  labels: {app: rcaloop-harness}\nspec:\n",
           "  name: rcaloop-harness\n  namespace: rcaloop\n  labels: {app: rcaloop-harness}\nspec:\n  replicas: 2\n")


def _knowledge_rolling(d: Deploy) -> None:
    text = (d.root / "deploy/k8s/app/services.yaml").read_text()
    knowledge = text.index("name: rcaloop-knowledge")
    recreate = text.index("  strategy: {type: Recreate}\n", knowledge)
    (d.root / "deploy/k8s/app/services.yaml").write_text(
        text[:recreate] + text[recreate + len("  strategy: {type: Recreate}\n"):])


def _annotation_without_readiness(d: Deploy) -> None:
    d.edit("deploy/k8s/app/services.yaml",
           "          readinessProbe:   # 503 while Redis, a consumer group or the store is not there\n"
           "            httpGet: {path: /readyz, port: http}\n            periodSeconds: 10\n            "
           "timeoutSeconds: 5\n", "")


def _liveness_on_metrics_only(d: Deploy) -> None:
    d.edit("deploy/k8s/app/services.yaml", "httpGet: {path: /healthz, port: http}",
           "httpGet: {path: /healthz, port: metrics}")


def _typedb_without_service(d: Deploy) -> None:
    (d.root / "deploy/k8s/infra/typedb.yaml").unlink()
    d.edit("deploy/k8s/infra/kustomization.yaml", "  - typedb.yaml\n", "")


def _dockerfile_without_data_dir(d: Deploy) -> None:
    d.edit("Dockerfile", "    && mkdir -p /data/.analysis \\\n    && chown -R rcaloop:rcaloop /data\n", "")
    d.edit("Dockerfile", "--no-create-home rcaloop \\\n", "--no-create-home rcaloop\n")


def _no_dockerignore(d: Deploy) -> None:
    (d.root / ".dockerignore").unlink()


def _servers_without_restart(d: Deploy) -> None:
    d.edit("docker-compose.yml", "    image: redis:7.2\n    restart: unless-stopped\n", "    image: redis:7.2\n")


def _deployment_typo(d: Deploy) -> None:
    d.edit("deploy/k8s/app/services.yaml", "  replicas: 2\n", "  replica: 2\n")


def _keda_typo(d: Deploy) -> None:
    d.edit("deploy/k8s/app/keda-harness.yaml", "  minReplicaCount: 1", "  minReplicas: 1")


def _compose_typo(d: Deploy) -> None:
    d.edit("docker-compose.yml", "  stop_grace_period: 20s", "  stop_grace: 20s")


def _unknown_setting(d: Deploy) -> None:
    d.edit("deploy/k8s/app/base.yaml", '  MAX_DELIVERIES: "5"', '  MAX_DELIVERY: "5"')


def _missing_module(d: Deploy) -> None:
    d.edit("deploy/k8s/app/services.yaml", '"rcaloop.parser"]', '"rcaloop.parsers"]')


def _unscraped_service(d: Deploy) -> None:
    d.edit("deploy/prometheus/prometheus.yml", "names: [ingestion, parser, harness,", "names: [ingestion, parser,")


def _trigger_on_another_stream(d: Deploy) -> None:
    d.edit("deploy/k8s/app/keda-harness.yaml", "stream: rca.parsed ", "stream: rca.evaluated ")


def _trigger_unknown_parameter(d: Deploy) -> None:
    d.edit("deploy/k8s/app/keda-harness.yaml", 'lagCount: "200"', 'lagThreshold: "200"')


DEFECTS = [
    ("DEP001", _dup_redis_password),
    pytest.param("DEP002", _dup_redis_password, marks=needs_kubectl),
    ("DEP003", _deployment_typo),
    ("DEP003", _keda_typo),
    ("DEP004", _compose_typo),
    ("DEP005", _harness_replicas),
    ("DEP006", _knowledge_rolling),
    ("DEP007", _annotation_without_readiness),
    ("DEP007", _liveness_on_metrics_only),
    ("DEP008", _typedb_without_service),
    ("DEP009", _unknown_setting),
    ("DEP010", _missing_module),
    ("DEP011", _dockerfile_without_data_dir),
    ("DEP012", _no_dockerignore),
    ("DEP013", _servers_without_restart),
    ("DEP014", _unscraped_service),
    ("DEP015", _trigger_on_another_stream),
    ("DEP015", _trigger_unknown_parameter),
]


@pytest.mark.parametrize(("code", "defect"), DEFECTS, ids=lambda v: v if isinstance(v, str) else v.__name__.strip("_"))
def test_each_rule_catches_its_defect(tmp_path, code, defect):
    broken = Deploy.copy(tmp_path)
    defect(broken)
    problems = rule(code).check(Deploy(tmp_path))
    assert problems, f"{code} did not catch {defect.__name__}"


def test_every_rule_has_a_defect_it_catches():
    caught = {p.values[0] if hasattr(p, "values") else p[0] for p in DEFECTS}
    assert caught == {r.code for r in RULES}
    assert len({r.code for r in RULES}) == len(RULES)
