"""``rcaloop show``: one result's path through rcaloop, from what the streams and the stores hold.

Streams are read newest first, at most ``--scan`` entries each (bounded, under the deployment's
stream prefix): an entry whose payload does not hold the query (or an analysis found for it) is
skipped unparsed. The stores are read through their own read APIs — the annotation store, the
knowledge store, the gate store — each one that exists here; a store that cannot be read is said
so in its section, never an error of the whole command. Heavy imports happen when it runs.
"""

from __future__ import annotations

import json
from typing import Any

import typer

PIPELINE = ("rca.results", "rca.ingested", "rca.parsed", "rca.evaluated", "review.tasks", "review.annotations",
            "knowledge.events")


def register(app: typer.Typer, deps: object = None) -> None:  # noqa: ARG001 - needs no service core
    app.command("show")(show)


def show(
    query: str = typer.Argument(..., help="a result_id, job_id or analysis_hash"),
    scan: int = typer.Option(5000, min=1, max=1_000_000, help="newest entries read per stream"),
    as_json: bool = typer.Option(False, "--json", help="everything found, as JSON"),
) -> None:
    """One result's path: ingested, parsed, verdict (gates, repairs), review task and its state,
    annotations, knowledge and gate records, dead letters."""
    from rcaloop.shared.cli_output import fail, out  # noqa: PLC0415
    from rcaloop.shared.http_edge import parameter_problem  # noqa: PLC0415

    if problem := parameter_problem(query):
        fail(f"the query {problem}; a result_id, job_id or analysis_hash is printable text")
    found = _run(query, scan)
    if as_json:
        out.print_json(json.dumps(found, default=str))
    else:
        _render(found)
    if not found["analyses"] and not any(found["streams"].values()) and not found["dead_letters"]:
        raise typer.Exit(1)


def _run(query: str, scan: int) -> dict[str, Any]:
    from rcaloop.cli.runtime import with_redis  # noqa: PLC0415

    async def work(redis, settings) -> dict[str, Any]:
        streams, hashes, letters = await _streams(redis, settings.prefix, query, scan)
        if len(query) == 64 and all(c in "0123456789abcdef" for c in query):
            hashes.add(query)
        return {"query": query, "scanned_per_stream": scan, "analyses": sorted(hashes), "streams": streams,
                "dead_letters": letters, "stores": await _stores(sorted(hashes))}

    return with_redis(work)


# -- the streams ---------------------------------------------------------------------------------------------------
async def _entries(redis, key: str, scan: int):
    """Newest first, at most ``scan``, in pages."""
    high, left = "+", scan
    while left > 0:
        page = await redis.xrevrange(key, max=high, min="-", count=min(500, left))
        for entry_id, fields in page:
            yield entry_id.decode(), fields
        if len(page) < min(500, left):
            return
        left -= len(page)
        high = f"({page[-1][0].decode()}"


def _summary(stream: str, data: dict) -> dict[str, Any]:
    """What matters of an entry on each stream (the payload itself may be large)."""
    keep: tuple[str, ...]
    if stream == "rca.results":
        keep = ("result_id", "job_id", "kind", "producer", "submitted_at", "analysis_hash")
    elif stream == "rca.ingested":
        keep = ("analysis_hash", "result_id", "job_id", "size_bytes", "ingested_at")
    elif stream == "rca.parsed":
        return {"analysis_hash": data.get("analysis_hash"), "outcome": data.get("outcome"),
                "errors": [e.get("code") for e in data.get("errors") or []],
                "warnings": [w.get("code") for w in data.get("warnings") or []],
                "red_flags": [f"{f.get('code')} {f.get('type')} in {f.get('where')}" for f in data.get("red_flags")
                              or []]}
    elif stream == "rca.evaluated":
        return {"analysis_hash": data.get("analysis_hash"), "verdict": data.get("verdict"), "score": data.get("score"),
                "pass_score": data.get("pass_score"), "reasons": data.get("reasons") or [],
                "hard_gates": [{"gate": g.get("gate"), "passed": g.get("passed"), "detail": g.get("detail")}
                               for g in data.get("hard_gates") or []],
                "repairs": [{"kind": r.get("kind"), "target": r.get("target"), "reason": r.get("reason")}
                            for r in data.get("repairs") or []]}
    elif stream == "review.tasks":
        keep = ("task_id", "analysis_hash", "kind", "verdict", "priority", "overlap")
    elif stream == "review.annotations":
        keep = ("annotation_id", "analysis_hash", "annotator", "kind", "revision", "created_at")
    else:
        keep = ("event_id", "analysis_hash", "kind", "package_id", "created_at")
    return {k: data.get(k) for k in keep}


def _matches(data: dict, query: str, hashes: set[str]) -> bool:
    return query in (data.get("result_id"), data.get("job_id"), data.get("analysis_hash")) or \
        data.get("analysis_hash") in hashes


async def _streams(redis, prefix: str, query: str, scan: int):
    from rcaloop.contracts import Stream, analysis_hash  # noqa: PLC0415

    hashes: set[str] = set()
    found: dict[str, list] = {}
    for name in PIPELINE:
        needles = [n.encode() for n in (query, *hashes)]
        rows = []
        async for entry_id, fields in _entries(redis, Stream(name).key(prefix), scan):
            payload = fields.get(b"payload", b"")
            if not any(n in payload for n in needles):
                continue
            try:
                data = json.loads(payload)
            except ValueError:
                continue
            if not isinstance(data, dict) or not _matches(data, query, hashes):
                continue
            if name == "rca.results" and isinstance(data.get("kind"), str) and data.get("content") is not None:
                try:
                    data["analysis_hash"] = analysis_hash(data["kind"], data["content"])  # as ingestion computes it
                except (TypeError, ValueError):
                    pass
            if data.get("analysis_hash") and name in ("rca.ingested", "rca.parsed", "rca.evaluated"):
                hashes.add(data["analysis_hash"])  # a submitted result counts once ingestion accepted it
            row = {"id": entry_id, **_summary(name, data)}
            if name == "rca.results" and not data.get("producer"):  # a plain XADD names it in a header field
                row["producer"] = fields.get(b"producer", b"unknown").decode("utf-8", "replace")[:200]
            rows.append(row)
        found[name] = rows
    needles = [n.encode() for n in (query, *hashes)]
    letters = []
    for stream in Stream:
        async for entry_id, fields in _entries(redis, stream.dlq_key(prefix), scan):
            if any(n in fields.get(b"payload", b"") for n in needles):
                letter = json.loads(fields[b"payload"])
                letters.append({"dlq": stream.dlq_key(prefix), "id": entry_id, "group": letter.get("group"),
                                "error_code": letter.get("error_code"), "error": str(letter.get("error"))[:300]})
    return found, hashes, letters


# -- the stores ----------------------------------------------------------------------------------------------------
async def _stores(hashes: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, read in (("annotation", _annotation), ("knowledge", _knowledge), ("gate", _gate)):
        try:
            out[name] = await read(hashes)
        except Exception as exc:  # noqa: BLE001 - one store that cannot be read is said so; the others still show
            out[name] = {"unavailable": f"{type(exc).__name__}: {str(exc)[:200]}"}
    return out


async def _annotation(hashes: list[str]) -> dict[str, Any]:
    from rcaloop.annotation.settings import AnnotationSettings  # noqa: PLC0415
    from rcaloop.annotation.store import Store  # noqa: PLC0415

    settings = AnnotationSettings()
    url = settings.store_url()
    if url.startswith("sqlite") and not (settings.rcaloop_data_dir / "annotation.db").exists():
        return {"unavailable": f"no annotation store here ({settings.rcaloop_data_dir / 'annotation.db'})"}
    store = Store(url, schema=settings.rcaloop_db_schema)
    try:
        result = {}
        for h in hashes:
            review = await store.review_of(h)
            result[h] = {"task": review["task"].model_dump(mode="json") if review["task"] else None,
                         "slots": review["slots"],
                         "reviews": [_review(r) for r in review["reviews"]],
                         "outcome": review["outcome"]}
        return result
    finally:
        await store.close()


def _review(record) -> dict[str, Any]:
    row = {"annotation_id": record.annotation_id, "kind": record.kind, "annotator": record.annotator,
           "revision": record.revision, "at": record.created_at.isoformat()}
    if record.annotation is not None:
        row["category_correct"] = record.annotation.category_correct
    if record.evaluation is not None:
        row["outcome"] = getattr(record.evaluation, "resolution_outcome", None)
    return row


async def _knowledge(hashes: list[str]) -> dict[str, Any]:
    from rcaloop.knowledge.app import open_store  # noqa: PLC0415
    from rcaloop.knowledge.settings import KnowledgeSettings  # noqa: PLC0415

    settings = KnowledgeSettings()
    if not settings.typedb_address and not settings.sqlite_path.exists():
        return {"unavailable": f"no knowledge store here ({settings.sqlite_path})"}
    store = open_store(settings)
    await store.open()
    try:
        packages = await store.list_packages() if hashes else []
        result = {}
        for h in hashes:
            result[h] = {"run_stored": await store.get_verdict(h) is not None,
                         "reviews": [_review(r) for r in await store.reviews_for(h)],
                         "packages": [{"package_id": p.package_id, "state": p.state} for p in packages
                                      if p.analysis_hash == h]}
        return {"store": store.name, **result}
    finally:
        await store.close()


async def _gate(hashes: list[str]) -> dict[str, Any]:
    import asyncio  # noqa: PLC0415

    from rcaloop.gate.app import GateSettings  # noqa: PLC0415
    from rcaloop.gate.store import GateStore  # noqa: PLC0415

    path = GateSettings().store_path()
    if not path.exists():
        return {"unavailable": f"no gate store here ({path})"}
    store = await asyncio.to_thread(GateStore, path)
    try:
        result = {}
        for h in hashes:
            records = await asyncio.to_thread(store.records_of, h)
            result[h] = {"verdict_recorded": bool(records["verdicts"]),
                         "reviews": [_review(r) for r in records["reviews"]],
                         "events": [e.kind for e in records["events"]]}
        return result
    finally:
        await asyncio.to_thread(store.close)


# -- rendering -----------------------------------------------------------------------------------------------------
def _render(found: dict[str, Any]) -> None:
    from rich.markup import escape  # noqa: PLC0415

    from rcaloop.shared.cli_output import out  # noqa: PLC0415

    def line(label: str, text: str) -> None:
        out.print(f"  {label:<12} {escape(text)}", highlight=False, soft_wrap=True)

    s = found["streams"]
    out.print(escape(f"{found['query']}: {len(found['analyses'])} analysis(es); newest {found['scanned_per_stream']} "
                     "entries of each stream read"), highlight=False)
    for h in found["analyses"] or [None]:
        out.print(f"analysis {h or '(none found)'}", highlight=False)
        _render_streams(s, h, line)
        if h is not None:
            _render_stores(found["stores"], h, line)
    for r in s.get("rca.results", []):
        if r.get("analysis_hash") not in found["analyses"]:
            line("not ingested", f"rca.results {r['id']}: {r['result_id']} ({r['kind']}) by {r['producer']}: not (yet) "
                                 "on rca.ingested — see its dead letters, or `rcaloop status` for lag")
    for letter in found["dead_letters"]:
        line("dead letter", f"{letter['dlq']} {letter['id']} {letter['error_code']} (group {letter['group']}): "
                            f"{letter['error'][:150]}")


def _render_streams(s: dict[str, list[dict]], h: str | None, line) -> None:
    """What each stream holds of one analysis (entries of none are every analysis's)."""

    def mine(name: str) -> list[dict]:
        return [r for r in s.get(name, []) if r.get("analysis_hash") in (h, None)]

    for r in mine("rca.results"):
        line("submitted", f"rca.results {r['id']}: {r['result_id']} ({r['kind']}) by {r['producer']}"
                          f"{', job ' + r['job_id'] if r.get('job_id') else ''}")
    for r in mine("rca.ingested"):
        line("ingested", f"rca.ingested {r['id']}: {r['size_bytes']} bytes at {r['ingested_at']}")
    for r in mine("rca.parsed"):
        line("parsed", f"outcome {r['outcome']}; errors {', '.join(r['errors']) or '-'}; warnings "
                       f"{', '.join(r['warnings']) or '-'}; red flags {'; '.join(r['red_flags']) or '-'}")
    for r in mine("rca.evaluated"):
        failed = [f"{g['gate']} ({g['detail'][:100]})" for g in r["hard_gates"] if not g["passed"]]
        line("verdict", f"{r['verdict']}, score {r['score']:.0f} of {r['pass_score']:.0f} to pass; failed gates: "
                        f"{'; '.join(failed) or 'none'}")
        for rep in r["repairs"]:
            line("  repair", f"{rep['kind']} {rep['target']}: {rep['reason'][:120]}")
    for r in mine("review.tasks"):
        line("review task", f"{r['task_id']} ({r['kind']}, priority {r['priority']}, overlap {r['overlap']})")
    for r in mine("review.annotations"):
        line("review", f"{r['annotation_id']} by {r['annotator']} ({r['kind']}, revision {r['revision']})")
    for r in mine("knowledge.events"):
        line("knowledge", f"event {r['kind']} of package {r['package_id']}")


def _render_stores(stores: dict[str, Any], h: str, line) -> None:
    ann = stores.get("annotation", {})
    if "unavailable" in ann:
        line("review store", ann["unavailable"])
    elif (a := ann.get(h)) is not None:
        task = a["task"]
        states = ", ".join(f"{s['annotator']}: {s['state']}" for s in a["slots"]) or "nobody yet"
        line("review store", f"task {task['task_id']} ({task['kind']}): {states}" if task else "no review task stored")
        for r in a["reviews"]:
            line("  stored", f"{r['kind']} {r['annotation_id']} by {r['annotator']}, revision {r['revision']}")
        if (o := a.get("outcome")) is not None:
            disputed = ", ".join(d["judgement"] for d in o["disputed"]) or "nothing"
            decided = (f"decided by {o['decided_by']}, {o['decided_review_id']}" if o["decided_by"]
                       else "awaiting adjudication")
            line("  outcome", f"{o['state']} (disputed: {disputed}); {decided}")
    kn = stores.get("knowledge", {})
    if "unavailable" in kn:
        line("knowledge", kn["unavailable"])
    elif (k := kn.get(h)) is not None:
        packages = ", ".join(f"{p['package_id']} {p['state']}" for p in k["packages"]) or "no package"
        line("knowledge", f"run {'stored' if k['run_stored'] else 'not stored'}; {len(k['reviews'])} review(s); "
                          f"{packages} ({kn.get('store')})")
    gate = stores.get("gate", {})
    if "unavailable" in gate:
        line("gate", gate["unavailable"])
    elif (g := gate.get(h)) is not None:
        line("gate", f"verdict {'recorded' if g['verdict_recorded'] else 'not recorded'}; {len(g['reviews'])} "
                     f"review(s); knowledge events: {', '.join(g['events']) or '-'}")
