"""docs/commands.md lists every roll label each engine rolls, and no other."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.scenario_runner import resolve_text
from rules.registry import get_engine, system_ids

ROOT = Path(__file__).resolve().parents[1]


def documented_labels() -> dict[str, set[str]]:
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    section = text[text.index("system's roll labels"):text.index("Whatever you leave out")]
    found: dict[str, set[str]] = {}
    for system, labels in re.findall(r"^- ([\w-]+): `([^`]+)`", section, flags=re.MULTILINE):
        found[system] = set(labels.split())
    return found


@pytest.mark.parametrize("system", system_ids())
def test_docs_list_every_label_the_engine_rolls(system: str) -> None:
    assert documented_labels().get(system) == set(get_engine(system).roll_labels)


def test_every_example_rolls_only_labels_its_engine_declares() -> None:
    """The declared labels are the rolled ones: each example fight's rolls carry declared labels."""
    for path in sorted((ROOT / "content" / "examples").glob("*.yaml")):
        result = resolve_text(path.read_text(encoding="utf-8"), str(path))
        declared = get_engine(result["system"]).roll_labels
        for roll in result["rolls"]:
            assert roll["label"].removesuffix(".botch") in declared, (path.name, roll["label"])
