"""Pendragon care says what it did and what is still needed (issue 18 section 3)."""

from __future__ import annotations

import pytest

from bot.text_safety import plain
from bot.ui.outcomes import describe


def test_a_successful_chirurgery_says_whether_more_care_is_needed() -> None:
    base = {"action": "chirurgery", "roll": {"result": "success", "roll": 5, "target": 12}, "healed": 3,
            "hit_points": 4}
    still = describe("pendragon", {**base, "chirurgery_needed": True}, ("Sir Bedwyr", "Brother Cadoc"))
    assert "More chirurgery is needed (another week: /heal method:chirurgy)." in still.headline
    done = describe("pendragon", {**base, "chirurgery_needed": False}, ("Sir Bedwyr", "Brother Cadoc"))
    assert "No more chirurgery is needed" in done.headline


def test_a_rest_by_days_says_what_the_days_did_and_why_it_stopped() -> None:
    words = describe("pendragon", {"action": "rest", "weeks": 2, "weeks_counted": 1, "days": 17, "days_unused": 3,
                                   "stopped": "healed", "healed": 2, "lost": 0, "wounds_left": 0},
                     ("Sir Bedwyr", "Sir Bedwyr"))
    assert words.headline == ("**Sir Bedwyr** rests 1 week: heals 2 hit points. The rest stopped after 1 of 2 weeks: "
                              "every wound has healed. Pendragon heals by the week: the 3 days left over heal nothing.")


@pytest.mark.parametrize(("stopped", "words"), [("dying", "is dying"), ("dead", "died")])
def test_a_rest_that_stopped_on_dying_or_death_names_the_character_as_typed(stopped: str, words: str) -> None:
    hostile = "**Bob** <@123> [x](http://e)"
    said = describe("pendragon", {"action": "rest", "weeks": 3, "weeks_counted": 1, "stopped": stopped, "healed": 0,
                                  "lost": 2, "wounds_left": 1, "chirurgery_needed": True}, (hostile, hostile))
    assert said.headline.endswith(f"The rest stopped after 1 of 3 weeks: {plain(hostile)} {words}.")
    assert "patient" not in said.headline
