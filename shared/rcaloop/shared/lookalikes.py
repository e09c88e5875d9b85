"""Unicode folded to what it looks like: one table for every judge that reads text as a person does.

A Cyrillic ``е`` in ``restart``, a full-width ``ｄｅｌｅｔｅ``, a mathematical ``𝐩𝐚𝐬𝐬𝐰𝐨𝐫𝐝``, an
accent or a zero-width space change the code points, not what a reader sees. The action
classifier folds each step before it reads a verb, and the secret detector reads each line
folded before its keyword rules (``pаssword: …`` is a password). Look-alikes come from the
Unicode confusables table (``confusable_homoglyphs``); compatibility forms from NFKC.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

_INVISIBLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180E, 0x180E),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x2064), (0x2066, 0x2069), (0x3164, 0x3164), (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xE0000, 0xE007F),
)  # fmt: skip
INVISIBLE = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in _INVISIBLE_RANGES) + "]")
"""Code points that render as nothing (soft hyphen, zero-width and bidi marks, the grapheme
joiner, Khmer and Mongolian blanks, variation selectors, Hangul fillers, tag characters)."""

_PUNCT = {
    **dict.fromkeys("\u2010\u2011\u2043\u2212\ufe63", "-"),
    **dict.fromkeys("\u2012\u2013\u2014\u2015\u2e3a\u2e3b", " \u2014 "),
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u02bc", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"'),
    **dict.fromkeys("\u02cb\u02f4\u1fef\u2035", "`"),
    "\u2192": " \u2192 ", "\u27f6": " \u2192 ", "\u21d2": " \u2192 ",
}  # fmt: skip


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
    for low, high in _INVISIBLE_RANGES:
        table.update(dict.fromkeys(range(low, high + 1)))
    table.update({ord(c): v for c, v in _PUNCT.items()})
    return table


def fold(text: str) -> str:
    """Unicode folded to what it looks like: compatibility forms, accents, look-alikes, invisibles."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text).translate(_fold_table())
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", text).translate(_fold_table())


_JOINING = frozenset("-_.:=/@+")
"""ASCII punctuation that builds a token or an assignment (``xoxb‐1…``, ``password：…``)."""


@cache
def lookalike(char: str) -> str | None:
    """The ASCII a letter, digit, accent or joining character reads as (``а`` → ``a``,
    ``𝐩`` → ``p``, ``é`` → ``e``, ``：`` → ``:``); None for any other character (symbols
    such as ``×`` or ``→`` build no word) and for one that reads as no ASCII."""
    folded = fold(char)
    if folded == char or not folded.isascii():
        return None
    if char.isalnum() or unicodedata.combining(char) or folded in _JOINING:
        return folded
    return None


def _char_class(chars: list[int]) -> str:
    ranges: list[list[int]] = []
    for c in sorted(chars):
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return "".join(re.escape(chr(a)) + "-" + re.escape(chr(b)) for a, b in ranges)


_BEYOND_BMP = "\U00010000-\U0010ffff"


@dataclass(frozen=True)
class Classes:
    """The characters ``lookalike`` folds, as bodies of regular-expression classes (each a
    bitmap over the Basic Multilingual Plane: searching one costs what ``[^\\x00-\\x7f]``
    does; every character beyond the BMP is in ``letters``, to be looked up)."""

    letters: str
    """letters, digits and accents"""
    joining: str
    """punctuation that reads as ASCII punctuation of a token (``‐``, ``：``)"""


@dataclass(frozen=True)
class _Tables:
    classes: Classes
    uneven: re.Pattern[str]
    """those that read as no character or as several (an accent, a ligature ``ﬁ``), and every
    one beyond the BMP"""
    even: dict[int, str]
    """the others, each to the one character it reads as (``str.translate``)"""
    latin: bytes
    """a translation of Latin-1 bytes: 1 where the character may fold (a Latin-1 letter that
    ``lookalike`` folds, or ``?``, which stands for any character beyond Latin-1), else 0"""


@cache
def _tables() -> _Tables:
    candidates = {c for c in _fold_table() if 0x80 <= c < 0x10000}
    candidates.update(
        c for c in range(0x80, 0x10000) if unicodedata.decomposition(chr(c)) or unicodedata.combining(chr(c))
    )
    reads = {c: r for c in candidates if (r := lookalike(chr(c))) is not None}
    even = {c: r for c, r in reads.items() if len(r) == 1}
    joining = [c for c, r in reads.items() if r in _JOINING]
    return _Tables(
        classes=Classes(_char_class([c for c in reads if c not in joining]) + _BEYOND_BMP, _char_class(joining)),
        uneven=re.compile("[" + _char_class([c for c in reads if c not in even]) + _BEYOND_BMP + "]"),
        even=even,
        latin=bytes(int(b == 0x3F or (b >= 0x80 and b in reads)) for b in range(256)),
    )


def classes() -> Classes:
    """The characters ``lookalike`` folds (built on first use)."""
    return _tables().classes


def latin_marks(latin: bytes) -> bytes:
    """Where a text may hold a character ``lookalike`` folds, found at C speed: 1 at each
    such byte of the text as Latin-1 (``?`` for the rest, as ``str.encode("latin-1",
    "replace")`` gives it; ASCII case does not matter), else 0."""
    return latin.translate(_tables().latin)


def read_as(text: str, start: int, end: int) -> Iterator[tuple[int, int, str]]:
    """``text[start:end]`` as it reads, in pieces that cover it: (source start, source end,
    what the piece reads as). A piece reads as text of its own length, character by
    character, unless it is one character that reads as none or several."""
    tables = _tables()
    at = start
    for m in tables.uneven.finditer(text, start, end):
        if m.start() > at:
            yield at, m.start(), text[at : m.start()].translate(tables.even)
        reads = lookalike(m.group())
        yield m.start(), m.end(), m.group() if reads is None else reads
        at = m.end()
    if end > at:
        yield at, end, text[at:end].translate(tables.even)
