"""Issue 18: one playground script per system plays a fight to its end and into the next session without
leaving the bot. A knocked-down, unhorsed or disarmed character gets out of it at the rules' cost and fights
on; the fight's end ends what lasts only for a fight; the next fight starts clean of it."""

from __future__ import annotations

import pytest

from tests.bot.playground_replay import Replays

# Lines each transcript must hold, in order (each the game's own words, no internal names). Tracker lines
# only where a command's answer waits for nothing after it: the tracker shows the newest state of a burst.
STORIES = {
    "ars-harn": [
        "1. Bandit 1 (11)",
        "3. Bjorn (4)",
        "Bjorn falls prone",  # issue 34, A1: what happened, not "Stumble failed"
        "Bjorn drops the Broadsword",
        "⚠️ Bjorn is not stunned: Bjorn can recover from prone",
        "Bjorn gets up (that is their action this round).",
        "Bjorn picks up the Broadsword (that is their action this round).",
        "Bandit 1 failed the kill roll",
        "Bandit 1 dies.",
        "Bandit 1 is dead: skipped.",
        "Round 4: Bandit 2's turn.",
        "Bjorn gets up.",
        "Bjorn (4) · 3 wounds",
        "Bjorn attacks Bandit 1",
    ],
    "pendragon": [
        "Sir Gawain is knocked down",
        "Sir Gawain mounts up (it takes the round).",
        "Sir Gawain's lance breaks",
        "⚠️ Sir Gawain's lance is broken: /ready weapon:sword",  # issue 34, P5: the way on, no engine words
        "Sir Gawain readies the sword (it takes the round).",
        "Bandit 1 is dying",
        "Bandit 1 is dead: skipped.",
        "Round 5: Bandit 2's turn.",
        "Sir Gawain takes a new lance.",
        "Turn order changed (Sir Gawain moved)",
        "the round starts with Sir Gawain.",  # issue 34, N3: nobody had acted yet
        "Sir Gawain wins the exchange: Bandit 1 takes 11 damage.",
    ],
    "fading-suns": [
        "1. Erian (11)",
        "STUMBLE: Erian falls prone",
        "Erian drops the broadsword",
        "Erian gets up (that is their action this turn).",
        "Erian picks up the broadsword (that is their action this turn).",
        "Thug 1 is stunned",
        "Thug 1 is stunned: loses this turn, then recovers.",
        "Round 5: Thug 1's turn.",
        "Thug 1 attacks Erian",
        "gone: Thug 1, Thug 2.",
        "Erian attacks Thug 1",
        "@alice, how does Erian defend?",  # the defender's player chooses (issue 18)
        "Thug 2 attacks Erian: a parry, chosen by @alice.",
        "Erian's player chose a parry.",
    ],
}

# issue 34: the typed-dice line names each roll as a table does ("Bjorn's stumble" read bare before); a side's
# several rolls are one list, the side named once
TYPED_ROLLS = {
    "ars-harn": ["Bjorn's rolls: shock 9, stumble 2", "Bjorn's rolls: shock 9, fumble 2",
                 "Bandit 1's rolls: kill 2, amputation 9"],
    "pendragon": ["6 → Bandit 1's stat loss roll"],
    "fading-suns": [],
}


@pytest.mark.latency(realistic="opt-in")  # a long replay; its [realistic] run only on request (tests/conftest.py)
@pytest.mark.parametrize("system", list(STORIES))
async def test_a_fight_runs_to_its_end_and_into_the_next_session(system: str, discord_profile: str,
                                                                 replays: Replays) -> None:
    text = (await replays(f"playground-ways-out-{system}.txt", discord=discord_profile)).text
    at = 0
    for line in STORIES[system]:
        found = text.find(line, at)
        assert found >= 0, f"{line!r} not found after position {at}:\n{text[at:at + 3000]}"
        at = found + len(line)
    for line in TYPED_ROLLS[system]:
        assert line in text
    assert "upper_arm" not in text and "not_in_hand" not in text and "out_of_fight" not in text
    assert "ruling replace_broken_in_fight" not in text and "action rearm" not in text
    # nobody is told twice in one message that a lance broke
    assert "a lance breaks" not in text
