"""Every TypeQL query the TypeDB store sends, built here from values (pure).

The TypeDB adapter holds no query text of its own: it calls these builders and runs what
they return, so a test can parse every query the adapter can emit with the official
TypeQL 3 parser. Values are written as literals: strings with ``"``, ``\\`` and every
control character escaped (``\\uXXXX``, which the server decodes back), so two keys that
differ only in a control character stay two keys. (The driver's ``given`` rows would
pass values as parameters, but servers before 3.12 and the TypeQL 3.11 parser the
queries are checked with do not know that stage.)
"""

from __future__ import annotations

import math
from datetime import datetime
from importlib.resources import files

from rcaloop.knowledge import graph

SCHEMA = files("rcaloop.knowledge").joinpath("schema.tql").read_text(encoding="utf-8")


# -- values --------------------------------------------------------------------------------------------
def _escape(ch: str) -> str:
    code = ord(ch)
    if ch in '"\\':
        return "\\" + ch
    if code < 0x20 or 0x7F <= code <= 0x9F:
        return f"\\u{code:04x}"
    if 0xD800 <= code <= 0xDFFF:
        raise ValueError("text holds a lone surrogate, which is not valid Unicode")
    return ch


def lit(value: str) -> str:
    """A TypeQL string literal: quotes, backslashes and control characters escaped, nothing dropped."""
    return '"' + "".join(_escape(ch) for ch in value) + '"'


def dt(moment: datetime) -> str:
    """A ``datetime-tz`` literal in UTC with microseconds."""
    return graph.utc(moment).isoformat(timespec="microseconds")  # type: ignore[union-attr]


def double(value: float) -> str:
    """A ``double`` literal (TypeQL needs digits on both sides of the point, also before an exponent)."""
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{value} is not a finite number")
    text = repr(value)
    mantissa, sep, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    return mantissa + (sep + exponent if sep else "")


def boolean(value: bool) -> str:
    return "true" if value else "false"


def _has(attribute: str, value: str | None) -> str:
    """``, has attribute value`` or nothing for an absent optional value (value already a literal)."""
    return "" if value is None else f", has {attribute} {value}"


def _opt(value: str | None) -> str | None:
    return None if value is None else lit(value)


# -- readiness -------------------------------------------------------------------------------------------
def probe_insert(at: datetime) -> str:
    return f"insert $x isa store-probe, has probed-at {dt(at)};"


def probe_delete(at: datetime) -> str:
    return f"match $x isa store-probe, has probed-at {dt(at)};\ndelete $x;"


# -- runs ---------------------------------------------------------------------------------------------------
SHARED_NODES = {
    "incident": "incident-id",
    "alert": "alert-name",
    "source-group": "group-name",
    "family": "family-name",
    "probe-template": "probe-template-id",
    "verified-action": "action-text",
}
"""Nodes several runs or packages share, by their key attribute: written with ``put`` (match or insert)."""


def put(node: str, key_value: str) -> str:
    return f"put $n isa {node}, has {SHARED_NODES[node]} {lit(key_value)};"


KEYED = {
    "rca-run": ("$r", "analysis-hash"),
    "review": ("$v", "annotation-id"),
    "knowledge-package": ("$p", "package-id"),
    "family-catalog": ("$p", "package-id"),
    "incident": ("$i", "incident-id"),
}
"""The nodes a query starts from, with the variable the queries bind them to and their key."""


def _one(node: str, key_value: str) -> str:
    var, attribute = KEYED[node]
    return f"{var} isa {node}, has {attribute} {lit(key_value)};"


def exists(node: str, key_value: str) -> str:
    """Matches one row when the node with this key is stored (insert-if-absent checks, unknown ids)."""
    return f"match {_one(node, key_value)}"


def _link(var: str, node: str, key_value: str | None, relation: str) -> tuple[str, str]:
    """(match of an existing node, the relation to it) — or nothing when there is no such node."""
    if key_value is None:
        return "", ""
    key_attribute = SHARED_NODES.get(node) or f"{node}-key"
    return f"\n  {var} isa {node}, has {key_attribute} {lit(key_value)};", f"\n  {relation}"


def insert_run(run: graph.RunGraph, body: str) -> str:
    alert, alerting = _link("$a", "alert", run.alert_name, "$al isa alerting, links (alert: $a, run: $r);")
    started = _has("incident-started-at", dt(run.incident_started_at) if run.incident_started_at else None)
    return (
        f"match\n  $i isa incident, has incident-id {lit(run.incident_id)};{alert}\n"
        f"insert\n  $r isa rca-run, has analysis-hash {lit(run.analysis_hash)}, has verdict {lit(run.verdict)}, "
        f"has harness-score {double(run.score)}, has evaluated-at {dt(run.evaluated_at)}{started}, "
        f"has body {lit(body)};\n"
        f"  $v isa investigation, links (incident: $i, run: $r);{alerting}"
    )


def insert_evidence(analysis_hash: str, e: graph.EvidenceNode) -> str:
    plane, grouping = _link("$g", "source-group", e.plane, "$m isa grouping, links (evidence: $e, plane: $g);")
    optional = _has("collector", _opt(e.collector)) + _has("observed-at", dt(e.observed_at) if e.observed_at else None)
    return (
        f"match\n  {_one('rca-run', analysis_hash)}{plane}\n"
        f"insert\n  $e isa evidence, has evidence-key {lit(e.key)}, has evidence-id {lit(e.evidence_id)}, "
        f"has live {boolean(e.live)}, has target-verified {boolean(e.target_verified)}, "
        f"has time-relation {lit(e.time_relation)}{optional};\n"
        f"  $c isa collection, links (run: $r, evidence: $e);{grouping}"
    )


def insert_hypothesis(analysis_hash: str, h: graph.HypothesisNode) -> str:
    family, classification = _link("$f", "family", h.family,
                                   "$k isa classification, links (classified: $h, family: $f);")
    rank = _has("candidate-rank", str(h.rank) if h.rank is not None else None)
    return (
        f"match\n  {_one('rca-run', analysis_hash)}{family}\n"
        f"insert\n  $h isa hypothesis, has hypothesis-key {lit(h.key)}, has hypothesis-id {lit(h.hypothesis_id)}, "
        f"has is-root-cause {boolean(h.is_root_cause)}{rank};\n"
        f"  $c isa consideration, links (run: $r, hypothesis: $h);{classification}"
    )


def insert_claim(analysis_hash: str, c: graph.ClaimNode) -> str:
    return (
        f"match\n  {_one('rca-run', analysis_hash)}\n"
        f"insert\n  $c isa claim, has claim-key {lit(c.key)}, has claim-id {lit(c.claim_id)}, "
        f"has claim-kind {lit(c.kind)}, has claim-status {lit(c.status)}, has body {lit(c.text)};\n"
        f"  $a isa assertion, links (run: $r, claim: $c);"
    )


_STANCE = {"support": ("supported", "supporter"), "refutation": ("refuted", "refuter")}
_NODE_KEY = {"hypothesis": "hypothesis-key", "claim": "claim-key"}


def link_evidence(relation: str, node_type: str, node_key: str, evidence_key: str) -> str:
    """``support``/``refutation`` of a hypothesis or claim by one evidence node."""
    node_role, evidence_role = _STANCE[relation]
    return (
        f"match\n  $n isa {node_type}, has {_NODE_KEY[node_type]} {lit(node_key)};\n"
        f"  $e isa evidence, has evidence-key {lit(evidence_key)};\n"
        f"insert\n  $l isa {relation}, links ({node_role}: $n, {evidence_role}: $e);"
    )


def insert_execution(analysis_hash: str, x: graph.ExecutionNode) -> str:
    plane, sensing = _link("$g", "source-group", x.plane, "$s isa sensing, links (execution: $x, plane: $g);")
    hypothesis, test = _link("$h", "hypothesis", x.hypothesis_key,
                             "$v isa test, links (execution: $x, hypothesis: $h);")
    return (
        f"match\n  {_one('rca-run', analysis_hash)}\n"
        f"  $t isa probe-template, has probe-template-id {lit(x.probe_template_id)};{plane}{hypothesis}\n"
        f"insert\n  $x isa probe-execution, has execution-key {lit(x.key)}, has ordinal {x.ordinal}, "
        f"has execution-outcome {lit(x.outcome)}{_has('collector', _opt(x.collector))};\n"
        f"  $p isa probing, links (run: $r, execution: $x);\n"
        f"  $n isa instantiation, links (execution: $x, template: $t);{sensing}{test}"
    )


def link_yield(execution_key: str, evidence_key: str) -> str:
    return (
        f"match\n  $x isa probe-execution, has execution-key {lit(execution_key)};\n"
        f"  $e isa evidence, has evidence-key {lit(evidence_key)};\n"
        f"insert\n  $y isa yield, links (execution: $x, evidence: $e);"
    )


def latest_analysis(subject: str) -> str:
    """The latest run of an incident (the analysis subject) by ``evaluated-at``."""
    return (
        f"match {_one('incident', subject)}\n  investigation (incident: $i, run: $r);\n"
        "  $r has analysis-hash $hash, has evaluated-at $at;\n"
        "select $hash, $at;\nsort $at desc, $hash desc;\nlimit 1;"
    )


def run_body(analysis_hash: str) -> str:
    return f"match\n  {_one('rca-run', analysis_hash)}\n  $r has body $b;\nselect $b;"


def read_run(analysis_hash: str) -> str:
    return (
        f"match\n  {_one('rca-run', analysis_hash)}\n"
        "  $r has verdict $verdict, has harness-score $score, has evaluated-at $at;\n"
        "  investigation (incident: $i, run: $r);\n  $i has incident-id $incident;\n"
        "  try { $r has incident-started-at $started; };\n"
        "  try { alerting (alert: $a, run: $r); $a has alert-name $alert; };\n"
        "select $verdict, $score, $at, $incident, $started, $alert;"
    )


def read_evidence(analysis_hash: str) -> str:
    return (
        f"match\n  {_one('rca-run', analysis_hash)}\n  collection (run: $r, evidence: $e);\n"
        "  $e has evidence-key $key, has evidence-id $id, has live $live, has target-verified $verified,\n"
        "    has time-relation $relation;\n"
        "  try { $e has collector $collector; };\n  try { $e has observed-at $observed; };\n"
        "  try { grouping (evidence: $e, plane: $g); $g has group-name $plane; };\n"
        "select $key, $id, $live, $verified, $relation, $collector, $observed, $plane;"
    )


def read_hypotheses(analysis_hash: str) -> str:
    return (
        f"match\n  {_one('rca-run', analysis_hash)}\n  consideration (run: $r, hypothesis: $h);\n"
        "  $h has hypothesis-key $key, has hypothesis-id $id, has is-root-cause $root;\n"
        "  try { $h has candidate-rank $rank; };\n"
        "  try { classification (classified: $h, family: $f); $f has family-name $family; };\n"
        "select $key, $id, $root, $rank, $family;"
    )


def read_claims(analysis_hash: str) -> str:
    return (
        f"match\n  {_one('rca-run', analysis_hash)}\n  assertion (run: $r, claim: $c);\n"
        "  $c has claim-key $key, has claim-id $id, has claim-kind $kind, has claim-status $status, has body $text;\n"
        "select $key, $id, $kind, $status, $text;"
    )


def read_links(analysis_hash: str, relation: str, node_type: str) -> str:
    """(node key, evidence key) of every ``support``/``refutation`` of the run's hypotheses or claims."""
    node_role, evidence_role = _STANCE[relation]
    owner = ("consideration (run: $r, hypothesis: $n);" if node_type == "hypothesis"
             else "assertion (run: $r, claim: $n);")
    return (
        f"match\n  {_one('rca-run', analysis_hash)}\n  {owner}\n  $n has {_NODE_KEY[node_type]} $key;\n"
        f"  {relation} ({node_role}: $n, {evidence_role}: $e);\n  $e has evidence-key $evidence;\n"
        "select $key, $evidence;"
    )


def read_executions(analysis_hash: str) -> str:
    return (
        f"match\n  {_one('rca-run', analysis_hash)}\n  probing (run: $r, execution: $x);\n"
        "  $x has execution-key $key, has ordinal $ordinal, has execution-outcome $outcome;\n"
        "  instantiation (execution: $x, template: $t);\n  $t has probe-template-id $template;\n"
        "  try { $x has collector $collector; };\n"
        "  try { sensing (execution: $x, plane: $g); $g has group-name $plane; };\n"
        "  try { test (execution: $x, hypothesis: $h); $h has hypothesis-key $hypothesis; };\n"
        "select $key, $ordinal, $outcome, $template, $collector, $plane, $hypothesis;"
    )


def read_yields(analysis_hash: str) -> str:
    return (
        f"match\n  {_one('rca-run', analysis_hash)}\n  probing (run: $r, execution: $x);\n  $x has execution-key "
        "$key;\n"
        "  yield (execution: $x, evidence: $e);\n  $e has evidence-key $evidence;\n"
        "select $key, $evidence;"
    )


# -- reviews -------------------------------------------------------------------------------------------------
def insert_review(review: graph.ReviewNode, body: str) -> str:
    outcome = _has("resolution-outcome", _opt(review.resolution_outcome))
    return (
        f"insert\n  $v isa review, has annotation-id {lit(review.annotation_id)}, "
        f"has analysis-hash {lit(review.analysis_hash)}, has review-kind {lit(review.kind)}{outcome}, "
        f"has body {lit(body)};"
    )


def review_body(annotation_id: str) -> str:
    """The stored body of one review (its revision decides whether a later one replaces it)."""
    return f"match {_one('review', annotation_id)}\n  $v has body $b;\nselect $b;"


def delete_review(annotation_id: str) -> str:
    """Removes a review (no relation holds one), to insert its later revision in the same transaction."""
    return f"match {_one('review', annotation_id)}\ndelete $v;"


def review_bodies(analysis_hash: str) -> str:
    return f"match\n  $v isa review, has analysis-hash {lit(analysis_hash)}, has body $b;\nselect $b;"


def read_review(annotation_id: str) -> str:
    return (
        f"match\n  {_one('review', annotation_id)}\n  $v has analysis-hash $hash, has review-kind $kind;\n"
        "  try { $v has resolution-outcome $outcome; };\n"
        "select $hash, $kind, $outcome;"
    )


# -- packages -----------------------------------------------------------------------------------------------
def package_at_revision(package_id: str, revision: int) -> str:
    return f"match {_one('knowledge-package', package_id)}\n  $p has revision {revision};"


def insert_package(p: graph.PackageGraph, body: str) -> str:
    return (
        f"insert\n  $p isa knowledge-package, has package-id {lit(p.package_id)}, "
        f"has analysis-hash {lit(p.analysis_hash)}, has annotation-id {lit(p.annotation_id)}, "
        f"has package-state {lit(p.state)}, has evidence-source {lit(p.evidence_source)}, "
        f"has valid {boolean(p.valid)}, has revision {p.revision}, has body {lit(body)};"
    )


def link_promotion(package_id: str, analysis_hash: str) -> str:
    return (
        f"match\n  {_one('knowledge-package', package_id)}\n  {_one('rca-run', analysis_hash)}\n"
        "insert\n  $m isa promotion, links (package: $p, run: $r);"
    )


def link_package_family(package_id: str, family: str) -> str:
    return (
        f"match\n  {_one('knowledge-package', package_id)}\n  $f isa family, has family-name {lit(family)};\n"
        "insert\n  $k isa classification, links (classified: $p, family: $f);"
    )


def link_grounding(package_id: str, evidence_key: str) -> str:
    return (
        f"match\n  {_one('knowledge-package', package_id)}\n  $e isa evidence, has evidence-key {lit(evidence_key)};\n"
        "insert\n  $g isa grounding, links (package: $p, evidence: $e);"
    )


def insert_remediation(package_id: str, action: str, incident_id: str, outcome: str) -> str:
    return (
        f"match\n  {_one('knowledge-package', package_id)}\n  $a isa verified-action, has action-text {lit(action)};\n"
        f"  $i isa incident, has incident-id {lit(incident_id)};\n"
        "insert\n  $m isa remediation, links (package: $p, action: $a, incident: $i), "
        f"has resolution-outcome {lit(outcome)};"
    )


def insert_decision(package_id: str, d: graph.DecisionNode, node: str = "knowledge-package") -> str:
    """A reviewer decision on a package (``node``: ``knowledge-package`` or ``family-catalog``)."""
    return (
        f"match\n  {_one(node, package_id)}\n"
        f"insert\n  $d isa reviewer-decision, has decision-key {lit(d.key)}, has ordinal {d.ordinal}, "
        f"has decision-kind {lit(d.decision)}, has reviewer {lit(d.reviewer)}, has decided-at {dt(d.decided_at)}, "
        f"has accepted {boolean(d.accepted)}, has from-state {lit(d.from_state)}, has to-state {lit(d.to_state)};\n"
        "  $r isa decision-record, links (package: $p, decision: $d);"
    )


def update_package(p: graph.PackageGraph, body: str) -> str:
    return (
        f"match {_one('knowledge-package', p.package_id)}\n"
        f"update\n  $p has package-state {lit(p.state)};\n  $p has revision {p.revision};\n"
        f"  $p has valid {boolean(p.valid)};\n  $p has body {lit(body)};"
    )


def package_body(package_id: str) -> str:
    return f"match {_one('knowledge-package', package_id)}\n  $p has body $b;\nselect $b;"


def package_bodies(state: str | None) -> str:
    where = f", has package-state {lit(state)}" if state else ""
    return f"match\n  $p isa knowledge-package{where}, has body $b;\nselect $b;"


def read_package(package_id: str) -> str:
    return (
        f"match {_one('knowledge-package', package_id)}\n"
        "  $p has analysis-hash $hash, has annotation-id $annotation, has package-state $state,\n"
        "    has evidence-source $source, has valid $valid, has revision $revision;\n"
        "  try { classification (classified: $p, family: $f); $f has family-name $family; };\n"
        "  try { promotion (package: $p, run: $r); $r has analysis-hash $run; };\n"
        "select $hash, $annotation, $state, $source, $valid, $revision, $family, $run;"
    )


def read_grounding(package_id: str) -> str:
    return (
        f"match {_one('knowledge-package', package_id)}\n  grounding (package: $p, evidence: $e);\n  $e has "
        "evidence-key $evidence;\n"
        "select $evidence;"
    )


def read_decisions(package_id: str, node: str = "knowledge-package") -> str:
    return (
        f"match {_one(node, package_id)}\n  decision-record (package: $p, decision: $d);\n"
        "  $d has decision-key $key, has ordinal $ordinal, has decision-kind $decision, has reviewer $reviewer,\n"
        "    has decided-at $at, has accepted $accepted, has from-state $from, has to-state $to;\n"
        "select $key, $ordinal, $decision, $reviewer, $at, $accepted, $from, $to;"
    )


def read_remediations(package_id: str) -> str:
    return (
        f"match {_one('knowledge-package', package_id)}\n  $m isa remediation, links (package: $p, action: $a, "
        "incident: $i);\n"
        "  $m has resolution-outcome $outcome;\n  $a has action-text $action;\n  $i has incident-id $incident;\n"
        "select $action, $incident, $outcome;"
    )


# -- the family catalog ------------------------------------------------------------------------------------
def insert_catalog(c: graph.CatalogGraph, body: str) -> str:
    activated = _has("activated-at", dt(c.activated_at) if c.activated_at else None)
    return (
        f"insert\n  $p isa family-catalog, has package-id {lit(c.package_id)}, has catalog-version {lit(c.version)}, "
        f"has package-state {lit(c.state)}, has valid {boolean(c.valid)}, has revision {c.revision}{activated}, "
        f"has body {lit(body)};"
    )


def list_family(package_id: str, family: str, listings: list[graph.Listing], templates: list[str]) -> str:
    """One family of a catalog in one pipeline: the family, its signatures and probe templates (``put``:
    shared with other catalogs and runs), then its listings and confirmations."""
    puts = [f"put $f isa family, has family-name {lit(family)};"]
    links = []
    for n, listing in enumerate(listings):
        puts.append(f"put $s{n} isa signature, has signature-key {lit(listing.signature_key)}, "
                    f"has signature-kind {lit(listing.signature_kind)};")
        links.append(f"  $l{n} isa listing, links (catalog: $p, family: $f, signature: $s{n}), "
                     f"has stance {lit(listing.stance)};")
    for n, template in enumerate(templates):
        puts.append(f"put $t{n} isa probe-template, has probe-template-id {lit(template)};")
        links.append(f"  $c{n} isa confirmation, links (catalog: $p, family: $f, template: $t{n});")
    return f"match {_one('family-catalog', package_id)}\n" + "\n".join(puts) + "\ninsert\n" + "\n".join(links)


def catalog_queries(c: graph.CatalogGraph, body: str) -> list[str]:
    """The writes of one catalog: its node, one pipeline per family, its decisions."""
    out = [insert_catalog(c, body)]
    for family in c.families:
        listings = [x for x in c.listings if x.family == family]
        templates = [t for f, t in c.confirmations if f == family]
        out.append(list_family(c.package_id, family, listings, templates))
    return out + [insert_decision(c.package_id, d, "family-catalog") for d in c.decisions]


def catalog_at_revision(package_id: str, revision: int) -> str:
    return f"match {_one('family-catalog', package_id)}\n  $p has revision {revision};"


def update_catalog(c: graph.CatalogGraph, body: str) -> str:
    activated = f"\n  $p has activated-at {dt(c.activated_at)};" if c.activated_at else ""
    return (
        f"match {_one('family-catalog', c.package_id)}\n"
        f"update\n  $p has package-state {lit(c.state)};\n  $p has revision {c.revision};\n"
        f"  $p has valid {boolean(c.valid)};\n  $p has body {lit(body)};{activated}"
    )


def catalog_save_queries(c: graph.CatalogGraph, body: str, stored_decisions: int) -> list[str]:
    """A catalog package's update: state, revision, body, and the decisions made since it was stored."""
    return [update_catalog(c, body)] + [insert_decision(c.package_id, d, "family-catalog")
                                        for d in c.decisions[stored_decisions:]]


def catalog_body(package_id: str) -> str:
    return f"match {_one('family-catalog', package_id)}\n  $p has body $b;\nselect $b;"


def catalog_bodies(state: str | None) -> str:
    where = f", has package-state {lit(state)}" if state else ""
    return f"match\n  $p isa family-catalog{where}, has body $b;\nselect $b;"


def active_catalog() -> str:
    """The body of the active catalog: the activated one activated last."""
    return (
        'match\n  $p isa family-catalog, has package-state "activated", has activated-at $at, has package-id $id, '
        "has body $b;\nsort $at desc, $id desc;\nlimit 1;\nselect $b;"
    )


def read_catalog(package_id: str) -> str:
    return (
        f"match {_one('family-catalog', package_id)}\n"
        "  $p has catalog-version $version, has package-state $state, has valid $valid, has revision $revision;\n"
        "  try { $p has activated-at $at; };\n"
        "select $version, $state, $valid, $revision, $at;"
    )


def read_listings(package_id: str) -> str:
    """Each attribute in a statement of its own: written as one ``$l isa listing, links (…), has stance``
    statement, a TypeDB 3.12 server planned this read in minutes instead of milliseconds."""
    return (
        f"match {_one('family-catalog', package_id)}\n"
        "  $l isa listing, links (catalog: $p, family: $f, signature: $s);\n  $l has stance $stance;\n"
        "  $f has family-name $family;\n  $s has signature-key $key;\n  $s has signature-kind $kind;\n"
        "select $family, $stance, $key, $kind;"
    )


def read_confirmations(package_id: str) -> str:
    return (
        f"match {_one('family-catalog', package_id)}\n  confirmation (catalog: $p, family: $f, template: $t);\n"
        "  $f has family-name $family;\n  $t has probe-template-id $template;\n"
        "select $family, $template;"
    )


# -- queries --------------------------------------------------------------------------------------------------
def metrics_outcomes() -> str:
    """Executions per template and outcome, over approved trace-v3 case snapshots (each execution once)."""
    return (
        "match\n  let $x in approved_executions();\n  instantiation (execution: $x, template: $t);\n"
        "  $t has probe-template-id $template;\n  $x has execution-outcome $outcome;\n"
        "select $template, $outcome, $x;\ndistinct;\n"
        "reduce $executions = count groupby $template, $outcome;"
    )


def metrics_contributions() -> str:
    """Supporting executions whose evidence grounds an approved package's diagnosis, per template."""
    return (
        "match\n  let $x in contributing_executions();\n  instantiation (execution: $x, template: $t);\n"
        "  $t has probe-template-id $template;\n"
        "select $template, $x;\ndistinct;\n"
        "reduce $contributions = count groupby $template;"
    )


def observed(incident_id: str) -> str:
    """Collectors and planes of the incident's live evidence."""
    return (
        f"match {_one('incident', incident_id)}\n  investigation (incident: $i, run: $r);\n"
        "  collection (run: $r, evidence: $e);\n  $e has live true, has collector $collector;\n"
        "  grouping (evidence: $e, plane: $g);\n  $g has group-name $plane;\n"
        "select $collector, $plane;\ndistinct;"
    )


def incident_hypotheses(incident_id: str) -> str:
    """Each hypothesis of the incident with its family, rank, supporting planes and whether it is refuted."""
    return (
        f"match {_one('incident', incident_id)}\n  investigation (incident: $i, run: $r);\n"
        "  consideration (run: $r, hypothesis: $h);\n  $h has hypothesis-key $key;\n"
        "  try { classification (classified: $h, family: $f); $f has family-name $family; };\n"
        "  try { $h has candidate-rank $rank; };\n"
        "  let $planes = support_planes($h);\n  let $refuted = is_refuted($h);\n"
        "select $key, $family, $rank, $planes, $refuted;"
    )


def probe_catalog() -> str:
    """Templates of approved executions that told a family apart, with the collector and plane they ran on.

    Two ``match`` stages: the approved executions first, then what each ran and tested. As one
    stage, a TypeDB 3.12 server planned it into minutes at 400 incidents (1.5 s as two)."""
    return (
        "match\n  let $x in approved_executions();\n"
        'match\n  not { $x has execution-outcome "inconclusive"; };\n'
        "  instantiation (execution: $x, template: $t);\n  $t has probe-template-id $template;\n"
        "  $x has collector $collector;\n  sensing (execution: $x, plane: $g);\n  $g has group-name $plane;\n"
        "  test (execution: $x, hypothesis: $h);\n  classification (classified: $h, family: $f);\n"
        "  $f has family-name $family;\n"
        "select $template, $collector, $plane, $family;\ndistinct;"
    )


def verified_actions(family: str) -> str:
    return (
        f"match\n  $f isa family, has family-name {lit(family)};\n"
        '  $p isa knowledge-package, has package-state "activated";\n'
        "  classification (classified: $p, family: $f);\n"
        "  $m isa remediation, links (package: $p, action: $a, incident: $i);\n"
        'fetch {\n  "action": $a.action-text,\n  "incident": $i.incident-id,\n'
        '  "outcome": $m.resolution-outcome,\n  "package": $p.package-id\n};'
    )


_ACTIVATED_ELSEWHERE = (
    '  $p isa knowledge-package, has package-state "activated", has package-id $package;\n'
    "  promotion (package: $p, run: $r2);\n  investigation (incident: $j, run: $r2);\n"
    "  not { $j is $i; };\n  $j has incident-id $incident;\n"
)


def similar_by_family(incident_id: str) -> str:
    return (
        f"match {_one('incident', incident_id)}\n  investigation (incident: $i, run: $r);\n"
        "  consideration (run: $r, hypothesis: $h);\n  classification (classified: $h, family: $f);\n"
        "  $f has family-name $family;\n  classification (classified: $p, family: $f);\n"
        f"{_ACTIVATED_ELSEWHERE}"
        "select $incident, $package, $family;\ndistinct;"
    )


def similar_by_alert(incident_id: str) -> str:
    return (
        f"match {_one('incident', incident_id)}\n  investigation (incident: $i, run: $r);\n"
        "  alerting (alert: $a, run: $r);\n  $a has alert-name $alert;\n  alerting (alert: $a, run: $r2);\n"
        f"{_ACTIVATED_ELSEWHERE}"
        "  try { classification (classified: $p, family: $f); $f has family-name $family; };\n"
        "select $incident, $package, $alert, $family;\ndistinct;"
    )


# -- whole writes (what one store method sends, in order) ------------------------------------------------------
def run_queries(run: graph.RunGraph, body: str) -> list[str]:
    """The writes of one run: shared nodes first (``put``), then the run's own nodes and edges."""
    out = [put("incident", run.incident_id)]
    out += [put("alert", run.alert_name)] if run.alert_name else []
    out += [put("source-group", p) for p in run.planes]
    out += [put("family", f) for f in run.families]
    out += [put("probe-template", t) for t in run.templates]
    out.append(insert_run(run, body))
    out += [insert_evidence(run.analysis_hash, e) for e in run.evidence]
    out += [insert_hypothesis(run.analysis_hash, h) for h in run.hypotheses]
    out += [insert_claim(run.analysis_hash, c) for c in run.claims]
    out += [link_evidence("support", "hypothesis", h.key, e) for h in run.hypotheses for e in h.supported_by]
    out += [link_evidence("support", "claim", c.key, e) for c in run.claims for e in c.supported_by]
    out += [link_evidence("refutation", "claim", c.key, e) for c in run.claims for e in c.refuted_by]
    out += [insert_execution(run.analysis_hash, x) for x in run.executions]
    out += [link_yield(x.key, e) for x in run.executions for e in x.evidence_keys]
    return out


def package_queries(p: graph.PackageGraph, body: str) -> list[str]:
    out = [insert_package(p, body)]
    out += [link_promotion(p.package_id, p.promoted_run)] if p.promoted_run else []
    out += [put("family", p.family), link_package_family(p.package_id, p.family)] if p.family else []
    out += [link_grounding(p.package_id, e) for e in p.grounding]
    for m in p.remediations:
        out += [put("verified-action", m.action), insert_remediation(p.package_id, m.action, m.incident_id, m.outcome)]
    out += [insert_decision(p.package_id, d) for d in p.decisions]
    return out


def save_queries(p: graph.PackageGraph, body: str, stored_decisions: int) -> list[str]:
    """A package update: its state, revision and body, and the decisions made since it was stored."""
    return [update_package(p, body)] + [insert_decision(p.package_id, d) for d in p.decisions[stored_decisions:]]
