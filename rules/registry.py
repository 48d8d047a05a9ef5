"""Systems plug in here, keyed by the ids in DESIGN.md; each is imported only when asked for."""

from __future__ import annotations

from importlib import import_module
from typing import cast

from rules.errors import UnknownEntry
from rules.model import Engine

# system id -> module that exposes ``ENGINE``
SYSTEMS: dict[str, str] = {
    "ars-harn": "rules.ars_harn.engine",
    "pendragon": "rules.pendragon.engine",
    "fading-suns": "rules.fading_suns.engine",
}

_loaded: dict[str, Engine] = {}


def system_ids() -> list[str]:
    return list(SYSTEMS)


def get_engine(system_id: str) -> Engine:
    """The engine for ``system_id``; an unknown id names the known ones."""
    if system_id in _loaded:
        return _loaded[system_id]
    module_name = SYSTEMS.get(system_id)
    if module_name is None:
        known = ", ".join(SYSTEMS)
        raise UnknownEntry(f"unknown system '{system_id}' (known: {known})")
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise UnknownEntry(f"system '{system_id}' is not implemented yet") from exc
        raise
    engine = cast(Engine, module.ENGINE)
    _loaded[system_id] = engine
    return engine


def available_ids() -> list[str]:
    """The systems whose engines import (all three once they are built)."""
    out = []
    for system_id in SYSTEMS:
        try:
            get_engine(system_id)
        except UnknownEntry:
            continue
        out.append(system_id)
    return out
