"""Body-diagram layouts (content/diagrams/<system>.yaml): the silhouette, where each location is drawn,
and the colour of each wound severity. Validated here; bot/ui/diagram.py draws from them."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import Field, field_validator, model_validator

from content.errors import ContentError
from content.input_guard import PACK_FILE, parse_document
from content.loader import package_name
from content.schema import Strict, validate

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in the layout's own pixels


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _colour(value: str) -> str:
    if not _HEX.match(value):
        raise ValueError(f"{value!r} is not a colour like #a1b2c3")
    return value.lower()


class Shape(Strict):
    """A rectangle (corners rounded by ``radius``) or an ellipse inside ``box``."""

    kind: Literal["rect", "ellipse"] = "rect"
    box: Box
    radius: int = Field(default=4, ge=0, le=40)

    @field_validator("box")
    @classmethod
    def _ordered(cls, box: Box) -> Box:
        x0, y0, x1, y1 = box
        if x1 <= x0 or y1 <= y0 or min(box) < 0:
            raise ValueError("box is x0, y0, x1, y1 with x1 > x0 and y1 > y0, none negative")
        return box

    @property
    def centre(self) -> tuple[int, int]:
        x0, y0, x1, y1 = self.box
        return (x0 + x1) // 2, (y0 + y1) // 2

    @property
    def probe(self) -> tuple[int, int]:
        """A point inside the shape that no letter or mark covers: what shows the location's colour."""
        x0, y0, x1, y1 = self.box
        inset = max(3, (x1 - x0) // 5) if self.kind == "ellipse" else 3
        return x0 + inset, (y0 + y1) // 2


class Severity(Strict):
    key: str  # the engine's severity ("M", "grievous")
    label: str  # the legend's word
    colour: str
    ink: str  # the letter's colour on it: dark on light fills, light on dark ones

    _colours = field_validator("colour", "ink")(_colour)


class Text(Strict):
    at: tuple[int, int]
    text: str = Field(min_length=1, max_length=12)


class FigureLayout(Strict):
    """A body with hit locations (ars-harn, fading-suns)."""

    kind: Literal["figure"]
    source: str = Field(min_length=1)
    notes: str = ""
    width: int = Field(ge=100, le=1000)
    height: int = Field(ge=100, le=1000)
    side_column: int = Field(ge=0)  # x where the column of notes and unknown locations starts
    severities: tuple[Severity, ...] = Field(min_length=1)  # mildest first: the worst wound gives the colour
    locations: dict[str, Shape] = Field(min_length=1)
    labels: tuple[Text, ...] = ()  # "R", "L": which side is which
    # The marks this system uses, each with the legend's word for it.
    marks: dict[Literal["bleeding", "armour", "cross"], str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _inside(self) -> FigureLayout:
        for name, shape in self.locations.items():
            if shape.box[2] > self.side_column or shape.box[3] > self.height:
                raise ValueError(f"location {name} lies outside the figure's area")
        if not self.side_column < self.width:
            raise ValueError("side_column must lie inside the picture")
        keys = [s.key for s in self.severities]
        if len(set(keys)) != len(keys):
            raise ValueError("severity keys repeat")
        return self

    def severity(self, key: str) -> Severity | None:
        return next((s for s in self.severities if s.key == key), None)

    def rank(self, key: str) -> int:
        """Mildest 0; an unknown severity counts as the worst (it is drawn, never hidden)."""
        keys = [s.key for s in self.severities]
        return keys.index(key) if key in keys else len(keys)


class BarLayout(Strict):
    """Hit points as a bar (pendragon): wounds eat it from the right."""

    kind: Literal["bar"]
    source: str = Field(min_length=1)
    notes: str = ""
    width: int = Field(ge=100, le=1000)
    height: int = Field(ge=60, le=1000)
    bar: Box  # where the hit-point bar is drawn
    healthy: str
    wound: str
    major: str
    mortal: str
    ink: str  # text on the wound segments

    _colours = field_validator("healthy", "wound", "major", "mortal", "ink")(_colour)


Layout = FigureLayout | BarLayout


class _Document(Strict):
    layout: FigureLayout | BarLayout = Field(discriminator="kind")


@cache
def diagram_layout(system_id: str) -> Layout:
    """The system's layout from content/diagrams/<system>.yaml, validated (cached)."""
    name = f"diagrams/{package_name(system_id)}.yaml"
    item = resources.files("content") / "diagrams" / f"{package_name(system_id)}.yaml"
    if not item.is_file():
        raise ContentError(name, message="is missing: this system has no body diagram")
    return validate(_Document, {"layout": parse_document(item.read_bytes(), name, PACK_FILE)}, name).layout
