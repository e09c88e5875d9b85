"""One vocabulary: each concept has one home, and within one question a word has one meaning."""

from __future__ import annotations

import ast
import inspect
from itertools import combinations

import pytest

from rcaloop.judge import vocab
from rcaloop.judge.vocab import AXES, DERIVED, Concept, en, ko, table


def test_every_listed_concept_answers_exactly_one_question():
    listed = [c for c in Concept if c not in DERIVED]
    placed = [c for concepts in AXES.values() for c in concepts]
    assert sorted(placed) == sorted(set(placed)), "a concept is on two axes"
    assert set(placed) == set(listed), f"concepts on no axis: {set(listed) - set(placed)}"


@pytest.mark.parametrize("lang", sorted(table()))
@pytest.mark.parametrize("axis", sorted(AXES))
def test_no_two_concepts_of_one_question_share_a_word(axis, lang):
    words = table()[lang]
    shared = {(a.value, b.value): sorted(words.get(a, frozenset()) & words.get(b, frozenset()))
              for a, b in combinations(AXES[axis], 2)}
    assert not {pair: w for pair, w in shared.items() if w}


@pytest.mark.parametrize("module", [en, ko], ids=lambda m: m.LANG)
def test_no_concept_is_defined_twice_and_no_word_is_listed_twice(module):
    tree = ast.parse(inspect.getsource(module))
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "WORDS":
            keys = [k.value for k in node.value.keys]  # type: ignore[union-attr]
            assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)
    for name, text in module.WORDS.items():
        entries = [" ".join(w.split()).lower() for w in text.split(",") if w.strip()]
        assert len(entries) == len(set(entries)), (name, sorted({w for w in entries if entries.count(w) > 1}))
        Concept(name)  # every key names a concept


def test_no_inflection_is_listed_beside_its_lemma():
    """Inflections come from the lemmatizer: listing ``approves`` beside ``approve`` would be a second
    home for one word (an adjective such as ``expected`` is a word of its own)."""
    from rcaloop.judge import lemma

    assert vocab.has(Concept.APPROVAL, "approve")
    redundant = []
    for concept, listed in table()["en"].items():
        if concept in DERIVED or concept is Concept.MODAL:  # modals are a closed class, read as written
            continue
        for word in listed:
            form = lemma.verb(word) if word.isalpha() else None
            if form is not None and form.form in (lemma.S, lemma.PAST, lemma.GERUND) and form.lemma in listed:
                redundant.append((concept.value, word))
    assert not redundant
