"""Property tests: any text parses to a result, quickly, and never links outside the registry."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rcaloop.contracts import ParsedRCA
from tests.unit.parser.helpers import BASE, REGISTRY, parse

PREFIXES = tuple(REGISTRY.url_prefixes())
LINK_TARGET = re.compile(r"\]\(\s*<?([^)\s>]*)")
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

pieces = st.sampled_from([
    "[", "]", "(", ")", "](", "[x](", "![", "<", ">", "\n", " ", "`", "**", "#", "RCA_CHAT\n", "END_RCA_CHAT\n",
    "RCA_FIELDS\n", "RCA_OUTCOME: ", "**Cause**", "msg:m-1001", "msg:m-1002", "rca:r-77", "code:shop@4f2c9e1/a.py#L1",
    "code:shop@4f2c9e1/../x#L1", "https://evil.example/", "javascript:alert(1)", "data:,x", "/srv/checkouts/shop/",
    "sensitive_data: ", "logs:password", "confidence: high\n", '"t"', "\\", "\x00", "\ue000", "\ue001", "[ref]: ",
])
markdownish = st.lists(st.one_of(pieces, st.text(max_size=8)), max_size=80).map("".join)
garbage = st.binary(max_size=2000).map(lambda b: b.decode("utf-8", "replace"))


def assert_safe(parsed: ParsedRCA) -> None:
    """Every href and every link target in the post is a registry URL."""
    for c in parsed.citations:
        assert c.href is None or c.href.startswith(PREFIXES), c
        assert c.resolved == (c.href is not None)
    for target in LINK_TARGET.findall(parsed.chat_rendered):
        assert target.startswith(PREFIXES), (target, parsed.chat_rendered)
    assert isinstance(ParsedRCA.model_validate_json(parsed.model_dump_json()), ParsedRCA)


@FAST
@given(markdownish)
def test_markdownish_text(text):
    assert_safe(parse(text))


@FAST
@given(garbage)
def test_binary_garbage(text):
    assert_safe(parse(text))


@FAST
@given(markdownish)
def test_text_inside_a_valid_report(text):
    """Fuzz the chat and the report around a valid skeleton: the parser never loses its footing."""
    parsed = parse(BASE.replace("**Now**", text + "\n**Now**").replace("## Summary", "## Summary\n" + text))
    assert_safe(parsed)
    assert parsed.fields.confidence == "high"


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 40), st.sampled_from(["[", "](", "[x](", "[a [b](msg:m-1001)](https://e.x)", "(", "!["]))
def test_nested_and_unbalanced_brackets(depth, unit):
    text = "[" * depth + "x" + "](https://evil.example)" * depth + unit * depth
    assert_safe(parse(f"# t\n\n## Summary\n{text}\n"))


def _timed(text: str) -> float:
    start = time.perf_counter()
    assert_safe(parse(text))
    return time.perf_counter() - start


@pytest.mark.slow
def test_one_megabyte_inputs_parse_in_bounded_time():
    """Adversarial 1 MB shapes (regex backtracking bait) each parse well under a second."""
    mb = 1 << 20
    shapes = {
        "open brackets": "[" * mb,
        "label without close": "[" + "a" * mb,
        "link starts": "[a](" * (mb // 4),
        "bracket pairs": "[x]" * (mb // 3),
        "nested": "[" * (mb // 2) + "]" * (mb // 2),
        "many links": "[l](msg:m-1001) " * (mb // 16),
        "long target": "[x](" + "h" * mb + ")",
        "headings": "## " + " #" * (mb // 2),
        "one long line": "x" * mb,
        "many lines": "RCA_CHAT\n**Now**\n- a\n" * (mb // 20),
        "paths": "/srv/checkouts/shop/" * (mb // 20),
        "spaces in target": "[a](  " * (mb // 6),
    }
    times = {name: _timed(text) for name, text in shapes.items()}
    assert max(times.values()) < 2.0, times
