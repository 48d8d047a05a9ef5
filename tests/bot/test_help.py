"""/help speaks of the channel's system: its sheet fields and ranges, its attack options, its rolls; and
docs/commands.md lists the same sheet fields."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.services.sheet_guide import sheet_guide
from bot.ui.help_embeds import TITLES, help_topic, sheet_lines
from content import load_catalog
from rules.registry import system_ids

DOCS = Path(__file__).resolve().parents[2] / "docs" / "commands.md"
# Words that belong to one system's help only.
OWN_WORDS = {"ars-harn": ["`qik`", "`aspect`", "/cast", "stress+5"],
             "pendragon": ["`siz`", "`charge`", "`mounted`", "d20 vs 14"],
             "fading-suns": ["`extrovert`", "dodges or parries", "fs vs 12"]}


def text(topic: str, system: str) -> str:
    guide = sheet_guide(system, load_catalog(system))
    embed = help_topic(topic, system, guide, guide.roll_labels)
    return f"{embed.title}\n{embed.description}"


@pytest.mark.parametrize("system", system_ids())
def test_help_on_characters_lists_the_systems_own_fields_with_their_ranges(system: str) -> None:
    shown = text("characters", system)
    for field in load_catalog(system).sheet.player_fields():
        if field.name != "name":
            assert f"`{field.name}`" in shown, field.name
    for line in sheet_lines(load_catalog(system).sheet.player_fields()):
        assert line in shown


@pytest.mark.parametrize("system", system_ids())
def test_no_topic_speaks_of_another_systems_stats_options_or_rolls(system: str) -> None:
    everything = "\n".join(text(topic, system) for topic in TITLES)
    for other, words in OWN_WORDS.items():
        for word in words:
            assert (word in everything) == (other == system), (system, word)


def test_help_in_a_direct_message_says_what_differs_between_the_systems() -> None:
    embed = help_topic("combat")
    assert "King Arthur Pendragon: `mounted`" in str(embed.description) and embed.title == "\u2753 Combat"


@pytest.mark.parametrize("system", system_ids())
def test_docs_list_each_systems_sheet_fields_as_help_does(system: str) -> None:
    docs = re.sub(r"\s+", " ", DOCS.read_text(encoding="utf-8"))
    for line in sheet_lines(load_catalog(system).sheet.player_fields()):
        assert line in docs, line


def test_help_on_setup_lists_every_setup_and_pack_command_and_says_uploads_merge() -> None:
    # issue 34, N9: the manager's page names each command they have, and an upload merges into the pack's file
    from bot.cogs.packs import PacksCog
    from bot.cogs.setup import SetupCog
    shown = text("setup", "pendragon")
    for group, cog in (("setup", SetupCog), ("pack", PacksCog)):
        for command in cog.__cog_app_commands__:
            assert f"/{group} {command.name}" in shown, command.name
    assert "merged into the pack's file" in shown and "replaces the pack's file" not in shown


def test_setup_check_points_only_at_a_section_it_shows() -> None:
    # issue 34, N10: with nothing to change but the commands, "see What to change" pointed at no section
    from bot.discord_permissions import BOT_PERMISSIONS
    from bot.ui.setup_embeds import setup_check
    for current, problem in ((False, None), (True, None)):
        embed = setup_check("#combat", [(needed, True) for needed in BOT_PERMISSIONS], None, None, current, problem)
        fields = [field.name for field in embed.fields]
        pointed = re.findall(r"see \*\*(.+?)\*\*", str(embed.description))
        assert all(name in fields for name in pointed), (embed.description, fields)
        assert bool(pointed) != current


def test_getting_started_says_how_a_sheet_is_imported_in_words() -> None:
    # issue 34, N11: "then `/character import`s it" read as "then /character imports it"
    shown = text("start", "ars-harn")
    assert "`s" not in shown and "imports it with `/character import`" in shown
