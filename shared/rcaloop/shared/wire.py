"""The stream entry format: a ``payload`` field with the contract's JSON.

Any producer in any language can publish with a plain ``XADD <stream> * payload '<json>'``;
optional header fields (``producer``, ``correlation_id``, ``content_type``) ride alongside.
FastStream's own envelope is not required (nor understood) on our streams.

Reading is strict: the payload is UTF-8 or it is refused (never silently repaired), and
the JSON is read by one parser with one set of limits (nesting, number size), so what a
consumer accepts it can also write again. Every refusal is a ``PayloadError`` with a
stable code, which the worker dead-letters at once.
"""

from __future__ import annotations

import math
import re
from typing import Any, TypeVar

import pydantic_core
from pydantic import BaseModel, ValidationError
from redis.typing import EncodableT, FieldT

PAYLOAD_FIELD = "payload"
M = TypeVar("M", bound=BaseModel)

FIELD_CLIP = 1024
"""A header field (anything but ``payload``) is cut to this many characters where it is
passed on: to a handler, into a dead letter. It is informational, never stored whole."""
MAX_LETTER_FIELDS = 32
"""At most this many of an entry's fields are copied into its dead letter."""


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


def _shown(value: Any) -> str:
    """A value as text that keeps every byte visible: invalid UTF-8 appears as ``\\xff``."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "backslashreplace")
    return "" if value is None else str(value)


def _clip(value: Any, limit: int = FIELD_CLIP) -> str:
    """``value`` as visible text, cut to ``limit`` (bytes are cut before decoding: a huge
    value is never decoded whole)."""
    size = len(value) if isinstance(value, bytes | str) else 0
    if size <= limit:
        return _shown(value)
    unit = "bytes" if isinstance(value, bytes) else "characters"
    return f"{_shown(value[:limit])}… (truncated from {size} {unit})"


def decode_fields(raw: dict) -> dict[str, str]:
    """Every field as text, for reading back what rcaloop itself wrote (tests, status)."""
    return {as_text(k): as_text(v) for k, v in raw.items()}


def _nbytes(value: Any) -> int:
    return len(value) if isinstance(value, bytes) else len(_shown(value).encode("utf-8", "surrogatepass"))


def entry_size(raw: dict) -> int:
    """Bytes of an entry's field names and values (what a consumer would hold in memory)."""
    return sum(_nbytes(k) + _nbytes(v) for k, v in raw.items())


def read_fields(raw: dict) -> dict[str, str]:
    """The entry's fields as a handler sees them: the payload exactly, headers clipped.

    Raises ``PayloadError("invalid_utf8")`` when the payload's bytes are not UTF-8: what
    is stored downstream must be what was sent, so it is refused rather than repaired.
    """
    fields: dict[str, str] = {}
    for k, v in raw.items():
        name = _shown(k)
        if name == PAYLOAD_FIELD and isinstance(v, bytes):
            try:
                fields[name] = v.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise PayloadError(
                    "invalid_utf8", f"payload is not valid UTF-8 (byte 0x{v[exc.start]:02x} at offset {exc.start})"
                ) from None
        else:
            fields[name] = _shown(v) if name == PAYLOAD_FIELD else _clip(v)
    return fields


def letter_fields(raw: dict, *, keep_payload: bool = True) -> dict[str, str]:
    """An entry's fields for its dead letter: bounded, every byte visible.

    The payload is kept whole (so the entry can be fixed and replayed) unless
    ``keep_payload`` is false (an oversized entry); every other field is clipped, and at
    most ``MAX_LETTER_FIELDS`` fields are copied.
    """
    out: dict[str, str] = {}
    for k, v in list(raw.items())[:MAX_LETTER_FIELDS]:
        name = _clip(k, 200)
        out[name] = _shown(v) if keep_payload and name == PAYLOAD_FIELD else _clip(v)
    if len(raw) > MAX_LETTER_FIELDS:
        out["fields_omitted"] = str(len(raw) - MAX_LETTER_FIELDS)
    return out


Fields = dict[FieldT, EncodableT]
"""An entry's fields as they are written (redis-py's types)."""


def encode(model: BaseModel, **headers: str) -> Fields:
    fields: Fields = {PAYLOAD_FIELD: model.model_dump_json()}
    fields.update({k: v for k, v in headers.items() if v})
    return fields


_JSON_LIMITS = (  # pydantic-core's parser message → our code
    ("recursion limit exceeded", "payload_too_deep", "payload is nested deeper than the JSON parser's limit"),
    ("number out of range", "number_out_of_range", "payload holds a number too large to read"),
    ("hex escape", "invalid_text", "payload holds a \\u escape that is not valid Unicode (an unpaired surrogate)"),
)


def _json_error(message: str) -> PayloadError:
    for marker, code, text in _JSON_LIMITS:
        if marker in message:
            return PayloadError(code, f"{text} ({message})")
    return PayloadError("invalid_json", f"payload is not JSON: {message}")


def parse_json(text: str | bytes) -> Any:
    """JSON from anywhere outside (a stream payload, an HTTP body), read by the one parser with
    the one set of limits: nesting, number size, valid Unicode, finite numbers. Raises
    ``PayloadError`` with the same codes a dead letter carries."""
    try:
        data = pydantic_core.from_json(text, allow_inf_nan=False)
    except ValueError as exc:
        raise _json_error(str(exc)) from None
    if _has_non_finite(data):
        raise PayloadError("number_out_of_range", "payload holds a number no JSON float can carry (such as 1e999)")
    return data


def _has_non_finite(data: Any) -> bool:
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


_MAYBE_NON_FINITE = re.compile(r"NaN|Infinity|\d[eE]\+?\d{3}")
"""Text that may hold a number no JSON float carries: ``NaN``, ``Infinity`` or an exponent of
three digits (``1e999``). A match only sends the entry down the slower, exact path."""


def _parsed(text: str) -> Any:
    try:
        return pydantic_core.from_json(text, allow_inf_nan=False)
    except ValueError as exc:
        raise _json_error(str(exc)) from None


def decode(fields: dict[str, str], model: type[M]) -> M:
    """Parse the payload into ``model`` or raise ``PayloadError`` with a clear reason.

    Numbers a JSON float cannot carry (``NaN``, ``Infinity``, ``1e999``) are refused on every
    stream: pydantic would read them into fields typed ``Any`` and write them on as ``null``.
    One regular-expression scan of the text decides whether the parsed data needs a second
    look, so an ordinary entry still takes pydantic-core's one-pass parse and validation.
    """
    if PAYLOAD_FIELD not in fields:
        present = ", ".join(sorted(_clip(f, 60) for f in fields)[:10]) or "none"
        raise PayloadError("missing_payload", f"entry has no '{PAYLOAD_FIELD}' field (fields present: {present})")
    text = fields[PAYLOAD_FIELD]
    suspect = _MAYBE_NON_FINITE.search(text) is not None
    # fast path: pydantic-core parses and validates in one pass
    if not suspect and "schema_version" in model.model_fields:
        try:
            return model.model_validate_json(text)
        except ValidationError as exc:
            invalid = next((e for e in exc.errors() if e["type"] == "json_invalid"), None)
            if invalid is not None:
                raise _json_error(str(invalid.get("ctx", {}).get("error", invalid["msg"]))) from None
            # valid JSON, not the contract: the slow path below names the precise reason
    data = parse_json(text) if suspect else _parsed(text)  # the fast path's parser, so the same limits
    if not isinstance(data, dict):
        raise PayloadError("invalid_shape", f"payload must be a JSON object, got {type(data).__name__}")
    version = data.get("schema_version", 1)
    if version != 1:
        raise PayloadError("unsupported_schema_version",
                           f"schema_version {_clip(repr(version), 40)} is not supported (expected 1)")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}" for err in exc.errors()[:10]
        )
        raise PayloadError("contract_violation",
                           _clip(f"payload is not a valid {model.__name__}: {problems}", 2000)) from None
