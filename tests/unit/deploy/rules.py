"""What the deployment files must hold, as named rules with stable codes: the list is the spec.

Each rule reads a ``Deploy`` tree and returns its problems (empty: it holds). The validators are
real ones: yamllint, ``kubectl kustomize``, Kubernetes' object schemas (``kubernetes-validate``), the
Compose Specification's schema and KEDA's custom resource schemas (``tests/fixtures/schemas``).
``test_rules.py`` runs each on the repository's files and on a copy holding the defect it catches.
"""

from __future__ import annotations

import ipaddress
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.util import find_spec
from urllib.parse import urlsplit

import jsonschema
import kubernetes_validate
from yamllint import linter
from yamllint.config import YamlLintConfig

from rcaloop.cli.pipeline import BUILDERS
from tests.unit.deploy.files import ROOT, Deploy

K8S_VERSION = "1.30.0"
"""The oldest Kubernetes release the manifests are written for (its schemas, strictly)."""
SCHEMAS = ROOT / "tests" / "fixtures" / "schemas"
FOREIGN_ENV = {"POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB", "REDIS_PASSWORD", "KF_RULE_CACHE_DIR"}
"""Set for the infrastructure (the PostgreSQL image, the KEDA scaler, the Redis server) or a library
(the secret engine's rule cache), not for rcaloop's settings."""
KEDA_REDIS_STREAMS_PARAMETERS = frozenset({
    # KEDA's redis-streams scaler: pkg/scalers/redis_streams_scaler.go and redis_scaler.go (redisConnectionInfo)
    "pendingEntriesCount", "streamLength", "lagCount", "stream", "consumerGroup", "databaseIndex",
    "activationLagCount", "enableTLS", "address", "addresses", "host", "hosts", "port", "ports", "username",
    "password", "sentinelUsername", "sentinelPassword", "sentinelMaster", "unsafeSsl",
    "usernameFromEnv", "passwordFromEnv", "addressFromEnv", "hostFromEnv", "portFromEnv",
})
YAMLLINT = YamlLintConfig("""
extends: default
rules:
  line-length: disable
  document-start: disable
  comments: disable
  comments-indentation: disable
  braces: disable
  brackets: disable
  truthy: {check-keys: false}
""")


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    why: str
    check: Callable[[Deploy], list[str]]


def yaml_lint(d: Deploy) -> list[str]:
    """Every YAML file parses and has no duplicate key (a parser keeps one silently; kubectl refuses)."""
    return [f"{f.relative_to(d.root)}:{p.line}: {p.desc}" for f in d.yaml_files()
            for p in linter.run(f.read_text(), YAMLLINT, str(f)) if p.level == "error"]


def kustomize(d: Deploy) -> list[str]:
    """``kubectl kustomize`` builds each kustomization (what ``kubectl apply -k`` would send)."""
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        return ["kubectl is not installed: kustomizations not built"]
    problems = []
    for k in sorted((d.root / "deploy" / "k8s").rglob("kustomization.yaml")):
        run = subprocess.run([kubectl, "kustomize", str(k.parent)], capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            problems.append(f"{k.parent.relative_to(d.root)}: {run.stderr.strip()[-400:]}")
    return problems


def _closed(schema):
    """The schema with every object that lists its properties closed to others (strict: typos fail)."""
    if isinstance(schema, dict):
        out = {k: _closed(v) for k, v in schema.items()}
        if "properties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [_closed(v) for v in schema]
    return schema


@cache
def _keda_validator(kind: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        _closed(json.loads((SCHEMAS / "keda" / f"{kind}.v1alpha1.json").read_text())))


def _clean(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k != "_file"}


def k8s_schema(d: Deploy) -> list[str]:
    """Every object validates strictly: Kubernetes' schemas, KEDA's for its resources."""
    problems = []
    for doc in d.k8s:
        where = f"{doc['_file']}: {doc.get('kind')} {doc['metadata'].get('name')}"
        if str(doc.get("apiVersion", "")).startswith("keda.sh/"):
            problems += [f"{where}: {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
                         for e in _keda_validator(doc["kind"]).iter_errors(_clean(doc))]
            continue
        try:
            kubernetes_validate.validate(_clean(doc), K8S_VERSION, strict=True)
        except (kubernetes_validate.ValidationError, kubernetes_validate.SchemaNotFoundError) as exc:
            problems.append(f"{where}: {str(exc)[:300]}")
    return problems


def compose_schema(d: Deploy) -> list[str]:
    """``docker-compose.yml`` validates against the Compose Specification's schema."""
    validator = jsonschema.Draft202012Validator(json.loads((SCHEMAS / "compose-spec.json").read_text()))
    return [f"docker-compose.yml: {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
            for e in validator.iter_errors(d.compose)]


def keda_owns_replicas(d: Deploy) -> list[str]:
    """A Deployment KEDA scales sets no ``replicas``: every apply would reset KEDA's count."""
    targets = {so["spec"]["scaleTargetRef"]["name"] for so in d.objects("ScaledObject")}
    return [f"{name}: sets replicas while KEDA scales it" for name in sorted(targets)
            if (dep := d.obj("Deployment", name)) and "replicas" in dep["spec"]]


def single_writer_volumes(d: Deploy) -> list[str]:
    """A Deployment mounting a ReadWriteOnce claim runs one pod and replaces it (``Recreate``):
    a rolling update's second pod would wait for the volume forever."""
    rwo = {c["metadata"]["name"] for c in d.objects("PersistentVolumeClaim")
           if "ReadWriteOnce" in c["spec"]["accessModes"]}
    problems = []
    for dep in d.objects("Deployment"):
        claims = {v["persistentVolumeClaim"]["claimName"] for v in dep["spec"]["template"]["spec"].get("volumes", [])
                  if "persistentVolumeClaim" in v}
        if claims & rwo:
            if dep["spec"].get("strategy", {}).get("type") != "Recreate":
                problems.append(f"{dep['metadata']['name']}: mounts a ReadWriteOnce claim without strategy Recreate")
            if dep["spec"].get("replicas", 1) > 1:
                problems.append(f"{dep['metadata']['name']}: more than one replica on a ReadWriteOnce claim")
    return problems


def probes(d: Deploy) -> list[str]:
    """Every rcaloop container is probed: alive on ``/healthz``, ready on ``/readyz`` — on its API
    port when it serves one (so a stuck API server is seen), else on the metrics port; every rcaloop
    compose service's healthcheck asks ``/readyz``."""
    problems = []
    for dep, c in d.rcaloop_containers():
        port = "http" if any(p.get("name") == "http" for p in c.get("ports", [])) else "metrics"
        for probe, path in (("livenessProbe", "/healthz"), ("readinessProbe", "/readyz")):
            got = c.get(probe, {}).get("httpGet")
            if got != {"path": path, "port": port}:
                problems.append(f"{dep['metadata']['name']}: {probe} should be GET {path} on port {port}, is {got}")
    for name, svc in d.rcaloop_compose_services().items():
        if "/readyz" not in " ".join(svc.get("healthcheck", {}).get("test", [])):
            problems.append(f"compose {name}: healthcheck does not ask /readyz")
    return problems


def _hosts(value: str) -> list[str]:
    """Host names a setting's value points at: URLs and ``host:port``."""
    value = value.strip()
    if "://" in value:
        return [urlsplit(value).hostname or ""]
    if re.fullmatch(r"[A-Za-z0-9.-]+:\d+", value):
        return [value.rsplit(":", 1)[0]]
    return []


def addresses(d: Deploy) -> list[str]:
    """Every in-cluster address a manifest names (``<service>.<namespace>.svc``) is a Service the
    manifests define; every host a compose service names is a compose service."""
    defined = {(s["metadata"]["name"], s["metadata"].get("namespace", "default")) for s in d.objects("Service")}
    values: list[tuple[str, str]] = []
    for doc in d.objects("ConfigMap") + d.objects("Secret"):
        values += [(doc["_file"], str(v)) for v in {**doc.get("data", {}), **doc.get("stringData", {})}.values()]
    for dep, c in d.rcaloop_containers():
        values += [(dep["_file"], str(e["value"])) for e in c.get("env", []) if "value" in e]
    for so in d.objects("ScaledObject"):
        values += [(so["_file"], str(t["metadata"].get("address", ""))) for t in so["spec"]["triggers"]]
    problems = []
    for where, value in values:
        for host in _hosts(value):
            parts = host.split(".")
            if len(parts) >= 3 and parts[2] == "svc" and (parts[0], parts[1]) not in defined:
                problems.append(f"{where}: {host} names a Service no manifest defines")
    services = set(d.compose["services"])
    for name, svc in d.compose["services"].items():
        for value in (svc.get("environment") or {}).values():
            for host in _hosts(str(value)):
                if host and host not in services and not _is_ip(host):
                    problems.append(f"compose {name}: {host} is no compose service")
    return problems


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def _setting_names() -> set[str]:
    names: set[str] = set()
    for _build, settings_cls in BUILDERS:
        for name, field in settings_cls.model_fields.items():
            names.add((field.validation_alias if isinstance(field.validation_alias, str) else name).upper())
    return names


def settings(d: Deploy) -> list[str]:
    """Every environment variable set for rcaloop (compose, ConfigMap, Secret, container env, the
    image's ENV) is a setting some service reads, or is read by the infrastructure."""
    found: dict[str, str] = {}
    for name, svc in d.rcaloop_compose_services().items():
        found |= {k: f"compose {name}" for k in svc.get("environment") or {}}
    for doc in d.objects("ConfigMap") + d.objects("Secret"):
        found |= {k: doc["_file"] for k in {**doc.get("data", {}), **doc.get("stringData", {})}}
    for dep, c in d.rcaloop_containers():
        found |= {e["name"]: dep["_file"] for e in c.get("env", [])}
    for instruction, args in d.dockerfile:
        if instruction == "ENV":
            found |= {m: "Dockerfile" for m in re.findall(r"(\w+)=", args)}
    known = _setting_names() | FOREIGN_ENV | {"PYTHONUNBUFFERED", "PIP_NO_CACHE_DIR", "PIP_DISABLE_PIP_VERSION_CHECK",
                                               "RCALOOP_SERVICE"}
    return [f"{where}: {name} is no setting" for name, where in sorted(found.items()) if name not in known]


def commands(d: Deploy) -> list[str]:
    """Every ``python -m rcaloop.<x>`` a manifest or the image runs names a module with a ``main``."""
    named: list[tuple[str, str]] = []
    for dep, c in d.rcaloop_containers():
        named.append((dep["_file"], " ".join(c.get("command", []) + c.get("args", []))))
    for name, svc in d.rcaloop_compose_services().items():
        command = svc.get("command") or ""
        named.append((f"compose {name}", " ".join(command) if isinstance(command, list) else command))
    named += [("Dockerfile", args) for instruction, args in d.dockerfile if instruction in ("CMD", "ENTRYPOINT")]
    problems = []
    for where, text in named:
        for module in re.findall(r"-m\s+(rcaloop\.[\w.${}]+)", text):
            if "${" in module:  # the image's one command, for every service
                candidates = [f"rcaloop.{svc}" for svc in d.rcaloop_compose_services()]
            else:
                candidates = [module]
            for m in candidates:
                if find_spec(m) is None or find_spec(f"{m}.__main__") is None:
                    problems.append(f"{where}: python -m {m} names no runnable module")
    return problems


def image_data_dir(d: Deploy) -> list[str]:
    """Every path a volume is mounted at in an rcaloop container exists in the image, owned by the
    image's user: a named volume takes the ownership it finds there (else root's, and unwritable)."""
    user = next((args.split(":")[0] for i, args in reversed(d.dockerfile) if i == "USER"), "root")
    made, owned = set(), set()
    for instruction, args in d.dockerfile:
        if instruction == "RUN":
            for step in re.split(r"&&|;", args):
                words = step.split()
                if words[:2] == ["mkdir", "-p"]:
                    made |= {w.rstrip("/") for w in words[2:]}
                if words[:1] == ["chown"]:
                    flags = [w for w in words[1:] if w.startswith("-")]
                    rest = [w for w in words[1:] if not w.startswith("-")]
                    if rest and rest[0].split(":")[0] in (user, "10001", "rcaloop"):
                        owned |= {(w.rstrip("/"), "-R" in flags) for w in rest[1:]}
    targets = {v.split(":")[1] for svc in d.rcaloop_compose_services().values() for v in svc.get("volumes", [])
               if isinstance(v, str) and not v.startswith((".", "/"))}
    targets |= {m["mountPath"] for _dep, c in d.rcaloop_containers() for m in c.get("volumeMounts", [])}
    problems = []
    for target in sorted(targets):
        exists = any(target == m or m.startswith(target + "/") for m in made)
        mine = any(target == p or (recursive and target.startswith(p + "/")) for p, recursive in owned)
        if not (exists and mine):
            problems.append(f"{target}: mounted as a volume but not made in the image and owned by its user ({user})")
    return problems


def dockerignore(d: Deploy) -> list[str]:
    """A ``.dockerignore`` keeps the checkout's ``.git``, ``.venv`` and data out of the build, and
    none of what the Dockerfile copies."""
    patterns = d.dockerignore()
    if patterns is None:
        return [".dockerignore is missing: .git, .venv and local data go into every build"]
    problems = [f".dockerignore does not exclude {p}" for p in (".git", ".venv", "var") if p not in patterns]
    copied = [args.split()[0].rstrip("/").split("/")[0] for i, args in d.dockerfile if i == "COPY"]
    problems += [f".dockerignore excludes {p}, which the Dockerfile copies" for p in copied if p in patterns]
    return problems


def restart_policy(d: Deploy) -> list[str]:
    """Every compose service restarts after a crash or a host reboot (the servers too)."""
    return [f"compose {name}: no restart policy" for name, svc in d.compose["services"].items()
            if not svc.get("restart")]


def prometheus_scrapes(d: Deploy) -> list[str]:
    """The compose ``metrics`` profile's Prometheus scrapes every service that serves metrics, on its port."""
    import yaml  # noqa: PLC0415

    prom = next((s for s in d.compose["services"].values() if "metrics" in s.get("profiles", [])
                 and "prometheus" in s.get("image", "")), None)
    if prom is None:
        return ["no Prometheus in a compose profile named metrics"]
    mount = next((v.split(":")[0] for v in prom.get("volumes", []) if "prometheus.yml" in v), None)
    if mount is None or not (d.root / mount).is_file():
        return [f"the Prometheus configuration {mount} is not in the repository"]
    config = yaml.safe_load((d.root / mount).read_text())
    scraped: set[tuple[str, int]] = set()
    for job in config.get("scrape_configs", []):
        for sd in job.get("dns_sd_configs", []):
            scraped |= {(n, int(sd["port"])) for n in sd.get("names", [])}
        for sc in job.get("static_configs", []):
            scraped |= {(t.split(":")[0], int(t.split(":")[1])) for t in sc.get("targets", [])}
    return [f"compose {name}: metrics on {port} not scraped"
            for name, svc in sorted(d.rcaloop_compose_services().items())
            if (port := (svc.get("environment") or {}).get("METRICS_PORT")) and (name, int(port)) not in scraped]


def keda_trigger(d: Deploy) -> list[str]:
    """The harness scaler reads what KEDA's redis-streams scaler knows, on the stream and group the
    harness consumes (with the deployment's stream prefix), and scales a Deployment that exists."""
    from rcaloop.contracts import Stream  # noqa: PLC0415

    config = d.obj("ConfigMap", "rcaloop-config") or {"data": {}}
    prefix = config["data"].get("RCALOOP_STREAM_PREFIX", "")
    harness = next(sub for build, cls in BUILDERS for sub in build(cls()).subscriptions if sub.group == "harness")
    problems = []
    for so in d.objects("ScaledObject"):
        if d.obj("Deployment", so["spec"]["scaleTargetRef"]["name"]) is None:
            problems.append(f"{so['metadata']['name']}: scales a Deployment no manifest defines")
        for t in so["spec"]["triggers"]:
            if t["type"] != "redis-streams":
                continue
            meta = t["metadata"]
            problems += [f"trigger parameter {k!r} is not read by KEDA's redis-streams scaler"
                         for k in sorted(set(meta) - KEDA_REDIS_STREAMS_PARAMETERS)]
            if meta.get("stream") != Stream(harness.stream).key(prefix):
                problems.append(f"trigger stream {meta.get('stream')!r} is not {Stream(harness.stream).key(prefix)!r}")
            if meta.get("consumerGroup") != harness.group:
                problems.append(f"trigger consumerGroup {meta.get('consumerGroup')!r} is not {harness.group!r}")
    return problems


RULES: list[Rule] = [
    Rule("DEP001", "yaml-lint", "YAML parses, no duplicate keys", yaml_lint),
    Rule("DEP002", "kustomize", "kubectl kustomize builds every kustomization", kustomize),
    Rule("DEP003", "k8s-schema", "Kubernetes and KEDA objects validate strictly", k8s_schema),
    Rule("DEP004", "compose-schema", "docker-compose.yml validates against the Compose Specification", compose_schema),
    Rule("DEP005", "keda-owns-replicas", "a KEDA-scaled Deployment sets no replicas", keda_owns_replicas),
    Rule("DEP006", "single-writer-volumes", "ReadWriteOnce claims: one pod, Recreate", single_writer_volumes),
    Rule("DEP007", "probes", "liveness /healthz and readiness /readyz on the right port", probes),
    Rule("DEP008", "addresses", "every in-cluster address names a defined Service", addresses),
    Rule("DEP009", "settings", "every environment variable is a setting", settings),
    Rule("DEP010", "commands", "every command names a runnable module", commands),
    Rule("DEP011", "image-data-dir", "volume mount points exist in the image, owned by its user", image_data_dir),
    Rule("DEP012", "dockerignore", ".dockerignore keeps .git, .venv and data out", dockerignore),
    Rule("DEP013", "restart-policy", "every compose service restarts", restart_policy),
    Rule("DEP014", "prometheus-scrapes", "the metrics profile scrapes every metrics endpoint", prometheus_scrapes),
    Rule("DEP015", "keda-trigger", "the scaler watches the harness group's stream", keda_trigger),
]


def rule(code: str) -> Rule:
    return next(r for r in RULES if r.code == code)
