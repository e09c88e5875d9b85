"""The input an agent receives for one case: the input context block + the incident.

The block is built by ``rcaloop.shared.context_block`` — the same module the parser
reads it back with — so the eval runner and the parser cannot disagree.
"""

from __future__ import annotations

import json

from rcaloop.gate.cases import EvalCase
from rcaloop.shared.context_block import build_context_block

OUTPUT_FILES = ("step5_summary.json",)


def case_body(case: EvalCase, job_files: dict[str, object] | None = None) -> str:
    """The incident text: the alert/log text, or the job's step files as labelled JSON."""
    if case.input is not None:
        return case.input
    parts = [f"CI job {case.job_dir}"]
    for name, data in (job_files or {}).items():
        if name in OUTPUT_FILES:  # the agent's own earlier answer is never its input
            continue
        parts.append(f"== {name}\n{json.dumps(data, indent=1, sort_keys=True)}")
    return "\n".join(parts) + "\n"


def build_input(case: EvalCase, job_files: dict[str, object] | None = None) -> str:
    """Raises ``ValueError`` when the case's context holds values the block cannot carry."""
    ctx = case.context
    return build_context_block(
        case_body(case, job_files),
        subjects=ctx.subjects,
        already_analyzed=[(a.subject, a.rca_id) for a in ctx.already_analyzed],
        history_sql=ctx.history_sql,
    )
