"""check_shape (every engine result and stored sheet goes through it) refuses the same trees with the same
first mistake as the recursive walk it replaced, which spelled out every field's path as it went (issue 23:
that was more than the engine's own parse of an attack's sheets)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import UserError
from bot.services import sheet_file
from bot.services.sheet_file import check_shape


def reference(value: Any, source: str, max_nodes: int, max_depth: int) -> None:
    """The walk as it was before (bot/services/sheet_file.py at 3599119)."""
    budget = [max_nodes]

    def walk(node: Any, depth: int, path: str) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise UserError(f"{source}: the sheet is too large (over {max_nodes} values)")
        if depth > max_depth:
            raise UserError(f"{source}: field '{path}' is nested too deeply")
        if isinstance(node, Mapping):
            for key, item in node.items():
                if not isinstance(key, str):
                    raise UserError(f"{source}: field '{path or '.'}' has a key that is not text: {key!r}")
                walk(item, depth + 1, f"{path}.{key}" if path else key)
        elif isinstance(node, list):
            for index, item in enumerate(node):
                walk(item, depth + 1, f"{path}[{index}]")
        elif not (node is None or isinstance(node, str | int | float | bool)):
            raise UserError(f"{source}: field '{path}' holds a {type(node).__name__}, not plain data")

    walk(value, 0, "")


def verdict(check: Any, value: Any) -> str | None:
    try:
        check(value)
    except UserError as refused:
        return str(refused)
    return None


leaves = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=3),
                   st.just(b"bytes"), st.just(object()), st.just({1, 2}), st.just((1, 2)))
keys = st.one_of(st.text(max_size=3), st.text(max_size=3), st.integers(0, 3), st.none())
trees = st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
                     max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(tree=trees, max_nodes=st.integers(1, 40), max_depth=st.integers(0, 6))
def test_the_same_trees_are_refused_with_the_same_first_mistake(tree: Any, max_nodes: int, max_depth: int) -> None:
    with patch.object(sheet_file, "MAX_NODES", max_nodes), patch.object(sheet_file, "MAX_DEPTH", max_depth):
        assert verdict(lambda v: check_shape(v, "sheet"), tree) == \
            verdict(lambda v: reference(v, "sheet", max_nodes, max_depth), tree)


def test_a_field_is_named_by_its_path() -> None:
    with pytest.raises(UserError, match=r"field 'wounds\[1\]\.note' holds a set"):
        check_shape({"name": "Brun", "wounds": [{"note": "ok"}, {"note": {1}}]}, "sheet")
    with pytest.raises(UserError, match=r"field 'wounds\[0\]' has a key that is not text: 3"):
        check_shape({"wounds": [{3: "x"}]}, "sheet")


def test_parts_counted_whole_are_refused_as_the_walk_refuses_them() -> None:
    """A flat dict or list, or a list of flat dicts, is counted in one pass: the count (it names no field) and the
    depth of what it holds are what the walk saw."""
    wounds = {"wounds": [{"index": 1, "levels": 2}, {"index": 2, "levels": 1}]}  # 1 + 1 + 2 * 3 values, 3 deep
    for nodes, depth in ((8, 3), (7, 3), (8, 2), (7, 2), (8, 1), (3, 5), (4, 0)):
        for tree in (wounds, {"w": [1, 2, 3]}, {"a": {"b": 1, "c": None}}, [{"x": 1}, {2: 1}], [{"x": 1}, [2]]):
            with patch.object(sheet_file, "MAX_NODES", nodes), patch.object(sheet_file, "MAX_DEPTH", depth):
                refused = verdict(lambda v: check_shape(v, "sheet"), tree)
            assert refused == verdict(lambda v: reference(v, "sheet", nodes, depth), tree), (tree, nodes, depth)  # noqa: B023
