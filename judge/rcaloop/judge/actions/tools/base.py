"""The shapes a tool's table takes: read-only subcommands, read-only flags, wrappers."""

from __future__ import annotations

import re

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from rcaloop.judge.actions.commands import Reader, Verdict, reads, writes


def words(args: Sequence[str], value_options: Iterable[str] = ()) -> tuple[list[str], list[str]]:
    """(options, positional words) of ``args``; an option named in ``value_options`` takes the
    next word as its value (``-n payments``), ``--opt=value`` carries its own."""
    takes = frozenset(value_options)
    opts: list[str] = []
    pos: list[str] = []
    skip = False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a == "--":
            pos += list(args[i + 1:])
            break
        if a.startswith("-") and len(a) > 1:
            opts.append(a)
            skip = a in takes
        else:
            pos.append(a)
    return opts, pos


def has(opts: Iterable[str], *names: str) -> bool:
    """Any option of ``opts`` is one of ``names`` (``--x`` also matches ``--x=…``; ``-x``
    also matches a bundle of short flags holding ``x``, as in ``-nvL``)."""
    for o in opts:
        for n in names:
            if o == n or (n.startswith("--") and o.startswith(n + "=")):
                return True
            bundle = o.startswith("-") and not o.startswith("--")
            if bundle and len(n) == 2 and n[0] == "-" and n[1] != "-" and n[1] in o[1:]:
                return True
    return False


def matches(path: str, table: frozenset[str]) -> bool:
    """``path`` is in ``table``, or a ``prefix*`` entry covers it, or a ``* last`` entry covers a
    two-word ``path`` ending in ``last`` (``* ls`` covers ``image ls``)."""
    if path in table:
        return True
    return any((e.endswith("*") and path.startswith(e[:-1])) or (e.startswith("* ") and " " in path and
                                                                 path.endswith(e[1:])) for e in table)


SCRATCH = ("/tmp/", "/var/tmp/", "/dev/null")


_BACKUP_DIR = re.compile(r"(?:^|/)(?:backups?|snapshots?|dumps?)(?:/|$)", re.I)


def scratch(path: str) -> bool:
    """A file a diagnostic may write without changing anything that runs: one in a scratch directory
    (``/tmp/heap.hprof``) or a backup directory (``/var/backups/etcd/pre-defrag.db``); a file anywhere else
    may be a live one (``/var/lib/etcd/…/db``)."""
    if "/../" in path or path.endswith("/.."):
        return False
    return path in ("-", "/dev/stdout") or path.startswith(SCRATCH) or bool(_BACKUP_DIR.search(path.rsplit("/", 1)[0]))


DRY_RUN = ("--dry-run", "--dryrun", "--simulate", "--what-if")


def dry_run(opts: Iterable[str]) -> bool:
    """``--dry-run`` (any value but ``none``/``false``) and its kin make a command read-only."""
    for o in opts:
        name, _, value = o.partition("=")
        if name in DRY_RUN and value.lower() not in ("none", "false", "0"):
            return True
    return False


Inner = Callable[[list[str], Reader], Verdict | None]
"""Reads what a subcommand runs, from the words after the subcommand (``exec POD -- cmd``)."""


@dataclass(frozen=True)
class Subcommands:
    """A tool judged by its subcommand: the listed reading ones read, every other one writes.

    ``reads`` holds subcommand paths (``get``, ``rollout status``, ``list-*``); a path in
    ``groups`` takes the next word too (``rollout`` → ``rollout restart``, which writes).
    ``writes`` only names writing subcommands so that a mention in prose is recognised.
    ``read_flags`` / ``write_flags`` map a path to options that make it read (``fmt
    -check``) or write (``init -migrate-state``); ``inner`` maps a first word to a reader
    of the command it runs (``exec POD -- cmd``) or to a judge of its own.
    ``help_options`` are options that make any subcommand print its help and run nothing
    (cobra's ``-h``/``--help``: ``kubectl plugin -h``); only tools that reserve them say so
    (``psql -h`` names a host). ``alone_reads`` holds subcommands that read when no word
    follows them (``npm run`` lists the scripts; ``npm run build`` runs one).
    """

    reads: frozenset[str]
    writes: frozenset[str] = frozenset()
    groups: frozenset[str] = frozenset()
    value_options: frozenset[str] = frozenset()
    bare_reads: bool = True  # the tool alone (or with options only) reads: help, version, an interactive view
    honours_dry_run: bool = True
    read_flags: tuple[tuple[str, tuple[str, ...]], ...] = ()
    write_flags: tuple[tuple[str, tuple[str, ...]], ...] = ()
    inner: tuple[tuple[str, Inner], ...] = ()
    help_options: frozenset[str] = frozenset()
    alone_reads: frozenset[str] = frozenset()

    def path(self, pos: list[str]) -> str:
        path = pos[0].lower()
        for word in pos[1:3]:
            if path not in self.groups:
                break
            path = f"{path} {word.lower()}"
        return path

    def __call__(self, name: str, args: list[str], reader: Reader) -> Verdict:
        opts, pos = words(args, self.value_options)
        if not pos:
            return reads(name, known=bool(opts)) if self.bare_reads else writes(name, known=False)
        path = self.path(pos)
        verb = f"{name} {path}"
        for sub, run in self.inner:
            if pos[0].lower() == sub:
                return run(args[args.index(pos[0]) + 1:], reader) or reads(verb)
        if not self.help_options.isdisjoint(opts) or (len(pos) == 1 and path in self.alone_reads):
            return reads(verb)
        read_flags = dict(self.read_flags).get(path, ())
        if (self.honours_dry_run and dry_run(opts)) or (read_flags and has(opts, *read_flags)):
            return reads(verb)
        write_flags = dict(self.write_flags).get(path, ())
        if matches(path, self.reads) and not (write_flags and has(opts, *write_flags)):
            return reads(verb)
        known = matches(path, self.writes) or matches(path, self.reads) or matches(pos[0].lower(), self.writes)
        return writes(verb, known=known)


def flags(reading: Sequence[str] = (), writing: Sequence[str] = (), *, positional_writes: bool = False,
          value_options: Iterable[str] = ()) -> Callable[[str, list[str], Reader], Verdict]:
    """A tool judged by its options: an option of ``writing`` writes; one of ``reading`` reads;
    with ``positional_writes`` an argument writes (``hostname web-1``). A tool that has
    ``reading`` options writes when given none of them (``iptables -A``), unless bare."""

    def judge(name: str, args: list[str], reader: Reader) -> Verdict:
        opts, pos = words(args, value_options)
        hit = next((o for o in opts if has([o], *writing)), None) if writing else None
        if hit:
            return writes(f"{name} {hit}")
        if reading and has(opts, *reading):
            return reads(name)
        if positional_writes and pos:
            return writes(name)
        if not reading or not (opts or pos):
            return reads(name)
        return writes(name, known=False)

    judge.reading, judge.writing = tuple(reading), tuple(writing)  # type: ignore[attr-defined]  # read by the generated docs
    return judge


def always(writing: bool) -> Callable[[str, list[str], Reader], Verdict]:
    """A tool that always reads (``cat``, ``dig``) or always writes (``rm -rf``, ``reboot``)."""

    def judge(name: str, args: list[str], reader: Reader) -> Verdict:
        if not writing:
            return reads(name)
        lead = [a for a in args[:2] if a.startswith("-") and len(a) > 1]
        return writes(" ".join([name, *lead[:1]]))

    judge.always = "writes" if writing else "reads"  # type: ignore[attr-defined]  # read by the generated docs
    return judge


def after_options(args: list[str], value_options: Iterable[str] = ()) -> list[str]:
    """``args`` from the first word that is not an option (or an option's value) on; after
    ``--``, everything."""
    takes = frozenset(value_options)
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            return args[i + 1:]
        if a.startswith("-") and len(a) > 1:
            i += 2 if a in takes else 1
            continue
        return args[i:]
    return []


def runs(value_options: Iterable[str] = (), skip: int = 0) -> Inner:
    """An inner reader: the command after the options (and ``skip`` positional words, such as a
    pod or a container name); ``--`` ends the options."""
    takes = frozenset(value_options)

    def inner(args: list[str], reader: Reader) -> Verdict | None:
        if "--" in args:
            return reader.argv(args[args.index("--") + 1:])
        rest = after_options(args, takes)
        for _ in range(skip):
            rest = after_options(rest[1:], takes) if rest else []
        return reader.argv(rest)

    return inner
