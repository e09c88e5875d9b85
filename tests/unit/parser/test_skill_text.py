"""The skill text contract: early exits, chat block, fields block, diagnosis (SPEC §3a)."""

from __future__ import annotations

import pytest

from tests.unit.parser.helpers import BASE, EXAMPLES, codes_of, parse


@pytest.mark.parametrize(
    ("line", "outcome", "reason"),
    [
        ("RCA_OUTCOME: not_applicable - resolved/OK notification", "not_applicable", "resolved/OK notification"),
        ("RCA_OUTCOME: insufficient_context - no logs in the window", "insufficient_context", "no logs in the window"),
    ],
)
def test_early_exits(line, outcome, reason):
    parsed = parse(line + "\n")
    assert (parsed.outcome, parsed.outcome_reason, parsed.errors, parsed.diagnosis) == (outcome, reason, [], None)


def test_early_exit_without_reason_is_incomplete():
    parsed = parse("RCA_OUTCOME: not_applicable\n")
    assert parsed.outcome == "incomplete" and "RCA102" in codes_of(parsed)


def test_chat_block_title_subjects_and_sections_in_order():
    chat = parse(BASE).chat
    assert chat.title == "checkout 503s: DB pool at 5"
    assert chat.subjects == ["checkout-api"] and chat.context == "prod, since 14:02"
    assert chat.sections.tldr == "the pool is 5."
    assert chat.sections.cause.startswith("(likely, to be confirmed) cfg-2291")
    assert chat.sections.steps_to_verify == "- read the pool size on a live pod"
    assert chat.sections.do_not is None and chat.sections.related is None


def test_several_subjects_and_all_eight_sections():
    sections = "\n".join(
        f"**{h}** {k}"
        for h, k in [
            ("TL;DR:", "a"),
            ("Cause", "b"),
            ("Steps to verify", "c"),
            ("Now", "d"),
            ("Do NOT", "e"),
            ("Permanent fixes", "f"),
            ("Also", "g"),
            ("Related", "h"),
        ]
    )
    text = BASE.replace(
        BASE[BASE.index("`checkout-api`") : BASE.index("END_RCA_CHAT")], f"`api`, `db` | prod\n\n{sections}\n"
    )
    parsed = parse(text)
    assert parsed.chat.subjects == ["api", "db"]
    assert parsed.chat.sections.model_dump() == dict(
        zip(["tldr", "cause", "steps_to_verify", "now", "do_not", "permanent_fixes", "also", "related"], "abcdefgh",
            strict=True)
    )
    assert parsed.warnings == []


def test_a_repeated_section_joins_the_first_because_it_is_still_posted():
    """RCA225: a second **Now** (or **Also**) is posted like the first, so its text is kept,
    after the first one's, not dropped: what the operator reads is what is judged."""
    text = BASE.replace("END_RCA_CHAT", "**Also**\n- unrelated\n**Now** kubectl delete ns prod\n- again\nEND_RCA_CHAT")
    parsed = parse(text)
    assert parsed.chat.sections.now == "- roll back cfg-2291 after approval\nkubectl delete ns prod\n- again"
    assert parsed.chat.sections.also == "- unrelated"
    assert [w.code for w in parsed.warnings] == ["RCA225"]


def test_section_heads_inside_code_fences_are_content():
    parsed = parse(BASE.replace("- roll back cfg-2291 after approval", "```\n**Do NOT**\n```"))
    assert parsed.chat.sections.do_not is None
    assert "**Do NOT**" in parsed.chat.sections.now


REPORT, FIELDS = BASE[: BASE.index("RCA_FIELDS")], BASE[BASE.index("RCA_FIELDS") :]


@pytest.mark.parametrize(
    ("quoted", "outcome"),
    [
        ("```text\n    ```\n" + FIELDS + "```\n", "incomplete"),  # indented four: code inside the fence
        ("```text\nexample\n   ```\n" + FIELDS, "report"),  # indented three: the fence's end
        ("- the block:\n  ```\n  RCA_FIELDS\n     ```\n" + FIELDS, "report"),  # a list item's fence, +3
        ("<pre>\n" + FIELDS + "</pre>\n", "incomplete"),
        ("<PRE class='x'>\n" + FIELDS + "</PRE>\n", "incomplete"),
        ("<textarea>\n" + FIELDS + "</textarea>\n", "incomplete"),
        ("<!--\n" + FIELDS + "-->\n", "incomplete"),
        ("- the block:\n- ```\n" + FIELDS.replace("\n", "\n  ") + "```\n", "incomplete"),  # a list item's fence
        ("> ```\n> RCA_FIELDS\n> ```\n" + FIELDS, "report"),  # a block quote's fence ends in the quote
        ("```\n> ```\n" + FIELDS + "```\n", "incomplete"),  # quoted fence text inside a fence is code
        ("- <pre>\n" + FIELDS + "</pre>\n", "incomplete"),
        ("<pre>RCA_FIELDS</pre>\n" + FIELDS, "report"),  # a block on one line ends there
        ("<p>\n" + FIELDS, "report"),  # not a code block
        ("<preview>\n" + FIELDS, "report"),
    ],
)
def test_a_fields_block_counts_only_outside_code_blocks(quoted, outcome):
    parsed = parse(REPORT + quoted)
    assert parsed.outcome == outcome
    assert ("RCA101" in codes_of(parsed)) == (outcome == "incomplete")


def test_an_unclosed_pre_block_runs_to_the_end_and_its_headings_are_not_the_title():
    parsed = parse(REPORT + "<pre>\n" + FIELDS)
    assert {"RCA101", "RCA203", "RCA204"} <= set(codes_of(parsed))
    assert parse("<pre>\n# not the title\n</pre>\n" + BASE).title == "checkout 503s"


FIELD_NAMES = ["origin", "confidence", "self_healing", "repo", "commit", "sensitive_data"]


@pytest.mark.parametrize("cut_at", [2, 3, 5])
def test_a_fields_block_cut_short_is_incomplete(cut_at):
    parsed = parse(BASE[: BASE.index(FIELD_NAMES[cut_at])])
    assert parsed.outcome == "incomplete"
    assert [(e.code, e.message.rsplit(": ", 1)[1]) for e in parsed.errors] == [
        ("RCA301", name) for name in FIELD_NAMES[cut_at:]
    ]


def test_missing_chat_falls_back_to_title_and_summary():
    text = (EXAMPLES / "skill_outputs" / "disk-pressure-no-fields.txt").read_text()
    parsed = parse(text)
    assert parsed.chat is None
    assert parsed.chat_rendered.startswith("**worker-7 disk pressure**\n\nNode worker-7 reports DiskPressure")
    assert parsed.outcome == "incomplete" and [e.code for e in parsed.errors] == ["RCA101"]


def test_fields_parsed_and_invalid_values_left_unset():
    assert parse(BASE).fields.model_dump() == {
        "origin": "internal",
        "confidence": "high",
        "self_healing": "no",
        "repo": "shop",
        "commit": "4f2c9e1",
        "sensitive_data": [],
    }
    bad = BASE.replace("origin: internal", "origin: martian").replace("commit: 4f2c9e1", "commit: HEAD~1")
    bad = bad.replace("repo: shop", "repo: not-registered")
    parsed = parse(bad)
    assert (parsed.fields.origin, parsed.fields.commit, parsed.fields.repo) == (None, None, None)
    assert parsed.fields.confidence == "high"
    assert [w.code for w in parsed.warnings] == ["RCA302", "RCA302", "RCA302"]
    assert parsed.outcome == "report"


def test_repo_and_commit_none():
    parsed = parse(BASE.replace("repo: shop", "repo: none").replace("commit: 4f2c9e1", "commit: none"))
    assert (parsed.fields.repo, parsed.fields.commit, parsed.warnings) == (None, None, [])


def test_each_sensitive_item_raises_a_red_flag():
    parsed = parse(BASE.replace("sensitive_data: none", "sensitive_data: logs:password, config:api-key, docs:email"))
    assert [(s.where, s.type) for s in parsed.fields.sensitive_data] == [
        ("logs", "password"),
        ("config", "api-key"),
        ("docs", "email"),
    ]
    assert [(f.code, f.source, f.where, f.type, f.line) for f in parsed.red_flags] == [
        ("RCA307", "declared", "logs", "password", 23),
        ("RCA307", "declared", "config", "api-key", 23),
        ("RCA307", "declared", "docs", "email", 23),
    ]


@pytest.mark.parametrize(
    "item", ["logs:password=hunter2-XYZZY", "XYZZY-sk_live_abc", "moon:XYZZY", "logs: XYZZY token"]
)
def test_malformed_sensitive_item_is_dropped_and_never_echoed(item):
    parsed = parse(BASE.replace("sensitive_data: none", f"sensitive_data: input:token, {item}"))
    assert [(s.where, s.type) for s in parsed.fields.sensitive_data] == [("input", "token")]
    assert "RCA306" in codes_of(parsed)
    declared = [(f.code, f.type) for f in parsed.red_flags if f.source == "declared"]
    assert declared == [("RCA307", "token"), ("RCA306", "unreadable")]
    dumped = parsed.model_dump_json()
    assert "XYZZY" not in dumped and "hunter2" not in dumped


def test_text_after_fields_is_flagged_but_not_stored():
    parsed = parse(BASE + "\nP.S. the password is XYZZY\n")
    assert [w.code for w in parsed.warnings] == ["RCA305"]
    assert parsed.warnings[0].line == BASE.count("\n") + 2
    assert "XYZZY" not in parsed.model_dump_json()


def test_diagnosis_from_the_chat():
    d = parse(BASE).diagnosis
    assert d.root_cause.summary == "cfg-2291 set the pool to 5 (prod.yaml)."
    assert d.root_cause.confidence == "high"
    assert [(r.priority, r.action) for r in d.recommendations] == [
        ("high", "read the pool size on a live pod"),
        ("high", "roll back cfg-2291 after approval"),
    ]
    cause = d.claims[0]
    assert (cause.id, cause.kind, cause.evidence_ids) == (
        "cause",
        "root_cause",
        ["code:shop@4f2c9e1/config/prod.yaml#L42"],
    )
    assert [c.id for c in d.claims[1:]] == ["steps_to_verify-1", "now-1"]


def test_do_not_items_are_marked_and_files_come_from_code_citations():
    text = BASE.replace(
        "END_RCA_CHAT",
        "**Do NOT**\n- restart the database\n**Permanent fixes**\n"
        "- lint [prod.yaml](code:shop@4f2c9e1/config/prod.yaml#L42)\nEND_RCA_CHAT",
    )
    recs = parse(text).diagnosis.recommendations
    assert [(r.priority, r.action, r.file) for r in recs[2:]] == [
        ("medium", "lint prod.yaml", "config/prod.yaml"),
        ("do_not", "restart the database", None),
    ]


def test_sample_with_sensitive_data_and_context(tmp_path):
    text = (EXAMPLES / "skill_outputs" / "payments-webhook-leak.txt").read_text()
    parsed = parse(
        text,
        input_text="RCA context (from the RCA service):\n- Analyze only these subjects: payments-notifier\n---\n401s\n",
    )
    assert [(f.where, f.type, f.source) for f in parsed.red_flags] == [
        ("history", "webhook-url", "declared"),
        ("config", "private-key", "declared"),
    ]
    assert parsed.context.subjects == ["payments-notifier"] and parsed.alert_text == "401s\n"
    assert {a.id for a in parsed.artifacts} == {"msg:m-1001", "msg:m-1002", "code:shop@9d1e0a7/notifier/keys.py#L88"}
    assert parsed.diagnosis.contributing_factors[0].startswith("the key is cached at import time")


def test_crlf_and_bom_are_tolerated():
    parsed = parse("\ufeff" + BASE.replace("\n", "\r\n"))
    assert parsed.outcome == "report" and parsed.warnings == [] and parsed.fields.confidence == "high"
