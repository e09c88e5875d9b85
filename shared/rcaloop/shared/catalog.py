"""The bundled family catalog: the default knowledge package every release ships.

``knowledge/family_catalog.yaml`` is read once and validated by the ``FamilyCatalog`` contract
(and every signature compiled by the matcher), so a release whose catalog is malformed fails at
its first use, with the reason, instead of judging with half a catalog. The harness judges with
it until the knowledge service announces an activated catalog; the knowledge service offers it
to reviewers as a candidate when the store does not hold its version yet.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files
from typing import Any

import yaml
from pydantic import ValidationError

from rcaloop.contracts.catalog import FamilyCatalog
from rcaloop.shared import signatures

BUNDLED = "family_catalog.yaml"


class CatalogError(ValueError):
    """A catalog file that is not a valid catalog: where and why."""


def load_catalog(text: str, where: str = "catalog") -> FamilyCatalog:
    """A catalog from YAML (or JSON) text; raises ``CatalogError`` naming what is wrong."""
    try:
        data: Any = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise CatalogError(f"{where}: not YAML: {exc}") from None
    try:
        catalog = FamilyCatalog.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        path = ".".join(str(p) for p in first["loc"])
        raise CatalogError(
            f"{where}: {exc.error_count()} problem(s); first at {path or 'top'}: {first['msg']}") from None
    problems = signatures.problems(catalog)
    if problems:
        raise CatalogError(f"{where}: " + "; ".join(problems))
    return catalog


@lru_cache(maxsize=1)
def bundled_catalog() -> FamilyCatalog:
    """The catalog this release ships (read and validated once per process)."""
    text = files("rcaloop.shared.knowledge").joinpath(BUNDLED).read_text(encoding="utf-8")
    return load_catalog(text, f"bundled {BUNDLED}")
