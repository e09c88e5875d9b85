"""``match(catalog, text)``: which families' signatures an observation shows, supporting or refuting."""

from __future__ import annotations

import pytest

from rcaloop.contracts.catalog import FamilyCatalog
from rcaloop.shared.catalog import bundled_catalog
from rcaloop.shared.signatures import match, problems

CATALOG = bundled_catalog()

OOM_DESCRIBE = """Containers:
  api:
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       OOMKilled
      Exit Code:    137
"""


def _shown(text: str, catalog: FamilyCatalog = CATALOG) -> set[tuple[str, str, str]]:
    return {(m.family, m.stance, m.signature) for m in match(catalog, text)}


def test_a_genuine_oomkilled_line_supports_oom_kill_and_refutes_image_pull():
    shown = _shown(OOM_DESCRIBE)
    assert ("oom_kill", "supports", "container_state:OOMKilled") in shown
    assert ("oom_kill", "supports", "exit_code:137") in shown
    assert ("image_pull_failure", "refutes", "container_state:OOMKilled") in shown
    assert not any(family == "image_pull_failure" and stance == "supports" for family, stance, _ in shown)
    [first] = [m for m in match(CATALOG, OOM_DESCRIBE) if m.signature == "container_state:OOMKilled"
               and m.family == "oom_kill"]
    assert first.kind == "container_state" and first.text == "OOMKilled"


@pytest.mark.parametrize("text", ["Pending", "Status: Pending", "pod checkout-7d9 is Pending", "0/3 pods Running"])
def test_a_bare_status_matches_nothing(text):
    assert match(CATALOG, text) == []


@pytest.mark.parametrize("text", [
    "KubeDeploymentReplicasMismatch: Deployment prod/checkout has not matched the expected number of replicas for "
    "longer than 15 minutes. 1/3 replicas available",
    "KubePodNotReady: Pod prod/checkout-7d9f has been in a non-ready state for longer than 15 minutes.",
    "KubeStatefulSetReplicasMismatch: StatefulSet prod/pg has not matched the expected number of replicas for longer "
    "than 15 minutes.",
    "KubeDeploymentRolloutStuck: Rollout of deployment prod/checkout is not progressing for longer than 15 minutes.",
    "KubeContainerWaiting: pod/checkout-7d9f in namespace prod on container api has been in waiting state for longer "
    "than 1 hour.",
])
def test_a_restated_generic_alert_matches_nothing(text):
    assert match(CATALOG, text) == []


@pytest.mark.parametrize("text", ["no OOMKilled events in the last hour", "the pod was not OOMKilled",
                                  "without any OOMKilled container", "0 OOMKilled containers"])
def test_a_negated_signature_is_not_shown(text):
    assert not any(m.family == "oom_kill" for m in match(CATALOG, text))


def test_a_negation_on_another_line_does_not_hide_a_signature():
    assert ("oom_kill", "supports",
            "container_state:OOMKilled") in _shown("no restarts before 10:02\nReason: OOMKilled")


@pytest.mark.parametrize("text", ["Exit Code: 137", "exitCode: 137", "exited with code 137", "exit status 137",
                                  "Exited (137) 2 minutes ago", "command terminated with exit code 137"])
def test_an_exit_code_is_found_where_the_text_says_it_is_one(text):
    assert ("oom_kill", "supports", "exit_code:137") in _shown(text)


@pytest.mark.parametrize("text", ["port 137 open", "request took 137 ms", "exit code 1370", "HTTP 137"])
def test_a_number_alone_is_no_exit_code(text):
    assert not any(m.kind == "exit_code" for m in match(CATALOG, text))


def test_a_reason_is_a_whole_word():
    catalog = _catalog(supports=[{"kind": "event_reason", "reason": "BackOff"}])
    assert _shown("Warning  BackOff  kubelet  Back-off restarting failed container", catalog)
    assert _shown("State: Waiting, Reason: CrashLoopBackOff", catalog) == set()


def test_a_metric_is_shown_by_a_sample_meeting_its_condition_and_labels():
    pending = "hikaricp_connections_pending{pool=\"orders\"} 37"
    assert ("db_connection_pool_exhaustion", "supports", "metric:hikaricp_connections_pending>0") in _shown(pending)
    idle = _shown("hikaricp_connections_pending{pool=\"orders\"} 0")
    assert ("db_connection_pool_exhaustion", "refutes", "metric:hikaricp_connections_pending==0") in idle
    assert not any(s == "supports" for f, s, _ in idle if f == "db_connection_pool_exhaustion")
    assert _shown("graph of hikaricp_connections_pending over the last hour") == set()  # named, no value
    labelled = 'kube_pod_container_status_waiting_reason{namespace="prod",reason="ImagePullBackOff"} 1'
    assert ("image_pull_failure", "supports",
            'metric:kube_pod_container_status_waiting_reason{reason="ImagePullBackOff"}>0') in _shown(labelled)
    other_reason = 'kube_pod_container_status_waiting_reason{namespace="prod",reason="ContainerCreating"} 1'
    assert _shown(other_reason) == set()
    assert ("db_replication_lag", "supports", "metric:pg_replication_lag_seconds>30") in _shown(
        "pg_replication_lag_seconds=412.5")


def test_log_patterns_are_case_insensitive_unless_the_signature_says():
    assert ("storage_volume_full", "supports", "log_pattern:No space left on device") in _shown(
        "write /var/lib/pg/base/1: NO SPACE LEFT ON DEVICE")
    assert not any(m.family == "cloud_api_throttling" for m in match(CATALOG, "please slowdown the client"))
    assert ("cloud_api_throttling", "supports", "log_pattern:SlowDown") in _shown("S3 answered SlowDown (503)")


def test_every_signature_of_the_bundled_catalog_can_be_shown():
    """No dead signature: each one is found, for its family and stance, in a line that shows it."""
    for family in CATALOG.families:
        for stance, signatures in (("supports", family.supports), ("refutes", family.refutes)):
            for signature in signatures:
                line = _example(signature)
                if line is None:
                    continue
                assert (family.name, stance, signature.key) in _shown(line), (family.name, signature.key, line)


@pytest.mark.timeout(20)
def test_matching_is_linear_even_for_a_pattern_that_backtracks_elsewhere():
    """``(x+x+)+y`` takes exponential time in a backtracking engine on a run of x; RE2 reads it once."""
    catalog = _catalog(supports=[{"kind": "log_pattern", "pattern": "(x+x+)+y", "regex": True}])
    assert match(catalog, "x" * 50_000) == []
    assert match(catalog, "x" * 50_000 + "y")[0].family == "demo_family"


def test_expressions_re2_cannot_run_in_linear_time_are_refused():
    for pattern in (r"(a)\1", "(?=abc)abc", "(?<!x)abc"):
        catalog = _catalog(supports=[{"kind": "log_pattern", "pattern": pattern, "regex": True}])
        [problem] = problems(catalog)
        assert "demo_family" in problem and "not an RE2 expression" in problem
    assert problems(CATALOG) == []


def _catalog(supports: list[dict]) -> FamilyCatalog:
    return FamilyCatalog.model_validate({"version": "test.1", "families": [{
        "name": "demo_family", "category": "unknown", "title": "Demo", "summary": "A family for one test.",
        "supports": supports, "sources": [{"title": "none", "url": "https://example.org/"}],
    }]})


def _example(signature) -> str | None:
    """A line that shows ``signature``, as the evidence a collector returns would."""
    if signature.kind == "event_reason":
        return f"Warning  {signature.reason}  12s  kubelet  something happened"
    if signature.kind == "container_state":
        return f"Reason:       {signature.state}"
    if signature.kind == "exit_code":
        return f"Exit Code:    {signature.code}"
    if signature.kind == "log_pattern":
        return None if signature.regex else f"2026-12-07T10:02:03Z ERROR {signature.pattern} (request 7)"
    labels = ",".join(f'{k}="{v}"' for k, v in signature.labels.items())
    value = {">": signature.threshold + 1, ">=": signature.threshold, "<": signature.threshold - 1,
             "<=": signature.threshold, "==": signature.threshold, "!=": signature.threshold + 1}[signature.op]
    return f"{signature.name}{{{labels}}} {value:.15g}"
