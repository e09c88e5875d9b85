"""The words of steps: which verbs check, which change, which only record or talk.

A verb not listed is judged by where it stands: at the head of an imperative step it
changes something (fail closed: ``Bounce the pods``, ``Nuke the cache``).
"""

from __future__ import annotations

from enum import IntEnum


class Kind(IntEnum):
    """What a clause does, from harmless to dangerous (the larger wins when two readings meet)."""

    INERT = 0  # proposes nothing to run: a note, a message, a statement, an approval request
    CHECK = 1  # a read-only check of the system
    CHANGE = 2  # a mutating or stopping action (or one not shown to be read-only)


CHECK_VERBS = frozenset({
    "check", "verify", "confirm", "inspect", "list", "view", "read", "compare", "review", "query", "describe", "watch",
    "observe", "monitor", "search", "grep", "tail", "find", "investigate", "examine", "identify", "determine",
    "validate", "audit", "collect", "gather", "capture", "analyse", "analyze", "diagnose", "trace", "probe", "test",
    "measure", "count", "sample", "print", "show", "display", "see", "look", "fetch", "explore", "browse", "study",
    "assess", "evaluate", "estimate", "quantify", "correlate", "cross-check", "double-check", "recheck", "re-check",
    "spot-check", "sanity-check", "poll", "locate", "enumerate", "inventory", "establish", "ascertain", "track",
    "profile", "scan", "diff", "dig", "ping", "chart", "plot", "graph", "filter", "tally",
    "doublecheck", "crosscheck", "survey", "time", "re-verify", "reverify", "grab",
})
"""Read-only checks of the system: they count as the check gate 3 asks for."""

INERT_VERBS = frozenset({
    "note", "record", "document", "ask", "notify", "page", "escalate", "wait", "inform", "tell", "alert", "contact",
    "message", "email", "mention", "flag", "report", "share", "communicate", "coordinate", "discuss", "loop",
    "assign", "decide", "choose", "select", "pick", "prioritise", "prioritize", "triage", "agree", "acknowledge",
    "ack", "request", "obtain", "seek", "draft", "propose", "suggest", "recommend", "consider", "remember",
    "expect", "leave", "skip", "postpone", "defer", "delay", "refrain", "reply", "respond", "ssh", "log", "login",
    "announce", "warn", "brief", "summarise", "summarize", "explain", "clarify", "understand", "learn",
    "think", "reason", "judge", "stand", "reach", "hand", "cc", "notice", "consult", "await", "plan", "schedule",
    "book", "arrange",
})
"""Steps that neither check nor change the system: notes, messages, waiting, asking."""

CHANGE_VERBS = frozenset({
    "restart", "upgrade", "edit", "update", "set", "change", "modify", "bump", "raise", "lower", "increase", "decrease",
    "resize", "scale", "deploy", "redeploy", "rollback", "promote", "failover", "migrate", "rotate", "revoke", "delete",
    "drop", "remove", "kill", "stop", "terminate", "shutdown", "reboot", "drain", "cordon", "uncordon", "evict",
    "disable", "enable", "apply", "patch", "push", "merge", "revert", "reset", "purge", "truncate", "flush", "clear",
    "wipe", "recreate", "reinstall", "install", "uninstall", "downgrade", "replace", "reconfigure", "reload", "toggle",
    "switch", "move", "rename", "grant", "block", "unblock", "silence", "mute", "snooze", "pause", "resume", "suspend",
    "reroute", "rerun", "re-run", "retrigger", "trigger", "add", "destroy", "erase", "reinitialize", "reinitialise",
    "reinit", "rebuild", "rebalance", "reindex", "vacuum", "compact", "defrag", "reassign", "release", "unlock", "lock",
    "allow", "deny", "close", "start", "bounce", "nuke", "kick", "recycle", "respin", "cycle", "zap", "fix", "hotfix",
    "correct", "repair", "restore", "recover", "heal", "re-enable", "redeploy", "re-deploy", "refresh", "renew",
    "regenerate", "reissue", "re-issue", "provision", "deprovision", "decommission", "allocate", "deallocate", "attach",
    "detach", "mount", "unmount", "format", "partition", "extend", "expand", "shrink", "grow", "tune", "adjust",
    "tweak", "optimize", "optimise", "override", "overwrite", "write", "insert", "import", "load", "seed", "backfill",
    "reprocess", "replay", "requeue", "re-queue", "retry", "resend", "redrive", "dequeue", "discard", "expire",
    "invalidate", "prune", "clean", "cleanup", "pin", "unpin", "freeze", "unfreeze", "thaw", "quarantine", "isolate",
    "fence", "unfence", "taint", "untaint", "label", "annotate", "tag", "untag", "commit", "ship", "publish",
    "unpublish", "cancel", "abort", "halt", "throttle", "rate-limit", "whitelist", "allowlist", "blacklist",
    "denylist", "ban", "unban", "route", "redirect", "repoint", "point", "swap", "flip", "cut", "shed", "degrade",
    "sync", "resync", "re-sync", "reconcile", "rehydrate", "repopulate", "warm", "prewarm", "preload", "upload",
    "copy", "approve", "reject", "enroll", "register", "deregister", "unregister", "join", "evacuate", "relocate",
    "transfer", "reshard", "split", "consolidate", "scrub", "redact", "rollout", "undo", "re-apply", "reapply",
    "uncommit", "configure", "open", "create", "file", "submit", "post", "send", "run", "execute", "perform", "do",
    "invoke", "launch", "use", "make", "take", "get", "secure", "call", "hold", "let", "ensure", "connect", "try",
    "shut", "spin", "tear", "bring", "turn", "wind", "phase", "power", "failback", "fail", "roll", "follow",
    "prepare", "keep", "sign",
    "de-register", "reimage", "re-image", "flash", "stub", "mock", "trim", "rewrite",
    "re-create", "re-install", "re-index", "re-balance", "scale-down", "scale-up", "scale-out",
    "scale-in", "cutover", "switchover", "dial", "ramp", "top", "put", "deactivate", "activate", "reactivate",
    "delist", "unlist", "unmask", "mask", "unset", "resubmit", "re-submit", "force", "provide", "supply", "paste",
    "give", "include", "dispose",
})
"""Mutating or stopping actions (many more are caught by failing closed on unknown heads)."""

PHRASAL: dict[tuple[str, str], Kind] = {
    **dict.fromkeys([("look", p) for p in ("at", "into", "for", "through", "up", "over", "around")], Kind.CHECK),
    **dict.fromkeys([("check", p) for p in ("in", "on", "out", "up", "for", "whether", "if", "that")], Kind.CHECK),
    ("find", "out"): Kind.CHECK, ("figure", "out"): Kind.CHECK, ("work", "out"): Kind.CHECK,
    ("rule", "out"): Kind.CHECK, ("drill", "down"): Kind.CHECK, ("drill", "into"): Kind.CHECK,
    ("dig", "into"): Kind.CHECK, ("dig", "through"): Kind.CHECK, ("pull", "up"): Kind.CHECK,
    ("write", "down"): Kind.INERT, ("note", "down"): Kind.INERT, ("jot", "down"): Kind.INERT,
    ("write", "up"): Kind.INERT, ("back", "up"): Kind.INERT, ("log", "in"): Kind.INERT, ("log", "into"): Kind.INERT,
    ("sign", "in"): Kind.INERT, ("sign", "off"): Kind.INERT, ("hold", "off"): Kind.INERT, ("stand", "by"): Kind.INERT,
    ("follow", "up"): Kind.INERT, ("reach", "out"): Kind.INERT, ("hand", "off"): Kind.INERT,
    ("hand", "over"): Kind.INERT, ("loop", "in"): Kind.INERT, ("keep", "watching"): Kind.CHECK,
    ("roll", "back"): Kind.CHANGE, ("roll", "out"): Kind.CHANGE, ("roll", "forward"): Kind.CHANGE,
    ("fail", "over"): Kind.CHANGE, ("fail", "back"): Kind.CHANGE, ("shut", "down"): Kind.CHANGE,
    ("shut", "off"): Kind.CHANGE, ("cut", "over"): Kind.CHANGE, ("clean", "up"): Kind.CHANGE,
    ("wipe", "out"): Kind.CHANGE, ("free", "up"): Kind.CHANGE, ("kick", "off"): Kind.CHANGE,
    ("set", "up"): Kind.CHANGE, ("start", "up"): Kind.CHANGE, ("warm", "up"): Kind.CHANGE,
    ("bump", "up"): Kind.CHANGE, ("top", "up"): Kind.CHANGE, ("put", "back"): Kind.CHANGE,
    ("take", "over"): Kind.CHANGE, ("take", "down"): Kind.CHANGE, ("take", "offline"): Kind.CHANGE,
    ("take", "out"): Kind.CHANGE, ("wind", "down"): Kind.CHANGE, ("phase", "out"): Kind.CHANGE,
    **dict.fromkeys([(v, p) for v in ("scale", "spin", "ramp", "dial", "bring", "power", "turn", "switch")
                     for p in ("up", "down", "out", "in", "off", "on", "back", "over", "cycle", "online", "offline")],
                    Kind.CHANGE),
    ("tear", "down"): Kind.CHANGE, ("get", "rid"): Kind.CHANGE, ("kill", "off"): Kind.CHANGE,
}
"""Two-word verbs whose particle decides (``write down`` records, ``write`` changes)."""

CHANGE_NOUNS = frozenset({
    "restart", "restarts", "reboot", "rollback", "roll-back", "redeploy", "redeployment", "failover", "fail-over",
    "cutover", "cut-over", "upgrade", "downgrade", "migration", "deletion", "removal", "purge", "flush", "wipe",
    "reset",
    "resize", "scale-up", "scale-down", "scale-out", "drain", "cordon", "eviction", "rotation", "revocation",
    "reinstall", "reinstallation", "uninstall", "shutdown", "recreation", "truncation", "cleanup", "clean-up",
    "hotfix", "bump", "increase", "decrease", "rebuild", "reindex", "vacuum", "compaction", "defrag", "failback",
    "switchover", "promotion", "termination", "teardown", "restore", "rerun", "re-run", "replay", "backfill",
    "reprocess", "resync", "rebalance", "reshard", "reload", "revert", "bounce", "kill", "patch", "fix", "change",
    "rollout", "redeploys", "reboots", "deploy", "raise", "reconfiguration", "override",
})
"""Nouns that name a change: ``a rolling restart``, ``the fix is a rollback``."""

CHECK_NOUNS = frozenset({
    "check", "checks", "healthcheck", "health-check", "dry-run", "dryrun", "diff", "query", "queries", "review",
    "audit", "inspection", "verification", "comparison", "investigation", "analysis", "lookup", "scan", "test", "tests",
    "survey", "look", "glance", "read", "readout", "diagnosis", "diagnostics", "probe", "trace", "plan", "select",
    "explain", "smoke", "sanity", "status",
})

FILLERS = frozenset({
    "please", "also", "then", "first", "firstly", "next", "now", "immediately", "finally", "afterwards", "afterward",
    "additionally", "optionally", "just", "again", "asap", "and", "or", "but", "so", "meanwhile", "only", "actually",
    "maybe", "perhaps", "possibly", "probably", "ideally", "preferably", "alternatively", "otherwise", "instead",
    "still", "further", "second", "secondly", "third", "thirdly", "lastly", "subsequently", "step", "then,",
    "temporarily", "urgently", "right", "away", "quickly", "already", "thereafter", "eventually", "today", "tonight",
})
"""Words before the head verb that change nothing about it (and ``-ly`` adverbs)."""
MODIFIERS = frozenset({"double", "cross", "spot", "sanity", "quick", "re", "visual", "manual", "brief", "careful",
                       "read-only", "readonly", "non-destructive", "safe", "passive"})
"""Words that may stand before a check verb (``double check``) without hiding a change."""

DETERMINERS = frozenset({
    "the", "a", "an", "this", "that", "these", "those", "its", "their", "his", "her", "our", "your", "my", "all",
    "every", "each", "any", "some", "both", "it", "them", "him", "everything", "anything", "whatever", "one", "no",
    "another", "other", "current", "old", "new", "stuck", "failing", "affected", "bad", "broken", "stale", "idle",
})
"""Words after an unknown word that show it is a verb with an object (``bounce the pods``)."""

SUBJECTS = frozenset({
    "the", "a", "an", "this", "that", "these", "those", "its", "their", "his", "her", "our", "your", "my", "it",
    "they", "he", "she", "we", "you", "i", "there", "here", "some", "any", "each", "every", "both", "all", "none",
    "nothing", "nobody", "someone", "somebody", "everyone", "everything", "one", "most", "many", "few", "several",
    "such", "no", "not", "it's", "there's", "that's", "what", "which", "who", "why", "how", "whether",
})
PEOPLE = frozenset({"we", "you", "i", "someone", "somebody", "operator", "operators", "on-call", "oncall", "sre",
                    "sres",
                    "admin", "admins", "administrator", "engineer", "engineers", "owner", "owners", "team", "dba",
                    "dbas", "lead", "responder", "responders", "user", "ops", "you'll", "we'll", "i'll", "let's"})
COPULAS = frozenset({"is", "are", "was", "were", "be", "been", "being", "am", "isn't", "aren't", "wasn't", "weren't",
                     "seems", "seem", "appears", "appear", "remains", "remain", "stays", "becomes", "become", "looks",
                     "has", "have", "had", "hasn't", "haven't", "hadn't", "does", "doesn't", "did", "didn't", "gets",
                     "got", "'s", "'re", "shows", "indicates", "means", "suggests", "confirms", "matches", "equals",
                     "exceeds", "reached", "hit", "hits"})
MODALS = frozenset({"should", "must", "need", "needs", "ought", "shall", "will", "would", "can", "could", "may",
                    "might",
                    "won't", "can't", "cannot", "shouldn't", "mustn't", "wouldn't", "couldn't", "'ll", "has", "have",
                    "requires", "require", "warrants", "want", "wants"})
DIRECTIVE_MODALS = frozenset({"should", "must", "need", "needs", "ought", "shall", "has", "have", "requires",
                              "require", "warrants", "want", "wants", "mustn't", "shouldn't"})
NEGATIONS = frozenset({"not", "never", "no", "don't", "dont", "doesn't", "shouldn't", "mustn't", "won't", "can't",
                       "cannot", "isn't", "aren't", "wasn't", "weren't", "without", "avoid", "avoiding", "refrain",
                       "neither", "nor", "didn't", "hasn't", "haven't", "unnecessary", "unsafe", "dangerous", "risky",
                       "premature", "pointless"})
PROPOSAL_SUBJECTS = frozenset({"fix", "solution", "remedy", "workaround", "mitigation", "step", "action",
                               "recommendation", "plan", "option", "course", "answer", "way", "approach", "move",
                               "resolution", "remediation", "suggestion", "proposal", "change", "next"})
PROPOSAL_WORDS = frozenset({"needed", "required", "recommended", "advised", "suggested", "necessary", "warranted",
                            "advisable", "proposed", "planned", "scheduled", "best", "safest", "wise", "fix",
                            "solution",
                            "remedy", "workaround", "next", "mitigation", "way", "answer", "only", "right", "due",
                            "overdue", "pending", "in", "order", "appropriate", "needs", "worth"})
ADVISORY = frozenset({"consider", "try", "attempt", "recommend", "suggest", "propose", "advise", "want", "need",
                      "start", "begin", "continue", "proceed", "remember", "plan", "prepare", "aim", "opt", "choose",
                      "decide", "intend", "go", "feel", "be", "let's", "let", "resume", "keep", "ensure", "make",
                      "don't", "do", "move"})
"""Verbs whose complement is the real step: ``consider increasing``, ``try to bounce``, ``plan a restart``."""
GOOD_NEGATED = frozenset({"forget", "hesitate", "wait", "delay", "skip", "omit", "neglect", "fail", "postpone",
                          "put", "hold", "defer"})
"""``Don't forget to restart``: a negated verb of these proposes its complement."""
PROHIBITIONS = ("do not", "don't", "dont", "never", "avoid", "must not", "mustn't", "should not", "shouldn't",
                "no need to", "there is no need to", "refrain from", "do nothing", "nothing to do", "not needed",
                "no action", "no change", "no changes", "no restart", "none needed", "not required", "stop here")

IRREGULAR = {
    "ran": "run", "shut": "shut", "set": "set", "reset": "reset", "rebuilt": "rebuild", "rewritten": "rewrite",
    "rewrote": "rewrite", "torn": "tear", "tore": "tear", "taken": "take", "took": "take", "brought": "bring",
    "done": "do", "did": "do", "made": "make", "got": "get", "gotten": "get", "put": "put", "cut": "cut",
    "split": "split", "written": "write", "wrote": "write", "undone": "undo", "undid": "undo", "reran": "rerun",
    "left": "leave", "kept": "keep", "sent": "send", "spun": "spin", "shown": "show", "seen": "see", "saw": "see",
    "found": "find", "held": "hold", "began": "begin", "begun": "begin", "chose": "choose", "chosen": "choose",
    "upheld": "uphold", "overridden": "override", "overrode": "override", "rolled": "roll", "let": "let",
    "frozen": "freeze", "froze": "freeze", "rerouted": "reroute", "rewound": "rewind", "wound": "wind",
}
