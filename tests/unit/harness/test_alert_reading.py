"""How the judge reads an alert: whether it is a generic status alert, its targets and their namespace,
and which observations restate it (gate G4 and the symptom of every evidence item)."""

from __future__ import annotations

import pytest

from rcaloop.judge import alert


@pytest.mark.parametrize("text, status", [
    ("deployment payments in prod has 1/3 replicas available", "1/3 replicas"),
    ("KubeDeploymentReplicasMismatch deployment payments", "replicas mismatch"),
    ("KubePodNotReady pod=shop-prod/checkout-7f9d4c8b6-x2kq4", "not ready"),
    # a failed task's name says what it meant to do; its outcome is what happened
    ("job search/reindex status failed\nfailed task Restore replicas and check on runner-01: "
     "Assertion failed: replay_lag is 1874 s (budget 300 s)", None),
    # names and label keys are not status words
    ("FIRING: MySQLReplicationLag replicas=db-a-03,db-a-04 primary=db-b-02 lag=1874", None),
    ("Assertion failed: replay_lag for pg-forum-replica-2 is 1874 s", None),
    # an error named inside an identifier is an error of the alert's own
    ("failed task SLO gate: boot_api_error_ratio=0.22 (threshold 0.02); rollout halted", None),
    ("KubeReplicaSetFailedCreate namespaces=orders reason=FailedCreate", None),
    ("Timeout (3600s) waiting for reassignment of payments.ledger-events: 41 of 64 still in progress", "waiting"),
])
def test_generic_status_reads_what_the_alert_reports(text, status):
    assert alert.generic_status(text) == status


@pytest.mark.parametrize("text, targets, namespaces", [
    ("deployment payments in prod has 1/3 replicas available", ("payments",), ("prod",)),
    ("KubePodNotReady pod=shop-prod/checkout-7f9d4c8b6-x2kq4", ("checkout",), ("shop-prod",)),
    ("kubectl argo rollouts status pricing-api -n pricing --timeout 15m", ("pricing-api",), ("pricing",)),
    ("MySQLReplicaDetached replicas=db-meta3-ash-03,db-meta3-ash-04 primary=db-meta3-sea-02",
     ("db-meta3-ash", "db-meta3-sea"), ()),
])
def test_targets_and_namespaces_of_an_alert(text, targets, namespaces):
    assert alert.of_alert(text) == targets
    assert alert.namespaces(text) == namespaces


def test_an_observation_in_another_namespace_is_not_of_the_target():
    assert alert.elsewhere(("prod",), ("payments",), "kubectl -n staging describe pod payments-55d")
    assert alert.elsewhere(("prod",), ("payments",), 'kube_pod_info{namespace="staging",pod="payments-55d"} 1')
    assert not alert.elsewhere(("prod",), ("payments",), "kubectl -n prod describe pod payments-55d")
    assert not alert.elsewhere(("prod",), ("payments",), "kubectl describe pod payments-55d")  # names none
    assert not alert.elsewhere((), ("payments",), "kubectl -n staging describe pod payments-55d")


ALERT = ("npm ERR! command git ls-remote git://github.com/acme/legacy-charts.git\n"
         "npm ERR! fatal: remote error: The unauthenticated git protocol on port 9418 is no longer supported.")


@pytest.mark.parametrize("text, restated", [
    ("fatal: remote error: The unauthenticated git protocol on port 9418 is no longer supported.", True),
    # the manifest line the failure is about shares the alert's URL but reports nothing
    ('"legacy-charts": "git://github.com/acme/legacy-charts.git#v2.3.1",', False),
    ("ls-remote git://github.com/acme/legacy-charts.git timed out", True),
])
def test_restating_the_alert_means_reporting_what_it_reports(text, restated):
    assert alert.restates(ALERT, text) is restated


def test_a_metric_that_repeats_the_alerts_value_restates_it():
    fired = "FIRING: KafkaDiskUsageHigh broker=kafka-2 mount=/var/lib/kafka used=94% threshold=90%"
    assert alert.restates(fired, "kafka-2 /var/lib/kafka 94% used")
    assert not alert.restates(fired, "kafka-2 /var/lib/kafka retention.bytes unset")


def test_the_failed_runs_own_item_about_the_failed_task_is_the_failure():
    fired = "failed task Login to vault and fetch cluster credentials on bastion-01: permission denied (403)"
    start = "task start: Login to vault and fetch cluster credentials"
    assert not alert.restates(fired, start)  # another collector quoting the task's name reports nothing
    assert alert.restates(fired, start, same_run=True)  # the run's own start line is the failed task itself


def test_a_title_that_names_the_target_does_not_make_a_text_about_another_workload_its_observation():
    assert alert.names_another(("payments",), "pod checkout-7f9c4-x2kq4: Failed to pull image checkout:3.1.0")
    assert not alert.names_another(("payments",), "Failed to pull image payments:1.9.3: manifest unknown")
    assert not alert.names_another(("report-renderer",), 'File "/app/app/compat.py", line 4, in <module>')
