"""Body diagrams: every location of every system is drawn where its layout says, in its wound's colour."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.services.wound_state import with_attack, wound_picture
from bot.systems.pictures import BodyWounds, HitPointWounds, LocationMark, LocationWound, Segment
from bot.ui import diagram
from content import load_catalog
from content.diagram import BarLayout, FigureLayout, diagram_layout, rgb
from rules.ars_harn.outcomes import AttackOutcome
from tests.golden.diagram_golden import GOLDEN, compare

FIGURES = ("ars-harn", "fading-suns")
BODY = diagram.BODY


def pixels(png: diagram.Png) -> Image.Image:
    return Image.open(io.BytesIO(png.data)).convert("RGB")


def at(image: Image.Image, point: tuple[int, int], scale: float = diagram.FULL_SCALE) -> tuple[int, int, int]:
    colour = image.getpixel((round(point[0] * scale), round(point[1] * scale)))
    assert isinstance(colour, tuple)
    return colour[0], colour[1], colour[2]


def figure(system: str) -> FigureLayout:
    layout = diagram_layout(system)
    assert isinstance(layout, FigureLayout)
    return layout


def engine_locations(system: str) -> set[str]:
    """Every location the default pack's engine can wound, as the wound state names it."""
    catalog = load_catalog(system)
    if system == "ars-harn":
        return {f"{side}_{key}" if loc.paired else key for key, loc in catalog.locations.items()
                for side in ("left", "right")}
    return {loc.name for loc in catalog.locations}


@pytest.mark.parametrize("system", FIGURES)
def test_the_layout_draws_every_location_the_engine_can_wound(system: str) -> None:
    assert set(figure(system).locations) == engine_locations(system)


@pytest.mark.parametrize("system", FIGURES)
@pytest.mark.parametrize("half", [0, 1])
def test_each_wounded_location_has_its_severity_colour_and_the_others_do_not(system: str, half: int) -> None:
    layout = figure(system)
    keys = sorted(layout.locations)
    wounded = {key: layout.severities[n % len(layout.severities)] for n, key in enumerate(keys) if n % 2 == half}
    picture = BodyWounds(system, "Probe", tuple(
        LocationMark(key, key, (LocationWound(severity.key, severity.key[:3].upper(), n),))
        for n, (key, severity) in enumerate(wounded.items())))
    image = pixels(diagram.render(picture))
    for key, shape in layout.locations.items():
        seen = at(image, shape.probe)
        if key in wounded:
            assert seen == rgb(wounded[key].colour), f"{key} should be {wounded[key].label}"
        else:
            assert seen == BODY, f"{key} is unwounded but drawn {seen}"


def test_the_worst_wound_colours_a_location_and_marks_have_shapes() -> None:
    layout = figure("ars-harn")
    thigh, hand = layout.locations["left_thigh"], layout.locations["right_hand"]
    picture = BodyWounds("ars-harn", "Marks", (
        LocationMark("left_thigh", "left Thigh", (LocationWound("M", "M1", 1), LocationWound("G", "G4", 2),
                                                  LocationWound("S", "S2", 3)), bleeding=True),
        LocationMark("right_hand", "right Hand", (LocationWound("G", "G5", 4),), amputated=True)))
    image = pixels(diagram.render(picture))
    assert at(image, thigh.probe) == rgb("#c8312b")  # G, the worst of M, G and S
    _x0, y0, x1, _ = thigh.box
    assert at(image, (x1 - 6, y0 + 9)) == diagram.DROP  # the bleeding drop
    assert at(image, hand.probe) == diagram.CARD  # an amputated hand is not there any more


def test_an_unknown_location_goes_to_the_side_column_instead_of_failing() -> None:
    layout = figure("fading-suns")
    picture = BodyWounds("fading-suns", "Vorox", (LocationMark("third_arm", "Third arm",
                                                               (LocationWound("grievous", "GRI", 1),)),))
    image = pixels(diagram.render(picture))
    box_probe = (layout.side_column + 4 + 3, 40 + 4 + 18 + 10)
    assert at(image, box_probe) == rgb("#c8312b")
    assert all(at(image, shape.probe) == BODY for shape in layout.locations.values())


def test_the_hit_point_bar_shows_health_and_each_wound_by_kind() -> None:
    layout = diagram_layout("pendragon")
    assert isinstance(layout, BarLayout)
    picture = HitPointWounds("pendragon", "Sir Kay", 20, 8, 5, 13, 12,
                             (Segment(1, 4), Segment(2, 6, major=True), Segment(3, 2, mortal=True)))
    image = pixels(diagram.render(picture))
    x0, y0, x1, _y1 = layout.bar
    per = (x1 - x0) / 20

    def probe(points: float) -> tuple[int, int, int]:
        return at(image, (x0 + points * per + 2, y0 + 4))

    assert probe(0) == rgb(layout.healthy)
    # wounds eat the bar from the right, the oldest at the end: 8 healthy, then 2 mortal, 6 major, 4 plain
    assert probe(8) == rgb(layout.mortal) and probe(10) == rgb(layout.major) and probe(16) == rgb(layout.wound)


def test_pictures_are_small_and_cached_by_wound_state() -> None:
    layout = figure("ars-harn")
    everything = BodyWounds("ars-harn", "W" * 60, tuple(
        LocationMark(key, key, (LocationWound("K", "K5", n), LocationWound("S", "S3", n + 100)), bleeding=True)
        for n, key in enumerate(layout.locations)), conditions=("unconscious", "bleeding: 26 wounds"))
    png = diagram.render(everything)
    assert len(png.data) < 100 * 1024 and png.data.startswith(b"\x89PNG")
    assert diagram.render(everything).data is png.data  # drawn once
    assert diagram.party([everything] * 12 + [GOLDEN["pendragon"]]).data.startswith(b"\x89PNG")


def test_an_attack_highlights_the_new_wound_and_where_armour_held() -> None:
    layout = figure("ars-harn")
    before = BodyWounds("ars-harn", "Bjorn", (LocationMark("skull", "Skull", (LocationWound("M", "M1", 1),)),
                                              LocationMark("left_calf", "left Calf", (LocationWound("S", "S2", 2),))))
    hit = with_attack(before, {1}, AttackOutcome.from_dict({"hit": True, "location": "calf", "side": "left",
                                                            "injury": {"code": "S2"}}))
    assert isinstance(hit, BodyWounds) and hit.new == ("left_calf",) and hit.stopped is None
    held = with_attack(before, {1, 2}, AttackOutcome.from_dict({"hit": True, "location": "upper_arm", "side": "right",
                                                                "injury": None, "armour": 6}))
    assert isinstance(held, BodyWounds) and held.new == () and held.stopped == "right_upper_arm"
    image = pixels(diagram.thumbnail(hit))
    x0 = min(s.box[0] for s in layout.locations.values()) - 5
    y0 = min(s.box[1] for s in layout.locations.values()) - 5
    calf = layout.locations["left_calf"].box
    edge = ((calf[0] - 2 - x0) * diagram.THUMB_SCALE, ((calf[1] + calf[3]) / 2 - y0) * diagram.THUMB_SCALE)
    colour = image.getpixel((round(edge[0]), round(edge[1])))
    assert isinstance(colour, tuple) and colour[:3] == diagram.HIGHLIGHT


def test_engine_sheets_become_wound_pictures() -> None:
    catalog = load_catalog("fading-suns")
    sheet = {"name": "Erian", "wounds": [{"index": 1, "location": "left_arm", "severity": "crippled"}],
             "conditions": ["stunned", "prone"]}
    picture = wound_picture("fading-suns", sheet, catalog)
    assert isinstance(picture, BodyWounds) and picture.conditions == ("stunned",)
    assert picture.marks == (LocationMark("left_arm", "L.Arm", (LocationWound("crippled", "CRI", 1),), crippled=True),)
    assert wound_picture("fading-suns", {"name": 3}, catalog) is None  # unreadable: text only, no picture


@pytest.mark.parametrize("system", sorted(GOLDEN))
def test_the_golden_pictures_have_not_changed(system: str, tmp_path: Path) -> None:
    found = compare(system, tmp_path)
    assert found.pixels == 0, (f"{system}: {found.pixels} pixels differ from tests/golden (diff: {found.diff}); "
                               "if the change is meant, run: python -m tests.golden.diagram_golden --update")


def test_a_broken_layout_is_refused_naming_the_field() -> None:
    from content import ContentError
    from content.diagram import _Document
    from content.schema import validate

    good = {"kind": "figure", "source": "ours", "width": 300, "height": 300, "side_column": 200,
            "severities": [{"key": "M", "label": "minor", "colour": "#ffee00", "ink": "#000000"}],
            "locations": {"head": {"box": [10, 10, 50, 50]}}}
    assert isinstance(validate(_Document, {"layout": good}, "diagrams/x.yaml").layout, FigureLayout)
    for change, field in (({"locations": {"head": {"box": [50, 10, 10, 50]}}}, "layout.figure.locations.head.box"),
                          ({"severities": [{"key": "M", "label": "minor", "colour": "red", "ink": "#000000"}]},
                           "layout.figure.severities.0.colour"),
                          ({"locations": {"head": {"box": [10, 10, 250, 50]}}}, "layout.figure")):
        with pytest.raises(ContentError) as caught:
            validate(_Document, {"layout": {**good, **change}}, "diagrams/x.yaml")
        assert "diagrams/x.yaml" in str(caught.value) and field in str(caught.value), str(caught.value)
