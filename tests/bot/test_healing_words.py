"""What comes next for a wound with rest, in each system's words (the web page's character wound list)."""

from __future__ import annotations

from bot.ui.character_embeds import healing_next
from rules.model import Wound


def _wound(days: int | None) -> Wound:
    return Wound(index=1, location="", code="major", severity="major wound", levels=4, next_healing=days)


def test_pendragon_counts_whole_weeks_of_rest_until_the_wound_is_healed() -> None:
    assert healing_next(_wound(7), "pendragon") == \
        "healed after 1 more week of rest (the Healing Rate each week, oldest wound first)"
    assert healing_next(_wound(21), "pendragon").startswith("healed after 3 more weeks of rest")
    assert healing_next(_wound(None), "pendragon") is None  # rest heals nothing now (chirurgery needed)


def test_ars_harn_and_fading_suns_count_days() -> None:
    assert healing_next(_wound(1), "ars-harn") == "next healing roll after 1 more day of rest"
    assert healing_next(_wound(4), "fading-suns") == "a severity better after 4 more days of rest"
