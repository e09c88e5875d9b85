"""Shell command lines: which commands run, and whether any of them writes.

A line is cut into commands at ``;``, ``&&``, ``||``, ``|``, ``&`` and parentheses
(``$(…)`` included); ``sudo``, ``env X=1``, ``timeout 30``, ``watch`` and the like are
looked through; ``bash -c '…'``, ``ssh host '…'``, ``kubectl exec POD -- …`` and
``psql -c '…'`` have their inner command read in turn. Each command is judged by its
tool's table (``rcaloop.judge.actions.tools``): the tool's read-only subcommands are
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

from rcaloop.judge.actions import sql
from rcaloop.judge.vocab import Concept, words

MAX_DEPTH = 4
"""Wrappers inside wrappers are read this deep; deeper nesting counts as writing (fail closed)."""


@dataclass(frozen=True)
class Verdict:
    """What one command does: writes (or stops) something, or only reads."""

    writes: bool
    verb: str  # the words that decide it: ``kubectl delete``, ``rm -rf``, ``UPDATE``
    known: bool = True  # the tool and its subcommand were recognised (a mention in prose counts only then)
    stdin: str = ""  # what the command runs when text is piped in: ``sql``, ``shell``, ``redis``, ``data``
    unread: bool = False  # a command of no known tool: it writes where it stands as a command (fail closed)


def reads(verb: str, known: bool = True, stdin: str = "") -> Verdict:
    return Verdict(False, verb, known, stdin)


def writes(verb: str, known: bool = True) -> Verdict:
    return Verdict(True, verb, known)


def worst(found: Iterable[Verdict | None]) -> Verdict | None:
    """The first writing verdict (one that is known to write before one that is ``unread``),
    else the first reading one, else None."""
    first: Verdict | None = None
    unread: Verdict | None = None
    for v in found:
        if v is None:
            continue
        if v.writes and not v.unread:
            return v
        if v.writes:
            unread = unread or v
        first = first or v
    return unread or first


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
_COMMENT = re.compile(r"(?:^|(?<=[\s;&|()]))#")
"""Where a shell comment may start: ``#`` at the start of a word."""
_QUOTED = re.compile(r"'[^']*'?|\"(?:\\.|[^\"\\])*\"?")


def strip_comment(text: str) -> str:
    """``text`` without its shell comment (``kubectl delete pod x # not a --dry-run`` runs no
    dry run): a ``#`` that starts a word outside quotes ends the command line."""
    if "#" not in text:
        return text
    blank = _QUOTED.sub(lambda m: "_" * len(m.group(0)), text) if ("'" in text or '"' in text) else text
    m = _COMMENT.search(blank)
    return text[:m.start()].rstrip() if m else text


PLACEHOLDER = re.compile(r"<[A-Za-z][\w .:/-]{0,40}>")
"""``<pod>``, ``<target group arn>``: a placeholder for a value, not a redirection."""


def tokens(text: str) -> list[str]:
    """Shell words and operators, quotes removed, a comment dropped; an unclosed quote closes at
    the end. An option written inside quotes (``--reason "--dry-run"``) is kept as a quoted
    word: it is a value, so it guards nothing. A placeholder (``<pod>``) is a word."""
    text = PLACEHOLDER.sub("PLACEHOLDER", strip_comment(text))
    if _PLAIN.match(text):
        return text.split()
    for closing in ("", "'", '"', "'\"", "\"'"):
        lex = shlex.shlex(text + closing, posix=True, punctuation_chars=";&|()<>")
        lex.whitespace_split = True
        lex.commenters = ""
        try:
            found = list(lex)
        except ValueError:
            continue
        return _quoted_options(text, found)
    return text.split()


def _quoted_options(text: str, found: list[str]) -> list[str]:
    """Words that look like options but were written only inside quotes, kept quoted."""
    if not any(w.startswith("-") for w in found) or not ("'" in text or '"' in text):
        return found
    bare = {w.split("=", 1)[0] for w in _QUOTED.sub(" ", text).split() if w.startswith("-")}
    return [f'"{w}"' if w.startswith("-") and w.split("=", 1)[0] not in bare else w for w in found]


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
        if writing and re.fullmatch(r"[\d.]+[a-z%]{0,3}", target or ""):
            continue  # "used / max > 0.85": a comparison in an expression, not a file
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


INDIRECT = "indirect"
"""The mark of a verdict on a command whose program or script comes from a variable, a substitution, an
alias or decoded text: what it runs cannot be read, so it writes (fail closed)."""
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "fish", "ash", "eval", "source", "."})
_SUBSTITUTION = re.compile(r"\$\(|`|\$\{?[A-Za-z_]|<\(")


def _indirect(argv: list[str], reader: Reader) -> Verdict | None:
    """A program named by a variable or a substitution (``$C``, ``$(echo kubectl)``), a shell or ``eval``
    given text built at run time (``eval "$(… | base64 -d)"``, ``bash -c "$(curl …)"``), or an alias
    defined for a command: what runs is not written down, so it writes unless the alias body reads."""
    head = argv[0]
    if head.startswith("$") or _SUBSTITUTION.search(head):
        return writes(f"{head} ({INDIRECT})", known=False)
    name = head.rsplit("/", 1)[-1].lower()
    if name in _SHELLS and any(_SUBSTITUTION.search(a) for a in argv[1:]):
        return writes(f"{name} ({INDIRECT})", known=False)
    if name == "alias":
        bodies = [a.split("=", 1)[1] for a in argv[1:] if "=" in a]
        found = worst(reader.line(b) for b in bodies if b.strip())
        return writes(f"alias ({INDIRECT}: {found.verb})", known=False) if found is not None and found.writes else None
    return None


def _command(argv: list[str], before: list[Segment], reader: Reader, seg: Segment | None = None) -> Verdict | None:
    while argv and (_ASSIGNMENT.match(argv[0]) or argv[0] in _SHELL_WORDS):
        argv = argv[1:]
    if not argv:
        return None
    hidden = _indirect(argv, reader)
    if hidden is not None or argv[0] == "alias":
        return hidden
    name = argv[0].rsplit("/", 1)[-1].lower() if "/" in argv[0] and not argv[0].startswith(".") else argv[0].lower()
    name = name.removesuffix(".sh") if name.removesuffix(".sh") in reader.tools else name  # kafka-topics.sh
    if name in _NEUTRAL:
        return None
    rule = reader.tools.get(name) or (reader.tools.get(name.split(".", 1)[0]) if "." in name[1:] else None)
    if rule is None:
        return _unknown(argv, reader)
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


CLI_NAME = re.compile(r"^[a-z][a-z0-9_.-]*$")
"""A word that can name a program (lower case, no spaces)."""
_STATUS_SUBCOMMANDS = frozenset({"status", "list", "ls", "get", "show", "describe", "info", "version", "logs", "check",
                                 "health", "top", "stats", "stat", "inspect", "history", "diff", "analyze"})
"""Subcommands that read whatever the tool: ``mytool status`` reads, ``mytool restart`` writes."""
_SCRIPT = re.compile(r"^(?:\.{1,2}/|~/)|\.(?:sh|bash|zsh|py|rb|pl|ps1|js|ts|php|groovy|lua)$")
"""A script given by path (``./rollback.sh``, ``~/bin/fix``) or by its extension: it cannot be read here."""
NOT_CHANGE_WORDS = frozenset({
    "run", "log", "tag", "label", "file", "top", "get", "take", "make", "follow", "keep", "open", "post", "send",
    "call", "include", "give", "provide", "supply", "paste", "attach", "hold", "point", "phase", "power", "flash",
    "join", "do", "use", "try", "sign", "release", "lock", "cut", "let", "put", "mask", "ship", "wind", "turn",
    "bring", "route", "partition", "format", "cycle", "load", "block", "mock", "stub", "dial", "change", "connect",
    "fail", "time", "seed", "shed", "grow", "perform", "prepare", "allow", "secure", "register", "warm",
})
"""Change verbs that name things as often as they act in a command's words (``gh run list``,
``load-balancer list``): in an unknown tool's words they decide nothing."""
_WORD_PARTS = re.compile(r"[.:_-]|(?<=[a-z])(?=[A-Z])")


def _parts(word: str) -> list[str]:
    """A word and its parts, lower case: ``service.restart``, ``pg:reset``, ``DeleteBucket``."""
    low = word.lower()
    return [low, *(p.lower() for p in _WORD_PARTS.split(word) if p)] if _WORD_PARTS.search(word) else [low]


def change_word(args: Sequence[str]) -> str | None:
    """The first argument word of a command that names a change, whole or as a part of a dotted,
    colon, dashed, underscored or camel-case word (``delete``, ``service.restart``, ``pg:reset``,
    ``delete-bucket``, ``DeleteBucket``); options, paths and ``key=value`` words are not read."""
    for a in args:
        if not a or a.startswith("-") or "/" in a or "=" in a or " " in a or len(a) > 64:
            continue
        if any(part in words(Concept.CHANGE) and part not in NOT_CHANGE_WORDS for part in _parts(a)):
            return a
    return None


def _quoted_statement(args: Sequence[str], reader: Reader) -> Verdict | None:
    """A quoted argument that writes as an SQL or Cypher statement (``bq query "DELETE FROM …"``)
    or as a command line of a known tool (``salt '*' cmd.run 'systemctl restart x'``)."""
    for a in args:
        if " " not in a:
            continue
        if sql.STARTS.match(a):
            found = sql.judge(a)
            if found.writes:
                return writes(found.verb, known=False)
        elif a.split(None, 1)[0].lower() in reader.tools:
            inner = reader.line(a)
            if inner is not None and inner.writes and not inner.unread:
                return writes(inner.verb, known=False)
    return None


def _unknown(argv: list[str], reader: Reader) -> Verdict | None:
    """A command of no known tool, failing closed: a script writes; so does a word naming a change
    among its arguments (``openstack server delete web-1``, ``salt '*' service.restart x``), a
    writing statement in a quoted argument, or an option where no status word is; a status word
    among its command words reads (``mytool status -n prod``, ``openstack server list``) unless
    an option forces or names a change (``--force``, ``--delete``). Given by path
    (``/etc/init.d/pgbouncer restart``) it is read by its name. A lone word is no command (an
    identifier in a code span); where one stands as
    the command, or a command of words that name no change, ``unread`` says it cannot be shown
    to read."""
    head = argv[0]
    base = head.rsplit("/", 1)[-1] or head
    if _SCRIPT.search(head) and not head.startswith("/"):
        return writes(head, known=False)
    statement = _quoted_statement(argv[1:], reader)
    if statement is not None:
        return statement
    change = change_word(argv[1:])
    if change is not None:
        return writes(f"{base} {change}", known=False)
    if _SCRIPT.search(base):
        return writes(head, known=False)
    if len(argv) > 1 and CLI_NAME.match(base.lower()):
        sub = argv[1].lower()
        status = next((a for a in argv[1:5] if not a.startswith("-") and not _STATUS_SUBCOMMANDS.isdisjoint(_parts(a))),
                      None)
        options = [a for a in argv[1:] if a.startswith("-")]
        if options and (status is None or any(_changing_option(o) for o in options)):
            return writes(base, known=False)
        if status is not None:  # "openstack server list", "heroku pg:info", "mytool status -n prod"
            return reads(f"{base} {status}", known=False)
        return Verdict(True, f"{base} {sub}", known=False, unread=True)
    if "/" in head and (len(argv) > 1 or _PROGRAM_DIR.search(head)):
        return Verdict(True, head, known=False, unread=True)
    return None


_FORCING_OPTIONS = frozenset({"-f", "-y", "--force", "--yes", "--fix", "--apply", "--commit", "--execute",
                              "--confirm", "--write", "--exec", "--command", "--cmd", "--eval", "--script"})


def _changing_option(option: str) -> bool:
    """An option of an unknown tool that forces, confirms or runs something, or names a change
    (``--force``, ``--yes``, ``--delete``, ``--reset-offsets``): a status word no longer reads."""
    name = option.split("=", 1)[0].lower()
    return name in _FORCING_OPTIONS or change_word([name.lstrip("-")]) is not None


_PROGRAM_DIR = re.compile(r"/(?:s?bin|init\.d|libexec|scripts?|tools?)/[^/]+$")
"""A path to a program (``/opt/app/bin/failover``), not to a file it reads."""


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


HTTP_REQUEST = re.compile(r"^\s*(GET|HEAD|OPTIONS|PUT|POST|PATCH|DELETE)\s+(?=[/_\w.-]*[/_?]|https?:)\S")
"""A REST call written as its method and path (``GET _cat/allocation?v``, ``PUT logs-*/_settings``)."""


def http_request(text: str) -> Verdict | None:
    """A request line: GET, HEAD and OPTIONS read; every other method writes."""
    m = HTTP_REQUEST.match(text)
    if m is None:
        return None
    method = m.group(1)
    return reads(method) if method in ("GET", "HEAD", "OPTIONS") else writes(method)


@lru_cache(maxsize=4096)
def judge_line(text: str) -> Verdict | None:
    """A command line (a code span, a ``$`` line) judged with every known tool; a span that
    starts like an SQL statement (two words or more, or a ``psql`` meta-command) as SQL."""
    from rcaloop.judge.actions.tools import TOOLS

    head = text.split()
    request = http_request(text)
    if request is not None:
        return request
    if head and head[0].isupper() and head[0].lower() not in TOOLS:
        from rcaloop.judge.actions.tools.clients import redis_bare  # noqa: PLC0415

        said = redis_bare(head)
        if said is not None:
            return said
    if sql.STARTS.match(text) and head[0].lower() not in TOOLS and (
            (len(head) > 1 and not head[1].startswith("-")) or head[0].startswith("\\")):
        found = sql.judge(text)
        return Verdict(found.writes, found.verb)
    return read_line(text, Reader(TOOLS))
