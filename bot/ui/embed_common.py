"""What every embed builder shares: the systems' display names, the embed frame and the "Done" embed."""

from __future__ import annotations

import discord

from bot.ui import limits
from bot.ui.outcomes import Severity

SYSTEM_TITLES = {
    "ars-harn": "Ars Magica \u00d7 HarnMaster",
    "pendragon": "King Arthur Pendragon",
    "fading-suns": "Fading Suns",
}


def system_title(system: str) -> str:
    return SYSTEM_TITLES.get(system, system)


def _embed(title_text: str, description: str = "", colour: int = Severity.INFO.colour) -> discord.Embed:
    return discord.Embed(title=limits.clip(title_text, limits.TITLE), description=description or None,
                         colour=discord.Colour(colour))


def done(message: str) -> discord.Embed:
    return limits.fit(_embed("\u2705 Done", message, Severity.LIGHT.colour))


def signed_modifier(modifier: int, before: str = " ") -> str:
    """A roll's constant as it is added to the dice ("+2", "-1"), or nothing for 0."""
    return f"{before}{modifier:+d}" if modifier else ""
