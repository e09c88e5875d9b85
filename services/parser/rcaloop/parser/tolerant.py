"""Reading loosely-shaped JSON (step files, captures) without ever raising.

Each helper returns a value or ``None`` and records what was wrong as an ``Issue`` with
the JSON path, so adapters can report missing and invalid keys and carry on.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from rcaloop.contracts import Issue, Recommendation
from rcaloop.parser.codes import ERROR_CODES, Code

M = TypeVar("M", bound=BaseModel)


class Reader:
    """Collects findings for one document; ``missing``/``invalid`` are its two codes."""

    def __init__(self, missing: Code, invalid: Code, prefix: str = ""):
        self.missing, self.invalid, self.prefix = missing, invalid, prefix
        self.warnings: list[Issue] = []

    def split(self) -> tuple[list[Issue], list[Issue]]:
        """The findings as (errors, warnings): a code of error severity makes the output incomplete."""
        return [w for w in self.warnings if w.code in ERROR_CODES], [w for w in self.warnings
                                                                     if w.code not in ERROR_CODES]

    def _path(self, path: str) -> str:
        return f"{self.prefix}{path}"

    def require(self, data: dict, key: str, path: str | None = None, code: Code | None = None) -> Any:
        """The value, or None and a finding (``code``, else the reader's ``missing``) when absent."""
        if key not in data or data[key] is None:
            self.warnings.append((code or self.missing).issue(self._path(path or key), path=self._path(path or key)))
            return None
        return data[key]

    def bad(self, path: str, why: str) -> None:
        self.warnings.append(self.invalid.issue(f"{self._path(path)} {why}", path=self._path(path)))

    def text(self, value: Any, path: str) -> str | None:
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        self.bad(path, "must be text")
        return None

    def choice(
        self, value: Any, choices: tuple[str, ...], path: str, required: Code | None = None,
        unreadable: Code | None = None
    ) -> str | None:
        """The value lower-cased if it is one of ``choices``; else None and a finding with the
        reader's ``invalid`` code, or ``unreadable`` when given. A value the document needs
        (``required``) that cannot be read is missing: it is reported with that code too, so a
        made-up category is no way around the contract."""
        if value is None:
            return None
        if isinstance(value, str) and value.strip().lower() in choices:
            return value.strip().lower()
        why = f"must be one of {' | '.join(choices)}"
        if unreadable is None:
            self.bad(path, why)
        else:
            self.warnings.append(unreadable.issue(f"{self._path(path)} {why}", path=self._path(path)))
        if required is not None:
            self.warnings.append(required.issue(f"{self._path(path)} unreadable", path=self._path(path)))
        return None

    def number(self, value: Any, path: str) -> float | None:
        if value is None:
            return None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        self.bad(path, "must be a number")
        return None

    def items(self, value: Any, path: str) -> list[Any]:
        if value is None:
            return []
        if isinstance(value, list):
            return value
        self.bad(path, "must be a list")
        return []

    def model(self, cls: type[M], value: Any, path: str) -> M | None:
        if not isinstance(value, dict):
            self.bad(path, "must be an object")
            return None
        try:
            return cls.model_validate(value)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "value"
            self.bad(path, f"dropped ({where}: {first['msg']})")
            return None

    def recommendations(self, value: Any, path: str = "recommendations") -> list[Recommendation]:
        """A list of recommendations, each a bare action string or a recommendation object."""
        recs = (
            Recommendation(action=item) if isinstance(item, str) else self.model(Recommendation, item, f"{path}[{i}]")
            for i, item in enumerate(self.items(value, path))
        )
        return [rec for rec in recs if rec is not None]


def first_sentence(text: str | None, limit: int = 120) -> str | None:
    if not text:
        return None
    head = text.strip().split("\n", 1)[0]
    for stop in (". ", "; "):
        if stop in head:
            head = head.split(stop, 1)[0]
            break
    head = head.rstrip(".")
    return head if len(head) <= limit else head[: limit - 1].rstrip() + "…"
