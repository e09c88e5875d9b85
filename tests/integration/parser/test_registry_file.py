"""The registry file adapter: clear errors, and the service's reload on change."""

from __future__ import annotations

import json
import os

import pytest

from rcaloop.parser.registry_file import RegistryError, RegistrySource, load_registry


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{oops", "invalid JSON"),
        ("[]", "must be a JSON object"),
        ('{"projects": {"shop": {"checkouts": ["relative/path"]}}}', "projects.shop.checkouts"),
        ('{"rcas": {"r": {"url": "file:///etc/passwd"}}}', "must be an http"),
    ],
)
def test_unusable_registry_files_say_why(tmp_path, content, message):
    path = tmp_path / "registry.json"
    path.write_text(content)
    with pytest.raises(RegistryError, match=message):
        load_registry(path)
    with pytest.raises(RegistryError, match="not found"):
        load_registry(tmp_path / "missing.json")


def test_source_rereads_a_changed_file_and_keeps_the_last_good_one(tmp_path):
    path = tmp_path / "registry.json"
    path.write_text(json.dumps({"messages": {"m-1": {"author": "bot", "url": "https://chat.example/m/1"}}}))
    source = RegistrySource(path)
    assert set(source.current().messages) == {"m-1"}
    path.write_text(json.dumps({"messages": {"m-2": {"author": "bot", "url": "https://chat.example/m/2"}}}))
    os.utime(path, (1, 1))  # a different mtime, whatever the clock's resolution
    assert set(source.current().messages) == {"m-2"}
    path.write_text("{broken")
    os.utime(path, (2, 2))
    assert set(source.current().messages) == {"m-2"}
    assert RegistrySource(None).current() is None
