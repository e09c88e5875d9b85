"""``analysis_hash``: the natural key of one analysis, the same wherever it is computed."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def analysis_hash(kind: str, content: Any) -> str:
    """sha256 over the result kind and its content in canonical JSON.

    Two submissions of the same output hash equal whatever their ids or timestamps,
    so ingestion can drop duplicates and every later effect can be keyed by it.
    """
    canonical = json.dumps({"kind": kind, "content": content}, sort_keys=True, ensure_ascii=False,
                           separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()
