"""Small helpers the system adapters share: reading outcome fields, grouping faces, tallying leaves."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any

from rules.odds.tree import Distribution, History, Leaf


def check_result(value: Any) -> str | None:
    """A follow-up check as a leaf reads it: passed, failed, automatic (failed without a roll), or None."""
    if not isinstance(value, Mapping):
        return None
    if value.get("automatic"):
        return "automatic"
    if "passed" in value:
        return "passed" if value["passed"] else ("botched" if value.get("botched") else "failed")
    if "result" in value:
        return str(value["result"])
    return None


def make_leaf(pairs: Iterable[tuple[str, Any]]) -> Leaf:
    out: list[tuple[str, Hashable]] = []
    for name, value in pairs:
        if isinstance(value, list):
            value = tuple(value)
        out.append((name, value))
    return tuple(out)


def group_faces(low: int, high: int, meaning: Callable[[int], Hashable]) -> list[tuple[int, ...]]:
    """Faces low..high grouped by what they mean, in the order the meanings first appear."""
    groups: dict[Hashable, list[int]] = {}
    for face in range(low, high + 1):
        groups.setdefault(meaning(face), []).append(face)
    return [tuple(g) for g in groups.values()]


def last(history: History, label: str) -> Hashable | None:
    for name, key in reversed(history):
        if name == label:
            return key
    return None


def labels(history: History) -> tuple[str, ...]:
    return tuple(name for name, _ in history)


def spread(dist: Distribution, field: str, when: Callable[[dict[str, Hashable]], bool] | None = None
           ) -> dict[str, float]:
    """The probability of each value of ``field`` over the leaves (``when`` filters them)."""
    out: dict[str, float] = {}
    for row, p in dist.rows():
        if when is not None and not when(row):
            continue
        value = row.get(field)
        name = "none" if value is None else str(value)
        out[name] = out.get(name, 0.0) + p
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))
