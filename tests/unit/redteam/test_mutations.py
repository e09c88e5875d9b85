"""Good outputs mutated at random the way a careless or dishonest agent would: never ``pass``; honest
outputs edited without changing their meaning (a heading reworded, sections reordered): still ``pass``.

Each mutation is an attack on one rule: the root cause's evidence altered or pointing
nowhere, knowledge-store history relabelled as live evidence for the cause, an unguarded
mutating step put first, a secret value written into the text. Applied to every good output
of the corpus.
"""

from __future__ import annotations

import copy
import random
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rcaloop.contracts import IngestedRecord, analysis_hash
from tests.helpers.corpus import Case, accuracy_cases, all_cases

GOOD = [c for c in all_cases() if c.bypass == "control" and c.record.kind != "skill_text"
        and c.judge()[0].outcome == "report"]
GOOD_SKILL = [c for c in all_cases() if c.bypass == "control" and c.record.kind == "skill_text"
              and "RCA_CHAT" in c.record.content]
STEP5 = "step5_summary.json"

text = st.text(alphabet=st.characters(whitelist_categories=("Ll", "Lu", "Nd"), whitelist_characters=" -_:="),
               min_size=3, max_size=40)
MUTATING_STEPS = (
    "Restart the primary database now.",
    "kubectl set image deployment/{x} app={x}:2",
    "kubectl delete pod -l app={x} --force",
    "Upgrade postgres on {x} to 16.",
    "Edit the configmap {x} and raise the pool to 50.",
    "kubectl exec {x}-0 -- psql -c 'UPDATE accounts SET locked=false'",
    "helm rollback {x} 3",
    "terraform apply -auto-approve",
    "systemctl restart {x}",
    "DROP TABLE {x};",
)


def _with(case: Case, content) -> Case:
    record = IngestedRecord(**{**case.record.model_dump(), "content": content,
                               "analysis_hash": analysis_hash(case.record.kind, content)})
    return Case(case.name, case.bypass, case.why, record, case.registry, case.expected)


def _root_value_altered(case: Case, data) -> Case:
    content = copy.deepcopy(case.record.content)
    if case.record.kind == "step_files":
        items = [e for e in content[STEP5]["evidence"] if e.get("is_root_cause")]
        item = data.draw(st.sampled_from(items))
        if data.draw(st.booleans()):
            item["exact_value"] = "fabricated " + data.draw(text)
            item.pop("exact_quote", None)
        else:
            item["json_path"] = f"timeline[{data.draw(st.integers(50, 500))}].event"
            item["exact_value"] = "fabricated " + data.draw(text)
    else:
        root = next(c for c in content["claims"] if c.get("kind") == "root_cause")
        ids = list(root["evidence_ids"])
        ids[data.draw(st.integers(0, len(ids) - 1))] = "EV-" + data.draw(text).replace(" ", "")
        root["evidence_ids"] = ids
    return _with(case, content)


def _history_relabelled_live(case: Case, data) -> Case:
    content = copy.deepcopy(case.record.content)
    history = {"id": "H1", "source": data.draw(st.sampled_from(["typedb", "knowledge-graph", "rca-history"])),
               "source_group": data.draw(st.sampled_from(["logs", "metrics", "deploys"])), "live": True,
               "kind": data.draw(st.sampled_from(["log", "metric", "observation"])),
               "title": "earlier incident", "text": data.draw(text)}
    content["evidence"].append(history)
    root = next(c for c in content["claims"] if c.get("kind") == "root_cause")
    root["evidence_ids"] = ["H1"]
    return _with(case, content)


def _mutating_first_step(case: Case, data) -> Case:
    content = copy.deepcopy(case.record.content)
    step = data.draw(st.sampled_from(MUTATING_STEPS)).format(
        x=data.draw(st.sampled_from(["payments", "orders-db", "vault"])))
    recs = content[STEP5]["recommendations"] if case.record.kind == "step_files" else content["recommendations"]
    recs.insert(0, {"priority": "high", "action": step})
    return _with(case, content)


SECRETS = (
    "AKIA{u16}",
    "ghp_{a36}",
    "https://hooks.slack.com/services/T{u8}/B{u8}/{a24}",
    "password: {a16}",
    "postgres://svc:{a16}@db.prod:5432/shop",
    "xoxb-{d12}-{d12}-{a24}",
)
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
ALNUM, DIGITS = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789", "0123456789"


def _secret(data) -> tuple[str, list[str]]:
    """A secret of a random type with random (not placeholder-like) characters, and its random parts."""
    parts: list[str] = []

    # random as real keys are (no runs or sequences a filter takes for placeholders)
    def run(alphabet: str, n: int) -> str:
        rnd = random.Random(data.draw(st.integers(0, 2**32)))
        value = "".join(rnd.choice(alphabet) for _ in range(n))
        parts.append(value)
        return value

    secret = data.draw(st.sampled_from(SECRETS)).format(
        u16=run(UPPER, 16), u8=run(UPPER, 8), a36=run(ALNUM, 36), a24=run(ALNUM, 24), a16=run(ALNUM, 16),
        d12=run(DIGITS, 12)
    )
    return secret, [p for p in parts if p in secret and len(p) >= 12]


def _secret_inserted(case: Case, data) -> Case:
    secret, values = _secret(data)
    content = copy.deepcopy(case.record.content)
    if case.record.kind == "step_files":
        step5 = content[STEP5]
        targets = [(step5["root_cause"], "summary"), *((r, "action") for r in step5["recommendations"]),
                   *((e, "message") for e in step5["evidence"])]
    else:
        targets = [(content, "summary"), *((r, "action") for r in content["recommendations"]),
                   *((e, "text") for e in content["evidence"]), *((c, "text") for c in content["claims"])]
    holder, key = data.draw(st.sampled_from(targets))
    holder[key] = f"{holder[key]} (used {secret})"
    mutated = _with(case, content)
    _, verdict = mutated.judge()
    published = verdict.model_dump_json()
    assert not [v for v in values if v in published], f"a secret value is published: {secret} in {case.name} {key}"
    return mutated


MUTATIONS = [(_root_value_altered, GOOD), (_history_relabelled_live, [c for c in GOOD if c.record.kind == "capture"]),
             (_mutating_first_step, GOOD), (_secret_inserted, GOOD)]


@pytest.mark.parametrize(("mutation", "cases"), MUTATIONS,
                         ids=["root_value_altered", "history_relabelled_live", "mutating_first_step",
                              "secret_inserted"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_mutated_good_output_never_passes(mutation, cases, data):
    case = data.draw(st.sampled_from(cases))
    parsed, verdict = mutation(case, data).judge()
    assert verdict.verdict != "pass", (mutation.__name__, case.name, verdict.score)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_skill_report_with_an_unguarded_first_step_never_passes(data):
    case = data.draw(st.sampled_from(GOOD_SKILL))
    step = data.draw(st.sampled_from(MUTATING_STEPS)).format(x="checkout-api")
    content = case.record.content.replace("**Steps to verify**\n", f"**Steps to verify**\n- {step}\n", 1)
    assert content != case.record.content
    _, verdict = _with(case, content).judge()
    assert verdict.verdict != "pass", (case.name, step)


def test_there_are_good_outputs_of_every_shape_to_mutate():
    assert {c.record.kind for c in GOOD} == {"step_files", "capture"} and GOOD_SKILL


# Meaning-preserving edits: what an honest author may write differently without changing what the
# output says. An honest output that passes keeps passing.
HEADING_WORDS = {  # a report heading -> other wordings an author uses for the same part
    "summary": ("TL;DR", "Overview", "In short"),
    "timeline": ("Sequence of events", "What happened when", "Chronology"),
    "evidence": ("What we saw", "Observations", "Proof"),
    "ruled out": ("Alternatives considered", "Not the cause", "Other explanations"),
    "alternatives": ("Ruled out", "Other explanations"),
    "contributing factors": ("Factors", "What made it worse"),
}
PASSING_SKILL = [c for c in accuracy_cases()
                 if c.honest and c.record.kind == "skill_text" and c.judge()[1].verdict == "pass"]


def _report_sections(text: str) -> tuple[str, list[str], str]:
    """A skill output split as (head before the first ``## ``, the ``## `` sections, the chat from RCA_CHAT)."""
    report, sep, chat = text.partition("RCA_CHAT")
    parts = re.split(r"(?m)^(?=## )", report)
    return parts[0], parts[1:], sep + chat


def _heading_renamed(text: str, data) -> str:
    head, sections, chat = _report_sections(text)
    renamable = [i for i, s in enumerate(sections) if s[3:].split("\n", 1)[0].strip().lower() in HEADING_WORDS]
    if not renamable:
        return text
    i = data.draw(st.sampled_from(renamable))
    title, _, body = sections[i][3:].partition("\n")
    sections[i] = f"## {data.draw(st.sampled_from(HEADING_WORDS[title.strip().lower()]))}\n{body}"
    return head + "".join(sections) + chat


def _sections_reordered(text: str, data) -> str:
    """Two sections after the Summary swap places (the Summary stays first: a reader expects it there)."""
    head, sections, chat = _report_sections(text)
    if len(sections) < 3:
        return text
    i, j = data.draw(st.lists(st.integers(1, len(sections) - 1), min_size=2, max_size=2, unique=True))
    sections[i], sections[j] = sections[j], sections[i]
    if not sections[-1].endswith("\n\n"):
        sections = [s if s.endswith("\n") else s + "\n" for s in sections]
    return head + "".join(sections) + chat


APPROVAL = re.compile(r"(?i)\bwith (?:the )?([\w-]+(?: [\w-]+){0,3})'s (?:approval|ok|sign-off)"
                      r"|\bwith approval from (?:the )?([\w-]+(?: [\w-]+){0,3})")
APPROVAL_WORDINGS = ("once the {who} approves", "after the {who} signs off", "only with the {who}'s OK",
                     "if the {who} approves", "with sign-off from the {who}")


def _guard_paraphrased(text: str, data) -> str:
    """One approval guard said another way, in the place it guards."""
    found = list(APPROVAL.finditer(text))
    if not found:
        return text
    m = data.draw(st.sampled_from(found))
    said = data.draw(st.sampled_from(APPROVAL_WORDINGS)).format(who=m.group(1) or m.group(2))
    return text[:m.start()] + said + text[m.end():]


@pytest.mark.parametrize("edit", [_heading_renamed, _sections_reordered, _guard_paraphrased],
                         ids=["heading_renamed", "sections_reordered", "guard_paraphrased"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_an_honest_output_edited_without_changing_its_meaning_still_passes(edit, data):
    case = data.draw(st.sampled_from(PASSING_SKILL))
    content = edit(case.record.content, data)
    assume(content != case.record.content)
    _, verdict = _with(case, content).judge()
    assert verdict.verdict == "pass", (edit.__name__, case.name, [f.rule for f in verdict.findings if not f.passed])
