"""Which catalog signatures an observation's text shows: ``match(catalog, text)``.

Pure and linear in the text: every signature of the catalog is compiled once (per catalog
content) into one RE2 set, which finds in a single pass which signatures occur at all; only
those are then searched again for where they occur. RE2 runs in time linear in its input
whatever the pattern (no backtracking), so no observation can stall the judge.

How each kind of signature is found:

* ``event_reason`` / ``container_state``: the reason as one whole word, case as the API
  writes it (``BackOff`` is not found inside ``CrashLoopBackOff``);
* ``exit_code``: the number only where the text says it is an exit code (``exit code 137``,
  ``exitCode: 137``, ``exited with 137``, ``Exited (137)``) — never a bare ``137``;
* ``log_pattern``: a substring, case-insensitive unless the signature says otherwise, or an
  RE2 regular expression;
* ``metric``: a sample of the metric — ``name{labels} value``, ``name=value``, ``name: value``
  (a ``%`` after the value is ignored) — whose labels include the signature's and whose value
  meets its condition; a metric named without a value shows nothing.

An occurrence preceded on its line by a negation (``no``, ``not``, ``never``, ``without``,
``zero``, ``0``) within three words (``no OOMKilled events``) is not shown. What the match
means — whether the observation is about the alert's target, restates the alert, is live —
is for the judge to decide; this module only reads text.
"""

from __future__ import annotations

import operator
import re as stdlib_re
from collections.abc import Callable
from dataclasses import dataclass
from threading import Lock
from typing import Any

import re2

from rcaloop.contracts.catalog import FamilyCatalog, Metric, Signature, SignatureKind, Stance

MAX_SHOWN = 200
"""Characters of the matched text kept in a ``SignatureMatch``."""
_NEGATION = stdlib_re.compile(r"(?:^|[^\w])(?:no|not|never|without|zero|0)(?:\s+[\w./:-]+){0,3}\s*[\"'(\[]?$",
                              stdlib_re.I)
"""A negation ending the (bounded) text just before a match, on the same line."""
_LOOKBACK = 48
_OPS: dict[str, Callable[[float, float], bool]] = {
    ">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne,
}
_SAMPLE = (r"(?:\{(?P<labels>[^{}\n]{0,500})\})?\s{0,3}(?:=>|=|:|\s)\s{0,3}"
           r"(?P<value>[-+]?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)")
_LABEL = stdlib_re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)\s*=~?\s*"([^"]*)"')


@dataclass(frozen=True)
class SignatureMatch:
    """One signature of one family that the text shows, and whether it supports or refutes the family."""

    family: str
    stance: Stance
    signature: str
    """The signature's key (``container_state:OOMKilled``, ``exit_code:137`` …), stable across catalog versions."""
    kind: SignatureKind
    text: str
    """What in the text matched (at most ``MAX_SHOWN`` characters)."""


def match(catalog: FamilyCatalog, text: str) -> list[SignatureMatch]:
    """Every (family, signature, stance) the text shows, in catalog order; empty when it shows none."""
    compiled = _compiled(catalog)
    found: list[SignatureMatch] = []
    shown: dict[str, str | None] = {}
    for index in compiled.candidates(text):
        key = compiled.keys[index]
        shown[key] = compiled.occurrence(index, text)
    for family, stance, signature in compiled.entries:
        occurrence = shown.get(signature.key)
        if occurrence is not None:
            found.append(SignatureMatch(family, stance, signature.key, signature.kind, occurrence[:MAX_SHOWN]))
    return found


def problems(catalog: FamilyCatalog) -> list[str]:
    """Why signatures of a catalog can't be matched (a regular expression RE2 does not accept); empty when all can."""
    out = []
    for family in catalog.families:
        for signature in (*family.supports, *family.refutes):
            try:
                re2.compile(_pattern(signature))
            except re2.error as exc:
                out.append(f"family {family.name}: {signature.key} is not an RE2 expression ({exc})")
    return out


# -- compiled catalogs ---------------------------------------------------------------------------------------
class _Compiled:
    """One catalog's signatures as an RE2 set (which occur) plus one expression each (where)."""

    def __init__(self, catalog: FamilyCatalog):
        self._order = {family.name: n for n, family in enumerate(catalog.families)}
        self.entries: list[tuple[str, Stance, Any]] = [
            *((family.name, "supports", s) for family in catalog.families for s in family.supports),
            *((family.name, "refutes", s) for family in catalog.families for s in family.refutes),
        ]
        self.entries.sort(key=lambda e: self._order[e[0]])
        unique = {signature.key: signature for _, _, signature in self.entries}
        self.keys = list(unique)
        self.signatures = list(unique.values())
        self.expressions = [re2.compile(_pattern(s)) for s in self.signatures]
        self.samples = [re2.compile(re2.escape(s.name) + _SAMPLE) if isinstance(s, Metric) else None
                        for s in self.signatures]
        self.set = re2.Set.SearchSet()
        for signature in self.signatures:
            self.set.Add(_pattern(signature))
        self.set.Compile()

    def candidates(self, text: str) -> list[int]:
        return sorted(self.set.Match(text) or [])

    def occurrence(self, index: int, text: str) -> str | None:
        """The first occurrence of signature ``index`` that counts (not negated; a metric meeting its condition)."""
        signature, sample = self.signatures[index], self.samples[index]
        if sample is not None:
            return _metric_sample(signature, sample, text)
        for found in self.expressions[index].finditer(text):
            if not _negated(text, found.start()):
                return found.group(0)
        return None


_cache: dict[str, _Compiled] = {}
_cache_lock = Lock()
_CACHED = 4


def _compiled(catalog: FamilyCatalog) -> _Compiled:
    """Compiled once per catalog content (the harness passes the same catalog to every call)."""
    digest = catalog.digest()
    with _cache_lock:
        hit = _cache.get(digest)
    if hit is not None:
        return hit
    compiled = _Compiled(catalog)
    with _cache_lock:
        while len(_cache) >= _CACHED:
            _cache.pop(next(iter(_cache)))
        _cache[digest] = compiled
    return compiled


# -- patterns ---------------------------------------------------------------------------------------------------
def _pattern(signature: Signature) -> str:
    if signature.kind in ("event_reason", "container_state"):
        word = signature.reason if signature.kind == "event_reason" else signature.state  # type: ignore[union-attr]
        return rf"\b{re2.escape(word)}\b"
    if signature.kind == "exit_code":
        code = signature.code  # type: ignore[union-attr]
        gap = r"""[\s:=("']{0,8}"""
        return rf"(?i)\bexit(?:ed)?(?:[ _-]?(?:code|status))?{gap}(?:with\s+)?(?:code{gap})?{code}\b"
    if signature.kind == "log_pattern":
        body = signature.pattern if signature.regex else re2.escape(signature.pattern)  # type: ignore[union-attr]
        return body if signature.case_sensitive else f"(?i){body}"  # type: ignore[union-attr]
    return rf"\b{re2.escape(signature.name)}\b"  # type: ignore[union-attr]


def _negated(text: str, start: int) -> bool:
    line_start = text.rfind("\n", max(0, start - _LOOKBACK), start) + 1
    before = text[max(line_start, start - _LOOKBACK) : start]
    return bool(_NEGATION.search(before))


def _metric_sample(signature: Metric, sample: Any, text: str) -> str | None:
    for found in sample.finditer(text):
        labels = dict(_LABEL.findall(found.group("labels") or ""))
        if any(labels.get(k) != v for k, v in signature.labels.items()):
            continue
        if _OPS[signature.op](float(found.group("value")), signature.threshold):
            return found.group(0)
    return None
