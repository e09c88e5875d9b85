"""The one traceability dialect: what the harness and the annotation validator both accept."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rcaloop.shared import jsonpath

DOC = {
    "failed_tasks": [{"duration": 917.565567, "retries": 12, "ok": False, "note": None}],
    "a b": {"c": [1, 2]},
    'say "hi"': "quoted",
    "files": [{"path": "roles/x.yml", "content": "- name: x\n  retries: 12\n  delay: 75\n"}],
}


def test_resolves_seed_paths():
    assert jsonpath.resolve(DOC, "failed_tasks[0].duration").value == 917.565567
    assert jsonpath.resolve(DOC, "$.failed_tasks[0].duration").value == 917.565567
    assert jsonpath.resolve(DOC, "$failed_tasks[0].duration").value == 917.565567
    assert jsonpath.resolve(DOC, '["a b"].c[1]').value == 2
    assert jsonpath.resolve(DOC, "['a b'].c[0]").value == 1
    assert jsonpath.resolve(DOC, r'["say \"hi\""]').value == "quoted"
    missing = jsonpath.resolve(DOC, "failed_tasks[0].host")
    assert not missing.found and missing.failed_at == "failed_tasks[0]"
    assert jsonpath.resolve(DOC, "failed_tasks[1]").failed_at == "failed_tasks"


@pytest.mark.parametrize("bad", ["", "a..b", "a[x]", "a.", "[0", "a b", "a[-1]", "failed_tasks[-1].duration", "a[0]b"])
def test_malformed_paths_are_refused_by_everyone(bad):
    with pytest.raises(jsonpath.PathSyntaxError):
        jsonpath.parse(bad)
    assert jsonpath.try_parse(bad) is None
    assert jsonpath.check(DOC, bad, exact_value=1).problem == "malformed_path"


@pytest.mark.parametrize(("path", "nothing"),
                         [("$", True), ("$.", True), (" $ ", True), ("$.a", False), ("a[0]", False),
                                             ("", False), ("a[", False)])
def test_a_path_of_no_step_names_nothing(path, nothing):
    """``$`` reaches the whole document; a missing or malformed path is another finding, not this one."""
    assert jsonpath.names_nothing(path) is nothing


def test_normalize_gives_the_canonical_spelling():
    assert jsonpath.normalize("$.failed_tasks[0].duration") == "failed_tasks[0].duration"
    assert jsonpath.normalize("['a b'].c") == '["a b"].c'
    assert jsonpath.normalize("not a [path") == "not a [path"


@pytest.mark.parametrize(
    ("expected", "actual", "equal"),
    [
        (917.565567, 917.565567, True),
        (12, 12.0, True),
        ("12", 12, False),
        (12, "12", False),
        (True, 1, False),
        (False, 0, False),
        (None, None, True),
        ("403 ", "403", False),
        ([1, {"a": True}], [1, {"a": True}], True),
        ([1, {"a": True}], [1, {"a": 1}], False),
        ({"a": 1}, {"a": 1, "b": 2}, False),
    ],
)
def test_values_compare_as_json(expected, actual, equal):
    assert jsonpath.values_equal(expected, actual) is equal


def test_check_value_quote_and_line():
    assert jsonpath.check(DOC, "failed_tasks[0].duration", exact_value=917.565567).ok
    assert jsonpath.check(DOC, "failed_tasks[0].retries", exact_value="12").problem == "value_differs"
    assert jsonpath.check(DOC, "failed_tasks[0].ok", exact_value=0).problem == "value_differs"
    assert jsonpath.check(DOC, "failed_tasks[0].nope", exact_value=1).problem == "unresolved"
    content = "files[0].content"
    assert jsonpath.check(DOC, content, exact_quote="retries: 12", line_number=2).ok
    assert jsonpath.check(DOC, content, exact_quote="retries: 12").ok
    assert jsonpath.check(DOC, content, exact_quote="retries: 12", line_number=3).problem == "wrong_line"
    assert jsonpath.check(DOC, content, exact_quote="retries: 13").problem == "quote_missing"
    # a quote never matches inside a container (it would match keys and JSON punctuation)
    assert jsonpath.check(DOC, "files[0]", exact_quote="roles/x.yml").problem == "quote_missing"
    assert jsonpath.check(DOC, "failed_tasks[0].retries", exact_quote="12").ok
    assert jsonpath.check(DOC, "failed_tasks[0].duration").problem == "nothing_to_match"


def test_find_returns_leaf_paths_in_document_order():
    assert jsonpath.find(DOC, lambda v: v == 12) == [["failed_tasks", 0, "retries"]]
    assert jsonpath.find({"a": [1, 1, 1]}, lambda v: v == 1, limit=2) == [["a", 0], ["a", 1]]


segments = st.lists(
    st.one_of(st.integers(min_value=0, max_value=50),
              st.text(alphabet="abcxyz_- .1\"\\\\'[]$", min_size=1, max_size=8)),
    min_size=1,
    max_size=6,
)


@given(segments)
def test_render_then_parse_is_identity(segs):
    assert jsonpath.parse(jsonpath.render(segs)) == segs
