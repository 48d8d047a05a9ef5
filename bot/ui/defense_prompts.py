"""An attack waiting for its target's player to choose the defence: the buttons (which survive a restart),
what a press does, and the timer that makes the attack with the table's rule when nobody answers.

The prompt is the /attack's own answer; the attack's result is a follow-up to the press (or, when the time
runs out, to the /attack: Discord keeps its interaction usable for 15 minutes, the wait is one).
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord

from bot.errors import Conflict, NotFound
from bot.interactions import actor_of, bot_of, services_of
from bot.services.actor import Actor
from bot.services.results import DefensePrompt
from bot.tree import report_error
from bot.ui.action_message import publish_report
from bot.ui.defense_embeds import defense_closed, defense_label, defense_prompt
from bot.ui.publish import reply
from bot.ui.stored_id import StoredId
from content.input_guard import bounded_id

log = logging.getLogger(__name__)

DEFENSE_PREFIX = "grv:defense:"
# Ids of any length match, so a forged one gets a line; bounded_id refuses what no stored id can be.
DEFENSE_TEMPLATE = DEFENSE_PREFIX + r"(?P<id>[0-9]{1,40}):(?P<choice>[a-z_]{1,30})"


class DefenseButton(StoredId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=DEFENSE_TEMPLATE):
    def __init__(self, event_id: int, choice: str) -> None:
        super().__init__(discord.ui.Button(
            label=defense_label(choice),
            style=discord.ButtonStyle.secondary if choice == "none" else discord.ButtonStyle.primary,
            custom_id=f"{DEFENSE_PREFIX}{event_id}:{choice}"))
        self.event_id = event_id
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DefenseButton:
        event_id = bounded_id(match["id"])
        return cls(event_id or 0, match["choice"]).with_id(event_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await self.refused_stale(interaction):
            return
        try:
            await interaction.response.defer()  # answered before the write: the prompt is edited after
            prompt, report = await services_of(interaction).combat.answer_defense(
                actor_of(interaction), self.event_id, self.choice)
            assert report.defense_asked is not None
            await interaction.edit_original_response(
                content=defense_closed(prompt, report.defense_asked, interaction.user.id), view=None,
                allowed_mentions=discord.AllowedMentions.none())
            await publish_report(interaction, report)
        except Exception as exc:
            await report_error(interaction, exc)


def prompt_view(prompt: DefensePrompt) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for choice in prompt.choices:
        view.add_item(DefenseButton(prompt.event_id, choice))
    return view


async def post_prompt(interaction: discord.Interaction[Any], prompt: DefensePrompt) -> None:
    """The prompt as the /attack's answer, pinging the target's player; the timer started."""
    await reply(interaction, defense_prompt(prompt), view=prompt_view(prompt),
                mentions=discord.AllowedMentions(users=[discord.Object(prompt.owner_id)]))
    bot_of(interaction).start_wait(_time_out(interaction, actor_of(interaction), prompt))


async def _time_out(interaction: discord.Interaction[Any], actor: Actor, prompt: DefensePrompt) -> None:
    """No answer in time: the attack is made with the table's rule (``unnamed_defense``), and says so."""
    await asyncio.sleep(prompt.seconds)
    try:
        prompt, report = await services_of(interaction).combat.answer_defense(actor, prompt.event_id, None)
    except (Conflict, NotFound):
        return  # answered meanwhile, or the fight is over
    assert report.defense_asked is not None
    try:
        await interaction.edit_original_response(content=defense_closed(prompt, report.defense_asked, None),
                                                 view=None, allowed_mentions=discord.AllowedMentions.none())
        await publish_report(interaction, report)
    except discord.HTTPException as exc:
        log.warning("could not post the attack made after an unanswered defence prompt: %s", exc)
