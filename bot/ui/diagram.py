"""Wounds as a picture: a body diagram (or Pendragon's hit-point bar) drawn with Pillow as a PNG.

What is drawn comes from ``bot/services/wound_state.py`` (the engine's state); where each location goes
and each severity's colour, from ``content/diagrams/<system>.yaml``. Pictures are cached by that state,
so a repeated /injuries costs nothing; the unwounded figure is drawn once, and only the marks on it each
time. Drawing happens off the event loop (``bot/ui/pictures.py``), except the tiny attack thumbnail.
The card has its own light background and a dark border: it reads the same in Discord's dark and light
themes. Colour is never the only signal: each location carries its code, marks have shapes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.systems.pictures import BodyWounds, HitPointWounds, LocationMark, WoundPicture
from content.diagram import BarLayout, FigureLayout, Shape, diagram_layout, rgb

RGB = tuple[int, int, int]
CARD = rgb("#f3efe7")
BORDER = rgb("#4a443c")
INK = rgb("#1e1b18")
MUTED = rgb("#5c554c")
BODY = rgb("#d9d2c5")
OUTLINE = rgb("#6b6258")
HIGHLIGHT = rgb("#0a74f0")
DROP = rgb("#9e0b0b")
SHIELD = rgb("#2f6db5")
WHITE = (255, 255, 255)

FULL_SCALE = 1.25  # layouts are in phone-size pixels; drawn larger so text stays sharp on dense screens
THUMB_SCALE = 0.45
PARTY_SCALE = 0.8
PARTY_COLUMNS = 3
PARTY_MAX = 12  # figures on one party picture (a list says who is left out)
CACHE_SIZE = 256
OTHERS_MAX = 6  # wounded locations the layout does not know, listed in the side column


@dataclass(frozen=True)
class Png:
    filename: str
    data: bytes


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=max(6, size))


@lru_cache(maxsize=1024)
def _glyphs(text: str, size: int, anchor: str) -> tuple[Image.Image, tuple[int, int]]:
    """A line of text as a coverage mask, with its offset from the anchor point: codes and names repeat from
    picture to picture, so each is rasterised once."""
    font = _font(size)
    left, top, right, bottom = (int(v) for v in font.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor=anchor)
    return mask, (left, top)


def render(picture: WoundPicture) -> Png:
    """The full picture for /injuries and /character show."""
    return Png("wounds.png", _render(picture, "full"))


def thumbnail(picture: WoundPicture) -> Png:
    """The small picture for an attack's embed: the new wound highlighted."""
    return Png("hit.png", _render(picture, "thumb"))


def party(pictures: Sequence[WoundPicture]) -> Png:
    """One small figure each, for the GM's view of the whole party."""
    return Png("party.png", _party(tuple(pictures[:PARTY_MAX])))


@lru_cache(maxsize=CACHE_SIZE)
def _render(picture: WoundPicture, mode: str) -> bytes:
    return _png(_draw(picture, mode), (picture.system,))


def _draw(picture: WoundPicture, mode: str) -> Image.Image:
    layout = diagram_layout(picture.system)
    scale = {"full": FULL_SCALE, "thumb": THUMB_SCALE, "party": PARTY_SCALE}[mode]
    if isinstance(picture, BodyWounds) and isinstance(layout, FigureLayout):
        return _Figure(layout, picture, scale, mode, _figure_base(picture.system, mode)).draw()
    if isinstance(picture, HitPointWounds) and isinstance(layout, BarLayout):
        return _Bar(layout, picture, scale, mode).draw()
    raise ValueError(f"the {picture.system} diagram layout does not fit its wound state")


@cache
def _figure_base(system: str, mode: str) -> Image.Image:
    """The unwounded figure with its labels, frame and legend, drawn once per system and size."""
    layout = diagram_layout(system)
    assert isinstance(layout, FigureLayout)
    empty = BodyWounds(system=system, name="", marks=())
    scale = {"full": FULL_SCALE, "thumb": THUMB_SCALE, "party": PARTY_SCALE}[mode]
    return _Figure(layout, empty, scale, mode).draw_base()


@cache
def _palette(systems: tuple[str, ...]) -> Image.Image:
    """Every colour the systems' pictures use, then blends (the soft edges of letters and outlines, first):
    mapping to a fixed palette is far quicker than working one out per picture."""
    named = [CARD, BORDER, INK, MUTED, BODY, OUTLINE, HIGHLIGHT, DROP, SHIELD, WHITE, rgb("#b3261e")]
    for system in systems:
        layout = diagram_layout(system)
        if isinstance(layout, FigureLayout):
            named += [rgb(s.colour) for s in layout.severities] + [rgb(s.ink) for s in layout.severities]
        else:
            named += [rgb(c) for c in (layout.healthy, layout.wound, layout.major, layout.mortal, layout.ink)]
    named = list(dict.fromkeys(named))

    def blend(one: RGB, two: RGB, f: float) -> RGB:
        r, g, b = (round(x * f + y * (1 - f)) for x, y in zip(one, two, strict=True))
        return r, g, b

    edges = [blend(pen, other, f) for pen in (INK, WHITE, OUTLINE, CARD) for other in named for f in (0.25, 0.5, 0.75)]
    rest = [blend(one, two, 0.5) for i, one in enumerate(named) for two in named[i + 1:]]
    colours = list(dict.fromkeys(named + edges + rest))[:256]
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for colour in colours for v in colour])
    return palette


def _png(image: Image.Image, systems: tuple[str, ...]) -> bytes:
    out = io.BytesIO()
    image.quantize(palette=_palette(systems), dither=Image.Dither.NONE).save(out, "PNG", compress_level=2)
    return out.getvalue()


class _Canvas:
    def __init__(self, width: int, height: int, scale: float, base: Image.Image | None = None) -> None:
        self.scale = scale
        self.image = base.copy() if base is not None else Image.new("RGB", (self.px(width), self.px(height)), CARD)
        self.pen = ImageDraw.Draw(self.image)

    def px(self, value: float) -> int:
        return round(value * self.scale)

    def box(self, box: Sequence[float], grow: float = 0) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = box
        return self.px(x0 - grow), self.px(y0 - grow), self.px(x1 + grow), self.px(y1 + grow)

    def text(self, at: tuple[float, float], text: str, size: int, fill: RGB, anchor: str = "la") -> None:
        mask, (left, top) = _glyphs(text, self.px(size), anchor)
        x, y = self.px(at[0]) + left, self.px(at[1]) + top
        self.image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)

    def text_width(self, text: str, size: int) -> float:
        return float(self.pen.textlength(text, font=_font(self.px(size)))) / self.scale

    def shape(self, shape: Shape, fill: RGB | None, outline: RGB, width: float = 1, grow: float = 0) -> None:
        box = self.box(shape.box, grow)
        line = max(1, self.px(width))
        if shape.kind == "ellipse":
            self.pen.ellipse(box, fill=fill, outline=outline, width=line)
        else:
            self.pen.rounded_rectangle(box, radius=self.px(shape.radius + grow), fill=fill, outline=outline,
                                       width=line)

    def frame(self, width: int, height: int) -> None:
        # Square corners: a rounded border would leave the card's colour in the corners outside it.
        self.pen.rectangle(self.box((0, 0, width - 1, height - 1)), outline=BORDER, width=max(1, self.px(2)))


class _Figure:
    def __init__(self, layout: FigureLayout, picture: BodyWounds, scale: float, mode: str,
                 base: Image.Image | None = None) -> None:
        self.layout = layout
        self.picture = picture
        self.mode = mode
        width = layout.side_column if mode != "full" else layout.width
        self.width = width
        self.canvas = _Canvas(width, layout.height, scale, base)
        self.code_size = 14 if mode == "party" else 12  # the party's figures are small: larger letters

    def draw(self) -> Image.Image:
        """The unwounded body comes ready from ``_figure_base``; only what this state marks is drawn on it."""
        layout, picture, c = self.layout, self.picture, self.canvas
        letters = self.mode != "thumb"
        for mark in picture.marks:
            if mark.key in layout.locations:
                self._location(layout.locations[mark.key], mark, letters, stopped=mark.key == picture.stopped)
        if picture.stopped in layout.locations and picture.stopped not in {m.key for m in picture.marks}:
            self._location(layout.locations[picture.stopped], None, letters, stopped=True)
        for key in picture.new:
            if key in layout.locations:
                c.shape(layout.locations[key], None, HIGHLIGHT, width=3, grow=3)
        if letters:
            c.text((12, 8), _short(picture.name, 28 if self.mode == "full" else 18), 18, INK)
        if self.mode == "full":
            self._conditions_and_others([m for m in picture.marks if m.key not in layout.locations])
        if self.mode == "thumb":  # just the body, no margins: Discord shows a thumbnail at 80 px at most
            x0 = min(s.box[0] for s in layout.locations.values()) - 5
            y0 = min(s.box[1] for s in layout.locations.values()) - 5
            x1 = max(s.box[2] for s in layout.locations.values()) + 5
            y1 = max(s.box[3] for s in layout.locations.values()) + 5
            return c.image.crop(c.box((max(0, x0), max(0, y0), x1, y1)))
        return c.image

    def draw_base(self) -> Image.Image:
        layout, c = self.layout, self.canvas
        for shape in layout.locations.values():
            self._location(shape, None, False, stopped=False)
        if self.mode != "thumb":
            for label in layout.labels:
                c.text(label.at, label.text, 15, MUTED, anchor="mm")
            c.frame(self.width, layout.height)
        if self.mode == "full":
            self._legend()
        return c.image

    def _worst(self, mark: LocationMark) -> tuple[str, str] | None:
        if not mark.wounds:
            return None
        worst = max(mark.wounds, key=lambda w: (self.layout.rank(w.severity), w.code))
        return worst.severity, worst.code + ("+" if len(mark.wounds) > 1 else "")

    def _location(self, shape: Shape, mark: LocationMark | None, letters: bool, *, stopped: bool) -> None:
        c = self.canvas
        worst = self._worst(mark) if mark is not None else None
        severity = self.layout.severity(worst[0]) if worst else None
        fill = rgb(severity.colour) if severity else (rgb("#7a3b8f") if worst else BODY)
        ink = rgb(severity.ink) if severity else (WHITE if worst else INK)
        if mark is not None and mark.amputated:
            fill, ink = CARD, INK
        c.shape(shape, fill, OUTLINE)
        x0, y0, x1, y1 = shape.box
        if mark is not None and (mark.amputated or mark.crippled):
            # A cross over the location: gone (amputated: a pale cross on the empty place) or crippled.
            self._cross(x0 + 4, y0 + 4, x1 - 4, y1 - 4, OUTLINE if mark.amputated else ink)
        if letters and worst:
            cx, cy = shape.centre
            if mark is not None and mark.crippled and not mark.amputated:
                half = c.text_width(worst[1], self.code_size) / 2 + 1
                c.pen.rounded_rectangle(c.box((cx - half, cy - 6, cx + half + 2, cy + 6)), radius=c.px(2), fill=fill)
            c.text((cx + 1, cy), worst[1], self.code_size, ink, anchor="mm")
        if mark is not None and mark.bleeding:
            self._drop(x1 - 6, y0 + 3)
        if stopped:
            self._shield(x1 - 12, y1 - 13)

    def _drop(self, x: float, y: float) -> None:
        """Bleeding: a drop shape (a point above a round)."""
        c = self.canvas
        c.pen.polygon([(c.px(x), c.px(y)), (c.px(x - 4), c.px(y + 6)), (c.px(x + 4), c.px(y + 6))], fill=DROP)
        c.pen.ellipse(c.box((x - 4, y + 3, x + 4, y + 11)), fill=DROP, outline=WHITE, width=1)

    def _shield(self, x: float, y: float) -> None:
        """Armour stopped the last blow here: a small shield."""
        c = self.canvas
        points = [(x, y), (x + 10, y), (x + 10, y + 6), (x + 5, y + 11), (x, y + 6)]
        c.pen.polygon([(c.px(px), c.px(py)) for px, py in points], fill=SHIELD, outline=WHITE)

    def _conditions_and_others(self, unknown: list[LocationMark]) -> None:
        """The side column: the whole body's state, then wounds at locations this diagram does not know."""
        c, layout, picture = self.canvas, self.layout, self.picture
        x = layout.side_column + 4
        y = 40.0
        for condition in picture.conditions:
            c.text((x, y), _short(condition[:1].upper() + condition[1:], 20), 15, rgb("#b3261e"))
            y += 20
        if unknown:
            y += 4
            c.text((x, y), "Other locations", 12, MUTED)
            y += 18
            for mark in unknown[:OTHERS_MAX]:
                self._location(Shape(box=(x, int(y), x + 34, int(y) + 20)), mark, True, stopped=False)
                c.text((x + 40, y + 10), _short(mark.label, 16), 12, INK, anchor="lm")
                y += 26
            if len(unknown) > OTHERS_MAX:
                c.text((x, y), f"and {len(unknown) - OTHERS_MAX} more", 12, MUTED)

    def _legend(self) -> None:
        c, layout = self.canvas, self.layout
        x = layout.side_column + 4
        y = layout.height - 20 * (len(layout.severities) + len(layout.marks)) - 10
        for severity in layout.severities:
            c.pen.rounded_rectangle(c.box((x, y, x + 30, y + 16)), radius=c.px(3), fill=rgb(severity.colour),
                                    outline=OUTLINE)
            c.text((x + 15, y + 8), severity.key[:3].upper(), 11, rgb(severity.ink), anchor="mm")
            c.text((x + 38, y + 8), severity.label, 13, INK, anchor="lm")
            y += 20
        for mark, word in layout.marks.items():
            if mark == "bleeding":
                self._drop(x + 15, y)
            elif mark == "armour":
                self._shield(x + 10, y + 1)
            else:
                self._cross(x + 6, y + 2, x + 24, y + 14, INK)
            c.text((x + 38, y + 7), word, 13, INK, anchor="lm")
            y += 20

    def _cross(self, x0: float, y0: float, x1: float, y1: float, ink: RGB) -> None:
        c = self.canvas
        line = max(1, c.px(2))
        c.pen.line(c.box((x0, y0, x1, y1)), fill=ink, width=line)
        c.pen.line(c.box((x0, y1, x1, y0)), fill=ink, width=line)


class _Bar:
    def __init__(self, layout: BarLayout, picture: HitPointWounds, scale: float, mode: str) -> None:
        self.layout = layout
        self.picture = picture
        self.mode = mode
        self.canvas = _Canvas(layout.width, layout.height, scale)
        x0, _, x1, _ = layout.bar
        taken = sum(s.remaining for s in picture.segments)
        self.per_point = (x1 - x0) / max(1, picture.hit_points, taken + max(0, picture.current))

    def x_at(self, points: float) -> float:
        return self.layout.bar[0] + points * self.per_point

    def draw(self) -> Image.Image:
        layout, picture, c = self.layout, self.picture, self.canvas
        x0, y0, _, y1 = layout.bar
        letters = self.mode != "thumb"
        c.pen.rectangle(c.box(layout.bar), fill=BODY, outline=OUTLINE)
        healthy_end = self.x_at(max(0, picture.current))
        if picture.current > 0:
            c.pen.rectangle(c.box((x0, y0, healthy_end, y1)), fill=rgb(layout.healthy), outline=OUTLINE)
        # Wounds from the right end inwards, oldest at the far right.
        right = self.x_at(max(0, picture.current) + sum(s.remaining for s in picture.segments))
        for segment in picture.segments:
            left = right - segment.remaining * self.per_point
            colour = layout.mortal if segment.mortal else layout.major if segment.major else layout.wound
            ink = WHITE if segment.mortal or segment.major else rgb(layout.ink)
            c.pen.rectangle(c.box((left, y0, right, y1)), fill=rgb(colour), outline=OUTLINE)
            if segment.index in picture.new:
                c.pen.rectangle(c.box((left, y0, right, y1), grow=3), outline=HIGHLIGHT, width=max(1, c.px(3)))
            if letters:
                word = "MORT" if segment.mortal else "MAJ" if segment.major else ""
                text = f"{word} {segment.remaining}".strip() + (" +" if segment.first_aid else "")
                if c.text_width(text, 15) > right - left - 4:
                    text = str(segment.remaining)
                c.text(((left + right) / 2, (y0 + y1) / 2), text, 15, ink, anchor="mm")
            right = left
        # The unconscious line: at or below this many hit points the knight falls.
        ux = self.x_at(picture.unconscious)
        c.pen.line(c.box((ux, y0 - 4, ux, y1 + 6)), fill=INK, width=max(1, c.px(2)))
        if not letters:
            return c.image
        c.text((12, 8), _short(picture.name, 30), 20, INK)
        c.text((12, 36), f"Hit points {picture.current}/{picture.hit_points}", 16, INK)
        if picture.current > 0 and healthy_end - x0 > 30:
            c.text(((x0 + healthy_end) / 2, (y0 + y1) / 2), str(picture.current), 15, INK, anchor="mm")
        unconscious = f"unconscious at {picture.unconscious}"
        half = c.text_width(unconscious, 14) / 2
        c.text((min(max(ux, x0 + half), layout.bar[2] - half), y0 - 8), unconscious, 14, INK, anchor="ms")
        # the first blow that knocks down (15 against SIZ 14 under the default knockdown_trigger = exceeds)
        self._ruler(y1 + 12, picture.knockdown, f"Knockdown: a blow of {picture.knockdown}+")
        self._ruler(y1 + 50, picture.major_wound, f"Major wound: a blow of {picture.major_wound}+")
        if picture.conditions:
            text = ", ".join(picture.conditions)
            c.text((layout.width - 12, 38), _short(text[:1].upper() + text[1:], 36), 15, rgb("#b3261e"), anchor="ra")
        c.frame(layout.width, layout.height)
        return c.image

    def _ruler(self, y: float, points: int, label: str) -> None:
        """A bracket as long as the blow it names, measured on the bar's scale, under its label."""
        c, x0 = self.canvas, self.layout.bar[0]
        c.text((x0, y), label, 14, INK)
        end = min(self.x_at(points), self.layout.bar[2])
        y += 20
        line = max(1, c.px(2))
        c.pen.line(c.box((x0, y + 5, end, y + 5)), fill=MUTED, width=line)
        c.pen.line(c.box((x0, y, x0, y + 10)), fill=MUTED, width=line)
        c.pen.line(c.box((end, y, end, y + 10)), fill=MUTED, width=line)


@lru_cache(maxsize=32)
def _party(pictures: tuple[WoundPicture, ...]) -> bytes:
    if not pictures:
        raise ValueError("a party picture needs at least one character")
    cells = [_draw(p, "party") for p in pictures]
    gap = 8
    columns = min(PARTY_COLUMNS, len(cells))
    cell_w = max(i.width for i in cells)
    cell_h = max(i.height for i in cells)
    rows = (len(cells) + columns - 1) // columns
    sheet = Image.new("RGB", (columns * (cell_w + gap) + gap, rows * (cell_h + gap) + gap), CARD)
    for n, cell in enumerate(cells):
        sheet.paste(cell, (gap + (n % columns) * (cell_w + gap), gap + (n // columns) * (cell_h + gap)))
    return _png(sheet, tuple(sorted({p.system for p in pictures})))


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
