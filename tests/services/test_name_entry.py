"""Issue 24 section 1 at entry: a name with markup is refused in one line, a name that reads the same as
another in the server is refused, and so is a player's character named like an NPC's numbered name;
characters stored before these rules keep working."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from bot.db import repositories as repo
from bot.errors import UserError
from tests.services.test_guards import refused


async def test_a_name_with_a_masked_link_or_a_mention_is_refused_and_nothing_is_stored(table: Any,
                                                                                      alice: Any) -> None:
    for name in ("[Free Nitro](https://discord-gift.example/claim)", "@everyone", "<@&123>", "# Big Knight",
                 "**Bold** ||spoiler||", "```", "Ald\u200bo", "Ev\u202eil"):
        await refused(table, UserError, "a name holds letters, digits, spaces", table.characters.create(alice, name))


async def test_a_name_that_reads_the_same_as_another_in_the_server_is_refused(table: Any, bob: Any) -> None:
    # Cyrillic А for Latin A; a Greek omicron-free spelling with 0 for o; Aldo is Alice's
    await refused(table, UserError, "reads the same as 'Aldo'", table.characters.create(bob, "\u0410ldo"))
    await refused(table, UserError, "reads the same as 'Aldo'", table.characters.create(bob, "Ald0"))
    await refused(table, UserError, "reads the same as 'Brun'", table.characters.create(bob, "\u0392run"))
    assert (await table.characters.create(bob, "Aldous")).name == "Aldous"


async def test_a_players_character_cannot_read_like_an_npcs_numbered_name(table: Any, alice: Any, gm: Any) -> None:
    await refused(table, UserError, "numbered name of an NPC", table.characters.create(alice, "Bandit 1"))
    await refused(table, UserError, "numbered name of an NPC", table.characters.create(alice, "B\u0430ndit 7"))
    await table.encounters.add_npcs(gm, "knight", 1, name_prefix="Black Guard")
    await refused(table, UserError, "numbered name of an NPC", table.characters.create(alice, "Black Guard 2"))
    assert (await table.characters.create(alice, "Bandit Queen")).name == "Bandit Queen"
    assert (await table.characters.create(gm, "Bandit 9", npc=True)).name == "Bandit 9"  # the GM's own NPC


async def test_a_character_stored_before_the_rules_keeps_working(table: Any, alice: Any) -> None:
    legacy = "**Bold** [x](https://evil.example)"
    async with table.db.sessions() as session, session.begin():
        await session.execute(text("UPDATE characters SET name = :name, name_key = :key WHERE name = 'Aldo'"),
                              {"name": legacy, "key": repo.name_key(legacy)})
    view = await table.characters.get(alice, legacy)
    assert view.name == legacy
    assert (await table.characters.edit_stat(alice, legacy, "str", 13)).sheet["str"] == 13
    assert legacy in await table.characters.names(alice, "bold")
