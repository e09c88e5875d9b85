"""Pollers publish each finished job directory once — across restarts — from .analysis/ and the jumpbox."""

from __future__ import annotations

import asyncio
import json
import shutil
import socket

from rcaloop.contracts import RawResult, Stream
from rcaloop.ingestion.app import IngestionSettings, build
from rcaloop.ingestion.pollers import JUMPBOX_PRODUCER, LOCAL_PRODUCER
from rcaloop.shared.wire import encode
from tests.conftest import running
from tests.helpers.streams import entries
from tests.integration.ingestion.conftest import EXAMPLE_JOB


async def _len(redis, key: str, n: int) -> bool:
    return await redis.xlen(key) >= n


def _copy_job(root, job_id: str, summary: str | None = None):
    target = root / job_id
    shutil.copytree(EXAMPLE_JOB, target)
    data = json.loads((target / "step5_summary.json").read_text())
    data["job_id"] = job_id
    if summary:
        data["root_cause"]["summary"] = summary
    (target / "step5_summary.json").write_text(json.dumps(data))
    return target


KEEP_RESULTS = {"rca.results": 3600.0}
"""``rca.results`` is trimmed once acknowledged; these tests read what the pollers published there."""


async def test_local_poller_publishes_each_job_once_across_restarts(redis, prefix, settings_factory, wait, tmp_path):
    root = tmp_path / ".analysis"
    root.mkdir()
    _copy_job(root, "1234567")
    (root / "5555555").mkdir()  # the agent has not written step5 yet
    partial = root / ".7777777.partial-1a2b"  # an interrupted download
    shutil.copytree(EXAMPLE_JOB, partial)
    settings = settings_factory(IngestionSettings, rcaloop_poll_local=root, rcaloop_poll_interval_s=0.1,
                                rcaloop_poll_settle_s=0,
                                stream_retention=KEEP_RESULTS)

    async with running([build(settings)], settings):
        await wait(lambda: _len(redis, Stream.INGESTED.key(prefix), 1))
        await asyncio.sleep(0.3)  # several more polls
    async with running([build(settings)], settings):  # a restart forgets nothing
        _copy_job(root, "2345678")
        await wait(lambda: _len(redis, Stream.INGESTED.key(prefix), 2))
        _copy_job(root, "3456789", summary="a different diagnosis")
        await wait(lambda: _len(redis, Stream.INGESTED.key(prefix), 3))
        await asyncio.sleep(0.3)

    results = await entries(redis, Stream.RESULTS, prefix)
    assert [r["job_id"] for r in results] == ["1234567", "2345678", "3456789"]
    assert {r["producer"] for r in results} == {LOCAL_PRODUCER}
    ingested = await entries(redis, Stream.INGESTED, prefix)
    assert [r["kind"] for r in ingested] == ["step_files"] * 3
    assert "step5_summary.json" in ingested[0]["content"]


async def test_local_poller_waits_until_a_job_directory_is_quiet(redis, prefix, settings_factory, tmp_path):
    root = tmp_path / ".analysis"
    root.mkdir()
    _copy_job(root, "1234567")  # written just now
    settings = settings_factory(IngestionSettings, rcaloop_poll_local=root, rcaloop_poll_interval_s=0.05,
                                rcaloop_poll_settle_s=30)
    async with running([build(settings)], settings):
        await asyncio.sleep(0.4)
    assert await redis.xlen(Stream.RESULTS.key(prefix)) == 0


async def test_jumpbox_poller_downloads_and_publishes_new_jobs_once(redis, prefix, settings_factory, wait, sftp,
                                                                    remote_jobs, jb_settings):
    jb = jb_settings().model_dump()
    settings = settings_factory(IngestionSettings, **jb, rcaloop_poll_jumpbox=True, rcaloop_poll_interval_s=0.1,
                                stream_retention=KEEP_RESULTS)

    async with running([build(settings)], settings):
        await wait(lambda: _len(redis, Stream.INGESTED.key(prefix), 1))
        await asyncio.sleep(0.3)
    assert (settings.rcaloop_analysis_root / "1234567" / "step5_summary.json").is_file()

    _copy_job(remote_jobs, "2345678")
    async with running([build(settings)], settings):  # restart: only the new job travels
        await wait(lambda: _len(redis, Stream.INGESTED.key(prefix), 2))
        await asyncio.sleep(0.3)

    results = await entries(redis, Stream.RESULTS, prefix)
    assert [r["job_id"] for r in results] == ["1234567", "2345678"]
    assert {r["producer"] for r in results} == {JUMPBOX_PRODUCER}
    assert sorted(p.name for p in settings.rcaloop_analysis_root.iterdir()) == ["1234567", "2345678"]


async def test_unreachable_jumpbox_does_not_stop_the_service(redis, prefix, settings_factory, wait, sftp, jb_settings):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed_port = s.getsockname()[1]
    jb = jb_settings(jumpbox_uri=f"tester@127.0.0.1 -p {closed_port}").model_dump()
    settings = settings_factory(IngestionSettings, **jb, rcaloop_poll_jumpbox=True, rcaloop_poll_interval_s=0.05)
    async with running([build(settings)], settings) as host:
        await asyncio.sleep(0.3)  # several failed polls
        record = RawResult(result_id="r-1", kind="skill_text", content="# still flowing\n")
        await redis.xadd(Stream.RESULTS.key(prefix), encode(record))
        await wait(lambda: _len(redis, Stream.INGESTED.key(prefix), 1))
        assert not host.done()
