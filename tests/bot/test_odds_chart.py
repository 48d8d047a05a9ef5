"""/odds chart:locations: where blows land, on the body diagram's figure."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.ui.odds_chart import location_map
from bot.ui.odds_embeds import location_chances
from content.diagram import FigureLayout, diagram_layout
from tests.rules.odds.odds_support import exact


@pytest.mark.parametrize("name", ["ars-harn-sword-vs-mail", "fading-suns-crippling-axe"])
def test_every_hit_lands_on_a_location_of_the_figure(name: str) -> None:
    odds = exact(name)
    chances = location_chances(odds)
    figure = diagram_layout(odds.system)
    assert isinstance(figure, FigureLayout)
    assert set(chances) <= set(figure.locations)
    assert sum(chances.values()) == pytest.approx(odds.summary["hit"], abs=1e-12)
    png = location_map("Where it lands", figure, [chances, chances], ["A: one", "B: two"])
    assert Image.open(io.BytesIO(png)).size[0] == 800


def test_aimed_high_the_sword_lands_mostly_above_the_waist() -> None:
    chances = location_chances(exact("ars-harn-sword-vs-mail"))
    assert chances["skull"] == pytest.approx(chances["face"])
    assert chances.get("right_thigh", 0.0) == 0.0  # aim high strikes no thigh on the HarnMaster table
    assert chances["thorax"] > chances["right_forearm"]
