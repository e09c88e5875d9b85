"""``rcaloop dlq``: look at, replay and drop dead letters (``<stream>.dlq``) without raw Redis commands.

A thin adapter over ``rcaloop.shared.dead_letters``; heavy imports happen when a command runs.
"""

from __future__ import annotations

import re
from typing import Any, NoReturn

import typer

from rcaloop.shared.cli_app import cli_app

app = cli_app(help="Dead letters: list, show, replay onto their stream, drop.", no_args_is_help=True)


def register(root: typer.Typer, deps: object = None) -> None:  # noqa: ARG001 - needs no service core
    """Add ``rcaloop dlq …`` to the ``rcaloop`` CLI."""
    root.add_typer(app, name="dlq")

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
STREAMS = typer.Option(None, "--stream", "-s",
                       help="source stream, e.g. rca.results (repeatable; default: every stream)")
CODES = typer.Option(None, "--code", "-c", help="error code, e.g. handler_failed (repeatable)")
OLDER = typer.Option(None, help="only letters older than this (90s, 15m, 2h, 7d)")
NEWER = typer.Option(None, help="only letters newer than this")
IDS = typer.Option(None, "--id", help="this letter (repeatable; needs one --stream)")
JSON = typer.Option(False, "--json", help="JSON instead of lines")


def _seconds(value: str | None, option: str) -> float | None:
    """``90s``, ``15m``, ``2h``, ``7d`` (or plain seconds) as seconds."""
    if value is None:
        return None
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*", value)
    if not found:
        _fail(f"{option} takes a duration such as 90s, 15m, 2h or 7d")
    return float(found[1]) * _UNITS[found[2] or "s"]


def _fail(message: str, code: int = 2) -> NoReturn:
    from rcaloop.shared.cli_output import fail  # noqa: PLC0415

    fail(message, code)


def _selection(streams: list[str] | None, codes: list[str] | None, older: str | None, newer: str | None,
               ids: list[str] | None):
    from rcaloop.contracts import Stream  # noqa: PLC0415
    from rcaloop.shared.dead_letters import Selection  # noqa: PLC0415

    known = {s.value: s for s in Stream}
    unknown = [s for s in streams or () if s.removesuffix(".dlq") not in known]
    if unknown:
        _fail(f"no stream named {unknown[0][:60]!r}; streams: {', '.join(known)}")
    selection = Selection(
        streams=tuple(dict.fromkeys(known[s.removesuffix(".dlq")] for s in streams or ())),
        codes=frozenset(codes or ()),
        older_than_s=_seconds(older, "--older-than"),
        newer_than_s=_seconds(newer, "--newer-than"),
        ids=tuple(ids or ()),
    )
    if problem := selection.problem():
        _fail(problem)
    if any(not re.fullmatch(r"\d+-\d+", i) for i in selection.ids):
        _fail("a letter id looks like 1718000000000-0 (see `rcaloop dlq list`)")
    return selection


def _run(work) -> Any:
    from rcaloop.cli.runtime import with_redis  # noqa: PLC0415

    return with_redis(work)


async def _collect(redis, settings, selection, limit, newest_first=False) -> list:
    from rcaloop.shared.dead_letters import select  # noqa: PLC0415

    return [letter async
            for letter in select(redis, settings.prefix, selection, limit=limit, newest_first=newest_first)]


def _age(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f}{unit}"
    return f"{seconds:.0f}s"


def _subject(letter) -> str:
    """The result the entry was about (``result_id``, else ``analysis_hash``), read from its payload."""
    import json  # noqa: PLC0415

    try:
        data = json.loads(letter.letter.fields.get("payload", "")) if letter.letter else None
    except ValueError:
        return "-"
    if not isinstance(data, dict):
        return "-"
    return str(data.get("result_id") or data.get("analysis_hash") or data.get("annotation_id") or "-")[:64]


def _row(letter) -> dict:
    dead = letter.letter
    return {
        "dlq": letter.dlq_key, "id": letter.letter_id, "age_s": round(letter.age_s),
        "stream": dead.stream if dead else None, "group": dead.group if dead else None,
        "error_code": dead.error_code if dead else "unreadable_letter",
        "deliveries": dead.deliveries if dead else None, "subject": _subject(letter),
        "error": (dead.error if dead else letter.problem or "")[:300],
    }


def _print_json(value) -> None:
    import json  # noqa: PLC0415

    from rcaloop.shared.cli_output import out  # noqa: PLC0415

    out.print_json(json.dumps(value, default=str))


@app.command("list")
def list_letters(
    stream: list[str] = STREAMS,
    code: list[str] = CODES,
    older_than: str = OLDER,
    newer_than: str = NEWER,
    limit: int = typer.Option(50, min=1, help="at most this many, newest first"),
    as_json: bool = JSON,
) -> None:
    """List dead letters, newest first: where from, code, deliveries, the result, the error."""
    from rich.markup import escape  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    from rcaloop.shared.cli_output import out  # noqa: PLC0415

    selection = _selection(stream, code, older_than, newer_than, None)
    letters = _run(lambda r, s: _collect(r, s, selection, limit, newest_first=True))
    rows = [_row(letter) for letter in letters]
    if as_json:
        _print_json(rows)
        return
    if not rows:
        out.print("no dead letters match")
        return
    table = Table(title=f"dead letters ({len(rows)} shown, newest first)")
    for col in ("queue", "id", "age", "group", "code", "tries", "result", "error"):
        table.add_column(col, overflow="fold")
    for r in rows:
        table.add_row(
            *(escape(str(v)) for v in (r["dlq"], r["id"], _age(r["age_s"]), r["group"] or "-", r["error_code"],
                                                 r["deliveries"] or "-", r["subject"], r["error"][:120])))
    out.print(table)


@app.command()
def show(
    stream: str = typer.Argument(..., help="source stream of the letter, e.g. rca.results"),
    letter_id: str = typer.Argument(..., help="the letter's id (from `rcaloop dlq list`)"),
) -> None:
    """Print one dead letter whole (JSON): the entry's fields, the code, the error, the deliveries."""
    selection = _selection([stream], None, None, None, [letter_id])
    letters = _run(lambda r, s: _collect(r, s, selection, 1))
    if not letters:
        _fail(f"no letter {letter_id} in the dead-letter queue of {stream}", code=1)
    letter = letters[0]
    body = letter.letter.model_dump(mode="json") if letter.letter else {"unreadable": letter.problem}
    _print_json({"dlq": letter.dlq_key, "id": letter.letter_id, "age_s": round(letter.age_s), "letter": body})


def _report(outcome, verb: str, as_json: bool, dry_run: bool) -> None:
    from rich.markup import escape  # noqa: PLC0415

    from rcaloop.shared.cli_output import err, out  # noqa: PLC0415

    if as_json:
        _print_json({verb: [{"dlq": x.dlq_key, "id": x.letter_id, "new_id": new or None} for x, new in outcome.done],
                     "refused": [{"dlq": x.dlq_key, "id": x.letter_id, "why": why} for x, why in outcome.refused],
                     "dry_run": dry_run})
    else:
        for letter, new in outcome.done:
            where = f" → {letter.letter.stream} {new}" if new else ""
            out.print(
                f"{'would be ' if dry_run else ''}{verb} {escape(letter.dlq_key)} {letter.letter_id}{escape(where)}",
                      highlight=False)
        for letter, why in outcome.refused:
            err.print(f"not {verb}: {escape(letter.dlq_key)} {letter.letter_id}: {escape(why)}", highlight=False)
        if not outcome.done and not outcome.refused:
            out.print("no dead letters match")
    if outcome.refused:
        raise typer.Exit(1)


@app.command()
def replay(
    stream: list[str] = STREAMS,
    code: list[str] = CODES,
    older_than: str = OLDER,
    newer_than: str = NEWER,
    letter_id: list[str] = IDS,
    limit: int = typer.Option(10, min=1, help="at most this many, oldest first"),
    replay_all: bool = typer.Option(False, "--all", help="every letter that matches, not only --limit"),
    dry_run: bool = typer.Option(False, "--dry-run", help="say what would be replayed; change nothing"),
    as_json: bool = JSON,
) -> None:
    """Put dead letters back on their source stream as new entries, oldest first.

    Each entry gets its payload and headers as the letter kept them, plus replay_of, replayed_from
    and replays; the letter leaves the queue in the same step. Consumers that handled an entry
    before skip it by its idempotency key, so a replay only does what was not done; a letter
    replayed twice is replayed once. Exit 1 when a letter could not be replayed (its payload not
    kept whole, unreadable, or gone meanwhile).
    """
    from rcaloop.shared import dead_letters  # noqa: PLC0415

    selection = _selection(stream, code, older_than, newer_than, letter_id)

    async def work(redis, settings):
        letters = await _collect(redis, settings, selection, None if replay_all else limit)
        return await dead_letters.replay(redis, settings.prefix, letters, settings.stream_maxlen, dry_run=dry_run)

    _report(_run(work), "replayed", as_json, dry_run)


@app.command()
def drop(
    stream: list[str] = STREAMS,
    code: list[str] = CODES,
    older_than: str = OLDER,
    newer_than: str = NEWER,
    letter_id: list[str] = IDS,
    drop_all: bool = typer.Option(False, "--all", help="every letter that matches the filters"),
    dry_run: bool = typer.Option(False, "--dry-run", help="say what would be dropped; change nothing"),
    as_json: bool = JSON,
) -> None:
    """Delete dead letters for good: --id, or --all with the filters you mean.

    Nothing is dropped without an explicit selection; --all takes every letter that matches
    --stream, --code, --older-than and --newer-than."""
    from rcaloop.shared import dead_letters  # noqa: PLC0415

    if not letter_id and not drop_all:
        _fail("drop needs an explicit selection: --id (with --stream), or --all with the filters you mean")
    selection = _selection(stream, code, older_than, newer_than, letter_id)

    async def work(redis, settings):
        letters = await _collect(redis, settings, selection, None)
        return await dead_letters.drop(redis, letters, dry_run=dry_run)

    _report(_run(work), "dropped", as_json, dry_run)
