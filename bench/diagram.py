"""How long a body diagram takes to draw, and how big it is.

    .venv/bin/python -m bench.diagram            # print the table
    .venv/bin/python -m bench.diagram --write    # also put it in docs/benchmarks.md

For each system's golden character (tests/golden/diagram_golden.py): the full picture (/injuries), the attack
thumbnail and a party of six, each drawn from scratch (the cache bypassed) ``--repeat`` times; then a
cached /injuries (the same wound state again); then reading the wound state from an engine sheet.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

if __package__ in (None, ""):  # `python bench/diagram.py`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import yaml

from bench.doc_block import write_block
from bot.services.wound_state import wound_picture
from bot.systems.pictures import WoundPicture
from bot.ui import diagram
from content import load_catalog
from tests.golden.diagram_golden import GOLDEN

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "benchmarks.md"
TARGET_MS = 20.0
SIZE_LIMIT = 100 * 1024
# A wounded defender of each system, from the example fights (their sheets as the engine stores them).
SHEETS = {"ars-harn": "ars-harn-axe-amputation.yaml", "pendragon": "pendragon-first-aid.yaml",
          "fading-suns": "fading-suns-crippling-axe.yaml"}


def timed(work: Callable[[], object], repeat: int) -> tuple[float, float]:
    """p50 and p99 in ms."""
    samples = []
    for _ in range(repeat):
        began = time.perf_counter()
        work()
        samples.append((time.perf_counter() - began) * 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.99))]


def _draw(picture: WoundPicture, mode: str) -> bytes:
    """One picture drawn from scratch: the cache of finished PNGs bypassed."""
    return diagram._png(diagram._draw(picture, mode), (picture.system,))


def _party(picture: WoundPicture) -> bytes:
    return diagram._party.__wrapped__((picture,) * 6)


def measure(repeat: int) -> list[str]:
    rows = ["| system | full p50 / p99 ms | full PNG | thumbnail p50 ms | thumbnail PNG | party of 6 p50 ms | "
            "party PNG | cached /injuries µs | wound state from a sheet µs |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for system, picture in GOLDEN.items():
        sizes = {mode: len(_draw(picture, mode)) for mode in ("full", "thumb")}
        party = _party(picture)
        full = timed(partial(_draw, picture, "full"), repeat)
        thumb = timed(partial(_draw, picture, "thumb"), repeat)
        group = timed(partial(_party, picture), max(10, repeat // 5))
        diagram.render(picture)
        cached = timed(partial(diagram.render, picture), repeat)
        example = yaml.safe_load((ROOT / "content" / "examples" / SHEETS[system]).read_text(encoding="utf-8"))
        state = timed(partial(wound_picture, system, example["defender"], load_catalog(system)), repeat)
        verdict = "" if full[0] < TARGET_MS and max(sizes.values()) < SIZE_LIMIT else " (**over target**)"
        rows.append(f"| {system} | {full[0]:.2f} / {full[1]:.2f}{verdict} | {sizes['full'] / 1024:.1f} KB | "
                    f"{thumb[0]:.2f} | {sizes['thumb'] / 1024:.1f} KB | {group[0]:.2f} | {len(party) / 1024:.1f} KB "
                    f"| {cached[0] * 1000:.1f} | {state[0] * 1000:.0f} |")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.diagram", description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="drawings of each picture (default %(default)s)")
    parser.add_argument("--write", action="store_true", help=f"put the table in {DOCS.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    load = " ".join(f"{v:.2f}" for v in os.getloadavg())
    for system, picture in GOLDEN.items():  # fonts, layouts, the unwounded figures: drawn once per process
        diagram._draw(picture, "full")
        load_catalog(system)
    rows = measure(args.repeat)
    after = " ".join(f"{v:.2f}" for v in os.getloadavg())
    text = "\n".join([
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC with `python -m bench.diagram --repeat {args.repeat}` "
        f"(load average {load} before, {after} after: the 2-core machine was shared with other work, so "
        "these are upper bounds). Target: a diagram under 20 ms at p50, under 100 KB.",
        "", *rows, ""])
    print(text)
    if args.write:
        write_block(DOCS, "diagram", text, intro="## Body diagrams\n\nWritten by `.venv/bin/python -m bench.diagram "
                    "--write`.")
        print(f"wrote {DOCS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
