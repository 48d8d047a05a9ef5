"""Issue 18: one playground script per system plays a fight to its end and into the next session without
leaving the bot. A knocked-down, unhorsed or disarmed character gets out of it at the rules' cost and fights
on; the fight's end ends what lasts only for a fight; the next fight starts clean of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.playground_replay import replay

# Lines each transcript must hold, in order (each the game's own words, no internal names).
STORIES = {
    "ars-harn": [
        "Stumble failed",
        "Bjorn drops the Broadsword",
        "⚠️ Bjorn is not stunned: Bjorn can recover from prone",
        "Bjorn gets up (that is their action this round).",
        "Bjorn picks up the Broadsword (that is their action this round).",
        "Bjorn attacks Bandit 1",
        "Bjorn gets up.",
        "3. Bjorn — ok; 3 wounds",
        "2. Bjorn — ok; 3 wounds",
        "Bjorn attacks Bandit 1",
    ],
    "pendragon": [
        "Sir Gawain is knocked down",
        "Sir Gawain mounts up (it takes the round).",
        "Sir Gawain's lance breaks",
        "⚠️ a broken weapon is replaced between fights",
        "Sir Gawain readies the sword (it takes the round).",
        "Sir Gawain wins the exchange: Bandit 1 takes 9 damage.",
        "Sir Gawain takes a new lance.",
        "Sir Gawain wins the exchange: Bandit 1 takes 11 damage.",
    ],
    "fading-suns": [
        "STUMBLE: Erian falls prone",
        "Erian drops the broadsword",
        "Erian gets up (that is their action this turn).",
        "Erian picks up the broadsword (that is their action this turn).",
        "Erian attacks Thug 1",
        "gone: Thug 1, Thug 2.",
        "2. Erian — ok; 2 wounds",
        "Erian attacks Thug 1",
    ],
}


@pytest.mark.parametrize("system", list(STORIES))
async def test_a_fight_runs_to_its_end_and_into_the_next_session(system: str, tmp_path: Path) -> None:
    text = await replay(f"playground-ways-out-{system}.txt", tmp_path)
    at = 0
    for line in STORIES[system]:
        found = text.find(line, at)
        assert found >= 0, f"{line!r} not found after position {at}:\n{text[at:at + 3000]}"
        at = found + len(line)
    assert "upper_arm" not in text and "not_in_hand" not in text and "out_of_fight" not in text
    # nobody is told twice in one message that a lance broke
    assert "a lance breaks" not in text
