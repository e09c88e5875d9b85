"""Hostile stream entries, generated from a good payload the way an adversary would write them.

Each ``Hostile`` is the raw fields of one ``XADD`` (bytes or text, as a producer in any
language could send them) and the dead-letter codes that are a right answer for it. The
random parts (which field breaks, how deep, how many digits, which bytes) come from the
``random.Random`` passed in, so a failing run is reproduced from its seed.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

MiB = 1024 * 1024


@dataclass(frozen=True)
class Hostile:
    label: str
    fields: dict[str, str | bytes]
    codes: frozenset[str]


def _payload(data: dict, **extra: str) -> dict[str, str | bytes]:
    return {"payload": json.dumps(data), **extra}


def _nested(depth: int, rng: random.Random) -> str:
    opener, closer = rng.choice([('{"a":', "}"), ("[", "]")])
    return opener * depth + "1" + closer * depth


def _with_raw(good: dict, key: str, raw_json: str) -> str:
    """``good`` as JSON with ``key`` set to a raw JSON text (which json.dumps could not write)."""
    marker = "__rcaloop_raw__"
    return json.dumps({**good, key: marker}).replace(f'"{marker}"', raw_json, 1)


WRONG_VALUES = ([], {}, 12345, -1.5, True, None, "", "x" * 300, ["nested", {"list": []}], {"a": {"b": [1]}})


def _wrong_value(model: type[BaseModel], good: dict, key: str, rng: random.Random) -> Any:
    """A value of the wrong type for ``key``: one the contract refuses (checked, not assumed)."""
    for value in rng.sample(WRONG_VALUES, len(WRONG_VALUES)):
        try:
            model.model_validate({**good, key: value})
        except ValidationError:
            return value
    raise AssertionError(f"every candidate is a valid {key}")


ID_FIELDS = ("analysis_hash", "result_id", "task_id", "annotation_id", "event_id", "package_id", "decision_id")


def hostile_entries(model: type[BaseModel], good: dict, rng: random.Random) -> list[Hostile]:
    """Every kind of bad entry for a stream of ``model`` whose good payload is ``good``."""
    required = [k for k, f in model.model_fields.items() if f.is_required()]
    text = json.dumps(good)
    field = rng.choice(required)
    string_key = rng.choice([k for k, v in good.items() if isinstance(v, str) and json.dumps(v) == f'"{v}"'])
    plain = f'"{good[string_key]}"'.encode()
    out = [
        # deep nesting: past the parser's limit, in a field the contract reads and in one it ignores
        Hostile("nested 300 deep", {"payload": _with_raw(good, field, _nested(300, rng))},
                frozenset({"payload_too_deep"})),
        Hostile("nested 10,000 deep", {"payload": _with_raw(good, "extra", _nested(10_000, rng))},
                frozenset({"payload_too_deep"})),
        Hostile(f"nested {(d := rng.randint(201, 5000))} deep", {"payload": _with_raw(good, "x", _nested(d, rng))},
                frozenset({"payload_too_deep"})),
        # huge integers (Python's int parsing stops at 4,300 digits)
        Hostile("integer of 5,000 digits", {"payload": _with_raw(good, "extra", "9" * 5000)},
                frozenset({"number_out_of_range"})),
        Hostile(f"integer of {(n := rng.randint(4301, 50_000))} digits",
                {"payload": _with_raw(good, field, "-" + "7" * n)}, frozenset({"number_out_of_range"})),
        # invalid UTF-8: inside a string, and a payload of random bytes
        Hostile("invalid UTF-8 in a string", {"payload": text.encode().replace(plain, b'"\xff\xfe' + plain[1:], 1)},
                frozenset({"invalid_utf8"})),
        Hostile("random bytes", {"payload": bytes([0xC0]) + rng.randbytes(rng.randint(1, 4096))},
                frozenset({"invalid_utf8"})),
        Hostile("binary field name and value", {rng.randbytes(16).hex().encode() + b"\xff": b"\x00\xff" * 64,
                                                 "payload": text.encode()[:-1] + b"\x80}"},
                frozenset({"invalid_utf8"})),
        Hostile("NUL bytes and garbage", {"payload": b"\x00" * 32 + rng.randbytes(64)},
                frozenset({"invalid_utf8", "invalid_json"})),
        Hostile("unpaired surrogate escape", {"payload": text.replace(f'"{good[string_key]}"', '"\\ud800 x"', 1)},
                frozenset({"invalid_text"})),
        # wrong types: not an object, and each required field of the wrong type
        *[Hostile(f"payload is {type(v).__name__}", {"payload": json.dumps(v)}, frozenset({"invalid_shape"}))
          for v in ([1, 2], "text", 42, None, True)],
        *[Hostile(f"{k} is {type(v).__name__}", _payload({**good, k: v}), frozenset({"contract_violation"}))
          for k in required for v in [_wrong_value(model, good, k, rng)]],
        Hostile("schema_version 2", _payload({**good, "schema_version": 2}), frozenset({"unsupported_schema_version"})),
        Hostile("schema_version as text", _payload({**good, "schema_version": "1"}),
                frozenset({"unsupported_schema_version"})),
        # missing fields
        Hostile("no payload field", {"body": text, "producer": "x"}, frozenset({"missing_payload"})),
        *[Hostile(f"without {k}", _payload({key: v for key, v in good.items() if key != k}),
                  frozenset({"contract_violation"}))
          for k in required],
        Hostile("empty payload", {"payload": ""}, frozenset({"invalid_json"})),
        Hostile("truncated JSON", {"payload": text[: rng.randint(1, len(text) - 2)]}, frozenset({"invalid_json"})),
        # huge fields: the payload, and a header beside a good payload
        Hostile("5 MiB payload", _payload({**good, "extra": "y" * (5 * MiB)}), frozenset({"payload_too_large"})),
        Hostile("10 MiB header beside a good payload", {"payload": text, "producer": "z" * (10 * MiB)},
                frozenset({"payload_too_large"})),
        Hostile("5,000 fields", {"payload": text, **{f"f{i}": "v" * 1000 for i in range(5000)}},
                frozenset({"payload_too_large"})),
    ]
    # numbers no JSON float carries: refused on every stream, in a field the contract reads or not
    out += [
        Hostile("NaN", {"payload": _with_raw(good, "extra", "NaN")}, frozenset({"invalid_json"})),
        Hostile("Infinity in a list", {"payload": _with_raw(good, "extra", "[1, -Infinity]")},
                frozenset({"invalid_json"})),
        Hostile("1e999", {"payload": _with_raw(good, "extra", "[1e999]")}, frozenset({"number_out_of_range"})),
    ]
    # ids and hashes: one strict type, so NUL, control characters and spaces never reach a store
    for key in (k for k in ID_FIELDS if isinstance(good.get(k), str)):
        for label, value in (("NUL", r"a\u0000b"), ("a newline", r"a\nb"), ("a space", "a b"), ("empty", "")):
            out.append(Hostile(f"{label} in {key}", {"payload": _with_raw(good, key, f'"{value}"')},
                               frozenset({"contract_violation"})))
    return out


def odd_but_good(good: dict, n: int, rng: random.Random) -> dict[str, str | bytes]:
    """The ``n``-th of three entry layouts that look odd but are good: processed like any other."""
    text = json.dumps(good)
    return [
        lambda: {"payload": text, "producer": "p" * 5000, "correlation_id": b"\xff\xfe binary header"},
        lambda: {"payload": text.encode(), **{f"h{i}": rng.randbytes(8) for i in range(40)}},
        lambda: {"payload": _with_raw(good, "unknown_key", _nested(150, rng))},  # deep, within the limit, ignored
    ][n % 3]()


def slowest_skill_output(result_id: str):
    """The slowest entry of the corpus for the harness: a real skill output whose report holds
    16,000 step lines (1.3 MB). Judging it takes about a minute on a 2-core machine (the
    harness's claim ledger grows faster than the text), far past any honest output's 20 ms."""
    from pathlib import Path  # noqa: PLC0415

    from rcaloop.contracts import RawResult  # noqa: PLC0415

    sample = (Path(__file__).resolve().parents[2] / "examples" / "skill_outputs" / "checkout-5xx.txt").read_text()
    head, _, tail = sample.partition("RCA_CHAT")
    steps = "\n".join(f"- step {i}: kubectl logs deploy/checkout-{i} shows 502 from upstream payments-{i}"
                      for i in range(16_000))
    return RawResult(result_id=result_id, kind="skill_text", content=f"{head}{steps}\nRCA_CHAT{tail}")
