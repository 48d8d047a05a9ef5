"""Reading an action's options: each mistake is one RulesError line naming the option."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from difflib import get_close_matches
from typing import Any

from rules.ars_harn.catalog import Location
from rules.ars_harn.character import SIDES
from rules.errors import RulesError

WHO = ("attacker", "defender")


class Options:
    def __init__(self, action: Mapping[str, Any], allowed: Sequence[str]) -> None:
        self.action = action
        self.type = str(action.get("type", "attack"))
        for key in action:
            if key != "type" and (not isinstance(key, str) or key not in allowed):
                close = get_close_matches(str(key), list(allowed), n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                known = ", ".join(allowed) or "none"
                raise RulesError(f"action '{self.type}': unknown option '{key}'{hint} (options: {known})")

    def _where(self, key: str) -> str:
        return f"action '{self.type}': option '{key}'"

    def has(self, key: str) -> bool:
        return self.action.get(key) is not None

    def integer(self, key: str, default: int, low: int = -100, high: int = 100) -> int:
        value = self.action.get(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{self._where(key)} must be a whole number, not {value!r}")
        if not low <= value <= high:
            raise RulesError(f"{self._where(key)} must be from {low} to {high}, not {value}")
        return value

    def flag(self, key: str, default: bool) -> bool:
        value = self.action.get(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise RulesError(f"{self._where(key)} must be true or false, not {value!r}")
        return value

    def choice(self, key: str, choices: Sequence[str], default: str | None) -> str | None:
        value = self.action.get(key)
        if value is None:
            return default
        if not isinstance(value, str) or value.strip().lower() not in choices:
            raise RulesError(f"{self._where(key)} must be one of {', '.join(choices)}, not {value!r}")
        return value.strip().lower()

    def side(self, location: Location) -> str | None:
        """Option 'side' for a hit on ``location``: right unless given on a paired one, refused on another."""
        side = self.choice("side", SIDES, None)
        if not location.paired and side is not None:
            raise RulesError(f"{self._where('side')} is only for paired locations, not the {location.label}")
        return (side or "right") if location.paired else None

    def text(self, key: str, default: str | None, limit: int = 80) -> str | None:
        value = self.action.get(key)
        if value is None:
            return default
        if not isinstance(value, str) or not value.strip() or len(value) > limit:
            raise RulesError(f"{self._where(key)} must be text of 1 to {limit} characters, not {value!r}")
        return value.strip()

    def name_or_index(self, key: str) -> str | int | None:
        value = self.action.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise RulesError(f"{self._where(key)} must be a name or an index, not {value!r}")
        if isinstance(value, str) and (not value.strip() or len(value) > 80):
            raise RulesError(f"{self._where(key)} must be a name of 1 to 80 characters")
        return value

    def who(self, default: str = "attacker") -> str:
        value = self.choice("who", WHO, default)
        return default if value is None else value
