"""Reading the registry JSON file (an adapter: the only filesystem access of the parser)."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from rcaloop.parser.registry import Registry


class RegistryError(ValueError):
    """The registry file cannot be used; the message says why."""


def load_registry(path: Path | str) -> Registry:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RegistryError(f"{path}: registry file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RegistryError(f"{path}: cannot read the registry ({type(exc).__name__})") from None
    except json.JSONDecodeError as exc:
        raise RegistryError(f"{path}: invalid JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise RegistryError(f"{path}: the registry must be a JSON object")
    try:
        return Registry.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RegistryError(f"{path}: {where}: {first['msg']}") from None


class RegistrySource:
    """The registry named by ``RCALOOP_REGISTRY``, re-read when the file changes.

    A file that becomes unreadable keeps the last good registry (and says so once).
    """

    def __init__(self, path: Path | None):
        self.path = path
        self._mtime: float | None = None
        self._registry: Registry | None = load_registry(path) if path else None
        if path:
            self._mtime = path.stat().st_mtime

    def current(self) -> Registry | None:
        if self.path is None:
            return None
        try:
            mtime = self.path.stat().st_mtime
            if mtime != self._mtime:
                self._registry = load_registry(self.path)
                self._mtime = mtime
        except (OSError, RegistryError):
            pass  # keep serving the last good registry
        return self._registry
