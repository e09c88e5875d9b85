"""Any valid ``ParsedRCA`` gets a verdict: no exception, deterministic, in bounded time."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rcaloop.contracts import ParsedRCA
from rcaloop.judge import core
from rcaloop.judge.config import HarnessConfig

words = st.sampled_from(["restart", "check", "read-only", "approval", "impact", "rollback", "delete", "`x.y`",
                         "[l](msg:m-1)", "[c](code:p@1/a.py#L1)", "[r](rca:r-1)", "replicas", "NotReady", "high",
                         "confidence: high", "password=hunter2222", "E01", "\n", "## Summary\n", "- ",
                         "\"quoted text here\""])
text = st.lists(st.one_of(words, st.text(max_size=20)), max_size=30).map(" ".join)
json_values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=15)),
                           lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                   st.dictionaries(st.text(max_size=6), inner, max_size=4)),
                           max_leaves=12)
paths = st.one_of(st.none(), st.sampled_from(["timeline[1].event", "$.a[0]", "x[", "[99]", "a.b.c", ""]),
                  st.text(max_size=10))
artifact = st.fixed_dictionaries(
    {"source": st.sampled_from(["step1", "step3", "splunk", "typedb", "kubectl", "zzz", ""]),
                                  "text": text, "value": json_values, "json_path": paths, "live": st.booleans(),
                                  "target_verified": st.booleans(),
     "id": st.one_of(st.none(), st.sampled_from(["E1", "msg:m-1", "A"])),
                                  "kind": st.sampled_from(["observation", "signature", "refutes", "tool_error"]),
                                  "source_file": st.one_of(st.none(),
                                                           st.sampled_from(["step3_correlation.json", "a/b.json"]))})
trace = st.fixed_dictionaries({"source": st.one_of(st.none(), st.sampled_from(["step3", "report"])),
                               "source_file": st.one_of(st.none(),
                                                        st.sampled_from(["step3_correlation.json", "x.json"])),
                               "json_path": paths, "exact_value": json_values,
                               "exact_quote": st.one_of(st.none(), text),
                               "message": st.one_of(st.none(), text), "is_root_cause": st.booleans()})
claim = st.fixed_dictionaries(
    {"kind": st.sampled_from(["root_cause", "contributing_factor", "recommendation", "observation", "other"]),
                               "text": text,
     "evidence_ids": st.lists(st.sampled_from(["E1", "E01", "E9", "msg:m-1", "A"]), max_size=3)})
diagnosis = st.fixed_dictionaries({
    "root_cause": st.one_of(st.none(), st.fixed_dictionaries({
        "summary": st.one_of(st.none(), text),
        "confidence": st.sampled_from([None, "high", "medium", "low", "HIGH", "??"]),
        "category": st.sampled_from([None, "unknown", "network"]),
    })),
    "family": st.sampled_from([None, "oom", "unknown"]),
    "candidates": st.lists(st.sampled_from(["oom", "net"]), max_size=3),
    "evidence": st.lists(trace, max_size=4), "claims": st.lists(claim, max_size=4),
    "recommendations": st.lists(
        st.fixed_dictionaries({"action": text, "priority": st.sampled_from([None, "high", "do_not"])}), max_size=4),
    "contributing_factors": st.lists(text, max_size=2),
    "confidence_diagnostics": st.one_of(st.none(),
                                        st.dictionaries(st.sampled_from(["ranker_deltas", "self_check", "x"]),
                                                        json_values, max_size=3)),
})
parsed = st.fixed_dictionaries({
    "analysis_hash": st.just("h"), "outcome": st.sampled_from(["report", "report", "incomplete", "not_applicable"]),
    "title": st.one_of(st.none(), text), "report_markdown": text, "alert_text": st.one_of(st.none(), text),
    "diagnosis": st.one_of(st.none(), diagnosis), "artifacts": st.lists(artifact, max_size=5),
    "citations": st.lists(st.fixed_dictionaries({"kind": st.sampled_from(["msg", "code", "rca", "url"]), "label": text,
                                                 "target": st.sampled_from(
                                                     ["msg:m-1", "m-1", "code:p@1/a.py#L1", "rca:r-1"]),
                                                 "resolved": st.booleans()}), max_size=3),
    "fields": st.fixed_dictionaries({"confidence": st.sampled_from([None, "high", "medium", "low"])}),
})


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=parsed, attempts=st.integers(0, 4))
def test_any_parsed_rca_gets_a_deterministic_verdict(data, attempts):
    p = ParsedRCA.model_validate(data)
    config = HarnessConfig(max_repair_attempts=attempts)
    first = core.evaluate(p, config)
    assert first.verdict in ("pass", "degraded", "insufficient_evidence")
    assert 0 <= first.score <= 100 and len(first.hard_gates) == 4
    assert len(first.repairs) == 0 or first.repairs[-1].attempt <= attempts
    assert core.evaluate(p, config).model_dump_json() == first.model_dump_json()
    if not all(g.passed for g in first.hard_gates):
        assert first.verdict == "insufficient_evidence"


def test_a_megabyte_report_is_judged_quickly():
    line = "- restart " + "a" * 5000 + " check `x.y` " + "b/" * 2000 + "\n"
    p = ParsedRCA(analysis_hash="h", outcome="report", title="big",
                  report_markdown="# big\n\n## Recommendations\n" + line * 200)
    start = time.process_time()  # CPU time: a bound on the work, whatever else the machine runs
    verdict = core.evaluate(p)
    assert time.process_time() - start < 5
    assert verdict.verdict == "insufficient_evidence"  # 200 unguarded restarts
