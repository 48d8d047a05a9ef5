"""Forms (Discord's modals) that work across a restart: their submit is routed by its custom_id.

discord.py keeps a sent modal in its view store, in this process's memory and with a timeout; a submit it
does not find there it drops, and the user sees "This interaction failed" (a bot restarted, or the GM took
longer than the timeout). Like the dynamic buttons, a form here carries what its submit needs in its
custom_id (any more is read from the database, and who may submit is checked again): ``unstored`` sends a
modal discord.py does not keep, and ``FormRoutes.dispatch`` (the bot's ``on_interaction``) hands every submit
to the handler whose pattern its custom_id matches. Any other submit gets one line.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

import discord

from bot.tree import report_error, send_line
from bot.ui import replies

log = logging.getLogger(__name__)

Submitted = Callable[[discord.Interaction[Any], re.Match[str]], Awaitable[None]]


def unstored(modal: discord.ui.Modal) -> discord.ui.Modal:
    """``modal``, stopped before it is sent: ``send_modal`` stores only a modal still listening, so its submit
    reaches ``FormRoutes`` alone, whether this process sent it or one before a restart."""
    modal.stop()
    return modal


def text_values(data: object) -> dict[str, str]:
    """A submitted form's text values by custom_id (its ``interaction.data``: inputs in action rows, or in
    labels)."""
    values: dict[str, str] = {}

    def walk(components: Iterable[Any]) -> None:
        for component in components:
            if not isinstance(component, Mapping):
                continue
            if isinstance(component.get("value"), str) and isinstance(component.get("custom_id"), str):
                values[component["custom_id"]] = component["value"]
            walk(component.get("components") or ())
            inner = component.get("component")
            if inner is not None:
                walk((inner,))

    if isinstance(data, Mapping):
        walk(data.get("components") or ())
    return values


class FormRoutes:
    """The bot's form handlers, by the pattern of their custom_id (matched in full)."""

    def __init__(self) -> None:
        self._routes: list[tuple[re.Pattern[str], Submitted]] = []

    def add(self, template: str, handler: Submitted) -> None:
        self._routes.append((re.compile(template), handler))

    async def dispatch(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: Mapping[str, Any] = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        for pattern, handler in self._routes:
            match = pattern.fullmatch(custom_id)
            if match is not None:
                try:
                    await handler(interaction, match)
                except Exception as exc:
                    await report_error(interaction, exc)
                return
        # A form of an older version, or a forged one: one line, not silence. (Every modal the bot sends is
        # ``unstored``, so no submit is left for discord.py's view store to answer.)
        log.info("a modal submit no form of this version matches: %.60r", custom_id)
        await send_line(interaction, replies.error_line(replies.STALE_FORM))
