"""The stream entry format: a ``payload`` field with the contract's JSON.

Any producer in any language can publish with a plain ``XADD <stream> * payload '<json>'``;
optional header fields (``producer``, ``correlation_id``, ``content_type``) ride alongside.
FastStream's own envelope is not required (nor understood) on our streams.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

PAYLOAD_FIELD = "payload"
M = TypeVar("M", bound=BaseModel)


class PayloadError(ValueError):
    """The entry cannot become the stream's contract; ``code`` goes into the dead letter."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code



def as_text(value: Any) -> str:
    """A Redis reply value (bytes, str, a number, None) as text; None is empty."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)


def decode_fields(raw: dict) -> dict[str, str]:
    return {as_text(k): as_text(v) for k, v in raw.items()}


def encode(model: BaseModel, **headers: str) -> dict[str, str]:
    fields = {PAYLOAD_FIELD: model.model_dump_json()}
    fields.update({k: v for k, v in headers.items() if v})
    return fields


def decode(fields: dict[str, str], model: type[M]) -> M:
    """Parse the payload into ``model`` or raise ``PayloadError`` with a clear reason."""
    if PAYLOAD_FIELD not in fields:
        present = ", ".join(sorted(fields)[:10]) or "none"
        raise PayloadError("missing_payload", f"entry has no '{PAYLOAD_FIELD}' field (fields present: {present})")
    text = fields[PAYLOAD_FIELD]
    if "schema_version" in model.model_fields:  # fast path: pydantic-core parses and validates in one pass
        try:
            return model.model_validate_json(text)
        except ValidationError:
            pass  # the slow path below names the precise reason
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PayloadError("invalid_json", f"payload is not JSON: {exc.msg} at position {exc.pos}") from None
    if not isinstance(data, dict):
        raise PayloadError("invalid_shape", f"payload must be a JSON object, got {type(data).__name__}")
    version = data.get("schema_version", 1)
    if version != 1:
        raise PayloadError("unsupported_schema_version", f"schema_version {version!r} is not supported (expected 1)")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}" for err in exc.errors()[:10]
        )
        raise PayloadError("contract_violation", f"payload is not a valid {model.__name__}: {problems}") from None
