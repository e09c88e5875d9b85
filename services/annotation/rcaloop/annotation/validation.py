"""Annotation validation rules: each a small named rule with a stable code.

``RULES`` is the specification: ``docs/annotation.md`` lists it and a unit test holds a
failing annotation for every code. Pure: the adapter reads the job directory and passes
the step files' contents in as data (``files``: name relative to the job dir → JSON).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from rcaloop.annotation import tracing
from rcaloop.annotation.rubric import CRITERIA, MAX_SCORE, label_for
from rcaloop.contracts import Annotation, Issue
from rcaloop.contracts.common import CATEGORIES
from rcaloop.shared import jsonpath

CONFIDENCES = ("high", "medium", "low")
DIFFICULTIES = ("easy", "medium", "hard")
EVIDENCE_SOURCES = ("step1", "step3", "step4")
PRIORITIES = ("high", "medium", "low")
SUMMARY_FILE = "step5_summary.json"
STEP4_FILE = "step4_github_fetch_history.json"
_GITHUB_LINE = re.compile(r":(\d+)$")
_FETCH_INDEX = re.compile(r"^\$?\.?github_fetches\[(\d+)\]")
_STATED_TOTAL = re.compile(
    r"\btotal(?:\s+(?:difficulty\s+)?(?:score|points?|difficulty))?\b\W{0,3}(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*/\s*10\b",
    re.I
)
"""A total the justification states: "Total: 5", "total score 5", "Total points = 5", "5/10"."""
_CITED_POINTS = re.compile(r"\(\s*\+\s*(\d+)\s*\)")
"""The points a justification cites for a criterion, written as the rubric writes them: "(+3)"."""
RUBRIC_POINTS = frozenset(c.points for c in CRITERIA)


@dataclass(frozen=True)
class Unreadable:
    """A file of the job directory that exists but is not JSON."""

    reason: str


Finding = tuple[str, str]  # (message, path)


@dataclass
class Context:
    document: dict[str, Any]
    files: Mapping[str, Any]
    job_id: str | None
    _resolved: dict[int, jsonpath.Resolved | None] = field(default_factory=dict)

    def evidence(self) -> list[tuple[int, dict[str, Any]]]:
        items = self.document.get("evidence")
        if not isinstance(items, list):
            return []
        return [(i, item) for i, item in enumerate(items) if isinstance(item, dict)]

    def alternatives(self) -> list[tuple[int, dict[str, Any]]]:
        items = self.document.get("alternative_diagnoses")
        if not isinstance(items, list):
            return []
        return [(i, item) for i, item in enumerate(items) if isinstance(item, dict)]

    def located(self, item: dict[str, Any]) -> tracing.Located | None:
        source_file = item.get("source_file")
        if not isinstance(source_file, str) or not source_file.strip():
            return None
        return tracing.locate(source_file.strip(), self.job_id)

    def resolved(self, i: int, item: dict[str, Any]) -> jsonpath.Resolved | None:
        """The value the item's json_path reaches, or None when it cannot be followed."""
        if i not in self._resolved:
            self._resolved[i] = self._resolve(item)
        return self._resolved[i]

    def _resolve(self, item: dict[str, Any]) -> jsonpath.Resolved | None:
        located, path = self.located(item), item.get("json_path")
        if located is None or located.name is None or not isinstance(path, str) or not path.strip():
            return None
        document = self.files.get(located.name)
        if document is None or isinstance(document, Unreadable):
            return None
        try:
            return jsonpath.resolve(document, path)
        except jsonpath.PathSyntaxError:
            return None


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    summary: str
    check: Callable[[Context], Iterator[Finding]]


def _present(item: dict[str, Any], key: str) -> bool:
    value = item.get(key)
    return value is not None and (not isinstance(value, str) or bool(value.strip()))


# -- document --------------------------------------------------------------------------
def _schema(ctx: Context) -> Iterator[Finding]:
    try:
        Annotation.model_validate(ctx.document)
    except ValidationError as exc:
        for err in exc.errors():
            path = jsonpath.render([p for p in err["loc"] if isinstance(p, str | int)]) or "$"
            yield f"{err['msg']}", path


def _annotated_at(ctx: Context) -> Iterator[Finding]:
    if not _present(ctx.document, "annotated_at"):
        yield ("annotated_at is missing: when the annotation was made (ISO-8601, e.g. 2026-03-19T12:05:00Z)",
               "annotated_at")


def _job_id(ctx: Context) -> Iterator[Finding]:
    """Every annotation names its job: an empty or blank job_id binds it to none."""
    job_id = ctx.document.get("job_id")
    if ctx.job_id is None or (job_id is not None and not isinstance(job_id, str)):
        return  # a job_id that is not text is a schema finding (ANN001)
    if job_id is None or job_id != ctx.job_id:
        yield f"job_id {job_id!r} is not the job directory's {ctx.job_id!r}", "job_id"


def _root_cause(ctx: Context) -> dict[str, Any]:
    rc = ctx.document.get("root_cause")
    return rc if isinstance(rc, dict) else {}


def _category(ctx: Context) -> Iterator[Finding]:
    category = _root_cause(ctx).get("category")
    if category not in CATEGORIES:
        yield f"root_cause.category {category!r} is not one of {' | '.join(CATEGORIES)}", "root_cause.category"


def _rc_confidence(ctx: Context) -> Iterator[Finding]:
    confidence = _root_cause(ctx).get("confidence")
    if confidence not in CONFIDENCES:
        yield f"root_cause.confidence {confidence!r} is not one of high | medium | low", "root_cause.confidence"


def _rc_summary(ctx: Context) -> Iterator[Finding]:
    if not _present(_root_cause(ctx), "summary"):
        yield "root_cause.summary is empty: one sentence saying what failed and why", "root_cause.summary"


def _category_correct(ctx: Context) -> Iterator[Finding]:
    if not isinstance(ctx.document.get("category_correct"), bool):
        yield "category_correct must be true or false (was the agent's category right?)", "category_correct"


def _agent_root_cause(ctx: Context, key: str) -> str | None:
    """What the agent wrote as ``root_cause.<key>`` in its summary (step5), when the job's files hold it."""
    step5 = ctx.files.get(SUMMARY_FILE)
    rc = step5.get("root_cause") if isinstance(step5, dict) else None
    value = rc.get(key) if isinstance(rc, dict) else None
    return value if isinstance(value, str) else None


def _category_consistent(ctx: Context) -> Iterator[Finding]:
    """``category_correct: false`` needs a corrected category; ``true`` keeps the agent's."""
    agent, answer = _agent_root_cause(ctx, "category"), ctx.document.get("category_correct")
    category = _root_cause(ctx).get("category")
    if agent is None or not isinstance(answer, bool):
        return
    if answer is False and category == agent:
        yield (
            f"category_correct is false but root_cause.category is still the agent's {agent!r}: give the right one",
            "root_cause.category",
        )
    elif answer is True and category != agent:
        yield (
            f"category_correct is true but root_cause.category {category!r} is not the agent's {agent!r}",
            "category_correct",
        )


def _summary_consistent(ctx: Context) -> Iterator[Finding]:
    """``summary_accurate: true`` keeps the agent's summary: an accurate summary needs no rewrite,
    and a rewritten one says the agent's was not accurate (answer false)."""
    agent, summary = _agent_root_cause(ctx, "summary"), _root_cause(ctx).get("summary")
    if agent is None or ctx.document.get("summary_accurate") is not True or not isinstance(summary, str):
        return
    if " ".join(summary.split()) != " ".join(agent.split()):
        yield (
            f"summary_accurate is true but root_cause.summary {_short(summary)} is not the agent's {_short(agent)}: "
            "keep the agent's summary, or answer false and give the accurate one",
            "summary_accurate",
        )


def _answered(key: str, question: str) -> Callable[[Context], Iterator[Finding]]:
    def check(ctx: Context) -> Iterator[Finding]:
        if not isinstance(ctx.document.get(key), bool):
            yield f"{key} must be true or false ({question})", key

    return check


# -- evidence --------------------------------------------------------------------------
def _root_cause_count(ctx: Context) -> list[int]:
    return [i for i, item in ctx.evidence() if item.get("is_root_cause") is True]


def _no_root_cause(ctx: Context) -> Iterator[Finding]:
    if not _root_cause_count(ctx):
        yield "no evidence item has is_root_cause: true (exactly one must)", "evidence"


def _many_root_causes(ctx: Context) -> Iterator[Finding]:
    marked = _root_cause_count(ctx)
    if len(marked) > 1:
        for i in marked[1:]:
            yield (
                f"evidence items {marked} all have is_root_cause: true (exactly one may)",
                f"evidence[{i}].is_root_cause",
            )


def _missing(key: str, what: str) -> Callable[[Context], Iterator[Finding]]:
    def check(ctx: Context) -> Iterator[Finding]:
        for i, item in ctx.evidence():
            if not _present(item, key):
                yield f"evidence[{i}] has no {key}: {what}", f"evidence[{i}].{key}"

    return check


def _json_path(ctx: Context) -> Iterator[Finding]:
    yield from _missing("json_path", "where in the file the value is")(ctx)
    for i, item in ctx.evidence():
        if jsonpath.names_nothing(item.get("json_path")):
            yield (
                f"evidence[{i}].json_path {item['json_path']!r} names no value: the whole file proves no particular "
                "fact",
                f"evidence[{i}].json_path",
            )


def _no_value_or_quote(ctx: Context) -> Iterator[Finding]:
    for i, item in ctx.evidence():
        if item.get("exact_value") is None and not _present(item, "exact_quote"):
            yield f"evidence[{i}] has neither exact_value nor exact_quote", f"evidence[{i}].exact_value"


def _outside(ctx: Context) -> Iterator[Finding]:
    for i, item in ctx.evidence():
        located = ctx.located(item)
        if located is not None and located.name is None:
            yield (
                f"evidence[{i}].source_file {item['source_file']!r} leaves the job directory: it {located.reason}",
                (f"evidence[{i}].source_file"),
            )


def _not_found(ctx: Context) -> Iterator[Finding]:
    for i, item in ctx.evidence():
        located = ctx.located(item)
        if located is None or located.name is None:
            continue
        document = ctx.files.get(located.name)
        if document is None:
            known = ", ".join(sorted(ctx.files)) or "none"
            yield (
                f"evidence[{i}].source_file {located.name!r} is not in the job directory (files: {known})",
                (f"evidence[{i}].source_file"),
            )
        elif isinstance(document, Unreadable):
            yield (
                f"evidence[{i}].source_file {located.name!r} cannot be read: {document.reason}",
                f"evidence[{i}].source_file",
            )


def _bad_path(ctx: Context) -> Iterator[Finding]:
    for i, item in ctx.evidence():
        path = item.get("json_path")
        if isinstance(path, str) and path.strip():
            try:
                jsonpath.parse(path)
            except jsonpath.PathSyntaxError as exc:
                yield f"evidence[{i}].json_path {path!r} is malformed: {exc}", f"evidence[{i}].json_path"


def _unresolved(ctx: Context) -> Iterator[Finding]:
    for i, item in ctx.evidence():
        resolved, located = ctx.resolved(i, item), ctx.located(item)
        if resolved is not None and located is not None and not resolved.found:
            yield (
                f"evidence[{i}].json_path {item['json_path']!r} does not resolve in {located.name}"
                f" (stops after {resolved.failed_at})",
                f"evidence[{i}].json_path",
            )


def _value_differs(ctx: Context) -> Iterator[Finding]:
    for i, item in ctx.evidence():
        resolved = ctx.resolved(i, item)
        if resolved and resolved.found and "exact_value" in item and item["exact_value"] is not None:
            if not jsonpath.values_equal(item["exact_value"], resolved.value):
                yield (
                    f"evidence[{i}].exact_value {_short(item['exact_value'])} differs from the file's "
                    f"{_short(resolved.value)} at {item['json_path']}",
                    f"evidence[{i}].exact_value",
                )


def _quote_missing(ctx: Context) -> Iterator[Finding]:
    for i, item in ctx.evidence():
        resolved, quote = ctx.resolved(i, item), item.get("exact_quote")
        if resolved and resolved.found and isinstance(quote, str) and quote.strip():
            text = jsonpath.as_text(resolved.value)
            if not jsonpath.says_something(quote) and quote != text:
                yield (
                    f"evidence[{i}].exact_quote {_short(quote)} is too short to tie anything "
                    f"(fewer than {jsonpath.MIN_QUOTE_CHARS} letters or digits): quote what the value says",
                    f"evidence[{i}].exact_quote",
                )
            elif text is None or quote not in text:
                yield (
                    f"evidence[{i}].exact_quote {_short(quote)} is not contained in the value at {item['json_path']}",
                    f"evidence[{i}].exact_quote",
                )


def _wrong_line(ctx: Context) -> Iterator[Finding]:
    for i, item in ctx.evidence():
        line = item.get("line_number")
        if line is None:
            continue
        path = f"evidence[{i}].line_number"
        if isinstance(line, bool) or not isinstance(line, int) or line < 1:
            yield f"evidence[{i}].line_number must be a positive integer", path
            continue
        quote = item.get("exact_quote")
        if not isinstance(quote, str) or not quote:
            yield f"evidence[{i}].line_number is given without an exact_quote to locate", path
            continue
        resolved = ctx.resolved(i, item)
        text = jsonpath.as_text(resolved.value) if resolved and resolved.found else None
        if text is not None:
            lines = jsonpath.quote_lines(text, quote)
            if lines and line not in lines:
                yield f"evidence[{i}].line_number {line} is wrong: the quote is on line {lines[0]} of the value", path


def _github_line(ctx: Context) -> Iterator[Finding]:
    for i, item in ctx.evidence():
        gh, line = item.get("github_path"), item.get("line_number")
        m = _GITHUB_LINE.search(gh) if isinstance(gh, str) else None
        if m and isinstance(line, int) and not isinstance(line, bool) and int(m.group(1)) != line:
            yield (
                f"evidence[{i}].github_path ends at line {m.group(1)} but line_number is {line}",
                f"evidence[{i}].github_path",
            )


def _source(ctx: Context) -> Iterator[Finding]:
    for i, item in ctx.evidence():
        source = item.get("source")
        if source is None:
            continue
        if source not in EVIDENCE_SOURCES:
            yield f"evidence[{i}].source {source!r} is not one of step1 | step3 | step4", f"evidence[{i}].source"
            continue
        located = ctx.located(item)
        if located and located.name and not located.name.split("/")[-1].startswith(f"{source}_"):
            yield (
                f"evidence[{i}].source {source!r} does not match source_file {located.name!r}",
                f"evidence[{i}].source",
            )


def _collected_file(ctx: Context) -> Iterator[Finding]:
    """Evidence is what the run collected (step1/3/4), never the agent's own summary or another file."""
    for i, item in ctx.evidence():
        located = ctx.located(item)
        if located is None or located.name is None:
            continue
        name = located.name.split("/")[-1]
        if not name.startswith(tracing.COLLECTED):
            what = "the agent's own summary" if name == SUMMARY_FILE else "not a collected step file"
            yield (
                f"evidence[{i}].source_file {located.name!r} is {what}: cite step1, step3 or step4",
                f"evidence[{i}].source_file",
            )


def _fetch_paths(ctx: Context) -> list[str | None]:
    step4 = ctx.files.get(STEP4_FILE)
    fetches = step4.get("github_fetches") if isinstance(step4, dict) else None
    if not isinstance(fetches, list):
        return []
    return [f.get("path") if isinstance(f, dict) and isinstance(f.get("path"), str) else None for f in fetches]


def _github_fetch(ctx: Context) -> Iterator[Finding]:
    """``github_path`` names a file step4 fetched: the one the item points into, else any."""
    fetched = _fetch_paths(ctx)
    for i, item in ctx.evidence():
        gh = item.get("github_path")
        if not isinstance(gh, str) or not gh.strip():
            continue
        target = _GITHUB_LINE.sub("", gh.strip())
        m = _FETCH_INDEX.match(item.get("json_path") or "") if item.get("source") == "step4" else None
        own = fetched[int(m.group(1))] if m and int(m.group(1)) < len(fetched) else None
        if own is not None and target != own:
            yield (
                f"evidence[{i}].github_path {target!r} is not the fetch its json_path points into ({own!r})",
                f"evidence[{i}].github_path",
            )
        elif own is None and target not in fetched:
            known = ", ".join(repr(p) for p in fetched if p) or "none"
            yield (
                f"evidence[{i}].github_path {target!r} matches no file fetched in step4 (fetched: {known})",
                f"evidence[{i}].github_path",
            )


def _evidence_confidence(ctx: Context) -> Iterator[Finding]:
    for i, item in ctx.evidence():
        if item.get("confidence") is not None and item.get("confidence") not in CONFIDENCES:
            yield (
                f"evidence[{i}].confidence {item['confidence']!r} is not one of high | medium | low",
                (f"evidence[{i}].confidence"),
            )


# -- difficulty --------------------------------------------------------------------------
def _score(ctx: Context) -> int | None:
    """The score when it is a JSON integer 0–10 (``5``, not ``5.0``: the seed writes a whole number)."""
    score = ctx.document.get("difficulty_score")
    if isinstance(score, bool) or not isinstance(score, int):
        return None
    return score if 0 <= score <= 10 else None


def _difficulty_score(ctx: Context) -> Iterator[Finding]:
    if _score(ctx) is None:
        score = ctx.document.get("difficulty_score")
        yield (f"difficulty_score {score!r} must be an integer from 0 to 10 (written without a decimal point)",
               "difficulty_score")


def _difficulty_label(ctx: Context) -> Iterator[Finding]:
    label, score = ctx.document.get("difficulty"), _score(ctx)
    if label not in DIFFICULTIES:
        yield f"difficulty {label!r} is not one of easy | medium | hard", "difficulty"
    elif score is not None and label != label_for(score):
        yield f"difficulty {label!r} does not match score {score:g} (0–3 easy, 4–6 medium, 7–10 hard)", "difficulty"


def _justification(ctx: Context) -> Iterator[Finding]:
    if not _present(ctx.document, "difficulty_justification"):
        yield "difficulty_justification is empty: say which rubric criteria apply", "difficulty_justification"


def _justification_total(ctx: Context) -> Iterator[Finding]:
    """The justification adds up to the score: a total it states ("Total: 5", "Total score: 5",
    "5/10") is the score, and so is the sum of the criteria points it cites ("(+3)"), capped at 10."""
    text, score = ctx.document.get("difficulty_justification"), _score(ctx)
    if not isinstance(text, str) or score is None:
        return
    problems = [
        f"states a total of {stated:g}"
        for m in _STATED_TOTAL.finditer(text)
        if (stated := float(m.group(1) or m.group(2))) != score
    ][:1]
    cited = [int(n) for n in _CITED_POINTS.findall(text)]
    off_rubric = sorted({n for n in cited if n not in RUBRIC_POINTS})
    if off_rubric:
        problems.append(
            f"cites points the rubric never gives (+{', +'.join(map(str, off_rubric))}; a criterion is worth "
                        f"{' or '.join(map(str, sorted(RUBRIC_POINTS)))})")
    elif cited and min(sum(cited), MAX_SCORE) != score:
        problems.append(f"cites criteria worth {' + '.join(map(str, cited))} = {min(sum(cited), MAX_SCORE)}"
                        + (f" (capped at {MAX_SCORE})" if sum(cited) > MAX_SCORE else ""))
    if problems:
        yield (f"difficulty_justification {' and '.join(problems)} but difficulty_score is {score}",
               "difficulty_justification")


# -- alternatives ------------------------------------------------------------------------
def _plausibility(ctx: Context) -> Iterator[Finding]:
    for i, alt in ctx.alternatives():
        if alt.get("plausibility") not in CONFIDENCES:
            yield (
                f"alternative_diagnoses[{i}].plausibility {alt.get('plausibility')!r} must be high | medium | low",
                f"alternative_diagnoses[{i}].plausibility",
            )


def _alt_category(ctx: Context) -> Iterator[Finding]:
    for i, alt in ctx.alternatives():
        if alt.get("category") not in CATEGORIES:
            yield (
                f"alternative_diagnoses[{i}].category {alt.get('category')!r} is not a valid category",
                f"alternative_diagnoses[{i}].category",
            )


def _why_wrong(ctx: Context) -> Iterator[Finding]:
    for i, alt in ctx.alternatives():
        if not _present(alt, "why_wrong"):
            yield (
                f"alternative_diagnoses[{i}] has no why_wrong: why the evidence does not support it",
                f"alternative_diagnoses[{i}].why_wrong",
            )


# -- recommendations ---------------------------------------------------------------------
def _priority(ctx: Context) -> Iterator[Finding]:
    items = ctx.document.get("recommendations")
    for i, rec in enumerate(items if isinstance(items, list) else []):
        if isinstance(rec, dict) and rec.get("priority") not in PRIORITIES:
            yield (
                f"recommendations[{i}].priority {rec.get('priority')!r} must be high | medium | low",
                f"recommendations[{i}].priority",
            )


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


RULES: tuple[Rule, ...] = (
    Rule("ANN001", "schema", "fields have the types of the seed's annotation.json", _schema),
    Rule("ANN002", "job-id",
         "job_id equals the job's id (step5/step1 job_id, else the directory name); empty is no job", _job_id),
    Rule("ANN003", "annotated-at", "annotated_at is present (ISO-8601 time of the annotation)", _annotated_at),
    Rule("ANN101", "category", "root_cause.category is one of the ten categories", _category),
    Rule("ANN102", "root-cause-confidence", "root_cause.confidence is high, medium or low", _rc_confidence),
    Rule("ANN103", "root-cause-summary", "root_cause.summary is present", _rc_summary),
    Rule("ANN104", "category-correct", "category_correct is answered (true/false)", _category_correct),
    Rule(
        "ANN105",
        "category-consistent",
        "category_correct false changes the agent's category; true keeps it",
        _category_consistent,
    ),
    Rule(
        "ANN106",
        "summary-accurate",
        "summary_accurate is answered (true/false)",
        _answered("summary_accurate", "is the agent's summary accurate and specific?"),
    ),
    Rule(
        "ANN107",
        "summary-consistent",
        "summary_accurate true keeps the agent's summary as root_cause.summary",
        _summary_consistent,
    ),
    Rule("ANN110", "no-root-cause", "exactly one evidence item has is_root_cause: true (none has)", _no_root_cause),
    Rule(
        "ANN111",
        "many-root-causes",
        "exactly one evidence item has is_root_cause: true (several have)",
        _many_root_causes,
    ),
    Rule(
        "ANN120",
        "source-file",
        "every evidence item has a source_file",
        _missing("source_file", "which step file it comes from"),
    ),
    Rule("ANN121", "json-path", "every evidence item has a json_path naming one value (not `$`, the whole file)",
         _json_path),
    Rule("ANN122", "value-or-quote", "every evidence item has exact_value or exact_quote", _no_value_or_quote),
    Rule("ANN123", "inside-job-dir", "source_file stays inside the job directory", _outside),
    Rule("ANN124", "source-file-exists", "source_file is a readable JSON file of the job directory", _not_found),
    Rule("ANN125", "json-path-syntax", "json_path is well formed (name.sub[0].key)", _bad_path),
    Rule("ANN126", "json-path-resolves", "json_path resolves inside source_file", _unresolved),
    Rule("ANN127", "exact-value", "exact_value equals the value at json_path", _value_differs),
    Rule(
        "ANN128",
        "exact-quote",
        "exact_quote says something (3+ letters or digits, or the whole value) and is contained in the value at "
        "json_path",
        _quote_missing,
    ),
    Rule("ANN129", "line-number", "line_number is the 1-based line of exact_quote inside the value", _wrong_line),
    Rule("ANN130", "github-line", "github_path's :line agrees with line_number", _github_line),
    Rule("ANN131", "evidence-source", "source is step1, step3 or step4 and matches source_file", _source),
    Rule(
        "ANN132", "evidence-confidence", "evidence confidence, when given, is high, medium or low", _evidence_confidence
    ),
    Rule(
        "ANN133",
        "collected-file",
        "source_file is a collected step file (step1, step3, step4), never the agent's summary",
        _collected_file,
    ),
    Rule("ANN134", "github-fetch", "github_path names a file that step4 fetched", _github_fetch),
    Rule("ANN140", "difficulty-score", "difficulty_score is an integer 0–10", _difficulty_score),
    Rule(
        "ANN141",
        "difficulty-label",
        "difficulty matches the score (0–3 easy, 4–6 medium, 7–10 hard)",
        _difficulty_label,
    ),
    Rule("ANN142", "difficulty-justification", "difficulty_justification is present", _justification),
    Rule(
        "ANN143",
        "justification-total",
        "difficulty_justification adds up to difficulty_score: a stated total, and the sum of the cited (+N) points "
        "(capped at 10)",
        _justification_total,
    ),
    Rule(
        "ANN144",
        "difficulty-appropriate",
        "difficulty_appropriate is answered (true/false)",
        _answered("difficulty_appropriate", "is the agent's difficulty rating appropriate?"),
    ),
    Rule(
        "ANN150",
        "alternative-plausibility",
        "every alternative diagnosis has plausibility high, medium or low",
        _plausibility,
    ),
    Rule("ANN151", "alternative-category", "every alternative diagnosis has a valid category", _alt_category),
    Rule("ANN152", "alternative-why-wrong", "every alternative diagnosis says why_wrong", _why_wrong),
    Rule("ANN160", "recommendation-priority", "every recommendation has priority high, medium or low", _priority),
)
NOT_AN_OBJECT = "ANN000"


def validate(document: Any, files: Mapping[str, Any], job_id: str | None = None) -> list[Issue]:
    """Every finding of every rule; an empty list means the annotation is valid."""
    if not isinstance(document, dict):
        return [Issue(code=NOT_AN_OBJECT, message="an annotation must be a JSON object", path="$")]
    ctx = Context(document, files, job_id)
    return [Issue(code=rule.code, message=msg, path=path) for rule in RULES for msg, path in rule.check(ctx)]
