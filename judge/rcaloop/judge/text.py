"""A step line as plain text, its code spans set aside, cut into clauses.

What an operator reads is what is judged: look-alike letters (Cyrillic ``е`` for ``e``),
full-width and mathematical letters, accents, invisible characters and extra whitespace are
folded away first, so ``𝐫𝐞𝐬𝐭𝐚𝐫𝐭`` or ``re\u200bstart`` reads as ``restart``; then the line
is read as rendered (``rcaloop.shared.markup_view``, the view the secret detector reads):
emphasis, tags and link targets go, and a comment or a hidden element with all its text.
Look-alikes come from the Unicode confusables table (``confusable_homoglyphs``).
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from typing import NamedTuple

from rcaloop.shared.lookalikes import fold

from rcaloop.shared.markup_view import HIDDEN, rendered_view

CODE = "\x1a"
"""Marks a code span set aside: ``\\x1a3\\x1a`` stands for the fourth span of the line."""
CODE_TOKEN = re.compile(r"\x1a(\d+)\x1a")

_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~<>])")
"""A Markdown backslash escape: the operator sees the character itself."""
_HTML_CODE = re.compile(r"<(code|kbd|tt|samp)>(.*?)</\1>", re.I | re.S)
_HTML_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_SPAN = re.compile(r"(`+)(.+?)\1|`([^`]*)$", re.S)
_LIST_MARKER = re.compile(
    r"^\s*(?:>\s*)*(?:[-*+\u2022\u25aa\u25e6]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)](?=\s))?\s*(?:\[[^\]\n]{0,24}\]\s+)?"
)
"""A list marker, a checkbox or a bracketed tag (``[high]``, ``[P1]``) before the step."""
_SPACE = re.compile(r"\s+")


@lru_cache(maxsize=8192)
def set_aside(text: str) -> tuple[str, tuple[str, ...]]:
    """The line with markup folded and each code span replaced by a ``CODE`` token.

    An unclosed backtick opens a span to the end of the line (it cannot hide a command).
    """
    if "&" in text:
        text = html.unescape(text)
    if "\\" in text:
        text = _ESCAPE.sub(r"\1", text)
    text = _HTML_CODE.sub(lambda m: f"`{m.group(2)}`", fold(text))
    spans: list[str] = []

    def keep(m: re.Match) -> str:
        spans.append(_SPACE.sub(" ", (m.group(2) if m.group(2) is not None else m.group(3))).strip())
        return f" {CODE}{len(spans) - 1}{CODE} "

    if "`" in text:
        text = _SPAN.sub(keep, text)
    text = _LIST_MARKER.sub("", text, count=1)
    if _MAY_RENDER.search(text):
        text = _LIST_MARKER.sub("", rendered_view(text).text, count=1)
    return _SPACE.sub(" ", text).strip(), tuple(spans)


_MAY_RENDER = re.compile(r"[\[\]<*_~&]")
"""Characters that may start markup (the rendered view is built only when one is there)."""


def hidden(text: str) -> list[str]:
    """The text of markup that renders as nothing (an HTML comment, an element marked hidden):
    a reader never sees it, so nothing in it guards a step."""
    if "<" not in text:
        return []
    return [_HTML_TAG.sub(" ", m.group(0)).replace("<!--", " ").replace("-->", " ") for m in HIDDEN.finditer(text)]


def restore(text: str, spans: tuple[str, ...]) -> str:
    """``text`` with each ``CODE`` token replaced by its span again."""
    return CODE_TOKEN.sub(lambda m: spans[int(m.group(1))], text)


_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "approx.", "incl.", "no.", "min.", "max.", "cf.", "resp.", "est.")
_CUT = re.compile(
    r"\s*;\s*|\s+\u2014\s+|\s+-\s+|\s*(?:\u2192|->|=>)\s*|(?<=[.!?])\s+(?=\S)|\s*\.\s*$|\s+&&\s+",
)


def sentences(text: str) -> list[str]:
    """``text`` cut at ``;``, dashes, arrows and sentence ends (not after ``e.g.`` and the like)."""
    return [s for s, _ in cut_sentences(text)]


def cut_sentences(text: str) -> list[tuple[str, str]]:
    """Each sentence of ``text`` with the cut before it (``""`` for the first; ``->``, ``;``, ``.`` …)."""
    out: list[tuple[str, str]] = []
    start, cut = 0, ""
    for m in _CUT.finditer(text):
        before = text[start:m.start()]
        if m.group(0).strip() == "" and before.lower().endswith(_ABBREVIATIONS):
            continue
        if before.strip():
            out.append((before.strip(), cut))
        start, cut = m.end(), m.group(0).strip() or "."
    if text[start:].strip():
        out.append((text[start:].strip(), cut))
    return out


_PARENS = re.compile(r"(?<![\w.$])\(([^()]*)\)")
"""A parenthesised aside; parentheses right after a word are a call (``deleteMany({})``), kept."""


def asides(text: str) -> tuple[str, list[str]]:
    """``text`` without its parenthesised asides, and the asides (read as clauses of their own)."""
    found: list[str] = []

    def take(m: re.Match) -> str:
        found.append(m.group(1))
        return " "

    for _ in range(3):  # nested parentheses, innermost first
        text, n = _PARENS.subn(take, text)
        if not n:
            break
    return _SPACE.sub(" ", text).strip(), [a.strip() for a in found if a.strip()]


# --- words ---------------------------------------------------------------------------------


class Token(NamedTuple):
    """A word, a code span (``CODE`` token) or a punctuation mark of a line."""

    text: str
    low: str
    start: int
    end: int
    code: bool
    word: bool

    @property
    def hangul(self) -> bool:
        return any("\uac00" <= ch <= "\ud7a3" for ch in self.text)


_TOKEN = re.compile(
    r"(\x1a\d+\x1a)|([A-Za-z0-9$~/.@'!\uac00-\ud7a3-](?:[\w'./:@=+~%*$&\uac00-\ud7a3-]*[\w/@=+~%*$&\uac00-\ud7a3-])?)"
    r"|([^\sA-Za-z0-9])"
)


def tokenize(text: str) -> list[Token]:
    """Words (trailing punctuation split off), code span tokens and punctuation marks: the one
    tokenizer every reading of prose uses."""
    return list(_tokens(text))


@lru_cache(maxsize=16384)
def _tokens(text: str) -> tuple[Token, ...]:
    """The same text is tokenized by several readings of one output (and again for every output that repeats a
    line): once is enough; a tuple, so no caller changes what the next one gets."""
    return tuple(Token(m.group(0), m.group(0).lower(), m.start(), m.end(), m.lastindex == 1,
                       m.lastindex != 3 or m.group(0) in "$~/.'-") for m in _TOKEN.finditer(text))


_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def camel_words(name: str) -> list[str]:
    """The words of a CamelCase, snake_case or dotted name, in order (``HTTPServerError`` →
    HTTP, Server, Error; ``KubePodNotReady`` → Kube, Pod, Not, Ready): the one splitter."""
    return _CAMEL.findall(name)


BASE64_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_")
"""The characters of base64 and its URL-safe form."""
