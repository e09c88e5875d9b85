"""The runtime snapshot: the active packages the agent reads, cached in a local JSON file.

Every successful read from the store refreshes the cache; when the store (TypeDB) is
unreachable the cache keeps serving, marked ``stale`` — the agent's runtime activation
never depends on TypeDB being up (release metric ``typedb_outage_runtime_activation_success``).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from rcaloop.contracts.knowledge import RuntimeSnapshot
from rcaloop.knowledge import core
from rcaloop.knowledge.store import KnowledgeStore, StoreUnavailable
from rcaloop.shared.catalog import bundled_catalog


class SnapshotCache:
    def __init__(self, path: Path):
        self.path = Path(path)

    def write(self, snapshot: RuntimeSnapshot) -> None:
        """Atomic replace, so a reader never sees half a file."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".snapshot-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(snapshot.model_dump_json(indent=2))
        os.replace(tmp, self.path)

    def read(self) -> RuntimeSnapshot | None:
        try:
            return RuntimeSnapshot.model_validate_json(self.path.read_text(encoding="utf-8"))
        except (OSError, ValidationError, ValueError):
            return None


async def runtime_snapshot(store: KnowledgeStore, cache: SnapshotCache) -> RuntimeSnapshot:
    """From the store (refreshing the cache), else from the cache; raises only when neither answers.

    The snapshot holds the active family catalog: the store's, else the bundled one.
    """
    try:
        packages = core.active(await store.list_packages("activated"))
        catalog = await store.active_catalog()
    except StoreUnavailable:
        cached = cache.read()
        if cached is None:
            raise
        return cached.model_copy(update={"source": "cache", "stale": True})
    snapshot = RuntimeSnapshot(
        packages=packages,
        catalog=catalog.catalog if catalog else bundled_catalog(),
        catalog_package_id=catalog.package_id if catalog else None,
    )
    cache.write(snapshot)
    return snapshot


class UnreachableStore:
    """A store during an outage: every call fails as an unreachable TypeDB does."""

    name = "unreachable"

    def __getattr__(self, attr: str):
        async def fail(*_args, **_kwargs):
            raise StoreUnavailable("knowledge store unreachable (outage)")

        return fail


@dataclass(frozen=True)
class OutageCheck:
    typedb_outage_runtime_activation_success: bool
    active_packages: int
    served_from: str | None
    reason: str | None = None
    package_ids: tuple[str, ...] = ()
    catalog_package_id: str | None = None
    """The catalog package the snapshot served through the outage (None: the bundled catalog)."""

    def serves(self, package_id: str) -> bool:
        """Whether the snapshot served during the outage holds this package (a case or the active catalog)."""
        return (self.typedb_outage_runtime_activation_success
                and package_id in (*self.package_ids, self.catalog_package_id))


async def typedb_outage_runtime_activation_success(store: KnowledgeStore, cache: SnapshotCache) -> OutageCheck:
    """Read the snapshot while the store answers, then as if it were down: the agent must get the same packages."""
    live, note = None, ""
    try:
        live = await runtime_snapshot(store, cache)
    except StoreUnavailable as exc:
        note = str(exc)
    try:
        during = await runtime_snapshot(UnreachableStore(), cache)  # type: ignore[arg-type]
    except StoreUnavailable:
        return OutageCheck(False, 0, None, "no cached runtime snapshot to serve during the outage")
    ids = [p.package_id for p in during.packages]
    if live is not None and (ids != [p.package_id for p in live.packages]
                             or during.catalog_package_id != live.catalog_package_id):
        reason = "the cached snapshot differs from the store's active packages"
        return OutageCheck(False, len(ids), during.source, reason, tuple(ids), during.catalog_package_id)
    served = None if live is not None else f"store already unreachable ({note}); served the last cached snapshot"
    return OutageCheck(True, len(ids), during.source, served, tuple(ids), during.catalog_package_id)
