"""The one check of rulings: scenario overrides over defaults (engines) and typed text (the bot)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.ars_harn.rulings import RULINGS as ARS_HARN
from rules.errors import RulesError
from rules.fading_suns.rulings import RULINGS as FADING_SUNS
from rules.fading_suns.rulings import Rulings, parse_rulings
from rules.model import Setting
from rules.pendragon.rulings import RULINGS as PENDRAGON
from rules.rulings import check_value, overlay, parse_value

FLAG = Setting("auto_rolls", True, "a flag")
DICE = Setting("botch_dice", 1, "a count", low=0, high=10)
ANY_NUMBER = Setting("hit_on", 3, "unbounded")
AT_LEAST = Setting("days", 1, "bounded below", low=1)
STYLE = Setting("style", "plain", "a choice", ("plain", "grim"))
FREE = Setting("motto", "none", "free text")
ALL = (FLAG, DICE, ANY_NUMBER, AT_LEAST, STYLE, FREE)


@pytest.mark.parametrize("settings", [ARS_HARN, PENDRAGON, FADING_SUNS], ids=["ars-harn", "pendragon", "fading-suns"])
def test_every_engine_default_passes_its_own_check(settings: tuple[Setting, ...]) -> None:
    assert overlay(settings, None, "x") == {s.name: s.default for s in settings}
    assert overlay(settings, {s.name: s.default for s in settings}, "x") == overlay(settings, {}, "x")


def test_fading_suns_rules_defaults_match_its_settings() -> None:
    assert parse_rulings(None) == Rulings() == parse_rulings({})


def test_overlay_keeps_defaults_and_takes_good_values() -> None:
    out = overlay(ALL, {"botch_dice": 10, "style": "grim", "hit_on": -4, "motto": "Deus vult"}, "test")
    assert out == {"auto_rolls": True, "botch_dice": 10, "hit_on": -4, "days": 1, "style": "grim",
                   "motto": "Deus vult"}


@pytest.mark.parametrize(("given", "message"), [
    ([("auto_rolls", True)], "settings must be a mapping of setting name to value"),
    ({"nope": 1}, r"unknown setting 'nope' \(test settings: auto_rolls, botch_dice, hit_on, days, style, motto\)"),
    ({1: 1}, "unknown setting '1'"),
    ({"auto_rolls": "yes"}, "setting 'auto_rolls' must be true or false, not 'yes'"),
    ({"botch_dice": 11}, "setting 'botch_dice' must be a whole number from 0 to 10, not 11"),
    ({"botch_dice": True}, "setting 'botch_dice' must be a whole number from 0 to 10, not True"),
    ({"hit_on": 2.5}, "setting 'hit_on' must be a whole number, not 2.5"),
    ({"days": 0}, "setting 'days' must be a whole number of at least 1, not 0"),
    ({"style": "Grim"}, "setting 'style' must be one of plain, grim, not 'Grim'"),
    ({"style": ["grim"]}, r"setting 'style' must be one of plain, grim, not \['grim'\]"),
    ({"motto": ""}, "setting 'motto' must be text of 1 to 100 characters"),
    ({"motto": "x" * 101}, "setting 'motto' must be text of 1 to 100 characters$"),
])
def test_overlay_refuses_in_one_line_naming_the_setting(given: Any, message: str) -> None:
    with pytest.raises(RulesError, match=message) as caught:
        overlay(ALL, given, "test")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("setting", "text", "value"), [
    (FLAG, " Off ", False), (FLAG, "YES", True), (FLAG, "1", True), (DICE, " 7 ", 7), (DICE, "0", 0),
    (ANY_NUMBER, "-3", -3), (STYLE, "GRIM", "grim"), (FREE, "  Deus vult ", "Deus vult"),
])
def test_parse_value_reads_what_a_gm_types(setting: Setting, text: str, value: Any) -> None:
    assert parse_value(setting, text) == value
    assert type(parse_value(setting, text)) is type(value)
    assert check_value(setting, value) == value


@pytest.mark.parametrize(("setting", "text", "message"), [
    (FLAG, "maybe", "setting 'auto_rolls' must be true or false, not 'maybe'"),
    (DICE, "three", "setting 'botch_dice' must be a whole number from 0 to 10, not 'three'"),
    (DICE, "11", "setting 'botch_dice' must be a whole number from 0 to 10, not 11"),
    (ANY_NUMBER, "2.5", "setting 'hit_on' must be a whole number, not '2.5'"),
    (STYLE, "baroque", "setting 'style' must be one of plain, grim, not 'baroque'"),
    (FREE, "   ", "setting 'motto' must be text of 1 to 100 characters"),
])
def test_parse_value_refuses_by_name(setting: Setting, text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        parse_value(setting, text)
