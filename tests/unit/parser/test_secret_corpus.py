"""The secret detector on realistic RCA text: every case of ``tests/fixtures/secrets/rca-corpus.yaml``
(found and redacted, or left alone), the honest outputs of the judge's corpus (no detected
red flag), the vendor engine's part, the rule each finding names, and the scan's budget."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rcaloop.contracts import DeadLetter
from rcaloop.parser import core as parser
from rcaloop.shared import secret_engine
from rcaloop.shared.consumer import withheld
from rcaloop.shared.secret_labels import LABELS
from rcaloop.shared.secret_rules import RULES
from rcaloop.shared.secret_values import placeholder
from rcaloop.shared.secrets import TYPES, ScanBudgetExceeded, redact_dead_letter, redact_record, redact_text
from tests.helpers.corpus import HONEST, load

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "secrets" / "rca-corpus.yaml"
CASES = yaml.safe_load(CORPUS.read_text())["cases"]
CLASSES = {
    "tp.vendor-shape", "tp.keyword", "tp.credential-url", "tp.password", "tp.label-other-language",
    "tp.aws-key-pair", "tp.password-hash", "tp.private-key",
    "fp.reference", "fp.placeholder", "fp.hash-id", "fp.prose",
}  # fmt: skip


def test_the_corpus_has_cases_of_every_class():
    assert {c["class"] for c in CASES} == CLASSES
    assert all(c["secrets"] for c in CASES if c["class"].startswith("tp."))


@pytest.mark.parametrize("case", [c for c in CASES if c["class"].startswith("tp.")], ids=lambda c: c["id"])
def test_a_secret_is_found_and_no_value_survives(case):
    done = redact_text(case["text"])
    assert done.found, case["text"]
    left = [value for value in case["secrets"] if value in done.text]
    assert left == [], done.text
    assert all(f.type in TYPES and f.rule for f in done.found)
    again = redact_text(done.text)  # the markers read back as the same findings, rule included
    assert again.text == done.text and again.found == done.found


@pytest.mark.parametrize("case", [c for c in CASES if c["class"].startswith("fp.")], ids=lambda c: c["id"])
def test_names_references_placeholders_ids_and_prose_are_left_alone(case):
    done = redact_text(case["text"])
    assert done.found == () and done.text == case["text"], done.found


@pytest.mark.parametrize("path", sorted(HONEST.glob("*.yaml")), ids=lambda p: p.stem)
def test_an_honest_output_that_names_secrets_carries_no_detected_red_flag(path):
    case = load(path, "honest")
    flags = parser.parse_record(case.record, case.registry).red_flags
    assert [f for f in flags if f.source == "detected"] == []


def test_each_class_names_its_rule_in_the_red_flag():
    labels = next(c for c in CASES if c["id"] == "label-0")["text"]
    pair = next(c for c in CASES if c["id"] == "pair-in-sentence")["text"]
    url = "The app connects with postgresql://app:S3cr3tPassw0rd!@db-primary.prod:5432/shop at start."
    hash_line = next(c for c in CASES if c["id"] == "htpasswd-apr1")["text"]
    token = "the job pushed with rubygems_ceb5aa68ed152fc93c5e0aabdcf9d41b9bce015a672dfcd5 at 13:55"
    rules = {text: [(f.type, f.rule) for f in redact_text(text).found]
             for text in (labels, pair, url, hash_line, token)}
    assert rules == {
        labels: [("password", "rcaloop.label")],
        pair: [("aws-access-key", "rcaloop.aws-access-key-id"), ("aws-secret-key", "rcaloop.aws-key-pair")],
        url: [("connection-string", rules[url][0][1])],
        hash_line: [("password-hash", "rcaloop.htpasswd")],
        token: [("token", "betterleaks.rubygems-api-token")],  # a vendor only the engine's catalog knows
    }
    assert rules[url][0][1] in ("rcaloop.url-credentials", "betterleaks.generic-credential-uri")
    assert redact_text(url).text.endswith(":rcaloop.url-credentials]@db-primary.prod:5432/shop at start.") or \
        "S3cr3tPassw0rd" not in redact_text(url).text


def test_a_marker_without_a_rule_still_reads_back():
    done = redact_text("key [REDACTED:aws-access-key] was in the log")
    assert [(f.type, f.rule) for f in done.found] == [("aws-access-key", "marker")]
    assert done.text == "key [REDACTED:aws-access-key] was in the log"


@pytest.mark.parametrize("value", [
    "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "AKIAIOSFODNN7EXAMPLE", "YOUR_API_KEY_HERE", "sk_live_0000000000000000",
    "${{ secrets.NPM_TOKEN }}", "<token>", "[Redacted]", "$TOKEN", "00000000000000000000000000000000000TUVWXYZ",
])  # fmt: skip
def test_placeholders(value):
    assert placeholder(value)


@pytest.mark.parametrize("value", [
    "AAAAAAAAAAAAAAAAAAAAAAa3GjEkAtvSJBBAikfXmV8OP53cT0FXlEcya%zYl8mcOVDrcn0p53YRIXK1fpQAsy0nfImMqII5tcynFhj",
    "$apr1$Q7xZ2kLm$loyhRVZVQVgEn2lGZVpzC1", "ghp_4fK9qL2mX7vR8tY1wN3bZ6cH5jD0sA2pE9gU", "hunter2",
])  # fmt: skip
def test_a_real_value_with_runs_or_a_dollar_is_no_placeholder(value):
    assert not placeholder(value)


def test_a_bearer_token_that_starts_with_a_run_is_still_redacted():
    token = ("AAAAAAAAAAAAAAAAAAAAAMLheAAAAAAA0%2BuSeid%2BULvsea4JtiGRiSDSJSI%3D"
             "EUifiRBkKG5E2XzMDjRfl76ZC9Ub0wnz4XsNiRVBChTYbJcE3F")
    done = redact_text(f"curl -H 'Authorization: Bearer {token}' https://api.twitter.example/2/tweets")
    assert done.found and token not in done.text


def test_every_label_is_read():
    for label, type_ in LABELS.items():
        done = redact_text(f"{label}: Kq7vR2xW9mZt")
        assert len(done.found) == 1 and "Kq7vR2xW9mZt" not in done.text, label
        assert done.found[0].type == type_ or done.found[0].rule != "rcaloop.label", (label, done.found)
        assert type_ in TYPES


def test_engine_rules_are_typed_and_id_rules_are_left_out():
    assert secret_engine.rule_type("betterleaks.github-pat") == "token"
    assert secret_engine.rule_type("betterleaks.private-key") == "private-key"
    assert secret_engine.rule_type("betterleaks.slack-webhook-url") == "webhook-url"
    assert secret_engine.rule_type("betterleaks.aws-access-token") == "aws-access-key"
    assert secret_engine.rule_type("veles.secrets/sendgrid") == "api-key"
    assert secret_engine.scan("client_id: 73082700-1f09-405b-80d0-3131bfd6272d AZURE_CLIENT_ID") == []
    hits = secret_engine.scan("x " * 3 + "glpat-Zx8Kq2LmW7pRt3VzY8bN ñ glpat-Zx8Kq2LmW7pRt3VzY8bN")
    assert [(h.start, h.end) for h in hits] == [(6, 32), (35, 61)]  # each place the word stands, in characters


def test_rule_ids_are_unique_and_named_for_the_project():
    ids = [rule.id for rule in RULES]
    assert len(ids) == len(set(ids)) and all(i.startswith("rcaloop.") for i in ids)


def test_a_scan_over_its_budget_stops_and_nothing_is_published():
    text = "password: Kq7vR2xW9mZt\n" * 10
    with pytest.raises(ScanBudgetExceeded) as err:
        redact_text(text, budget_s=1e-9)
    assert err.value.code == "scan_budget_exceeded" and "Kq7vR2xW9mZt" not in str(err.value)
    letter = DeadLetter(stream="s", group="g", message_id="1-0", fields={"payload": text}, error_code="x", error="e",
                        deliveries=1)
    with pytest.raises(ScanBudgetExceeded):
        redact_dead_letter(letter, budget_s=1e-9)
    kept = withheld(letter, "the secret scan of the entry took longer than its budget")
    assert "Kq7vR2xW9mZt" not in kept.model_dump_json()
    assert kept.fields["payload"].startswith(f"({len(text)} characters")


def test_a_record_scan_has_one_budget_for_all_its_parts():
    from rcaloop.contracts import RawResult  # noqa: PLC0415

    record = RawResult(result_id="r", kind="skill_text", content="password: Kq7vR2xW9mZt",
                       input_text="token: Zq8rT2vLw9Nc")
    with pytest.raises(ScanBudgetExceeded):
        redact_record(record, budget_s=1e-9)
    assert redact_record(record, budget_s=None)[1]


def test_hostile_repetition_is_judged_as_a_whole():
    """A line of ``?password=`` holds one password, the rest of the line; ``BEGIN`` lines with no
    ``END`` are one private key to the end; ``;passwd=`` repeated holds at most one."""
    query = "?password=" * 30_000
    done = redact_text(query, budget_s=None)
    assert [(f.type, f.line) for f in done.found] == [("password", 1)] and done.text.count("?password=") == 1
    armour = "-----BEGIN PRIVATE KEY-----\n" * 10_000
    done = redact_text(armour, budget_s=None)
    assert [(f.type, f.line) for f in done.found] == [("private-key", 1)] and "BEGIN" not in done.text
    assert done.text.count("\n") == armour.count("\n")  # every line kept, empty
    empty = ";passwd=" * 30_000
    done = redact_text(empty, budget_s=None)
    assert len(done.found) <= 1 and done.text.count(";passwd=") <= 1
