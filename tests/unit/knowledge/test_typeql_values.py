"""TypeQL literals carry every value exactly; the schema splits into types and functions."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from rcaloop.knowledge import typeql


def test_string_literals_escape_quotes_backslashes_and_control_characters():
    assert typeql.lit('a"b\\c') == '"a\\"b\\\\c"'
    assert typeql.lit("x\ny\x00") == '"x\\u000ay\\u0000"'
    assert typeql.lit('"; match $x isa thing; delete $x;') == '"\\"; match $x isa thing; delete $x;"'
    assert typeql.lit("ünï ✓") == '"ünï ✓"'


def test_keys_differing_only_in_a_control_character_stay_different_literals():
    variants = ["key", "key\x00", "key\x01", "key\n", "key\x7f", "key\x85"]
    assert len({typeql.lit(v) for v in variants}) == len(variants)


def test_text_that_is_not_valid_unicode_is_refused_not_mangled():
    with pytest.raises(ValueError, match="surrogate"):
        typeql.lit("half \ud800 a pair")


def test_numbers_and_times_are_typeql_literals():
    assert [typeql.double(x) for x in (86, 0.5, -1.5e-07, 1e20)] == ["86.0", "0.5", "-1.5e-07", "1.0e+20"]
    with pytest.raises(ValueError):
        typeql.double(float("nan"))
    local = datetime(2026, 11, 29, 12, 2, 3, 5, tzinfo=timezone(timedelta(hours=2)))
    assert typeql.dt(local) == "2026-11-29T10:02:03.000005+00:00"
    assert typeql.dt(datetime(2026, 11, 29, 10, 2)) == "2026-11-29T10:02:00.000000+00:00"  # no zone: UTC
