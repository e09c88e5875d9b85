"""Annotator tokens and json_path round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rcaloop.annotation import jsonpath
from rcaloop.annotation.auth import Annotators, TokenConfigError


def test_tokens_identify_annotators():
    annotators = Annotators.parse("alice:tok-alice, bob:tok-bob")
    assert annotators.identify("tok-bob") == "bob"
    assert annotators.identify("tok-") is None and annotators.identify(None) is None
    assert Annotators.parse(None).identify("anything") is None


@pytest.mark.parametrize("spec", ["alice", "alice:", ":s3cr3t-token", "al ice:s3cr3t-token", "alice:abc"])
def test_bad_token_spec_is_refused_without_echoing_it(spec):
    with pytest.raises(TokenConfigError) as exc:
        Annotators.parse(spec)
    assert "s3cr3t" not in str(exc.value) and "abc" not in str(exc.value)


segments = st.lists(
    st.one_of(st.integers(min_value=-5, max_value=50), st.text(alphabet="abcxyz_- .1\"\\\\'", min_size=1, max_size=8)),
    min_size=1,
    max_size=6,
)


@given(segments)
def test_render_then_parse_is_identity(segs):
    assert jsonpath.parse(jsonpath.render(segs)) == segs
