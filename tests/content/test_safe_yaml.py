"""YAML is only ever safe_loaded, with a size cap and an alias cap; errors say where."""

from __future__ import annotations

import pytest

from content.errors import ContentError
from content.safe_yaml import MAX_ALIASES, load_yaml


def test_plain_yaml_and_json_load() -> None:
    assert load_yaml("a: 1\nb: [1, 2]\n", "x.yaml") == {"a": 1, "b": [1, 2]}
    assert load_yaml('{"a": 1}', "x.json") == {"a": 1}


def test_python_object_tag_is_refused_and_nothing_runs(tmp_path: object) -> None:
    hostile = "!!python/object/apply:os.system ['echo pwned > /tmp/grievous-pwned']"
    with pytest.raises(ContentError, match="not allowed"):
        load_yaml(hostile, "evil.yaml")


def test_alias_bomb_is_refused_before_it_is_built() -> None:
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for i, name in enumerate("bcdefghij"):
        prev = "abcdefghij"[i]
        lines.append(f"{name}: &{name} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]")
    with pytest.raises(ContentError, match=f"at most {MAX_ALIASES}"):
        load_yaml("\n".join(lines), "bomb.yaml")


def test_a_file_over_the_size_cap_is_refused_unparsed() -> None:
    with pytest.raises(ContentError, match="over the 100-byte limit"):
        load_yaml("a: " + "x" * 200, "big.yaml", max_bytes=100)


def test_malformed_yaml_names_the_file_and_line() -> None:
    with pytest.raises(ContentError, match=r"broken.yaml: is not valid YAML \(line 2"):
        load_yaml("a: [1, 2\nb: c: d\n", "broken.yaml")


def test_content_error_names_file_entry_field() -> None:
    err = ContentError("weapons.yaml", "broadsword", "edge", "must be a whole number")
    assert str(err) == "weapons.yaml: entry 'broadsword': field 'edge': must be a whole number"
