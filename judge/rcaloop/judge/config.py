"""The harness's knobs as a plain value, so the pure core never reads the environment."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
"""``evaluated_at`` when the caller gives no time: keeps the core's output reproducible."""


@dataclass(frozen=True)
class HarnessConfig:
    """``ENABLE_RCA_OUTPUT_HARNESS``, ``MAX_RCA_REPAIR_ATTEMPTS``, ``RCA_HARNESS_PASS_SCORE``."""

    enabled: bool = True
    max_repair_attempts: int = 3
    pass_score: float = 70.0
