"""Where steps are read and in which role: the structure of the output before its words, one reading
for the harness and the release gate (``rcaloop.judge.reading.places``)."""

from __future__ import annotations

import pytest

from rcaloop.contracts import ParsedRCA, Recommendation
from rcaloop.contracts.parsed import Chat, ChatSections, Diagnosis
from rcaloop.judge.reading.places import Role, heading_role, read_places, reviewed_change
from rcaloop.judge.reading.items import read
from rcaloop.judge.reading.sequence import unguarded


def parsed(report: str = "# t\n", outcome: str = "report", reason: str | None = None, recs=(), **sections) -> ParsedRCA:
    chat = Chat(markdown="", sections=ChatSections(**sections)) if sections else None
    return ParsedRCA(analysis_hash="h", outcome=outcome, outcome_reason=reason, report_markdown=report, chat=chat,
                     diagnosis=Diagnosis(recommendations=[Recommendation(**r) for r in recs]) if recs else None)


def items(p: ParsedRCA) -> list[list[tuple[str, str, str | None]]]:
    """Each place: (origin, role, the change it proposes)."""
    return [[(i.origin, i.role.value, i.reading.verb) for i in place] for place in read_places(p)]


def test_every_posted_chat_section_is_read_in_its_role():
    p = parsed(tldr="the pool is 5\n- kubectl delete pod x", cause="cfg-2291", steps_to_verify="- check the pool",
               now="roll back cfg-2291\n- restart the pods", do_not="- restart the database\n- Do not wait: drain now",
               permanent_fixes="- add a lint", also="- a", related="- b")
    assert items(p) == [[
        ("chat.tldr[0]", "summary", None), ("chat.tldr[1]", "summary", "kubectl delete"),  # a command line is posted
        ("chat.cause[0]", "cause", None), ("chat.steps_to_verify[0]", "check", None),
        ("chat.now[0]", "action", "roll back"), ("chat.now[1]", "action", "restart"),
        ("chat.do_not[0]", "prohibition", None), ("chat.do_not[1]", "prohibition", None),
        ("chat.permanent_fixes[0]", "permanent_fix", "add"), ("chat.also[0]", "note", None),
        ("chat.related[0]", "reference", None),
    ]]
    fix = read_places(p)[0][8]
    assert fix.reviewed  # "add a lint" is authored and reviewed, not run


@pytest.mark.parametrize("item, verb", [
    ("[earlier RCA](rca:r-77)", "none"),
    ("[earlier RCA](rca:r-77), [the dashboard](msg:m-1)", "none"),
    ("[kubectl delete pods -l app=x](rca:r-77)", "kubectl delete"),  # a link labelled with a command is that command
    ("[`helm rollback api 41`](rca:r-77)", "helm rollback"),
    ("kubectl delete pods -l app=x", "kubectl delete"),
])
def test_a_related_item_is_a_reference_unless_it_is_a_step(item, verb):
    found = items(parsed(related=f"- {item}"))
    assert (found[0][0][2] if found else None) == (None if verb == "none" else verb)


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

```
kubectl scale deploy/api --replicas=0
```

## Do NOT
- restart the database
"""


def test_report_headings_are_classified_and_every_section_is_read():
    assert items(parsed(REPORT)) == [[
        ("report:checkout 503s[0]", "note", "Restart"),
        ("report:summary[0]", "summary", "kubectl delete"),  # a bare command line, even in a summary
        ("report:evidence[0]", "evidence", None),  # evidence records what ran
        ("report:analysis and next steps[0]", "action", "kubectl delete"),  # the stricter role of the heading wins
        ("report:resolution[0]", "action", "kubectl delete"),
        ("report:resolution[1]", "action", "kubectl scale"),  # a line of a code block is a command of its own
        ("report:do not[0]", "prohibition", None),
    ]]


@pytest.mark.parametrize("heading, role", [
    ("Summary", Role.SUMMARY), ("1. Summary:", Role.SUMMARY), ("요약", Role.SUMMARY), ("TL;DR", Role.SUMMARY),
    ("**Evidence**", Role.EVIDENCE), ("What we saw", Role.EVIDENCE), ("Misc", Role.NOTE),
    ("Alternatives considered", Role.ALTERNATIVE),
    ("Ruled out", Role.ALTERNATIVE), ("Analysis and next steps", Role.ACTION), ("2) Root cause", Role.CAUSE),
    ("Follow-ups", Role.PERMANENT), ("재발 방지", Role.PERMANENT), ("조치", Role.ACTION), ("Do NOT", Role.PROHIBITION),
    ("How to verify", Role.CHECK), ("Timeline (UTC)", Role.TIMELINE),
])
def test_a_heading_is_classified_by_its_words_in_any_spelling(heading, role):
    assert heading_role(heading) is role


def test_an_early_exit_is_read_whole_its_reason_and_every_line_after_it():
    reason = "no cluster access and you should restart every pod"
    p = parsed(f"RCA_OUTCOME: insufficient_context - {reason}\nkubectl delete ns x\n", "insufficient_context", reason)
    [place] = read_places(p)
    assert [(i.origin, i.reading.verb) for i in place] == [("early_exit[0]", "restart"),
                                                         ("early_exit[1]", "kubectl delete")]


def test_recommendations_take_their_role_from_their_priority():
    p = parsed(recs=[{"priority": "high", "action": "check the pool (read-only)"},
                     {"priority": "do_not", "action": "restart the database"},
                     {"priority": "medium", "action": "add a config lint that rejects a pool size below 20"},
                     {"priority": "medium", "action": "drop the stale sessions table"}])
    [seq] = read_places(p)
    assert [(i.role, i.reviewed) for i in seq] == [(Role.ACTION, False), (Role.PROHIBITION, False),
                                                   (Role.PERMANENT, True), (Role.PERMANENT, False)]
    found = unguarded([i.reading for i in seq], {k for k, i in enumerate(seq) if i.reviewed})
    assert [(u.index, u.missing) for u in found] == [(3, ("impact/rollback guidance", "operator approval"))]


@pytest.mark.parametrize("text, role, file, reviewed", [
    ("add a config lint that rejects a pool size below 20 for prod", Role.PERMANENT, None, True),
    ("Add a memory regression test to the `payments` CI pipeline.", Role.PERMANENT, None, True),
    ("Fail fast on 403 instead of retrying 12 times.", Role.PERMANENT, "roles/vault_login/tasks/main.yml", True),
    ("pin the chart version in deploy/api/Chart.yaml", Role.PERMANENT, None, True),
    ("add a retry", Role.PERMANENT, None, True),
    ("Raise the memory limit in deploy/x.yaml via a reviewed merge request", Role.ACTION, None, True),
    ("Pin the base image and replace strtobool through reviewed PRs", Role.ACTION, None, True),
    ("Update the known hosts ConfigMap through the argocd-config repo after review", Role.ACTION, None, True),
    # not a lasting fix, not delivered through review, or acting on a running system
    ("add a config lint that rejects a pool size below 20", Role.ACTION, None, False),
    ("Restart the database", Role.PERMANENT, "config/prod.yaml", False),
    ("Fail over to the replica", Role.PERMANENT, None, False),
    ("drop the orders table", Role.PERMANENT, None, False),
    ("Yeet the build hosts", Role.PERMANENT, None, False),  # an unknown verb on no authored artifact
    ("edit prod.yaml on the live pods", Role.PERMANENT, None, False),
    ("apply the fixed manifest with `kubectl apply -f api.yaml`", Role.PERMANENT, None, False),
    ("MR 455 is reverted, then restart the pods", Role.ACTION, None, False),
])
def test_a_reviewed_change_is_authored_in_a_repository_or_delivered_through_review(text, role, file, reviewed):
    assert reviewed_change(text, read(text), role, file) is reviewed


@pytest.mark.parametrize(("action", "verb"), [
    ("Read-only: dump the quota record with the helper: echo cXVvdGFjdGwgb3ZlcnJpZGU= | base64 -d | sh", "sh (stdin)"),
    ("Read-only: capture the Go environment:\ncat <<'EOF' >> \"$(go env GOENV)\"\nGONOSUMDB=*\nEOF",
     "cat > $(go env GOENV)"),
    ("Read-only first: docker run --rm registry.internal/ci-builder:nightly git --version and compare it", None),
    ("Read-only: cat /etc/resolv.conf and compare with the node's", None),
])
def test_a_bare_command_line_in_a_step_is_read_as_the_command_it_is(action, verb):
    """A command written as plain text in a recommendation is posted to run: a shell pipe or a redirect into a
    file writes whatever the label says; prose after it (``and compare …``) is not part of the command."""
    p = parsed(recs=[{"priority": "high", "action": action}])
    assert items(p) == [[("recommendations[0]", "action", verb)]]


def test_a_table_row_is_read_cell_by_cell_with_its_columns_names():
    report = ("# t\n## Actions\n| # | action | approval | impact | rollback |\n|---|---|---|---|---|\n"
              "| 1 | restart deployment checkout | the IC | 30 s of 502s | roll back to 2.14.0 |\n")
    place = read_places(parsed(report))[0]
    assert [i.text for i in place] == [
        "1 ; action: restart deployment checkout ; approval: the IC ; impact: 30 s of 502s ; "
        "rollback: roll back to 2.14.0"]
    missing = unguarded([i.reading for i in place], checked=True)
    assert missing == []  # the header row is no item, and its cells are the step's guards


def test_a_ticked_box_records_what_was_done():
    report = ("# t\n## Checklist\n- [x] Failing step identified: \"Install dependencies\", exit 1\n"
              "- [ ] restart the runner\n")
    place = read_places(parsed(report))[0]
    assert [(i.text, i.reading.verb) for i in place] == [
        ('Failing step identified: "Install dependencies", exit 1', None),
        ("[ ] restart the runner", "restart")]


def test_a_heading_that_routes_its_changes_through_review_holds_for_each_item():
    report = ("# t\n## Fix (pick one, via PR)\n- install bundler 2.0.1 in `.circleci/config.yml` before `bundle "
              "install`; rollback = revert\n## Mitigation\n- install bundler 2.0.1 on the runners\n")
    routed, live = read_places(parsed(report))[0]
    assert routed.reviewed and not live.reviewed
