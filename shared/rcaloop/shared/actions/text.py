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
import unicodedata
from functools import cache, lru_cache

from rcaloop.shared.markup_view import HIDDEN, rendered_view

CODE = "\x1a"
"""Marks a code span set aside: ``\\x1a3\\x1a`` stands for the fourth span of the line."""
CODE_TOKEN = re.compile(r"\x1a(\d+)\x1a")

_INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c"
    "\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060\u2061"
    "\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff"
)
_PUNCT = {
    **dict.fromkeys("\u2010\u2011\u2043\u2212\ufe63", "-"),
    **dict.fromkeys("\u2012\u2013\u2014\u2015\u2e3a\u2e3b", " \u2014 "),
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u02bc", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"'),
    **dict.fromkeys("\u02cb\u02f4\u1fef\u2035", "`"),
    "\u2192": " \u2192 ", "\u27f6": " \u2192 ", "\u21d2": " \u2192 ",
}


@cache
def _fold_table() -> dict[int, str | None]:
    """Every non-ASCII character that looks like an ASCII letter or digit, mapped to it."""
    from confusable_homoglyphs import confusables

    table: dict[int, str | None] = {}
    for char, glyphs in confusables.confusables_data.items():
        if len(char) != 1 or char.isascii():
            continue
        ascii_ = sorted((g["c"] for g in glyphs if g["c"].isascii() and g["c"].isalnum()), key=str.isdigit)
        if ascii_:  # the table writes capital I as l (its skeleton); a capital stays a capital
            table[ord(char)] = "I" if ascii_[0] == "l" and char.isupper() else ascii_[0]
    table.update({ord(c): None for c in _INVISIBLE})
    table.update({ord(c): v for c, v in _PUNCT.items()})
    return table


def fold(text: str) -> str:
    """Unicode folded to what it looks like: compatibility forms, accents, look-alikes, invisibles."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text).translate(_fold_table())
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", text).translate(_fold_table())


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
    out: list[str] = []
    start = 0
    for m in _CUT.finditer(text):
        before = text[start:m.start()]
        if m.group(0).strip() == "" and before.lower().endswith(_ABBREVIATIONS):
            continue
        if before.strip():
            out.append(before.strip())
        start = m.end()
    if text[start:].strip():
        out.append(text[start:].strip())
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
