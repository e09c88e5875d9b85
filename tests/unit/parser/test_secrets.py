"""The one secret detector (``rcaloop.shared.secrets``): what it finds, what it leaves, and
that every place rcaloop stores or logs text goes through it."""

from __future__ import annotations

import json

import pytest
import structlog

from rcaloop.contracts import DeadLetter, EvidenceArtifact, RawResult, analysis_hash
from rcaloop.ingestion import core as ingestion
from rcaloop.ingestion.app import dead_letter
from rcaloop.shared.logs import configure_logging
from rcaloop.shared.secrets import (
    TYPES,
    redact_dead_letter,
    redact_json,
    redact_record,
    redact_text,
)
from tests.unit.parser.helpers import BASE, EXAMPLES, parse

SECRETS = {
    "aws-access-key": "AKIAQ3EGRT7PLMN4XWZY",
    "github": "ghp_R8mZq2LvX9tWc4NbY7kHs1JdF6gPa3Ue5Ko0",
    "gitlab": "glpat-x9Kq2LmW7pRt3VzY8bNc",
    "slack-token": "xoxb-2044721865-4096212837-Zq8rT2vLw9NcY4bHk6sMd3Jx",
    "stripe": "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "telegram": "5829104473:AAFj3kR9wXq2LmZ8vN4tYb6Hc1Ud7Pe0Sgo",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZXBsb3kifQ.Q2xv7bN9fK3sT8wYpR4mZ1cV6hJ0dL5gX2aE7uI9oWq",
    "sendgrid": "SG.aBcDeFgHiJkLmNoPqRsTuV.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789aBcDeFg",
}
LINES = [
    ("aws key {aws-access-key} in the log", "aws-access-key", "{aws-access-key}"),
    ("GH_TOKEN={github}", "token", "{github}"),
    ("push with {gitlab}", "token", "{gitlab}"),
    ("bot {slack-token}", "token", "{slack-token}"),
    ("stripe {stripe}", "api-key", "{stripe}"),
    ("telegram {telegram} bot", "token", "{telegram}"),
    ("Authorization: Bearer {jwt}", "token", "{jwt}"),
    ("sendgrid {sendgrid}", "api-key", "{sendgrid}"),
    ("db_password = 'Pool-Secret-8812'", "password", "Pool-Secret-8812"),
    ("  password: correcthorsebattery", "password", "correcthorsebattery"),
    ("**Password:** Ch3ck0ut!2026", "password", "Ch3ck0ut!2026"),
    ("x-api-key: 9f8e7d6c5b4a39281706", "api-key", "9f8e7d6c5b4a39281706"),
    ("postgres://checkout:Pg5ecretW0rd@db:5432/shop", "connection-string", "Pg5ecretW0rd"),
    ("redis://:Rd5ecretW0rd@cache:6379", "connection-string", "Rd5ecretW0rd"),
    ("https://hooks.slack.com/services/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", "webhook-url", "Xq8ZrT2vLw9NcY4bHk6sMd3J"),
    ("https://discord.com/api/webhooks/1234567890/AbCdEf-GhIjKl_MnOpQrStUvWxYz0123", "webhook-url", "AbCdEf-GhIjKl"),
    ("https://chat.example/hooks/a1b2c3d4e5f6g7h8i9j0k1l2m3", "webhook-url", "a1b2c3d4e5f6g7h8i9j0k1l2m3"),
    ("GET https://api.example/v1/x?page=2&access_token=Zx81Kq0LmW7pRt3V", "token", "Zx81Kq0LmW7pRt3V"),
    ("key AKIAQ3EGRT7P\u200bLMN4XWZY split", "aws-access-key", "LMN4XWZY"),
    ("the bastion (used password: wyNiPorvVrWncgkb) since", "password", "wyNiPorvVrWncgkb"),
    ("secret_id was reset; password: 7zZ9BcrHGA36uFxN now", "password", "7zZ9BcrHGA36uFxN"),
]


def _fill(text: str) -> str:
    for name, value in SECRETS.items():
        text = text.replace("{" + name + "}", value)
    return text


@pytest.mark.parametrize(("line", "type_", "value"), LINES, ids=[t for _, t, _ in LINES])
def test_each_kind_is_found_typed_and_redacted(line, type_, value):
    line, value = _fill(line), _fill(value)
    done = redact_text("before\n" + line + "\nafter")
    assert [t for t, _ in done.found] == [type_] and done.found[0][1] == 2
    assert value not in done.text and f"[REDACTED:{type_}]" in done.text
    assert done.text.startswith("before\n") and done.text.endswith("\nafter")
    assert type_ in TYPES
    again = redact_text(done.text)  # idempotent: the marker reads back as the same finding
    assert again.text == done.text and again.found == done.found


@pytest.mark.parametrize(
    "text",
    [
        "vault audit: `rotate secret/payments/webhook-signing` at 08:10",
        "the secret: payments/webhook-signing was rotated",
        "password: rotated yesterday by the on-call",
        "Secrets: none; token: none",
        'role reads secret_id: "{{ vault_secret_id }}" and api_key=${CHECKOUT_API_KEY}',
        "api_key_id: 1234567",
        "sensitive_data: config:private-key, logs:token",
        "commit 9d1e0a7c4b2f8e6a1d3c5b7e9f0a2c4e6b8d0f1a, see /srv/checkouts/shop/notifier/keys.py line 88",
        "https://git.example/org/shop/blob/4f2c9e1/notifier/hooks/webhook_sender.py#L3",
    ],
)
def test_secret_words_without_secret_values_are_left_alone(text):
    assert redact_text(text).found == () and redact_text(text).text == text


def test_a_private_key_is_redacted_whole_and_lines_are_kept():
    key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgO\nVTLw7onLRnrq0/IzW7yWR7Q=\n-----END RSA PRIVATE KEY-----"
    done = redact_text(f"# t\n\n{key}\nline 7")
    assert done.found == (("private-key", 3),)
    assert "MIIE" not in done.text and "VTLw" not in done.text and "END RSA" not in done.text
    assert done.text.split("\n")[6] == "line 7"


def test_json_paths_name_where_and_a_secret_named_key_is_an_assignment():
    doc = {
        "summary": "uses " + SECRETS["stripe"],
        "claims": [{"id": "C1", "text": "ok"}, {"id": "C2", "text": "Bearer " + SECRETS["jwt"]}],
        "extra_vars": {"db_password": "Wint3r-Pool-42", "cluster_env": "test"},
        "log": "line 1\nline 2 " + SECRETS["aws-access-key"],
    }
    redacted, found = redact_json(doc, "capture")
    assert [(s.type, s.where, s.line) for s in found] == [
        ("api-key", "capture.summary", None),
        ("token", "capture.claims[C2].text", None),
        ("password", "capture.extra_vars.db_password", None),
        ("aws-access-key", "capture.log", 2),
    ]
    dumped = json.dumps(redacted)
    assert all(v not in dumped for v in (SECRETS["stripe"], SECRETS["jwt"], "Wint3r-Pool-42", SECRETS["aws-access-key"]))
    assert doc["extra_vars"]["db_password"] == "Wint3r-Pool-42"  # the input is not changed
    assert redact_json(redacted, "capture")[0] == redacted


def test_ingestion_publishes_redacted_content_and_keeps_the_hash_of_what_it_received():
    content = BASE.replace("cfg-2291 set the pool", "cfg-2291 (" + SECRETS["github"] + ") set the pool")
    raw = RawResult(
        result_id="r-1",
        kind="skill_text",
        content=content,
        input_text="alert\npassword: Hunter2Hunter2",
        evidence=[EvidenceArtifact(id="E01", source="loki", text="token=" + SECRETS["slack-token"])],
    )
    record = ingestion.ingest(ingestion.assess(raw))
    assert record.analysis_hash == analysis_hash("skill_text", content)
    dumped = record.model_dump_json()
    assert SECRETS["github"] not in dumped and "Hunter2Hunter2" not in dumped and SECRETS["slack-token"] not in dumped
    flags = parse(record.content, input_text=record.input_text, evidence=record.evidence).red_flags
    assert [(f.type, f.where, f.source) for f in flags] == [
        ("token", "chat", "detected"),
        ("password", "input", "detected"),
        ("token", "evidence[E01].text", "detected"),
    ]
    assert flags == parse(content, input_text=raw.input_text, evidence=raw.evidence).red_flags  # same flags offline


def test_dead_letters_are_stored_redacted():
    raw = RawResult(result_id="r-2", kind="skill_text", content="   ", input_text="key " + SECRETS["aws-access-key"])
    letter = dead_letter(raw, ingestion.validate(raw)).model
    assert SECRETS["aws-access-key"] not in letter.model_dump_json()
    assert "[REDACTED:aws-access-key]" in letter.fields["payload"]
    plain = DeadLetter(
        stream="s", group="g", message_id="1-0", fields={"payload": "not json " + SECRETS["stripe"]},
        error_code="handler_error", error="ValueError: bad key " + SECRETS["github"], deliveries=3,
    )
    redacted = redact_dead_letter(plain)
    assert SECRETS["stripe"] not in redacted.fields["payload"] and SECRETS["github"] not in redacted.error


def test_log_events_are_redacted(capsys):
    log = configure_logging("test")
    try:
        log.warning("handler_failed", error="ValueError: " + SECRETS["stripe"], password="Hunter2Hunter2", n=3)
    finally:
        structlog.reset_defaults()
    line = capsys.readouterr().err
    assert SECRETS["stripe"] not in line and "Hunter2Hunter2" not in line
    event = json.loads(line.strip().splitlines()[-1])
    assert event["password"] == "[REDACTED:password]" and event["n"] == 3


def test_the_bundled_leak_sample_flags_only_what_it_declares():
    flags = parse((EXAMPLES / "skill_outputs" / "payments-webhook-leak.txt").read_text()).red_flags
    assert [(f.code, f.type, f.where, f.source) for f in flags] == [
        ("RCA307", "webhook-url", "history", "declared"),
        ("RCA307", "private-key", "config", "declared"),
    ]


def test_a_record_without_secrets_is_returned_as_is():
    raw = RawResult(result_id="r-3", kind="skill_text", content=BASE)
    assert redact_record(raw) == (raw, [])
