"""Golden body diagrams (test reference data): one wounded character per system, drawn and compared with the
tests/golden/*.png beside this module.

    python -m tests.golden.diagram_golden            # compare; print each difference (pixel count, diff image)
    python -m tests.golden.diagram_golden --update   # draw them again after a deliberate change

tests/bot/test_diagram.py runs the comparison; a failure names the diff image to look at.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops

from bot.systems.pictures import BodyWounds, HitPointWounds, LocationMark, LocationWound, Segment, WoundPicture
from bot.ui import diagram

GOLDEN_DIR = Path(__file__).resolve().parent  # the PNGs sit beside this module

GOLDEN: dict[str, WoundPicture] = {
    "ars-harn": BodyWounds(
        system="ars-harn", name="Bjorn Ironside",
        marks=(
            LocationMark("left_forearm", "left Forearm", (LocationWound("S", "S3", 1),), bleeding=True),
            LocationMark("skull", "Skull", (LocationWound("M", "M1", 2),)),
            LocationMark("right_thigh", "right Thigh", (LocationWound("G", "G4", 3), LocationWound("M", "M1", 5))),
            LocationMark("right_hand", "right Hand", (LocationWound("G", "G5", 4),), amputated=True),
            LocationMark("abdomen", "Abdomen", (LocationWound("K", "K4", 6),)),
            LocationMark("left_tail", "left Tail", (LocationWound("S", "S2", 7),)),  # a homebrew location
        ),
        conditions=("shock", "bleeding: 1 wound"), stopped="right_upper_arm"),
    "fading-suns": BodyWounds(
        system="fading-suns", name="Sister Aurelia",
        marks=(
            LocationMark("head", "Head", (LocationWound("minor", "MIN", 1),)),
            LocationMark("left_arm", "L.Arm", (LocationWound("crippled", "CRI", 2),), crippled=True),
            LocationMark("chest", "Chest", (LocationWound("grievous", "GRI", 3),)),
            LocationMark("right_leg", "R.Leg", (LocationWound("major", "MAJ", 4),)),
        ),
        conditions=("stunned",)),
    "pendragon": HitPointWounds(
        system="pendragon", name="Sir Gawain", hit_points=29, current=8, unconscious=7, knockdown=15,
        major_wound=14, segments=(Segment(1, 5, first_aid=True), Segment(2, 16, major=True)),
        conditions=("chirurgery needed",)),
}


@dataclass(frozen=True)
class Difference:
    system: str
    pixels: int  # how many pixels differ (0: the same picture)
    diff: Path | None  # an image with the differing pixels in magenta over a faded golden


def golden_path(system: str) -> Path:
    return GOLDEN_DIR / f"diagram-{system}.png"


def compare(system: str, out_dir: Path) -> Difference:
    drawn = Image.open(io.BytesIO(diagram.render(GOLDEN[system]).data)).convert("RGB")
    path = golden_path(system)
    if not path.is_file():
        return Difference(system, drawn.width * drawn.height, None)
    golden = Image.open(path).convert("RGB")
    if golden.size != drawn.size:
        return Difference(system, max(golden.width * golden.height, drawn.width * drawn.height), None)
    changed = ImageChops.difference(golden, drawn).convert("L").point(lambda v: 255 if v else 0)
    pixels = drawn.width * drawn.height - changed.histogram()[0]
    if not pixels:
        return Difference(system, 0, None)
    faded = Image.blend(golden, Image.new("RGB", golden.size, (255, 255, 255)), 0.7)
    faded.paste((255, 0, 255), mask=changed)
    out_dir.mkdir(parents=True, exist_ok=True)
    diff = out_dir / f"diagram-{system}-diff.png"
    faded.save(diff)
    drawn.save(out_dir / f"diagram-{system}-drawn.png")
    return Difference(system, pixels, diff)


def update() -> list[Path]:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    written = []
    for system, picture in GOLDEN.items():
        path = golden_path(system)
        path.write_bytes(diagram.render(picture).data)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden.diagram_golden", description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="draw the golden images again")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "grievous-diagram-diff",
                        help="where diff images go (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.update:
        for path in update():
            print(f"wrote {path}")
        return 0
    failed = 0
    for system in GOLDEN:
        found = compare(system, args.out)
        if found.pixels:
            failed += 1
            where = f"; diff: {found.diff}" if found.diff else " (missing, or a different size)"
            print(f"{system}: {found.pixels} pixels differ{where}")
        else:
            print(f"{system}: same")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
