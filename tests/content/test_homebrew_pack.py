"""A server's homebrew pack held in memory: the default pack overlaid file by file; every error names the
file, the entry and the field."""

from __future__ import annotations

import pickle
from importlib import resources

import pytest

from content import ContentError, load_catalog, load_catalog_files, pack_file_names
from content.errors import PackProblems
from content.input_guard import PACK_FILE, InputRejected
from content.pack_merge import merge_document, pack_file_name

MAX_BYTES = PACK_FILE.max_bytes

DEFAULT_WEAPONS = (resources.files("content") / "ars_harn" / "weapons.yaml").read_bytes()
NEW_WEAPON = b"  Moon Blade: {skill: Sword, weight: 3, hm_attack: 15, hm_defence: 5, blunt: 2, edge: 7, point: 4}\n"


def test_an_added_weapon_joins_the_default_pack_and_the_other_files_stay() -> None:
    default = load_catalog("ars-harn")
    catalog = load_catalog_files("ars-harn", {"weapons.yaml": DEFAULT_WEAPONS + NEW_WEAPON})
    assert "Moon Blade" in catalog.weapon_names() and "Moon Blade" not in default.weapon_names()
    assert len(catalog.weapon_names()) == len(default.weapon_names()) + 1
    assert catalog.armour_names() == default.armour_names()
    assert load_catalog_files("ars-harn", {}) is default


def test_only_the_default_packs_file_names_are_allowed() -> None:
    assert "weapons.yaml" in pack_file_names("ars-harn")
    with pytest.raises(ContentError) as caught:
        load_catalog_files("ars-harn", {"spells.yaml": b"spells: {}\n"})
    assert caught.value.file == "spells.yaml"
    assert "allowed: armour.yaml, locations.yaml, npcs.yaml, rules.yaml, sheet.yaml, weapons.yaml" in str(caught.value)


def test_a_wrong_field_type_names_the_file_the_entry_and_the_field() -> None:
    bad = DEFAULT_WEAPONS + NEW_WEAPON.replace(b"hm_attack: 15", b"hm_attack: sharp")
    with pytest.raises(ContentError) as caught:
        load_catalog_files("ars-harn", {"weapons.yaml": bad})
    error = caught.value
    assert "weapons.yaml" in error.file and (error.entry, error.field) == ("Moon Blade", "hm_attack")


@pytest.mark.parametrize(("data", "message"), [
    (b"weapons: !!python/object/apply:os.system ['true']\n", "the tag !!python/object/apply:os.system is not allowed"),
    (b"#" * (MAX_BYTES + 1), f"over the {MAX_BYTES // 1024} KiB limit"),
    (b"\xff\xfe", "is not UTF-8 text"),
])
def test_unsafe_or_oversized_files_are_refused_before_they_are_built(data: bytes, message: str) -> None:
    with pytest.raises(ContentError, match=message) as caught:
        load_catalog_files("ars-harn", {"weapons.yaml": data})
    assert caught.value.file == "weapons.yaml"


@pytest.mark.parametrize("uploaded", ["weapons.yaml", "Weapons.YML", "weapons (1).yaml", "weapons_1.yaml",
                                      "weapons-2.yml", "weapons copy.yaml", "weapons.yaml.txt"])
def test_the_names_a_browser_or_discord_gives_a_download_are_the_pack_file(uploaded: str) -> None:
    assert pack_file_name(uploaded, pack_file_names("ars-harn"), "ars-harn") == "weapons.yaml"


def test_a_name_that_is_no_pack_file_lists_the_files() -> None:
    with pytest.raises(ContentError, match=r"is not a file of the pendragon pack \(its files: armour.yaml"):
        pack_file_name("spells (1).yaml", pack_file_names("pendragon"), "pendragon")


def test_an_upload_merges_by_entry_key_and_keeps_the_files_other_fields() -> None:
    base = {"source": "HM3", "ars_mapping": {"attack_divisor": 5}, "weapons": {"Broadsword": {"edge": 5},
                                                                              "Dagger": {"edge": 2}}}
    merged, added, changed = merge_document(base, {"weapons": {"broadsword": {"edge": 7}, "Dagger": {"edge": 2},
                                                               "Moon Blade": {"edge": 6}}}, "weapons.yaml")
    assert merged["source"] == "HM3" and merged["ars_mapping"] == {"attack_divisor": 5}
    assert merged["weapons"] == {"Broadsword": {"edge": 7}, "Dagger": {"edge": 2}, "Moon Blade": {"edge": 6}}
    assert (added, changed) == (["Moon Blade"], ["Broadsword"])


@pytest.mark.parametrize("system", ["ars-harn", "pendragon", "fading-suns"])
def test_every_mistake_comes_at_once_in_the_same_words_in_every_system(system: str) -> None:
    folder = system.replace("-", "_")
    shipped = (resources.files("content") / folder / "weapons.yaml").read_bytes()
    bad = shipped + b"  Moonblade: {skill: [a, b], colour: red}\n  Sunblade: {skill: sword, shiny: true}\n"
    with pytest.raises(PackProblems) as caught:
        load_catalog_files(system, {"weapons.yaml": bad})
    lines = caught.value.lines()
    assert "weapons.yaml: entry 'Moonblade': field 'skill': must be text" in lines
    for entry, field in (("Moonblade", "colour"), ("Sunblade", "shiny")):
        wrong = f"weapons.yaml: entry '{entry}': field '{field}': is not a field here"
        assert any(line.startswith(wrong) for line in lines), lines


def test_every_mistake_crosses_a_pickle_intact_as_it_does_from_the_build_process() -> None:
    """Packs are built (and uploads merged) in another process: their mistakes come back pickled."""
    shipped = (resources.files("content") / "ars_harn" / "weapons.yaml").read_bytes()
    with pytest.raises(PackProblems) as caught:
        load_catalog_files("ars-harn", {"weapons.yaml": shipped + b"  Moonblade: {skill: [a, b], colour: red}\n"})
    back = pickle.loads(pickle.dumps(caught.value))
    assert type(back) is PackProblems and back.lines() == caught.value.lines() and back.more == caught.value.more
    assert (back.file, back.entry, back.field) == (caught.value.file, caught.value.entry, caught.value.field)
    refused = pickle.loads(pickle.dumps(InputRejected("weapons.yaml", "line 2: not\nUTF-8")))
    assert type(refused) is InputRejected and str(refused) == "weapons.yaml: line 2: not UTF-8"
