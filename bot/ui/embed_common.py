"""What every embed builder shares: the systems' display names (from bot.systems), the embed frame, "Done"."""

from __future__ import annotations

import discord

from bot.systems import SYSTEM_TITLES, system_title
from bot.ui import limits
from bot.ui.outcomes import Severity

__all__ = ["SYSTEM_TITLES", "done", "signed_modifier", "system_title"]


def _embed(title_text: str, description: str = "", colour: int = Severity.INFO.colour) -> discord.Embed:
    return discord.Embed(title=limits.clip(title_text, limits.TITLE), description=description or None,
                         colour=discord.Colour(colour))


def done(message: str) -> discord.Embed:
    return limits.fit(_embed("\u2705 Done", message, Severity.LIGHT.colour))


def signed_modifier(modifier: int, before: str = " ") -> str:
    """A roll's constant as it is added to the dice ("+2", "-1"), or nothing for 0."""
    return f"{before}{modifier:+d}" if modifier else ""
