"""Property tests: any text parses to a result, quickly, and never links outside the registry."""

from __future__ import annotations

import os
import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rcaloop.contracts import ParsedRCA
from tests.unit.parser.helpers import BASE, REGISTRY, capture, parse, step_files

PREFIXES = tuple(REGISTRY.url_prefixes())
LINK_TARGET = re.compile(r"\]\(\s*<?([^)\s>]*)")
EXAMPLES = int(os.environ.get("RCALOOP_HYPOTHESIS_EXAMPLES", "60"))
"""Kept modest for the suite's speed; raise it for a deeper local run."""
FAST = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

pieces = st.sampled_from(
    [
        "[",
        "]",
        "(",
        ")",
        "](",
        "[x](",
        "![",
        "<",
        ">",
        "\n",
        " ",
        "`",
        "**",
        "#",
        "RCA_CHAT\n",
        "END_RCA_CHAT\n",
        "RCA_FIELDS\n",
        "RCA_OUTCOME: ",
        "**Cause**",
        "msg:m-1001",
        "msg:m-1002",
        "rca:r-77",
        "code:shop@4f2c9e1/a.py#L1",
        "code:shop@4f2c9e1/../x#L1",
        "https://evil.example/",
        "javascript:alert(1)",
        "data:,x",
        "/srv/checkouts/shop/",
        "sensitive_data: ",
        "logs:password",
        "confidence: high\n",
        '"t"',
        "\\",
        "\x00",
        "\ue000",
        "\ue001",
        "[ref]: ",
    ]
)
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


CODE_BLOCK_OPENER = re.compile(r"(?mi)^ {0,3}(?:`{3,}|~{3,})|^[ \t]*<(?:pre|script|style|textarea|!--)")


@FAST
@given(markdownish)
def test_text_inside_a_valid_report(text):
    """Fuzz the chat and the report around a valid skeleton: the parser never loses its footing."""
    parsed = parse(BASE.replace("**Now**", text + "\n**Now**").replace("## Summary", "## Summary\n" + text))
    assert_safe(parsed)
    if not CODE_BLOCK_OPENER.search(text):  # (a block left open runs to the end: the fields block is then code)
        assert parsed.fields.confidence == "high"


@FAST
@given(markdownish)
def test_any_text_in_step_files_and_captures(text):
    """Agent-written strings in JSON shapes reach the post only through citation resolution."""
    content = step_files()
    content["step5_summary.json"]["root_cause"]["summary"] = text
    assert_safe(parse(content, kind="step_files"))
    cap = capture()
    cap.update(title=text, summary=text)
    cap["claims"][0]["text"] = text
    assert_safe(parse(cap, kind="capture"))


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 40), st.sampled_from(["[", "](", "[x](", "[a [b](msg:m-1001)](https://e.x)", "(", "!["]))
def test_nested_and_unbalanced_brackets(depth, unit):
    text = "[" * depth + "x" + "](https://evil.example)" * depth + unit * depth
    assert_safe(parse(f"# t\n\n## Summary\n{text}\n"))


def _timed(text: str) -> float:
    """CPU seconds to parse ``text``: a bound on the work, whatever else the machine runs."""
    start = time.process_time()
    assert_safe(parse(text))
    return time.process_time() - start


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
        "spaces after link open": "[a](" + " " * mb + "x",
        "spaces before title": "[a](x" + " " * mb + "y)",
        "pipes in chat": "RCA_CHAT\n**Now**\n" + "| " * (mb // 2) + "x\n",
        "markup inside a word": "A**B`C" * (mb // 6),
        "entities inside a word": "A&#81;" * (mb // 6),
        "query parameters": "?token=" * (mb // 7),
        "webhook paths": "x.y/hooks/" * (mb // 10),
        "colons after a curl user": "curl -u a" + ":" * mb,
        "closing punctuation": "token: x" + ")" * mb,
        "pre blocks": "<pre>\n" * (mb // 6),
        "scheme-less hosts": "RCA_CHAT\n**Now**\n" + "a.bc/" * (mb // 5) + "\n",
    }
    times = {name: _timed(text) for name, text in shapes.items()}
    context = "RCA context (from the RCA service):\n- Already analyzed, do not re-analyze: " + " (" * (mb // 2)
    times["context block"] = _timed_context(context)
    assert max(times.values()) < 3.0, times


def _timed_context(input_text: str) -> float:
    start = time.process_time()
    parsed = parse(BASE, input_text=input_text)
    assert [w.code for w in parsed.warnings] == ["RCA402", "RCA401"]
    return time.process_time() - start


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
STEP5_KEYS = ["job_id", "root_cause", "evidence", "difficulty", "difficulty_score", "difficulty_justification",
              "recommendations", "contributing_factors", "alternative_diagnoses"]  # fmt: skip
CAPTURE_KEYS = ["root_cause_family", "family", "candidates", "summary", "root_cause", "confidence", "claims",
                "evidence", "recommendations", "confidence_diagnostics", "title", "alert", "report_markdown",
                "outcome"]  # fmt: skip


@FAST
@given(
    st.dictionaries(st.sampled_from(STEP5_KEYS), json_values),
    st.dictionaries(st.sampled_from(CAPTURE_KEYS), json_values),
)
def test_any_json_shape_becomes_a_result(step5_changes, capture_changes):
    """Tolerant adapters: wrong types and shapes are findings, never exceptions."""
    content = step_files()
    content["step5_summary.json"].update(step5_changes)
    content["step3_correlation.json"] = {"timeline": list(step5_changes.values())}
    assert_safe(parse(content, kind="step_files", job_id="1234567"))
    cap = capture()
    cap.update(capture_changes)
    assert_safe(parse(cap, kind="capture"))
