"""The family catalog contract and the bundled catalog every release ships."""

from __future__ import annotations

import copy

import pytest
from pydantic import ValidationError

from rcaloop.contracts.catalog import FamilyCatalog
from rcaloop.shared.catalog import CatalogError, bundled_catalog, load_catalog

BUNDLED = bundled_catalog()
REQUIRED = [  # the common families a catalog must know, by name or alias
    "image_pull_failure", "oom_kill", "crash_loop", "probe_failure", "unschedulable", "resource_quota",
    "storage_volume_full", "node_pressure", "pod_eviction", "bad_deploy", "config_error",
    "db_connection_pool_exhaustion",
    "db_lock_contention", "db_replication_lag", "db_disk_full", "txid_wraparound", "dns_resolution_failure",
    "network_connectivity", "tls_certificate_expired", "credential_expired", "credential_rotated", "credential_revoked",
    "secret_missing", "cloud_api_throttling", "upstream_5xx", "cloud_quota_exceeded", "ci_runner_lost",
    "registry_rate_limit", "package_mirror_unavailable",
]


def test_the_bundled_catalog_holds_the_common_families_each_with_sources_and_probes():
    assert len(BUNDLED.families) >= 30
    assert [name for name in REQUIRED if BUNDLED.family(name) is None] == []
    for family in BUNDLED.families:
        assert family.sources and all(s.url.startswith("https://") for s in family.sources), family.name
        assert family.probe_template_ids, family.name
    assert sum(1 for f in BUNDLED.families if f.refutes) >= 30


def test_families_are_found_by_name_or_alias_however_written():
    assert BUNDLED.family("OOMKilled").name == "oom_kill"
    assert BUNDLED.family("Image-Pull failure").name == "image_pull_failure"
    assert BUNDLED.family("memory_limit").name == "oom_kill"
    assert BUNDLED.family("novel_mechanism") is None


def _data() -> dict:
    return copy.deepcopy(BUNDLED.model_dump(mode="json", exclude_none=True))


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["families"].append(d["families"][0]), "names both"),
    (lambda d: d["families"][1]["aliases"].append("oom_killed"), "names both"),
    (lambda d: d["families"][0]["probe_template_ids"].append("k8s.nope"), "unknown probe templates"),
    (lambda d: d["families"][0]["refutes"].append(d["families"][0]["supports"][0]), "both supports and refutes"),
    (lambda d: d["families"][0]["supports"][0].update(reason="x"), "Extra inputs"),
    (lambda d: d["families"][0].update(sources=[]), "at least 1"),
    (lambda d: d["families"][0]["supports"].append({"kind": "exit_code", "code": 300}), "less than or equal to 255"),
    (lambda d: d["families"][0]["supports"].append({"kind": "event_reason", "reason": "oom killed"}), "pattern"),
])
def test_a_malformed_catalog_is_refused_with_the_reason(edit, message):
    data = _data()
    edit(data)
    with pytest.raises(ValidationError, match=message):
        FamilyCatalog.model_validate(data)


def test_a_catalog_file_names_its_first_problem_and_rejects_expressions_re2_refuses():
    with pytest.raises(CatalogError, match="not YAML"):
        load_catalog("version: [", "proposal.yaml")
    with pytest.raises(CatalogError, match=r"proposal.yaml: 1 problem\(s\); first at version"):
        load_catalog("version: '' \nfamilies: []\n".replace("families: []", "families: " + _families_yaml()),
                     "proposal.yaml")
    bad = _data()
    bad["families"][0]["supports"].append({"kind": "log_pattern", "pattern": "(a)\\1", "regex": True})
    import json  # noqa: PLC0415

    with pytest.raises(CatalogError, match="not an RE2 expression"):
        load_catalog(json.dumps(bad))


def test_the_digest_tells_contents_apart():
    changed = _data()
    changed["families"][0]["summary"] += " (edited)"
    assert FamilyCatalog.model_validate(_data()).digest() == BUNDLED.digest()
    assert FamilyCatalog.model_validate(changed).digest() != BUNDLED.digest()


def _families_yaml() -> str:
    import json  # noqa: PLC0415

    return json.dumps(_data()["families"])
