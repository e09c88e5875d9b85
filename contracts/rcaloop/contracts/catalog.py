"""The family catalog: root-cause families and the observable signatures that support or refute them.

A *family* is a kind of root cause (``oom_kill``, ``image_pull_failure``, ``db_pool_exhaustion``).
Its *signatures* are what an observation shows when the family is, or is not, at work — a
Kubernetes event reason or container state, a process exit code, a log pattern, a metric with
a condition. A signature under ``supports`` is evidence for the family; one under ``refutes``
shows its mechanism did not happen (a container that ran was not stuck pulling its image).
*Probe templates* are the read-only checks that would confirm a family.

The catalog is versioned knowledge: the bundled default ships with rcaloop, a new version is
proposed, decided (approve, shadow, activate) and announced on ``knowledge.events`` like any
knowledge package, and the harness judges against the active one.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, StringConstraints, model_validator

from rcaloop.contracts.common import Category

SignatureKind = Literal["event_reason", "container_state", "exit_code", "log_pattern", "metric"]
Stance = Literal["supports", "refutes"]
Comparison = Literal[">", ">=", "<", "<=", "==", "!="]

FamilyName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{1,63}$")]
"""Lower-case words joined by ``_``: the name agents and reviewers write (``oom_kill``)."""
CamelToken = Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Za-z]{2,63}$")]
"""A Kubernetes reason as the API spells it: one CamelCase word (``OOMKilled``, ``FailedScheduling``)."""
MetricName = Annotated[str, StringConstraints(pattern=r"^[a-zA-Z_:][a-zA-Z0-9_:]{2,127}$")]
LabelName = Annotated[str, StringConstraints(pattern=r"^[a-zA-Z_][a-zA-Z0-9_]{0,63}$")]
TemplateId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_.-]{2,63}$")]
CatalogVersion = Annotated[str, StringConstraints(pattern=r"^[0-9A-Za-z][0-9A-Za-z._+-]{0,63}$")]


class _Strict(BaseModel):
    """Catalog data is reviewed knowledge: an unknown key is a typo, refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class _Signature(_Strict):
    note: str | None = Field(default=None, max_length=300, description="why it supports or refutes the family")


class EventReason(_Signature):
    """A Kubernetes event ``reason`` (``kubectl get events``), matched as a whole word, case as written."""

    kind: Literal["event_reason"] = "event_reason"
    reason: CamelToken

    @property
    def key(self) -> str:
        return f"event_reason:{self.reason}"


class ContainerState(_Signature):
    """A container's waiting or terminated ``reason`` (``state`` / ``lastState`` in the pod status)."""

    kind: Literal["container_state"] = "container_state"
    state: CamelToken

    @property
    def key(self) -> str:
        return f"container_state:{self.state}"


class ExitCode(_Signature):
    """A process exit code, matched only where the text says it is one (``exit code 137``, ``exitCode: 137``)."""

    kind: Literal["exit_code"] = "exit_code"
    code: int = Field(ge=0, le=255)

    @property
    def key(self) -> str:
        return f"exit_code:{self.code}"


class LogPattern(_Signature):
    """A log line's text: a plain substring (preferred), or with ``regex`` an RE2 regular expression
    (linear time: no backreferences or lookaround). Case-insensitive unless ``case_sensitive``."""

    kind: Literal["log_pattern"] = "log_pattern"
    pattern: str = Field(min_length=4, max_length=200)
    regex: bool = False
    case_sensitive: bool = False

    @property
    def key(self) -> str:
        return f"log_pattern:{'re:' if self.regex else ''}{self.pattern}"


class Metric(_Signature):
    """A metric sample with a condition: ``name{labels} <op> threshold`` (Prometheus exposition or a
    query result quoted in the evidence). ``labels`` must all be present on the sample."""

    kind: Literal["metric"] = "metric"
    name: MetricName
    labels: dict[LabelName, str] = Field(default_factory=dict)
    op: Comparison
    threshold: float

    @property
    def key(self) -> str:
        labels = ",".join(f'{k}="{v}"' for k, v in sorted(self.labels.items()))
        return f"metric:{self.name}{'{' + labels + '}' if labels else ''}{self.op}{self.threshold:.15g}"


Signature = Annotated[EventReason | ContainerState | ExitCode | LogPattern | Metric, Field(discriminator="kind")]


class Source(_Strict):
    """A public reference the family's signatures are taken from."""

    title: str = Field(min_length=3, max_length=200)
    url: str = Field(pattern=r"^https://[^\s]+$", max_length=300)


class ProbeTemplate(_Strict):
    """A read-only check that would confirm (or rule out) families: what to run and what it reads."""

    probe_template_id: TemplateId
    collector: str = Field(min_length=2, max_length=40,
                           description="the tool that runs it: kubectl, prometheus, psql …")
    plane: str = Field(min_length=2, max_length=40, description="what it reads: events, state, metrics, logs, config")
    command: str = Field(min_length=4, max_length=400, description="read-only; {placeholders} name what to fill in")


class Family(_Strict):
    name: FamilyName
    category: Category
    title: str = Field(min_length=3, max_length=120)
    summary: str = Field(min_length=10, max_length=600)
    aliases: list[FamilyName] = Field(default_factory=list, description="other names agents give it")
    supports: list[Signature] = Field(min_length=1)
    refutes: list[Signature] = Field(default_factory=list)
    probe_template_ids: list[TemplateId] = Field(default_factory=list, description="probes that would confirm it")
    sources: list[Source] = Field(min_length=1)

    @model_validator(mode="after")
    def _one_stance_per_signature(self) -> Family:
        supports, refutes = [s.key for s in self.supports], [s.key for s in self.refutes]
        both = sorted(set(supports) & set(refutes))
        if both:
            raise ValueError(f"family {self.name}: {', '.join(both)} both supports and refutes it")
        for stance, keys in (("supports", supports), ("refutes", refutes)):
            if len(set(keys)) != len(keys):
                raise ValueError(f"family {self.name}: a signature is listed twice under {stance}")
        return self


class FamilyCatalog(_Strict):
    """A versioned set of families; ``version`` names one content (a changed catalog gets a new version)."""

    version: CatalogVersion
    families: list[Family] = Field(min_length=1)
    probes: list[ProbeTemplate] = Field(default_factory=list)
    _digest: str | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _names_and_references_resolve(self) -> FamilyCatalog:
        names: dict[str, str] = {}
        for family in self.families:
            for name in (family.name, *family.aliases):
                if name in names:
                    raise ValueError(f"{name!r} names both {names[name]} and {family.name}")
                names[name] = family.name
        probe_ids = [p.probe_template_id for p in self.probes]
        if len(set(probe_ids)) != len(probe_ids):
            raise ValueError("a probe template id is listed twice")
        for family in self.families:
            unknown = sorted(set(family.probe_template_ids) - set(probe_ids))
            if unknown:
                raise ValueError(f"family {family.name} names unknown probe templates: {', '.join(unknown)}")
        return self

    def family(self, name: str) -> Family | None:
        """The family by its name or an alias (case, spaces and dashes as ``_``)."""
        wanted = "_".join(name.strip().casefold().replace("-", " ").split())
        return next((f for f in self.families if wanted == f.name or wanted in f.aliases), None)

    def digest(self) -> str:
        """SHA-256 of the content: tells two catalogs of one version apart (computed once)."""
        if self._digest is None:
            self._digest = hashlib.sha256(self.model_dump_json().encode()).hexdigest()
        return self._digest

    def __eq__(self, other: object) -> bool:
        """Equal content is an equal catalog (whether or not its digest was computed yet)."""
        return isinstance(other, FamilyCatalog) and self.digest() == other.digest()

    def __hash__(self) -> int:
        return hash(self.digest())
