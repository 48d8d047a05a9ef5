"""/odds words and bars (issue 22 §4): the bars add up to the whole with the grave parts of them marked,
each thing said once, the miss shown when the foe cannot strike back, and every Fading Suns location listed
beside the figure with the miss."""

from __future__ import annotations

import dataclasses

import pytest

from bot.services.odds import Declaration, OddsView
from bot.systems.odds_rows import NESTED
from bot.ui.odds_chart import listed_locations
from bot.ui.odds_embeds import action_text, chart_rows, location_chances, odds_embed
from content.diagram import FigureLayout, diagram_layout
from rules.odds.api import compute_odds
from rules.registry import get_engine
from tests.rules.odds.odds_support import exact, example, load_catalog


def view_of(*odds: object, system: str) -> OddsView:
    return OddsView(system, "A", "B", tuple(Declaration({"type": "attack"}, o) for o in odds), {})  # type: ignore


@pytest.mark.parametrize("name", ["ars-harn-sword-vs-mail", "pendragon-sword-against-axe", "fading-suns-crippling-axe"])
def test_the_bars_add_up_to_the_whole_and_the_grave_parts_are_marked(name: str) -> None:
    odds = exact(name)
    rows = chart_rows(view_of(odds, system=odds.system))
    whole = [values[0] for label, values in rows if not label.startswith(NESTED)]
    assert sum(whole) == pytest.approx(1.0, abs=1e-9), rows
    assert any(label.startswith(NESTED) for label, _ in rows)


def test_injury_is_said_only_where_a_hit_may_not_injure() -> None:
    mail = exact("ars-harn-sword-vs-mail")  # mail stops some blows: a hit without injury
    names = [f.name for f in odds_embed(view_of(mail, system="ars-harn")).fields]
    assert "Hit" in names and "Injury" in names
    # where every hit injures, "Injury" would only say "Hit" again, and "Hit, no injury" is an empty bar
    always = dataclasses.replace(mail, summary={**mail.summary, "injury": mail.summary["hit"]})
    names = [f.name for f in odds_embed(view_of(always, system="ars-harn")).fields]
    assert "Hit" in names and "Injury" not in names
    assert "Hit, no injury" not in [label for label, _ in chart_rows(view_of(always, system="ars-harn"))]


def test_the_spell_line_says_each_thing_once() -> None:
    action = {"type": "cast", "weapon": "Broadsword", "aspect": "fire", "aim": "mid", "spell": "Pilum of Fire",
              "damage": 10, "damage_type": "fire"}
    assert action_text(action, "ars-harn") == "Pilum of Fire, aim mid, damage 10, fire"


def test_against_a_foe_who_cannot_strike_back_the_odds_show_the_miss() -> None:
    scenario, _ = example("pendragon-sword-against-axe")
    down = dataclasses.replace(scenario, defender={**scenario.defender, "unconscious": True})
    odds = compute_odds(get_engine("pendragon"), down, load_catalog("pendragon"))
    view = view_of(odds, system="pendragon")
    embed = odds_embed(view)
    fields = {f.name: f.value for f in embed.fields}
    assert set(fields) == {"Hit", "Miss", "Major wound", "Unconscious"}, fields
    hit, miss = (float(fields[k].rstrip("%")) for k in ("Hit", "Miss"))
    assert hit + miss == pytest.approx(100.0)
    assert "the target cannot strike back" in (embed.description or "")
    assert [label for label, _ in chart_rows(view)][:2] == ["Hit", "Miss"]


def test_beside_the_fading_suns_figure_every_location_and_the_miss_are_listed() -> None:
    odds = exact("fading-suns-crippling-axe")
    figure = diagram_layout("fading-suns")
    assert isinstance(figure, FigureLayout)
    listed = listed_locations(figure, location_chances(odds), 1 - odds.summary["hit"], room=10)
    names = [name for name, _ in listed]
    assert "Head" in names and names[-1] == "Miss" and len(names) == len(figure.locations) + 1
    assert sum(p for _, p in listed) == pytest.approx(1.0, abs=1e-9)
