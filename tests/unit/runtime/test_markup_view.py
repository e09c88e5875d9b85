"""The rendered view (one for the secret detector and the action reader) drops what a reader
never sees: a comment, one left open, an element marked hidden — with all its text."""

from __future__ import annotations

import pytest

from rcaloop.shared.markup_view import HIDDEN, rendered_view


@pytest.mark.parametrize("text, seen", [
    ("restart now <!-- after approval; impact: none -->", "restart now "),
    ("restart now <!-- after approval", "restart now "),
    ("restart <span hidden>after approval</span> now", "restart  now"),
    ('restart <span class="x" hidden="hidden">after approval</span> now', "restart  now"),
    ('restart <div style="display: none">after approval</div> now', "restart  now"),
    ('restart <p style="visibility:hidden">after approval</p> now', "restart  now"),
    ('keep <span aria-hidden="true">this</span> text', "keep this text"),  # shown on screen
    ("keep <b>bold</b> and <!-- x --> text", "keep bold and  text"),
])
def test_what_renders_as_nothing_is_dropped_with_its_text(text, seen):
    assert rendered_view(text).text == seen


def test_each_hidden_piece_traces_to_its_source():
    text = "restart <span hidden>after approval</span> now"
    view = rendered_view(text)
    at = view.text.index("now")
    assert view.source(at, at + 3) == (text.index("now"), len(text))
    assert view.source(0, len(view.text)) == (0, len(text))
    assert [m.group(0) for m in HIDDEN.finditer(text)] == ["<span hidden>after approval</span>"]
