"""What every persistent button whose custom id carries a stored row's id shares (GM decisions, Details,
treatment offers).

Their templates match ids of any length, so a forged or corrupted id is answered with one line rather than
dropped in silence; ``content.input_guard.bounded_id`` says whether a stored row can have it at all (64 bits).
"""

from __future__ import annotations

from typing import Any, Self

import discord

from bot.tree import send_line
from bot.ui import replies


class StoredId:
    """Mixed into a ``DynamicItem``: ``with_id`` marks a pressed button whose id no row can have, and
    ``refused_stale`` answers such a press with one line."""

    valid = True

    def with_id(self, stored: int | None) -> Self:
        self.valid = stored is not None
        return self

    async def refused_stale(self, interaction: discord.Interaction[Any]) -> bool:
        """True (and the user told) when the pressed id cannot be a stored one."""
        if self.valid:
            return False
        await send_line(interaction, replies.error_line(replies.STALE_BUTTON))
        return True
