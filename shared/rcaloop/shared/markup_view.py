"""A text as a reader sees it rendered: markup removed, each character traced to its source.

Markup renders as nothing, so a value split by it is whole on screen — and in the chat
post, where links are reduced to their labels: ``AKIA**Q3EG**RT7P…`` (emphasis),
``AKIA`Q3EG`RT7P…`` (code), ``AKIA[Q3EG](#)RT7P…`` (a link), ``AKIA<b>Q3EG</b>RT7P…``
(a tag), ``AKIA&#81;3EG…`` (an entity). The secret detector reads this view as well and
redacts, in the source, the span that produced what it found there.

Removed: emphasis, code and strike-through markers (``*``, `````, ``~``), underscores that
can be emphasis (not those inside a word, ``max_size``, which CommonMark keeps), link
brackets and targets (``[label](target)`` and ``[label][ref]`` leave the label), HTML tags
and inline comments (``<!-- -->``, one left open to the end of the line) within a line,
elements marked hidden with their text (``<span hidden>…</span>``, ``display:none``); an
entity becomes its character. A redaction marker (``[REDACTED:token]``) stays as written.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from html import unescape

_FIRST = r"[\[\]!<*`~_&]"
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
    r"(?:(?<=\[)(?:REDACTED:[a-z][a-z0-9-]{0,39}\])?"  # a link's "[", or a redaction marker (kept)
    r"|(?<=\])(?:\([^()\s]{0,2048}\)|\[[^\[\]\s]{0,500}\])?"  # "]" and a link's target or reference
    r"|(?<=!)\["  # an image's "!["
    r"|(?<=<)(?:" + _HIDDEN_ELEMENT + r"|/?[A-Za-z][A-Za-z0-9]{0,20}(?:[ \t][^<>\n]{0,200})?/?>|"
    + _COMMENT + ")"  # a hidden element, a tag, a comment
    r"|(?<=[*`~])[*`~]*"  # emphasis, code, strike-through
    r"|(?<=_)(?<!__)(?:(?<![A-Za-z0-9]_)_*|_*(?![A-Za-z0-9_]))"  # a run of underscores, unless inside a word
    r"|(?<=&)(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"  # an entity
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
    at, length, changed = start, 0, False

    def add(piece: str, source: tuple[int, int, bool]) -> None:
        nonlocal length
        starts.append(length)
        sources.append(source)
        pieces.append(piece)
        length += len(piece)

    for m in MARKUP.finditer(text, start, end):
        piece = m.group()
        char = unescape(piece) if piece[0] == "&" else ""
        if piece.startswith("[REDACTED:") or len(char) > 1:  # a marker, or an entity that is not one character
            continue
        if m.start() > at:
            add(text[at : m.start()], (at, m.start(), True))
        if char:
            add(char, (m.start(), m.end(), False))
        at, changed = m.end(), True
    if not changed:
        return View(text[start:end], [0], [(start, end, True)])
    if at < end:
        add(text[at:end], (at, end, True))
    return View("".join(pieces), starts, sources)
