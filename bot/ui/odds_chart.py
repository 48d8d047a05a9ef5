"""The /odds picture: one bar per outcome (two, side by side, for a comparison), or where blows land on the
body diagram's figure (``chart:locations``), drawn with Pillow.

A dark card of its own with light text and two colours that stay apart for colour-blind eyes (blue and
amber), so it reads the same in Discord's dark and light themes; sized for a phone (text stays about
12 px high when the picture is shrunk to a phone's width).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from content.diagram import FigureLayout

WIDTH = 800
BACKGROUND = (43, 45, 49)
TEXT = (242, 243, 245)
MUTED = (181, 186, 193)
TRACK = (64, 66, 73)
SERIES = ((88, 101, 242), (240, 178, 50))  # blue, amber
PAD = 24
LABEL_WIDTH = 250
VALUE_WIDTH = 110
BAR_HEIGHT = 26
ROW_GAP = 14
FONT_SIZE = 26


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def percent(p: float) -> str:
    """A probability as a player reads it: 0%, <0.1%, 12.3%, >99.9%, 100%."""
    if p <= 1e-12:
        return "0%"
    if p >= 1 - 1e-9:
        return "100%"
    if p < 0.001:
        return "<0.1%"
    if p > 0.999:
        return ">99.9%"
    return f"{p * 100:.1f}%"


def bar_chart(title: str, rows: Sequence[tuple[str, Sequence[float]]], legend: Sequence[str] = ()) -> bytes:
    """A PNG: ``title``, then each row's label and one bar per series (0..1), with its percentage."""
    series = max((len(values) for _, values in rows), default=1)
    font, small = _font(FONT_SIZE), _font(FONT_SIZE - 4)
    row_height = series * BAR_HEIGHT + (series - 1) * 4 + ROW_GAP
    legend_height = 40 if legend else 0
    height = PAD + 40 + legend_height + len(rows) * row_height + PAD
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, PAD), _fit(draw, title, WIDTH - 2 * PAD, font), fill=TEXT, font=font)
    y = PAD + 44
    if legend:
        x = PAD
        for index, full in enumerate(legend):
            name = _fit(draw, full, (WIDTH - 2 * PAD) // max(1, len(legend)) - 70, small)
            draw.rectangle((x, y + 6, x + 22, y + 28), fill=SERIES[index % len(SERIES)])
            draw.text((x + 30, y + 2), name, fill=MUTED, font=small)
            x += 40 + int(draw.textlength(name, font=small)) + 24
        y += legend_height
    track = WIDTH - PAD - LABEL_WIDTH - VALUE_WIDTH
    for label, values in rows:
        label_y = y + (series * BAR_HEIGHT + (series - 1) * 4 - FONT_SIZE) // 2
        draw.text((PAD, label_y), _fit(draw, label, LABEL_WIDTH - 12, small), fill=TEXT, font=small)
        for index, value in enumerate(values):
            top = y + index * (BAR_HEIGHT + 4)
            left = PAD + LABEL_WIDTH
            draw.rectangle((left, top, left + track, top + BAR_HEIGHT), fill=TRACK)
            share = min(max(value, 0.0), 1.0)
            if share > 0:
                draw.rectangle((left, top, left + max(2, round(track * share)), top + BAR_HEIGHT),
                               fill=SERIES[index % len(SERIES)])
            draw.text((left + track + 10, top), percent(value), fill=TEXT, font=small)
        y += row_height
    out = io.BytesIO()
    # zlib's default level: optimize=True tries every filter and took 30 ms of a 40 ms /odds for 3% less
    image.save(out, "PNG", compress_level=6)
    return out.getvalue()


def _fit(draw: ImageDraw.ImageDraw, text: str, width: int, font: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> str:
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "\u2026", font=font) > width:
        text = text[:-1]
    return text + "\u2026"


# -- where blows land: the body diagram's figure, each location shaded by its chance ---------------------

HEAT = (240, 178, 50)  # the likeliest location: the comparison's amber; none at all: the bar's empty track
MAP_SCALE = 1.75  # the diagrams' layouts are phone-size pixels (400 wide with their notes column)
CELL_FONT = 22
LIKELIEST = 6  # locations listed beside the figure


def _heat(share: float) -> tuple[int, int, int]:
    r, g, b = (round(low + (high - low) * share) for low, high in zip(TRACK, HEAT, strict=True))
    return r, g, b


def location_map(title: str, figure: FigureLayout, chances: Sequence[Mapping[str, float]],
                 legend: Sequence[str] = (), misses: Sequence[float] = ()) -> bytes:
    """A PNG: the body figure once per declaration, each location shaded by the chance a blow lands there
    (the likeliest brightest) with its percentage where it fits; beside a single figure, the locations by
    name, likeliest first (every one that fits beside it), and then the chance of a miss (``misses``, one per
    declaration). ``chances`` maps the figure's location keys (``right_thigh``) to probabilities."""
    font, small, cell, tight = _font(FONT_SIZE), _font(FONT_SIZE - 4), _font(CELL_FONT), _font(CELL_FONT - 4)
    panel = round(figure.side_column * MAP_SCALE)
    top = PAD + 44 + (36 if legend else 0)
    height = top + round(figure.height * MAP_SCALE) + PAD
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, PAD), _fit(draw, title, WIDTH - 2 * PAD, font), fill=TEXT, font=font)
    peak = max((p for found in chances for p in found.values()), default=0.0)
    for index, found in enumerate(chances):
        left = PAD + index * (WIDTH - 2 * PAD) // max(1, len(chances))
        if legend:
            draw.text((left, PAD + 44), _fit(draw, legend[index], panel, small), fill=SERIES[index % 2], font=small)
        for key, shape in figure.locations.items():
            x0, y0, x1, y1 = (round(v * MAP_SCALE) for v in shape.box)
            box = (left + x0, top + y0, left + x1, top + y1)
            p = found.get(key, 0.0)
            fill = _heat(p / peak if peak > 0 else 0.0)
            if shape.kind == "ellipse":
                draw.ellipse(box, fill=fill, outline=MUTED)
            else:
                draw.rounded_rectangle(box, radius=round(shape.radius * MAP_SCALE), fill=fill, outline=MUTED)
            label = percent(p) if p > 0 else ""
            fits = [f for f in (cell, tight) if draw.textlength(label, font=f) <= x1 - x0 - 4] if label else []
            if fits and y1 - y0 >= CELL_FONT:
                ink = BACKGROUND if sum(fill) > 380 else TEXT
                draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), label, fill=ink, font=fits[0], anchor="mm")
        for mark in figure.labels:
            draw.text((left + round(mark.at[0] * MAP_SCALE), top + round(mark.at[1] * MAP_SCALE)), mark.text,
                      fill=MUTED, font=small, anchor="mm")
    if len(chances) == 1:
        x, y = PAD + panel + 24, top
        room = max(LIKELIEST, (height - top - PAD) // (FONT_SIZE + 12))
        for name, p in listed_locations(figure, chances[0], misses[0] if misses else None, room):
            draw.text((x, y), _fit(draw, name, WIDTH - x - PAD - VALUE_WIDTH, small), fill=TEXT, font=small)
            draw.text((WIDTH - PAD - VALUE_WIDTH + 10, y), percent(p), fill=TEXT, font=small)
            y += FONT_SIZE + 12
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=6)
    return out.getvalue()


def listed_locations(figure: FigureLayout, chances: Mapping[str, float], miss: float | None,
                     room: int) -> list[tuple[str, float]]:
    """The lines beside a single figure: its locations by name, likeliest first, as many as ``room`` leaves
    (every one of a small figure such as Fading Suns' seven), then the miss."""
    every = {key: chances.get(key, 0.0) for key in figure.locations} | dict(chances)
    shown = room - (1 if miss is not None else 0)
    listed = [(key.replace("_", " ").capitalize(), p) for key, p in sorted(every.items(), key=lambda kv: -kv[1])]
    return listed[:shown] + ([("Miss", miss)] if miss is not None else [])
