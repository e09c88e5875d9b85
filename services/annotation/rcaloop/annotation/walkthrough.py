"""``rcaloop annotate``: the annotation workflow, question by question (the five questions).

Each question first shows the part of ``step5_summary.json`` it is about. Answers come
from the terminal, or one per line from a file / piped stdin (scriptable; ``#`` lines of an
answers file are comments). Each answered question is checked at once with the validation
rules that concern it (asked again when they fail) and saved to a draft, so an interrupted
or refused annotation resumes where it stopped: answers are never lost. The result is an
``Annotation``; the CLI validates it once more and writes it.
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

from collections.abc import Callable

from rcaloop.annotation import rubric, tracing, validation
from rcaloop.contracts import Annotation, Issue
from rcaloop.contracts.common import CATEGORIES
from rcaloop.shared import jsonpath

SOURCES = {
    "step1": "step1_job_context.json",
    "step3": "step3_correlation.json",
    "step4": "step4_github_fetch_history.json",
}
LEVELS = ("high", "medium", "low")
SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("category", ("category_correct", "category_comment", "root_cause.category")),
    ("summary", ("summary_accurate", "summary_comment", "root_cause.summary", "root_cause.confidence")),
    ("evidence", ("evidence",)),
    ("difficulty", ("difficulty",)),
    ("alternatives", ("alternative_diagnoses", "recommendations", "contributing_factors")),
)
"""The five questions in order, with the annotation paths each one answers (a path prefix)."""


def section_of(path: str | None) -> str | None:
    """The question whose answers a finding's path belongs to."""
    for name, prefixes in SECTIONS:
        if path and path.startswith(prefixes):
            return name
    return None


class AnswersEnded(Exception):
    """The scripted answers ran out before the walkthrough finished."""


@dataclass
class Asker:
    console: Console
    stream: TextIO
    interactive: bool = False
    skip_comments: bool = False

    def _line(self, prompt: str, question: str) -> str:
        """One answer to ``question``; ``prompt`` is how it is shown (Rich markup)."""
        if self.interactive:
            return self.console.input(prompt)
        self.console.print(prompt, end="", markup=True, highlight=False)
        while True:
            line = self.stream.readline()
            if not line:
                raise AnswersEnded(f"no answer for: {question}")
            if self.skip_comments and line.lstrip().startswith("#"):
                continue
            answer = line.rstrip("\n")
            self.console.print(escape(answer), highlight=False)
            return answer

    def text(self, question: str, default: str = "") -> str:
        shown = f" [dim]({escape(default)})[/dim]" if default else ""
        answer = self._line(f"[bold cyan]?[/bold cyan] {escape(question)}{shown} ", question).strip()
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
    def __init__(
        self,
        console: Console,
        ask: Asker,
        job_id: str,
        files: dict[str, Any],
        draft: dict[str, Any] | None = None,
        save: Callable[[dict[str, Any]], None] | None = None,
    ):
        self.console, self.ask, self.job_id, self.files = console, ask, job_id, files
        self.step5: dict[str, Any] = files.get("step5_summary.json") or {}
        self.done: dict[str, dict[str, Any]] = dict((draft or {}).get("done") or {})
        self.save = save or (lambda _draft: None)

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
        """Ask every question not answered in the draft; check and save after each one."""
        self.present()
        if self.done:
            kept = ", ".join(n for n, _ in SECTIONS if n in self.done)
            self.console.print(f"[green]resuming the draft:[/green] kept answers for {kept}")
        asks = {
            "category": self._category,
            "summary": self._summary,
            "evidence": self._evidence_section,
            "difficulty": self._difficulty,
            "alternatives": self._alternatives_section,
        }
        for name, _ in SECTIONS:
            while name not in self.done:
                answers = asks[name]()
                issues = self.section_issues(name, answers)
                if not issues:
                    self.done[name] = answers
                    self.save(self.draft())
                    break
                self.console.print("[red]these answers break the annotation rules; answer the question again:[/red]")
                for issue in issues:
                    self.console.print(f"  [red]{issue.code}[/red] {escape(issue.path or '')}: {escape(issue.message)}")
        return Annotation.model_validate(self.document())

    def draft(self) -> dict[str, Any]:
        return {"job_id": self.job_id, "done": self.done}

    def document(self, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """The annotation from the answers so far (root_cause is assembled from two questions)."""
        out: dict[str, Any] = {"job_id": self.job_id}
        root_cause = dict(self.step5.get("root_cause") or {})
        for answers in [*self.done.values(), extra or {}]:
            for key, value in answers.items():
                if key == "root_cause":
                    root_cause.update(value)
                else:
                    out[key] = value
        out["root_cause"] = root_cause
        return out

    def section_issues(self, name: str, answers: dict[str, Any]) -> list[Issue]:
        """The validation findings about this question's answers (the one validator, filtered)."""
        document = {**self.document(answers), "annotated_at": "2000-01-01T00:00:00Z"}
        issues = validation.validate(document, self.files, self.job_id)
        return [i for i in issues if section_of(i.path) == name]

    def _category(self) -> dict[str, Any]:
        rc = self.step5.get("root_cause") or {}
        category = rc.get("category")
        self._section("1. Root cause category", f"{category} — {rc.get('summary')}")
        out: dict[str, Any] = {"root_cause": {}}
        if category not in CATEGORIES:
            self.console.print(
                f"[red]the agent's category {escape(repr(category))} is not one of the ten: it cannot be correct[/red]"
            )
            out["category_correct"] = False
        else:
            out["category_correct"] = self.ask.yes("Is the root cause category correct?")
        if not out["category_correct"]:
            out["root_cause"]["category"] = self.ask.choice("Correct category", CATEGORIES)
        out["category_comment"] = self.ask.text("Category comment (blank for none)") or None
        return out

    def _summary(self) -> dict[str, Any]:
        rc = self.step5.get("root_cause") or {}
        self._section("2. Summary", str(rc.get("summary")))
        out: dict[str, Any] = {"root_cause": {}}
        out["summary_accurate"] = self.ask.yes("Is the summary accurate and specific?")
        if not out["summary_accurate"]:
            corrected = self.ask.text("Corrected summary (blank keeps the agent's)", "")
            if corrected:
                out["root_cause"]["summary"] = corrected
        out["summary_comment"] = self.ask.text("Summary comment (blank for none)") or None
        out["root_cause"]["confidence"] = self.ask.choice(
            "Root-cause confidence", LEVELS, rc.get("confidence") if rc.get("confidence") in LEVELS else None
        )
        return out

    def _evidence_section(self) -> dict[str, Any]:
        evidence, feedback = self._evidence()
        return {"evidence": evidence, "evidence_feedback": feedback}

    def _alternatives_section(self) -> dict[str, Any]:
        return {
            "recommendations": self._recommendations(),
            "contributing_factors": self.step5.get("contributing_factors") or [],
            "alternative_diagnoses": self._alternatives(),
        }

    def _recommendations(self) -> list[dict[str, Any]]:
        """The agent's recommendations, carried over; a priority outside high/medium/low is asked for."""
        recs = [dict(r) for r in self.step5.get("recommendations") or [] if isinstance(r, dict)]
        for n, rec in enumerate(recs, start=1):
            if rec.get("priority") not in LEVELS:
                rec["priority"] = self.ask.choice(f"Priority of recommendation {n} ({rec.get('action')})", LEVELS)
        return recs

    def _section(self, title: str, body: str) -> None:
        self.console.print(Panel(escape(body), title=title, title_align="left"))

    def _evidence(self) -> tuple[list[dict[str, Any]], str | None]:
        self._section("3. Evidence", "the evidence the agent cited; cross-check step1/3/4 as reference")
        items = [dict(e) for e in self.step5.get("evidence") or [] if isinstance(e, dict)]
        self.console.print(self._evidence_table(items))
        broken = [n for n, e in enumerate(items, start=1) if tracing.evidence_problem(e, self.files, self.job_id)]
        if broken:
            self.console.print(
                f"[red]item(s) {', '.join(map(str, broken))} do not trace into the step files: drop them or cite "
                "anew[/red]"
            )
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
        for col in ("#", "source", "json_path", "value / quote", "root cause", "trace"):
            table.add_column(col)
        for n, e in enumerate(items, start=1):
            shown = e.get("exact_quote") if e.get("exact_quote") else json.dumps(e.get("exact_value"))
            problem = tracing.evidence_problem(e, self.files, self.job_id)
            table.add_row(
                str(n),
                escape(str(e.get("source"))),
                escape(str(e.get("json_path"))),
                escape(str(shown))[:80],
                "yes" if e.get("is_root_cause") else "",
                f"[red]broken: {escape(problem)}[/red]" if problem else "[green]ok[/green]",
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
        usable = (
            isinstance(agent_score, int | float)
            and not isinstance(agent_score, bool)
            and float(agent_score).is_integer()
            and 0 <= agent_score <= 10
        )
        out: dict[str, Any] = {
            "difficulty": self.step5.get("difficulty"),
            "difficulty_score": int(agent_score) if usable and agent_score is not None else agent_score,
            "difficulty_justification": self.step5.get("difficulty_justification"),
        }
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
        for n, a in enumerate(alts, start=1):  # what the rules need and the agent left out
            if a.get("category") not in CATEGORIES:
                a["category"] = self.ask.choice(f"Category of alternative {n}", CATEGORIES)
            if not str(a.get("why_wrong") or "").strip():
                a["why_wrong"] = self.ask.text(f"Why alternative {n} is wrong (the evidence against it)")
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
