"""A text as a reader sees it rendered: markup removed, each character traced to its source.

Markup renders as nothing, so a value split by it is whole on screen — and in the chat
post, where links are reduced to their labels: ``AKIA**Q3EG**RT7P…`` (emphasis),
``AKIA`Q3EG`RT7P…`` (code), ``AKIA[Q3EG](#)RT7P…`` (a link), ``AKIA<b>Q3EG</b>RT7P…``
(a tag), ``AKIA&#81;3EG…`` (an entity), ``ghp\\_R8mZ…`` (an escape); and a look-alike letter
reads as the letter it looks like (``pаssword`` with a Cyrillic ``а``). The secret detector
reads this view as well and redacts, in the source, the span that produced what it found
there.

Removed: emphasis, code and strike-through markers (``*``, `````, ``~``), underscores that
can be emphasis (not those inside a word, ``max_size``, which CommonMark keeps), link
brackets and targets (``[label](target)`` and ``[label][ref]`` leave the label), HTML tags
and inline comments (``<!-- -->``, one left open to the end of the line) within a line,
elements marked hidden with their text (``<span hidden>…</span>``, ``display:none``), and
the backslash of an escape (``\\_`` before any ASCII punctuation shows the character, and
that character is no markup); an entity becomes its character, and a character
``lookalikes`` folds becomes what it reads as. A redaction marker (``[REDACTED:token:<rule>]``)
stays as written.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cache
from html import unescape

from rcaloop.shared.lookalikes import classes, lookalike, read_as

_FIRST = r"[\[\]!<*`~_&\\]"
_HIDDEN_ELEMENT = (
    r"[A-Za-z][A-Za-z0-9]{0,20}[ \t/][^<>\n]{0,200}?(?<![\w-])(?:hidden(?![\w-])|display\s*:\s*none|"
    r"visibility\s*:\s*hidden)[^<>\n]{0,200}>(?:[^\n]{0,2000}?</[A-Za-z][A-Za-z0-9]{0,20}\s*>|[^\n]*)"
)
"""An element marked hidden (``<span hidden>…</span>``, ``style="display:none"``) with its
text, to its first closing tag (or the end of the line)."""
_COMMENT = r"!--(?:[^\n]{0,2000}?-->|[^\n]*)"
"""An HTML comment; one left open hides the rest of the line."""
HIDDEN = re.compile("<(?:" + _HIDDEN_ELEMENT + "|" + _COMMENT + ")")
"""Markup whose text renders as nothing: a comment, an element marked hidden."""
_AFTER_FIRST = (  # each piece of markup by its first character (a search skips to those quickly)
    # a link's "[", or a redaction marker (kept)
    r"(?:(?<=\[)(?:REDACTED:[a-z][a-z0-9-]{0,39}(?::[A-Za-z0-9][\w./-]{0,99})?\])?"
    r"|(?<=\])(?:\([^()\s]{0,2048}\)|\[[^\[\]\s]{0,500}\])?"  # "]" and a link's target or reference
    r"|(?<=!)\["  # an image's "!["
    r"|(?<=<)(?:" + _HIDDEN_ELEMENT + r"|/?[A-Za-z][A-Za-z0-9]{0,20}(?:[ \t][^<>\n]{0,200})?/?>|"
    + _COMMENT + ")"  # a hidden element, a tag, a comment
    r"|(?<=[*`~])[*`~]*"  # emphasis, code, strike-through
    r"|(?<=_)(?<!__)(?:(?<![A-Za-z0-9]_)_*|_*(?![A-Za-z0-9_]))"  # a run of underscores, unless inside a word
    r"|(?<=&)(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"  # an entity
    r"|(?<=\\)[!-/:-@\[-`{-~]"  # an escape: the punctuation after a backslash, as itself
    r")"
)
MARKUP = re.compile(_FIRST + _AFTER_FIRST)
"""One piece of markup, or a redaction marker (which stays)."""

_TOKEN_CHAR = r"[A-Za-z0-9+/=-]"
JUNCTION = re.compile(
    _FIRST + "(?<=" + _TOKEN_CHAR + _FIRST + ")" + _AFTER_FIRST  # markup right after a token character …
    + "(?:" + _FIRST + _AFTER_FIRST + ")*(?=" + _TOKEN_CHAR + ")"  # … and more, up to the next one
)
"""Markup between two characters of a token (letters, digits, ``+/=-``): where rendering
joins what the source keeps apart."""
SPACED_JUNCTION = re.compile(
    "<(?<=" + _TOKEN_CHAR + r"<)(?:/?[A-Za-z][A-Za-z0-9]{0,20}[ \t][^<>\n]{0,200}>|!--[^\n]{0,200}?-->)"
)
"""A tag with attributes or an inline comment right after a token character: markup with
blanks inside, so it is not inside one word."""

_WORD = r"A-Za-z0-9_*~`\\\[\]()!<>&#;/"
"""What a word that reads as ASCII is made of (besides look-alikes): ASCII letters and digits,
and the markup that can render as nothing inside a word (``p**а**ssword``, ``p[а](#)ssword``)."""


@cache
def _lookalikes() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """Any character ``lookalike`` folds; a word (or joining punctuation) it makes read as ASCII."""
    letters, joining = classes().letters, classes().joining
    word = "[" + _WORD + letters + "]"
    return (
        re.compile("[" + letters + joining + "]"),
        re.compile(
            "[^\\w" + _WORD + letters + "]"  # what a word follows (found quickly: one class; "\\n" before a line)
            + "((?=" + word + "{3})(?=" + word + "*?[" + letters + "])" + word + "++)(?!\\w)"
        ),
        re.compile("[" + joining + "](?:(?<=[A-Za-z0-9].)|(?=[A-Za-z0-9]))"),
    )


def find_lookalike_word(text: str, marks: bytes, start: int = 0) -> int:
    """Where the first word from ``start`` on that a look-alike makes read as ASCII starts
    (``pаssword``, ``p**а**ssword``, ``𝐭𝐨𝐤𝐞𝐧``; not a word of another script, ``пароль``),
    or look-alike punctuation joins ASCII (``password：``); -1 if none. ``marks`` is
    ``lookalikes.latin_marks`` of the text: most texts hold no look-alike, and it shows that
    at C speed; only the lines around look-alikes are searched for such words."""
    any_, word, joining = _lookalikes()
    pos = _next_lookalike(text, marks, start, any_)
    while pos >= 0:
        line_start = max(start, text.rfind("\n", 0, pos) + 1)
        line_end = text.find("\n", pos)
        line_end = len(text) if line_end < 0 else line_end
        if line_start:  # a word follows a character: the line's first one follows its "\n"
            m = word.search(text, line_start - 1, line_end)
            found = m.start(1) if m else -1
        else:
            m = word.search(" " + text[:line_end])
            found = m.start(1) - 1 if m else -1
        if (j := joining.search(text, line_start, line_end)) is not None and (found < 0 or j.start() < found):
            found = j.start()
        if found >= 0:
            return found
        pos = _next_lookalike(text, marks, line_end, any_)
    return -1


def _next_lookalike(text: str, marks: bytes, pos: int, any_: re.Pattern[str]) -> int:
    pos = marks.find(1, pos)
    for _ in range(32):  # a few "?" and symbols; many: a text beyond Latin-1, searched for look-alikes
        if pos < 0 or lookalike(text[pos]) is not None:
            return pos
        pos = marks.find(1, pos + 1)
    m = any_.search(text, pos)
    return -1 if m is None else m.start()


@dataclass(frozen=True)
class View:
    """The rendered text and, per piece of it, where the piece comes from."""

    text: str
    starts: list[int] = field(default_factory=list)
    """where each piece starts in ``text``"""
    sources: list[tuple[int, int, bool]] = field(default_factory=list)
    """per piece: (source start, source end, kept as written: else one character for the whole span)"""

    def source(self, start: int, end: int) -> tuple[int, int]:
        """The source span that renders as ``text[start:end]`` (markup inside it included)."""
        if not self.starts:
            return start, end
        return self._at(start, False), self._at(end - 1, True)

    def _at(self, pos: int, end: bool) -> int:
        i = bisect_right(self.starts, pos) - 1
        src_start, src_end, literal = self.sources[i]
        if not literal:
            return src_end if end else src_start
        return src_start + pos - self.starts[i] + (1 if end else 0)


def rendered_view(text: str, start: int = 0, end: int | None = None) -> View:
    """``text[start:end]`` rendered; source positions are offsets into ``text``."""
    end = len(text) if end is None else end
    pieces: list[str] = []
    starts: list[int] = []
    sources: list[tuple[int, int, bool]] = []
    length = 0
    folds = not text.isascii() and not text[start:end].isascii()

    def add(piece: str, source: tuple[int, int, bool]) -> None:
        nonlocal length
        starts.append(length)
        sources.append(source)
        pieces.append(piece)
        length += len(piece)

    def literal(at: int, to: int) -> None:
        """``text[at:to]`` as written, look-alikes read as what they look like."""
        if not folds:
            if to > at:
                add(text[at:to], (at, to, True))
            return
        for piece_start, piece_end, reads in read_as(text, at, to):
            if reads:  # an accent alone reads as nothing
                add(reads, (piece_start, piece_end, len(reads) == piece_end - piece_start))

    at = start
    for m in MARKUP.finditer(text, start, end):
        piece = m.group()
        char = unescape(piece) if piece[0] == "&" else ""
        if piece.startswith("[REDACTED:") or len(char) > 1:  # a marker, or an entity that is not one character
            continue
        literal(at, m.start())
        if char:  # an entity may name a look-alike too (p&#1072;ssword)
            add(lookalike(char) or char, (m.start(), m.end(), False))
        elif piece[0] == "\\":
            literal(m.start() + 1, m.end())
        at = m.end()
    literal(at, end)
    if not sources:
        return View("", [0], [(start, end, True)])
    return View("".join(pieces) if len(pieces) > 1 else pieces[0], starts, sources)
