"""``docs/actions.md`` is generated from the vocabulary's tables and must not drift."""

from __future__ import annotations

from pathlib import Path

from rcaloop.judge.actions import docs

DOC = Path(__file__).resolve().parents[3] / "docs" / "actions.md"


def test_the_action_vocabulary_page_is_generated_from_the_tables():
    assert DOC.read_text(encoding="utf-8") == docs.render(), (
        "regenerate: python -m rcaloop.judge.actions.docs > docs/actions.md")
