"""Bearer tokens from a ``name:token,name:token`` setting, and how strong a token must be.

One mechanism for every HTTP API (annotators, knowledge reviewers and readers): the
setting is parsed once at start — a malformed or weak entry stops the service with one
line naming the entry, never the token — and only SHA-256 digests are kept, compared in
constant time. A token is never logged or echoed.
"""

from __future__ import annotations

import hashlib
import hmac
import re

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$")
MIN_TOKEN_CHARS = 24
MIN_DISTINCT_CHARS = 8
MAX_TOKEN_CHARS = 512
HOW_TO_MAKE = "python -c 'import secrets; print(secrets.token_urlsafe(32))'"
STRENGTH_RULE = f"at least {MIN_TOKEN_CHARS} characters, {MIN_DISTINCT_CHARS} of them different"


class TokenConfigError(ValueError):
    pass


def token_weakness(token: str) -> str | None:
    """Why ``token`` is too weak to guard an API, or None. Never quotes the token."""
    if len(token) < MIN_TOKEN_CHARS:
        return f"it has {len(token)} characters; a token needs {STRENGTH_RULE}"
    if len(set(token)) < MIN_DISTINCT_CHARS:
        return f"it repeats too few characters ({len(set(token))} different); a token needs {STRENGTH_RULE}"
    if len(token) > MAX_TOKEN_CHARS or any(c.isspace() or not c.isprintable() for c in token):
        return f"a token is printable text without spaces, at most {MAX_TOKEN_CHARS} characters"
    return None


def digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


class Tokens:
    """The names behind a setting's tokens; ``identify`` a presented token in constant time."""

    def __init__(self, digests: dict[bytes, str]):
        self._digests = digests

    @classmethod
    def parse(cls, spec: str | None, setting: str) -> Tokens:
        """Read ``name:token,…`` from ``setting``; raises ``TokenConfigError`` naming the entry."""
        digests: dict[bytes, str] = {}
        for n, item in enumerate(filter(None, (p.strip() for p in (spec or "").split(","))), start=1):
            name, sep, token = (part.strip() for part in item.partition(":"))
            if not sep or not NAME.match(name) or not token:
                raise TokenConfigError(f"{setting} entry {n} is not name:token (name: letters, digits, . _ @ -)")
            if weakness := token_weakness(token):
                raise TokenConfigError(f"{setting} entry {n} ({name}): the token is too weak: {weakness}; "
                                       f"make one with {HOW_TO_MAKE}")
            digests[digest(token)] = name
        return cls(digests)

    def identify(self, token: str | None) -> str | None:
        if not token or len(token) > MAX_TOKEN_CHARS:
            return None
        return self.identify_digest(digest(token))

    def identify_digest(self, probe: bytes) -> str | None:
        """The name behind a token known only by its SHA-256 (a session remembers that much)."""
        found = None
        for known, name in self._digests.items():  # every entry compared: the time says nothing
            if hmac.compare_digest(known, probe):
                found = name
        return found

    def __len__(self) -> int:
        return len(self._digests)
