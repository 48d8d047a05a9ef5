"""The Pendragon picture's knockdown and major-wound ticks name the first blow that counts (issue 22 §3): a blow
must exceed SIZ 14 to knock down under the default ``knockdown_trigger = exceeds``, so the tick says 15."""

from __future__ import annotations

from bot.services.wound_state import wound_picture
from bot.systems.pictures import HitPointWounds
from content import load_catalog

WULFHERE = {"name": "Wulfhere", "siz": 14, "dex": 10, "str": 14, "con": 13, "app": 8, "skills": {"axe": 13},
            "weapons": ["axe"], "armour": ["leather"]}


def test_the_knockdown_tick_is_the_first_blow_that_knocks_down() -> None:
    catalog = load_catalog("pendragon")
    shown = wound_picture("pendragon", WULFHERE, catalog)
    assert isinstance(shown, HitPointWounds)
    assert shown.knockdown == 15  # exceeds SIZ 14
    assert shown.major_wound == 13  # equals or exceeds CON 13 (the default major_wound_threshold)
    at_size = wound_picture("pendragon", WULFHERE, catalog, {"knockdown_trigger": "equals_or_exceeds",
                                                              "major_wound_threshold": "exceeds"})
    assert isinstance(at_size, HitPointWounds)
    assert (at_size.knockdown, at_size.major_wound) == (14, 14)
