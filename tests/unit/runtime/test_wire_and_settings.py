"""Wire decoding errors and settings hygiene (no Redis needed)."""

from __future__ import annotations

import pytest

from rcaloop.contracts import RawResult
from rcaloop.shared.settings import RuntimeSettings, redact_url
from rcaloop.shared.wire import PayloadError, decode, encode


def test_round_trip_keeps_the_model():
    result = RawResult(result_id="r-1", kind="skill_text", content="# t")
    assert decode(encode(result, producer="agent-x"), RawResult) == result


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"data": "x"}, "missing_payload"),
        ({"payload": "{"}, "invalid_json"),
        ({"payload": "[1, 2]"}, "invalid_shape"),
        ({"payload": '{"schema_version": 9}'}, "unsupported_schema_version"),
        ({"payload": '{"result_id": "ok", "kind": "video", "content": ""}'}, "contract_violation"),
    ],
)
def test_unreadable_payloads_raise_with_a_stable_code(fields, code):
    with pytest.raises(PayloadError) as info:
        decode(fields, RawResult)
    assert info.value.code == code


def test_contract_violation_names_the_field():
    with pytest.raises(PayloadError, match="kind"):
        decode({"payload": '{"result_id": "ok", "kind": "video", "content": ""}'}, RawResult)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://:s3cret@cache:6380/0", "redis://:***@cache:6380/0"),
        ("rediss://app:s3cret@cache.example/1", "rediss://app:***@cache.example/1"),
        ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
    ],
)
def test_redis_url_password_is_never_shown(url, shown):
    assert redact_url(url) == shown


def test_settings_never_print_the_redis_password(monkeypatch):
    monkeypatch.setenv("REDIS_URL", "rediss://app:hunter2@cache.example:6380/0")
    settings = RuntimeSettings()
    assert "hunter2" not in repr(settings) and "hunter2" not in str(settings.model_dump())
    assert settings.redis_url.get_secret_value().startswith("rediss://")
