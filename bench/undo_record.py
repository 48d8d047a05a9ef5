"""What an attack's undo record costs: the old whole-sheet snapshot against the change set.

    .venv/bin/python -m bench.undo_record [--repeat 2000]

For each system's example fight (content/examples), the engine resolves the attack once; then, timed
``--repeat`` times each, the record the old code built (both sheets deep-copied, as JSON text) and the
one built now (the sheets diffed, as JSON text), and their sizes in bytes. The ratio is new / old,
measured in the same run. Prints only; nothing is written.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from random import Random
from typing import Any

if __package__ in (None, ""):  # `python bench/undo_record.py`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import yaml

from bot.services.changes import diff, op_json
from content import load_catalog
from rules.dice import DiceSource
from rules.model import Scenario
from rules.registry import get_engine

ROOT = Path(__file__).resolve().parent.parent
FIGHTS = {"ars-harn": "ars-harn-axe-amputation.yaml", "pendragon": "pendragon-sword-against-axe.yaml",
          "fading-suns": "fading-suns-crippling-axe.yaml"}


def sides(system: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The two sheets as the engine stores them, before and after the example's attack."""
    scenario = yaml.safe_load((ROOT / "content" / "examples" / FIGHTS[system]).read_text())
    rules, catalog = get_engine(system), load_catalog(system)
    attacker = rules.validate_sheet(scenario["attacker"], catalog)
    defender = rules.validate_sheet(scenario["defender"], catalog)
    dice = DiceSource({k: list(v) for k, v in (scenario.get("dice") or {}).items()}, rng=Random(1))
    done = rules.resolve(Scenario(system, scenario["action"], copy.deepcopy(attacker), copy.deepcopy(defender),
                                  scenario.get("rulings") or scenario.get("settings") or {}), dice, catalog).to_dict()
    return attacker, defender, done["attacker"], done["defender"]


def timed(work: Callable[[], str], repeat: int) -> tuple[float, int]:
    """Median microseconds per call over ``repeat`` calls, and the size of what it made."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        made = work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6, len(made.encode())


def old_record(attacker: dict[str, Any], defender: dict[str, Any]) -> str:
    return json.dumps({"characters": {"1": copy.deepcopy(attacker), "2": copy.deepcopy(defender)}})


def new_record(attacker: dict[str, Any], defender: dict[str, Any], attacker_after: dict[str, Any],
               defender_after: dict[str, Any]) -> str:
    return json.dumps({"format": 2, "sheets": {
        "1": [op_json(op) for op in diff(attacker, attacker_after, counters=True)],
        "2": [op_json(op) for op in diff(defender, defender_after, counters=True)]}})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    print(f"{'system':12} {'old µs':>8} {'new µs':>8} {'ratio':>6} {'old B':>7} {'new B':>6} {'ratio':>6}")
    for system in FIGHTS:
        before_1, before_2, after_1, after_2 = sides(system)
        old_us, old_bytes = timed(partial(old_record, before_1, before_2), args.repeat)
        new_us, new_bytes = timed(partial(new_record, before_1, before_2, after_1, after_2), args.repeat)
        print(f"{system:12} {old_us:8.1f} {new_us:8.1f} {new_us / old_us:6.2f} {old_bytes:7} {new_bytes:6} "
              f"{new_bytes / old_bytes:6.2f}")


if __name__ == "__main__":
    main()
