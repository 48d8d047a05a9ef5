"""The three playground scripts (ars-harn, Pendragon, Fading Suns) replay through the real bot with no
playground error and no emulator refusal, and read as a table would expect."""

from __future__ import annotations

import re

import pytest

from tests.bot.playground_replay import Replays

pytestmark = pytest.mark.latency  # each runs again with realistic latency: [realistic]


def _after(text: str, marker: str) -> str:
    assert marker in text, text
    return text[text.index(marker):]


@pytest.mark.parametrize("script", ["playground-demo.txt", "playground-pendragon.txt", "playground-fading-suns.txt"])
async def test_no_gm_decision_leaks_internals_and_the_decision_is_said_once(script: str, discord_profile: str,
                                                                           replays: Replays) -> None:
    text = (await replays(script, discord=discord_profile)).text
    decided = _after(text, ":click 4")  # the GM's choice ([1] and [2] are Details buttons, [3] the other choice)
    assert "⚖️ The GM decided" not in decided and "Chosen by @gm." in decided  # said once, below (N14)
    result = _after(decided, "⚖️ The GM decides for")
    result = result[: result.index("+---")]
    assert " acts." not in result and "Who:" not in result and "Name:" not in result and "Details" not in result
    # once decided, the waiting field is gone from the original message
    edited = decided[: decided.index("⚖️ The GM decides for")]
    assert "⏳ Waiting for the GM" not in edited
    assert "The encounter ended" in text
    assert "_" not in "".join(line for line in text.splitlines() if line.startswith("|   ") and "—" in line
                              and "initiative" not in line.lower())


async def test_the_ars_harn_demo_reads_well(discord_profile: str, replays: Replays) -> None:
    text = (await replays("playground-demo.txt", discord=discord_profile)).text
    assert "Impact: damage 15 − soak 5 (armour 4: Leather Cap) = 10" in text  # behind the first Details button
    assert "Broadsword edge high: 19 vs 4 · impact 17" in text
    assert "Bandit 1 lives, but is incapacitated." in text
    assert "Bandit 1 lives, but is incapacitated.\n| Chosen by @gm." in text and "The GM chose" not in text


async def test_the_pendragon_fight_reads_well(discord_profile: str, replays: Replays) -> None:
    text = (await replays("playground-pendragon.txt", discord=discord_profile)).text
    assert "King Arthur Pendragon rolls no initiative" in text
    assert "Sir Owain wins the exchange: Bandit 1 takes 15 damage." in text
    assert "Sir Owain (sword): 14 vs 16: success" in text and "Bandit 1 (club): 15 vs 9: failure" in text
    assert "Bandit 1 is knocked down" in text
    assert "Bandit 1 suffers a major wound and needs chirurgery" in text
    assert "Bandit 1 stays conscious (5 vs 7, success)" in text
    assert "Bandit 1 loses heart and leaves the fight (Valorous 12 vs 8, failure)" in text
    assert "Bandit 2's club breaks" in text
    assert "Bandit 2 suffers a major wound · Bandit 2 loses a point of CON" in text
    assert "Bandit 1 is dying (−3 hit points)" in text
    assert "[3] Death" in text and "[4] Survival" in text
    assert "Bandit 1 survives, at 1 hit point.\n| Chosen by @gm." in text
    assert "#1 major wound, 11 hit points" in text and "body:" not in text
    assert "Bandit 1 gets first aid from Sir Owain" in text
    assert "First aid for Bandit 1 by Sir Owain: success, heals 2 hit points." in text
    # /log says it once (issue 34): not 'Bandit 1 gets first aid from Sir Owain: First aid for Bandit 1 by ...'
    assert re.search(r"#11 \S+ First aid for Bandit 1 by Sir Owain: success", text)
    assert "Sir Owain: First aid for" not in text
    assert "Bandit 1 rests 2 weeks" in text
    assert "out of fight · prone · chirurgery needed" in text  # the tracker's line (issue 34, N5)


async def test_the_fading_suns_fight_reads_well(discord_profile: str, replays: Replays) -> None:
    text = (await replays("playground-fading-suns.txt", discord=discord_profile)).text
    assert "1. Erian (11)" in text
    assert "Hit on Thug 1's chest: a major wound." in text
    assert "Goal roll (broadsword): 7 vs goal 11: success, 2 VP (dex 6, melee 5)" in text
    assert "Damage: 6 + 2 VP = 8 − armour 4 (leather jerkin) = 4 slash" in text
    assert "STUN roll (2 × END): 15 vs 8: failure → stun" in text
    assert "Thug 1 is stunned" in text and "Wound penalties: Thug 1: goal −4, initiative −1" in text
    assert "Erian dodges the attack." in text
    assert "Hit on Thug 1's head: a grievous wound." in text
    assert "Thug 1 is dying" in text and "the GM chooses death or mercy (unconscious)" in text
    assert "[3] Death" in text and "[4] Unconscious" in text
    assert "Thug 1 survives, unconscious." in text
    assert "2 Head: grievous" in text
    assert "Erian treats Thug 1's grievous wound 2 with Remedy: success." in text
    assert "Thug 1 rests 10 days." in text and "wound 1 major → minor (day 10)" in text
