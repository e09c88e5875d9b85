"""The docs list every error code the code can produce (they are written from these lists)."""

from __future__ import annotations

from pathlib import Path

from rcaloop.ingestion import core
from rcaloop.shared.jumpbox import ERRORS

DOCS = Path(__file__).resolve().parents[3] / "docs"


def test_wire_format_doc_lists_every_dead_letter_code():
    text = (DOCS / "wire-format.md").read_text()
    wire_codes = ["payload_too_large", "missing_payload", "invalid_json", "invalid_shape", "unsupported_schema_version",
                  "contract_violation", "max_deliveries"]
    for code in [*core.CODES, *wire_codes]:
        assert f"| `{code}` |" in text, code
    assert "contracts/schemas/raw_result.schema.json" in text


def test_jumpbox_doc_lists_every_error_with_its_exit_code():
    text = (DOCS / "jumpbox.md").read_text()
    for error in ERRORS:
        assert f"| {error.exit_code} | `{error.code}` |" in text, error.code
