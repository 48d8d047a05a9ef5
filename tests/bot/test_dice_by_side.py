"""Dice by side, played (issue 31 leak 4, issue 34 P6): under /setup secret-rolls a player's face for the NPC's
side is refused in one line naming the labels they may type, and nothing is rolled; a knockdown the GM types
bare on his bandit's blow is the bandit's own (said unused), never the knight's; typed for the knight's side,
it is the knight's and the answer says so."""

from __future__ import annotations

import io

import pytest

from bot.playground.session import Playground
from tests.bot.playground_replay import examples

# system: the player's character, the NPC template and its first name, a player's attack typing the NPC's die
TABLES = {
    "ars-harn": ('/character create name:Bjorn stats:"str=2 sta=1 dex=1 qik=1 abilities.Sword=5" weapons:Broadsword',
                 "bandit", "Bandit 1", 'weapon:Broadsword dice:"attack=9 defense=0,1"', "defense=0,1"),
    "pendragon": ('/character create name:Bjorn stats:"siz=14 dex=12 str=14 con=13 app=10 skills.sword=15" '
                  'weapons:sword', "bandit", "Bandit 1", 'weapon:sword dice:"attacker=9 defender=14"', "defender=14"),
    "fading-suns": ('/character create name:Bjorn stats:"dex=6 end=5 skills.melee=5" weapons:broadsword', "thug",
                    "Thug 1", 'weapon:broadsword dice:"attack=3 defender_effect=15"', "defender_effect=15"),
}


async def _play(lines: list[str]) -> str:
    out = io.StringIO()
    playground = Playground(out, echo=True, base_dir=examples(), seed=1)
    async with playground.running():
        for line in lines:
            assert await playground.run_line(line)
    return out.getvalue()


@pytest.mark.parametrize("system", list(TABLES))
async def test_a_player_typing_the_npcs_die_under_secret_rolls_is_refused_in_one_line(system: str) -> None:
    create, template, npc, attack, typed = TABLES[system]
    text = await _play([f"/setup system system:{system}", "/setup gm-role role:GM", "/setup secret-rolls on:true",
                        ":as alice", create, "/encounter start", "/encounter add character:Bjorn", ":as gm",
                        f"/encounter npcs template:{template} count:1", ":as alice",
                        f'/attack target:"{npc}" {attack}', "/log"])
    answer = text[text.rindex("/attack target:"):]
    refusal = answer.splitlines()[2]
    assert refusal.startswith(f"\u26a0\ufe0f dice: {typed} would be {npc}'s roll")
    said = " ".join(answer.split("  (only you can see this)")[0].split())
    assert "you may type" in said and "nothing was rolled" in said
    assert f"{npc} attacks" not in answer and "Bjorn attacks" not in answer  # nothing rolled, nothing posted


async def test_a_knockdown_the_gm_types_bare_is_his_bandits_and_one_typed_for_the_knight_is_the_knights() -> None:
    text = await _play([
        "/setup system system:pendragon", "/setup gm-role role:GM", ":as alice",
        '/character create name:"Sir Elyan" stats:"siz=14 dex=12 str=13 con=14 app=11 skills.sword=16" '
        'weapons:sword armour:chainmail', "/encounter start", '/encounter add character:"Sir Elyan"', ":as gm",
        "/encounter npcs template:bandit count:1",
        '/attack attacker:"Bandit 1" target:"Sir Elyan" weapon:club dice:"attacker=8 defender=17 damage=6,6,6 '
        'sir_elyan_knockdown=20"',
        '/attack attacker:"Bandit 1" target:"Sir Elyan" weapon:club dice:"attacker=8 defender=17 damage=6,6,6 '
        'knockdown=20"'])
    typed_for_him, bare = (" ".join(part.split()) for part in text.split('/attack attacker:"Bandit 1"')[1:3])
    # typed as sir_elyan_knockdown: the line names no key he never typed (issue 34, the reader's 2b)
    assert "\U0001f3b2 20 \u2192 Sir Elyan's knockdown roll" in typed_for_him and "defender_" not in typed_for_him
    assert "Sir Elyan is knocked down" in typed_for_him  # a 20 fails his DEX roll
    # the bare knockdown was the bandit's own, which no roll used: said in Details, not in the public message
    answer = bare[bare.index("-- Grievous"):]  # past the command as typed
    assert "knockdown=20" not in answer and "Bandit 1 rolled no" not in answer, answer
