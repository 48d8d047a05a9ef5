"""The rule systems' display names and the names of what each rolls, for the embeds and the services' lines."""

from __future__ import annotations

SYSTEM_TITLES = {
    "ars-harn": "Ars Magica \u00d7 HarnMaster",
    "pendragon": "King Arthur Pendragon",
    "fading-suns": "Fading Suns",
}


def system_title(system: str) -> str:
    return SYSTEM_TITLES.get(system, system)


# The rolls a wound (or a fumble) calls for, which the bot makes unless /setup rolls mode:gm leaves them to the GM.
GM_ROLLS = {
    "ars-harn": "shock and kill rolls",
    "pendragon": "knockdown, major wound and fall rolls",
    "fading-suns": "wound-effect, STUMBLE and FUMBLE rolls",
}


def gm_rolls(system: str) -> str:
    """``shock and kill rolls``: what /setup rolls switches, in the system's words."""
    return GM_ROLLS.get(system, "the rolls a wound calls for")


def gm_rolls_heading(system: str) -> str:
    """``Shock and kill rolls``: the same, starting a sentence or a field."""
    words = gm_rolls(system)
    return words[:1].upper() + words[1:]
