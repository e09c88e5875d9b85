"""What an evidence item can show, read from the items themselves: their content, scope and time.

Three findings, each judged on the run's artifacts, never on an agent's labels:

* **one source once**: the same content under two collectors (one log line shipped to two
  backends, the alert re-read from its metric) is one observation, so it adds one source group;
* **other target**: an item about another environment or region than the alert's (``staging``
  for a ``prod`` alert, ``eu-central-1`` for ``us-east-1``) says nothing of the alert's own target,
  so it supports no claim about it;
* **after the fact**: an event dated after the failed job ended, an observation stamped after rcaloop
  received the output (it did not exist when the output was written), or a change made after the incident
  started cannot be the cause of what came before it.

An identifier alone (a commit SHA, a digest, a version) shows what runs, not that it fails: it supports
nothing either. Pure: a function of the draft's evidence and the parsed output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from rcaloop.contracts import ParsedRCA
from rcaloop.judge.evidence import Evidence, kind_of, kinds, utc

PROD = frozenset({"prod", "production", "prd", "live"})
NON_PROD = frozenset({"staging", "stage", "stg", "dev", "development", "qa", "test", "testing", "sandbox", "preprod",
                      "uat", "nonprod"})
_REGION = re.compile(r"\b(?:us|eu|ap|sa|ca|me|af|il|mx)-(?:north|south|east|west|central|northeast|southeast|"
                     r"northwest|southwest)-\d\b|\b(?:us|europe|asia|australia|southamerica|northamerica)-[a-z]+\d\b",
                     re.I)
_WORD = re.compile(r"[a-z0-9]+")
_IDENTIFIER_ONLY = re.compile(
    r"^\s*(?:[0-9a-f]{7,64}|sha256:[0-9a-f]{12,64}|v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?|[\w.-]+[:@](?:v?\d+(?:\.\d+){1,3}"
    r"[\w.-]*|sha256:[0-9a-f]{12,64})|#?\d{3,})\s*$", re.I)
"""A value that only names something (a commit, an image digest or tag, a version, a number)."""
_NOISE = re.compile(r"\b\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?z?\b|\b\d{2}:\d{2}:\d{2}(?:\.\d+)?\b",
                    re.I)
MIN_SAME = 32
"""Content this long (normalised) that two items share makes them one observation."""
LATE = timedelta(minutes=10)
"""How long after the job ended an event may be stamped (clocks drift, logs flush) before it is after the fact."""


@dataclass
class Findings:
    """Items that support nothing, or add no source group of their own, and why (by harness evidence id)."""

    unsupporting: dict[str, str] = field(default_factory=dict)
    """Items that support no claim: another target, after the fact, an identifier alone."""
    duplicates: dict[str, str] = field(default_factory=dict)
    """An item → the earlier item with the same content (it adds no source group)."""


def read(parsed: ParsedRCA, evidence: list[Evidence]) -> Findings:
    out = Findings()
    scope = _scope(parsed.alert_text or "")
    ended, received, started = (utc(when) for when in (parsed.incident_ended_at, parsed.received_at,
                                                       parsed.incident_started_at))
    seen: dict[str, str] = {}
    for ev in evidence:
        text = f"{ev.item.title}\n{ev.item.text}"
        why = (_other_target(scope, text) or _after_the_fact(ev, ended) or _not_yet(ev, received)
               or _changed_later(ev, started) or _identifier_only(ev))
        if why:
            out.unsupporting[ev.id] = why
        key = _content(ev)
        if key and ev.citation is None:
            first = next(
                (eid for k, eid in seen.items() if key == k or (len(k) >= MIN_SAME and (key in k or k in key))),
                         None)
            if first is not None:
                out.duplicates[ev.id] = first
            else:
                seen[key] = ev.id
    return out


@dataclass(frozen=True)
class _Scope:
    envs: frozenset[str]
    regions: frozenset[str]


def _envs(text: str) -> frozenset[str]:
    words = set(_WORD.findall(text.lower()))
    return frozenset(({"prod"} if words & PROD else set()) | ({"non-prod"} if words & NON_PROD else set()))


def _scope(text: str) -> _Scope:
    return _Scope(_envs(text), frozenset(m.group(0).lower() for m in _REGION.finditer(text)))


def _other_target(scope: _Scope, text: str) -> str | None:
    """The item is about another environment or region than the alert's, and not about the alert's own."""
    envs = _envs(text)
    if len(scope.envs) == 1 and envs and not envs & scope.envs:
        return f"it is about {', '.join(sorted(envs))}, the alert about {', '.join(sorted(scope.envs))}: another target"
    regions = frozenset(m.group(0).lower() for m in _REGION.finditer(text))
    if scope.regions and regions and not regions & scope.regions:
        return f"it is about {', '.join(sorted(regions))}, the alert about {', '.join(sorted(scope.regions))}"
    return None


def _event_time(ev: Evidence) -> datetime | None:
    value = ev.value if isinstance(ev.value, dict) else {}
    for key in ("time", "timestamp", "ts", "at", "observed_at"):
        when = _time(value.get(key))
        if when is not None:
            return when
    return None


def _after_the_fact(ev: Evidence, ended: datetime | None) -> str | None:
    when = _event_time(ev)
    if ended is None or when is None or when <= ended + LATE:
        return None
    return f"dated {when.isoformat()}, after the job ended ({ended.isoformat()}): it cannot have caused the failure"


CHANGE_KINDS = kinds("change", "deploy", "deployment", "rollout", "release", "commit", "config_change", "merge",
                     "upgrade", "migration")
"""Kinds of item whose time is when a change was made (not when someone looked)."""


def _stamped(ev: Evidence) -> datetime | None:
    return _event_time(ev) or ev.item.observed_at  # the ledger's time is in UTC already


def _not_yet(ev: Evidence, received: datetime | None) -> str | None:
    """Stamped after rcaloop received the output: it did not exist when the output was written."""
    when = _stamped(ev)
    if received is None or when is None or when <= received + LATE:
        return None
    return f"dated {when.isoformat()}, after the output was received ({received.isoformat()}): it did not exist yet"


def _changed_later(ev: Evidence, started: datetime | None) -> str | None:
    """A change made after the incident started cannot have caused it (a later change may be its mitigation)."""
    when = _stamped(ev)
    if started is None or when is None or kind_of(ev.item.kind or "") not in CHANGE_KINDS or when <= started + LATE:
        return None
    return (f"a change at {when.isoformat()}, after the incident started ({started.isoformat()}): "
            "it cannot have caused it")


def identifier_only(value: Any) -> bool:
    """A cited value that only names something (``5e2a9f1``, ``sha256:…``, ``v4.12.0``, ``payments-api:4.12.0``)."""
    return isinstance(value, str) and bool(_IDENTIFIER_ONLY.match(value))


def _identifier_only(ev: Evidence) -> str | None:
    """A field that holds only an identifier (``github_fetches[0].commit``, an image digest)."""
    value = ev.value
    if isinstance(value, str) and _IDENTIFIER_ONLY.match(value):
        return "it holds only an identifier (a commit, digest or version): it shows what runs, not that it fails"
    text = (ev.item.text or "").strip()
    if text and _IDENTIFIER_ONLY.match(text) and not ev.item.title.strip():
        return "it holds only an identifier: it shows what runs, not that it fails"
    return None


def _content(ev: Evidence) -> str:
    """The item's content without timestamps and collector framing: what two copies of one line share."""
    text = ev.item.text or ""
    if not text and isinstance(ev.value, dict):
        text = " ".join(str(v) for k, v in ev.value.items() if isinstance(v, str) and k not in ("source", "time"))
    text = _NOISE.sub(" ", text.lower())
    return " ".join(_WORD.findall(text)) if len(text) >= MIN_SAME else ""


def _time(value: Any) -> datetime | None:
    if not isinstance(value, str) or len(value) < 10:
        return None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)
