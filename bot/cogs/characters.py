"""/character: create, import, show, list, edit, equip and delete campaign characters."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ConfirmDrop
from bot.interactions import actor_of, read_upload
from bot.services.results import CharacterView
from bot.ui import autocomplete, character_embeds, diagram, pictures, replies, sheet_files
from bot.ui.confirm import ConfirmView
from bot.ui.publish import reply, slow
from bot.ui.transformers import Names, Stats
from content.input_guard import SHEET

if TYPE_CHECKING:
    from bot.app import GrievousBot

Name = app_commands.Range[str, 1, 100]


class CharactersCog(commands.GroupCog, group_name="character", group_description="Campaign characters"):
    def __init__(self, bot: GrievousBot) -> None:
        self.bot = bot

    @app_commands.command(name="create", description="Create a character in this channel's system")
    @app_commands.describe(name="The character's name (unique in this server)",
                           stats="Stats as name=value, e.g. str=2 sta=1 dex=1",
                           weapons="Weapons from the content pack, separated by commas",
                           armour="Armour pieces from the content pack, separated by commas",
                           npc="An NPC owned by the GM (GM only)")
    @app_commands.autocomplete(weapons=autocomplete.content_items("weapon"),
                               armour=autocomplete.content_items("armour"))
    async def create(self, interaction: discord.Interaction[GrievousBot], name: Name, stats: Stats | None = None,
                     weapons: Names | None = None, armour: Names | None = None, npc: bool = False) -> None:
        view = await slow(interaction, self.bot.services.characters.create(actor_of(interaction), name, stats or {},
                                                                           weapons or [], armour or [], npc))
        await _answer_edit(interaction, view)

    @app_commands.command(name="import", description="Create a character from a YAML or JSON sheet (64 KiB at most)")
    @app_commands.describe(sheet="A .yaml, .yml or .json file with name, stats, weapons and armour",
                           npc="An NPC owned by the GM (GM only)",
                           replace="Overwrite the sheet of the character with this name (owner or GM)")
    async def import_(self, interaction: discord.Interaction[GrievousBot], sheet: discord.Attachment,
                      npc: bool = False, replace: bool = False) -> None:
        actor = actor_of(interaction)

        data = b""

        async def work() -> CharacterView:
            nonlocal data
            data = await read_upload(sheet, SHEET.max_bytes)
            return await self.bot.services.characters.import_sheet(actor, sheet.filename, data, npc=npc,
                                                                   replace=replace)

        try:
            view = await slow(interaction, work())
        except ConfirmDrop as asked:  # the GM's file would drop what play recorded: ask first, naming it
            await self._confirm_drop(interaction, asked, sheet.filename, data, npc)
            return
        # a player's import over what play recorded says what stayed, instead of the line
        await _answer_edit(interaction, view, sheet_files.kept_recorded(view.name, view.kept) if view.kept else None)

    async def _confirm_drop(self, interaction: discord.Interaction[GrievousBot], asked: ConfirmDrop,
                            filename: str, data: bytes, npc: bool) -> None:
        actor = actor_of(interaction)

        async def confirmed(_: discord.Interaction[Any]) -> str:
            await self.bot.services.characters.import_sheet(actor, filename, data, npc=npc, replace=True,
                                                            drop_recorded=True)
            return sheet_files.dropped_recorded(asked.name, asked.dropped)

        prompt = ConfirmView(interaction.client, interaction.user.id, confirmed)
        await reply(interaction, sheet_files.confirm_drop(asked.name, asked.dropped), view=prompt, ephemeral=True)
        prompt.origin = interaction

    @app_commands.command(name="template", description="A sheet file to fill in for this channel's system")
    async def template(self, interaction: discord.Interaction[GrievousBot]) -> None:
        guide = await slow(interaction, self.bot.services.characters.guide(actor_of(interaction)), ephemeral=True)
        await reply(interaction, sheet_files.template_reply(guide.system), ephemeral=True,
                    file=_file(sheet_files.template_text(guide), sheet_files.template_filename(guide.system)))

    @app_commands.command(name="export", description="A character's sheet as a file that /character import takes")
    @app_commands.describe(name="The character")
    @app_commands.autocomplete(name=autocomplete.character)
    async def export(self, interaction: discord.Interaction[GrievousBot], name: Name) -> None:
        view = await slow(interaction, self.bot.services.characters.export(actor_of(interaction), name),
                          ephemeral=True)
        await reply(interaction, sheet_files.export_reply(view.name), ephemeral=True,
                    file=_file(sheet_files.export_text(view.name, view.system, view.sheet),
                               sheet_files.export_filename(view.name)))

    @app_commands.command(name="show", description="Show a character's sheet and wounds")
    @app_commands.describe(name="The character")
    @app_commands.autocomplete(name=autocomplete.character)
    async def show(self, interaction: discord.Interaction[GrievousBot], name: Name) -> None:
        actor = actor_of(interaction)

        async def drawn() -> tuple[CharacterView, diagram.Png | None]:  # the drawing, too, before the deadline
            view = await self.bot.services.characters.get(actor, name)
            return view, await pictures.body_picture(view.picture)

        view, png = await slow(interaction, drawn())
        embed = character_embeds.character(view)
        await reply(interaction, embed=embed, file=pictures.attach(embed, png) if png else None,
                    ephemeral=view.private)

    @app_commands.command(name="list", description="List the characters of this server")
    @app_commands.describe(mine="Only your own characters")
    async def list_(self, interaction: discord.Interaction[GrievousBot], mine: bool = False) -> None:
        briefs = await slow(interaction, self.bot.services.characters.list(actor_of(interaction), mine),
                            ephemeral=True)
        await reply(interaction, embed=character_embeds.character_list(briefs, mine=mine), ephemeral=True)

    @app_commands.command(name="set-stat", description="Set one stat or field of a sheet (owner or GM)")
    @app_commands.describe(name="The character", stat="The field, dotted for nested ones (abilities.Brawl)",
                           value="The new value (a number or text)")
    @app_commands.autocomplete(name=autocomplete.character)
    async def set_stat(self, interaction: discord.Interaction[GrievousBot], name: Name,
                       stat: app_commands.Range[str, 1, 100], value: app_commands.Range[str, 1, 100]) -> None:
        view = await slow(interaction, self.bot.services.characters.edit_stat(actor_of(interaction), name, stat,
                                                                              value))
        await _answer_edit(interaction, view)

    @app_commands.command(name="condition", description="GM: set or clear a condition on a sheet (/undo takes it back)")
    @app_commands.describe(name="The character", condition="The system's name for it: prone, unconscious, stunned...",
                           on="True: set it; false: clear it")
    @app_commands.autocomplete(name=autocomplete.character)
    async def condition(self, interaction: discord.Interaction[GrievousBot], name: Name,
                        condition: app_commands.Range[str, 1, 40], on: bool) -> None:
        view = await slow(interaction, self.bot.services.characters.set_condition(actor_of(interaction), name,
                                                                                  condition, on))
        await _answer_edit(interaction, view)

    @app_commands.command(name="add-item", description="Give a character a weapon or armour piece")
    @app_commands.describe(name="The character", kind="Weapon or armour", item="The item (autocompletes)")
    @app_commands.autocomplete(name=autocomplete.character, item=autocomplete.content_item)
    async def add_item(self, interaction: discord.Interaction[GrievousBot], name: Name,
                       kind: Literal["weapon", "armour"], item: Name) -> None:
        view = await slow(interaction, self.bot.services.characters.add_item(actor_of(interaction), name, kind,
                                                                             item))
        await _answer_edit(interaction, view)

    @app_commands.command(name="remove-item", description="Take a weapon or armour piece off a character")
    @app_commands.describe(name="The character", kind="Weapon or armour", item="The item on the sheet")
    @app_commands.autocomplete(name=autocomplete.character, item=autocomplete.sheet_item)
    async def remove_item(self, interaction: discord.Interaction[GrievousBot], name: Name,
                          kind: Literal["weapon", "armour"], item: Name) -> None:
        view = await slow(interaction, self.bot.services.characters.remove_item(actor_of(interaction), name, kind,
                                                                                item))
        await _answer_edit(interaction, view)

    @app_commands.command(name="delete", description="Delete a character and its wounds (asks first)")
    @app_commands.describe(name="The character")
    @app_commands.autocomplete(name=autocomplete.character)
    async def delete(self, interaction: discord.Interaction[GrievousBot], name: Name) -> None:
        actor = actor_of(interaction)
        # a typo or someone else's character is a clear line before any prompt
        found = await slow(interaction, self.bot.services.characters.check_can_delete(actor, name), ephemeral=True)

        async def confirmed(_: discord.Interaction[Any]) -> str:
            gone = await self.bot.services.characters.delete(actor, found.name)
            return replies.deleted(gone.name)

        view = ConfirmView(interaction.client, interaction.user.id, confirmed)
        await reply(interaction, replies.confirm_delete(found.name), view=view, ephemeral=True)
        view.origin = interaction


async def _answer_edit(interaction: discord.Interaction[GrievousBot], view: CharacterView,
                       line: str | None = None) -> None:
    """One line in the channel with what changed (``line``, or the edit's); the whole sheet, where it helps,
    privately to whoever made the change (the owner or the GM: the only ones the service lets edit it)."""
    await reply(interaction, line or character_embeds.edit_line(view))
    if view.edit is not None and view.edit.sheet_private:
        await reply(interaction, embed=character_embeds.character(view), ephemeral=True)


def _file(text: str, filename: str) -> discord.File:
    return discord.File(io.BytesIO(text.encode("utf-8")), filename=filename)


async def setup(bot: GrievousBot) -> None:
    await bot.add_cog(CharactersCog(bot))
