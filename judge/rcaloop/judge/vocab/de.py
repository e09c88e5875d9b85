"""German: each concept's stems, matched at the start of a word (lower case).

German puts an instruction's verb last, in the infinitive (``Timer fleetweit maskieren``,
``cilium-agent neu starten``), joins a separable prefix to it (``neustarten``, ``zurückrollen``)
and reports with a participle (``gelöscht``, ``neu gestartet``); ``rcaloop.judge.reading.german``
reads a word by its stem and its form. Loan verbs keep their English stem (``rebooten``,
``cordonen``, ``downgraden``). Entries are written with their umlauts and folded when loaded
(``prüf`` → ``pruf``), as every line the judge reads is.
"""

LANG = "de"

WORDS: dict[str, str] = {
    "check": """
        prüf, überprüf, vergleich, kontrollier, verifizier, anseh, anschau, nachseh, nachschau, abfrag, auslese,
        lesen, zählen, mess, beobacht, bestätig, check, durchsuch, ermittel, klär, teste, reproduzier, schauen,
        sichte, abgleich, inspizier, untersuch, analysier""",
    "author": """
        ändern, änderung, anpass, setzen, erhöh, senken, reduzier, hinzufüg, ergänz, aktivier, deaktivier, maskier,
        pinnen, fixier, patchen, konfigurier, umstell, ersetz, austausch, eintrag, überschreib, mergen, committen,
        pushen, hochsetz, runtersetz, anheb, absenk""",
    "operate": """
        neustart, neu start, starten, stoppen, anhalten, lösch, entfern, zurückroll, zurück roll, zurücksetz,
        zurückdreh, ausroll, deploy, reboot, cordon, uncordon, drain, skalier, umschalt, failover, leeren, migrier,
        wiederherstell, einspiel, rotier, sperren, entsperr, beenden, killen, ausführ, installier, deinstallier,
        downgrad, upgrad, aktualisier, restart, neu ausroll, neu deploy""",
    "destructive": "lösch, entfern, leeren, zurücksetz, vernicht, verwerf, bereinig, purge, wipe, drop, flush",
    "approval": """
        freigabe, freigeben, freigibt, gibt frei, geben frei, genehmig, zustimm, abnahme, abgesegnet, okay von, ok von,
        sign-off, signoff, approval""",
    "after_the_fact": "nachträglich, rückwirkend, im nachhinein, danach eingeholt",
    "nobody": "ich, selbst, bot, pipeline, automatisch, niemand",
    "impact": """
        auswirkung, ausfall, unterbrechung, betroffen, downtime, risiko, folge, impact, einschränkung,
        verzögerung, kapazität, last""",
    # the way back named as such; a rollback stated as one ("Rollback: …") is read by its form
    "rollback": "rückweg, rückgängig, rücknahme, rückbau, undo",
    "rerun_object": "job, pipeline, build, lauf, workflow, testlauf, durchlauf",
    "none_quantity": "keine, kein, keiner, nichts, null, entfällt",
    "prohibition": "nicht, niemals, nie, verboten, untersagt, unterlassen, auf keinen fall",
    "past_time": "wurde, wurden, worden, ist, sind, hat, haben, hatte, war, waren, bereits, schon, gestern",
    "heading_check": "prüfung, prüfschritte, verifikation, überprüfung, zu prüfen, checkliste, kontrolle",
    "heading_action": """
        sofort, maßnahme, jetzt, nächste schritte, empfehlung, vorschlag, abhilfe, behebung, vorgehen, kurzfristig""",
    "heading_permanent": "dauerhaft, langfristig, nachhaltig, prävention, vorbeugung, nachbereitung",
    "heading_prohibition": "nicht tun, verboten, bitte nicht, nicht machen",
    "heading_alternative": "alternative, ausgeschlossen, hypothese, andere ursache, verworfen",
    "heading_evidence": "beleg, befund, beobachtung, daten, evidenz, nachweis, indiz, signal",
    "heading_timeline": "zeitlinie, zeitverlauf, ablauf, chronologie, zeitstrahl",
    "heading_summary": "zusammenfassung, kurzfassung, überblick",
    "heading_cause": "ursache, grundursache, analyse, hergang, auslöser, mechanismus",
    "heading_factor": "begünstigend, faktor, beitragend, verschärfend",
    "heading_context": "kontext, hintergrund, auswirkungen, umfang, einschränkungen, offene fragen, konfidenz, lücke",
}
