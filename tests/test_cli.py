"""The command line: the runner's bad-input paths exit 2 with one line; rolls print."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

import bot.scenario_runner
from bot.cli import main
from rules import registry
from rules.dice import DiceSource
from rules.model import Resolution, Scenario
from rules.outcome import Outcome


@dataclass(frozen=True)
class EchoOutcome(Outcome):
    action: str = "attack"
    total: int = 0


class EchoEngine:
    """A stand-in system: rolls a stress die labelled ``attack`` and reports it."""

    system_id = "echo"
    title = "Echo"
    roll_labels = frozenset({"attack", "location"})
    actions = frozenset({"attack"})
    settings = ()

    def resolve(self, scenario: Scenario, dice: DiceSource, catalog: Any) -> Resolution:
        roll = dice.stress("attack")
        return Resolution("echo", tuple(dice.rolls), EchoOutcome(total=roll.total), scenario.attacker,
                          scenario.defender)

    def validate_sheet(self, sheet: Mapping[str, Any], catalog: Any) -> dict[str, Any]:
        return dict(sheet)

    def summarize(self, sheet: Mapping[str, Any], catalog: Any) -> Any:
        raise NotImplementedError


@pytest.fixture
def echo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.SYSTEMS, "echo", "echo")
    monkeypatch.setitem(registry._loaded, "echo", EchoEngine())  # type: ignore[arg-type]
    monkeypatch.setattr(bot.scenario_runner, "load_catalog", lambda system: None)


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text: str,
        *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    code = main(["resolve", "-", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_runner_prints_rolls_outcome_and_sheets(echo: None, capsys: Any, monkeypatch: Any) -> None:
    code, out, err = run(capsys, monkeypatch, "system: echo\ndice: {attack: [1, 1, 4]}\nattacker: {name: A}\n")
    assert code == 0, err
    data = json.loads(out)
    assert data["system"] == "echo"
    assert data["rolls"][0]["label"] == "attack"
    assert data["rolls"][0]["faces"] == [1, 1, 4]
    assert data["rolls"][0]["total"] == 16
    assert data["outcome"] == {"action": "attack", "total": 16}
    assert data["attacker"] == {"name": "A"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("system: nowhere\n", "unknown system 'nowhere'"),
        ("system: echo\ndice: {kill: [3]}\n", "unknown label 'kill'"),
        ("system: echo\ndice: {attack: [10]}\n", "face 10 for 'attack' is impossible on a d10"),
        ("system: echo\ndice: {attack: [5], location: [4]}\n", "'location', which was never rolled"),
        ("system: echo\ndice: {attack: [5, 6]}\n", "left over"),
        ("system: [echo\n", "is not valid YAML"),
        ("- just\n- a list\n", "must be a mapping"),
        ("system: echo\nbogus: 1\n", "field 'bogus'"),
        ("system: echo\ndice: {attack: [seven]}\n", "field 'dice': 'attack': a die face is a whole number"),
        ("!!python/object/apply:os.system ['touch /tmp/grievous-pwned']\n", "not allowed"),
    ],
)
def test_bad_scenarios_exit_2_with_one_line(echo: None, capsys: Any, monkeypatch: Any, text: str,
                                            message: str) -> None:
    code, out, err = run(capsys, monkeypatch, text)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_a_scenario_over_the_size_cap_is_refused(echo: None, capsys: Any, monkeypatch: Any) -> None:
    code, _, err = run(capsys, monkeypatch, "system: echo\n#" + "x" * 300_000 + "\n")
    assert code == 2
    assert "over the" in err


def test_missing_file(capsys: Any) -> None:
    assert main(["resolve", "/no/such/file.yaml"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_roll_command(capsys: Any) -> None:
    assert main(["roll", "stress+5", "vs", "9", "--dice", "1,1,4"]) == 0
    assert capsys.readouterr().out.strip() == "stress+5 vs 9: stress+5 [1, 1, 4] = 21 (success)"
    assert main(["roll", "fs", "12", "--dice", "12", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["total"], data["result"], data["rolls"][0]["victory_points"]) == (12, "critical", 8)
    assert main(["roll", "3q6"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_usage_errors_exit_2(capsys: Any) -> None:
    assert main(["frobnicate"]) == 2
    assert main([]) == 2


def test_roll_shows_the_modifier_it_adds(capsys: Any) -> None:
    assert main(["roll", "3d6+2", "--dice", "4,3,1"]) == 0
    assert capsys.readouterr().out.strip() == "3d6+2: 3d6 [4, 3, 1] +2 = 10"
    assert main(["roll", "2d10-1", "--dice", "0,5"]) == 0
    assert capsys.readouterr().out.strip() == "2d10-1: 2d10 [0, 5] -1 = 14"


def test_roll_over_a_limit_names_the_limit(capsys: Any) -> None:
    assert main(["roll", "1d1000000"]) == 2
    assert capsys.readouterr().err.strip() == "grievous: a die has between 2 and 1000 sides, not 1000000"
