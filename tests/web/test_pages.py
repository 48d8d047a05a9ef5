"""The pages' wording (bot/web/pages.py): a roster row's wounds are worded once per set of wounds the projection
gave, and read the same as worded afresh."""

from __future__ import annotations

from dataclasses import replace

from bot.services.results import CharacterView
from bot.ui import character_embeds
from bot.web.markdown import Names, to_html
from bot.web.pages import _roster_row, _wound_words
from rules.model import SheetSummary, Wound

WOUNDS = (Wound(1, "left forearm", "S2", "serious", penalty=2, note="bleeds"), Wound(2, "skull", "G3", "grievous"))


def view(wounds: tuple[Wound, ...], name: str = "Brun", system: str = "ars-harn") -> CharacterView:
    return CharacterView(id=1, name=name, system=system, owner_id=12, npc=False, sheet={},
                         summary=SheetSummary(name, (), (), wounds, "shock"), version=1)


def test_a_roster_rows_wounds_are_worded_once_per_set_of_wounds_and_as_afresh() -> None:
    _wound_words.cache_clear()
    names = Names(user=lambda _id: "Bob")
    first = _roster_row(view(WOUNDS), names)
    assert first.wounds == to_html(", ".join(character_embeds.wound_brief(w, "ars-harn") for w in WOUNDS))
    assert first.healing == to_html(character_embeds.wound_note("bleeds"))
    assert (first.owner, first.wound_count, first.penalty) == ("@Bob", 2, 2)
    other = _roster_row(view(WOUNDS, name="Aldo"), Names(user=lambda _id: "Alice"))  # the same wounds: kept words
    assert (other.wounds, other.healing, other.owner) == (first.wounds, first.healing, "@Alice")
    assert _wound_words.cache_info().hits == 1
    healed = _roster_row(view((replace(WOUNDS[0], note=""), WOUNDS[1])), names)  # a changed wound: worded again
    assert healed.healing == "" and healed.wounds == first.wounds and _wound_words.cache_info().misses == 2
    assert _roster_row(view(WOUNDS, system="pendragon"), names).wounds != first.wounds  # words are the system's
