"""How long reading a large homebrew pack takes: the input guard against the loaders it replaced.

    .venv/bin/python -m bench.input_guard            # a 511 KiB weapons.yaml, best of 3
    .venv/bin/python -m bench.input_guard --kib 128 --runs 5

Times, in one run, on the same text:
- "before wave 2": PyYAML's pure-Python parser twice (an alias count, then safe_load), as
  content/safe_yaml.py read every pack file;
- "CSafeLoader": libyaml's safe loader on its own (no bounds);
- "guard": content.input_guard.parse_document, every bound checked;
- "catalog": the whole ars-harn catalog built from the default pack overlaid with that file, which is
  what /pack upload does (in a worker thread since wave 2).
Ratios are against the first line. Speed is printed, never asserted in a test.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from importlib import resources
from typing import Any

import yaml

from content import load_catalog_files
from content.input_guard import LIBYAML, PACK_FILE, parse_document


def large_weapons(kib: int) -> bytes:
    """The default weapons.yaml with homebrew blades added until it is ``kib`` KiB."""
    base = (resources.files("content") / "ars_harn" / "weapons.yaml").read_text(encoding="utf-8").rstrip("\n")
    lines, total, n = [base], len(base), 0
    while total < kib * 1024:
        lines.append(f"  Homebrew Blade {n}: {{skill: Sword, weight: 3, hm_attack: 15, hm_defence: 5, blunt: 2, "
                     f"edge: 7, point: 4}}")
        total, n = total + len(lines[-1]) + 1, n + 1
    return ("\n".join(lines) + "\n").encode()


def best(runs: int, work: Callable[[], Any]) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def before_wave_2(text: str) -> Any:
    sum(1 for event in yaml.parse(text, Loader=yaml.SafeLoader) if isinstance(event, yaml.AliasEvent))
    return yaml.safe_load(text)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kib", type=int, default=511, help="size of the weapons.yaml to read (default 511)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each, best kept (default 3)")
    args = parser.parse_args(argv)
    data = large_weapons(args.kib)
    text = data.decode()
    assert parse_document(data, "weapons.yaml", PACK_FILE) == yaml.load(text, Loader=yaml.CSafeLoader)
    rows = [
        ("before wave 2 (pure-Python parse + safe_load)", best(args.runs, lambda: before_wave_2(text))),
        ("CSafeLoader alone, no bounds", best(args.runs, lambda: yaml.load(text, Loader=yaml.CSafeLoader))),
        (f"guard parse_document ({'libyaml' if LIBYAML else 'pure-Python'} events)",
         best(args.runs, lambda: parse_document(data, "weapons.yaml", PACK_FILE))),
        ("whole ars-harn catalog with it (/pack upload)",
         best(args.runs, lambda: load_catalog_files("ars-harn", {"weapons.yaml": data}))),
    ]
    baseline = rows[0][1]
    print(f"weapons.yaml of {len(data) / 1024:.0f} KiB, best of {args.runs}:")
    for name, seconds in rows:
        print(f"  {name:<50} {seconds * 1000:8.0f} ms   {seconds / baseline:5.2f}x")


if __name__ == "__main__":
    main()
