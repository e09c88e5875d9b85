"""Bad input is a result with codes, never an exception (property-based)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rcaloop.gate.cases import load_cases
from rcaloop.gate.novel_e2e import Refused, load_captures
from rcaloop.gate.release_gate import check_release_gate, exit_code

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300) | JSON.map(lambda v: json.dumps(v).encode()))
def test_release_gate_never_raises_and_exits_0_1_or_2(raw):
    assert exit_code(check_release_gate(raw)) in (0, 1, 2)


@settings(max_examples=100, deadline=None)
@given(st.lists(JSON.map(json.dumps) | st.text(max_size=40), max_size=5))
def test_fixture_and_capture_loaders_never_raise(lines):
    text = "\n".join(line.replace("\n", " ") for line in lines)
    load_cases(text)
    try:
        load_captures(text)
    except Refused:
        assert "novel_hypothesis" in text
