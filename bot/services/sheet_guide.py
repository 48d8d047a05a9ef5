"""What a player needs to write a sheet in a system: its field description and the pack names it may use.

Built from the server's catalog (homebrew files included), for ``/character template`` and ``/help``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.model import Catalog
from rules.registry import get_engine
from rules.sheet_spec import SheetSpec

PACK_LISTS = ("weapons", "armour", "horses", "shields", "skills")


@dataclass(frozen=True)
class SheetGuide:
    system: str
    spec: SheetSpec
    names: dict[str, tuple[str, ...]]  # pack list ("weapons", "skills", ...) -> the names a sheet may use
    roll_labels: tuple[str, ...] = ()  # the labels the ``dice`` option takes in this system


def sheet_guide(system: str, catalog: Catalog) -> SheetGuide:
    """The guide for ``system`` from its loaded ``catalog``."""
    spec: SheetSpec = catalog.sheet
    return SheetGuide(system=system, spec=spec,
                      names={items: tuple(catalog.sheet_names(items)) for items in PACK_LISTS},
                      roll_labels=tuple(sorted(get_engine(system).roll_labels)))
