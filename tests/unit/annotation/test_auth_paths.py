"""Annotator tokens."""

from __future__ import annotations

import pytest

from rcaloop.annotation.auth import Annotators, TokenConfigError


ALICE, BOB = "tok-alice-Qm4Zp8Lw2Xv6Rt9Y", "tok-bob-Hs7Kd3Nf5Jb1Gc8V"


def test_tokens_identify_annotators():
    annotators = Annotators.parse(f"alice:{ALICE}, bob:{BOB}")
    assert annotators.identify(BOB) == "bob"
    assert annotators.identify(BOB[:-1]) is None and annotators.identify(None) is None
    assert Annotators.parse(None).identify("anything") is None


@pytest.mark.parametrize("spec", ["alice", "alice:", ":s3cr3t-token-Qm4Zp8Lw2Xv6", "al ice:s3cr3t-token-Qm4Zp8Lw2Xv6"])
def test_bad_token_spec_is_refused_without_echoing_it(spec):
    with pytest.raises(TokenConfigError) as exc:
        Annotators.parse(spec)
    assert "s3cr3t" not in str(exc.value) and "is not name:token" in str(exc.value)


@pytest.mark.parametrize(
    "token,why",
    [
        ("s3cr3t", "it has 6 characters"),  # the one-character and short tokens of before
        ("x", "it has 1 characters"),
        ("s3cr3ts3cr3ts3cr3ts3cr3ts3cr3t", "repeats too few characters"),
        ("a" * 40, "repeats too few characters"),
    ],
)
def test_a_weak_token_stops_the_service_with_the_rule_never_the_token(token, why):
    with pytest.raises(TokenConfigError) as exc:
        Annotators.parse(f"alice:{BOB[:4]}-ok-Hs7Kd3Nf5Jb1Gc8V,bob:{token}")
    message = str(exc.value)
    assert "RCALOOP_ANNOTATOR_TOKENS entry 2 (bob): the token is too weak" in message and why in message
    assert "at least 24 characters" in message and "secrets.token_urlsafe" in message
    assert token not in message

