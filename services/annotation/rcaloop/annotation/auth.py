"""Annotator identity from bearer tokens (``RCALOOP_ANNOTATOR_TOKENS=alice:tok1,bob:tok2``).

The shared token mechanism (``rcaloop.shared.tokens``): only SHA-256 digests are kept in
memory, compared in constant time; a malformed or weak entry stops the service at start;
a token is never logged or echoed. No token configured → every write is refused (unless
the store holds tokens made with ``rcaloop annotation token create``).
"""

from __future__ import annotations

from rcaloop.shared.tokens import NAME as ANNOTATOR_NAME
from rcaloop.shared.tokens import TokenConfigError, Tokens

SETTING = "RCALOOP_ANNOTATOR_TOKENS"

__all__ = ["ANNOTATOR_NAME", "Annotators", "TokenConfigError"]


class Annotators(Tokens):
    @classmethod
    def parse(cls, spec: str | None, setting: str = SETTING) -> Annotators:
        return super().parse(spec, setting)  # type: ignore[return-value]
