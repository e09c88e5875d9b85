"""Same input → byte-identical verdict JSON; the input is never modified."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from rcaloop.contracts import ParsedRCA
from rcaloop.judge import core
from tests.unit.harness.cases import all_cases


@pytest.mark.parametrize("case", all_cases(), ids=lambda c: c.name)
def test_byte_identical_verdicts(case):
    before = case.parsed.model_dump_json()
    first = core.evaluate(case.parsed, case.config).model_dump_json()
    again = core.evaluate(ParsedRCA.model_validate_json(before), case.config).model_dump_json()
    assert first == again
    assert case.parsed.model_dump_json() == before


def test_evaluated_at_is_the_given_time_or_the_epoch():
    case = all_cases()[0]
    assert core.evaluate(case.parsed).evaluated_at == datetime(1970, 1, 1, tzinfo=UTC)
    now = datetime(2026, 3, 19, 10, 20, tzinfo=UTC)
    assert core.evaluate(case.parsed, now=now).evaluated_at == now
