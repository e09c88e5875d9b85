"""The web UI's browser tests share one way to run it: ``rcaloop up`` as a process for the review
pages (``pipeline``, one per test module; its helpers live in test_review_ui.py), the annotation
service as a process on PostgreSQL with a lead's week seeded for the lead's pages
(``lead_service``; test_lead_ui.py), and headless Chromium (``browser``)."""

from __future__ import annotations

import shutil

import pytest

from tests.e2e.annotation.test_lead_ui import LeadService
from tests.e2e.annotation.test_review_ui import CHROMIUM, CHROMIUM_ARGS, Pipeline, _need_browser


@pytest.fixture(scope="module")
def pipeline(redis_url, tmp_path_factory):
    if shutil.which("redis-cli") is None:
        pytest.skip("redis-cli is not installed")
    _need_browser()
    p = Pipeline(redis_url, tmp_path_factory.mktemp("review-ui"))
    yield p
    p.stop()


@pytest.fixture(scope="module")
def lead_service(redis_url, pg_url, tmp_path_factory):
    _need_browser()
    s = LeadService(redis_url, pg_url, tmp_path_factory.mktemp("lead-ui"))
    yield s
    s.stop()
    from tests.conftest import delete_prefixed  # noqa: PLC0415

    delete_prefixed(redis_url, s.prefix)


@pytest.fixture(scope="module")
def browser():
    _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
