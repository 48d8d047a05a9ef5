"""Reading an action's options: every option is checked, an unknown one is named."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import RulesError


class Options:
    def __init__(self, action: Mapping[str, Any], kind: str, known: tuple[str, ...]) -> None:
        self.action = action
        self.kind = kind
        for name in action:
            if name != "type" and name not in known:
                listed = ", ".join(known) if known else "none"
                raise RulesError(f"action {kind}: unknown option '{name}' (options: {listed})")

    def _where(self, name: str) -> str:
        return f"action {self.kind}: option '{name}'"

    def flag(self, name: str, default: bool | None = None) -> bool | None:
        value = self.action.get(name, default)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise RulesError(f"{self._where(name)} must be true or false, not {value!r}")
        return value

    def whole(self, name: str, default: int | None = None, low: int = -1000, high: int = 1000) -> int | None:
        value = self.action.get(name, default)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{self._where(name)} must be a whole number, not {value!r}")
        if not low <= value <= high:
            raise RulesError(f"{self._where(name)} must be between {low} and {high}, not {value}")
        return value

    def text(self, name: str, default: str | None = None, choices: tuple[str, ...] | None = None) -> str | None:
        value = self.action.get(name, default)
        if value is None:
            return default
        if not isinstance(value, str) or not value.strip() or len(value) > 100:
            raise RulesError(f"{self._where(name)} must be a short name, not {value!r}")
        if choices is not None and value not in choices:
            raise RulesError(f"{self._where(name)} must be one of {', '.join(choices)}, not '{value}'")
        return value

    def names(self, name: str) -> tuple[str, ...]:
        value = self.action.get(name)
        if value is None:
            return ()
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list | tuple) or len(value) > 20:
            raise RulesError(f"{self._where(name)} must be a name or a list of names")
        out = []
        for item in value:
            if not isinstance(item, str) or not item.strip() or len(item) > 100:
                raise RulesError(f"{self._where(name)} must hold names, not {item!r}")
            out.append(item)
        return tuple(out)
