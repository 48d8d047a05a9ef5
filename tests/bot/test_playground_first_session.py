"""A new server's first session in each system (issue 10): the three playground scripts replay through the
real bot with no playground error, no emulator refusal and no traceback, and tell the story a table expects:
setup, a filled-in template imported, enforced turns, a secret NPC attack, the GM's decision, a treatment
the patient's owner accepts, and the encounter's NPCs gone at its end."""

from __future__ import annotations

import re

import pytest

from tests.bot.playground_replay import Replays, examples


def _messages(text: str) -> list[str]:
    """Each embed (between its +--- rules) with its lines joined, so wrapped sentences read whole."""
    blocks = re.findall(r"\n\+-+\n(.*?)\n\+-+\n", text, flags=re.S)
    return [" ".join(line.lstrip("| ").strip() for line in block.splitlines()) for block in blocks]


def _flat(text: str) -> str:
    return " ".join(text.split())


def _after_click(text: str) -> str:
    """What the bot said between the GM's press of a decision button and the decision's own message."""
    pressed = text[text.index("⏳ Waiting for the GM"):]
    pressed = pressed[pressed.index(":click"):]
    return pressed[:pressed.index("⚖️ The GM decides for")]


def _value_lines(text: str) -> dict[int, str]:
    return {n: line for n, line in enumerate(text.splitlines()) if line and not line.startswith("#")}


STORIES = {
    "ars-harn": {
        "sheet": "anselm-from-template.yaml",
        "template": "An Ars Magica × HarnMaster sheet to fill in",
        "refusal": "⚠️ it is Bandit 1's turn, not Bjorn's: wait for /encounter next",
        "npc_attack": "Bandit 1 attacks Bjorn",
        "npc_result": "Hit on Bjorn's face: S2, serious, 2 injury levels.",
        "decided": "Bandit 1 lives, but is incapacitated. Chosen by @gm.",
        "accepted": "🩺 Brother Anselm offered Bjorn chirurgy: accepted by @bob.",
        "treated": "Brother Anselm treats Bjorn's wound 1 with chirurgy: critical success.",
        "injuries": "1 Face: S2 serious, 2 levels, penalty −2, treated",
        "gone": "Its NPCs are gone: Bandit 1, Bandit 2.",
    },
    "pendragon": {
        "sheet": "elaine-from-template.yaml",
        "template": "A King Arthur Pendragon sheet to fill in",
        "refusal": "⚠️ it is Bandit 1's turn, not Sir Gawain's: wait for /encounter next",
        "npc_attack": "Bandit 1 attacks Dame Elaine",
        "npc_result": "Bandit 1 wins the exchange: Dame Elaine takes 8 damage. Dame Elaine: 18 hit points left",
        "decided": "Bandit 1 dies. Chosen by @gm.",
        "accepted": "🩺 Sir Gawain offered Dame Elaine first aid: accepted by @alice.",
        "treated": "First aid for Dame Elaine by Sir Gawain: success, heals 2 hit points.",
        "injuries": "#1 wound, 6 hit points, first aid",  # issue 34, P8: an index, not a count
        "gone": "Its NPCs are gone: Bandit 1, Bandit 2.",
    },
    "fading-suns": {
        "sheet": "maren-from-template.yaml",
        "template": "A Fading Suns sheet to fill in",
        "refusal": "⚠️ it is Erian's turn, not Sister Maren's: wait for /encounter next",
        "npc_attack": "Thug 2 attacks Erian",
        "npc_result": "Hit on Erian's chest: a minor wound.",
        "decided": "Thug 1 survives, unconscious. Chosen by @gm.",
        "accepted": "🩺 Sister Maren offered Erian remedy: accepted by @bob.",
        "treated": "Sister Maren treats Erian's minor wound 1 with Remedy: success.",
        "injuries": "1 Chest: minor, penalty −1, treated",
        "gone": "Its NPCs are gone: Thug 1, Thug 2.",
    },
}


@pytest.mark.latency(realistic="opt-in")  # a long replay; its [realistic] run only on request (tests/conftest.py)
@pytest.mark.parametrize("system", list(STORIES))
async def test_a_first_session_plays_through(system: str, discord_profile: str, replays: Replays) -> None:
    story = STORIES[system]
    replay = await replays(f"playground-first-session-{system}.txt", discord=discord_profile)
    text = replay.text
    messages = _messages(text)
    flat = _flat(" ".join(messages)) + " " + _flat(text)

    assert story["template"] in flat
    # the sheet Alice imports is the bot's own template with only the values changed
    produced = (replay.files / f"001-{system}-sheet.yaml").read_text(encoding="utf-8")
    filled = (examples() / "sheets" / story["sheet"]).read_text(encoding="utf-8")
    assert [line for line in produced.splitlines() if line.startswith("#")] == \
        [line for line in filled.splitlines() if line.startswith("#")]
    produced_values, filled_values = _value_lines(produced), _value_lines(filled)
    assert produced_values.keys() == filled_values.keys()
    assert [line.split(":")[0] for line in produced_values.values()] == \
        [line.split(":")[0] for line in filled_values.values()]
    assert produced_values != filled_values

    # enforced turns: the eager player is refused, privately
    assert story["refusal"] in text

    # secret NPC rolls: the table sees the result and no totals; the GM gets the dice privately
    public = next(m for m in messages if m.startswith(story["npc_attack"] + " "))
    assert story["npc_result"] in public
    assert " vs " not in public and "Dice:" not in public and "armour" not in public
    private = next(m for m in messages if m.startswith("🔎 " + story["npc_attack"] + " "))
    assert "Dice:" in private
    lines = text[text.index("🔎 " + story["npc_attack"]):].splitlines()
    closing = next(n for n, line in enumerate(lines) if line.startswith("+---"))
    assert lines[closing + 1] == "  (only you can see this)"

    # the GM's decision, the treatment the patient's owner accepted, the wound marked treated
    assert story["decided"] in flat
    assert "⏳ Waiting for the GM" in flat
    # said once, in the new message: the hit the buttons were on only stops waiting (issue 34, N14)
    pressed = _after_click(text)
    assert "GM decided" not in pressed and "Waiting for the GM" not in pressed
    assert story["accepted"] in text and story["treated"] in flat and story["injuries"] in flat

    # the encounter's NPCs go with it
    assert story["gone"] in flat
    roster = next(m for m in reversed(messages) if m.startswith("Characters on this server"))
    assert "-- 2 characters" in roster and "Bandit" not in roster and "Thug" not in roster
