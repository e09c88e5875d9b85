"""``rcaloop knowledge …``: list packages, decide, runtime snapshot, probe metrics and ranking, outage check.

Thin adapters over ``KnowledgeWorkflow`` on the same store the service uses (TypeDB when
``TYPEDB_ADDRESS`` is set, else the SQLite file under ``RCALOOP_DATA_DIR``). Exit codes:
0 done, 1 decision refused/not allowed, 2 unusable input or store unreachable.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from dataclasses import asdict
from typing import Any, TypeVar

import typer
from pydantic import BaseModel
from rich.markup import escape
from rich.table import Table

from rcaloop.contracts.knowledge import Decision, KnowledgePackage, PackageState
from rcaloop.knowledge.app import RedisPublisher, publish_url, workflow_for
from rcaloop.knowledge.core import may_decide
from rcaloop.knowledge.settings import KnowledgeSettings, knowledge_tokens
from rcaloop.knowledge.snapshot import typedb_outage_runtime_activation_success
from rcaloop.knowledge.store import StoreError
from rcaloop.knowledge.workflow import DecisionError, KnowledgeWorkflow
from rcaloop.shared.catalog import CatalogError, load_catalog
from rcaloop.shared.cli_deps import CliDeps
from rcaloop.shared.redis_conn import connect
from rcaloop.shared.settings import redact_url
from rcaloop.shared.tokens import TokenConfigError
from rcaloop.shared.cli_app import cli_app
from rcaloop.shared.cli_output import err, fail
from rcaloop.shared.cli_output import out

T = TypeVar("T")



def _run(work: Callable[[KnowledgeWorkflow], Awaitable[T]], publish=None) -> T:
    async def main() -> T:
        workflow = workflow_for(KnowledgeSettings(), publish)
        try:
            return await work(workflow)
        finally:
            await workflow.store.close()

    try:
        return asyncio.run(main())
    except StoreError as exc:
        fail(str(exc))
    raise AssertionError("unreachable")


def _dump(data: Any) -> None:
    if isinstance(data, BaseModel):
        data = data.model_dump(mode="json")
    elif isinstance(data, list):
        data = [d.model_dump(mode="json") if isinstance(d, BaseModel) else d for d in data]
    out.print_json(json.dumps(data))


def _packages_table(packages: list[KnowledgePackage], title: str) -> Table:
    table = Table(title=title)
    for col in ("package_id", "state", "family", "evidence_source", "valid", "issues"):
        table.add_column(col)
    for p in packages:
        table.add_row(
            escape(p.package_id),
            p.state,
            escape(p.family or "-"),
            p.evidence_source,
            str(p.valid),
            ", ".join(i.code for i in p.issues) or "-",
        )
    return table


def register(app: typer.Typer, deps: CliDeps) -> None:
    """Add ``rcaloop knowledge …`` to the ``rcaloop`` CLI."""
    knowledge = cli_app(help="Knowledge packages promoted from passed reviews, and the knowledge graph's queries.",
                        no_args_is_help=True)
    app.add_typer(knowledge, name="knowledge")
    _register_packages(knowledge)
    _register_catalog(knowledge)
    _register_queries(knowledge)


def _register_packages(knowledge: typer.Typer) -> None:
    """``knowledge list`` and ``knowledge decide``."""

    @knowledge.command("list")
    def list_cmd(
        state: str | None = typer.Option(None, help="candidate | shadowed | activated | rejected"),
        as_json: bool = typer.Option(False, "--json", help="print the packages as JSON"),
    ) -> None:
        """List knowledge packages, optionally by state."""
        states: tuple[str, ...] = PackageState.__args__  # type: ignore[attr-defined]
        if state is not None and state not in states:
            fail(f"unknown state {state!r}; one of: {', '.join(states)}")
        packages = _run(lambda w: w.packages(state))
        if as_json:
            _dump(packages)
        else:
            out.print(_packages_table(packages, f"knowledge packages ({state or 'all'})"))

    @knowledge.command("decide")
    def decide_cmd(
        package_id: str = typer.Argument(..., help="the package to decide on"),
        decision: str = typer.Argument(..., help="approve | shadow | activate | reject"),
        comment: str | None = typer.Option(None, help="why (kept in the package history)"),
        as_json: bool = typer.Option(False, "--json", help="print as JSON"),
    ) -> None:
        """Approve (activate now), shadow, activate or reject a package; publishes its events.

        The token comes from RCALOOP_REVIEWER_TOKEN: approve, shadow and activate need a lead's (one of
        RCALOOP_LEAD_TOKENS); reject also takes a reviewer's (one of RCALOOP_REVIEWER_TOKENS). The decision is
        recorded with the name the token gives.
        """
        reviewer, publisher = _reviewer_and_publisher(decision)
        outcome = _run(lambda w: _closing(publisher, w.decide(package_id, decision, reviewer, comment)),  # type: ignore[arg-type]
                       publisher)
        _decided(outcome, as_json)


def _register_catalog(knowledge: typer.Typer) -> None:
    """``knowledge catalog …``: show, list, propose, decide."""
    catalog = typer.Typer(help="The family catalog: the families and the signatures that support or refute them.",
                          no_args_is_help=True)
    knowledge.add_typer(catalog, name="catalog")

    @catalog.command("show")
    def catalog_show_cmd(as_json: bool = typer.Option(False, "--json", help="print the catalog as JSON")) -> None:
        """The active family catalog (the bundled one while none is activated)."""
        active, package = _run(lambda w: w.active_catalog())
        if as_json:
            _dump({"package_id": package.package_id if package else None, "source": "store" if package else "bundled",
                   "catalog": active.model_dump(mode="json", exclude_none=True)})
            return
        table = Table(
            title=f"family catalog {escape(active.version)} ({'bundled' if package is None else package.package_id})")
        for col in ("family", "category", "supports", "refutes", "probes"):
            table.add_column(col)
        for f in active.families:
            table.add_row(escape(f.name), f.category, str(len(f.supports)), str(len(f.refutes)),
                          escape(", ".join(f.probe_template_ids)))
        out.print(table)

    @catalog.command("list")
    def catalog_list_cmd(as_json: bool = typer.Option(False, "--json", help="print as JSON")) -> None:
        """Every stored catalog package with its state and what it changes."""
        packages = _run(lambda w: w.store.list_catalogs())
        if as_json:
            _dump(packages)
            return
        table = Table(title="family catalogs")
        for col in ("package_id", "state", "families", "added signatures", "removed signatures", "proposed by"):
            table.add_column(col)
        for p in packages:
            table.add_row(escape(p.package_id), p.state, str(len(p.catalog.families)),
                          str(len(p.changes.added_signatures)),
                          str(len(p.changes.removed_signatures)), escape(p.proposed_by))
        out.print(table)

    @catalog.command("propose")
    def catalog_propose_cmd(
        path: Path = typer.Argument(..., help="the catalog, YAML or JSON, with a new version"),
        as_json: bool = typer.Option(False, "--json", help="print as JSON"),
    ) -> None:
        """Propose a family catalog: stored as a candidate for leads to approve, shadow or reject.

        The token comes from RCALOOP_REVIEWER_TOKEN: a lead's (RCALOOP_LEAD_TOKENS) or a reviewer's
        (RCALOOP_REVIEWER_TOKENS).
        """
        try:
            proposed = load_catalog(path.read_text(encoding="utf-8"), str(path))
        except OSError as exc:
            fail(f"cannot read {path}: {exc.strerror}")
        except CatalogError as exc:
            fail(str(exc))
        reviewer, publisher = _reviewer_and_publisher()
        outcome = _run(lambda w: _closing(publisher, w.propose_catalog(proposed, reviewer)), publisher)
        _decided(outcome, as_json)

    @catalog.command("decide")
    def catalog_decide_cmd(
        package_id: str = typer.Argument(..., help="the catalog package (kc-<version>)"),
        decision: str = typer.Argument(..., help="approve | shadow | activate | reject"),
        comment: str | None = typer.Option(None, help="why (kept in the package history)"),
        as_json: bool = typer.Option(False, "--json", help="print as JSON"),
    ) -> None:
        """Approve (activate now), shadow, activate or reject a catalog package; publishes its events.

        The token comes from RCALOOP_REVIEWER_TOKEN: approve, shadow and activate need a lead's (one of
        RCALOOP_LEAD_TOKENS); reject also takes a reviewer's (one of RCALOOP_REVIEWER_TOKENS).
        """
        reviewer, publisher = _reviewer_and_publisher(decision)
        outcome = _run(lambda w: _closing(publisher, w.decide_catalog(package_id, decision, reviewer, comment)),  # type: ignore[arg-type]
                       publisher)
        _decided(outcome, as_json)


def _register_queries(knowledge: typer.Typer) -> None:
    """What the agent and operators read: the snapshot, probe metrics, probes to run next, the outage check."""

    @knowledge.command("snapshot")
    def snapshot_cmd(as_json: bool = typer.Option(False, "--json", help="print as JSON")) -> None:
        """The runtime snapshot the agent reads (served from the local cache when the store is down)."""
        snapshot = _run(lambda w: w.snapshot())
        if as_json:
            _dump(snapshot)
            return
        note = " [yellow](stale: served from cache)[/yellow]" if snapshot.stale else ""
        out.print(_packages_table(snapshot.packages, f"runtime snapshot{note}"))

    @knowledge.command("probe-metrics")
    def probe_metrics_cmd(as_json: bool = typer.Option(False, "--json", help="print as JSON")) -> None:
        """Per probe template: executions, supports, refutes, contributions (approved trace-v3 cases only)."""
        metrics = _run(lambda w: w.probe_metrics())
        if as_json:
            _dump(metrics)
            return
        table = Table(title="probe metrics")
        for col in ("probe_template_id", "executions", "supports", "refutes", "contributions"):
            table.add_column(col)
        for m in metrics:
            counts = (m.executions, m.supports, m.refutes, m.contributions)
            table.add_row(escape(m.probe_template_id), *map(str, counts))
        out.print(table)

    @knowledge.command("probes")
    def probes_cmd(
        incident: str = typer.Option(..., "--incident", help="the open incident's id (its job or result id)"),
        as_json: bool = typer.Option(False, "--json", help="print as JSON"),
    ) -> None:
        """The probes to run next for an open incident, best first.

        Order: a collector not observed in the incident yet, then a telemetry plane no
        observation came from, then how many unresolved hypotheses the probe's range tells
        apart, then how well it fits the plan (the best-ranked candidate it covers).
        """
        plan = _run(lambda w: w.probe_plan(incident))
        if plan is None:
            fail(f"no incident {incident!r} in the knowledge graph")
        if as_json:
            _dump(plan)
            return
        families = ", ".join(o.family or "(no family)" for o in plan.open_hypotheses) or "none"
        out.print(f"open hypotheses: {escape(families)}")
        table = Table(title=f"probes for {escape(incident)}")
        for col in ("#", "probe_template_id", "collector", "plane", "new collector", "new plane", "discriminates",
                    "plan fit"):
            table.add_column(col)
        for n, p in enumerate(plan.probes, start=1):
            table.add_row(str(n), escape(p.probe_template_id), escape(p.collector), escape(p.plane),
                          str(p.new_collector), str(p.independent_plane), str(p.discriminates), f"{p.plan_fit:.2f}")
        out.print(table)

    @knowledge.command("outage-check")
    def outage_check_cmd(as_json: bool = typer.Option(False, "--json", help="print as JSON")) -> None:
        """typedb_outage_runtime_activation_success: does the runtime snapshot serve with the store down?"""
        result = _run(lambda w: typedb_outage_runtime_activation_success(w.store, w.cache))
        if as_json:
            _dump(asdict(result))
        else:
            mark = "[green]true[/green]" if result.typedb_outage_runtime_activation_success else "[red]false[/red]"
            out.print(
                f"typedb_outage_runtime_activation_success: {mark} ({result.active_packages} active packages)"
            )
            if result.reason:
                out.print(result.reason)
        raise typer.Exit(0 if result.typedb_outage_runtime_activation_success else 1)


def _reviewer_and_publisher(decision: str | None = None) -> tuple[str, RedisPublisher]:
    """The name RCALOOP_REVIEWER_TOKEN gives, and a publisher on a Redis that answers (else exit 2).

    approve, shadow and activate need a lead's token (RCALOOP_LEAD_TOKENS); reject, and proposing
    a catalog (``decision`` None), also take a reviewer's (RCALOOP_REVIEWER_TOKENS).
    """
    if decision is not None:
        decisions: tuple[str, ...] = Decision.__args__  # type: ignore[attr-defined]
        if decision not in decisions:
            fail(f"unknown decision {decision!r}; one of: {', '.join(decisions)}")
    settings = KnowledgeSettings()
    token = os.environ.get("RCALOOP_REVIEWER_TOKEN", "").strip()
    try:
        reviewers, _readers, leads = knowledge_tokens(settings)
    except TokenConfigError as exc:
        fail(str(exc))
    lead = leads.identify(token) if token else None
    reviewer = lead or (reviewers.identify(token) if token else None)
    if reviewer is None:
        fail("set RCALOOP_REVIEWER_TOKEN to a lead's token (RCALOOP_LEAD_TOKENS) or, to reject, a reviewer's "
             "(RCALOOP_REVIEWER_TOKENS)")
    if decision is not None and not may_decide(decision, {"lead", "reviewer"} if lead else {"reviewer"}):  # type: ignore[arg-type]
        fail(f"{decision} needs a lead's token (RCALOOP_LEAD_TOKENS); a reviewer's token may reject", code=1)
    url = publish_url(settings)
    try:
        asyncio.run(_ping(url))
    except OSError as exc:
        fail(f"cannot reach Redis at {redact_url(url)} to publish the decision: {type(exc).__name__}")
    return reviewer, RedisPublisher(settings)  # type: ignore[return-value]


async def _closing(publisher: RedisPublisher, work: Awaitable[T]) -> T | DecisionError:
    try:
        return await work
    except DecisionError as exc:
        return exc
    finally:
        await publisher.close()


def _decided(outcome: Any, as_json: bool) -> None:
    """Print a decision's (or a catalog proposal's) outcome; exit 1 when refused, 2 for an unknown package."""
    if isinstance(outcome, DecisionError):
        if as_json:
            _dump({"accepted": False, "error": outcome.issue.model_dump()})
        else:
            err.print(f"[red]{outcome.issue.code}[/red] {escape(outcome.issue.message)}", highlight=False)
        raise typer.Exit(2 if outcome.status == 404 else 1)
    package, events = outcome
    if as_json:
        _dump({"accepted": True, "package": package.model_dump(mode="json"),
               "events": [e.model_dump(mode="json") for e in events]})
    else:
        out.print(
            f"{escape(package.package_id)}: {package.state} (events: {', '.join(e.kind for e in events) or 'none'})")


async def _ping(url: str) -> None:
    redis = connect(url)
    try:
        await redis.ping()
    finally:
        await redis.aclose()
