"""Every page of the lead's cockpit, as a browser renders it (its scripts run), checked as the
review pages are (page_checks.py): element ids are unique, axe-core finds no serious or critical
accessibility violation at 1440 and 390 px, and at 390 px no page scrolls sideways (a wide table
or chart scrolls inside its own box).

The pages: the cockpit, the adjudication queue, a disputed task's adjudication page (also with
"Edit from this review" used), agreement, the three chart pages and the export. The service as a
process on PostgreSQL with a lead's week seeded (test_lead_ui.py); nothing here decides, so the
disputed task stays disputed whichever worker runs which test.
"""

from __future__ import annotations

import json
from functools import partial

import pytest

from tests.e2e.annotation.page_checks import (
    DESKTOP,
    IMAGES,
    PHONE,
    accessibility_problems,
    id_problems,
    screenshots,
    width_problems,
)
from tests.e2e.annotation.test_lead_ui import PAGES, LeadService, _signed_in


@pytest.fixture(scope="module")
def pages(lead_service) -> dict[str, str]:
    """name → address of each lead page; ``adjudication`` is the disputed task's."""
    out = {name: lead_service.base + path for name, path in PAGES.items()}
    out["adjudication"] = f"{lead_service.base}/ui/lead/adjudications/{lead_service.ids['disputed']}"
    return out


def _open(browser, lead_service: LeadService, name: str, url: str, width: int = DESKTOP):
    """The page as lena (a lead) sees it, its scripts run."""
    page = _signed_in(browser, lead_service, "lena", width=width)
    page.goto(url)
    page.wait_for_load_state("load")
    return page


def _views(page, name: str):
    """Each state of the page worth checking: the adjudication page as it opens and with a
    review copied into the written decision."""
    yield name
    if name == "adjudication":
        page.locator(".start-from").nth(1).click()
        yield f"{name} (edit from a review)"


def test_every_lead_page_has_unique_element_ids(lead_service, browser, pages):
    assert id_problems(partial(_open, browser, lead_service), _views, pages) == {}


def test_no_lead_page_has_a_serious_or_critical_accessibility_violation(lead_service, browser, pages):
    found = accessibility_problems(partial(_open, browser, lead_service), _views, pages)
    assert found == {}, json.dumps(found, indent=1, ensure_ascii=False)


def test_every_lead_page_fits_a_390_px_wide_screen(lead_service, browser, pages):
    assert width_problems(partial(_open, browser, lead_service), _views, pages) == {}


@screenshots
def test_phone_screenshots_for_the_docs(lead_service, browser, pages):
    """docs/images/lead-home-390.png and lead-harness-390.png: the cockpit and a chart page at a
    phone's width (390 × 844, the first screen; the chart whole). The desktop images come from
    test_lead_ui.py's walk through the pages. Run on demand, then look at each one."""
    for stem, name, part in (("lead-home-390", "home", None), ("lead-harness-390", "harness", "#figure-verdicts")):
        page = _open(browser, lead_service, name, pages[name], width=PHONE)
        page.set_viewport_size({"width": PHONE, "height": 844})
        target = IMAGES / f"{stem}.png"
        if part is None:
            page.screenshot(path=str(target))
        else:
            page.locator(part).screenshot(path=str(target))
        page.context.close()
        assert target.is_file()
