"""Every TypeQL query the TypeDB store can send parses with the official TypeQL 3 parser.

Every query is checked here even where no TypeDB server runs (the suites run on one only with
``TYPEDB_ADDRESS``): the queries are collected from ``typeql.py`` — every builder, every optional
part present and absent, values full of quotes, backslashes and control characters — and fed to ``typeql-check``
(the ``typeql`` crate's own parser). A guard makes sure no builder is left out and that
the adapter holds no query text of its own.
"""

from __future__ import annotations

import ast
import functools
import inspect
import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from rcaloop.contracts.knowledge import CatalogPackage, PackageDecision
from rcaloop.knowledge import graph, typedb_schema, typeql
from rcaloop.shared.catalog import bundled_catalog
from rcaloop.knowledge.workflow import slim_verdict
from tests.unit.knowledge.builders import verdict

ROOT = Path(__file__).resolve().parents[3]
CHECKER = Path("shared") / "tools" / "typeql-check" / "typeql-check"


def _tool() -> Path:
    """``RCALOOP_TYPEQL_CHECK``, else ``../shared/tools/typeql-check`` beside the checkout (or beside a parent of
    it)."""
    if os.environ.get("RCALOOP_TYPEQL_CHECK"):
        return Path(os.environ["RCALOOP_TYPEQL_CHECK"])
    found = [d / CHECKER for d in ROOT.parents if (d / CHECKER).is_file()]
    return found[0] if found else ROOT.parent / CHECKER


TOOL = _tool()
SEPARATOR = "\n=====\n"
NASTY = 'q"uo\\te\n\tline\x00\x1f\x7f\x85 ünï ✓ $x; match'
"""A value with everything a literal must escape, and text that looks like TypeQL."""
VALUE_HELPERS = {"lit", "dt", "double", "boolean"}

AT = datetime(2026, 11, 29, 10, 2, 3, 456789, tzinfo=UTC)


def _run_graph(full: bool) -> graph.RunGraph:
    h = "h" + NASTY
    e_full = graph.EvidenceNode(graph.key(h, "E01"), "E01", "prometheus" + NASTY, "metrics" + NASTY, True, True, AT,
                          "during_incident")
    e_bare = graph.EvidenceNode(graph.key(h, "E02" + NASTY), "E02" + NASTY, None, None, False, False, None, "unknown")
    h_full = graph.HypothesisNode(graph.key(h, "H1"), "H1", "db" + NASTY, True, 1, (e_full.key,))
    h_bare = graph.HypothesisNode(graph.key(h, "H2" + NASTY), "H2" + NASTY, None, False, None, ())
    claim = graph.ClaimNode(graph.key(h, "C1"), "C1", "root_cause", "supported", "text" + NASTY, (e_full.key,),
                            (e_bare.key,))
    x_full = graph.ExecutionNode(graph.key(h, "probe-1"), 1, "pt" + NASTY, "supports", "prometheus", "metrics" + NASTY,
                           h_full.key, (e_full.key, e_bare.key))
    x_bare = graph.ExecutionNode(graph.key(h, "probe-2"), 2, "pt.bare", "inconclusive", None, None, None, ())
    return graph.RunGraph(
        analysis_hash=h,
        incident_id="inc" + NASTY,
        alert_name=("KubePodNotReady" + NASTY) if full else None,
        incident_started_at=AT if full else None,
        verdict="pass",
        score=-1.5e-07 if full else 86,
        evaluated_at=AT,
        evidence=(e_full, e_bare),
        hypotheses=(h_full, h_bare),
        claims=(claim,),
        executions=(x_full, x_bare),
    )


def _package_graph(full: bool) -> graph.PackageGraph:
    decision = graph.DecisionNode("kp/decision-1", 1, "approve", "mira" + NASTY, AT, True, "candidate", "activated")
    return graph.PackageGraph(
        package_id="kp" + NASTY,
        analysis_hash="h" + NASTY,
        annotation_id="ev" + NASTY,
        state="activated" if full else "candidate",
        evidence_source="ledger",
        valid=full,
        revision=3 if full else 0,
        family=("db" + NASTY) if full else None,
        promoted_run=("h" + NASTY) if full else None,
        grounding=(graph.key("h", "E01"),) if full else (),
        decisions=(decision,) if full else (),
        remediations=(graph.Remediation("roll back" + NASTY, "inc" + NASTY, "resolved"),) if full else (),
    )


def _drifted_schema() -> str:
    """A database of an earlier release: an attribute with fewer values, a type without one of its
    clauses, a function with another body — its plan defines, redefines values and a function."""
    held = typeql.SCHEMA.replace('"before_incident", "during_incident", ', '"during_incident", ')
    held = held.replace("owns incident-started-at, owns body,", "owns body,")
    held = held.replace("      $e has live true;\n    return check;", "    return check;")
    plan = typedb_schema.plan(typeql.SCHEMA, held)
    assert plan.define and len(plan.redefine) == 2 and not plan.destructive, plan
    return held


def _catalog_graph(full: bool) -> graph.CatalogGraph:
    """The bundled catalog as the graph writes it (full), or a small one full of hostile values."""
    if full:
        bundled = bundled_catalog()
        package = CatalogPackage(package_id=f"kc-{bundled.version}", catalog=bundled, state="activated",
                                 activated_at=AT)
        package.history.append(PackageDecision(decision="approve", reviewer="mira" + NASTY, at=AT,
                                               from_state="candidate", to_state="activated"))
        return graph.catalog_graph(package)
    listings = (graph.Listing("fam" + NASTY, "supports", "log_pattern:" + NASTY, "log_pattern"),)
    return graph.CatalogGraph("kc" + NASTY, "v" + NASTY, "candidate", False, 0, None, listings,
                              (("fam" + NASTY, "probe" + NASTY),), ())


def collect() -> tuple[list[tuple[str, str]], set[str]]:
    """(builder, query) for every query the store can send, and the builders that produced them (also inside others)."""
    out: list[tuple[str, str]] = []
    used: set[str] = set()
    originals = {name: getattr(typeql, name) for name in _builders()}

    def recording(name, fn):
        @functools.wraps(fn)
        def call(*args):
            used.add(name)
            return fn(*args)

        return call

    def add(fn, *args) -> None:
        result = fn(*args)
        for query in result if isinstance(result, list) else [result]:
            out.append((fn.__name__, query))

    for name, fn in originals.items():
        setattr(typeql, name, recording(name, fn))
    try:
        _collect(add)
    finally:
        for name, fn in originals.items():
            setattr(typeql, name, fn)
    return out, used


def _collect(add) -> None:

    add(lambda: typeql.SCHEMA)
    add(lambda: typedb_schema.plan(typeql.SCHEMA, "").queries())  # an empty database
    add(lambda: typedb_schema.plan(typeql.SCHEMA, _drifted_schema()).queries())  # additions and redefinitions
    add(typeql.probe_insert, AT)
    add(typeql.probe_delete, AT)
    for full in (True, False):
        run, package = _run_graph(full), _package_graph(full)
        add(typeql.run_queries, run, "{}" + NASTY)
        add(typeql.package_queries, package, '{"x": 1}' + NASTY)
        add(typeql.save_queries, package, "{}", 0)
        add(typeql.insert_review,
            graph.ReviewNode("ev" + NASTY, "h", "operator_evaluation", "resolved" if full else None), "{}")
        add(typeql.package_bodies, "activated" if full else None)
    derived = graph.run_graph(slim_verdict(verdict()))  # the realistic fixture, as the workflow stores it
    add(typeql.run_queries, derived, slim_verdict(verdict()).model_dump_json())
    for node in typeql.SHARED_NODES:
        add(typeql.put, node, "v" + NASTY)
    for node in typeql.KEYED:
        add(typeql.exists, node, "v" + NASTY)
    for builder in (typeql.latest_analysis, typeql.run_body, typeql.read_run, typeql.read_evidence,
                    typeql.read_hypotheses, typeql.read_claims, typeql.read_executions, typeql.read_yields,
                    typeql.review_bodies, typeql.read_review, typeql.review_body, typeql.delete_review,
                    typeql.package_body, typeql.read_package, typeql.read_grounding, typeql.read_decisions,
                    typeql.read_remediations, typeql.observed, typeql.incident_hypotheses,
                    typeql.verified_actions, typeql.similar_by_family, typeql.similar_by_alert):
        add(builder, "v" + NASTY)
    for relation, node in (("support", "hypothesis"), ("support", "claim"), ("refutation", "claim")):
        add(typeql.read_links, "h" + NASTY, relation, node)
    add(typeql.package_at_revision, "kp" + NASTY, 7)
    for full in (True, False):
        catalog = _catalog_graph(full)
        add(typeql.catalog_queries, catalog, "{}" + NASTY)
        add(typeql.catalog_save_queries, catalog, "{}", 0)
        add(typeql.catalog_bodies, "activated" if full else None)
    for builder in (typeql.catalog_body, typeql.read_catalog, typeql.read_listings, typeql.read_confirmations):
        add(builder, "kc" + NASTY)
    add(typeql.catalog_at_revision, "kc" + NASTY, 3)
    add(typeql.read_decisions, "kc" + NASTY, "family-catalog")
    add(typeql.active_catalog)
    for builder in (typeql.metrics_outcomes, typeql.metrics_contributions, typeql.probe_catalog):
        add(builder)


def _builders() -> set[str]:
    return {
        name
        for name, fn in inspect.getmembers(typeql, inspect.isfunction)
        if fn.__module__ == typeql.__name__ and not name.startswith("_") and name not in VALUE_HELPERS
    }


def test_every_builder_of_typeql_is_collected():
    _, used = collect()
    assert _builders() - used == set(), "a query builder the grammar check never sees"


def test_the_adapter_holds_no_query_text_of_its_own():
    tree = ast.parse((ROOT / "services/knowledge/rcaloop/knowledge/typedb_store.py").read_text())
    texts = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    looks_like_typeql = [t for t in texts if "$" in t or " isa " in t or t.strip().startswith(("match", "insert"))]
    assert looks_like_typeql == []


@pytest.mark.skipif(not TOOL.is_file(), reason=f"TypeQL checker not found at {TOOL} (set RCALOOP_TYPEQL_CHECK)")
def test_every_query_parses_with_the_official_typeql_3_parser():
    queries, _ = collect()
    assert len(queries) > 100
    for _, query in queries:
        assert SEPARATOR.strip() not in query.splitlines()  # a value must never end the query early
    proc = subprocess.run(
        [str(TOOL)], input=SEPARATOR.join(q for _, q in queries), capture_output=True, text=True, timeout=120
    )
    failed = [line for line in proc.stdout.splitlines() if "ERROR" in line]
    names = [f"{queries[int(line[1:line.index(']')])][0]}: {line}" for line in failed]
    assert proc.returncode == 0 and not names, "\n".join(names) + "\n" + proc.stdout[-3000:]
    assert proc.stdout.count("OK") == len(queries)


@pytest.mark.skipif(not TOOL.is_file(), reason=f"TypeQL checker not found at {TOOL} (set RCALOOP_TYPEQL_CHECK)")
def test_the_checker_rejects_what_typeql_3_does_not_accept():
    """A control: the check can fail (a TypeQL 2 ``get``, a raw unescaped quote)."""
    bad = ['match $x isa incident; get;', f'match $x isa incident, has incident-id "{chr(34)}";']
    proc = subprocess.run([str(TOOL)], input=SEPARATOR.join(bad), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout.count("ERROR") == 2
