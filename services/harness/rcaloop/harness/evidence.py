"""Evidence collection: the run's artifacts get ids ``E01``, ``E02`` … in a stable order.

Order: the parsed artifacts as the parser listed them (a whole step file is expanded
into its items: ``failed_tasks[i]``, ``timeline[i]``, ``github_fetches[i]`` …), then the
registry-resolved citations of the report (``msg:`` bot messages, ``code:`` files,
``rca:`` earlier RCAs), each once. Every item gets an independent **source group**;
knowledge-graph history and earlier RCAs are historical (``live=False``): context only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from rcaloop.contracts import EvidenceArtifact, ParsedRCA
from rcaloop.contracts.verdict import LedgerEvidence
from rcaloop.shared import jsonpath

HISTORICAL_GROUP = "knowledge graph"
SOURCE_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("automation platform", ("aap", "ansible", "awx", "tower", "jenkins", "step1", "job", "ci", "automation", "tekton")),
    ("log search", ("splunk", "loki", "elastic", "elasticsearch", "kibana", "opensearch", "logs", "log", "step3")),
    ("code host", ("github", "gitlab", "bitbucket", "git", "code", "step4", "repo")),
    ("metrics", ("prometheus", "grafana", "metrics", "metric", "datadog", "thanos", "alertmanager")),
    ("cluster", ("kubectl", "kubernetes", "k8s", "events", "pod", "node", "openshift", "oc")),
    ("cloud api", ("aws", "gcp", "azure", "cloudtrail", "cloud")),
    ("chat", ("chat", "slack", "msg", "message", "teams")),
    (HISTORICAL_GROUP, ("typedb", "knowledge", "history", "historical", "rca", "kg")),
)
"""First group whose keyword equals a word of the source name (``splunk-prod`` → log search)."""
_WORD = re.compile(r"[a-z0-9]+")
_TEXT_KEYS = ("event", "error", "message", "msg", "task", "path", "content", "status", "summary", "text")
MAX_TEXT = 600


@dataclass
class Evidence:
    """One evidence item: the ledger view plus what traceability needs."""

    item: LedgerEvidence
    value: Any = None
    citation: str | None = None
    origin: str = ""
    """The artifact's own source before a step file was expanded (``step3`` for a splunk event)."""
    _haystack: str | None = field(default=None, repr=False)

    @property
    def id(self) -> str:
        return self.item.id

    @property
    def live(self) -> bool:
        return self.item.live

    @property
    def group(self) -> str:
        return self.item.source_group

    def haystack(self) -> str:
        """Everything quoted text may be found in (computed once)."""
        if self._haystack is None:
            if isinstance(self.value, (dict, list)):
                self._haystack = f"{self.item.text}\n{json.dumps(self.value, ensure_ascii=False)}"
            else:
                self._haystack = self.item.text if self.value is None else f"{self.item.text}\n{self.value}"
        return self._haystack


def source_group(source: str, explicit: str | None = None) -> str:
    """The canonical group of an explicit group name, else of the source name."""
    name = (explicit or "").strip().lower() or source.strip().lower()
    if name in (group for group, _ in SOURCE_GROUPS):
        return name
    words = set(_WORD.findall(name))
    for group, keywords in SOURCE_GROUPS:
        if words.intersection(keywords):
            return group
    return name or "unknown"


def _text_of(value: Any) -> str:
    if isinstance(value, dict):
        parts = [str(value[k]) for k in _TEXT_KEYS if isinstance(value.get(k), (str, int, float))]
        text = " | ".join(parts) if parts else json.dumps(value, ensure_ascii=False, sort_keys=True)
    elif value is None:
        text = ""
    else:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text[:MAX_TEXT]


def _expand(artifact: EvidenceArtifact) -> list[tuple[EvidenceArtifact, str | None, Any]]:
    """A whole step file becomes one artifact per item of each top-level list of objects."""
    value = artifact.value
    if artifact.json_path or not isinstance(value, dict):
        return [(artifact, artifact.json_path, value)]
    items = [
        (key, i, item)
        for key, seq in value.items()
        if isinstance(seq, list)
        for i, item in enumerate(seq)
        if isinstance(item, dict)
    ]
    if not items:
        return [(artifact, None, value)]
    out = []
    for key, i, item in items:
        source = item.get("source") if isinstance(item.get("source"), str) else artifact.source
        sub = artifact.model_copy(update={"source": source, "title": artifact.title or key, "text": ""})
        out.append((sub, f"{key}[{i}]", item))
    return out


def _from_artifact(artifact: EvidenceArtifact, json_path: str | None, value: Any, origin: str) -> Evidence:
    group = source_group(artifact.source, artifact.source_group)
    live = artifact.live and group != HISTORICAL_GROUP
    return Evidence(
        LedgerEvidence(
            id="",
            source=artifact.source,
            source_group=group,
            live=live,
            target_verified=artifact.target_verified and live,
            title=artifact.title,
            text=(artifact.text or _text_of(value))[:MAX_TEXT],
            source_file=artifact.source_file,
            json_path=jsonpath.normalize(json_path),
            kind=artifact.kind,
            agent_id=artifact.id,
        ),
        value=value,
        origin=origin,
        citation=artifact.id if artifact.id and artifact.id.split(":", 1)[0] in _CITATION_SOURCES else None,
    )


_CITATION_SOURCES = {"msg": ("chat", "chat", True), "code": ("code", "code host", True), "rca": ("rca", HISTORICAL_GROUP, False)}


def _ref(kind: str, target: str) -> str:
    return target if target.startswith(f"{kind}:") else f"{kind}:{target}"


def _from_citations(parsed: ParsedRCA, seen: set[str]) -> list[Evidence]:
    out = []
    for c in parsed.citations:
        ref = _ref(c.kind, c.target)
        if not c.resolved or c.kind not in _CITATION_SOURCES or ref in seen:
            continue
        seen.add(ref)
        source, group, live = _CITATION_SOURCES[c.kind]
        item = LedgerEvidence(id="", source=source, source_group=group, live=live, title=c.label, text=ref, kind="citation")
        out.append(Evidence(item, citation=ref))
    return out


def collect(parsed: ParsedRCA) -> list[Evidence]:
    """Every evidence item of the run with its id, in the stable order described above."""
    found: list[Evidence] = []
    seen: set[tuple] = set()
    for artifact in parsed.artifacts:
        for sub, path, value in _expand(artifact):
            ev = _from_artifact(sub, path, value, artifact.source)
            key = (ev.item.source, ev.item.source_file, ev.item.json_path, ev.item.text, ev.item.agent_id)
            if key not in seen:
                seen.add(key)
                found.append(ev)
    found.extend(_from_citations(parsed, {ev.citation for ev in found if ev.citation}))
    width = max(2, len(str(len(found))))
    for n, ev in enumerate(found, 1):
        ev.item.id = f"E{n:0{width}d}"
    return found
