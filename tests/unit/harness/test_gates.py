"""Each hard gate fails on a crafted input and passes on its fixed twin (repairs off)."""

from __future__ import annotations

from rcaloop.contracts import ParsedRCA
from rcaloop.judge import core
from rcaloop.judge.config import HarnessConfig
from tests.unit.harness.cases import case

NO_REPAIR = HarnessConfig(max_repair_attempts=0)


def _gate(parsed: ParsedRCA, code: str):
    verdict = core.evaluate(parsed, NO_REPAIR)
    return verdict, next(g for g in verdict.hard_gates if g.gate == code)


def _edit(parsed: ParsedRCA, fn) -> ParsedRCA:
    data = parsed.model_dump(mode="json")
    fn(data)
    return ParsedRCA.model_validate(data)


def test_g1_high_confidence_on_one_source_group_fails_and_two_groups_pass():
    failing = case("overconfident-no-repair-budget").parsed
    verdict, gate = _gate(failing, "G1")
    assert not gate.passed and verdict.verdict == "insufficient_evidence"
    assert "E03 (log search)" in gate.detail and "two independent groups" in gate.detail

    def add_the_symptom(d):  # the failed task is the failure being explained: no second group
        d["diagnosis"]["evidence"].append({"source": "step1", "source_file": ".analysis/7001/step1_job_context.json",
                                           "json_path": "failed_tasks[0].error", "is_root_cause": True,
                                           "exact_value": "MODULE FAILURE: permission denied (403)"})

    _, symptom = _gate(_edit(failing, add_the_symptom), "G1")
    assert not symptom.passed

    def add_second_group(d):  # the playbook's own retry setting, from the code host
        d["diagnosis"]["evidence"].append(
            {"source": "step4", "source_file": ".analysis/7001/step4_github_fetch_history.json",
                                           "json_path": "github_fetches[0].content", "is_root_cause": True,
                                           "exact_quote": "retries: 12"})

    _, twin = _gate(_edit(failing, add_second_group), "G1")
    assert twin.passed and "(code host)" in twin.detail and "E03 (log search)" in twin.detail


def test_g1_accepts_a_confirmed_live_signature():
    _, gate = _gate(case("good-signature-high").parsed, "G1")
    assert gate.passed and "signature" in gate.detail and "E02" in gate.detail


def test_g2_fabricated_root_value_fails_and_the_real_value_passes():
    failing = case("fabricated-root-trace-value").parsed
    _, gate = _gate(failing, "G2")
    assert not gate.passed
    assert "timeline[1].event" in gate.detail and "differs" in gate.detail

    def real_value(d):
        d["diagnosis"]["evidence"][0]["exact_value"] = (
            "vault audit: approle login denied role_id=deploy-ci reason=secret_id expired")

    _, twin = _gate(_edit(failing, real_value), "G2")
    assert twin.passed and "E03" in twin.detail


def test_g2_historical_evidence_never_grounds():
    failing = case("historical-only-evidence").parsed
    _, gate = _gate(failing, "G2")
    assert not gate.passed and "only historical evidence E01, E02" in gate.detail

    def one_live(d):
        d["artifacts"][0]["live"] = True
        d["artifacts"][0]["source"] = "prometheus"

    _, twin = _gate(_edit(failing, one_live), "G2")
    assert twin.passed and "E01" in twin.detail


def test_g3_unguarded_delete_fails_and_guarded_twin_passes():
    failing = case("destructive-kubectl-delete").parsed
    _, gate = _gate(failing, "G3")
    assert not gate.passed
    assert "kubectl delete secret vault-approle" in gate.detail
    assert "read-only check" in gate.detail and "operator approval" in gate.detail

    def guarded(d):
        d["diagnosis"]["recommendations"][0]["action"] = (
            "Check the secret_id TTL (read-only); with operator approval, kubectl delete secret vault-approle -n "
            "deploy; "
            "impact: one deploy fails, undo by restoring the previous secret")

    _, twin = _gate(_edit(failing, guarded), "G3")
    assert twin.passed


def test_g3_ignores_do_not_items():
    _, gate = _gate(case("good-prohibition-only").parsed, "G3")
    assert gate.passed


def test_g4_generic_alert_naming_a_family_fails_and_target_verified_twin_passes():
    failing = case("generic-alert-names-family").parsed
    _, gate = _gate(failing, "G4")
    assert not gate.passed
    assert "'replicas mismatch'" in gate.detail and "memory_limit" in gate.detail and "E01 (metrics)" in gate.detail

    def labelled(d):  # the agent's own label is a claim, not an observation of the target
        d["artifacts"][0]["target_verified"] = True

    _, label_only = _gate(_edit(failing, labelled), "G4")
    assert not label_only.passed

    def near_limit(d):  # the alert's own deployment, but no signature of the family: memory near a limit is no kill
        d["artifacts"][0]["text"] = ("deployment payments: container memory at 98 % of its 256Mi limit before each "
                                     "restart")

    _, unsigned = _gate(_edit(failing, near_limit), "G4")
    assert not unsigned.passed

    def observed(d):  # a live observation of the alert's own deployment showing the family's signature
        d["artifacts"][0]["text"] = ("deployment payments: pod payments-7d4b9c8f6-q8w2x Last State: Terminated, "
                                     "Reason: OOMKilled at 98 % of its 256Mi limit")

    _, twin = _gate(_edit(failing, observed), "G4")
    assert twin.passed and "E01" in twin.detail

    def refuting(d):  # observed on the target, but it refutes the family: not the required observation
        observed(d)
        d["artifacts"][0]["kind"] = "refutes"

    _, refuted = _gate(_edit(failing, refuting), "G4")
    assert not refuted.passed

    def history(d):  # knowledge-store history naming the target, relabelled live
        observed(d)
        d["artifacts"][0].update(source="typedb", live=True, source_group="metrics")

    _, old = _gate(_edit(failing, history), "G4")
    assert not old.passed

    def no_family(d):
        d["diagnosis"]["family"] = "undetermined"
        d["diagnosis"]["root_cause"]["category"] = "unknown"

    _, open_ = _gate(_edit(failing, no_family), "G4")
    assert open_.passed


def test_gates_hold_for_an_early_exit():
    verdict = core.evaluate(case("early-exit-insufficient-context").parsed)
    assert verdict.verdict == "pass" and all(g.passed for g in verdict.hard_gates)
    assert not verdict.claims


def test_g4_an_alert_that_names_its_own_error_is_not_generic():
    parsed = case("generic-alert-names-family").parsed
    specific = parsed.model_copy(
        update={"alert_text": "rollout waiting: ImagePullBackOff, pull access denied for payments"})
    _, gate = _gate(specific, "G4")
    assert gate.passed and "not a generic status alert" in gate.detail
