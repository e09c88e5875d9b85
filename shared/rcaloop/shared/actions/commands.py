"""Shell command lines: which commands run, and whether any of them writes.

A line is cut into commands at ``;``, ``&&``, ``||``, ``|``, ``&`` and parentheses
(``$(…)`` included); ``sudo``, ``env X=1``, ``timeout 30``, ``watch`` and the like are
looked through; ``bash -c '…'``, ``ssh host '…'``, ``kubectl exec POD -- …`` and
``psql -c '…'`` have their inner command read in turn. Each command is judged by its
tool's table (``rcaloop.shared.actions.tools``): the tool's read-only subcommands are
listed, everything else of the tool writes. Output redirection to a file writes; text
piped into something that runs it (``echo 'DROP …' | psql``) is read as what it runs.
Quotes are read tolerantly: an unclosed quote is closed at the end of the line.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from rcaloop.shared.actions import sql
from rcaloop.shared.actions.lexicon import CHANGE_VERBS

MAX_DEPTH = 4
"""Wrappers inside wrappers are read this deep; deeper nesting counts as writing (fail closed)."""


@dataclass(frozen=True)
class Verdict:
    """What one command does: writes (or stops) something, or only reads."""

    writes: bool
    verb: str  # the words that decide it: ``kubectl delete``, ``rm -rf``, ``UPDATE``
    known: bool = True  # the tool and its subcommand were recognised (a mention in prose counts only then)
    stdin: str = ""  # what the command runs when text is piped in: ``sql``, ``shell``, ``redis``, ``data``


def reads(verb: str, known: bool = True, stdin: str = "") -> Verdict:
    return Verdict(False, verb, known, stdin)


def writes(verb: str, known: bool = True) -> Verdict:
    return Verdict(True, verb, known)


def worst(found: Iterable[Verdict | None]) -> Verdict | None:
    """The first writing verdict, else the first reading one, else None."""
    first: Verdict | None = None
    for v in found:
        if v is None:
            continue
        if v.writes:
            return v
        first = first or v
    return first


Rule = Callable[[str, list[str], "Reader"], Verdict | None]
"""A tool's judge: (tool name as written, its arguments, the reader for inner commands)."""


@dataclass(frozen=True)
class Reader:
    """Reads inner commands for wrapper tools, ``depth`` levels deep."""

    tools: dict[str, Rule]
    depth: int = 0

    def deeper(self) -> Reader:
        return Reader(self.tools, self.depth + 1)

    def argv(self, argv: Sequence[str]) -> Verdict | None:
        """One command given as words (``sudo``'s or ``kubectl exec``'s inner command)."""
        if not argv:
            return None
        if self.depth >= MAX_DEPTH:
            return writes(" ".join(argv[:2]), known=False)
        return _command(list(argv), [], self.deeper())

    def line(self, text: str) -> Verdict | None:
        """A command line given as one string (``bash -c``'s or ``ssh``'s inner command)."""
        if self.depth >= MAX_DEPTH:
            return writes(text.split(" ", 1)[0], known=False)
        return read_line(text, self.deeper())

    def sql(self, text: str, tool: str) -> Verdict:
        found = sql.judge(text)
        return Verdict(found.writes, found.verb or tool)


_SEPARATOR = set(";&|()")
_WRITE_REDIRECTS = {">", ">>", ">|", "&>", "&>>", "1>", "2>"}
_HARMLESS_TARGETS = {"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "-"}
_SHELL_WORDS = {"if", "then", "do", "else", "elif", "while", "until", "!", "{", "time", "exec", "command", "builtin",
                "coproc", "noglob"}
_NEUTRAL = {"for", "case", "select", "done", "fi", "esac", "}", "in", "function", "return", "break", "continue",
            "export", "local", "declare", "readonly", "set", "unset", "shift", "wait", "true", "false", ":", "[", "[[",
            "test", "echo", "printf", "read", "cd", "pushd", "popd", "alias", "sleep", "clear", "exit", "history"}
"""Shell words that neither check nor change anything: no verdict of their own."""
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=")


_PLAIN = re.compile(r"^[^'\"\\;&|()<>`$]*$")


def tokens(text: str) -> list[str]:
    """Shell words and operators, quotes removed; an unclosed quote closes at the end."""
    if _PLAIN.match(text):
        return text.split()
    for closing in ("", "'", '"', "'\"", "\"'"):
        lex = shlex.shlex(text + closing, posix=True, punctuation_chars=";&|()<>")
        lex.whitespace_split = True
        lex.commenters = ""
        try:
            return list(lex)
        except ValueError:
            continue
    return text.split()


@dataclass
class Segment:
    argv: list[str] = field(default_factory=list)
    redirects: list[tuple[str, str]] = field(default_factory=list)


def pipelines(words: list[str]) -> list[list[Segment]]:
    """Commands grouped into pipelines (``|`` joins a pipeline, every other operator ends one)."""
    out: list[list[Segment]] = [[Segment()]]
    i = 0
    while i < len(words):
        w = words[i]
        if w and set(w) <= _SEPARATOR | {"<", ">"} and ("<" in w or ">" in w):
            target = words[i + 1] if i + 1 < len(words) else ""
            out[-1][-1].redirects.append((w, target))
            i += 2
            continue
        if w and set(w) <= _SEPARATOR:
            if w in ("|", "|&"):
                out[-1].append(Segment())
            else:
                out.append([Segment()])
        else:
            out[-1][-1].argv.append(w)
        i += 1
    return [[s for s in p if s.argv or s.redirects] for p in out if any(s.argv or s.redirects for s in p)]


def _redirect_writes(seg: Segment) -> str | None:
    for op, target in seg.redirects:
        if op.endswith(">&") and target.isdigit():
            continue
        writing = op in _WRITE_REDIRECTS or op.endswith((">", ">>")) or op == ">&"
        if writing and target not in _HARMLESS_TARGETS:
            return f"> {target}".strip()
    return None


def _fed_text(before: list[Segment], seg: Segment) -> tuple[bool, str | None]:
    """Whether ``seg`` is fed on stdin, and the text fed when it can be read (``echo``/``printf``/``<<<``)."""
    for op, target in seg.redirects:
        if op == "<<<":
            return True, target
        if op in ("<", "<<", "<<-"):
            return True, None
    if not before:
        return False, None
    src = before[-1].argv
    if src and src[0] in ("echo", "printf") and not before[-1].redirects:
        return True, " ".join(a for a in src[1:] if not (src[0] == "echo" and a in ("-e", "-n", "-E")))
    return True, None


def _command(argv: list[str], before: list[Segment], reader: Reader, seg: Segment | None = None) -> Verdict | None:
    while argv and (_ASSIGNMENT.match(argv[0]) or argv[0] in _SHELL_WORDS):
        argv = argv[1:]
    if not argv:
        return None
    name = argv[0].rsplit("/", 1)[-1].lower() if "/" in argv[0] and not argv[0].startswith(".") else argv[0].lower()
    if name in _NEUTRAL:
        return None
    rule = reader.tools.get(name) or (reader.tools.get(name.split(".", 1)[0]) if "." in name[1:] else None)
    if rule is None:
        return _unknown(argv)
    verdict = rule(name, argv[1:], reader)
    if verdict is not None and verdict.stdin and seg is not None:
        fed, text = _fed_text(before, seg)
        if fed:
            if text is None or verdict.stdin == "data":
                return writes(f"{verdict.verb} (stdin)", verdict.known)
            inner = rule(name, [*argv[1:], *_stdin_as_args(verdict.stdin, text)], reader)
            return inner if inner is not None and not inner.stdin else writes(f"{verdict.verb} (stdin)", verdict.known)
    return verdict


def _stdin_as_args(kind: str, text: str) -> list[str]:
    """Text piped into a reader, given back as the argument the reader takes it in."""
    if kind == "sql":
        return ["-c", text]
    if kind == "shell":
        return ["-c", text]
    return tokens(text)


_CLI_NAME = re.compile(r"^[a-z][a-z0-9_.-]*$")
_STATUS_SUBCOMMANDS = frozenset({"status", "list", "ls", "get", "show", "describe", "info", "version", "logs", "check",
                                 "health", "top", "stats", "inspect", "history", "diff"})
"""Subcommands that read whatever the tool: ``mytool status`` reads, ``mytool restart`` writes."""
_SCRIPT = re.compile(r"^(?:\.{0,2}/|~/)|\.(?:sh|bash|py|rb|pl|ps1|js|ts|php)$")


def _unknown(argv: list[str]) -> Verdict | None:
    """A command of no known tool: a script, an invocation with options or with a change verb as
    its subcommand (``mytool restart api``) writes (fail closed); ``mytool status`` reads; a lone
    word or a phrase is no command at all (an identifier or a log line in a code span)."""
    head = argv[0]
    runnable = len(argv) > 1 or head.startswith(("./", "../", "~/")) or "." in head.rsplit("/", 1)[-1]
    if _SCRIPT.search(head) and runnable:
        return writes(head, known=False)
    if len(argv) > 1 and _CLI_NAME.match(head):
        sub = argv[1].lower()
        if sub in CHANGE_VERBS or any(a.startswith("-") for a in argv[1:]):
            return writes(f"{head} {sub}" if sub in CHANGE_VERBS else head, known=False)
        if sub in _STATUS_SUBCOMMANDS:
            return reads(f"{head} {sub}", known=False)
    return None


def _segment_verdict(seg: Segment, before: list[Segment], reader: Reader) -> Verdict | None:
    verdict = _command(list(seg.argv), before, reader, seg)
    target = _redirect_writes(seg)
    if target and not (verdict and verdict.writes):
        return writes(f"{seg.argv[0] if seg.argv else ''} {target}".strip())
    return verdict


def read_line(text: str, reader: Reader) -> Verdict | None:
    """The first writing command of a command line, else its first reading one, else None."""
    found = []
    for pipeline in pipelines(tokens(text)):
        for i, seg in enumerate(pipeline):
            found.append(_segment_verdict(seg, pipeline[:i], reader))
    return worst(found)


@lru_cache(maxsize=4096)
def judge_line(text: str) -> Verdict | None:
    """A command line (a code span, a ``$`` line) judged with every known tool; a span that
    starts like an SQL statement (two words or more, or a ``psql`` meta-command) as SQL."""
    from rcaloop.shared.actions.tools import TOOLS

    head = text.split()
    if sql.STARTS.match(text) and head[0].lower() not in TOOLS and (
            (len(head) > 1 and not head[1].startswith("-")) or head[0].startswith("\\")):
        found = sql.judge(text)
        return Verdict(found.writes, found.verb)
    return read_line(text, Reader(TOOLS))
