"""Scenario files for the runner: one action, the forced dice, the two sheets, the rulings."""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field, field_validator, model_validator

from content.errors import ContentError
from content.input_guard import SCENARIO, parse_document
from content.schema import Strict, validate
from rules.model import Scenario


class ScenarioFile(Strict):
    system: str
    description: str | None = None
    seed: int | None = None
    dice: dict[str, list[int] | int] = Field(default_factory=dict)
    attacker: dict[str, Any] | None = None
    defender: dict[str, Any] | None = None
    action: dict[str, Any] = Field(default_factory=lambda: {"type": "attack"})
    rulings: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _settings_is_rulings(cls, data: Any) -> Any:
        """``settings:``, the key older scenario files use, is read as ``rulings:`` (one of them, not both)."""
        if isinstance(data, dict) and "settings" in data:
            if "rulings" in data:
                raise ValueError("give 'rulings' or its older name 'settings', not both")
            data = {("rulings" if key == "settings" else key): value for key, value in data.items()}
        return data

    @field_validator("dice", mode="before")
    @classmethod
    def _faces_are_numbers(cls, dice: Any) -> Any:
        """A die face is a whole number: YAML's ``true`` is not the face 1, nor ``"7"`` the face 7."""
        if isinstance(dice, dict):
            for label, faces in dice.items():
                for face in faces if isinstance(faces, list) else [faces]:
                    if isinstance(face, bool) or not isinstance(face, int):
                        raise ValueError(f"'{label}': a die face is a whole number (or a list of them), "
                                         f"not {json.dumps(face)}")
        return dice


def parse_scenario(text: str | bytes, source: str) -> tuple[Scenario, dict[str, list[int]], int | None]:
    """The scenario, the forced faces by label, and the random seed (if any) from YAML or JSON text."""
    data = parse_document(text, source, SCENARIO)
    if not isinstance(data, dict):
        raise ContentError(source, message="must be a mapping with system, dice, attacker, defender, action")
    parsed = validate(ScenarioFile, data, source)
    dice = {label: [faces] if isinstance(faces, int) else list(faces) for label, faces in parsed.dice.items()}
    scenario = Scenario(
        system=parsed.system,
        action=parsed.action,
        attacker=parsed.attacker,
        defender=parsed.defender,
        rulings=parsed.rulings,
    )
    return scenario, dice, parsed.seed
