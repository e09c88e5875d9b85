"""English: each concept's words, base forms only (inflections come from the lemmatizer).

Hyphens are not part of a word here (``sign-off``, ``re-run`` and ``dry-run`` are looked up as
``signoff``, ``rerun``, ``dryrun``); several words make a phrase, matched lemma by lemma.
"""

LANG = "en"

WORDS: dict[str, str] = {
    # -- what a step does ------------------------------------------------------------------------
    "check": """
        check, verify, confirm, inspect, list, view, read, compare, review, query, describe, watch, observe,
        monitor, search, grep, tail, find, investigate, examine, identify, determine, validate, audit, collect,
        gather, capture, analyse, analyze, diagnose, trace, probe, test, measure, count, sample, print, show,
        display, see, look, fetch, explore, browse, study, assess, evaluate, estimate, quantify, correlate,
        crosscheck, doublecheck, recheck, sweep, traceroute, mtr, compute, calculate, recompute, time, benchmark,
        reproduce, spotcheck, sanitycheck, poll, locate, enumerate, inventory, establish,
        ascertain, track, profile, scan, diff, dig, ping, chart, plot, graph, filter, tally, survey, reverify,
        grab, skim, eyeball, curl, dump, healthcheck, dryrun, dry run, verification, inspection, comparison,
        investigation, analysis, lookup, diagnosis, diagnostic, readout, glance, peek, rule out, look at,
        look into, look for, look through, look up, look over, take a look, have a look, take a peek,
        take a glance, have a peek, find out, figure out, work out, drill down,
        drill into, dig into, dig through, pull up, keep an eye, keep watch, check in, check on, check out,
        check for, check whether, check if, check that, status page, smoke test, health check, spot check""",
    "author": """
        upgrade, edit, update, set, change, modify, bump, raise, lower, increase, decrease, migrate, disable, enable,
        patch, merge, downgrade, replace, reconfigure, move, rename, block, unblock, add, allow, deny, fix, hotfix,
        correct, extend, tune, adjust, tweak, optimize, optimise, override, overwrite, write, pin, unpin, label,
        annotate, tag, untag, commit, ship, publish, unpublish, whitelist, allowlist, blacklist, denylist, ban,
        unban, route, point, split, consolidate, scrub, redact, configure, stub, mock, trim, rewrite, dial, ramp,
        unmask, mask, unset, ensure, set up, bump up, top up, dial down, dial up, ramp up, ramp down,
        make sure, refactor, alert, cap, limit, harden, repair, derive, require, put""",
    "operate": """
        restart, resize, scale, deploy, redeploy, rollback, promote, failover, rotate, revoke, delete, drop, remove,
        kill, stop, terminate, shutdown, reboot, drain, cordon, uncordon, evict, apply, push, revert, reset, purge,
        truncate, flush, clear, wipe, recreate, reinstall, install, uninstall, reload, toggle, switch, grant,
        silence, mute, snooze, pause, resume, suspend, reroute, rerun, retrigger, trigger, destroy, erase,
        reinitialize, reinitialise, reinit, rebuild, rebalance, reindex, vacuum, compact, defrag, reassign, release,
        unlock, lock, close, start, bounce, nuke, kick, recycle, respin, cycle, zap, restore, recover, heal,
        reenable, refresh, renew, regenerate, reissue, provision, deprovision, decommission, allocate, deallocate,
        attach, detach, mount, unmount, format, partition, expand, shrink, grow, insert, import, load, seed,
        backfill, reprocess, replay, requeue, retry, resend, redrive, dequeue, discard, expire, invalidate, prune,
        cleanup, freeze, unfreeze, thaw, quarantine, isolate, fence, unfence, taint, untaint, cancel, abort, halt,
        throttle, ratelimit, redirect, repoint, swap, flip, cut, shed, degrade, sync, resync, reconcile, rehydrate,
        repopulate, warm, prewarm, preload, upload, copy, reject, enroll, register, deregister, unregister, join,
        evacuate, relocate, transfer, reshard, rollout, undo, reapply, uncommit, shut, spin, tear, turn, wind, phase,
        power, failback, roll, reimage, flash, cutover, switchover, deactivate, activate, reactivate, delist, unlist,
        resubmit, force, dispose, rebase, reseed, respawn, reschedule, unschedule, reap, deletion, removal,
        migration, rotation, revocation, reinstallation, recreation, truncation, termination, teardown, eviction,
        promotion, reconfiguration, redeployment, roll back, roll out, roll forward, fail over, fail back, shut down,
        shut off, cut over, clean up, wipe out, free up, kick off, start up, warm up, put back, take over, take down,
        take offline, take out, wind down, phase out, tear down, get rid, kill off, scale up, scale down, scale out,
        scale in, spin up, spin down, bring up, bring down, bring back, bring online, bring offline, turn off,
        turn on, switch over, switch off, switch on, power cycle, power off, power on""",
    "inert": """
        note, record, document, ask, notify, page, escalate, wait, inform, tell, contact, message, email,
        mention, flag, report, share, communicate, coordinate, discuss, loop, assign, triage, acknowledge, ack,
        request, obtain, seek, draft, remember, expect, leave, skip, postpone, defer, delay, refrain, reply,
        respond, ssh, login, hold, announce, warn, brief, summarise, summarize, explain, clarify, understand, learn,
        think, reason, judge, stand, reach, hand, cc, notice, accept, tolerate, live with, treat, regard, consult,
        await, schedule, book, arrange,
        write down, note down, jot down, write up, back up, log in, log into, sign in, hold off, stand by,
        follow up, reach out, hand off, hand over, loop in, let know""",
    "advisory": """
        consider, try, attempt, recommend, suggest, propose, advise, begin, continue, proceed, plan, prepare,
        repeat, redo,
        aim, opt, choose, intend, go, feel, let, move on, go ahead""",
    "run": "run, execute, perform, do, invoke, launch, use, issue, fire, type, enter, paste",
    # -- the objects that decide a verb whose object says what it does ----------------------------
    "observability": """
        prometheus, grafana, kibana, loki, splunk, datadog, thanos, mimir, tempo, jaeger, elasticsearch, opensearch,
        cloudwatch, stackdriver, honeycomb, newrelic, sentry, pagerduty, alertmanager, victoriametrics, influxdb""",
    "view_object": """
        dashboard, graph, panel, log, console, trace, url, ui, metric, chart, link, file, output, session,
        shell, terminal, connection, explorer, page, tab, view, report""",
    "comms_object": """
        ticket, issue, incident, case, bug, jira, note, comment, postmortem, timeline, summary, message, thread,
        channel, doc, document, task, followup, reminder, discussion, status, statuspage, stakeholder, customer,
        team, retro, retrospective, entry, item, finding, context, detail, bridge, call, meeting, warroom,
        room, conversation, email, slack, question, concern, awareness, investigation, request, plan, runbook,
        docs, documentation, wiki, readme, checklist, postmortem note, faq""",
    "data_object": """
        dump, stack, backtrace, screenshot, evidence, data, number, event, information, info, value, export,
        excerpt, snippet, line, sample, result, capture, transcript, heap, state, config, configuration,
        version, baseline, reading, stat, statistic, description, setting, access, lag, count, list, diff,
        profile, heapdump, threaddump, pcap, flamegraph, histogram, measurement, telemetry, curve, issuance,
        history, record, audit""",
    "rerun_object": """
        job, pipeline, build, workflow, run, suite, stage, failed job, nightly, deploy job, release build,
        analysis, rca, diagnosis, query,
        jenkins job, ci job, template, playbook run, check mode""",
    "signal_object": """
        signal, sighup, sigterm, sigkill, sigint, sigusr1, sigusr2, sigquit, payload, traffic, endpoint, api,
        webhook, function, procedure, rpc, method, hook, command""",
    # -- guards: approval, review, impact, rollback ----------------------------------------------
    "approval": """
        approve, approval, signoff, sign off, goahead, greenlight, green light, consent, authorize, authorise,
        authorization, authorisation, permission, buyin, buy in, okay, ok, nod, blessing, confirmation, agree,
        agreement, sanction, decide, decision, prefer, want, approver, thumbsup, thumbs up, sayso, say so""",
    "change_process": """
        change request, change ticket, change record, change approval, change management, change process, cr,
        rfc, cab, change advisory board""",
    "review_route": """
        merge request, pull request, mr, pr, code review, review change, review merge request,
        review pull request, changeset, patch set, gerrit, gitops""",
    "repo_artifact": """
        test, lint, linter, ci, pipeline, workflow, code, manifest, chart, template, dockerfile, schema,
        alert rule, alerting rule, repo, repository, library, module,
        playbook, inventory, validation, validator, function, handler, loader, config file, helm chart,
        values file, policy, unit test, integration test, precommit, admission policy, recording rule, gate,
        alert, dashboard, runbook, checklist, doc, documentation, rule, chart test,
        kustomization, overlay, terraform, job definition, cronjob spec, role, default, spec""",
    "nobody": "default, design, itself, themselves, nobody, no one, bot, pipeline, system, automation, script, agent",
    "impact": """
        impact, affect, disrupt, disruption, interrupt, interruption, downtime, outage, blast radius,
        side effect, effect, consequence, risk, degradation, blip, unavailability, user facing, customer facing,
        brief error, lose, loss, unavailable, latency spike, drop request, fail request, nothing change,
        irreversible, for good, no way back, cannot be undo, gone, cost, worst case, make worse, make thing worse,
        make it worse, make matter worse, drop connection,
        evict, reschedule""",
    "affected": """
        user, customer, client, traffic, request, job, deploy, deployment, pod, connection, session, write, query,
        webhook, consumer, replica, node, worker, build, caller, tenant, order, payment, checkout, message,
        transaction, api call, in flight, inflight""",
    "rollback": """
        rollback, roll back, revert, undo, back out, backout, fallback, fall back, restore, reverse, reversible,
        restorable, revertible, undoable, recoverable""",
    "none_quantity": "none, nil, na, zero, minimal, negligible, nothing, little, no, low",
    # -- reading statements ----------------------------------------------------------------------
    "prohibition": """
        do not, dont, never, avoid, must not, mustnt, should not, shouldnt, no need to, refrain from,
        do nothing, nothing to do, not need, no action, no change, none need, not require, stop here""",
    "good_negated": "forget, hesitate, wait, delay, skip, omit, neglect, fail, postpone, defer",
    "uncertainty": """
        unknown, undetermined, unclear, inconclusive, unresolved, uncertain, unsure, undecided, indeterminate,
        unconfirmed, unverified, cannot tell, cannot say, cannot determine, cannot be determine,
        cannot be tell, not determine, not know, not clear, no root cause, no cause, not possible to tell,
        not possible to say, unable to determine, unable to tell, unable to say, no idea, not sure,
        not yet know, not yet clear, not yet determine, tbd, to be determine, cannot yet tell, cannot yet say,
        cannot confirm, unable to confirm, not confirm, no cause name, cannot name, not name a cause,
        cannot identify, unable to identify, not identify, not known""",
    "dismissal": """
        unrelated, irrelevant, immaterial, coincidental, coincidence, innocent, exonerate, red herring,
        distraction, false lead, false alarm, false trail, rule out, exclude, eliminate, nothing to do with,
        no role, no part, no effect, no bearing, no influence, play no, not the cause, not the culprit,
        not the trigger, not responsible, not related, not involve, not relevant, not at fault, not to blame,
        not a factor, not implicate, not explain, cannot explain, not cause, not contribute, unlikely, discard""",
    "healthy": """
        valid, healthy, normal, ok, okay, fine, unchanged, stable, nominal, succeed, success, successful, pass,
        green, available, reachable, working, intact, steady, flat, clean, benign, unexpired,
        untouched, consistent, expected, operational, all systems operational, no issue, no incident""",
    "symptom": """
        alert, incident, outage, down, degrade, degradation, latency, slow, slowness, spike, error, fail, failure,
        timeout, unavailable, unreachable, elevated, stuck, crashloop, crash, 5xx, 4xx, 500s, 502s, 503s, 504s, lag,
        backlog, page, fire, flap, broken, high, rate, rise, drop, miss""",
    "hedge": """
        provisional, tentative, preliminary, suspected, probable, possible, apparent, apparently, presumably,
        hypothesis, theory, best guess, working theory, leading hypothesis""",
    "causal": """
        because, due to, owing to, cause, caused by, culprit, suspect, blame, triggered by, result of,
        resulting from, lead to, led to, responsible for, root cause, likely, probably, point to, look like,
        appear to be, seem to be, must be, almost certainly, stem from, attributable, attribute, thanks to,
        come from, originate from, originate in, trace back to, traceable to, boil down to, down to,
        driven by, because of, on account of, as a result of, since, so, hence, therefore, thus, explain""",
    "input": """
        metric, log, log line, trace, event, data, access, permission, search, query, result, context,
        alert title, alert text, telemetry, sample, scrape, scraper, retention, window, visibility, tooling,
        collector, exporter, input, attachment, screenshot, evidence, information, detail, output, history,
        timeline, coverage, credential, signal, view, insight, observability""",
    "absence": """
        missing, lack, unavailable, gap, absent, block on, block by, wait on, wait for,
        no access, no data, not available, needed, required, outstanding, pending data""",
    "label_step": """
        now, next, then, fix, action, step, todo, to do, mitigation, remediation, immediate, first, finally, do,
        run, command, change, proposal, recommendation, workaround""",
    "person": """
        we, you, i, someone, somebody, operator, oncall, on call, sre, admin, administrator, engineer, owner,
        release manager, incident commander, change manager, service owner, product owner, platform owner,
        team, dba, lead, responder, user, ops, manager, commander, ic, reviewer, maintainer, approver, developer,
        dev, staff, human, us, they, he, she""",
    "filler": """
        please, also, then, first, firstly, next, now, immediately, finally, afterwards, afterward,
        additionally, optionally, just, again, asap, meanwhile, only, actually, maybe, perhaps, possibly,
        ideally, preferably, alternatively, otherwise, instead, still, further, second, secondly, third,
        thirdly, lastly, subsequently, temporarily, urgently, right away, quickly, already, thereafter, today,
        tonight, simply, carefully, manually, safely, gently, gradually, slowly, and, or, but, so, therefore,
        hence, thus, accordingly, step""",
    "weighed_against": """
        tempting, risky, dangerous, unsafe, pointless, unnecessary, overkill, premature, futile, useless, wrong,
        risk, cost, lose, break, hide, mask, hurt, wipe, destroy, defeat""",
    "after_the_fact": "retroactively, retroactive, ratify, post-hoc, posthoc, after the fact",
    "condition": """
        after, once, upon, following, having, when, whenever, if, unless, provided, assuming, given, while,
        where, wherever, whether, before, until, till, pending, subject to, only after, only if, only once,
        only when, as soon as, in case, prior to, ahead of, contingent on, conditional on, with, without""",
    "inability": """
        unable, cannot, cant, could not, couldnt, impossible, no way, not possible, not able, can not, fail to,
        did not manage""",
    "self_acting": "itself, themselves, own, automatically, alone, shortly, soon, eventually, naturally, unaided",
    "past_time": """
        yesterday, earlier, ago, previously, last week, last night, last time, last month, this morning,
        at the time, back then""",
    "modal": """
        should, must, need, ought, shall, will, would, can, could, may, might, have to, has to, want, require,
        warrant, going to, gonna, plan to""",
    "destructive": """
        delete, drop, purge, truncate, wipe, destroy, erase, flush, flushall, flushdb, prune, rm, reinit, format,
        discard, nuke, zap, resetoffsets, reset-offsets, shred, dropdb, deletion, purgeall, forceunlock""",
    # -- what a report heading names ------------------------------------------------------------
    "runtime": """
        restart, reboot, bounce, kill, drain, cordon, uncordon, evict, failover, fail over, flush, purge, truncate,
        wipe, stop, terminate, shutdown, shut down, scale, rollback, roll back, recycle, cycle, respin, drop,
        delete, destroy, erase, nuke, zap, kick, promote, reset, unlock, vacuum, reindex, rebalance""",
    "heading_check": """
        verify, verification, check, validate, validation, confirm, confirmation, investigate, investigation,
        triage, read only, step to verify, how to confirm, what to check, what we check,
        checklist, sanity, test""",
    "heading_action": """
        now, immediate, mitigation, mitigate, remediation, remediate, action, next step, recommendation,
        recommend, fix, response, respond, workaround, resolution, resolve, what to do, plan, recovery, recover,
        procedure, containment, contain, short term, todo, to do, step""",
    "heading_permanent": """
        permanent, longterm, long term, longer term, prevention, prevent, preventive, preventative, followup,
        follow up, harden, lesson, improvement, improve, future, durable, structural, action item,
        recurrence, going forward""",
    "heading_prohibition": "do not, dont, never, avoid, what not to do, not to do, caution",
    "heading_alternative": """
        alternative, hypothesis, ruled out, rule out, not the cause, other explanation, considered,
        differential, competing, other cause, candidate, why not, exclude, dismissed, less likely,
        not cause""",
    "heading_evidence": """
        evidence, signal, observation, finding, data, how we know, why we believe, proof, symptom, indicator,
        telemetry, log, metric, claim, what we see, supporting evidence, detail""",
    "heading_timeline": "timeline, chronology, sequence, sequence of event, event, what happened when",
    "heading_summary": """
        summary, tldr, tl dr, overview, abstract, executive summary, at a glance, headline, in short, in brief,
        short version, bottom line, synopsis, key point""",
    "heading_cause": """
        cause, root cause, what happened, why, diagnosis, explanation, mechanism, trigger, analysis,
        root cause analysis, rca""",
    "heading_factor": "contributing factor, factor, contributor, aggravating factor, why it got worse",
    "heading_context": """
        context, background, impact, customer impact, blast radius, scope, confidence, missing data, limitation,
        caveat, note, related, reference, link, harness notes, open question, unknown, gap, affected,
        environment, owner, glossary""",
}

OBJECTS: dict[str, tuple[tuple[str, str], ...]] = {
    "open": (("view_object", "check"), ("comms_object", "inert"), ("change_process", "inert"), ("", "change")),
    "create": (("comms_object", "inert"), ("change_process", "inert"), ("", "change")),
    "file": (("comms_object", "inert"), ("change_process", "inert"), ("", "change")),
    "raise": (("comms_object", "inert"), ("change_process", "inert"), ("", "change")),
    "submit": (("comms_object", "inert"), ("change_process", "inert"), ("", "change")),
    "write": (("comms_object", "inert"), ("", "change")),
    "log": (("comms_object", "inert"), ("", "inert")),
    "start": (("comms_object", "inert"), ("", "change")),
    "add": (("comms_object", "inert"), ("", "change")),
    "update": (("comms_object", "inert"), ("", "change")),
    "attach": (("data_object", "inert"), ("view_object", "inert"), ("", "change")),
    "provide": (("data_object", "inert"), ("view_object", "inert"), ("", "change")),
    "supply": (("data_object", "inert"), ("view_object", "inert"), ("", "change")),
    "paste": (("data_object", "inert"), ("view_object", "inert"), ("", "change")),
    "give": (("data_object", "inert"), ("view_object", "inert"), ("", "change")),
    "include": (("data_object", "inert"), ("view_object", "inert"), ("", "change")),
    "upload": (("data_object", "inert"), ("view_object", "inert"), ("", "change")),
    "get": (("approval", "inert"), ("data_object", "check"), ("view_object", "check"), ("", "change")),
    "take": (("comms_object", "inert"), ("", "check")),
    "make": (("comms_object", "inert"), ("", "change")),
    "follow": (("view_object", "check"), ("data_object", "check"), ("", "change")),
    "keep": (("view_object", "check"), ("", "inert")),
    "post": (("signal_object", "change"), ("", "inert")),
    "send": (("signal_object", "change"), ("", "inert")),
    "share": (("", "inert"),),
    "call": (("signal_object", "change"), ("", "inert")),
    "secure": (("approval", "inert"), ("", "change")),
    "need": (("", "inert"),),
    "rerun": (("comms_object", "inert"), ("check", "check"), ("rerun_object", "inert"), ("", "change")),
    "retry": (("check", "check"), ("rerun_object", "inert"), ("", "change")),
    "relaunch": (("rerun_object", "inert"), ("", "change")),
    "retrigger": (("rerun_object", "inert"), ("", "change")),
    "schedule": (("change", "change"), ("", "inert")),
    "pull": (("data_object", "check"), ("view_object", "check"), ("", "change")),
    "use": (("view_object", "check"), ("observability", "check"), ("", "change")),
    "book": (("change", "change"), ("", "inert")),
    "arrange": (("change", "change"), ("", "inert")),
}
"""Verbs whose object decides what they do (``open the dashboard`` reads, ``open port 5432`` changes,
``open a ticket`` only talks): the first concept the object names wins; ``""`` is the default."""

