"""The one check of rulings: scenario overrides over defaults (engines) and typed text (the bot)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.ars_harn.rulings import RULINGS as ARS_HARN
from rules.errors import RulesError
from rules.fading_suns.rulings import RULINGS as FADING_SUNS
from rules.fading_suns.rulings import Rulings, parse_rulings
from rules.model import Ruling
from rules.pendragon.rulings import RULINGS as PENDRAGON
from rules.rulings import check_value, overlay, parse_value

FLAG = Ruling("auto_rolls", True, "a flag")
DICE = Ruling("botch_dice", 1, "a count", low=0, high=10)
ANY_NUMBER = Ruling("hit_on", 3, "unbounded")
AT_LEAST = Ruling("days", 1, "bounded below", low=1)
STYLE = Ruling("style", "plain", "a choice", ("plain", "grim"))
FREE = Ruling("motto", "none", "free text")
ALL = (FLAG, DICE, ANY_NUMBER, AT_LEAST, STYLE, FREE)


@pytest.mark.parametrize("rulings", [ARS_HARN, PENDRAGON, FADING_SUNS], ids=["ars-harn", "pendragon", "fading-suns"])
def test_every_engine_default_passes_its_own_check(rulings: tuple[Ruling, ...]) -> None:
    assert overlay(rulings, None, "x") == {s.name: s.default for s in rulings}
    assert overlay(rulings, {s.name: s.default for s in rulings}, "x") == overlay(rulings, {}, "x")


def test_fading_suns_rules_defaults_match_its_settings() -> None:
    assert parse_rulings(None) == Rulings() == parse_rulings({})


def test_overlay_keeps_defaults_and_takes_good_values() -> None:
    out = overlay(ALL, {"botch_dice": 10, "style": "grim", "hit_on": -4, "motto": "Deus vult"}, "test")
    assert out == {"auto_rolls": True, "botch_dice": 10, "hit_on": -4, "days": 1, "style": "grim",
                   "motto": "Deus vult"}


@pytest.mark.parametrize(("given", "message"), [
    ([("auto_rolls", True)], "rulings must be a mapping of ruling name to value"),
    ({"nope": 1}, r"unknown ruling 'nope' \(test rulings: auto_rolls, botch_dice, hit_on, days, style, motto\)"),
    ({1: 1}, "unknown ruling '1'"),
    ({"auto_rolls": "yes"}, "ruling 'auto_rolls' must be true or false, not 'yes'"),
    ({"botch_dice": 11}, "ruling 'botch_dice' must be a whole number from 0 to 10, not 11"),
    ({"botch_dice": True}, "ruling 'botch_dice' must be a whole number from 0 to 10, not True"),
    ({"hit_on": 2.5}, "ruling 'hit_on' must be a whole number, not 2.5"),
    ({"days": 0}, "ruling 'days' must be a whole number of at least 1, not 0"),
    ({"style": "Grim"}, "ruling 'style' must be one of plain, grim, not 'Grim'"),
    ({"style": ["grim"]}, r"ruling 'style' must be one of plain, grim, not \['grim'\]"),
    ({"motto": ""}, "ruling 'motto' must be text of 1 to 100 characters"),
    ({"motto": "x" * 101}, "ruling 'motto' must be text of 1 to 100 characters$"),
])
def test_overlay_refuses_in_one_line_naming_the_ruling(given: Any, message: str) -> None:
    with pytest.raises(RulesError, match=message) as caught:
        overlay(ALL, given, "test")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("ruling", "text", "value"), [
    (FLAG, " Off ", False), (FLAG, "YES", True), (FLAG, "1", True), (DICE, " 7 ", 7), (DICE, "0", 0),
    (ANY_NUMBER, "-3", -3), (STYLE, "GRIM", "grim"), (FREE, "  Deus vult ", "Deus vult"),
])
def test_parse_value_reads_what_a_gm_types(ruling: Ruling, text: str, value: Any) -> None:
    assert parse_value(ruling, text) == value
    assert type(parse_value(ruling, text)) is type(value)
    assert check_value(ruling, value) == value


@pytest.mark.parametrize(("ruling", "text", "message"), [
    (FLAG, "maybe", "ruling 'auto_rolls' must be true or false, not 'maybe'"),
    (DICE, "three", "ruling 'botch_dice' must be a whole number from 0 to 10, not 'three'"),
    (DICE, "11", "ruling 'botch_dice' must be a whole number from 0 to 10, not 11"),
    (ANY_NUMBER, "2.5", "ruling 'hit_on' must be a whole number, not '2.5'"),
    (STYLE, "baroque", "ruling 'style' must be one of plain, grim, not 'baroque'"),
    (FREE, "   ", "ruling 'motto' must be text of 1 to 100 characters"),
])
def test_parse_value_refuses_by_name(ruling: Ruling, text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        parse_value(ruling, text)
