"""Buttons: the yes/no confirmation of a destructive command (the GM decision buttons are in bot.ui.decisions)."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.tree import report_error, send_line
from bot.ui import embeds, limits


class ConfirmView(discord.ui.View):
    """Yes/no for a destructive command; only the invoker may answer, and it expires."""

    def __init__(self, owner_id: int, on_confirm: Callable[[discord.Interaction[Any]], Awaitable[str]],
                 *, timeout: float = 60.0) -> None:
        super().__init__(timeout=timeout)
        self.owner_id = owner_id
        self.on_confirm = on_confirm
        self.origin: discord.Interaction[Any] | None = None

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.user.id == self.owner_id:
            return True
        await send_line(interaction, embeds.error_line(embeds.NOT_YOURS))
        return False

    @discord.ui.button(label=embeds.CONFIRM_LABEL, style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        self.stop()
        await interaction.response.defer()
        message = await self.on_confirm(interaction)
        await interaction.edit_original_response(content=limits.clip(message, limits.CONTENT), view=None)

    @discord.ui.button(label=embeds.CANCEL_LABEL, style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        self.stop()
        await interaction.response.edit_message(content=embeds.cancelled(), view=None)

    async def on_timeout(self) -> None:
        if self.origin is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.origin.edit_original_response(content=embeds.EXPIRED, view=None)

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception,
                       item: discord.ui.Item[Any], /) -> None:
        await report_error(interaction, error)
