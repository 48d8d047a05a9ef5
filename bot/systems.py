"""The rule systems' display names, for the embeds and for the lines services answer with."""

from __future__ import annotations

SYSTEM_TITLES = {
    "ars-harn": "Ars Magica \u00d7 HarnMaster",
    "pendragon": "King Arthur Pendragon",
    "fading-suns": "Fading Suns",
}


def system_title(system: str) -> str:
    return SYSTEM_TITLES.get(system, system)
