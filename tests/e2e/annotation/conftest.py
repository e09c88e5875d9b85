"""The review UI's browser tests share one way to run it: ``rcaloop up`` as a process
(``pipeline``, one per test module) and headless Chromium (``browser``); the helpers live in
test_review_ui.py."""

from __future__ import annotations

import shutil

import pytest

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
def browser(pipeline):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
