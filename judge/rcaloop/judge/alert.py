"""What the alert says: whether it is a generic status alert, and which target it is about.

A **generic status alert** reports a state — not ready, waiting, replicas missing, a
rollout not progressing — without a failure of its own (an error, a denial, an OOM kill, an
HTTP error status, an image that can't be pulled). Alert names are read as words
(``KubePodNotReady`` → "Kube Pod Not Ready"), and numbers are an HTTP status only where
the text says so (``HTTP 503``, ``status=500``, ``503 Service Unavailable``, ``5xx``):
"waiting for 500 seconds" is not an error.

The alert's **targets** are the workloads it names — ``deployment payments``,
``Deployment shop-prod/payments``, ``pod/checkout-7f9``, ``service=checkout-api`` — read at
workload level (a pod's generated suffixes dropped), so an observation can be checked for
being about the alert's own target, and a sibling workload (``payments-gateway``) is not it.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from rcaloop.judge import lemma
from rcaloop.judge.vocab import Concept, has

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
GENERIC_STATUS = re.compile(
    r"\bnon[- ]?ready\b|\bnot[- ]?ready\b|\bunready\b|\bwaiting\b|\broll ?out\b|"
    r"\breplicas?\s+(?:mismatch|unavailable|available|ready|desired|missing|pending|not)\b|"
    r"\b(?:available|ready|desired|updated|unavailable|missing)\s+replicas?\b|\d+\s*/\s*\d+\s+replicas?\b|"
    r"\bunavailable replicas\b|\broll(?:ed)? ?out\b|\bprogress ?deadline ?exceeded\b|\bgeneration mismatch\b|\bcrash "
    r"?loop(?:ing)?\b|"
    r"\bcrash ?loop ?back ?off\b|\bpending pods?\b|\bpod (?:is )?pending\b",
    re.I,
)
ERROR_SIGNAL = re.compile(
    r"\berror|\berr\b|exception\b|\bdenied\b|\brefused\b|\bforbidden\b|\bunauthori[sz]ed\b|\boom ?kill|"
    r"\bout of memory\b|\bexit code\b|\bpanic\b|\btraceback\b|\bsegfault\b|\bcertificate\b|\bno such\b|"
    r"\bnot found\b|\bimage ?pull\b|\bback ?off pulling\b|\bevicted\b|\bdisk pressure\b|\bdeadlock\b|"
    r"\b(?:http|status|code|returned|response|responded)\W{0,3}[45]\d\d\b|"
    r"\b[45]\d\d (?:internal|bad|service|gateway|not|forbidden|unauthori[sz]ed|too many|conflict)\b|\b[45]xx\b|"
    r"\bfailed ?create\b|\bassertion failed\b",
    re.I,
)
"""An alert carrying one of these names its own failure: it is not a generic status alert."""

KINDS = (
    "deployment", "deploy", "pod", "service", "svc", "statefulset", "sts", "daemonset", "ds", "cronjob",
    "replicaset", "rs", "hpa", "ingress", "pvc", "instance", "host", "node", "app", "workload", "index",
)
"""Words that name a workload before its name (``job`` is left out: in alert labels it is the scrape job;
``container`` too: container names such as ``app`` or ``main`` name no workload)."""
_TARGET = re.compile(
    r"\b(?:" + "|".join(KINDS) + r")(?:\s*[=:/]\s*|\s+)[\"'`]?(?:[a-z0-9][a-z0-9-]{0,62}/)?"
    r"([A-Za-z0-9][A-Za-z0-9_.-]{1,126}[A-Za-z0-9])",
    re.I,
)
"""``deployment payments``, ``pod=x``, ``Deployment shop-prod/payments`` (the namespace is not the target)."""
_GEN = "[bcdfghjklmnpqrstvwxz2456789]"
"""The alphabet of the names Kubernetes generates (no vowels): a pod's suffixes are made of it."""
POD_SUFFIX = re.compile(rf"(?:-{_GEN}{{3,10}})?-{_GEN}{{5}}$|-\d{{1,4}}$")
"""``-7d4b9c8f6-x2kq4`` (ReplicaSet hash and pod), ``-x2kq4`` (DaemonSet pod), ``-0`` (StatefulSet ordinal)."""
NOT_A_NAME = frozenset({
    "is", "are", "was", "were", "has", "have", "had", "in", "on", "of", "for", "to", "from", "with", "the", "and",
    "not", "status", "ready", "waiting", "pending", "failed", "failing", "restarts", "restarting", "replicas",
    "available", "unavailable", "rollout", "progress", "generation", "mismatch", "name", "names", "count", "that",
    "this", "prod", "production", "staging", "default", "kube-system", "namespace", "cluster",
})
MIN_TARGET = 3


def words_of(text: str) -> str:
    """CamelCase alert names split into words (``KubePodNotReady`` → ``Kube Pod Not Ready``)."""
    return _CAMEL.sub(" ", text)


def workload(name: str) -> str:
    """A pod's name without what Kubernetes generated: the workload it belongs to."""
    return POD_SUFFIX.sub("", name.lower())


_FAILED_TASK = re.compile(r"^(.*?\bfailed task\b)[^\n]*?:\s", re.I | re.M)
"""``failed task <its name> on <host>: <what went wrong>``: the name says what the task meant to do."""
_IDENTIFIER = re.compile(r"(?<![\w-])[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*[-_][A-Za-z0-9]*\d[A-Za-z0-9]*(?![\w-])|"
                         r"(?<![\w-])[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+(?![\w-])|\b[A-Za-z_][\w.-]*\s*=")
"""Names and label keys (``pg-forum-replica-2``, ``unassigned_primary_shards``, ``replicas=``): what they
spell is a name, not a status."""
_KIND_NAMES = re.compile(r"\b(?:replica|stateful|daemon)\s?set\b", re.I)


def _status_text(text: str) -> str:
    """What an alert reports: its failed task's outcome without the task's name, and no name or label key."""
    text = _FAILED_TASK.sub(r"\1: ", text)
    return _KIND_NAMES.sub(" ", words_of(_IDENTIFIER.sub(" ", text)))


@lru_cache(maxsize=1024)
def generic_status(text: str) -> str | None:
    """The status words of a generic status alert; None when the alert is not one.
    The workloads it names, other names and label keys, and a failed task's own name are left out first
    (a deployment called ``error-reporter`` is no error, a host ``pg-replica-2`` no replica count, a task
    ``Restore replicas`` no status); an error named inside an identifier (``api_error_ratio=0.2``) is one."""
    for name in of_alert(text):
        text = re.sub(re.escape(name), " ", text, flags=re.I)
    m = GENERIC_STATUS.search(_status_text(text))
    errors = words_of(text).replace("_", " ")
    return m.group(0).lower() if m and not ERROR_SIGNAL.search(errors) else None


_LABEL = re.compile(
    r"\b(?:pods?|deployment|statefulset|daemonset|replicaset|cronjob|job_name|workload|service|svc|container_name|"
    r"node|nodename|instance|host|hostname|app|app_kubernetes_io_name|pvc|persistentvolumeclaim|replicas|primary|"
    r"broker)\s*=\s*[\"']?"
    r"([A-Za-z0-9][A-Za-z0-9_.,:/-]*[A-Za-z0-9])", re.I)
"""Alert labels that name the target (``pods=a-1,a-2``, ``instance=pg-orders-1:9187``, ``node=k8s-worker-7``)."""
_TITLE_TARGET = re.compile(r"\b[A-Z][A-Za-z0-9]+(?:NotReady|Down|Pending|CrashLooping|Mismatch|Stuck|Unavailable|"
                           r"Failing|Restarting|Unhealthy)\b[^\n(]{0,20}\(\s*([a-z0-9][a-z0-9-]{2,62}[a-z0-9])\b")
"""The target Alertmanager puts first in a title's parentheses (``KubeNodeNotReady (k8s-worker-07 warning)``)."""
_NS_NAME = re.compile(r"(?<![\w./-])([a-z0-9][a-z0-9-]{1,62})/([a-z0-9][a-z0-9-]{2,62})(?![\w./-])")
"""``catalog/catalog-api``: a namespace and a workload, as alert titles write them."""
_ROLLOUT = re.compile(r"\brollouts?\s+(?:status|get|promote|abort|retry|restart|undo)\s+(?:rollouts?/)?"
                      r"([a-z0-9][a-z0-9-]{1,62}[a-z0-9])\b", re.I)
"""The Argo Rollout a command watches (``kubectl argo rollouts status pricing-api -n pricing``)."""
_ON_HOST = re.compile(r"\bfailed task .{1,200}? on ([a-z0-9][a-z0-9.-]{2,62}[a-z0-9])\s*:", re.I)
"""The host a failed task ran on (``failed task Login to vault on bastion-01: …``)."""


@lru_cache(maxsize=1024)
def of_alert(text: str) -> tuple[str, ...]:
    """The workloads and hosts the alert names, lower-cased, in order of appearance: after a kind
    (``deployment payments``), as a label's value (``pods=…``, ``instance=…``), first in a title's
    parentheses, as ``namespace/name``, or as the host a failed task ran on."""
    found: list[str] = []

    def add(raw: str) -> None:
        name = workload(raw.split(":", 1)[0])
        if len(name) >= MIN_TARGET and name not in NOT_A_NAME and not name.isdigit() and name not in found:
            found.append(name)

    text = text or ""
    for m in _TARGET.finditer(text):
        add(m.group(1))
    for m in _LABEL.finditer(text):
        for value in m.group(1).split(","):
            add(value.rsplit("/", 1)[-1])
    for pattern in (_TITLE_TARGET, _ROLLOUT, _ON_HOST):
        for m in pattern.finditer(text):
            add(m.group(1))
    for m in _NS_NAME.finditer(text):
        if not m.group(1).isdigit():
            add(m.group(2))
    return tuple(found)


@lru_cache(maxsize=64)
def _pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(n) for n in names)
    return re.compile(
        rf"(?<![A-Za-z0-9_.-])(?:{alternatives})(?:(?:-{_GEN}{{3,10}})?-{_GEN}{{5}}|-{_GEN}{{3,10}}|-\d{{1,4}})?"
        r"(?![A-Za-z0-9_-]|\.[A-Za-z0-9])",
        re.I,
    )


_NAME = r"([a-z0-9][a-z0-9-]{0,61}[a-z0-9])"
_NAMESPACE_OF = (
    re.compile(r"\bnamespace\s*(?:=|:)\s*[\"']?" + _NAME, re.I),
    re.compile(r"(?:^|\s)(?:-n|--namespace)(?:\s+|=)" + _NAME),
    re.compile(r"\bnamespaces?/" + _NAME),
)
"""Where a text names a Kubernetes namespace: ``namespace="shop"``, ``-n shop``, ``namespaces/shop``."""


def _namespaces_in(text: str, names: tuple[str, ...]) -> set[str]:
    found = {m.group(1).lower() for pattern in _NAMESPACE_OF for m in pattern.finditer(text)}
    for name in names:  # ``shop-prod/payments``, ``deployment payments in shop-prod``
        qualified = r"(?<![\w./-])" + _NAME + "/" + re.escape(name) + r"(?:-[a-z0-9]{1,10}){0,2}(?![\w-])"
        for m in re.finditer(qualified, text, re.I):
            if m.group(1).lower() not in KINDS:  # ``rs/orders-api`` names a kind, not a namespace
                found.add(m.group(1).lower())
        for m in re.finditer(r"\b" + re.escape(name) + r"\s+in\s+(?:namespace\s+)?" + _NAME + r"\b", text, re.I):
            found.add(m.group(1).lower())
    return found


@lru_cache(maxsize=1024)
def namespaces(text: str) -> tuple[str, ...]:
    """The namespaces the alert puts its targets in (``deployment payments in prod``, ``namespace=prod``,
    ``prod/payments``): an observation of a workload of the same name in another namespace is not of it."""
    return tuple(sorted(_namespaces_in(text or "", of_alert(text or ""))))


def elsewhere(alert_namespaces: tuple[str, ...], names: tuple[str, ...], *parts: Any) -> bool:
    """Does an observation place the target in a namespace the alert does not name (``-n staging`` when the
    alert is about ``prod``)? Only when both name one: an observation that names none is not elsewhere."""
    if not alert_namespaces:
        return False
    text = "\n".join(p if isinstance(p, str) else json.dumps(p, ensure_ascii=False, default=str)
                     for p in parts if p is not None)
    seen = _namespaces_in(text, names)
    return bool(seen) and not seen & set(alert_namespaces)


_WORKLOAD = re.compile(
    r"(?<![\w/.-])(?:deployment|deploy|pods?|statefulset|sts|daemonset|ds|replicaset|rs)(?:\s*[=/]\s*[\"']?|\s+)"
    r"(?:[a-z0-9][a-z0-9-]{0,62}/)?([a-z0-9][a-z0-9-]{1,126}[a-z0-9])(?![\w.])", re.I)
"""A Kubernetes workload named in an observation's text (``pod checkout-7f9…``, ``deployment=cart``)."""


def names_another(names: tuple[str, ...], text: str) -> bool:
    """The text names another workload than the targets, after its kind or as a label's value (``pod
    checkout-7f9…``, ``deployment=cart`` under a title naming ``payments``): a title's label cannot make it an
    observation of the target."""
    named = {workload(m.group(1)) for m in _WORKLOAD.finditer(text or "")}
    return any(n not in names and len(n) >= MIN_TARGET and n not in NOT_A_NAME for n in named)


def mentions(names: tuple[str, ...], *parts: Any) -> bool:
    """Does any part (title, text, value) name one of the target workloads — itself or one of its
    pods (``payments-7d4b9c8f6-q8w2x`` is ``payments``; ``payments-gateway-…`` is not)?"""
    if not names:
        return False
    pattern = _pattern(names)
    for part in parts:
        if part is None:
            continue
        text = part if isinstance(part, str) else json.dumps(part, ensure_ascii=False, default=str)
        if pattern.search(text):
            return True
    return False


_TERM = re.compile(r"[a-z][a-z0-9_-]{2,}|\d+(?:\.\d+)?%?")
RESTATES = 0.6
"""Share of an item's terms the alert holds for the item to be a restatement of it."""


_FILLER = frozenset({"the", "and", "for", "after", "from", "with", "was", "were", "has", "had", "its", "this", "that"})


def _terms(text: str) -> set[str]:
    return {t for t in _TERM.findall((text or "").lower()) if t not in _FILLER}


_FEED_LINE = re.compile(r"^\s*(?:\d{1,2}:\d{2}(?::\d{2})?\s+)?\[([A-Za-z][\w .-]{0,40})\]\s", re.M)


def fired(text: str) -> str:
    """What fired, out of the text the agent was given: in a feed of tagged lines (``14:03 [prometheus] …``)
    only the lines tagged ``[alert]``, since the others are observations (evidence, not the failure);
    otherwise the whole text."""
    tags = _FEED_LINE.findall(text)
    if len(tags) < 2 or "alert" not in {t.strip().lower() for t in tags}:
        return text
    return "\n".join(line for line in text.splitlines()
                     if (m := _FEED_LINE.match(line)) is not None and m.group(1).strip().lower() == "alert")


_OUTCOME = re.compile(r"\bfatal\b|\bunable\b|\bcannot\b|\bcan'?t\b|\bnot\b|\bno match|\bexit(?:ed|s)?\b|\bdeadline\b|"
                      r"\babort|\bkill|\bhalt|\brestart|\bback-?off\b|\btimed out\b", re.I)
"""How a run says it went wrong beyond the symptom words of the vocabulary (``fatal``, ``exited``, ``cannot``)."""
_MEASURE = re.compile(r"\d+(?:\.\d+)?\s?%|\b\d{2,}(?:\.\d+)?\b")


def _reports(alert: str, text: str) -> bool:
    """Does ``text`` report something of the failure: an error, a symptom (the vocabulary's words), a failing
    outcome or a status, or a value the alert measured (``used=94%``)? A line of configuration or a healthy
    earlier run names what the alert names but reports none of it."""
    readable = words_of(text or "")
    if ERROR_SIGNAL.search(readable) or GENERIC_STATUS.search(readable) or _OUTCOME.search(readable) or any(
            has(Concept.SYMPTOM, lemma.lemma(w)) for w in re.findall(r"[A-Za-z]+", readable)):
        return True
    measured = {m.replace(" ", "") for m in _MEASURE.findall(alert)}
    return any(m.replace(" ", "") in measured for m in _MEASURE.findall(text or ""))


def restates(alert: str, text: str, same_run: bool = False) -> bool:
    """Does ``text`` say what the alert (or a failed task) says: most of its terms, at least two, are theirs,
    and it reports a failure or status as the alert does? (``"legacy": "git://host/x.git"`` in a manifest
    shares the alert's URL and reports nothing: it is what the failure is about, not the failure.) An item of
    the failed run's own collector (``same_run``: ``task start: <the failed task>``) is the failure whatever
    it reports."""
    if not same_run and not _reports(alert, text):
        return False
    mine = _terms(text)
    if len(mine) < 2 or not alert:
        return False
    shared = mine & _terms(alert)
    return len(shared) >= 2 and len(shared) >= RESTATES * len(mine)
