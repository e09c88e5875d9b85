"""Evidence collection: the run's artifacts get ids ``E01``, ``E02`` … and a provenance.

Order: the parsed artifacts as the parser listed them (a whole step file is expanded into
its items: ``failed_tasks[i]``, ``timeline[i]``, ``github_fetches[i]`` …), then the
registry-resolved citations of the report (``msg:`` bot messages, ``code:`` files,
``rca:`` earlier RCAs), each once.

Provenance comes from the artifact, never from the labels an agent put on it:

* the **source group** is the telemetry plane of the artifact's collector (``source``):
  every item of one collector is one group, whatever ``source_group`` it is labelled with,
  and collectors rcaloop does not recognise are in the group ``unrecognized``, which adds
  no independent source group (independence that can't be shown is not assumed);
* an item is **historical** (context only, never grounding) when its collector is the
  knowledge store, earlier RCAs or a document, ticket or search store (wiki, postmortems,
  tickets, runbooks, vector search, an agent's memory), its kind says history or one of
  those (or it is a person's chat message), an item of a collector that watches no running
  system names an earlier incident (``inc-1877``), the agent says it is not live, or it was
  observed long before the incident started (or, when the output gives no start, before
  its latest observation) — a ``live: true`` label changes none of that;
* an item is **target-verified** when it is a live observation of a plane that watches
  running systems and it names the alert's own target (see ``alert``);
* an item is a **symptom** — the failure being explained, which supports the cause but adds
  no source group — when it is the alert (its kind or collector says so) or restates it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

from rcaloop.contracts import EvidenceArtifact, ParsedRCA
from rcaloop.contracts.verdict import LedgerEvidence
from rcaloop.judge import alert
from rcaloop.shared import jsonpath

HISTORICAL_GROUP = "knowledge graph"
STRONG_HISTORY = frozenset({
    "typedb", "knowledge", "kg", "rca", "confluence", "jira", "wiki", "notion", "runbook", "postmortem", "servicenow",
    "zendesk", "sharepoint", "pinecone", "weaviate", "qdrant", "chroma", "chromadb", "milvus", "faiss", "vectorstore",
    "vectordb", "kb", "mem0", "pgvector", "vectorsearch",
})
"""Collector words that always mean the knowledge store, earlier RCAs or a document, ticket or
vector store, whatever else the name says: what they return was written before this run."""
VECTOR = "vector"
VECTOR_SEARCH_WORDS = frozenset({
    "search", "store", "db", "index", "embedding", "embeddings", "similar", "similarity", "retrieval", "rag", "knn",
    "semantic", "neighbor", "neighbors", "hit", "hits", "match", "matches", "result", "results",
})
"""``vector`` alone is a log pipeline (Vector); beside one of these words it is a vector search
over documents (``vector-search``, ``vector_store``, ``vector similarity``): history, like the stores above."""
UNRECOGNIZED_GROUP = "unrecognized"
CHAT_GROUP = "chat"
UNCOUNTED_GROUPS = frozenset({UNRECOGNIZED_GROUP, CHAT_GROUP})
"""Groups that never count as an independent source group: a collector rcaloop does not
recognise may be a copy of another, or of no running system at all, and a chat message relays
what some other collector saw, which the run does not hold (fail closed); the artifacts a
message quotes count under their own collectors."""
RUN_GROUP = "automation platform"
"""The collector of a failed job's own run: its items about the failed task are the failure."""
SIGNATURE_GROUP = "signature matcher"
"""The collector that matches known failure signatures: only its items confirm one."""
SOURCE_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (HISTORICAL_GROUP, (*sorted(STRONG_HISTORY), "history", "historical", "past", "prior", "similar", "ticket",
                        "incident", "postmortems", "runbooks", "playbook", "docs", "doc", "document", "documents",
                        "memory", "embedding", "embeddings", "retrospective", "retro", "notes", "llm")),
    # ^ its weaker words (history, past …) yield to a plane word: `kubectl rollout history` is the cluster
    (RUN_GROUP, ("aap", "ansible", "awx", "tower", "jenkins", "step1", "job", "ci", "automation", "tekton",
                             "buildkite", "circleci", "actions")),
    ("log search", ("splunk", "loki", "elastic", "elasticsearch", "kibana", "opensearch", "logs", "log", "step3",
                    "graylog", "journald", "journalctl", "syslog", "fluentd", "fluent", "fluentbit", "stackdriver",
                    "logql", "logging", "sumologic", "sumo", "vector", "logstash", "papertrail", "loggly", "logdna",
                    "mezmo", "coralogix", "humio", "logscale", "logz", "logzio", "scalyr", "victorialogs")),
    ("code host", ("github", "gitlab", "bitbucket", "git", "code", "step4", "repo")),
    ("metrics", ("prometheus", "grafana", "metrics", "metric", "datadog", "thanos", "mimir", "victoriametrics",
                 "victoria", "cortex", "alertmanager", "cloudwatch", "promql", "influxdb", "influx", "telegraf",
                 "graphite", "statsd", "dynatrace", "appdynamics", "appd", "signoz", "instana", "wavefront",
                 "chronosphere", "m3", "m3db", "opentsdb", "zabbix", "nagios", "icinga", "checkmk", "netdata",
                 "collectd", "sysdig")),
    ("cluster", ("kubectl", "kubernetes", "k8s", "events", "pod", "node", "openshift", "oc", "kube", "kubelet")),
    ("deploys", ("argocd", "argo", "flux", "fluxcd", "spinnaker", "helm", "deploy", "deploys", "rollout", "release",
                 "change", "changes", "octopus", "codedeploy", "terraform", "launchdarkly")),
    ("tracing", ("jaeger", "tempo", "zipkin", "tracing", "traces", "trace", "apm", "sentry", "newrelic", "honeycomb",
                 "otel", "opentelemetry", "lightstep", "skywalking", "xray")),
    ("profiles", ("pyroscope", "parca", "pprof", "profiler", "profiling", "profile", "profiles")),
    ("database", ("postgres", "postgresql", "psql", "mysql", "pg", "database", "db", "mongo", "sql", "pgbouncer",
                  "pgcat", "proxysql", "redis", "memcached", "elasticache", "rds", "mongodb", "mongosh", "mariadb",
                  "cassandra", "nodetool", "cockroach", "cockroachdb", "clickhouse", "dynamodb", "kafka", "rabbitmq",
                  "rabbitmqctl", "nats", "orchestrator", "vitess", "patroni")),
    ("network", ("dns", "dig", "ping", "traceroute", "blackbox", "network", "tcpdump", "synthetics", "probe", "istio",
                 "envoy", "linkerd", "haproxy", "nginx", "cilium", "hubble", "netbox", "ris", "ripestat", "bgp")),
    ("cloud api", ("aws", "gcp", "azure", "cloudtrail", "cloud", "gcloud", "az", "s3", "ssm", "entra", "vcenter",
                   "vsphere", "cloudflare")),
    ("secrets manager", ("vault", "kms", "secretsmanager", "keyvault")),
    ("host", ("ssh", "host", "shell", "procfs", "sysctl", "dmesg", "filesystem", "windbg")),
    ("package registry", ("pypi", "npm", "npmjs", "registry", "crates", "maven", "rubygems", "dockerhub", "ghcr",
                          "quay", "artifactory", "nexus", "package", "packages", "goproxy", "nuget")),
    ("provider status", ("statuspage", "status", "statusio", "githubstatus", "health-dashboard", "servicehealth")),
    # ^ a vendor's own statement of its outage: another organisation's observation, last so a plane word wins
    (SIGNATURE_GROUP, ("signature", "signatures", "matcher", "sigmatch")),
    ("chat", ("chat", "slack", "msg", "message", "teams")),
)
"""The first group (in this order) one of whose names is a word of the collector's name
(``splunk-prod`` → log search). The knowledge store's own names (``STRONG_HISTORY``, and
``vector`` beside a search word) win over every other word; its weaker words (history, past,
similar …) only when no plane is named. Service state read from a data store, pooler or broker
(``pgbouncer SHOW POOLS``, ``redis-cli INFO``, ``kafka-consumer-groups``) is the database plane."""
SYMPTOM_KINDS = frozenset({"alert", "symptom", "failed_task"})
ALERT_COLLECTORS = frozenset({"alertmanager", "pagerduty", "opsgenie"})
SIGNAL_WORDS: tuple[tuple[str, frozenset[str]], ...] = (
    ("log search", frozenset({"logs", "log", "logging"})),
    ("tracing", frozenset({"traces", "trace", "tracing", "spans", "span", "apm"})),
    ("profiles", frozenset({"profiles", "profile", "profiling", "profiler"})),
    ("metrics", frozenset({"metrics", "metric"})),
)
"""A word naming the kind of telemetry wins over the vendor's name: a vendor serving several
planes (``signoz-traces``, ``dynatrace logs``, ``grafana tempo traces``) is in the plane it says."""
OBSERVING_GROUPS = frozenset({
    "log search", "metrics", "cluster", "tracing", "profiles", "database", "network", "cloud api",
})
"""Planes that observe running systems: only they can verify the alert's own target."""
_KIND_SEP = re.compile(r"[\s\-./:]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def kind_of(kind: str) -> str:
    """An artifact kind as one spelling: lower case, ``_`` between words, no plural ``s``
    (``Counter-evidence`` → ``counter_evidence``, ``Past incidents`` → ``past_incident``,
    ``VectorSearch`` → ``vector_search``)."""
    words = _KIND_SEP.sub("_", _CAMEL.sub("_", kind.strip()).lower()).strip("_").split("_")
    return "_".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words if w)


def kind_words(kind: str) -> frozenset[str]:
    """The words of a normalised kind (``similar_past_incident`` → similar, past, incident)."""
    return frozenset(kind_of(kind).split("_"))


def kinds(*names: str) -> frozenset[str]:
    return frozenset(kind_of(n) for n in names)


HISTORY_KINDS = kinds("history", "historical", "past_incident", "similar_incident", "prior_rca", "knowledge",
                      "other_run",
                      "postmortem", "post_mortem", "ticket", "jira_ticket", "support_ticket", "incident_ticket",
                      "runbook", "wiki", "similar", "memory", "agent_memory", "llm_memory", "vector", "vector_search",
                      "knowledge_base", "doc", "document", "documentation", "retrospective", "incident_report",
                      "earlier_incident", "previous_incident", "prior_incident")
"""Kinds that are history: context only. ``other_run``: a step file of another job."""
HISTORY_KIND_WORDS = frozenset({
    "past", "similar", "postmortem", "mortem", "runbook", "playbook", "wiki", "embedding", "knowledge", "kb",
    "retrospective", "rca", "confluence", "jira",
})
"""A kind with one of these words is history too (``similar_past_incident``, ``PostMortemNote``;
``vector`` beside a search word: ``vector_search_hit``): a document or search result was written
before this run. Words a live observation also uses (history, memory, ticket, vector …) count
only as the whole kind."""
CONTEXT_KINDS = kinds("human_message")
"""Kinds that are never evidence: a person's chat message says what someone thought, not what a system did."""
HISTORY_LOOKBACK = timedelta(days=7)
"""Observed more than this long before the incident started: history, not this run."""
_WORD = re.compile(r"[a-z0-9]+")
INCIDENT_ID = re.compile(r"\b(?:inc(?:ident)?)[-_ #]?(\d{3,})\b", re.I)
"""An incident id (``inc-1877``, ``INC0012345``, ``incident #1877``)."""
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
                self._haystack = f"{self.item.title}\n{self.item.text}\n{json.dumps(self.value, ensure_ascii=False)}"
            else:
                extra = "" if self.value is None else f"\n{self.value}"
                self._haystack = f"{self.item.title}\n{self.item.text}{extra}"
        return self._haystack


@lru_cache(maxsize=1024)
def source_group(collector: str) -> str:
    """The telemetry plane of a collector name; ``unrecognized`` when rcaloop knows none of its words."""
    name = collector.strip().lower()
    if name in (group for group, _ in SOURCE_GROUPS):
        return name
    words = set(_WORD.findall(name))
    words |= {w[:-1] for w in words if len(w) > 3 and w.endswith("s")}  # "probes" is a probe
    if words & STRONG_HISTORY or (VECTOR in words and words & VECTOR_SEARCH_WORDS):
        return HISTORICAL_GROUP
    planes = [group for group, signal in SIGNAL_WORDS if words & signal]
    planes += [group for group, keywords in SOURCE_GROUPS[1:] if words.intersection(keywords)]
    if planes:
        return planes[0]
    return HISTORICAL_GROUP if words.intersection(SOURCE_GROUPS[0][1]) else UNRECOGNIZED_GROUP


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
    out: list[tuple[EvidenceArtifact, str | None, Any]] = []
    for key, i, item in items:
        source = item.get("source") if isinstance(item.get("source"), str) else artifact.source
        sub = artifact.model_copy(update={"source": source, "title": artifact.title or key, "text": ""})
        out.append((sub, f"{key}[{i}]", item))
    return out


def utc(when: datetime | None) -> datetime | None:
    """A time without a zone is read as UTC (the zone can't switch a rule off)."""
    return when.replace(tzinfo=UTC) if when is not None and when.tzinfo is None else when


OTHER_CODE = "cites code at a project or commit other than the one RCA_FIELDS says was analysed: context only"


def _history_reason(artifact: EvidenceArtifact, group: str, run: _Run) -> str | None:
    """Why this item is history or context, not evidence of this run (None when it is live)."""
    reference = run.reference
    kind = kind_of(artifact.kind)
    if (artifact.id or "").startswith("code:") and not _analysed_code(artifact.id or "", run.parsed):
        return OTHER_CODE
    if group == HISTORICAL_GROUP:
        return (f"collector {artifact.source!r} is the knowledge store, earlier RCAs or a document, ticket or "
                "search store")
    words = kind_words(artifact.kind)
    if kind in HISTORY_KINDS or words & HISTORY_KIND_WORDS or (VECTOR in words and words & VECTOR_SEARCH_WORDS):
        return f"kind {artifact.kind!r} is history"
    if kind in CONTEXT_KINDS:
        return f"kind {artifact.kind!r} is context, not evidence"
    if not artifact.live:
        return "the agent marked it not live"
    if group not in OBSERVING_GROUPS and (other := _earlier_incident(artifact, run)):
        return f"it names an earlier incident ({other}), and its collector watches no running system"
    seen = utc(artifact.observed_at)
    if reference is not None and seen is not None and seen < reference - HISTORY_LOOKBACK:
        return f"observed {(reference - seen).days} days before the incident"
    return None


def _earlier_incident(artifact: EvidenceArtifact, run: _Run) -> str | None:
    """An incident id the item names that is not this run's own."""
    text = f"{artifact.title}\n{artifact.text or ''}"
    if "nc" not in text.lower():
        return None
    for m in INCIDENT_ID.finditer(text):
        if m.group(1) not in run.own_ids:
            return m.group(0)
    return None


def _note(artifact: EvidenceArtifact, group: str, history: str | None, verified: bool) -> str | None:
    notes = []
    claimed = (artifact.source_group or "").strip()
    if claimed and source_group(claimed) != group:
        notes.append(f"labelled source_group {claimed!r}, but its collector {artifact.source!r} is {group}")
    if history and artifact.live:
        notes.append(f"labelled live, but {history}: context only")
    if artifact.target_verified and not verified:
        notes.append("labelled target_verified, but it is not a live observation naming the alert's target")
    return "; ".join(notes) or None


def _from_artifact(
    artifact: EvidenceArtifact, json_path: str | None, value: Any, origin: str, run: _Run
) -> Evidence:
    group = source_group(artifact.source)
    history = _history_reason(artifact, group, run)
    text = (artifact.text or _text_of(value))[:MAX_TEXT]
    verified = (
        history is None
        and group in OBSERVING_GROUPS
        and (alert.mentions(run.targets, text, value)
             or (alert.mentions(run.targets, artifact.title) and not alert.names_another(run.targets, text)))
        and not alert.elsewhere(run.namespaces, run.targets, artifact.title, text, value)
    )
    symptom = (
        kind_of(artifact.kind) in SYMPTOM_KINDS
        or artifact.source.strip().lower() in ALERT_COLLECTORS
        or alert.restates(run.alert, text, same_run=group == RUN_GROUP)
    )
    return Evidence(
        LedgerEvidence(
            id="",
            source=artifact.source,
            source_group=group,
            live=history is None,
            target_verified=verified,
            title=artifact.title,
            text=text,
            source_file=artifact.source_file,
            json_path=jsonpath.normalize(json_path),
            kind=artifact.kind,
            agent_id=artifact.id,
            collector=artifact.source,
            symptom=symptom,
            provenance_note=_note(artifact, group, history, verified),
            observed_at=utc(artifact.observed_at),
            resolved=True,
        ),
        value=value,
        origin=origin,
        citation=artifact.id if artifact.id and artifact.id.split(":", 1)[0] in _CITATION_SOURCES else None,
    )


_CITATION_SOURCES = {"msg": ("chat", "chat", True), "code": ("code", "code host", True),
                     "rca": ("rca", HISTORICAL_GROUP, False)}


def _ref(kind: str, target: str) -> str:
    return target if target.startswith(f"{kind}:") else f"{kind}:{target}"


_CODE_REF = re.compile(r"code:([^@/\s]+)@([0-9A-Za-z]+)/")


def _analysed_code(ref: str, parsed: ParsedRCA) -> bool:
    """A ``code:`` citation is of this run only at the project and commit the output says it analysed."""
    m = _CODE_REF.match(ref)
    repo, commit = parsed.fields.repo, parsed.fields.commit
    if m is None or not repo or not commit or repo == "none" or commit == "none":
        return False
    return m.group(1) == repo and (m.group(2).startswith(commit) or commit.startswith(m.group(2)))


def _from_citations(parsed: ParsedRCA, seen: set[str]) -> list[Evidence]:
    out = []
    for c in parsed.citations:
        ref = _ref(c.kind, c.target)
        if not c.resolved or c.kind not in _CITATION_SOURCES or ref in seen:
            continue
        seen.add(ref)
        source, group, live = _CITATION_SOURCES[c.kind]
        note = None
        if c.kind == "code" and not _analysed_code(ref, parsed):
            live, note = False, OTHER_CODE
        item = LedgerEvidence(id="", source=source, source_group=group, live=live, title=c.label, text=ref,
                              kind="citation", collector=source, provenance_note=note, resolved=True)
        out.append(Evidence(item, citation=ref))
    return out


@dataclass(frozen=True)
class _Run:
    reference: datetime | None
    """When the incident started; when the output does not say, its latest observation."""
    targets: tuple[str, ...]
    namespaces: tuple[str, ...]
    """The namespaces the alert puts its targets in."""
    alert: str
    """The alert and the failed tasks: what an item restating them is a symptom of."""
    parsed: ParsedRCA
    own_ids: frozenset[str] = frozenset()
    """The numbers of the incident ids the run itself names (its id, the alert): not earlier incidents."""


def _own_ids(parsed: ParsedRCA) -> frozenset[str]:
    text = " ".join(t for t in (parsed.result_id, parsed.job_id, parsed.alert_text, parsed.title) if t)
    return frozenset(m.group(1) for m in INCIDENT_ID.finditer(text))


def _reference(parsed: ParsedRCA) -> datetime | None:
    if parsed.incident_started_at is not None:
        return utc(parsed.incident_started_at)
    seen = [when for a in parsed.artifacts if (when := utc(a.observed_at)) is not None]
    return max(seen) if seen else None


def collect(parsed: ParsedRCA) -> list[Evidence]:
    """Every evidence item of the run with its id, in the stable order described above."""
    failure = "\n".join(
        [alert.fired(parsed.alert_text or "")]
        + [f"{a.text}\n{json.dumps(a.value, default=str)}" for a in parsed.artifacts
           if kind_of(a.kind) in SYMPTOM_KINDS]
    )
    said = parsed.alert_text or ""
    run = _Run(_reference(parsed), alert.of_alert(said), alert.namespaces(said), failure, parsed, _own_ids(parsed))
    found: list[Evidence] = []
    seen: set[tuple] = set()
    for artifact in parsed.artifacts:
        for sub, path, value in _expand(artifact):
            ev = _from_artifact(sub, path, value, artifact.source, run)
            key = (ev.item.source, ev.item.source_file, ev.item.json_path, ev.item.text, ev.item.agent_id)
            if key not in seen:
                seen.add(key)
                found.append(ev)
    found.extend(_from_citations(parsed, {ev.citation for ev in found if ev.citation}))
    width = max(2, len(str(len(found))))
    for n, ev in enumerate(found, 1):
        ev.item.id = f"E{n:0{width}d}"
    return found
