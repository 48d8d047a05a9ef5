"""A new player's first character, through Discord: a bare /character create lists every field it lacks,
/character template attaches a sheet for the server's system that imports as shipped and once filled in,
and /character export attaches a sheet that /character import takes back unchanged."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from emulator import Message


def attached(message: Message) -> tuple[str, str]:
    [attachment] = message.attachments
    return attachment.filename, attachment.data.decode("utf-8")


def fill(template: str, values: dict[str, str]) -> str:
    """The template with the values after some fields' colons changed (and an optional field taken in)."""
    for field, value in values.items():
        template, count = re.subn(rf"^(# )?{field}:.*$", f"{field}: {value}", template, count=1, flags=re.M)
        assert count == 1, field
    return template


async def sheet_of(table: Any, name: str) -> dict[str, Any]:
    view = await table.bot.services.characters.get(_actor(table), name)
    return dict(view.sheet)


def _actor(table: Any) -> Any:
    from bot.services.actor import Actor

    return Actor(guild_id=table.world.guild.id, channel_id=table.combat.id, user_id=table.gm.id,
                 user_name="gm", role_ids=(table.world.gm_role.id,), is_manager=False)


async def test_a_pendragon_player_goes_from_a_bare_create_to_an_imported_and_exported_knight(table: Any) -> None:
    await table.setup("pendragon")

    # Help speaks of Pendragon's stats, not ars-harn's.
    helped = await table.run("help", {"topic": "characters"}, user=table.alice)
    shown = table.text(helped)
    assert helped.ephemeral and "Characters \u2014 King Arthur Pendragon" in shown
    assert "Required, 1 to 200: `siz` Size, `dex` Dexterity" in shown and "`qik`" not in shown

    # Every missing stat in one private answer, with its meaning and range, and where a whole sheet is.
    handle = await table.send("character create", {"name": "Hrolf"}, user=table.alice)
    refusal = await handle.message()
    assert refusal.ephemeral and not table.public()
    assert refusal.content.splitlines() == [
        "\u26a0\ufe0f **Hrolf**: 5 fields to fix:",
        "\u2022 field 'siz' is missing: Size, 1 to 200",
        "\u2022 field 'dex' is missing: Dexterity, 1 to 200",
        "\u2022 field 'str' is missing: Strength, 1 to 200",
        "\u2022 field 'con' is missing: Constitution, 1 to 200",
        "\u2022 field 'app' is missing: Appearance, 1 to 200",
        "A sheet with every field: `/character template`.",
    ]

    # The template: a Pendragon sheet attached, listing the server's horses; as shipped, it imports.
    answer = await table.run("character template", user=table.alice)
    filename, template = attached(answer)
    assert answer.ephemeral and filename == "pendragon-sheet.yaml"
    assert "siz: 10" in template and "charger, courser, rouncy" in template and "# horse: charger" in template
    shipped = await table.sheet("character import", {"sheet": table.emu.make_attachment(filename, template.encode())},
                              user=table.alice)
    assert shipped.embeds[0]["title"] == "New Knight"

    # Filled in, with no other edit: a mounted knight whose charge has a horse.
    filled = fill(template, {"name": "Sir Gawain", "siz": "15", "str": "15", "con": "14",
                             "skills": "{lance: 15, sword: 18, horsemanship: 14}", "weapons": "[lance, sword]",
                             "armour": "[chainmail, shield]", "horse": "charger"})
    knight = await table.sheet("character import", {"sheet": table.emu.make_attachment(filename, filled.encode())},
                             user=table.alice)
    assert knight.embeds[0]["title"] == "Sir Gawain"
    before = await sheet_of(table, "Sir Gawain")
    assert before["horse"] == "charger" and before["weapons"] == ["lance", "sword"]

    # Exported, then imported over itself: the same sheet.
    exported = await table.run("character export", {"name": "Sir Gawain"}, user=table.bob)
    filename, text = attached(exported)
    assert exported.ephemeral and filename == "Sir-Gawain.yaml" and "horse: charger" in text
    await table.run("character import", {"sheet": table.emu.make_attachment(filename, text.encode()),
                                         "replace": True}, user=table.alice)
    assert await sheet_of(table, "Sir Gawain") == before


async def test_an_older_export_never_heals_a_player_and_the_gm_drops_wounds_only_once_confirmed(
        table: Any) -> None:
    """Issue 34, N8: the player's re-import keeps the wound taken since (one line says so); the GM's asks
    first, listing what goes, and the button imports it."""
    await table.setup("pendragon")
    sheet = (b"name: Sir Brunor\nsiz: 14\ndex: 12\nstr: 13\ncon: 14\napp: 11\nskills: {sword: 16}\n"
             b"weapons: [sword]\n")
    await table.run("character import", {"sheet": table.emu.make_attachment("brunor.yaml", sheet)},
                    user=table.alice)
    wounded = sheet + b"wounds: [{index: 1, amount: 6, remaining: 6, major: false}]\nprone: true\n"
    await table.run("character import", {"sheet": table.emu.make_attachment("brunor.yaml", wounded),
                                         "replace": True}, user=table.gm)

    again = await table.run("character import", {"sheet": table.emu.make_attachment("brunor.yaml", sheet),
                                                 "replace": True}, user=table.alice)
    assert again.content == ("**Sir Brunor** keeps what play recorded and the file lacks (wound (6 HP), prone): an "
                             "import never heals; only the GM can import over it.")
    assert len((await sheet_of(table, "Sir Brunor"))["wounds"]) == 1

    asked = await table.send("character import", {"sheet": table.emu.make_attachment("brunor.yaml", sheet),
                                                   "replace": True}, user=table.gm)
    prompt = await asked.message()
    assert prompt.content == ("This file lacks what play recorded on **Sir Brunor**: wound (6 HP), prone. Import it "
                              "and drop them?")
    assert len((await sheet_of(table, "Sir Brunor"))["wounds"]) == 1
    [yes] = [i for i in prompt.custom_ids if i.endswith(":yes")]
    await table.emu.click(prompt, yes, user=table.gm)
    for _ in range(100):
        if not (await sheet_of(table, "Sir Brunor"))["wounds"]:
            break
        await asyncio.sleep(0.05)
    brunor = await sheet_of(table, "Sir Brunor")
    assert brunor["wounds"] == [] and brunor["prone"] is False
