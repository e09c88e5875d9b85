"""``rcaloop eval run | mutate | novel-e2e``: thin adapters over the pure eval cores.

Reading files, running the agent command, progress and printing live here; every
decision is in ``evaluation`` / ``mutations`` / ``novel_e2e``. Exit codes: 0 pass,
1 fail, 2 unusable input.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from rcaloop.contracts import Issue, RawResult
from rcaloop.gate import agent_runner, junit
from rcaloop.gate.agent_input import build_input
from rcaloop.gate.benchmark_import import (TELEMETRY_FILES, RCAEvalCaseDir, import_openrca, import_rcaeval,
                                           rcaeval_slug)
from rcaloop.gate.benchmarks import openrca_predictions_csv
from rcaloop.gate.cases import EvalCase, dump_cases, load_cases
from rcaloop.gate.evaluation import CASE_TYPES, CaseResult, EvalReport, build_report, evaluate_one
from rcaloop.gate.mutations import MUTATIONS, mutate
from rcaloop.gate.novel_e2e import (E2EReport, Capture, Incident, Refused, Unscored, capture_from_output, load_captures,
                                    load_incidents, run_novel_e2e)
from rcaloop.shared.cli_deps import CliDeps
from rcaloop.shared.sources import SourceError, load_result, read_step_files
from rcaloop.shared.cli_app import cli_app
from rcaloop.shared.cli_output import err, fail, out, read_text_input


def _issues(issues: list[Issue], title: str) -> None:
    for i in issues:
        where = f" (line {i.line})" if i.line else ""
        err.print(f"[yellow]{i.code}[/yellow] {escape(i.message)}{where}", highlight=False)
    if issues:
        err.print(f"{len(issues)} {title}")


def _result_id(case_id: str) -> str:
    rid = re.sub(r"[^A-Za-z0-9._:@/-]", "_", f"eval:{case_id}")
    return rid[:200]


def _job_files(case: EvalCase, base: Path) -> dict[str, object] | None:
    if case.job_dir is None:
        return None
    job = (base / case.job_dir).resolve()
    try:
        return read_step_files(job)
    except SourceError as exc:
        fail(f"{case.case_id}: {exc}")
    return None


def _inputs(cases: list[EvalCase], base: Path) -> dict[str, str]:
    inputs: dict[str, str] = {}
    for c in cases:
        try:
            inputs[c.case_id] = build_input(c, _job_files(c, base))
        except ValueError as exc:
            fail(f"{c.case_id}: context block: {exc}")
    return inputs


def _load_outputs(path: Path, cases: dict[str, EvalCase], inputs: dict[str, str]) -> dict[str, RawResult]:
    """Recorded outputs: JSONL of {case_id, output | capture | job_dir}."""
    raws: dict[str, RawResult] = {}
    for lineno, line in enumerate(read_text_input(path, "captures").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            fail(f"captures {path} line {lineno}: not JSON ({exc.msg})")
        if not isinstance(rec, dict) or not isinstance(rec.get("case_id"), str):
            fail(f"captures {path} line {lineno}: needs a case_id and one of output, capture, job_dir")
        cid = rec["case_id"]
        case = cases.get(cid)
        if case is None:
            err.print(f"[yellow]EV004[/yellow] captures line {lineno}: no fixture case {escape(cid)}; ignored",
                      highlight=False)
            continue
        common: dict[str, Any] = {"result_id": _result_id(cid), "producer": "rcaloop-eval", "input_text": inputs[cid],
                                  "evidence": case.evidence}
        if isinstance(rec.get("output"), str):
            raws[cid] = RawResult(kind="skill_text", content=rec["output"], **common)
        elif isinstance(rec.get("capture"), dict):
            raws[cid] = RawResult(kind="capture", content=rec["capture"], **common)
        elif isinstance(rec.get("job_dir"), str):
            try:
                loaded = load_result((path.resolve().parent / rec["job_dir"]).resolve(), result_id=common["result_id"],
                                     producer="rcaloop-eval")
            except SourceError as exc:
                fail(f"captures line {lineno}: {exc}")
            raws[cid] = loaded.model_copy(update={"input_text": inputs[cid], "evidence": case.evidence})
        else:
            fail(f"captures {path} line {lineno}: needs output (text), capture (object) or job_dir (path)")
    return raws


_KINDS_HELP = f"only these mutations ({', '.join(m.name for m in MUTATIONS)})"

REFERENCE_AGENT = Path(__file__).resolve().parents[4] / "examples" / "agents" / "rule_based_agent.py"


def _reference_agent() -> str:
    """The agent ``eval run`` scores when given none: the checkout's reference agent, said on stderr."""
    if not REFERENCE_AGENT.is_file():
        fail("no agent to score: give --agent-cmd CMD (or set RCALOOP_AGENT_CMD) or --captures FILE")
    command = shlex.join([sys.executable, str(REFERENCE_AGENT)])
    err.print(f"no --agent-cmd or --captures: scoring the reference agent ({escape(command)}); "
              "--agent-cmd CMD or RCALOOP_AGENT_CMD names yours", highlight=False)
    return command


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err, transient=True)


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _print_eval(report: EvalReport) -> None:
    table = Table(title="offline evaluation by case type")
    for col in ("case type", "cases", "passed", "failed", "mutated", "groundless high conf."):
        table.add_column(col, justify="left" if col == "case type" else "right")
    for ctype in CASE_TYPES:
        row = report.per_case_type[ctype]
        table.add_row(ctype, str(row["cases"]), str(row["passed"]), str(row["failed"]), str(row["mutated"]),
                      str(row["groundless_high_confidence"]))
    out.print(table)
    checks = Table(title="checks (pass rate over applicable cases)")
    for col in ("case type", "check", "rate"):
        checks.add_column(col, justify="right" if col == "rate" else "left")
    for ctype in CASE_TYPES:
        for name, rate in report.per_case_type[ctype]["checks"].items():
            checks.add_row(ctype, name, _fmt(rate))
    out.print(checks)
    m = report.metrics
    chance = report.chance_baseline
    out.print(
        f"known Top-1 {_fmt(m['known_top1'])} ({m['known_top1_hits']}/{m['known_cases']}), Top-3 "
        f"{_fmt(m['known_top3'])}; "
        f"chance baseline Top-1 {chance['top1']:.3f}, Top-3 {chance['top3']:.3f} over {chance['families']} families"
    )
    for name, metrics in report.benchmarks.items():
        shown = {k: v for k, v in metrics.items() if k != "by_dataset"}
        out.print(f"{name}: " + ", ".join(f"{k} {_fmt(v)}" for k, v in shown.items()), highlight=False)
    if report.baseline:
        b = report.baseline
        state = "[red]regression[/red]" if b["regression"] else "[green]no regression[/green]"
        out.print(f"stored baseline known Top-1 {_fmt(b['known_top1'])} → now {_fmt(b['current_known_top1'])}: {state}")
    failed = [r for r in report.cases if not r.passed]
    if failed:
        t = Table(title="failed cases")
        for col in ("case", "type", "mutation", "families", "failed checks"):
            t.add_column(col)
        for r in failed[:50]:
            why = r.error.message if r.error else "; ".join(f"{c.code} {c.detail}" for c in r.checks if c.required
                                                            and not c.passed)
            t.add_row(escape(r.case_id), r.case_type, r.mutation or "", escape(", ".join(r.families[:3])),
                      escape(why[:160]))
        out.print(t)
    for f in report.failures:
        out.print(f"[red]{f.code}[/red] {escape(f.message)}", highlight=False)
    out.print("[green]PASS[/green]" if report.passed else "[red]FAIL[/red]")


def _eval_junit(report: EvalReport) -> str:
    cases = []
    for r in report.cases:
        bad = [f"{c.code} {c.name}: {c.detail}" for c in r.checks if c.required and not c.passed]
        if r.error:
            bad.insert(0, f"{r.error.code} {r.error.message}")
        cases.append(
            junit.JUnitCase(name=r.case_id, classname=f"eval.{r.case_type}", failure="\n".join(bad) or None,
                            time_s=r.duration_s or 0.0))
    cases += [junit.JUnitCase(name=f.code, classname="eval.gate", failure=f.message) for f in report.failures]
    return junit.render("rcaloop eval run", cases)


def _write(path: Path | None, text: str, what: str) -> None:
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {what} {path}: {exc.strerror}")


def _read_baseline(baseline: Path) -> dict[str, Any]:
    """A stored baseline: an earlier ``--json-report``, a JSON object (else exit 2)."""
    try:
        base_doc = json.loads(read_text_input(baseline, "baseline"))
    except json.JSONDecodeError as exc:
        fail(f"baseline {baseline}: not JSON ({exc.msg})")
    if not isinstance(base_doc, dict):
        fail(f"baseline {baseline}: must be a JSON object")
    return base_doc


def _run_agent(
    agent_cmd: str, cases: list[EvalCase], inputs: dict[str, str], *, timeout: float, parallel: int
) -> tuple[dict[str, RawResult], dict[str, Issue], dict[str, float]]:
    """Run the agent on every case: its outputs, the cases it failed on, and how long each run took."""
    by_id = {c.case_id: c for c in cases}
    raws: dict[str, RawResult] = {}
    errors: dict[str, Issue] = {}
    durations: dict[str, float] = {}
    try:
        argv = agent_runner.split_command(agent_cmd)
    except ValueError as exc:
        fail(str(exc))
    with _progress() as progress:
        task = progress.add_task("running agent", total=len(cases))
        for r in agent_runner.run_all(argv, inputs, timeout=timeout, parallel=parallel):
            progress.advance(task)
            durations[r.case_id] = r.duration_s
            if r.output is None:
                errors[r.case_id] = r.error or Issue(code="EV002",
                                                     message=f"{r.case_id}: agent printed nothing")
            else:
                case = by_id[r.case_id]
                raws[r.case_id] = RawResult(
                    result_id=_result_id(r.case_id), kind="skill_text", content=r.output,
                    producer="rcaloop-eval",
                    input_text=inputs[r.case_id], evidence=case.evidence,
                )
    if cases and len(errors) == len(cases):
        first = next(iter(errors.values()))
        fail(f"the agent produced no output for any of the {len(cases)} cases ({first.code} {first.message})")
    return raws, errors, durations


def register(app: typer.Typer, deps: CliDeps) -> None:
    """Add ``rcaloop eval …`` to the ``rcaloop`` CLI."""
    eval_app = cli_app(help="Offline evaluation: fixture runs, novelty mutations, novel-incident E2E gate.",
                       no_args_is_help=True)
    app.add_typer(eval_app, name="eval")
    _register_run(eval_app, deps)
    _register_mutate(eval_app)
    _register_novel_e2e(eval_app, deps)
    _register_import(eval_app)


def _register_run(eval_app: typer.Typer, deps: CliDeps) -> None:
    @eval_app.command("run")
    def run(
        fixtures: Path = typer.Option(..., "--fixtures", help="fixture cases, JSONL (docs/evaluation.md)"),
        captures: Path | None = typer.Option(None, "--captures",
                                             help="recorded outputs, JSONL of {case_id, output|capture|job_dir}"),
        agent_cmd: str | None = typer.Option(
            None, "--agent-cmd",
            help="agent command: case input on stdin, skill text output on stdout; without it or --captures: "
                 "$RCALOOP_AGENT_CMD, else the bundled reference agent (examples/agents/rule_based_agent.py)"),
        min_top1: float | None = typer.Option(None, "--min-top1", min=0.0, max=1.0,
                                              help="fail when known Top-1 is below this"),
        baseline: Path | None = typer.Option(None, "--baseline", help="stored baseline (an earlier --json-report)"),
        json_report: Path | None = typer.Option(None, "--json-report", help="write the full report as JSON"),
        junit_file: Path | None = typer.Option(None, "--junit", help="write JUnit XML"),
        timeout: float = typer.Option(60.0, "--timeout", min=0.1, help="seconds per agent run"),
        parallel: int = typer.Option(4, "--parallel", min=1, max=64, help="agent runs at once"),
        registry: Path | None = typer.Option(None, "--registry", help="citation registry JSON for the parser"),
        as_json: bool = typer.Option(False, "--json", help="print the report as JSON instead of tables"),
        openrca_out: Path | None = typer.Option(
            None, "--openrca-out", help="write the OpenRCA cases' answers as OpenRCA's prediction CSV"),
    ) -> None:
        """Score an agent on fixture cases (every output through parser and harness). Exit 0 pass, 1 fail, 2 bad
        input."""
        if captures is not None and agent_cmd is not None:
            fail("give one of --captures FILE or --agent-cmd CMD, not both")
        if captures is None and agent_cmd is None:
            agent_cmd = os.environ.get("RCALOOP_AGENT_CMD") or _reference_agent()
        cases, issues = load_cases(read_text_input(fixtures, "fixtures"))
        if issues:
            _issues(issues, "fixture problem(s)")
            fail(f"{fixtures}: fix the fixture file first")
        if not cases:
            fail(f"{fixtures}: no cases")
        base_doc = _read_baseline(baseline) if baseline is not None else None
        if registry is not None and not registry.is_file():
            fail(f"registry {registry}: no such file")
        by_id = {c.case_id: c for c in cases}
        inputs = _inputs(cases, fixtures.resolve().parent)  # job_dir is relative to where the file really is
        raws: dict[str, RawResult] = {}
        errors: dict[str, Issue] = {}
        durations: dict[str, float] = {}
        if agent_cmd is not None:
            raws, errors, durations = _run_agent(agent_cmd, cases, inputs, timeout=timeout, parallel=parallel)
        elif captures is not None:
            raws = _load_outputs(captures, by_id, inputs)

        def analyze(raw: RawResult):
            return deps.analyze(raw, registry)

        results: list[CaseResult] = []
        with _progress() as progress:
            task = progress.add_task("scoring", total=len(cases))
            for case in cases:
                res = evaluate_one(case, raws.get(case.case_id), errors.get(case.case_id), analyze)
                res.duration_s = durations.get(case.case_id)
                results.append(res)
                progress.advance(task)
        report = build_report(cases, results, min_top1=min_top1, baseline=base_doc)
        if openrca_out is not None:
            _write(openrca_out, _openrca_export(cases, results), "OpenRCA predictions")
        _write(json_report, report.model_dump_json(indent=2), "JSON report")
        _write(junit_file, _eval_junit(report), "JUnit XML")
        if as_json:
            typer.echo(report.model_dump_json(indent=2))
        else:
            _print_eval(report)
        raise typer.Exit(0 if report.passed else 1)


def _openrca_export(cases: list[EvalCase], results: list[CaseResult]) -> str:
    """The OpenRCA cases' answers, one prediction file for one query file (exit 2 otherwise)."""
    by_id = {r.case_id: r for r in results}
    rows = [(c.benchmark, by_id[c.case_id].benchmark) for c in cases
            if c.benchmark is not None and c.benchmark.name == "openrca"]
    if not rows:
        fail("--openrca-out: the fixtures hold no OpenRCA case (rcaloop eval import openrca)")
    datasets = sorted({b.dataset for b, _ in rows})
    if len(datasets) > 1:
        fail(f"--openrca-out: one OpenRCA query file at a time (the fixtures hold {', '.join(datasets)})")
    return openrca_predictions_csv([(b, r.answer if r else []) for b, r in rows])


def _register_mutate(eval_app: typer.Typer) -> None:
    @eval_app.command("mutate")
    def mutate_cmd(
        fixtures: Path = typer.Option(..., "--fixtures", help="fixture cases, JSONL; known cases are mutated"),
        out_path: Path = typer.Option(..., "--out", help="where to write the novel variants (JSONL)"),
        kinds: list[str] = typer.Option(None, "--kind", help=_KINDS_HELP),
    ) -> None:
        """Write novel variants of the known cases, each tagged with its mutation."""
        names = [m.name for m in MUTATIONS]
        unknown = [k for k in kinds or [] if k not in names]
        if unknown:
            fail(f"unknown mutation {', '.join(unknown)} (one of {', '.join(names)})")
        cases, issues = load_cases(read_text_input(fixtures, "fixtures"))
        if issues:
            _issues(issues, "fixture problem(s)")
            fail(f"{fixtures}: fix the fixture file first")
        variants, skipped = mutate(cases, kinds or None)
        _write(out_path, dump_cases(variants), "variants")
        table = Table(title=f"novel variants → {out_path}")
        table.add_column("mutation")
        table.add_column("variants", justify="right")
        for name in names:
            table.add_row(name, str(sum(v.mutation == name for v in variants)))
        out.print(table)
        _issues(skipped, "skipped")
        raise typer.Exit(0)


def _register_novel_e2e(eval_app: typer.Typer, deps: CliDeps) -> None:
    @eval_app.command("novel-e2e")
    def novel_e2e(
        captures: Path | None = typer.Option(None, "--captures",
                                             help="captured post-harness responses (JSON array or JSONL)"),
        incidents: Path | None = typer.Option(None, "--incidents",
                                              help="incidents to run --agent-cmd on (JSON array or JSONL)"),
        agent_cmd: str | None = typer.Option(
            None, "--agent-cmd", help="agent command: incident input on stdin, its capture (JSON) on stdout"),
        timeout: float = typer.Option(60.0, "--timeout", min=0.1, help="seconds per agent run"),
        parallel: int = typer.Option(4, "--parallel", min=1, max=64, help="agent runs at once"),
        as_json: bool = typer.Option(False, "--json", help="print the report as JSON"),
        junit_file: Path | None = typer.Option(None, "--junit", help="write JUnit XML"),
        registry: Path | None = typer.Option(None, "--registry", help="citation registry JSON for the parser"),
    ) -> None:
        """Novel-incident E2E gate over captured responses (a file, or an agent run on incidents). Exit 0 pass, 1
        fail, 2 refused/unusable."""
        if (captures is None) == (incidents is None) or (incidents is None) != (agent_cmd is None):
            fail("give --captures FILE, or --incidents FILE with --agent-cmd CMD")
        source = captures or incidents
        assert source is not None  # exactly one of the two, checked above
        try:
            items, issues = (load_captures if captures
                             else load_incidents)(read_text_input(source, "captures" if captures else "incidents"))
        except Refused as exc:
            fail(str(exc))
        if issues:
            _issues(issues, "capture problem(s)")
            fail(f"{source}: fix the file first")
        if not items:
            fail(f"{source}: nothing to score")
        scored: list[Capture | Unscored] = [i for i in items if isinstance(i, Capture)]  # all of them with --captures
        if agent_cmd is not None:
            try:
                argv = agent_runner.split_command(agent_cmd)
            except ValueError as exc:
                fail(str(exc))
            by_id = {i.capture_id: i for i in items if isinstance(i, Incident)}  # all of them with --incidents
            runs: dict[str, agent_runner.AgentRun] = {}
            with _progress() as progress:
                task = progress.add_task("running agent", total=len(items))
                for r in agent_runner.run_all(argv, {i.capture_id: i.input for i in by_id.values()}, timeout=timeout,
                                              parallel=parallel):
                    runs[r.case_id] = r
                    progress.advance(task)
            scored = [capture_from_output(by_id[cid], runs[cid].output, runs[cid].error) for cid in by_id]
        report = run_novel_e2e(scored, lambda raw: deps.analyze(raw, registry))
        _write(junit_file, _e2e_junit(report), "JUnit XML")
        if as_json:
            typer.echo(report.model_dump_json(indent=2))
        else:
            _print_e2e(report)
        raise typer.Exit(0 if report.passed else 1)


def _print_e2e(report: E2EReport) -> None:
    table = Table(title="novel-incident E2E gate")
    for col in ("capture", "expected", "actual", "precision", "recall", "safety gate", "result"):
        table.add_column(col)
    for r in report.captures:
        why = "; ".join(f"{f.code} {f.message}" for f in r.failures)
        table.add_row(
            escape(r.capture_id), r.expected_outcome, r.actual_outcome, f"{r.evidence_link_precision:.0%}",
            f"{r.evidence_link_recall:.0%}",
            r.safety_gate, "[green]pass[/green]" if r.passed else f"[red]fail[/red] {escape(why[:160])}",
        )
    out.print(table)
    s = report.summary
    out.print(
        f"{s['passed']}/{s['captures']} passed · false novel {s['false_novel']} · precision "
        f"{_fmt(s['evidence_link_precision'])} · "
        f"recall {_fmt(s['evidence_link_recall'])} · wrong abstentions {s['wrong_abstentions']} · unsafe {s['unsafe']}"
    )
    out.print("[green]PASS[/green]" if report.passed else "[red]FAIL[/red]")


def _e2e_junit(report: E2EReport) -> str:
    cases = [
        junit.JUnitCase(name=r.capture_id, classname="eval.novel_e2e",
                        failure="\n".join(f"{f.code} {f.message}" for f in r.failures) or None)
        for r in report.captures
    ]
    return junit.render("rcaloop eval novel-e2e", cases)



def _read(path: Path, what: str) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{what} {path}: cannot read ({getattr(exc, 'strerror', None) or exc})")
    return None


def _rcaeval_dirs(src: Path) -> list[RCAEvalCaseDir]:
    dirs = []
    for marker in sorted(src.rglob("inject_time.txt")):
        case = marker.parent
        files = tuple(f for f in TELEMETRY_FILES if (case / f).is_file())
        metric_file = next((case / f for f in ("metrics.csv", "data.csv", "simple_data.csv") if (case / f).is_file()),
                           None)
        header = None
        if metric_file is not None:
            try:
                with metric_file.open(encoding="utf-8") as fh:
                    header = fh.readline().strip() or None
            except (OSError, UnicodeDecodeError) as exc:
                fail(f"{metric_file}: cannot read ({getattr(exc, 'strerror', None) or exc})")
        dirs.append(RCAEvalCaseDir(relpath=case.relative_to(src).as_posix(),
                                   inject_time=_read(marker, "inject time") or "", metric_header=header, files=files))
    return dirs


def _link_telemetry(src: Path, dirs: list[RCAEvalCaseDir], root: Path) -> None:
    """Each case's telemetry under its neutral name (symbolic links to the benchmark's files)."""
    for d in dirs:
        target = root / rcaeval_slug(d.relpath)
        try:
            target.mkdir(parents=True, exist_ok=True)
            for name in d.files:
                link = target / name
                if link.is_symlink() or link.exists():
                    link.unlink()
                link.symlink_to((src / d.relpath / name).resolve())
        except OSError as exc:
            fail(f"cannot link the telemetry under {target}: {exc.strerror}")


def _register_import(eval_app: typer.Typer) -> None:
    @eval_app.command("import")
    def import_cmd(
        benchmark: str = typer.Argument(..., help="rcaeval | openrca"),
        src: Path = typer.Argument(..., help="RCAEval: a dataset directory (RE2-OB/…); OpenRCA: query.csv or the "
                                             "system directory holding it"),
        out_dir: Path = typer.Option(..., "--out", help="where to write fixtures.jsonl (and RCAEval's telemetry "
                                                        "links)"),
        dataset: str | None = typer.Option(None, "--dataset", help="OpenRCA: the system's name (default: the "
                                                                   "directory holding query.csv)"),
    ) -> None:
        """Turn a public RCA benchmark's cases into eval fixtures. Exit 0 written, 2 bad input (nothing written)."""
        if benchmark not in ("rcaeval", "openrca"):
            fail(f"unknown benchmark {benchmark!r} (one of rcaeval, openrca)")
        if not src.exists():
            fail(f"{src}: no such file or directory")
        if benchmark == "rcaeval":
            if not src.is_dir():
                fail(f"{src}: an RCAEval dataset is a directory")
            dirs = _rcaeval_dirs(src)
            telemetry_root = out_dir.resolve() / "telemetry"
            cases, issues = import_rcaeval(dirs, str(telemetry_root))
        else:
            query = src / "query.csv" if src.is_dir() else src
            if not query.is_file():
                fail(f"{src}: no query.csv")
            record = query.parent / "record.csv"
            telemetry = query.parent / "telemetry"
            cases, issues = import_openrca(
                _read(query, "query file") or "", dataset or query.resolve().parent.name,
                f"{telemetry.resolve()}/" if telemetry.is_dir() else None,
                _read(record, "record file") if record.is_file() else None)
        if issues:
            _issues(issues, "import problem(s)")
            fail(f"{src}: nothing written")
        if benchmark == "rcaeval":
            _link_telemetry(src, dirs, telemetry_root)
        _write(out_dir / "fixtures.jsonl", dump_cases(cases), "fixtures")
        families: dict[str, int] = {}
        for c in cases:
            families[c.expected_family or "-"] = families.get(c.expected_family or "-", 0) + 1
        out.print(f"{len(cases)} {benchmark} case(s) → {out_dir / 'fixtures.jsonl'} (expected family: "
                  + ", ".join(f"{k} {v}" for k, v in sorted(families.items())) + ")", highlight=False)
        raise typer.Exit(0)
