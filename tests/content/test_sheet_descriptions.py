"""sheet.yaml, per system: it describes exactly the fields the engine reads, each number has one home,
and its template values make a valid sheet. A homebrew sheet.yaml is held to the same."""

from __future__ import annotations

from importlib import resources
from typing import Any

import pytest
import yaml

from content import ContentError, load_catalog, load_catalog_files
from rules.registry import get_engine


def default_doc(system: str) -> dict[str, Any]:
    folder = system.replace("-", "_")
    return yaml.safe_load((resources.files("content") / folder / "sheet.yaml").read_bytes())


def homebrew(system: str, doc: dict[str, Any]) -> None:
    load_catalog_files(system, {"sheet.yaml": yaml.safe_dump(doc).encode()})


@pytest.mark.parametrize("system", ["ars-harn", "pendragon", "fading-suns"])
def test_every_field_has_a_label_and_every_number_a_range(system: str) -> None:
    spec = load_catalog(system).sheet
    for field in spec.fields:
        assert field.label
        if field.kind in ("number", "decimal", "scores"):
            assert field.low is not None and field.high is not None, field.name


def test_a_sheet_yaml_that_leaves_out_a_field_the_engine_reads_is_refused() -> None:
    doc = default_doc("ars-harn")
    del doc["fields"]["qik"]
    with pytest.raises(ContentError, match=r"sheet\.yaml: field 'fields': does not describe qik"):
        homebrew("ars-harn", doc)


def test_a_sheet_yaml_that_describes_a_field_the_engine_ignores_is_refused() -> None:
    doc = default_doc("pendragon")
    doc["fields"]["glory"] = {"kind": "number", "label": "Glory", "low": 0, "high": 100000}
    with pytest.raises(ContentError, match="describes glory, which the engine does not read"):
        homebrew("pendragon", doc)


def test_fading_suns_ranges_live_in_body_yaml_only() -> None:
    doc = default_doc("fading-suns")
    doc["fields"]["dex"]["high"] = 12
    with pytest.raises(ContentError, match=r"entry 'dex': field 'high': is set in body\.yaml"):
        homebrew("fading-suns", doc)


def test_a_template_value_outside_its_range_is_refused() -> None:
    doc = default_doc("ars-harn")
    doc["fields"]["str"]["default"] = 11
    with pytest.raises(ContentError, match="the template is not valid: field 'str' must be -10 to 10"):
        homebrew("ars-harn", doc)


def test_a_homebrew_range_is_the_one_sheets_are_checked_against() -> None:
    doc = default_doc("ars-harn")
    doc["fields"]["str"]["high"] = 15
    catalog = load_catalog_files("ars-harn", {"sheet.yaml": yaml.safe_dump(doc).encode()})
    sheet = get_engine("ars-harn").validate_sheet({"name": "Giant", "str": 14, "sta": 0, "dex": 0, "qik": 0},
                                                  catalog)
    assert sheet["str"] == 14


def test_fading_suns_strength_says_what_it_does_carrying_not_damage() -> None:
    """Before: 'Strength: Melee damage and how much you carry.' The seed's STR sets encumbrance (STR² kg); a
    weapon's damage is its base plus victory points, never STR."""
    meaning = default_doc("fading-suns")["fields"]["str"]["meaning"]
    assert "STR² kg" in meaning and meaning.lower().count("damage") == 1 and "no damage" in meaning
