"""The input guard: plain data in, or one line saying what is wrong and where; never a parser's own error."""

from __future__ import annotations

import time

import pytest
import yaml

import content.input_guard as input_guard
from content.errors import ContentError
from content.input_guard import (
    MAX_ALIASES,
    PACK_FILE,
    SCENARIO,
    SHEET,
    InputRejected,
    Limits,
    check_text,
    option_value,
    parse_document,
    whole_number,
)

SMALL = Limits(max_bytes=100, max_depth=4, max_nodes=20)


def rejected(data: bytes | str, limits: Limits = SCENARIO, source: str = "x.yaml") -> str:
    started = time.process_time()  # CPU time: the machine running the suite may be shared
    with pytest.raises(InputRejected) as caught:
        parse_document(data, source, limits)
    assert time.process_time() - started < 1.0
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.fixture(params=["libyaml", "pure-python"])
def loader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every YAML test runs with libyaml's CSafeLoader and with PyYAML's own SafeLoader."""
    if request.param == "pure-python":
        monkeypatch.setattr(input_guard, "_LOADER", input_guard._yaml_loader(yaml.SafeLoader))
    elif not input_guard.LIBYAML:
        pytest.skip("PyYAML was built without libyaml")
    return str(request.param)


def test_plain_yaml_and_json_load(loader: str) -> None:
    assert parse_document("a: 1\nb: [1, 2]\n", "x.yaml", SCENARIO) == {"a": 1, "b": [1, 2]}
    assert parse_document('{"a": 1}', "x.json", SCENARIO) == {"a": 1}
    assert parse_document(b'{"a": 1.5}', "-", SCENARIO) == {"a": 1.5}


def test_json_looking_yaml_falls_back_to_yaml(loader: str) -> None:
    assert parse_document("{a: 1, b: [x]}", "x.yaml", SCENARIO) == {"a": 1, "b": ["x"]}


def test_a_date_stays_text_and_a_byte_order_mark_is_dropped(loader: str) -> None:
    assert parse_document("\ufeffborn: 2024-01-01\n", "x.yaml", SCENARIO) == {"born": "2024-01-01"}


def test_python_object_tag_is_refused_and_nothing_runs(loader: str) -> None:
    hostile = "!!python/object/apply:os.system ['echo pwned > /tmp/grievous-pwned']"
    assert rejected(hostile) == (
        "x.yaml: line 1, column 1: the tag !!python/object/apply:os.system is not allowed (plain data only)")


def test_alias_bomb_is_refused_before_it_is_built(loader: str) -> None:
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for i, name in enumerate("bcdefghij"):
        prev = "abcdefghij"[i]
        lines.append(f"{name}: &{name} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]")
    # what the aliases expand to is bounded first; their number too
    assert rejected("\n".join(lines), PACK_FILE) == "x.yaml: line 6, column 11: holds more than 150000 values"
    many = "a: &a 1\nb: [" + ", ".join(["*a"] * (MAX_ALIASES + 1)) + "]\n"
    assert rejected(many) == f"x.yaml: line 2, column 261: uses more than {MAX_ALIASES} YAML aliases"


def test_a_few_aliases_that_expand_past_the_value_bound_are_refused(loader: str) -> None:
    text = "a: &a [1, 2, 3]\nb: &b [*a, *a, *a]\nc: [*b, *b, *b]\n"
    assert rejected(text, SMALL) == "x.yaml: line 3, column 1: holds more than 20 values"


def test_a_recursive_alias_is_refused(loader: str) -> None:
    assert rejected("a: &a [*a]\n", SMALL) == "x.yaml: line 1, column 8: the alias *a refers to the collection it is in"
    assert rejected("a: *b\n", SMALL) == "x.yaml: line 1, column 4: the alias *b has no anchor before it"


def test_merges_and_a_single_document(loader: str) -> None:
    text = "base: &b {skill: Sword, weight: 3}\nblade: {<<: *b, weight: 4}\n"
    assert parse_document(text, "x.yaml", SCENARIO)["blade"] == {"skill": "Sword", "weight": 4}
    assert rejected("a: 1\n---\nb: 2\n") == "x.yaml: line 2, column 1: holds more than one YAML document"


def test_a_file_over_the_size_cap_is_refused_unparsed() -> None:
    assert rejected("a: " + "x" * 200, SMALL, "big.yaml") == "big.yaml: is 203 bytes, over the 100-byte limit"
    assert rejected(b"#" * (SHEET.max_bytes + 1), SHEET, "s.yaml") == "s.yaml: is 65537 bytes, over the 64 KiB limit"


def test_malformed_yaml_names_the_file_and_line(loader: str) -> None:
    assert rejected("a: [1, 2\nb: c: d\n", source="broken.yaml").startswith("broken.yaml: is not valid YAML (line 2")


def test_not_utf8() -> None:
    assert rejected(b"a: \xff\n") == "x.yaml: is not UTF-8 text (byte 4)"


# -- the inputs of issue 11 ----------------------------------------------------------------------


def test_yaml_nested_5000_deep_in_10_kb(loader: str) -> None:
    text = "system: ars-harn\nx: " + "[" * 5000 + "]" * 5000 + "\n"
    assert rejected(text).endswith("nests more than 32 levels deep")


def test_sheet_nested_32000_deep_in_64_kb(loader: str) -> None:
    text = "name: x\nstats: " + "[" * 32000 + "]" * 32000
    assert len(text) < SHEET.max_bytes
    assert rejected(text, SHEET).endswith("nests more than 12 levels deep")


def test_block_nesting_is_bounded_too(loader: str) -> None:
    indented = "".join(" " * i + f"k{i}:\n" for i in range(40))
    assert rejected(indented) == "x.yaml: line 33, column 33: nests more than 32 levels deep"
    assert rejected("- " * 5000 + "x\n") == "x.yaml: line 1, column 65: nests more than 32 levels deep"


def test_json_nested_20000_deep_in_40_kb() -> None:
    text = '{"system": "ars-harn", "x": ' + "[" * 20000 + "]" * 20000 + "}"
    assert rejected(text, source="deep.json") == "deep.json: nests more than 32 levels deep"
    # brackets inside strings are text, not nesting
    assert parse_document('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', "x.json", SCENARIO) == {"a": "[" * 38}


def test_a_5000_digit_integer_never_reaches_int(loader: str) -> None:
    assert rejected("seed: " + "9" * 5000) == "x.yaml: line 1, column 7: a number of more than 100 digits"
    assert rejected("seed: " + "9_" * 3000 + "9") == "x.yaml: line 1, column 7: a number of more than 100 digits"
    assert rejected('{"seed": ' + "9" * 5000 + "}", source="x.json").endswith("a number of more than 100 digits")


def test_numbers_past_64_bits_or_not_finite_are_refused(loader: str) -> None:
    too_large = "x.yaml: line 1, column 7: field 'seed': the number is out of range (at most 19 digits)"
    assert rejected("seed: 0x" + "f" * 40) == too_large
    assert rejected("seed: 1" + ":59" * 40) == too_large
    assert rejected("w: .inf") == "x.yaml: line 1, column 4: field 'w': .inf is not a finite number"
    assert rejected("w: 1.0e+999") == "x.yaml: line 1, column 4: field 'w': 1.0e+999 is not a finite number"
    assert rejected('{"w": NaN}', source="x.json") == "x.yaml: field 'w': nan is not a finite number".replace(
        "x.yaml", "x.json")


def test_lone_surrogates_are_refused(loader: str) -> None:
    assert rejected('{"name": "G\\ud800"}', source="s.json") == (
        "s.json: field 'name' holds a lone surrogate (U+D800); remove it")
    assert rejected("name: G\ud800\n").startswith("x.yaml: line 1, column 8: holds a lone surrogate (U+D800)")
    message = rejected('name: "G\\ud800"\n')  # libyaml refuses the escape itself; PyYAML builds it
    assert message in ("x.yaml: line 1, column 7: field 'name': holds a lone surrogate (U+D800); remove it",
                       "x.yaml: is not valid YAML (line 1, column 11: found invalid Unicode character escape code)")


def test_control_characters_are_one_line(loader: str) -> None:
    assert rejected("description: a\x01b\n") == (
        "x.yaml: line 1, column 15: holds a control character (U+0001); remove it")
    assert rejected('description: "a\\x01b"\n') == (
        "x.yaml: line 1, column 14: field 'description': holds a control character (U+0001); remove it")


def test_values_that_are_not_plain_data_are_refused(loader: str) -> None:
    assert rejected("a: !!binary aGVsbG8=\n") == (
        "x.yaml: line 1, column 4: field 'a': the tag !!binary is not allowed (plain data only)")
    assert rejected("a: !!set {x}\n") == "x.yaml: line 1, column 4: the tag !!set is not allowed (plain data only)"
    assert rejected("a: !!timestamp 2024-01-01\n") == (
        "x.yaml: line 1, column 4: field 'a': the tag !!timestamp is not allowed (plain data only)")
    assert rejected("? [1]\n: 2\n") == "x.yaml: line 1, column 5: a key that is not text or a number"


def test_the_limits_leave_room_for_honest_packs() -> None:
    assert PACK_FILE.max_bytes == 512 * 1024
    big = "weapons:\n" + "".join(f"  w{i}: {{weight: 1.5, hands: 1}}\n" for i in range(15000))
    assert len(big) < PACK_FILE.max_bytes
    assert len(parse_document(big, "weapons.yaml", PACK_FILE)["weapons"]) == 15000


def test_content_error_names_file_entry_field() -> None:
    err = ContentError("weapons.yaml", "broadsword", "edge", "must be a whole number")
    assert str(err) == "weapons.yaml: entry 'broadsword': field 'edge': must be a whole number"


# -- one-line text -------------------------------------------------------------------------------


def test_typed_text_is_bounded_and_clean() -> None:
    assert check_text("3d6+2", "roll", 100) == "3d6+2"
    with pytest.raises(InputRejected, match=r"^roll: at most 100 characters$"):
        check_text("1" * 101, "roll", 100)
    with pytest.raises(InputRejected, match=r"^roll: holds a control character \(U\+000A\); remove it$"):
        check_text("d6\nd6", "roll", 100)
    with pytest.raises(InputRejected, match=r"^name: holds a lone surrogate \(U\+DFFF\); remove it$"):
        check_text("G\udfff", "name", 100)


def test_whole_numbers_never_ask_int_for_more_than_19_digits() -> None:
    assert whole_number(" +0007 ", "n") == 7
    assert whole_number("-9223372036854775807", "n") == -(2**63 - 1)
    with pytest.raises(InputRejected, match=r"too large a number \(at most 19 digits\)$"):
        whole_number("9" * 4000, "n")
    with pytest.raises(InputRejected, match=r"^n: '²' is not a whole number$"):
        whole_number("²", "n")
    with pytest.raises(InputRejected, match=r"^n: must be a whole number from 0 to 1000$"):
        whole_number("1001", "n", 0, 1000)


def test_option_values_become_numbers_only_when_they_spell_one() -> None:
    assert option_value(" 12 ", "v") == 12
    assert option_value("Brawl", "v") == "Brawl"
    assert option_value("1.5", "v") == "1.5"
    with pytest.raises(InputRejected, match=r"^v: '9999999999999999999' is too large a number"):
        option_value("9" * 19, "v")
