"""Annotation store and API on both backends: a SQLite file and a PostgreSQL schema per test."""

from __future__ import annotations

import hashlib
import shutil
import uuid
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from rcaloop.annotation.api import ApiState, build_router, guard
from rcaloop.annotation.auth import Annotators
from rcaloop.annotation.settings import AnnotationSettings
from rcaloop.annotation.store import Store, database_url
from rcaloop.contracts import HarnessVerdict, ParsedRCA
from rcaloop.shared.service import Service, http_app
from rcaloop.shared.tokens import Tokens

ROOT = Path(__file__).resolve().parents[3]
JOB_DIR = ROOT / "examples" / "jobs" / "1234567"
TOKENS = {name: f"tok-{name}-6Hq2Lw9Zx4Pd7Vm3" for name in ("alice", "bob", "carol", "olga", "lena")}
REVIEWERS, OPERATORS, LEADS = ("alice", "bob", "carol"), ("olga",), ("lena",)
"""The reviewers' tokens (RCALOOP_ANNOTATOR_TOKENS), an operator's and a lead's."""


def tokens(names: tuple[str, ...]) -> str:
    return ",".join(f"{n}:{TOKENS[n]}" for n in names)


class Clock:
    """Lease time under the test's control (the store's clock is injectable)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def store(request, tmp_path):
    schema = None
    if request.param == "sqlite":
        url = database_url(None, tmp_path / "data")
    else:
        url = request.getfixturevalue("pg_url")
        schema = f"ann_{uuid.uuid4().hex[:12]}"
        admin = create_async_engine(url)
        async with admin.begin() as conn:
            await conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    s = Store(url, schema=schema)
    s.clock = Clock()
    await s.migrate()
    yield s
    await s.close()
    if schema:
        async with admin.begin() as conn:
            await conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        await admin.dispose()


@pytest.fixture
def analysis_root(tmp_path) -> Path:
    root = tmp_path / "analysis"
    shutil.copytree(JOB_DIR, root / "1234567")
    return root


@pytest.fixture
async def api(store, analysis_root):
    settings = AnnotationSettings(rcaloop_analysis_root=analysis_root, review_lease_s=60)
    state = ApiState(
        settings=settings, annotators=Annotators.parse(tokens(REVIEWERS)), store=store,
        operators=Tokens.parse(tokens(OPERATORS), "RCALOOP_OPERATOR_TOKENS"),
        leads=Tokens.parse(tokens(LEADS), "RCALOOP_LEAD_TOKENS"),
    )
    app = http_app([Service(name="annotation", http_router=build_router(state), http_guards=[guard(state)])], settings)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://test") as client:
        yield client


def auth(name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKENS[name]}"}


def verdict(
    n: int,
    *,
    job_id: str | None = "1234567",
    kind: str = "step_files",
    result_id: str | None = None,
    analysis_hash: str | None = None,
    verdict: str = "pass",
    evaluated_at=None,
) -> HarnessVerdict:
    h = analysis_hash or hashlib.sha256(f"analysis-{n}".encode()).hexdigest()
    parsed = ParsedRCA(
        analysis_hash=h, outcome="report", job_id=job_id, source_kind=kind, title=f"RCA {n}", result_id=result_id
    )
    extra = {"evaluated_at": evaluated_at} if evaluated_at else {}
    return HarnessVerdict(
        analysis_hash=h, job_id=job_id, result_id=result_id, verdict=verdict, score=80.0, parsed=parsed, **extra
    )
