"""The input context block: rcaloop builds it (eval runner) and parses it back (SPEC §3a)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rcaloop.contracts.parsed import AlreadyAnalyzed
from rcaloop.shared.context_block import build_context_block, parse_context_block

SAMPLE = """RCA context (from the RCA service):
- Analyze only these subjects: checkout-api, payments
- Already analyzed, do not re-analyze: cart-api (earlier RCA #r-77), db (earlier RCA #91)
- History SQL: /opt/nimi/bin/nimi-sql "SELECT * FROM incidents WHERE service = 'checkout-api'"
---
FIRING: HighErrorRate checkout-api
second line
"""


def test_parse_the_documented_block():
    ctx, issues = parse_context_block(SAMPLE)
    assert issues == []
    assert ctx.subjects == ["checkout-api", "payments"]
    assert [(a.subject, a.rca_id) for a in ctx.already_analyzed] == [("cart-api", "r-77"), ("db", "91")]
    assert ctx.history_sql == "/opt/nimi/bin/nimi-sql \"SELECT * FROM incidents WHERE service = 'checkout-api'\""
    assert ctx.body == "FIRING: HighErrorRate checkout-api\nsecond line\n"


def test_no_block_is_none():
    assert parse_context_block("FIRING: disk full\n") == (None, [])
    assert parse_context_block(None) == (None, [])


def test_malformed_lines_are_reported_by_line_number():
    ctx, issues = parse_context_block(SAMPLE.replace("db (earlier RCA #91)", "db (see #91)"))
    assert [(i.code, i.line) for i in issues] == [("RCA402", 3)]
    assert ctx.body.startswith("FIRING")


def test_build_then_parse_round_trips():
    text = build_context_block(
        "alert body\n",
        subjects=["a", "b"],
        already_analyzed=[("c", "r-1"), AlreadyAnalyzed(subject="d", rca_id="2")],
        history_sql='x/nimi-sql "SELECT 1"',
    )
    ctx, issues = parse_context_block(text)
    assert issues == [] and ctx.subjects == ["a", "b"] and ctx.body == "alert body\n"
    assert [(a.subject, a.rca_id) for a in ctx.already_analyzed] == [("c", "r-1"), ("d", "2")]


@pytest.mark.parametrize(
    "bad", [{"subjects": ["a,b"]}, {"subjects": [" "]}, {"already_analyzed": [("x", "r 1")]}, {"history_sql": "a\nb"}]
)
def test_builder_refuses_values_it_cannot_represent(bad):
    with pytest.raises(ValueError):
        build_context_block("body", **bad)


NAME = st.text(
    st.characters(blacklist_characters=",()#\n\r", blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")),
    min_size=1,
    max_size=20,
)


@settings(max_examples=60, deadline=None)
@given(
    subjects=st.lists(NAME, max_size=4),
    done=st.lists(st.tuples(NAME, st.from_regex(r"[A-Za-z0-9-]{1,8}", fullmatch=True)), max_size=3),
    body=st.text(max_size=200),
)
def test_round_trip_property(subjects, done, body):
    ctx, issues = parse_context_block(build_context_block(body, subjects=subjects, already_analyzed=done))
    assert issues == []
    assert ctx.subjects == [s.strip() for s in subjects]
    assert [(a.subject, a.rca_id) for a in ctx.already_analyzed] == [(s.strip(), i) for s, i in done]
    assert ctx.body == body


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "- Analyze only these subjects:",
                "- Already analyzed, do not re-analyze:",
                "- History SQL:",
                "(earlier RCA #",
                ")",
                ",",
                "---",
                "\n",
                " ",
                "x",
                "#",
                "(",
            ]
        )
        | st.text(max_size=6),
        max_size=40,
    ).map("".join)
)
def test_any_text_after_the_header_parses_without_raising(tail):
    ctx, issues = parse_context_block("RCA context (from the RCA service):\n" + tail)
    assert ctx is not None
    assert {i.code for i in issues} <= {"RCA401", "RCA402"}
    assert all(a.subject and a.rca_id and " " not in a.rca_id for a in ctx.already_analyzed)


def test_a_numeric_rca_id_is_the_same_id_as_its_text():
    """``earlier RCA #77``: an id given as a number (a tuple, a model, or a fixture's JSON) builds
    the block and reads back as the text ``"77"``."""
    for earlier in (("checkout-db", 77), AlreadyAnalyzed.model_validate({"subject": "checkout-db", "rca_id": 77})):
        text = build_context_block("HighErrorRate\n", subjects=["checkout-api"], already_analyzed=[earlier])
        assert "- Already analyzed, do not re-analyze: checkout-db (earlier RCA #77)\n" in text
        ctx, issues = parse_context_block(text)
        assert issues == [] and ctx.already_analyzed == [AlreadyAnalyzed(subject="checkout-db", rca_id="77")]
    with pytest.raises(ValueError):
        AlreadyAnalyzed.model_validate({"subject": "checkout-db", "rca_id": True})
