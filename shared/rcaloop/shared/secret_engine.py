"""Vendor tokens by their shape: the maintained rule catalog of kingfisher, offline.

kingfisher (``kingfisher-secret-scanner``, Apache-2.0) carries about 490 vendor rules — the
gitleaks catalog as ``betterleaks.*`` and Google's ``veles.secrets/*`` — compiled into one
Vectorscan database, and reports each finding with its rule id and byte span. Only its
scanner is used: its validation and revocation features send the secret to the vendor and
are never called here.

The engine reads the long words of a text (16 characters or more, each distinct word once,
one per line), not the text itself: a vendor token lies inside one word, a text that repeats
a word costs what the word costs, and the engine's own private-key rule (which the project's
detector replaces) never meets the armour lines that make it slow on a text of many
``BEGIN`` lines. Rules whose findings are ids rather than secrets (``…-client-id``) and the
catalog's hidden helper rules are left out.

The catalog compiles once per process (about 0.7 s from the on-disk cache, several seconds
the first time on a machine; ``KF_RULE_CACHE_DIR`` chooses the cache): services warm it at
start (``warm``), and it is imported only when first used, so a command that never reads a
secret-bearing text does not pay for it.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from typing import Any

ENGINE = "kingfisher"
MIN_WORD = 16
"""Words shorter than this hold no vendor token the engine knows (``AKIA`` keys, the
shortest, are 20)."""
_ID_RULE = re.compile(r"[-_.](?:client|access|api|app|key|account|user|tenant|project)?-?id(?:\.\d+)?$")
"""Rules that find an id (an OAuth client id, a key id): not a secret on its own."""

_lock = threading.Lock()


@dataclass(frozen=True)
class EngineHit:
    start: int
    end: int
    rule: str
    """the engine's rule id, as its catalog names it (``betterleaks.github-pat``)"""
    type: str


class Places:
    """Where the words of a text stand, looked up lazily: by ``find`` for the first few words
    asked about (a typical text asks about a handful), then for every word in one pass, so a
    text of many distinct words still costs one pass and no word costs a pass of its own."""

    FEW = 24

    def __init__(self, text: str, min_len: int):
        self.text = text
        self.min_len = min_len
        self._all: dict[str, list[int]] | None = None
        self._asked = 0

    def of(self, word: str) -> list[int]:
        """Where ``word`` stands as a whole word (whitespace or the text's ends around it)."""
        if self._all is None:
            self._asked += 1
            if self._asked <= self.FEW:
                return self._found(word)
            self._all = {}
            for m in re.finditer(r"\S{%d,}" % self.min_len, self.text):
                self._all.setdefault(m.group(), []).append(m.start())
        return self._all.get(word, [])

    def _found(self, word: str) -> list[int]:
        text, out = self.text, []
        pos = text.find(word)
        while pos >= 0:
            end = pos + len(word)
            if (pos == 0 or text[pos - 1].isspace()) and (end == len(text) or text[end].isspace()):
                out.append(pos)
            pos = text.find(word, end)
        return out


def long_words(text: str, min_len: int) -> list[str]:
    """The distinct whitespace-separated words of at least ``min_len`` characters, in order."""
    return list(dict.fromkeys([w for w in text.split() if len(w) >= min_len]))


@cache
def _scanner() -> Any:
    with _lock:
        from kingfisher_sdk import Rules, Scanner  # noqa: PLC0415 - heavy, and only a scan needs it

        return Scanner(Rules(confidence="medium"), base64=False)


def warm() -> None:
    """Compile (or load) the catalog now, at a service's start, so no entry waits for it."""
    _scanner()


def rule_type(rule: str) -> str:
    """The detector's type for an engine rule, from the words of its id."""
    name = rule.lower().split(".", 1)[-1].split("/")[-1]
    if "private-key" in name or "privatekey" in name or name.endswith("-pem"):
        return "private-key"
    if "webhook" in name:
        return "webhook-url"
    if "aws" in name and ("access-token" in name or "access-key" in name):
        return "aws-access-key"
    if "password" in name or "passphrase" in name or "auth-user" in name:
        return "password"
    if "connection-string" in name or "-url" in name or "uri" in name or "dsn" in name:
        return "connection-string"
    if "secret" in name and "key" not in name and "token" not in name:
        return "secret"
    if "token" in name or "pat" in name.split("-") or "session" in name or "jwt" in name:
        return "token"
    return "api-key"


def scan(text: str, timeout_s: float | None = None, places: Places | None = None,
         words: list[str] | None = None) -> list[EngineHit]:
    """The vendor tokens in ``text`` as character spans of it, each with its rule and type
    (``places`` and ``words``: of the text, when the caller has them; any shorter words are
    left out here).

    Raises ``TimeoutError`` when the engine has not finished within ``timeout_s``."""
    words = [w for w in words if len(w) >= MIN_WORD] if words is not None else long_words(text, MIN_WORD)
    if not words:
        return []
    places = places or Places(text, MIN_WORD)
    hay = "\n".join(words)
    raw = hay.encode("utf-8", "surrogatepass")
    ascii_ = len(raw) == len(hay)
    starts, at = [], 0  # where each word starts in the encoded hay
    for word in words:
        starts.append(at)
        at += (len(word) if ascii_ else len(word.encode("utf-8", "surrogatepass"))) + 1
    hits: list[EngineHit] = []
    for finding in _scanner().scan(raw, timeout=timeout_s):
        rule = finding.rule_id
        if not finding.visible or _ID_RULE.search(rule):
            continue
        loc = finding.location
        i = bisect_right(starts, loc["start_offset"]) - 1
        word = words[i]
        encoded = word.encode("utf-8", "surrogatepass") if not ascii_ else b""
        size = len(encoded) if not ascii_ else len(word)
        begin, end = loc["start_offset"] - starts[i], min(loc["end_offset"] - starts[i], size)
        if not ascii_:  # byte offsets inside the word to character offsets
            begin, end = len(encoded[:begin].decode("utf-8", "ignore")), len(encoded[:end].decode("utf-8", "ignore"))
        if end <= begin:
            continue
        type_ = rule_type(rule)
        hits += [EngineHit(p + begin, p + end, rule, type_) for p in places.of(word)]
    return hits
