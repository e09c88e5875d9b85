"""The committed JSON Schemas are exactly what the models generate."""

from __future__ import annotations

from rcaloop.contracts import STREAM_MODELS, Stream
from rcaloop.contracts.schemas import DEFAULT_DIR, SCHEMA_MODELS, render_schemas


def test_committed_schemas_match_the_models():
    rendered = render_schemas()
    stale = [name for name, text in rendered.items() if not (DEFAULT_DIR / name).is_file()
             or (DEFAULT_DIR / name).read_text() != text]
    extra = sorted(p.name for p in DEFAULT_DIR.glob("*.schema.json") if p.name not in rendered)
    assert not stale, f"schemas drifted from the models: {stale}; run: python -m rcaloop.contracts.schemas"
    assert not extra, f"schemas without a model: {extra}"


def test_every_stream_has_a_versioned_contract_with_a_schema():
    assert set(STREAM_MODELS) == set(Stream)
    for model in STREAM_MODELS.values():
        assert "schema_version" in model.model_fields
        assert model in SCHEMA_MODELS.values()


def test_the_bundled_family_catalog_validates_against_its_committed_schema():
    import json  # noqa: PLC0415

    import jsonschema  # noqa: PLC0415
    import yaml  # noqa: PLC0415
    from importlib.resources import files  # noqa: PLC0415

    schema = json.loads((DEFAULT_DIR / "family_catalog.schema.json").read_text())
    data = yaml.safe_load(files("rcaloop.shared.knowledge").joinpath("family_catalog.yaml").read_text())
    jsonschema.validate(data, schema)
