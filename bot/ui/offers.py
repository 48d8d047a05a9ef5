"""A treatment offered to someone else's character: the Accept and Decline buttons its owner (or the GM) presses.

The offer's event id lives in the custom_id, so the buttons work after a restart; the service refuses an
offer already answered, so a second press is one clear line.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.interactions import actor_of, services_of
from bot.services.results import TreatmentOffer
from bot.tree import report_error
from bot.ui import character_embeds, replies
from bot.ui.action_message import publish_report
from bot.ui.publish import reply
from bot.ui.stored_id import StoredId
from content.input_guard import bounded_id

OFFER_PREFIX = "grv:offer:"
# Ids of any length match, so a forged one gets a line; bounded_id refuses what no stored id can be.
OFFER_TEMPLATE = OFFER_PREFIX + r"(?P<id>[0-9]{1,40}):(?P<answer>accept|decline)"


class OfferButton(StoredId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=OFFER_TEMPLATE):
    def __init__(self, event_id: int, answer: str) -> None:
        accept = answer == "accept"
        super().__init__(discord.ui.Button(
            label=replies.ACCEPT_LABEL if accept else replies.DECLINE_LABEL,
            style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
            custom_id=f"{OFFER_PREFIX}{event_id}:{answer}"))
        self.event_id = event_id
        self.accept = accept

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OfferButton:
        event_id = bounded_id(match["id"])
        return cls(event_id or 0, match["answer"]).with_id(event_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await self.refused_stale(interaction):
            return
        try:
            await interaction.response.defer()  # answered before the write: the offer's message is edited after
            offer, report = await services_of(interaction).injuries.answer_offer(
                actor_of(interaction), self.event_id, self.accept)
            await interaction.edit_original_response(
                content=character_embeds.offer_answered(offer, self.accept, interaction.user.id), view=None,
                allowed_mentions=discord.AllowedMentions.none())
            if report is not None:
                await publish_report(interaction, report)
        except Exception as exc:
            await report_error(interaction, exc)


def offer_view(offer: TreatmentOffer) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(OfferButton(offer.event_id, "accept"))
    view.add_item(OfferButton(offer.event_id, "decline"))
    return view


async def post_offer(interaction: discord.Interaction[Any], offer: TreatmentOffer) -> None:
    """The offer in the channel, naming (and pinging) who may accept."""
    await reply(interaction, character_embeds.treatment_offer(offer), view=offer_view(offer),
                mentions=discord.AllowedMentions(users=[discord.Object(offer.owner_id)]) if not offer.npc else None)
