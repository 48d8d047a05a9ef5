"""Exported sheets carry everything a fight leaves on a sheet (wounds, conditions, owed rolls) and read back
as the same sheet; every NPC template does too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.scenario_runner import resolve_text
from bot.services.sheet_file import load_sheet_file
from bot.ui.sheet_files import export_filename, export_text
from content import load_catalog
from rules.registry import get_engine, system_ids

EXAMPLES = Path(__file__).resolve().parents[2] / "content" / "examples"


def round_trip(system: str, sheet: dict[str, Any]) -> None:
    text = export_text(str(sheet["name"]), system, sheet)
    again = load_sheet_file(export_filename(str(sheet["name"])), text.encode())
    assert again == sheet
    assert get_engine(system).validate_sheet(again, load_catalog(system)) == sheet


@pytest.mark.parametrize("scenario", sorted(p.name for p in EXAMPLES.glob("*.yaml")))
def test_the_sheets_a_fight_leaves_export_and_read_back_unchanged(scenario: str) -> None:
    result = resolve_text((EXAMPLES / scenario).read_bytes(), scenario)
    for side in ("attacker", "defender"):
        if result[side] is not None:
            round_trip(result["system"], result[side])


@pytest.mark.parametrize("system", system_ids())
def test_every_npc_template_exports_and_reads_back_unchanged(system: str) -> None:
    for sheet in load_catalog(system).npc_templates().values():
        round_trip(system, dict(sheet))


def test_an_export_file_name_keeps_only_safe_characters() -> None:
    assert export_filename("Sir Gawain") == "Sir-Gawain.yaml"
    assert export_filename("../../etc/passwd") == "etc-passwd.yaml"
    assert export_filename("Þórr, son of Þrúd") == "Þórr-son-of-Þrúd.yaml"


def test_the_command_line_prints_the_template_and_refuses_an_unknown_system(capsys: Any) -> None:
    from bot.cli import main
    from bot.services.sheet_guide import sheet_guide
    from bot.ui.sheet_files import template_text

    assert main(["character", "template", "--system", "pendragon"]) == 0
    assert capsys.readouterr().out == template_text(sheet_guide("pendragon", load_catalog("pendragon")))
    assert main(["character", "template", "--system", "harn"]) == 2
    assert capsys.readouterr().err == "grievous: --system is one of ars-harn, pendragon, fading-suns, not 'harn'\n"
