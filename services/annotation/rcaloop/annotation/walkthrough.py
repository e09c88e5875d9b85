"""``rcaloop annotate``: the seed's interactive annotation, question by question (steps 1–3).

Each question first shows the section of ``step5_summary.json`` it is about. Answers come
from the terminal, or one per line from a file / piped stdin (scriptable; ``#`` lines of an
answers file are comments). The result is an ``Annotation``; the CLI validates and writes it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from rcaloop.annotation import rubric, tracing
from rcaloop.contracts import Annotation
from rcaloop.contracts.common import CATEGORIES
from rcaloop.shared import jsonpath

SOURCES = {
    "step1": "step1_job_context.json",
    "step3": "step3_correlation.json",
    "step4": "step4_github_fetch_history.json",
}
LEVELS = ("high", "medium", "low")


class AnswersEnded(Exception):
    """The scripted answers ran out before the walkthrough finished."""


@dataclass
class Asker:
    console: Console
    stream: TextIO
    interactive: bool = False
    skip_comments: bool = False

    def _line(self, prompt: str) -> str:
        if self.interactive:
            return self.console.input(prompt)
        self.console.print(prompt, end="", markup=True, highlight=False)
        while True:
            line = self.stream.readline()
            if not line:
                raise AnswersEnded(f"no answer for: {prompt.strip()}")
            if self.skip_comments and line.lstrip().startswith("#"):
                continue
            answer = line.rstrip("\n")
            self.console.print(escape(answer), highlight=False)
            return answer

    def text(self, question: str, default: str = "") -> str:
        shown = f" [dim]({escape(default)})[/dim]" if default else ""
        answer = self._line(f"[bold cyan]?[/bold cyan] {escape(question)}{shown} ").strip()
        return answer or default

    def choice(self, question: str, choices: Sequence[str], default: str | None = None) -> str:
        while True:
            answer = self.text(f"{question} [{'/'.join(choices)}]", default or "")
            if answer in choices:
                return answer
            self.console.print(f"[red]answer one of: {', '.join(choices)}[/red]")

    def yes(self, question: str, default: bool | None = None) -> bool:
        d = None if default is None else ("y" if default else "n")
        return self.choice(question, ("y", "n"), d) == "y"

    def numbers(self, question: str, limit: int) -> list[int]:
        while True:
            answer = self.text(question)
            try:
                picked = [int(x) for x in answer.replace(" ", "").split(",") if x]
            except ValueError:
                picked = [-1]
            if all(1 <= n <= limit for n in picked):
                return picked
            self.console.print(f"[red]numbers from 1 to {limit}, comma-separated[/red]")


class Walkthrough:
    def __init__(self, console: Console, ask: Asker, job_id: str, files: dict[str, Any]):
        self.console, self.ask, self.job_id, self.files = console, ask, job_id, files
        self.step5: dict[str, Any] = files.get("step5_summary.json") or {}

    # -- step 1 ------------------------------------------------------------------------
    def present(self) -> None:
        s5 = self.step5
        rc = s5.get("root_cause") or {}

        def count(key: str) -> int:
            return len(s5.get(key) or [])

        lines = [
            f"[bold]{escape(str(rc.get('category')))}[/bold] — {escape(str(rc.get('summary')))}",
            f"confidence: {escape(str(rc.get('confidence')))}",
            f"difficulty: {escape(str(s5.get('difficulty')))} ({escape(str(s5.get('difficulty_score')))}/10)",
            f"evidence: {count('evidence')} item(s) · recommendations: {count('recommendations')}"
            f" · alternatives: {count('alternative_diagnoses')}",
        ]
        self.console.print(Panel("\n".join(lines), title=f"agent diagnosis · job {escape(self.job_id)}"))
        for rec in self.step5.get("recommendations") or []:
            self.console.print(
                f"  • \\[{escape(str(rec.get('priority')))}] {escape(str(rec.get('action')))}", highlight=False
            )

    # -- step 2 ------------------------------------------------------------------------
    def run(self) -> Annotation:
        self.present()
        rc = dict(self.step5.get("root_cause") or {})
        out: dict[str, Any] = {"job_id": self.job_id}

        self._section("1. Root cause category", f"{rc.get('category')} — {rc.get('summary')}")
        out["category_correct"] = self.ask.yes("Is the root cause category correct?")
        if not out["category_correct"]:
            rc["category"] = self.ask.choice("Correct category", CATEGORIES)
        out["category_comment"] = self.ask.text("Category comment (blank for none)") or None

        self._section("2. Summary", str(rc.get("summary")))
        out["summary_accurate"] = self.ask.yes("Is the summary accurate and specific?")
        if not out["summary_accurate"]:
            rc["summary"] = self.ask.text("Corrected summary (blank keeps the agent's)", "") or rc.get("summary")
        out["summary_comment"] = self.ask.text("Summary comment (blank for none)") or None
        rc["confidence"] = self.ask.choice(
            "Root-cause confidence", LEVELS, rc.get("confidence") if rc.get("confidence") in LEVELS else None
        )
        out["root_cause"] = rc

        out["evidence"], out["evidence_feedback"] = self._evidence()
        out.update(self._difficulty())
        out["recommendations"] = self.step5.get("recommendations") or []
        out["contributing_factors"] = self.step5.get("contributing_factors") or []
        out["alternative_diagnoses"] = self._alternatives()
        return Annotation.model_validate(out)

    def _section(self, title: str, body: str) -> None:
        self.console.print(Panel(escape(body), title=title, title_align="left"))

    def _evidence(self) -> tuple[list[dict[str, Any]], str | None]:
        items = [dict(e) for e in self.step5.get("evidence") or [] if isinstance(e, dict)]
        self.console.print(self._evidence_table(items))
        while True:
            probe = self.ask.text("Cross-check a value: stepN json_path (blank to go on)")
            if not probe:
                break
            self._cross_check(probe)
        feedback = None
        if self.ask.yes("Is any evidence missing or wrong?"):
            feedback = self.ask.text("Evidence feedback") or None
            if items:
                drop = set(self.ask.numbers("Evidence items to drop (e.g. 2,3; blank none)", len(items)))
                items = [e for n, e in enumerate(items, start=1) if n not in drop]
            while self.ask.yes("Add an evidence item?"):
                items.append(self._new_evidence())
        if items:
            self.console.print(self._evidence_table(items))
            current = next((n for n, e in enumerate(items, start=1) if e.get("is_root_cause") is True), None)
            while True:
                answer = self.ask.text("Which item is the root cause? (number)", str(current or ""))
                if answer.isdigit() and 1 <= int(answer) <= len(items):
                    break
                self.console.print(f"[red]a number from 1 to {len(items)}[/red]")
            for n, item in enumerate(items, start=1):
                item["is_root_cause"] = n == int(answer)
        return items, feedback

    def _evidence_table(self, items: list[dict[str, Any]]) -> Table:
        table = Table(title="evidence")
        for col in ("#", "source", "json_path", "value / quote", "root cause"):
            table.add_column(col)
        for n, e in enumerate(items, start=1):
            shown = e.get("exact_quote") if e.get("exact_quote") else json.dumps(e.get("exact_value"))
            table.add_row(
                str(n),
                escape(str(e.get("source"))),
                escape(str(e.get("json_path"))),
                escape(str(shown))[:80],
                "yes" if e.get("is_root_cause") else "",
            )
        return table

    def _resolve(self, source: str, path: str) -> jsonpath.Resolved | str:
        name = SOURCES.get(source)
        if name is None:
            return f"source must be one of {', '.join(SOURCES)}"
        document = self.files.get(name)
        if not isinstance(document, dict | list):
            return f"{name} is not in the job directory"
        try:
            resolved = jsonpath.resolve(document, path)
        except jsonpath.PathSyntaxError as exc:
            return f"malformed json_path: {exc}"
        return resolved if resolved.found else f"{path} does not resolve in {name} (stops after {resolved.failed_at})"

    def _cross_check(self, probe: str) -> None:
        source, _, path = probe.partition(" ")
        resolved = self._resolve(source, path.strip())
        if isinstance(resolved, str):
            self.console.print(f"[red]{escape(resolved)}[/red]")
        else:
            self.console.print(
                Panel(_shown(resolved.value), title=f"{source} {escape(path.strip())}", title_align="left")
            )

    def _new_evidence(self) -> dict[str, Any]:
        source = self.ask.choice("Source", tuple(SOURCES))
        while True:
            path = self.ask.text(f"json_path in {SOURCES[source]}")
            resolved = self._resolve(source, path)
            if not isinstance(resolved, str):
                break
            self.console.print(f"[red]{escape(resolved)}[/red]")
        self.console.print(Panel(_shown(resolved.value), title="value"))
        item: dict[str, Any] = {
            "source": source,
            "source_file": tracing.seed_path(self.job_id, SOURCES[source]),
            "json_path": path,
        }
        while True:
            quote = self.ask.text("Exact quote (blank = the whole value as exact_value)")
            if not quote:
                item["exact_value"] = resolved.value
                break
            text = jsonpath.as_text(resolved.value)
            lines = jsonpath.quote_lines(text, quote) if text is not None else []
            if lines:
                item["exact_quote"], item["line_number"] = quote, lines[0]
                item.update(self._github_path(source, path, lines[0]))
                break
            self.console.print("[red]that text is not in the value[/red]")
        item["message"] = self.ask.text("Message (what this evidence shows)") or None
        item["confidence"] = self.ask.choice("Confidence", LEVELS)
        item["is_root_cause"] = False
        return item

    def _github_path(self, source: str, path: str, line: int) -> dict[str, str]:
        """``owner/repo:file:line`` when the quote is inside a fetched file (step4)."""
        segments = jsonpath.parse(path)
        if source != "step4" or len(segments) < 2:
            return {}
        parent = jsonpath.resolve(self.files.get(SOURCES[source]), jsonpath.render(segments[:-1]))
        if parent.found and isinstance(parent.value, dict) and isinstance(parent.value.get("path"), str):
            return {"github_path": f"{parent.value['path']}:{line}"}
        return {}

    def _difficulty(self) -> dict[str, Any]:
        agent_score = self.step5.get("difficulty_score")
        self._section(
            "4. Difficulty",
            f"{self.step5.get('difficulty')} — {agent_score}/10\n{self.step5.get('difficulty_justification') or ''}",
        )
        table = Table(title="difficulty rubric (0–3 easy, 4–6 medium, 7–10 hard)")
        table.add_column("criterion")
        table.add_column("points", justify="right")
        for c in rubric.CRITERIA:
            table.add_row(c.text, f"+{c.points}")
        self.console.print(table)
        out: dict[str, Any] = {
            "difficulty": self.step5.get("difficulty"),
            "difficulty_score": agent_score,
            "difficulty_justification": self.step5.get("difficulty_justification"),
        }
        usable = isinstance(agent_score, int | float) and not isinstance(agent_score, bool)
        if not usable:
            self.console.print("[yellow]the agent gave no usable score: score it with the rubric[/yellow]")
        if not usable or self.ask.yes("Score it with the rubric?"):
            chosen = [c.key for c in rubric.CRITERIA if self.ask.yes(f"{c.text} (+{c.points})?")]
            result = rubric.score(chosen)
            self.console.print(
                f"rubric: [bold]{result.score}/10 {result.difficulty}[/bold] — {escape(result.justification)}"
            )
            out.update(
                difficulty=result.difficulty,
                difficulty_score=result.score,
                difficulty_justification=result.justification,
            )
        out["difficulty_appropriate"] = self.ask.yes(
            f"Is the agent's difficulty rating appropriate? (score {agent_score}/10)"
        )
        out["difficulty_comment"] = self.ask.text("Difficulty comment (blank for none)") or None
        return out

    def _alternatives(self) -> list[dict[str, Any]]:
        alts = [dict(a) for a in self.step5.get("alternative_diagnoses") or [] if isinstance(a, dict)]
        table = Table(title="5. Alternative diagnoses")
        for col in ("#", "category", "summary", "why wrong", "plausibility"):
            table.add_column(col)
        for n, a in enumerate(alts, start=1):
            table.add_row(
                str(n), *(escape(str(a.get(k))) for k in ("category", "summary", "why_wrong", "plausibility"))
            )
        self.console.print(table)
        for n, a in enumerate(alts, start=1):
            if a.get("plausibility") not in LEVELS:
                a["plausibility"] = self.ask.choice(f"Plausibility of alternative {n}", LEVELS)
        while self.ask.yes("Any alternative diagnosis to add?"):
            alts.append(
                {
                    "category": self.ask.choice("Category", CATEGORIES),
                    "summary": self.ask.text("Summary (the plausible but wrong diagnosis)"),
                    "why_wrong": self.ask.text("Why the evidence does not support it"),
                    "plausibility": self.ask.choice("Plausibility", LEVELS),
                    "supporting_evidence": _csv(self.ask.text("Supporting evidence (comma-separated)")),
                    "contradicting_evidence": _csv(self.ask.text("Contradicting evidence (comma-separated)")),
                }
            )
        return alts


def _shown(value: Any) -> str:
    """Text values with 1-based line numbers (what line_number counts); others as JSON."""
    if isinstance(value, str) and "\n" in value.rstrip("\n"):
        return "\n".join(f"[dim]{n:>3}[/dim] {escape(line)}" for n, line in enumerate(value.splitlines(), start=1))
    return escape(json.dumps(value, indent=2, ensure_ascii=False))


def _csv(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]
