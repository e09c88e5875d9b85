"""What every page of the web UI is checked for, as a browser renders it: element ids are unique,
axe-core finds no serious or critical accessibility violation, and at a phone's width nothing
scrolls sideways (a wide table or chart scrolls inside its own ``.scroll-x`` box). Used by
test_review_pages.py (the review pages) and test_lead_pages.py (the lead's cockpit).

``RCALOOP_SCREENSHOTS=1`` turns on the tests that refresh docs/images/ from the same pages.
"""

from __future__ import annotations

import os

import pytest

from tests.e2e.annotation.test_review_ui import ROOT

IMAGES = ROOT / "docs" / "images"
DESKTOP = 1440
PHONE = 390
SEVERE = ("serious", "critical")

screenshots = pytest.mark.skipif(os.environ.get("RCALOOP_SCREENSHOTS") != "1",
                                 reason="writes docs/images/: RCALOOP_SCREENSHOTS=1 to refresh them")


def duplicate_ids(page) -> list[str]:
    """The ids more than one element on the page carries."""
    return page.evaluate("""() => {
        const seen = {};
        document.querySelectorAll('[id]').forEach(n => { seen[n.id] = (seen[n.id] || 0) + 1; });
        return Object.keys(seen).filter(k => seen[k] > 1);
    }""")


def severe_violations(axe, page) -> list[str]:
    """axe-core's serious and critical findings on the page, one line each (rule, impact, help, an
    example element)."""
    results = axe.run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {len(v['nodes'])} node(s), e.g. {v['nodes'][0]['target']}"
        for v in results.response["violations"] if v["impact"] in SEVERE
    ]


def sideways(page, limit: int = PHONE) -> tuple[int, list[str]] | None:
    """None when the page is no wider than ``limit``; else its width and the first elements that
    stick out (those inside a ``.scroll-x`` box scroll there and are not counted)."""
    width = page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
    if width <= limit:
        return None
    culprits = page.evaluate("""(limit) => Array.from(document.querySelectorAll('body *'))
        .filter(n => n.getBoundingClientRect().right > limit + 1 && !n.closest('.scroll-x'))
        .slice(0, 5).map(n => n.tagName + (n.id ? '#' + n.id : '') + '.' + (n.getAttribute('class') || ''))""", limit)
    return width, culprits


def _each_view(open_page, views, pages: dict[str, str], widths: tuple[int, ...]):
    """(label, page) for each view of each page at each width: ``open_page(name, url, width)``
    opens a page, ``views(page, name)`` steps it through the states worth checking; a page is
    closed after its last view. The label names the width when there are several."""
    for width in widths:
        for name, url in pages.items():
            page = open_page(name, url, width)
            for view in views(page, name):
                yield (view if len(widths) == 1 else f"{view} at {width} px"), page
            page.context.close()


def id_problems(open_page, views, pages: dict[str, str]) -> dict[str, list[str]]:
    """Per view, the ids more than one element carries, and the errors the page's scripts raised."""
    found = {}
    for view, page in _each_view(open_page, views, pages, (DESKTOP,)):
        if dupes := duplicate_ids(page):
            found[f"{view}: ids used more than once"] = dupes
        if page.errors:
            found[f"{view}: script errors"] = list(page.errors)
    return found


def accessibility_problems(open_page, views, pages: dict[str, str]) -> dict[str, list[str]]:
    """Per view at 1440 and 390 px, axe-core's serious and critical findings."""
    from axe_playwright_python.sync_playwright import Axe  # noqa: PLC0415 - a test tool, loaded by its tests

    axe = Axe()
    found = {}
    for view, page in _each_view(open_page, views, pages, (DESKTOP, PHONE)):
        if severe := severe_violations(axe, page):
            found[view] = severe
    return found


def width_problems(open_page, views, pages: dict[str, str]) -> dict[str, tuple[int, list[str]]]:
    """Per view at 390 px that scrolls sideways, its width and what sticks out."""
    found = {}
    for view, page in _each_view(open_page, views, pages, (PHONE,)):
        if wide := sideways(page):
            found[view] = wide
    return found
