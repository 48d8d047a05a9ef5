"""The yes/no confirmation of a destructive command: its buttons and view (the GM decision buttons are in
bot.ui.action_message).

The two buttons are dynamic items (``grv:confirm:<owner>:<token>:<yes|no>``): every press of an id of that
shape reaches ``ConfirmButton``, whichever message it comes from, so a press by anyone but the owner is
answered "not yours" and a press of a prompt that expired (or that a restart forgot) "expired", in one line,
never dropped in silence. The prompt itself (what to do on yes) lives in the bot's memory: a new bot (a
restart) holds none, so a prompt it did not ask is never carried out.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.tree import report_error, send_line
from bot.ui import limits, replies

CONFIRM_PREFIX = "grv:confirm:"
CONFIRM_TEMPLATE = CONFIRM_PREFIX + r"(?P<owner>[0-9]{1,40}):(?P<token>[0-9a-f]{1,64}):(?P<answer>yes|no)"

OnConfirm = Callable[[discord.Interaction[Any]], Awaitable[str]]


@dataclass
class _Prompt:
    owner_id: int
    on_confirm: OnConfirm
    origin: discord.Interaction[Any] | None = None
    expiry: asyncio.Task[None] | None = field(default=None, repr=False)


# The prompts waiting for an answer, by bot (a test process runs several in turn), by token.
_PROMPTS: weakref.WeakKeyDictionary[discord.Client, dict[str, _Prompt]] = weakref.WeakKeyDictionary()


def _prompts(client: discord.Client) -> dict[str, _Prompt]:
    return _PROMPTS.setdefault(client, {})


class ConfirmButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CONFIRM_TEMPLATE):
    def __init__(self, owner_id: int, token: str, answer: str) -> None:
        yes = answer == "yes"
        super().__init__(discord.ui.Button(
            label=replies.CONFIRM_LABEL if yes else replies.CANCEL_LABEL,
            style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
            custom_id=f"{CONFIRM_PREFIX}{owner_id}:{token}:{answer}"))
        self.owner_id = owner_id
        self.token = token
        self.yes = yes

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ConfirmButton:
        owner = match["owner"]
        return cls(int(owner) if len(owner) <= 20 else 0, match["token"], match["answer"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.user.id != self.owner_id:
            await send_line(interaction, replies.error_line(replies.NOT_YOURS))
            return
        prompt = _prompts(interaction.client).pop(self.token, None)
        if prompt is None or prompt.owner_id != self.owner_id:
            await send_line(interaction, replies.error_line(replies.EXPIRED))
            return
        if prompt.expiry is not None:
            prompt.expiry.cancel()
        try:
            if not self.yes:
                await interaction.response.edit_message(content=replies.cancelled(), view=None)
                return
            await interaction.response.defer()
            message = await prompt.on_confirm(interaction)
            await interaction.edit_original_response(content=limits.clip(message, limits.CONTENT), view=None)
        except Exception as exc:
            await report_error(interaction, exc)


class ConfirmView(discord.ui.View):
    """Yes/no for a destructive command; only the invoker may answer, and it expires after ``timeout``
    seconds (the prompt then says so). Set ``origin`` to the interaction it was sent with."""

    def __init__(self, client: discord.Client, owner_id: int, on_confirm: OnConfirm, *,
                 timeout: float = 60.0) -> None:
        super().__init__(timeout=None)
        token = secrets.token_hex(8)
        prompts = _prompts(client)
        self._prompt = prompts[token] = _Prompt(owner_id, on_confirm)
        self._prompt.expiry = asyncio.get_running_loop().create_task(self._expire(prompts, token, timeout))
        self.add_item(ConfirmButton(owner_id, token, "yes"))
        self.add_item(ConfirmButton(owner_id, token, "no"))

    @property
    def origin(self) -> discord.Interaction[Any] | None:
        return self._prompt.origin

    @origin.setter
    def origin(self, interaction: discord.Interaction[Any] | None) -> None:
        self._prompt.origin = interaction

    @staticmethod
    async def _expire(prompts: dict[str, _Prompt], token: str, after: float) -> None:
        await asyncio.sleep(after)
        prompt = prompts.pop(token, None)
        if prompt is not None and prompt.origin is not None:
            with contextlib.suppress(discord.HTTPException):
                await prompt.origin.edit_original_response(content=replies.EXPIRED, view=None)
