"""Annotator identity from bearer tokens (``RCALOOP_ANNOTATOR_TOKENS=alice:tok1,bob:tok2``).

Only SHA-256 digests of the tokens are kept in memory after parsing, compared in constant
time; a token is never logged or echoed. No token configured → every write is refused.
"""

from __future__ import annotations

import hashlib
import hmac
import re

ANNOTATOR_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$")


class TokenConfigError(ValueError):
    pass


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


class Annotators:
    def __init__(self, digests: dict[bytes, str]):
        self._digests = digests

    @classmethod
    def parse(cls, spec: str | None) -> Annotators:
        digests: dict[bytes, str] = {}
        for n, item in enumerate(filter(None, (p.strip() for p in (spec or "").split(","))), start=1):
            name, sep, token = item.partition(":")
            if not sep or not ANNOTATOR_NAME.match(name.strip()) or len(token.strip()) < 4:
                raise TokenConfigError(f"RCALOOP_ANNOTATOR_TOKENS entry {n} is not name:token (token of 4+ characters)")
            digests[_digest(token.strip())] = name.strip()
        return cls(digests)

    def identify(self, token: str | None) -> str | None:
        if not token:
            return None
        probe = _digest(token)
        found = None
        for digest, name in self._digests.items():
            if hmac.compare_digest(digest, probe):
                found = name
        return found

    def __len__(self) -> int:
        return len(self._digests)
