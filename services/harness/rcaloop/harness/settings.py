"""Harness settings from the environment (the service and the CLI read them here)."""

from __future__ import annotations

from pydantic import Field

from rcaloop.judge.config import HarnessConfig
from rcaloop.shared.settings import RuntimeSettings


class HarnessSettings(RuntimeSettings):
    enable_rca_output_harness: bool = Field(default=True, description="false: results pass through marked unchecked")
    max_rca_repair_attempts: int = Field(default=3, ge=0, le=10, description="deterministic repair attempts")
    rca_harness_pass_score: float = Field(default=70, ge=0, le=100, description="below it a verdict is degraded")

    def harness_config(self) -> HarnessConfig:
        return HarnessConfig(
            enabled=self.enable_rca_output_harness,
            max_repair_attempts=self.max_rca_repair_attempts,
            pass_score=self.rca_harness_pass_score,
        )
