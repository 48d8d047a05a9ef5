"""The rule systems on the bot side: one profile each (``bot/systems/<system>.py``), found here by system id.

A system is one engine (``rules/<system>/``), one content pack (``content/<system>/``) and one profile; the
services and the embeds ask the profile instead of keeping a table per system. A system with no profile (a
test's stand-in engine) gets each caller's neutral fallback: its own names, everything shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.systems import ars_harn, fading_suns, pendragon
from bot.systems.profile import SystemProfile

PROFILES: Mapping[str, SystemProfile] = MappingProxyType(
    {p.system: p for p in (ars_harn.PROFILE, pendragon.PROFILE, fading_suns.PROFILE)})


def profile_of(system: str) -> SystemProfile | None:
    """``system``'s profile; None for a system the bot has none for."""
    return PROFILES.get(system)


SYSTEM_TITLES = {system: p.title for system, p in PROFILES.items()}


def system_title(system: str) -> str:
    return SYSTEM_TITLES.get(system, system)


# The rolls a wound (or a fumble) calls for, which the bot makes unless /setup rolls mode:gm leaves them to the GM.
GM_ROLLS = {system: p.gm_rolls for system, p in PROFILES.items()}


def gm_rolls(system: str) -> str:
    """``shock and kill rolls``: what /setup rolls switches, in the system's words."""
    return GM_ROLLS.get(system, "the rolls a wound calls for")


def gm_rolls_heading(system: str) -> str:
    """``Shock and kill rolls``: the same, starting a sentence or a field."""
    words = gm_rolls(system)
    return words[:1].upper() + words[1:]
