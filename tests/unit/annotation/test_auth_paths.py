"""Annotator tokens."""

from __future__ import annotations

import pytest

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
