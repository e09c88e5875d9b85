"""Citations: find every Markdown link, classify it, resolve it against the registry.

Agents never write URLs: ``[label](msg:<id>)``, ``[label](rca:<id>)``,
``[label](code:<project>@<commit>/<path>#L<line>)``. Only registry URLs ever become an
``href``; everything else is reduced to its label. Scanning is linear: labels and
targets have bounded lengths and possessive quantifiers, so no input backtracks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import quote, urlsplit

from rcaloop.contracts import Issue
from rcaloop.contracts.parsed import UNKNOWN_TARGET, Citation
from rcaloop.parser import codes
from rcaloop.parser.fences import find_fences
from rcaloop.parser.registry import EMPTY_REGISTRY, Registry

MAX_LABEL = 500
MAX_TARGET = 2048
MAX_CITATIONS = 2000
"""Links beyond this many are still reduced, but no longer recorded one by one."""
MAX_PASSES = 8
"""Nested links are resolved innermost first, one level per pass."""
# label: no brackets; target: no spaces, one level of balanced parentheses (CommonMark);
# optional "title". Every repetition is bounded and possessive: linear on any input.

LINK = re.compile(
    r"\[([^\[\]]{0,%d}+)\]\(\s*+((?:[^()\s]|\([^()\s]{0,256}+\)){0,%d}+)(?:\s++\"[^\"\n]{0,%d}+\")?+\s*+\)"
    % (MAX_LABEL, MAX_TARGET, MAX_LABEL)
)
REFERENCE_DEFINITION = re.compile(
    r"^ {0,3}\[([^\[\]\n]{1,%d}+)\]:[ \t]*+(\S{1,%d}+)[^\n]*+\n?" % (MAX_LABEL, MAX_TARGET), re.M
)
AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s\[\]()]{1,%d}+)>" % MAX_TARGET)
"""A CommonMark autolink ``<scheme:…>``; its label is its target."""
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,31}:")
CODE = re.compile(r"(?i:code):([A-Za-z0-9][A-Za-z0-9._-]{0,99})@([0-9a-fA-F]{7,40})/([^#]+)(?:#L(\d{1,9}))?")
UNSAFE_CHAR = re.compile(r"[\x00-\x1f\x7f\\]")
PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")
_OPEN, _CLOSE = "\ue000", "\ue001"
BARE_URL = re.compile(
    r"(?<![\w.+-])(?:[A-Za-z][A-Za-z0-9+.-]{1,31}://|www\.|(?P<host>(?<![/@:])(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,24}"
    r"(?::[0-9]{1,5})?/))[^\s<>\"'`\[\]()\ue000\ue001]*",
    re.I,
)
"""A URL written as text (chat apps link these): any ``scheme://…``, ``www.…``, or a host
without a scheme followed by a path (``grafana.acme.io/d/pool``, ``grafana.acme.io:3000/d``):
its last label is letters only (not a version, ``1.9.3/``) and a path or port follows (a
file name, ``prod.yaml`` or ``prod.yaml:42``, has neither; a path, ``config/prod.yaml``,
has no dot before its first ``/``)."""
WWW = re.compile(r"www\.", re.I)
HOST_PATH = re.compile(r"\.[A-Za-z]{2,24}(?::[0-9]{1,5})?/")
"""The end of a host followed by a path: with ``WWW``, a quick test for a ``BARE_URL``."""
ANCHOR = re.compile(r"<a\b([^<>]{0,2048})>([^<]{0,%d})</a\s*>" % MAX_LABEL, re.I)
HREF = re.compile(r"""href\s*=\s*["']?([^"'\s>]{1,%d})""" % MAX_TARGET, re.I)


@dataclass(frozen=True)
class Resolver:
    """What a citation is checked against: the registry and the post's destination."""

    registry: Registry = field(default_factory=lambda: EMPTY_REGISTRY)
    destination: str | None = None
    registry_given: bool = False
    """False when no registry was configured: links are still reduced, repo names not checked."""
    checkouts: tuple[tuple[str, str], ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "checkouts", self.registry.checkouts())


@dataclass
class Rendered:
    text: str
    citations: list[Citation] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)


def classify(target: str) -> str:
    """``msg`` | ``rca`` | ``code`` | ``url`` | ``other``."""
    head = target[:5].lower()
    if head.startswith(("msg:", "rca:")):
        return head[:3]
    if head == "code:":
        return "code"
    if target.startswith("//") or SCHEME.match(target):
        return "url"
    return "other"


def unsafe_path(path: str) -> bool:
    """Absolute, ``..``/empty segments, control characters or backslashes."""
    if path.startswith(("/", "~")) or UNSAFE_CHAR.search(path):
        return True
    return any(seg in ("", ".", "..") for seg in path.split("/"))


NO_REGISTRY = "no registry to resolve it"


def resolve(label: str, target: str, resolver: Resolver, *, part: str | None = None, line: int | None = None):
    """The citation record plus an optional warning."""
    kind = classify(target)
    href: str | None = None
    reason: str | None = None
    warning: Issue | None = None
    reg = resolver.registry
    if kind == "msg":
        entry = reg.messages.get(target[4:])
        if entry is None:
            reason = "unknown message id"
        elif entry.author != "bot":
            reason = "not a bot message"
        elif not entry.url:
            reason = "message has no URL"
        else:
            href = entry.url
    elif kind == "rca":
        rca = reg.rcas.get(target[4:])
        href = rca.url_for(resolver.destination) if rca else None
        reason = None if href else ("unknown RCA id" if rca is None else "RCA has no post URL")
    elif kind == "code":
        href, reason, warning = _resolve_code(target, reg, line)
    elif kind == "url":
        reason = "URL links are reduced to their label"
        warning = codes.URL_LINK.issue(line=line)
    else:
        reason = "not a citation"
    if reason in UNKNOWN_TARGET and not resolver.registry_given:
        reason = NO_REGISTRY
    citation = Citation(
        kind=kind, label=label, target=target, resolved=href is not None, href=href, reason=reason, part=part, line=line
    )
    return citation, warning


def _resolve_code(target: str, reg: Registry, line: int | None):
    m = CODE.fullmatch(target)
    if m is None:
        return None, "malformed code citation", codes.MALFORMED_CODE.issue(line=line)
    project_key, commit, path, line_no = m.groups()
    project = reg.projects.get(project_key)
    if project is None:
        return None, "unknown project", None
    if unsafe_path(path):
        return None, "unsafe path", codes.UNSAFE_CODE_PATH.issue(line=line)
    if line_no is None or int(line_no) < 1:
        return None, "no line number", None
    if not project.code_url:
        return None, "project has no code URL", None
    href = (
        project.code_url.replace("{commit}", commit.lower())
        .replace("{path}", quote(path, safe="/-._~"))
        .replace("{line}", str(int(line_no)))
    )
    return href, None, None


@lru_cache(maxsize=64)
def _checkout_pattern(checkouts: tuple[tuple[str, str], ...]) -> tuple[re.Pattern[str], dict[str, str]] | None:
    if not checkouts:
        return None
    by_path = dict(checkouts)
    alternatives = "|".join(re.escape(p) for p in sorted(by_path, key=len, reverse=True))
    pattern = re.compile(r"(%s)(?:/([^\s`'\"<>()\[\]|,;*]{0,1024}+))?(?![\w.-])" % alternatives)
    return pattern, by_path


def rewrite_checkout_paths(text: str, checkouts: tuple[tuple[str, str], ...]) -> str:
    """``/srv/checkouts/shop/a/b.py`` → ``shop: a/b.py`` for every registered checkout.

    ``checkouts`` are (path, project) pairs: ``Registry.checkouts()`` / ``Resolver.checkouts``.
    """
    compiled = _checkout_pattern(checkouts)
    if compiled is None:
        return text
    pattern, by_path = compiled
    if not any(path in text for path in by_path):
        return text

    def repl(m: re.Match[str]) -> str:
        before = m.string[m.start() - 1] if m.start() else " "
        if before.isalnum() or before in "_./-":
            return m.group(0)  # inside a longer path or word
        project, rest = by_path[m.group(1)], m.group(2) or ""
        trail = rest[len(rest.rstrip(".:")) :]
        rest = rest.rstrip(".:")
        if any(seg == ".." for seg in rest.split("/")):
            return m.group(0)
        return f"{project}: {rest}{trail}" if rest else f"{project}{trail}"

    return pattern.sub(repl, text)


class _Lines:
    """Line numbers of increasing positions in one text, counted incrementally (linear)."""

    def __init__(self, text: str, first_line: int):
        self.text, self.pos, self.line = text, 0, first_line

    def at(self, pos: int) -> int:
        if pos < self.pos:
            self.pos, self.line = 0, self.line - self.text.count("\n", 0, self.pos)
        self.line += self.text.count("\n", self.pos, pos)
        self.pos = pos
        return self.line


class _Links:
    """The links of one text being rendered, each replaced by a placeholder as it is resolved
    (so a later pass does not read a rendered link again)."""

    def __init__(self, out: Rendered, resolver: Resolver, part: str, first_line: int):
        self.out, self.resolver, self.part, self.first_line = out, resolver, part, first_line
        self.pieces: list[str] = []  # placeholder index → rendered link or label
        self.plain: list[str] = []  # placeholder index → label without links

    def expand_plain(self, label: str) -> str:
        return PLACEHOLDER.sub(lambda m: self.plain[int(m.group(1))], label) if _OPEN in label else label

    def keep(self, citation: Citation, label: str) -> str:
        label = reduce_urls(label, self.out, citation.line, warn=citation.kind != "url")  # a URL link warned already
        self.pieces.append(f"[{label}]({citation.href})" if citation.href else label)
        self.plain.append(label)
        return f"{_OPEN}{len(self.pieces) - 1}{_CLOSE}"

    def _cite(self, label: str, target: str, line: int) -> str:
        citation, warning = resolve(label, target, self.resolver, part=self.part, line=line)
        _record(self.out, citation, warning)
        return self.keep(citation, label)

    def anchors(self, text: str) -> str:
        """``<a href="…">label</a>``."""
        lines = _Lines(text, self.first_line)

        def anchor(m: re.Match[str]) -> str:
            href = HREF.search(m.group(1))
            label = self.expand_plain(m.group(2))
            if href is None:
                return label
            return self._cite(label, href.group(1), lines.at(m.start()))

        return ANCHOR.sub(anchor, text)

    def autolinks(self, text: str) -> str:
        """``<https://…>``."""
        lines = _Lines(text, self.first_line)

        def autolink(m: re.Match[str]) -> str:
            if m.string[m.start() - 2 : m.start()] == "](":
                return m.group(0)  # the <target> of an inline link, handled below
            return self._cite(m.group(1), m.group(1), lines.at(m.start()))

        return AUTOLINK.sub(autolink, text)

    def inline(self, source: str) -> str:
        """One pass over ``[label](target)`` links (a label may hold a link: the next pass reads it)."""
        lines = _Lines(source, self.first_line)

        def repl(m: re.Match[str]) -> str:
            label = self.expand_plain(m.group(1))
            return self._cite(label, m.group(2).strip("<>"), lines.at(m.start()))

        return LINK.sub(repl, source)


def render(text: str, resolver: Resolver, *, part: str, first_line: int = 1, rewrite_paths: bool = True) -> Rendered:
    """The text as it would be posted, plus every link it holds.

    Resolved citations stay links to their registry URL; everything else becomes its
    label. Any ``](`` left over (a link form we do not resolve) is broken up, so the
    result holds no link to a URL outside the registry.
    """
    out = Rendered(text="")
    if _OPEN in text or _CLOSE in text:
        text = text.replace(_OPEN, "").replace(_CLOSE, "")
    if "[" not in text and "<" not in text:
        text = rewrite_checkout_paths(text, resolver.checkouts) if rewrite_paths else text
        out.text = reduce_urls(text.replace("](", "] (") if "](" in text else text, out, None, first_line)
        return out
    if "]:" in text:
        text = _drop_reference_definitions(text, resolver, part, first_line, out)
    if rewrite_paths:
        text = rewrite_checkout_paths(text, resolver.checkouts)
    links = _Links(out, resolver, part, first_line)
    if "<a" in text or "<A" in text:
        text = links.anchors(text)
    if "<" in text:
        text = links.autolinks(text)
    for _ in range(MAX_PASSES):
        if "](" not in text:
            break
        source = text
        text = links.inline(source)
        if text == source:
            break
    if "](" in text:
        text = text.replace("](", "] (")
    text = reduce_urls(text, out, None, first_line)
    if links.pieces:
        if "!" + _OPEN in text:  # an image: the link (or label) replaces it, without the "!"
            text = text.replace("!" + _OPEN, _OPEN)
        text = PLACEHOLDER.sub(lambda m: links.pieces[int(m.group(1))], text)
    out.text = text
    return out


def _host(url: str) -> str:
    try:
        host = urlsplit(url if "://" in url else "//" + url).hostname
    except ValueError:
        host = None
    return host or "link"


def reduce_urls(text: str, out: Rendered, line: int | None, first_line: int = 1, *, warn: bool = True) -> str:
    """Every URL written as text becomes its host (`` `host` ``, plain inside code, where
    chat apps link nothing): agents cite, never link, and a URL may carry a token. Each
    is an ``RCA233`` warning at its line (``line`` when given, else counted in ``text``)."""
    if not (
        "://" in text
        or (("w." in text or "W." in text) and WWW.search(text))
        or ("/" in text and HOST_PATH.search(text))
    ):
        return text
    fences = find_fences(text.split("\n")) if "```" in text or "~~~" in text else None
    lines = _Lines(text, first_line)

    def repl(m: re.Match[str]) -> str:
        at = lines.at(m.start())
        line_start = text.rfind("\n", 0, m.start()) + 1
        in_code = text.count("`", line_start, m.start()) % 2 == 1 or (
            fences is not None and at - first_line in fences
        )
        if in_code and m.group("host"):
            return m.group(0)  # a host and path in code is not linked (a label, app.kubernetes.io/name)
        if warn and len(out.warnings) < MAX_CITATIONS:
            out.warnings.append(codes.URL_TEXT.issue(line=line if line is not None else at))
        url = m.group(0)
        trail = url[len(url.rstrip(".,;:!?*_")) :]
        host = _host(url[: len(url) - len(trail)])
        return (host if in_code else f"`{host}`") + trail

    return BARE_URL.sub(repl, text)


def _record(out: Rendered, citation: Citation, warning: Issue | None) -> None:
    if len(out.citations) < MAX_CITATIONS:
        out.citations.append(citation)
        if warning:
            out.warnings.append(warning)


def _drop_reference_definitions(text: str, resolver: Resolver, part: str, first_line: int, out: Rendered) -> str:
    lines = _Lines(text, first_line)

    def repl(m: re.Match[str]) -> str:
        citation, warning = resolve(m.group(1), m.group(2).strip("<>"), resolver, part=part, line=lines.at(m.start()))
        citation.resolved, citation.href = False, None
        citation.reason = "reference-style link definitions are dropped"
        _record(out, citation, warning)
        return ""

    return REFERENCE_DEFINITION.sub(repl, text)


def labels_only(text: str, checkouts: tuple[tuple[str, str], ...] = ()) -> str:
    """Every link reduced to its label and checkout paths rewritten (no citation records)."""
    text = rewrite_checkout_paths(text, checkouts)
    if "<" in text:
        text = AUTOLINK.sub(_label, text)
    for _ in range(MAX_PASSES):
        if "](" not in text:
            return text
        reduced = LINK.sub(_label, text)
        if reduced == text:
            break
        text = reduced
    return text.replace("](", "] (")


def _label(m: re.Match[str]) -> str:
    return m.group(1)


def find_citations(text: str, resolver: Resolver, *, part: str, first_line: int = 1) -> Rendered:
    """Every link in ``text`` (which is kept as written), for the stored report.

    One ``finditer`` pass when no link is nested in another (the usual case); nested,
    reference-style and auto links take the full ``render`` path.
    """
    if "](" not in text and "]:" not in text and "<" not in text:
        return Rendered(text=text)
    out = Rendered(text=text)
    matches = list(LINK.finditer(text))
    if "]:" in text or text.count("](") != len(matches) or ("<" in text and AUTOLINK.search(text)):
        return render(text, resolver, part=part, first_line=first_line, rewrite_paths=False)
    lines = _Lines(text, first_line)
    for m in matches:
        citation, warning = resolve(m.group(1), m.group(2).strip("<>"), resolver, part=part, line=lines.at(m.start()))
        _record(out, citation, warning)
    return out
