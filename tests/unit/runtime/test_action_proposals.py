"""Where steps are proposed: every place an operator reads, one reading for the harness and
the gate (``rcaloop.judge.actions.proposals``), and which changes go through review."""

from __future__ import annotations

import pytest

from rcaloop.contracts import ParsedRCA, Recommendation
from rcaloop.contracts.parsed import Chat, ChatSections, Diagnosis
from rcaloop.judge.actions import unguarded
from rcaloop.judge.actions.proposals import heading_name, proposals
from rcaloop.judge.actions.reviewed import is_reviewed_change


def parsed(report: str = "# t\n", outcome: str = "report", reason: str | None = None, recs=(), **sections) -> ParsedRCA:
    chat = Chat(markdown="", sections=ChatSections(**sections)) if sections else None
    return ParsedRCA(analysis_hash="h", outcome=outcome, outcome_reason=reason, report_markdown=report, chat=chat,
                     diagnosis=Diagnosis(recommendations=[Recommendation(**r) for r in recs]) if recs else None)


def read(p: ParsedRCA) -> list[list[tuple[str, str]]]:
    return [[(x.origin, x.text) for x in seq] for seq in proposals(p)]


def test_every_posted_chat_section_is_read_in_order_and_do_not_forbids():
    p = parsed(tldr="the pool is 5\n- kubectl delete pod x", cause="cfg-2291", steps_to_verify="- check the pool",
               now="roll back cfg-2291\n- restart the pods", do_not="- restart the database\n- Do not wait: drain now",
               permanent_fixes="- add a lint", also="- a", related="- b")
    assert read(p) == [
        [("chat.tldr[0]", "kubectl delete pod x")],  # TL;DR and Cause: their list items only
        [("chat.steps_to_verify[0]", "check the pool"), ("chat.now[0]", "roll back cfg-2291"),
         ("chat.now[1]", "restart the pods")],  # a line without a bullet is posted too
        [("chat.do_not[0]", "Do not restart the database"), ("chat.do_not[1]", "Do not wait: drain now")],
        [("chat.also[0]", "a")],
        [("chat.related[0]", "b")],
    ]


@pytest.mark.parametrize("item, kept", [
    ("[earlier RCA](rca:r-77)", None),
    ("[earlier RCA](rca:r-77), [the dashboard](msg:m-1)", None),
    ("[earlier RCA](rca:r-77) — kubectl delete pods -l app=x", "— kubectl delete pods -l app=x"),
    ("[kubectl delete pods -l app=x](rca:r-77)", "kubectl delete pods -l app=x"),
    ("[restart the pods](rca:r-77)", "restart the pods"),
    ("[`helm rollback api 41`](rca:r-77)", "`helm rollback api 41`"),
])
def test_a_related_link_is_a_reference_unless_its_label_is_a_step(item, kept):
    found = read(parsed(related=f"- {item}"))
    assert found == ([[("chat.related[0]", kept)]] if kept else [])


REPORT = """# checkout 503s

Restart the database now.

## Summary
kubectl delete namespace prod

## 1. Evidence:
- kubectl delete namespace prod

## Analysis and next steps
- kubectl delete pods -l app=checkout-api
Then roll back cfg-2291
after approval by the lead.

## Resolution
Restart every pod with
`kubectl delete pods -l app=x`.
no logs for the window
Restart the queue workers

```
kubectl scale deploy/api --replicas=0
```

## Do NOT
- restart the database

## Analysis and next steps
- drop the orders table
"""


def test_every_section_that_does_not_describe_is_read_item_and_paragraph_alike():
    assert read(parsed(REPORT)) == [
        [("report[0]", "Restart the database now.")],
        [("report[1]", "kubectl delete pods -l app=checkout-api. Then roll back cfg-2291 after approval by the lead.")],
        [("report[2]", "Restart every pod with `kubectl delete pods -l app=x`. no logs for the window. Restart the "
                       "queue workers"),
         ("report[3]", "kubectl scale deploy/api --replicas=0")],
        [("report[4]", "Do not restart the database")],
        [("report[5]", "drop the orders table")],  # a repeated heading is rendered like the first
    ]


@pytest.mark.parametrize("heading, name", [
    ("Summary", "summary"), ("1. Summary:", "summary"), ("**Evidence**", "evidence"),
    ("Analysis and next steps", "analysis and next steps"), ("2) Root cause", "root cause"),
])
def test_headings_are_matched_as_whole_names(heading, name):
    assert heading_name(heading) == name


def test_an_early_exit_is_read_whole_its_reason_and_every_line_after_it():
    reason = "no cluster access and you should restart every pod"
    p = parsed(f"RCA_OUTCOME: insufficient_context - {reason}\nkubectl delete ns x\n", "insufficient_context", reason)
    assert read(p) == [[("early_exit[0]", reason), ("early_exit[1]", "kubectl delete ns x")]]
    assert unguarded([x.text for x in proposals(p)[0]])[0].verb == "restart"


def test_recommendations_filed_under_do_not_forbid_and_permanent_fixes_may_go_through_review():
    p = parsed(recs=[{"priority": "high", "action": "check the pool (read-only)"},
                     {"priority": "do_not", "action": "restart the database"},
                     {"priority": "medium", "action": "add a config lint that rejects a pool size below 20"},
                     {"priority": "medium", "action": "drop the stale sessions table"}])
    [seq] = proposals(p)
    assert [(x.text, x.reviewed) for x in seq] == [
        ("check the pool (read-only)", False), ("Do not restart the database", False),
        ("add a config lint that rejects a pool size below 20", True), ("drop the stale sessions table", False)]
    found = unguarded([x.text for x in seq], {i for i, x in enumerate(seq) if x.reviewed})
    assert [(u.index, u.missing) for u in found] == [(3, ("impact/rollback guidance", "operator approval"))]


@pytest.mark.parametrize("text, priority, file, reviewed", [
    ("add a config lint that rejects a pool size below 20 for prod", "medium", None, True),
    ("Add a memory regression test to the `payments` CI pipeline.", "medium", None, True),
    ("Fail fast on 403 instead of retrying 12 times.", "medium", "roles/vault_login/tasks/main.yml", True),
    ("reload the signing key on change instead of at import", "medium", "notifier/keys.py", True),
    ("pin the chart version in deploy/api/Chart.yaml", "low", None, True),
    # not a lasting fix, not named where it changes, or acting on a running system
    ("add a config lint that rejects a pool size below 20", "high", None, False),
    ("add a retry", "medium", None, False),
    ("Restart the database", "medium", "config/prod.yaml", False),
    ("Fail over to the replica", "medium", "config/prod.yaml", False),
    ("drop the orders table", "low", "schema.sql", False),
    ("Yeet the CI runners", "low", None, False),
    ("edit prod.yaml on the live pods", "medium", None, False),
    ("apply the fixed manifest with `kubectl apply -f api.yaml`", "medium", None, False),
])
def test_a_reviewed_change_is_a_lasting_fix_authored_in_a_repository(text, priority, file, reviewed):
    assert is_reviewed_change(text, priority, file) is reviewed
