"""JUMPBOX_URI parsing and job id safety (no network, no disk)."""

from __future__ import annotations

import pytest

from rcaloop.shared.jumpbox import (
    ERRORS, JumpboxError, JumpboxTarget, check_job_id, parse_jumpbox_uri, remote_dir, JumpboxSettings,
)


@pytest.mark.parametrize(
    ("uri", "target"),
    [
        ("user@host -p 2222", JumpboxTarget("host", 2222, "user")),
        ("user@jump.example.com", JumpboxTarget("jump.example.com", None, "user")),
        ("jumpbox", JumpboxTarget("jumpbox")),
        ("-p 2200 ops@10.0.0.5", JumpboxTarget("10.0.0.5", 2200, "ops")),
        ("ops@host -p2222 -i ~/.ssh/jump_ed25519", JumpboxTarget("host", 2222, "ops", "~/.ssh/jump_ed25519")),
        ("host -l ops", JumpboxTarget("host", None, "ops")),
        ("ssh://ops@host:2222", JumpboxTarget("host", 2222, "ops")),
    ],
)
def test_jumpbox_uri_forms(uri, target):
    assert parse_jumpbox_uri(uri) == target


@pytest.mark.parametrize(
    ("uri", "fragment"),
    [
        ("", "names no host"),
        ("user@host -p", "-p needs a value"),
        ("user@host -p 99999", "port must be 1-65535"),
        ("user@host -o StrictHostKeyChecking=no", "unsupported option -o"),
        ("a@h1 b@h2", "more than one host"),
        ("user:hunter2@host", "must not contain a password"),
        ("ssh://user:hunter2@host", "must not contain a password"),
        ("user@host 'unclosed", "not valid shell words"),
        ("sftp://user:hunter2@host:2222/srv", "unsupported URL scheme sftp://"),
    ],
)
def test_bad_jumpbox_uri_is_a_clear_error_that_never_echoes_a_password(uri, fragment):
    with pytest.raises(JumpboxError) as info:
        parse_jumpbox_uri(uri)
    assert info.value.code == "invalid_jumpbox_uri" and info.value.exit_code == 2
    assert fragment in info.value.message
    assert "hunter2" not in info.value.message


@pytest.mark.parametrize("job_id",
                         ["../../etc", "/etc/passwd", "..", "a/b", "a\\b", ".hidden", "x y", "", "a\x00b", "j" * 129,
                          "ok\n"])
def test_unsafe_job_ids_are_refused(job_id):
    with pytest.raises(JumpboxError) as info:
        check_job_id(job_id)
    assert info.value.code == "invalid_job_id" and info.value.exit_code == 2


def test_safe_job_id_stays_inside_the_remote_root():
    assert check_job_id("1234567") == "1234567"
    assert remote_dir("job-42_a.b", JumpboxSettings(jumpbox_root="/usr/local/mlflow")) == "/usr/local/mlflow/job-42_a.b"


def test_error_catalog_has_unique_codes_and_distinct_exit_codes_per_family():
    codes = [e.code for e in ERRORS]
    assert len(codes) == len(set(codes))
    by_code = {e.code: e.exit_code for e in ERRORS}
    families = [
        {"invalid_job_id"},
        {"remote_dir_missing"},
        {"required_file_missing"},
        {"connection_refused"},
        {"auth_failed"},
        {"host_key_unknown", "host_key_mismatch"},
    ]
    exits = [{by_code[c] for c in family} for family in families]
    assert all(len(e) == 1 for e in exits)
    assert len({next(iter(e)) for e in exits}) == len(families)  # each problem its own exit code
    assert 0 not in by_code.values() and 1 not in by_code.values()
