"""The knowledge workflow: pairs reviews with verdicts, persists packages, applies decisions.

It joins the pure ``core`` to a ``KnowledgeStore``, the snapshot cache and an event
publisher; the stream handlers, HTTP routes and CLI commands are thin adapters over it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from rcaloop.contracts import AnnotationRecord, HarnessVerdict, Issue, KnowledgeEvent
from rcaloop.contracts.common import utcnow
from rcaloop.contracts.catalog import FamilyCatalog
from rcaloop.contracts.knowledge import CatalogPackage, Decision, KnowledgePackage, ProbeMetric, RuntimeSnapshot
from rcaloop.knowledge import core, queries
from rcaloop.knowledge.case import DEFAULT_MIN_REVIEW_SCORE, normalize_family
from rcaloop.knowledge.queries import ProbePlan, SimilarIncident, VerifiedAction
from rcaloop.knowledge.snapshot import SnapshotCache, runtime_snapshot, typedb_outage_runtime_activation_success
from rcaloop.knowledge.store import KnowledgeStore, StoreQueryError, StoreUnavailable, revision
from rcaloop.shared.analysis_subject import subject_of
from rcaloop.shared.catalog import bundled_catalog
from rcaloop.shared.logs import get_logger

OUTAGE_METRIC = "typedb_outage_runtime_activation_success"
BUNDLED_PROPOSER = "rcaloop (bundled catalog)"
"""Who proposes the catalog a release ships; it approves it only when no catalog is active yet."""
Publish = Callable[[list[KnowledgeEvent]], Awaitable[None]]
P = TypeVar("P", KnowledgePackage, CatalogPackage)
CHANGED_MEANWHILE = Issue(code="KD409", message="the package changed meanwhile; reload and decide again")



async def _no_publish(_events: list[KnowledgeEvent]) -> None:
    return None


def slim_verdict(verdict: HarnessVerdict) -> HarnessVerdict:
    """What promotion needs of a verdict: drop the report texts (they can be large)."""
    parsed = verdict.parsed.model_copy(update={"report_markdown": "", "chat_rendered": "", "chat": None})
    return verdict.model_copy(update={"repaired_report": "", "parsed": parsed})


def revised_event(package: KnowledgePackage) -> KnowledgeEvent:
    """The promotion event of a package; a revision's event has its own id (``…:r2``), so
    consumers that keep each event once (by ``event_id``) keep it too. Built from the stored
    package alone, so a redelivery emits the same event."""
    event = core.promotion_event(package)
    n = package.provenance.annotation_revision or 1
    if n == 1:
        return event
    return event.model_copy(
        update={"event_id": f"{event.event_id}:r{n}", "detail": {**event.detail, "annotation_revision": n}})


class DecisionError(Exception):
    def __init__(self, issue: Issue, status: int):
        super().__init__(issue.message)
        self.issue, self.status = issue, status

def _changed(result: core.DecisionResult) -> None:
    """A decision that changes nothing (a state it cannot leave for that one) is a conflict."""
    if not result.changed:
        assert result.error is not None
        raise DecisionError(result.error, 409)


class KnowledgeWorkflow:
    def __init__(
        self,
        store: KnowledgeStore,
        cache: SnapshotCache,
        publish: Publish | None = None,
        *,
        min_review_score: int = DEFAULT_MIN_REVIEW_SCORE,
    ):
        self.store, self.cache, self.publish = store, cache, publish or _no_publish
        self.min_review_score = min_review_score
        self.outbox_pending = True  # check once after start: an earlier process may have left events
        self.log = get_logger("knowledge")

    # -- stream inputs: either half of the pair may arrive first -----------------------------
    async def on_verdict(self, verdict: HarnessVerdict) -> list[KnowledgeEvent]:
        return (await self.on_verdicts([verdict]))[0]

    async def on_verdicts(self, verdicts: list[HarnessVerdict]) -> list[list[KnowledgeEvent]]:
        """A worker's batch: stored in one transaction, the reviews waiting for any of them found
        in one read; the events of each verdict, in order."""
        await self.store.put_verdicts([slim_verdict(v) for v in verdicts])
        waiting = await self.store.reviews_for_many([v.analysis_hash for v in verdicts])
        # the usual case is no review yet: the review's arrival completes the pair
        return [await self._paired(v, waiting[v.analysis_hash]) if v.analysis_hash in waiting else [] for v in verdicts]

    async def _paired(self, verdict: HarnessVerdict, reviews: list[AnnotationRecord]) -> list[KnowledgeEvent]:
        stored = await self.store.get_verdict(verdict.analysis_hash) or verdict  # the first copy stored wins
        events: list[KnowledgeEvent] = []
        for review in reviews:
            events += await self._promote(review, stored, created_by=f"verdict:{verdict.analysis_hash}")
        return events

    async def on_review(self, review: AnnotationRecord) -> list[KnowledgeEvent]:
        await self.store.put_review(review)  # keeps the latest revision
        verdict = await self.store.get_verdict(review.analysis_hash)
        if verdict is None:
            return []  # the verdict's arrival completes the pair
        return await self._promote(review, verdict, created_by=f"review:{review.annotation_id}:{review.revision}")

    async def _promote(
        self, review: AnnotationRecord, verdict: HarnessVerdict, created_by: str
    ) -> list[KnowledgeEvent]:
        """Insert-if-absent; only the message that created (or last revised) the package emits
        its event — again on redelivery. A later revision of the review supersedes the package
        built from an earlier one (``_supersede``); an earlier or equal revision changes nothing."""
        package = core.promote(
            review, verdict, created_by=created_by, min_review_score=self.min_review_score,
            superseded_by=await self._superseded_by(verdict),
        )
        package = package.model_copy(update={"provenance": package.provenance.model_copy(
            update={"annotation_revision": review.revision})})
        stored = await self.store.insert_package(package)
        if stored.created_by == created_by:
            return [revised_event(stored)]
        if review.revision <= (stored.provenance.annotation_revision or 1):
            return []
        return await self._supersede(stored, package)

    async def _supersede(self, stored: KnowledgePackage, fresh: KnowledgePackage) -> list[KnowledgeEvent]:
        """The package as the later revision makes it, judged afresh (candidate or rejected).

        A reviewer decided on the earlier revision; that decision does not carry over to
        content it never saw, so an activated package leaves the runtime snapshot until it is
        decided again. Its history, outbox and compare-and-set counter are kept.
        """
        replaced = fresh.model_copy(update={
            "history": stored.history, "outbox": stored.outbox, "revision": stored.revision + 1,
        })
        if not await self.store.save_package(replaced, revision(stored)):
            raise RuntimeError(f"package {stored.package_id} changed meanwhile; the revision is retried")
        self.log.info("package_superseded", package_id=stored.package_id, from_state=stored.state,
                      to_state=replaced.state,
                      annotation_revision=fresh.provenance.annotation_revision)
        if stored.state == "activated":
            await self._refresh_runtime([])
        return [revised_event(replaced)]

    # -- reviewer decisions ------------------------------------------------------------------------
    async def decide(
        self, package_id: str, decision: Decision, reviewer: str, comment: str | None = None
    ) -> tuple[KnowledgePackage, list[KnowledgeEvent]]:
        """Apply, persist (compare-and-set, events in the package outbox), publish.

        A refused activation is recorded and published too, then raised as a 422.
        """
        package = await self.store.get_package(package_id)
        if package is None:
            raise DecisionError(Issue(code="KD404", message=f"no knowledge package {package_id!r}"), 404)
        verdict = await self.store.get_verdict(package.analysis_hash)
        superseded_by = await self._superseded_by(verdict) if verdict else None
        dissent = core.dissenting_reviews(
            package, await self.store.reviews_for(package.analysis_hash), verdict,
            min_review_score=self.min_review_score,
        ) if verdict else []
        result = core.decide(package, decision, reviewer, comment=comment, superseded_by=superseded_by, dissent=dissent)
        _changed(result)
        decided: KnowledgePackage = result.package  # type: ignore[assignment]
        if not await self.store.save_package(decided, revision(package)):
            raise DecisionError(CHANGED_MEANWHILE, 409)
        return await self._settle(package.state, decided, result)

    async def _superseded_by(self, verdict: HarnessVerdict) -> str | None:
        """The later analysis of the same subject, when a re-analysis replaced this one."""
        latest = await self.store.latest_analysis(subject_of(verdict))
        return latest if latest and latest != verdict.analysis_hash else None

    def _saver(self, package: KnowledgePackage | CatalogPackage):
        return self.store.save_catalog if isinstance(package, CatalogPackage) else self.store.save_package

    def _loader(self, package: KnowledgePackage | CatalogPackage):
        return self.store.get_catalog if isinstance(package, CatalogPackage) else self.store.get_package

    async def _settle(self, before: str, decided: P, result: core.DecisionResult) -> tuple[P, list[KnowledgeEvent]]:
        """A stored decision's aftermath: the runtime cache follows any change of what is active, the events are
        published, and a refused activation (recorded and published too) is raised as a 422."""
        if before == "activated" or decided.state == "activated":
            await self._refresh_runtime(result.events)
        stored = await self._send(decided, result.events)
        if result.refused:
            assert result.error is not None
            raise DecisionError(result.error, 422)
        return stored, result.events

    async def _send(self, package: P, events: list[KnowledgeEvent]) -> P:
        """Publish, then drop the sent events from the outbox; unsent ones stay for ``flush_outbox``."""
        try:
            await self.publish(events)
        except Exception as exc:  # noqa: BLE001 - Redis down: the outbox keeps the events
            self.log.warning("knowledge_events_unpublished", package_id=package.package_id, error=type(exc).__name__)
            self.outbox_pending = True
            return await self._replace_outbox(package, {e.event_id: e for e in events}, drop=set())
        return await self._replace_outbox(package, {}, drop={e.event_id for e in events})

    async def _replace_outbox(self, package: P, updated: dict[str, KnowledgeEvent], drop: set[str]) -> P:
        """Compare-and-set the outbox, reloading on a concurrent change (its own events are kept)."""
        current = package
        save, load = self._saver(package), self._loader(package)
        for _ in range(5):
            outbox = [updated.get(e.event_id, e) for e in current.outbox if e.event_id not in drop]
            changed = current.model_copy(update={"outbox": outbox, "revision": current.revision + 1})
            if await save(changed, current.revision):  # type: ignore[arg-type]
                return changed
            reloaded = await load(package.package_id)
            if reloaded is None:
                return package
            current = reloaded
        return current

    async def flush_outbox(self) -> int:
        """Re-publish decision events whose publishing failed; returns how many were sent."""
        sent = await self._flush(await self.store.list_packages())
        sent += await self._flush(await self.store.list_catalogs())
        self.outbox_pending = False
        return sent

    async def _flush(self, packages: list[P]) -> int:
        sent = 0
        for package in packages:
            if package.outbox:
                await self.publish(list(package.outbox))
                await self._replace_outbox(package, {}, drop={e.event_id for e in package.outbox})
                sent += len(package.outbox)
        return sent

    async def _refresh_runtime(self, events: list[KnowledgeEvent]) -> None:
        """Refresh the runtime cache; an activation records whether it would serve through a TypeDB outage."""
        check = await typedb_outage_runtime_activation_success(self.store, self.cache)
        for event in events:
            if event.kind == "activated":
                served = check.serves(event.package_id)
                event.detail[OUTAGE_METRIC] = served
                # decision → served by the runtime snapshot cache: the activation path's own latency
                event.detail["runtime_activation_seconds"] = round((utcnow() - event.created_at).total_seconds(), 3)

    # -- the family catalog ------------------------------------------------------------------------
    async def active_catalog(self) -> tuple[FamilyCatalog, CatalogPackage | None]:
        """The catalog judged with: the store's active one, else the bundled one (and its package, if stored)."""
        package = await self.store.active_catalog()
        return (package.catalog, package) if package is not None else (bundled_catalog(), None)

    async def propose_catalog(
        self, catalog: FamilyCatalog, proposed_by: str
    ) -> tuple[CatalogPackage, list[KnowledgeEvent]]:
        """Store a catalog as a candidate (insert-if-absent by version) and publish its event.

        The same version with the same content again changes nothing; with other content it is
        refused (``KC409``): a changed catalog is a new version.
        """
        against, _ = await self.active_catalog()
        package = core.propose_catalog(catalog, proposed_by=proposed_by, against=against)
        stored = await self.store.insert_catalog(package)
        if stored.catalog.digest() != catalog.digest():
            raise DecisionError(Issue(code="KC409", message=f"catalog version {catalog.version} is stored with other "
                                      "content; give the change a new version"), 409)
        if stored.candidate_at != package.candidate_at:
            return stored, []  # proposed before
        events = list(stored.outbox)
        return await self._send(stored, events), events

    async def decide_catalog(
        self, package_id: str, decision: Decision, reviewer: str, comment: str | None = None
    ) -> tuple[CatalogPackage, list[KnowledgeEvent]]:
        """A reviewer decision on a catalog package, as on a case package: approve activates it at once,
        shadow keeps it aside until activate, reject takes it out. An event that changes the active
        catalog carries the catalog active from then on."""
        package = await self.store.get_catalog(package_id)
        if package is None:
            raise DecisionError(Issue(code="KD404", message=f"no catalog package {package_id!r}"), 404)
        result = core.decide(package, decision, reviewer, comment=comment)
        _changed(result)
        decided: CatalogPackage = result.package  # type: ignore[assignment]
        if not await self.store.save_catalog(decided, package.revision):
            raise DecisionError(CHANGED_MEANWHILE, 409)
        if package.state == "activated" and decided.state != "activated":
            now_active, _ = await self.active_catalog()
            for event in result.events:
                event.catalog = now_active
        return await self._settle(package.state, decided, result)

    async def offer_bundled_catalog(self) -> list[KnowledgeEvent]:
        """The catalog this release ships, offered once: activated when the store has no active catalog
        (a new installation), else a candidate for reviewers to decide on like any other."""
        bundled = bundled_catalog()
        if await self.store.get_catalog(core.catalog_package_id(bundled.version)) is not None:
            return []
        active = await self.store.active_catalog()
        package, events = await self.propose_catalog(bundled, BUNDLED_PROPOSER)
        if active is not None or not events:
            return events
        _, decided = await self.decide_catalog(package.package_id, "approve", BUNDLED_PROPOSER,
                                               comment="the catalog this release ships; no catalog was active")
        return events + decided

    # -- reads --------------------------------------------------------------------------------------
    async def packages(self, state: str | None = None) -> list[KnowledgePackage]:
        return await self.store.list_packages(state)

    async def package(self, package_id: str) -> KnowledgePackage | None:
        return await self.store.get_package(package_id)

    async def snapshot(self) -> RuntimeSnapshot:
        return await runtime_snapshot(self.store, self.cache)

    # -- graph queries (the store queries the graph; ``queries`` shapes the rows) ----------------------------
    async def probe_metrics(self) -> list[ProbeMetric]:
        return await self.store.probe_metrics()

    async def probe_plan(self, incident_id: str) -> ProbePlan | None:
        facts = await self.store.incident_facts(incident_id)
        return queries.probe_plan(facts) if facts is not None else None

    async def verified_actions(self, family: str) -> list[VerifiedAction]:
        name = normalize_family(family) or family
        return queries.verified_actions(name, await self.store.verified_actions(name))

    async def similar_incidents(self, incident_id: str) -> list[SimilarIncident]:
        return queries.similar_incidents(await self.store.similar_incidents(incident_id))

    async def readiness(self) -> str | None:
        """Why the knowledge service is not ready (its store refuses writes), or None when it is."""
        try:
            await self.store.check_writable()
        except (StoreUnavailable, StoreQueryError) as exc:
            return str(exc)
        return self.store.writes.problem()
