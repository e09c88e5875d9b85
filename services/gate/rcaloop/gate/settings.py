"""The gate service's settings (the service and ``rcaloop gate measure | promote | status``)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from rcaloop.gate.store import store_path
from rcaloop.gate.thresholds import DEFAULT_MIN_POPULATION
from rcaloop.shared.settings import RuntimeSettings


class GateSettings(RuntimeSettings):
    gate_database_url: str | None = Field(default=None,
                                          description="sqlite:///<path>; default <RCALOOP_DATA_DIR>/gate.db")
    gate_shadow_max_regression: float = Field(
        default=0.0, ge=0.0, le=1.0,
        description="how far a rate may be worse in the shadow artifact than at staging (0: not at all)"
    )
    gate_min_population: int = Field(
        default=DEFAULT_MIN_POPULATION, ge=1, description="fewest incidents a metrics file's population must count"
    )

    def store_path(self) -> Path:
        return store_path(self.gate_database_url, self.rcaloop_data_dir)
