"""The internal names of the shipped content packs (every id that is not what the pack shows players), which the
per-script test looks for in the public messages of a replay (tests/bot/playground_replay.py reads those)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

PACKS = ("ars_harn", "pendragon", "fading_suns")
IDENTIFIER = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")  # snake_case: great_axe, upper_arm, saxon_warrior


def _pack_documents(pack: str) -> Iterator[Any]:
    for path in sorted(Path(str(resources.files("content") / pack)).glob("*.yaml")):
        yield yaml.safe_load(path.read_text(encoding="utf-8"))


def internal_names() -> dict[str, str]:
    """Every id in the shipped packs that differs from what the pack shows players, with what it shows: a
    snake_case key or value (``great_axe`` -> "great axe"), and an entry whose ``name`` is another (``vorox`` ->
    "Vorox Warrior", ``man_at_arms`` -> "Man-at-Arms")."""
    found: dict[str, str] = {}

    def walk(node: Any, key: str | None) -> None:
        if key == "source":  # the sources' prose
            return
        if isinstance(node, Mapping):
            for name, value in node.items():
                name = str(name)
                # an entry the pack names for players (an NPC template); a field's label is no entry's name
                shown = value.get("name") if isinstance(value, Mapping) else None
                if isinstance(shown, str) and _loose(shown) != _loose(name) and name.isidentifier():
                    found[name] = shown
                elif IDENTIFIER.fullmatch(name):
                    found[name] = name.replace("_", " ")
                walk(value, name)
        elif isinstance(node, list):
            for item in node:
                walk(item, key)
        elif isinstance(node, str) and IDENTIFIER.fullmatch(node):
            found[node] = node.replace("_", " ")

    for pack in PACKS:
        for document in _pack_documents(pack):
            walk(document, None)
    return found


def _loose(name: str) -> str:
    return re.sub(r"[\s_\-]+", "", name.casefold())
