"""How an /odds row reads its probability from a ``rules.odds`` summary (the profiles' ``odds`` rows)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Summary = Mapping[str, Any]
Getter = Callable[[Summary], float]
OddsRow = tuple[str, Getter]  # (label, probability)

# a row that is part of one before it (a reader must not add it to the rest)
NESTED = "\u00bb "


def detail(name: str, key: str | None = None) -> Getter:
    def get(summary: Summary) -> float:
        value = summary["detail"][name]
        return float(value.get(key, 0.0) if key is not None else value)
    return get


def top(name: str) -> Getter:
    return lambda summary: float(summary[name])


def less(first: Getter, second: Getter) -> Getter:
    return lambda summary: max(0.0, first(summary) - second(summary))
