"""The one secret detector: every service finds and redacts secret values with it.

Two parts, each for what it does best. Vendor tokens by their shape come from a maintained
catalog of about 490 vendor rules (``secret_engine``: kingfisher, offline, warmed once per
process) and the project's own looser shapes (``secret_shapes``). Everything context tells
is the project's own (``secret_rules``): keyword assignments, labels in other languages,
credentials in URLs and connection strings, webhook URLs, query parameters, headers,
command-line passwords, ``{name, value}`` entries, ``.pgpass`` and htpasswd lines, an AWS
secret key beside its key id, private keys and base64 that decodes to a secret. Whether a
matched value is a secret, or only names, templates, references or stands in for one
(``none``, ``${TOKEN}``, ``secretName: api-shop-tls``, ``vault:secret/data/shop#api_key``,
``AKIAIOSFODNN7EXAMPLE``, ``ghp_xxxx…``), is ``secret_values``' call, for every rule and the
engine alike.

A rule's pattern runs only on the lines that hold a literal it needs (a substring test
first), so an 8 KB report is scanned in well under a millisecond; each pattern is linear in
its line, and a private key's end is found once for all its ``BEGIN`` lines, so the cost of a
text is linear in its size (a 4 MiB text of the worst shapes in under 2 s). A scan that
outlives its budget (``SCAN_BUDGET_S``) stops with ``ScanBudgetExceeded`` rather than hold
the caller: nothing of that text leaves unredacted.

A text is read as written and as a reader sees it rendered (``markup_view``): code points
that render as nothing are removed first, and a line where markup sits inside a token
(``AKIA**Q3EG**RT7P…``, ``AKIA[Q3EG](#)RT7P…``, ``ghp\\_R8mZ…``) or a look-alike makes a word
read as ASCII (``pаssword:`` with a Cyrillic ``а``: ``lookalikes``) is read again that way;
a secret found there is redacted over the whole source span it renders from.

Redaction replaces each value by ``[REDACTED:<type>:<rule>]`` and keeps every line where it
was (a private key's lines become empty lines after its marker). A marker already in the
text is read back as a secret of its type and rule (``[REDACTED:<type>]`` too), so redacting
twice changes nothing and the findings survive: ingestion redacts before it publishes, and
the parser, running the same function on what it receives, still reports where each secret
was and which rule found it. Findings name a type, a rule and a place, never the value.
"""

from __future__ import annotations

import base64
import json
import re
import time
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any, NamedTuple, TypeVar

from rcaloop.contracts import DeadLetter, EvidenceArtifact, RawResult
from rcaloop.shared import secret_engine
from rcaloop.shared.secret_engine import Places, long_words
from rcaloop.shared.lookalikes import INVISIBLE, latin_marks
from rcaloop.shared.markup_view import JUNCTION, SPACED_JUNCTION, View, find_lookalike_word, rendered_view
from rcaloop.shared.secret_rules import PRIVATE_KEY, PRIVATE_KEY_END, RULES, URL_PASSWORD, Rule
from rcaloop.shared.secret_values import TRAILING, Check, generated, is_secret, placeholder, reference, secret_type

MARKER = re.compile(r"\[REDACTED:([a-z][a-z0-9-]{0,39})(?::([A-Za-z0-9][\w./-]{0,99}))?\]")
"""How a redacted value reads: ``[REDACTED:token:betterleaks.github-pat]`` (type, then the
rule that found it; a marker without the rule reads as the rule ``marker``). Read back as a
secret of that type and rule."""

TYPES = (
    "aws-access-key", "aws-secret-key", "api-key", "token", "private-key", "password", "secret",
    "connection-string", "webhook-url", "password-hash",
)  # fmt: skip
"""Every type the detector reports (a declared ``sensitive_data`` item may name others)."""


@dataclass(frozen=True)
class Secret:
    """A secret found: its type, where it was, the 1-based line there (when it has lines) and
    the rule that found it (``rcaloop.<name>``, or the engine's rule id)."""

    type: str
    where: str
    line: int | None = None
    rule: str | None = None


class Found(NamedTuple):
    """One secret of a redacted text: its type, its 1-based line and the rule that found it."""

    type: str
    line: int
    rule: str


@dataclass(frozen=True)
class _Hit:
    start: int
    end: int
    type: str
    specific: bool  # a token-shaped match wins the type over a keyword assignment
    rule: str


class ScanBudgetExceeded(Exception):
    """A text took longer to scan than its budget: it is not published, stored or logged
    unredacted; the caller withholds it (a dead letter keeps only sizes) or rejects it. The
    stream worker dead-letters the entry at once under ``code``."""

    code = "scan_budget_exceeded"


class _Budget:
    """The time a scan may still take (checked between rules and lines, and handed to the engine)."""

    def __init__(self, seconds: float | None):
        self.deadline = None if seconds is None else time.monotonic() + seconds

    def left(self) -> float | None:
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise ScanBudgetExceeded("the secret scan took longer than its budget")
        return left


SCAN_BUDGET_S = 10.0
"""The longest one text (an output, a dead letter, a log event) may be scanned: a 4 MiB text
of the worst shapes takes under 2 s, so only a text built to be slow meets it."""

_RUN_ON = re.compile(r"(?:[A-Za-z0-9_+/=-]|\.(?=[A-Za-z0-9_+/=-]))*")
"""What a token runs on with past a shape's end (a JWT's signature, a longer key)."""


def _line_hits(rule: Rule, source: str, line_start: int, line_end: int, view: View | None) -> Iterator[_Hit]:
    """A rule's hits on the line ``source[line_start:line_end]`` (a checked rule reads it
    rendered, ``view``: ``**Password:** x`` is an assignment), as spans of ``source``."""
    text = view.text if view else source[line_start:line_end]
    offset = 0 if view else line_start  # a view maps to source positions itself
    covered = pos = 0  # a match inside the last hit's span is part of it: each part of the line is judged once
    while (m := rule.pattern.search(text, pos)) is not None:
        pos = max(m.end(), m.start() + 1, covered)
        start, end = m.span(rule.group if rule.group >= 0 else m.lastindex or 0)
        if start < 0 or start == end or start < covered:
            continue
        if rule.decoded:
            found = _decoded_hit(text, start, end)
        elif rule.check:
            found = _checked_hit(rule, rule.check, m, text, start, end)
        else:
            found = _shaped_hit(rule, text, start, end)
        if found is None:
            continue
        start, end, type_ = found
        covered = pos = max(pos, end)
        if view is not None:
            start, end = view.source(start, end)
        yield _Hit(offset + start, offset + end, type_, rule.check is None, rule.id)


_Span = tuple[int, int, str]
"""A hit's start and end on its line and the type of secret found there."""


def _decoded_hit(text: str, start: int, end: int) -> _Span | None:
    """A base64 match: a hit when its decoded text holds a secret."""
    blob = text[start:end].rstrip("=")
    if blob.isalpha() or blob.isdigit() or blob.islower() or blob.isupper():
        return None  # a word, a number or a hex id: encoded text has both cases and digits
    decoded = _decoded_secret(text[start:end], _DECODED_HERE.search(text) is not None)
    return None if decoded is None else (start, end, decoded)


def _checked_hit(rule: Rule, check: Check, m: re.Match[str], text: str, start: int, end: int) -> _Span | None:
    """A checked rule's match: a hit when the value assigned is judged a secret (a quoted value
    is taken whole; else its first word)."""
    quoted = start > 0 and text[start - 1] in "'\"`"
    value = text[start:end]
    if not quoted and check != "url":
        value = value.split(None, 1)[0] if value.strip() else ""
        if value.endswith(("...", "\u2026")):  # elided where it was quoted (``sk-...``): no value
            return None
        value = _trimmed(value)
    named = "name" in m.re.groupindex
    if not is_secret(check, text, m.start("name") if named else m.start(), start, value, quoted):
        return None
    name = m.group("name") if named else (m.group(1) if m.re.groups else m.group(0))
    return start, start + len(value), rule.type if rule.type != "secret" else secret_type(name)


def _shaped_hit(rule: Rule, text: str, start: int, end: int) -> _Span | None:
    """A token's own shape: the match less its quotes and separators (and, for a URL, its
    scheme and host); none when that is a placeholder or a reference."""
    while start < end and text[start] in " \t\"'=:":
        start += 1
    while end > start and text[end - 1] in " \t\"'":
        end -= 1
    if rule.group == 0:  # a token runs on past a lazy pattern's end (a JWT's signature)
        end = _RUN_ON.match(text, end).end()  # type: ignore[union-attr]
    if rule.keep_host:
        scheme = text.find("://", start, end)
        path = text.find("/", start if scheme < 0 else scheme + 3, end)
        if path < 0:
            return None
        start = path
    if rule.type != "private-key" and (placeholder(text[start:end]) or reference(text[start:end])):
        return None
    return start, end, rule.type


_DECODED_HERE = re.compile(r"\bbase64[ \t]+(?:-\w*[dD]\b|--decode)|\bb64decode\b")
"""A command that decodes base64 on the line (``echo … | base64 -d``)."""


@lru_cache(maxsize=256)
def _decoded_secret(value: str, decoding: bool) -> str | None:
    """The type of the secret a base64 value holds: a secret in its decoded text (a PEM
    private key, a registry's ``auths``, a connection string), or, when the line decodes it
    (``decoding``: ``echo … | base64 -d``), a decoded text that is itself one generated word
    (a password). Binary or unreadable: none."""
    body = value.rstrip("=")
    body = body[: len(body) - len(body) % 4] if len(body) % 4 != 1 else body[: len(body) - 1]
    try:
        text = base64.b64decode(body + "=" * (-len(body) % 4), validate=True).decode("utf-8", "ignore")
    except ValueError:
        return None
    if not text or not all(c.isprintable() or c in "\n\r\t" for c in text):
        return None
    hits = _scan(text, rendered=False)
    if hits:
        return hits[0].type
    return "password" if decoding and generated(text.strip()) else None


_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<"}


def _trimmed(value: str) -> str:
    """A value without the punctuation that follows it in a sentence (a closing bracket
    the value opened stays: ``{{token}}``)."""
    closes = {c: value.count(c) for c in _CLOSERS}
    opens = {c: value.count(o) for c, o in _CLOSERS.items()}  # no opener is trailing punctuation
    end = len(value)
    while end and value[end - 1] in TRAILING:
        char = value[end - 1]
        if char in _CLOSERS:
            if opens[char] >= closes[char]:
                break
            closes[char] -= 1
        end -= 1
    return value[:end]


_KEY_BODY = re.compile(r"[A-Za-z0-9+/=:\- \t]+\r?$")


def _private_keys(text: str, starts: list[_Hit], budget: _Budget) -> list[_Hit]:
    """Each private key from its armour line (``starts``, in order) to its ``END`` line — or,
    with none after it, over the base64 lines that follow — once: a ``BEGIN`` inside a key
    already taken is part of it, and the ``END`` lines are found in one pass, so a text of
    many ``BEGIN`` lines and no ``END`` costs one walk, not one per line."""
    ends = [m.end() for m in PRIVATE_KEY_END.finditer(text)] if "-----END" in text else []
    keys: list[_Hit] = []
    for hit in sorted(starts, key=lambda h: h.start):
        if keys and hit.start < keys[-1].end:
            continue
        budget.left()
        start = _private_key_start(text, hit.start)
        i = bisect_right(ends, hit.start)
        if i < len(ends):
            end = ends[i]
        else:
            end = text.find("\n", hit.start)
            while end >= 0:
                nxt = text.find("\n", end + 1)
                line = text[end + 1 : nxt if nxt >= 0 else len(text)]
                if not line.strip() or not _KEY_BODY.match(line):
                    break
                end = nxt
            end = len(text) if end < 0 else end
        keys.append(_Hit(start, end, "private-key", True, hit.rule))
    return keys


WORD_MIN = 10
"""A secret that lies inside one word (no whitespace) is looked for only in words this long."""


class _Text:
    """One text being scanned: where each rule's literals occur, computed lazily and once.

    A rule's pattern runs only on the lines where one of its literals occurs. Literals of
    rules that match inside one word are looked up in the text's long words only (a few
    hundred bytes of a typical report rather than all of it)."""

    def __init__(self, text: str):
        self.text = text
        self.ends: dict[int, int] = {}  # line start → line end
        self._lower: bytes | None = None
        self._hay_bytes: bytes | None = None
        self.places = Places(text, WORD_MIN)
        self._words: list[str] | None = None
        self._hay: tuple[str, str, list[int]] | None = None

    @property
    def lower(self) -> bytes:
        """The text lower-cased as one byte per character (anything beyond Latin-1 a ``?``):
        the same offsets, three times faster than ``str.lower``, and the literals are ASCII."""
        if self._lower is None:
            self._lower = self.text.encode("latin-1", "replace").lower()
        return self._lower

    @property
    def hay_bytes(self) -> bytes:
        """The long words joined by newlines (``hay``), one byte per character, for tests by
        translation and ``bytes.find`` rather than by a pattern."""
        if self._hay_bytes is None:
            self._hay_bytes = self.hay(False)[0].encode("latin-1", "replace")
        return self._hay_bytes

    @property
    def words(self) -> list[str]:
        """Each distinct long word, in the order first seen."""
        if self._words is None:
            self._words = long_words(self.text, WORD_MIN)
        return self._words

    def hay(self, ci: bool) -> tuple[str, list[int]]:
        """The long words joined by newlines (lower-cased for ``ci``) and where each starts."""
        if self._hay is None:
            hay = "\n".join(self.words)
            starts, at = [], 0
            for word in self.words:
                starts.append(at)
                at += len(word) + 1
            self._hay = (hay, hay.lower(), starts)
        return (self._hay[1] if ci else self._hay[0]), self._hay[2]

    def line_of(self, pos: int, into: dict[int, int]) -> int:
        """Record the line around ``pos``; return its end."""
        start = self.text.rfind("\n", 0, pos) + 1
        end = self.ends.get(start)
        if end is None:
            end = self.text.find("\n", pos)
            end = self.ends[start] = len(self.text) if end < 0 else end
        into[start] = end
        return end

    def lines_of_word(self, word: str, into: dict[int, int]) -> None:
        """Record the lines a long word stands on."""
        last = -1
        for pos in self.places.of(word):
            if pos > last:
                last = self.line_of(pos, into)

    def candidates(self) -> dict[Rule, dict[int, int]]:
        """Each rule that may match, with the (start → end) lines it may match on."""
        found: dict[tuple[str, bool, bool], dict[int, int]] = {}
        for key in _WIDE:
            lines = self._wide_lines(key[0], key[1])
            if lines:
                found[key] = lines
        if self.words:
            self._narrow(found)
        out: dict[Rule, dict[int, int]] = {}
        for key, lines in found.items():
            for rule in _BY_GATE[key]:
                out.setdefault(rule, {}).update(lines)
        for rule, find_lines in _LINE_RULES:
            ruled: dict[int, int] = {}
            find_lines(self, ruled)
            if ruled:
                out.setdefault(rule, {}).update(ruled)
        for rule in _LONG_WORD_RULES:
            for word in self.words:
                if len(word) >= rule.min_word:
                    self.lines_of_word(word, out.setdefault(rule, {}))
        return out

    def _wide_lines(self, need: str, ci: bool) -> dict[int, int]:
        found: dict[int, int] = {}
        find = partial(self.lower.find, need.encode()) if ci else partial(self.text.find, need)
        pos = find(0)
        while pos >= 0:
            pos = find(self.line_of(pos, found))
        return found

    def _narrow(self, found: dict[tuple[str, bool, bool], dict[int, int]]) -> None:
        """All in-word literals at once: one alternation over the long words (each case). A
        word that holds literals many times (a text built to repeat one) is searched for the
        rest of them literal by literal, at C speed, from there on."""
        word_lines: dict[int, dict[int, int]] = {}  # each word's lines looked up once
        done: set[tuple[int, str, bool]] = set()

        def record(i: int, literal: str, ci: bool) -> None:
            if (i, literal, ci) in done:
                return
            done.add((i, literal, ci))
            if i not in word_lines:
                word_lines[i] = {}
                self.lines_of_word(self.words[i], word_lines[i])
            for need in _CONTAINED[ci][literal]:  # "ACCA" is also an "AC"
                found.setdefault((need, ci, False), {}).update(word_lines[i])

        for ci in (False, True):
            hay, starts = self.hay(ci)
            seen: dict[int, int] = {}
            pos = 0
            while (m := _NARROW[ci].search(hay, pos)) is not None:
                i = bisect_right(starts, m.start()) - 1
                record(i, m.group(), ci)
                pos = m.end()
                seen[i] = seen.get(i, 0) + 1
                if seen[i] > _MANY:
                    word_end = starts[i + 1] - 1 if i + 1 < len(starts) else len(hay)
                    for literal in _CONTAINED[ci]:
                        if hay.find(literal, pos, word_end) >= 0:
                            record(i, literal, ci)
                    pos = word_end


_MANY = 32
"""Literal matches in one word after which its other literals are looked for one by one."""


def _gates(rules: tuple[Rule, ...]) -> dict[Rule, tuple[tuple[str, bool, bool], ...]]:
    """What each rule's literals are looked up as. Literals of patterns that span words are
    looked up lower-cased, each as the shortest such literal it contains (``-key`` as
    ``key``): a superset of the lines, for a third of the lookups."""
    wide = {n.lower() for r in rules if r.spans_words for n in r.needs}
    cover = {n: min((m for m in wide if m in n), key=len) for n in wide}
    return {
        r: tuple(dict.fromkeys((cover[n.lower()], True, True) if r.spans_words else (n, r.ci, False) for n in r.needs))
        for r in rules
    }


def _trie(literals: set[str]) -> str:
    """A pattern that matches the longest of ``literals`` at a position, with common prefixes
    merged (``sk-(?:proj-|ant-)?``): one character test per position instead of one per
    literal, which keeps the search as quick when vendors are added."""
    trie: dict[str, dict] = {}
    for literal in literals:
        node = trie
        for char in literal:
            node = node.setdefault(char, {})
        node[""] = {}

    def branch(node: dict[str, dict]) -> str:
        alternatives = [re.escape(char) + branch(child) for char, child in sorted(node.items()) if char]
        if not alternatives:
            return ""
        if len(alternatives) == 1 and "" not in node:
            return alternatives[0]
        body = "(?:" + "|".join(alternatives) + ")"
        return body + "?" if "" in node else body

    return branch(trie)


_GATES = _gates(RULES)
_NARROW = {
    ci: re.compile(_trie({k[0] for g in _GATES.values() for k in g if not k[2] and k[1] == ci})) for ci in (False, True)
}
"""Every in-word literal, one pattern per case (the longest that matches)."""
_WIDE = tuple(sorted({k for g in _GATES.values() for k in g if k[2]}))
_BY_GATE: dict[tuple[str, bool, bool], list[Rule]] = {}
for _rule, _keys in _GATES.items():
    for _key in _keys:
        _BY_GATE.setdefault(_key, []).append(_rule)
_LONG_WORD_RULES = tuple(r for r in RULES if not r.needs and r.lines is None)
_LINE_RULES = tuple((r, r.lines) for r in RULES if r.lines is not None)
_CONTAINED = {
    ci: {n: [m for m in needs if m in n] for n in needs}
    for ci, needs in ((ci, {k[0] for g in _GATES.values() for k in g if not k[2] and k[1] == ci})
                      for ci in (False, True))
}


def _scan(text: str, rendered: bool = True, budget: _Budget | None = None) -> list[_Hit]:
    """Every secret in ``text`` (markers included), in order, overlaps merged; with
    ``rendered``, also those that markup splits in the source but not on screen."""
    budget = budget or _Budget(None)
    if len(text) >= REPEATS_FROM and (condensed := _condensed(text)) is not None:
        return _scan_condensed(text, *condensed, rendered, budget)
    scan = _Text(text)
    markers: list[_Hit] = []
    if "[REDACTED:" in text:
        markers = [_Hit(m.start(), m.end(), m.group(1), True, m.group(2) or "marker") for m in MARKER.finditer(text)]
    hits: list[_Hit] = []
    pieces: dict[tuple[int, int], list[tuple[int, str, bool]]] = {}  # each line's pieces, cut once
    views: dict[str, View] = {}  # each distinct piece rendered once for the checked rules
    memo: dict[tuple[Rule, str], list[_Hit]] = {}  # each rule judges each distinct piece once
    key_starts: list[_Hit] = []
    for rule, lines in scan.candidates().items():
        for start, end in lines.items():
            budget.left()
            if rule.next_line and end < len(text):
                end = scan.line_of(end + 1, {})
            if (start, end) not in pieces:
                pieces[start, end] = _pieces(text, start, end)
            reach = start  # how far this rule's hits on the line reach (a run-on value covers later pieces)
            for at, piece, cut in pieces[start, end]:
                found = memo.get((rule, piece))
                if found is None:
                    view = None
                    if rule.check and not rule.as_written:
                        view = views.get(piece) or views.setdefault(piece, rendered_view(piece))
                    found = memo[rule, piece] = list(_line_hits(rule, piece, 0, len(piece), view))
                for hit in found:
                    hit_end = at + hit.end
                    if at + hit.start < reach and hit_end <= reach:
                        continue
                    if cut and hit.end == len(piece):  # a value that runs on past the piece runs to its word's end
                        hit_end = _WORD_END.match(text, hit_end).end()  # type: ignore[union-attr]
                    reach = max(reach, hit_end)
                    hit = _Hit(at + hit.start, hit_end, hit.type, hit.specific, hit.rule)
                    (key_starts if rule.type == "private-key" else hits).append(hit)
    if key_starts:
        hits += _private_keys(text, key_starts, budget)
    hits += _engine_hits(scan, budget)
    if rendered:
        hits += _rendered_hits(scan, budget)
    return _merged(_outside(hits, markers) + markers if markers else hits)


def _outside(hits: list[_Hit], markers: list[_Hit]) -> list[_Hit]:
    """The hits that do not start inside a marker (``[REDACTED:api-key:…]`` reads like an
    assignment to ``api-key``: what a marker holds was judged when it was written)."""
    starts = [m.start for m in markers]
    out = []
    for hit in hits:
        i = bisect_right(starts, hit.start) - 1
        if i < 0 or hit.start >= markers[i].end:
            out.append(hit)
    return out


REPEATS_FROM = 64 * 1024
"""A text this long whose lines repeat (half of them or more are copies) is scanned as its
distinct lines, each once, and what is found on a line is found wherever it stands."""


def _condensed(text: str) -> tuple[list[str], list[int]] | None:
    """The distinct lines of ``text`` and, per line of it, the index of its distinct line;
    None when most lines are distinct."""
    lines = text.split("\n")
    index: dict[str, int] = {}
    order = [index.setdefault(line, len(index)) for line in lines]
    return (list(index), order) if len(index) * 2 <= len(lines) else None


def _scan_condensed(text: str, distinct: list[str], order: list[int], rendered: bool, budget: _Budget) -> list[_Hit]:
    """``_scan`` of a text of repeated lines: its distinct lines scanned once as one text, each
    hit on a line copied to every place the line stands; private keys (which span lines) and
    markers are found in the text itself."""
    joined = "\n".join(distinct)
    starts, at = [], 0
    for line in distinct:
        starts.append(at)
        at += len(line) + 1
    places: list[list[int]] = [[] for _ in distinct]
    at = 0
    for i, line in zip(order, text.split("\n"), strict=True):
        places[i].append(at)
        at += len(line) + 1
    hits: list[_Hit] = []
    for hit in _scan(joined, rendered, budget):
        if hit.type == "private-key":
            continue
        i = bisect_right(starts, hit.start) - 1
        begin, end = hit.start - starts[i], min(hit.end - starts[i], len(distinct[i]))
        hits += [_Hit(p + begin, p + end, hit.type, hit.specific, hit.rule) for p in places[i]]
        budget.left()
    keys = [_Hit(m.start(), m.end(), "private-key", True, "rcaloop.private-key") for m in PRIVATE_KEY.finditer(text)]
    if keys:
        hits += _private_keys(text, keys, budget)
    return _merged(hits)


PIECE = 4096
"""A line longer than this is read in pieces of this length that overlap by ``OVERLAP``: a
text that repeats itself (a line of ten thousand ``?password=``) is then judged once per
distinct piece, not once per character."""
OVERLAP = 512
_WORD_END = re.compile(r"\S*")


def _pieces(text: str, start: int, end: int) -> list[tuple[int, str, bool]]:
    """The line ``text[start:end]`` as (where, piece, cut before the line's end) pieces."""
    if end - start <= PIECE + OVERLAP:
        return [(start, text[start:end], False)]
    out = []
    for at in range(start, end, PIECE):
        stop = min(at + PIECE + OVERLAP, end)
        out.append((at, text[at:stop], stop < end))
        if stop == end:
            break
    return out


def _engine_hits(scan: _Text, budget: _Budget) -> list[_Hit]:
    """The engine's vendor tokens, less placeholders and references (``ghp_xxxx…``)."""
    text = scan.text
    try:
        found = secret_engine.scan(text, budget.left(), scan.places, scan.words)
    except TimeoutError:
        raise ScanBudgetExceeded("the vendor-rule scan took longer than its budget") from None
    return [_Hit(h.start, h.end, h.type, True, h.rule) for h in found if _engine_value(text[h.start : h.end], h.type)]


def _engine_value(value: str, type_: str) -> bool:
    """Whether an engine finding is a secret: not a placeholder or a reference, and for a URL
    with credentials, not one whose password documents the form (``user:password@``)."""
    if placeholder(value) or reference(value):
        return False
    if type_ == "connection-string":  # the whole URL, or only its password
        m = URL_PASSWORD.search(value)
        password = m.group(1) if m is not None else value
        return is_secret("url", password, 0, 0, password, False)
    return True


def _rendered_hits(scan: _Text, budget: _Budget) -> list[_Hit]:
    """Secrets of the rendered lines (``markup_view``) where markup joins two parts of a
    token (only long words can hold one, so the search runs over them alone) or a
    look-alike character stands for a letter, each as the source span it renders from."""
    hay, _ = scan.hay(False)
    lines: dict[int, int] = {}
    m = JUNCTION.search(hay) if hay else None
    while m is not None:  # each word once
        end = hay.find("\n", m.end())
        end = len(hay) if end < 0 else end
        scan.lines_of_word(hay[hay.rfind("\n", 0, m.start()) + 1 : end], lines)
        m = JUNCTION.search(hay, end)
    if "<" in scan.text:
        at = 0
        while (m := SPACED_JUNCTION.search(scan.text, at)) is not None:
            at = scan.line_of(m.start(), lines)
    if not scan.text.isascii():
        marks = latin_marks(scan.lower)
        at = 0
        while (at := find_lookalike_word(scan.text, marks, at)) >= 0:
            at = scan.line_of(at, lines)
    hits = []
    for start, end in _blocks(lines):
        budget.left()
        view = rendered_view(scan.text, start, end)
        for hit in _scan(view.text, rendered=False, budget=budget):
            hits.append(_Hit(*view.source(hit.start, hit.end), hit.type, hit.specific, hit.rule))
    return hits


def _blocks(lines: dict[int, int]) -> list[tuple[int, int]]:
    """The lines (start → end), each run of consecutive ones as one block: a run of lines to
    read again is rendered and scanned once, not line by line."""
    blocks: list[tuple[int, int]] = []
    for start, end in sorted(lines.items()):
        if blocks and blocks[-1][1] + 1 == start:
            blocks[-1] = (blocks[-1][0], end)
        else:
            blocks.append((start, end))
    return blocks


def _private_key_start(text: str, start: int) -> int:
    dashes = text.rfind("-----", max(0, start - 6), start)
    return dashes if dashes >= 0 else start


def _merged(hits: list[_Hit]) -> list[_Hit]:
    if len(hits) < 2:
        return hits
    out: list[_Hit] = []
    for hit in sorted(hits, key=lambda h: (h.start, -h.end)):
        last = out[-1] if out else None
        if last is None or hit.start >= last.end:
            out.append(hit)
            continue
        keep = last if last.specific or not hit.specific else hit
        out[-1] = _Hit(last.start, max(last.end, hit.end), keep.type, keep.specific, keep.rule)
    return out


def _has_invisible(text: str) -> bool:
    """Whether ``text`` holds an ``INVISIBLE`` code point. Checked on the few characters
    beyond Latin-1 (a ``?`` in a Latin-1 copy) when there are few: a regex search reads
    every character, a few times slower than the copy and a handful of finds."""
    if text.isascii():
        return False
    latin = text.encode("latin-1", "replace")
    pos = latin.find(b"?")
    for _ in range(64):
        if pos < 0:
            return "\u00ad" in text
        if INVISIBLE.match(text, pos):
            return True
        pos = latin.find(b"?", pos + 1)
    return INVISIBLE.search(text) is not None


def _marker(type_: str, rule: str, value: str) -> str:
    named = "" if rule == "marker" else f":{rule}"
    return f"[REDACTED:{type_}{named}]" + "\n" * value.count("\n")


@dataclass(frozen=True)
class Redacted:
    """A text with every secret replaced by its marker, and where each one was."""

    text: str
    found: tuple[Found, ...]


def redact_text(text: str, budget_s: float | None = SCAN_BUDGET_S) -> Redacted:
    """``text`` with each secret replaced by ``[REDACTED:<type>:<rule>]`` (lines kept), and
    the type, line and rule of each, markers already there included. Raises
    ``ScanBudgetExceeded`` when the scan takes longer than ``budget_s``."""
    if _has_invisible(text):
        text = INVISIBLE.sub("", text)
    hits = _scan(text, budget=_Budget(budget_s))
    if not hits:
        return Redacted(text, ())
    pieces: list[str] = []
    found: list[Found] = []
    at, line = 0, 1
    for hit in hits:
        line += text.count("\n", at, hit.start)
        found.append(Found(hit.type, line, hit.rule))
        pieces += [text[at : hit.start], _marker(hit.type, hit.rule, text[hit.start : hit.end])]
        line += text.count("\n", hit.start, hit.end)
        at = hit.end
    pieces.append(text[at:])
    return Redacted("".join(pieces), tuple(found))


def text_secrets(
    text: str | None, where: str, budget_s: float | None = SCAN_BUDGET_S
) -> tuple[str | None, list[Secret]]:
    """``redact_text`` for one part of an output, its findings placed at ``where``."""
    if not text:
        return text, []
    done = redact_text(text, budget_s)
    return done.text, [Secret(f.type, where, f.line, f.rule) for f in done.found]


# -- JSON documents -----------------------------------------------------------------------

_J = TypeVar("_J")
_PLAIN_ID = re.compile(r"[\w.:-]{1,16}")


def _join(parent: str, key: str) -> str:
    return key if not parent or parent.endswith(":") else f"{parent}.{key}"


def _item_path(parent: str, index: int, item: Any) -> str:
    ident = item.get("id") if isinstance(item, dict) else None
    label = ident if isinstance(ident, str) and _PLAIN_ID.fullmatch(ident) else str(index)
    return f"{parent}[{label}]"


@dataclass
class _Segment:
    path: str
    key: str | None  # the name written before the value ("key: value"), for keyword context
    value: str
    ref: tuple[Any, Any]  # (container, key or index): where the value sits
    own_key: bool = True  # ``key`` is the dict key (else the name of a {name, value} entry)


_ENTRY_NAMES = ("name", "Name", "key", "Key")
_ENTRY_VALUES = frozenset({"value", "Value"})
_IDENTIFIER = re.compile(r"[\w.-]{1,100}")


def _entry_name(entry: dict) -> str | None:
    """The name of a ``{name, value}`` entry (a Kubernetes env variable, a tag, a
    parameter): its value is assigned to that name, as ``{"DB_PASSWORD": "…"}`` would be."""
    if "value" not in entry and "Value" not in entry:
        return None
    name = next((entry[k] for k in _ENTRY_NAMES if isinstance(entry.get(k), str)), None)
    return name if name is not None and _IDENTIFIER.fullmatch(name) else None


def _segments(value: Any, path: str, out: list[_Segment]) -> None:
    """The strings and numbers of a document, depth first (dicts and lists only)."""
    if isinstance(value, dict):
        entry = _entry_name(value)
        for key, item in value.items():
            child = _join(path, str(key))
            if isinstance(item, (str, int, float)) and not isinstance(item, bool):
                if entry is not None and key in _ENTRY_VALUES:
                    out.append(_Segment(child, entry, str(item), (value, key), own_key=False))
                else:
                    out.append(_Segment(child, str(key), str(item), (value, key)))
            else:
                _segments(item, child, out)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            child = _item_path(path, i, item)
            if isinstance(item, str):
                out.append(_Segment(child, None, item, (value, i)))
            else:
                _segments(item, child, out)


def _copy(value: Any, text: Any = None) -> Any:
    """Dicts and lists copied (``text`` applied to their strings and keys), the rest shared."""
    if isinstance(value, dict):
        return {(text(k) if text and isinstance(k, str) else k): _copy(v, text) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v, text) for v in value]
    return text(value) if text and isinstance(value, str) else value


def redact_json(value: _J, where: str, budget_s: float | None = SCAN_BUDGET_S) -> tuple[_J, list[Secret]]:
    """A document (dicts and lists of strings, numbers and anything else) with every secret
    in its strings, numbers and keys redacted, and where each was (``<where>.a.b[2]``; a list
    item with a short ``id`` is ``[<id>]``). A value under a secret-like key counts as its
    assignment (``{"password": "x"}`` reads ``password: x``). Copied only when needed."""
    segments: list[_Segment] = []
    _segments(value, where, segments)
    texts = [f"{s.key}: {s.value}" if s.key is not None else s.value for s in segments]
    joined = "\n".join(texts)
    if _has_invisible(joined):
        return redact_json(_copy(value, lambda t: INVISIBLE.sub("", t)), where, budget_s)
    hits = _scan(joined, budget=_Budget(budget_s)) if segments else []
    if not hits:
        return value, []
    starts, at = [], 0
    for t in texts:
        starts.append(at)
        at += len(t) + 1
    spans: dict[int, list[tuple[int, int, str, str]]] = {}
    for hit in hits:
        i = bisect_right(starts, hit.start) - 1
        spans.setdefault(i, []).append(
            (hit.start - starts[i], min(hit.end - starts[i], len(texts[i])), hit.type, hit.rule))
    copy = _copy(value)
    refs: list[_Segment] = []
    _segments(copy, where, refs)
    found: list[Secret] = []
    renamed: list[tuple[dict, Any, str]] = []
    for i, seg_spans in sorted(spans.items()):
        seg, (container, slot) = segments[i], refs[i].ref
        offset = len(seg.key) + 2 if seg.key is not None else 0
        in_value = [(max(s - offset, 0), e - offset, t, r) for s, e, t, r in seg_spans if e > offset]
        in_key = [(s, min(e, offset - 2), t, r) for s, e, t, r in seg_spans if s < offset - 2 and seg.own_key]
        where_ = redact_text(seg.path, budget_s).text
        if in_value:
            container[slot], lines = _apply(seg.value, in_value)
            found += [Secret(f.type, where_, f.line if "\n" in seg.value else None, f.rule) for f in lines]
        if in_key:
            renamed.append((container, slot, _apply(str(slot), in_key)[0]))
            found += [Secret(t, f"{where_} (key)", None, r) for _, _, t, r in in_key]
    for container, slot, new_key in renamed:
        container[new_key] = container.pop(slot)
    return copy, found


def _apply(text: str, spans: list[tuple[int, int, str, str]]) -> tuple[str, list[Found]]:
    pieces: list[str] = []
    lines: list[Found] = []
    at = 0
    for start, end, type_, rule in sorted(spans):
        if start < at:
            continue
        pieces += [text[at:start], _marker(type_, rule, text[start:end])]
        lines.append(Found(type_, text.count("\n", 0, start) + 1, rule))
        at = end
    pieces.append(text[at:])
    return "".join(pieces), lines


# -- records, logs and dead letters --------------------------------------------------------

_R = TypeVar("_R", bound=RawResult)


def redact_record(record: _R, budget_s: float | None = SCAN_BUDGET_S) -> tuple[_R, list[Secret]]:
    """A result with every secret redacted from what it carries: ``content`` (skill text is
    ``output``, with lines; a capture ``capture.…``; step files ``<file>:<path>``),
    ``input_text`` (``input``), ``evidence`` (``evidence[<id>].…``) and ``metadata``.

    Ids are left alone (their formats hold no secret-shaped text). The record itself is
    returned when nothing was found. ``budget_s`` bounds the whole record.
    """
    budget = _Budget(budget_s)
    found: list[Secret] = []
    update: dict[str, Any] = {}
    content = record.content
    new_content: Any
    if isinstance(content, str):
        new_content, secrets = text_secrets(content, "output", budget.left())
    elif record.kind == "step_files":
        new_content, secrets = dict(content), []
        for name, doc in content.items():
            new_content[name], more = redact_json(doc, f"{name}:", budget.left())
            secrets += more
    else:
        new_content, secrets = redact_json(content, "capture", budget.left())
    if secrets:
        found += secrets
        update["content"] = new_content
    if record.input_text:
        text, secrets = text_secrets(record.input_text, "input", budget.left())
        if secrets:
            found += secrets
            update["input_text"] = text
    if record.evidence:
        docs, secrets = redact_json([a.model_dump(mode="json") for a in record.evidence], "evidence", budget.left())
        if secrets:
            found += secrets
            update["evidence"] = [EvidenceArtifact.model_validate(d) for d in docs]
    if record.metadata:
        meta, secrets = redact_json(record.metadata, "metadata", budget.left())
        if secrets:
            found += secrets
            update["metadata"] = {str(k): str(v) for k, v in meta.items()}
    return (record.model_copy(update=update) if update else record), found


def redact_payload(text: str, budget_s: float | None = SCAN_BUDGET_S) -> str:
    """A stored or logged string with its secrets redacted: a JSON document is redacted
    value by value (and written back compact), anything else as text."""
    stripped = text.lstrip()
    if stripped[:1] in ("{", "["):
        try:
            doc = json.loads(text)
            redacted, found = redact_json(doc, "", budget_s)
        except (ValueError, RecursionError):  # not JSON, or nested too deep to walk: redacted as text
            pass
        else:
            return json.dumps(redacted, ensure_ascii=False, separators=(",", ":")) if found else text
    return redact_text(text, budget_s).text


def redact_dead_letter(letter: DeadLetter, budget_s: float | None = SCAN_BUDGET_S) -> DeadLetter:
    """The dead letter with its entry's fields and its error text redacted (``budget_s`` for
    all of it: over it, ``ScanBudgetExceeded``, and the caller withholds the fields)."""
    budget = _Budget(budget_s)
    fields = {k: redact_payload(v, budget.left()) for k, v in letter.fields.items()}
    error = redact_text(letter.error, budget.left()).text
    if fields == letter.fields and error == letter.error:
        return letter
    return letter.model_copy(update={"fields": fields, "error": error})


def redact_event(_logger: Any, _method: str, event: dict[str, Any]) -> dict[str, Any]:
    """A structlog processor: every string and number in the event, redacted (a value logged
    under a secret-like key counts as its assignment)."""
    redacted, found = redact_json(event, "")
    return redacted if found else event
