"""German items are read by their own reader: the verb comes last, a participle reports, a sentence that names
no step carries the item's approval and guidance (``rcaloop.judge.reading.german``)."""

from __future__ import annotations

import pytest

from rcaloop.judge.reading import german
from rcaloop.judge.reading.items import read
from rcaloop.judge.reading.places import Role, heading_role
from rcaloop.judge.reading.steps import ACTION, STATEMENT


@pytest.mark.parametrize("text, german_", [
    ("Timer fleetweit maskieren. Freigabe Platform-On-Call-Lead. Rückweg: unmask", True),
    ("Die Pods neu starten, danach die Logs prüfen.", True),
    ("`cilium-health` meldet die betroffenen Nodes als unreachable. Im Log steht `no route to host`.", True),
    ("Restart the pods after the on-call approves; impact: 30 s of 502s.", False),
    ("The pods die under load and the node is drained.", False),
])
def test_a_german_text_is_told_by_its_words(text, german_):
    assert german.is_german(text) is german_


@pytest.mark.parametrize("text, role, verb", [
    ("Die PVCs löschen und den Job neu starten.", ACTION, "losch"),  # the infinitive at the end proposes
    ("cilium-agent neu starten, erst `prd-b-1187`, dann Batches zu 25.", ACTION, "neustart"),
    ("Wir haben die Pods bereits neu gestartet, die Logs sind sauber.", ACTION, None),  # a report
    ("Der networkd-Neustart entfernt fremde Routing-Policy-Regeln.", STATEMENT, None),  # it does, no one is told
    ("Die Pods nicht neu starten, solange der Scheduler voll ist.", ACTION, None),  # forbidden
    ("Nach der Entwarnung den Smoke-Job erneut starten.", ACTION, None),  # the same run again
    ("Den Dienst umschalten, um die Route zu setzen.", ACTION, "umschalt"),  # "um … zu setzen" says what for
    ("Logs der betroffenen Nodes prüfen und vergleichen.", ACTION, None),  # checks
])
def test_a_german_step_is_read_by_its_verb_and_its_form(text, role, verb):
    reading = read(text, role)
    assert (reading.change.verb if reading.change else None) == verb


@pytest.mark.parametrize("text, approved, guided", [
    ("Timer maskieren. Freigabe Platform-On-Call-Lead, Security informiert. Auswirkung: keine Auto-Updates. "
     "Rückweg: unmask", True, True),
    ("Nach Freigabe durch den IC die Pods neu starten. Auswirkung: 10 bis 30 s pro Node.", True, True),
    ("Die Pods neu starten (gleiche Freigabe). Auswirkung: 30 s.", False, True),  # same approval: read in sequence
    ("Die Pods neu starten, ohne Freigabe. Auswirkung: 30 s.", False, True),
    ("Die Pods neu starten, Freigabe nachträglich. Rückweg: alte Version.", False, True),
    ("Die Pods neu starten. Freigabe: ich. Rückweg: alte Version.", False, True),  # the author's own
    ("Die PVCs löschen. Freigabe durch den DBA. Auswirkung: keine.", True, False),  # dismissed, no reason
])
def test_german_guards_are_the_approval_and_guidance_a_sentence_states(text, approved, guided):
    reading = read(text, ACTION)
    assert reading.change is not None
    assert (reading.approval, reading.impact) == (approved, guided)


def test_a_dismissed_impact_waves_off_a_destructive_german_step():
    reading = read("Die PVCs löschen. Freigabe durch den DBA. Auswirkung: keine.", ACTION)
    assert reading.destructive and reading.waved_off


@pytest.mark.parametrize("heading, role", [
    ("Befund", Role.EVIDENCE), ("Maßnahmen", Role.ACTION), ("Verworfen", Role.ALTERNATIVE),
    ("Ausgeschlossene Alternativen", Role.ALTERNATIVE), ("Dauerhaft", Role.PERMANENT),
    ("Zeitlinie (UTC)", Role.TIMELINE), ("Zusammenfassung", Role.SUMMARY), ("Nicht tun", Role.PROHIBITION),
])
def test_german_headings_name_their_roles(heading, role):
    assert heading_role(heading) is role
