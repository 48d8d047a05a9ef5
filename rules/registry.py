"""The rule systems, keyed by the ids that /setup system, content packs and stored events use; each engine is
imported only when asked for."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any, cast

from rules.errors import UnknownEntry
from rules.model import Engine
from rules.outcome import Outcome, UnknownOutcome

# system id -> module that exposes ``ENGINE``
SYSTEMS: dict[str, str] = {
    "ars-harn": "rules.ars_harn.engine",
    "pendragon": "rules.pendragon.engine",
    "fading-suns": "rules.fading_suns.engine",
}

# system id -> module that exposes ``RECORDS`` (action -> outcome record type), for the systems whose outcomes
# (docs/decisions/typed-outcomes.md); a stored outcome no record reads is an UnknownOutcome.
OUTCOMES: dict[str, str] = {
    "ars-harn": "rules.ars_harn.outcomes",
    "fading-suns": "rules.fading_suns.outcomes",
    "pendragon": "rules.pendragon.outcomes",
}

_loaded: dict[str, Engine] = {}
_records: dict[str, Mapping[str, type[Outcome]]] = {}


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
            raise UnknownEntry(f"system '{system_id}' has no engine module ({module_name})") from exc
        raise
    engine = cast(Engine, module.ENGINE)
    _loaded[system_id] = engine
    return engine


def available_ids() -> list[str]:
    """The systems whose engine modules import."""
    out = []
    for system_id in SYSTEMS:
        try:
            get_engine(system_id)
        except UnknownEntry:
            continue
        out.append(system_id)
    return out


def outcome_records(system_id: str) -> Mapping[str, type[Outcome]]:
    """The record type of each action of ``system_id`` (empty for a system not installed)."""
    records = _records.get(system_id)
    if records is None:
        module_name = OUTCOMES.get(system_id)
        records = {} if module_name is None else cast(Mapping[str, type[Outcome]], import_module(module_name).RECORDS)
        _records[system_id] = records
    return records


def read_outcome(system_id: str, stored: Any) -> Outcome:
    """An outcome as an event stored it (``Outcome.to_dict``), as its record again; tolerant, so what older code
    stored still reads. A record is returned as it is; a payload no record reads (an action or a system this code
    does not have, no action named, not a mapping) as an UnknownOutcome that keeps it whole."""
    if isinstance(stored, Outcome):
        return stored
    if not isinstance(stored, Mapping):
        return UnknownOutcome()
    record = outcome_records(system_id).get(str(stored.get("action")))
    return record.from_dict(stored) if record is not None else UnknownOutcome.from_dict(stored)
