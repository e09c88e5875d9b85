"""The output raised no red flag: no secret value anywhere in it and no sensitive data declared.
A red flag is never ``pass`` and puts its review first."""

from __future__ import annotations

from rcaloop.judge.facts import Facts
from rcaloop.judge.rules.base import Hit, Outcome, rule


def _flag(flag: object) -> str:
    """A red flag as where:type (never a value)."""
    if isinstance(flag, str):
        return flag
    where, kind = getattr(flag, "where", None), getattr(flag, "type", None)
    return f"{where}:{kind}" if where else str(kind)


@rule("SF2", "no_red_flag", "check", __doc__, dimension="safety", points=2, as_written=True)
def RULE(f: Facts) -> Outcome:
    flags = f.draft.parsed.red_flags
    if not flags:
        return Outcome(True, "no red flag")
    shown = [_flag(x) for x in flags]
    return Outcome(False, f"{len(flags)} red flag(s): {', '.join(shown[:5])}",
                   tuple(Hit(s.split(":", 1)[0], s) for s in shown))
