"""Each server's own commands show only its systems' options; the shared ones never repeat them; what a
server's command lacks is refused in the slash command's words, one way for every system."""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import UserError
from bot.system_commands import GUILD_COMMANDS, SYSTEM_OPTIONS, guild_payload, require_in_system, shared_payload
from rules.registry import system_ids

COMMON = ["target", "weapon", "modifier", "dice", "attacker"]


def command(payloads: list[dict[str, Any]], name: str) -> dict[str, Any] | None:
    return next((p for p in payloads if p["name"] == name), None)


def option_names(payload: dict[str, Any] | None) -> list[str]:
    assert payload is not None
    return [o["name"] for o in payload["options"]]


@pytest.mark.parametrize(("system", "own"), [("ars-harn", {"aspect", "aim", "save_excess", "range"}),
                                             ("pendragon", {"mounted", "charge", "unopposed"}),
                                             ("fading-suns", {"location", "defense", "throw"})])
def test_attack_shows_only_the_servers_system_options(tree_payloads: list[dict[str, Any]], system: str,
                                                      own: set[str]) -> None:
    attack = command(guild_payload(tree_payloads, [system]), "attack")
    assert set(option_names(attack)) == set(COMMON) | own
    for option in attack["options"] if attack else []:
        # no "Ars Magica: ..." once only one system is shown
        assert not option["description"].startswith(("Ars Magica", "Pendragon", "Fading Suns")), option


def test_a_server_with_two_systems_gets_both_with_the_system_named(tree_payloads: list[dict[str, Any]]) -> None:
    attack = command(guild_payload(tree_payloads, ["pendragon", "ars-harn"]), "attack")
    assert set(option_names(attack)) == set(COMMON) | {"aspect", "aim", "save_excess", "range", "mounted", "charge",
                                                       "unopposed"}
    assert attack is not None
    described = {o["name"]: o["description"] for o in attack["options"]}
    assert described["mounted"].startswith("Pendragon") and described["aspect"].startswith("Ars Magica")


def test_ars_magica_only_commands_and_choices(tree_payloads: list[dict[str, Any]]) -> None:
    pendragon = guild_payload(tree_payloads, ["pendragon"])
    assert {p["name"] for p in pendragon} == {"attack", "pending-roll", "encounter", "heal"}
    encounter = command(pendragon, "encounter")
    assert "declare" not in option_names(encounter)
    assert "declare" in option_names(command(guild_payload(tree_payloads, ["ars-harn"]), "encounter"))
    roll = next(o for o in option_names_full(command(pendragon, "pending-roll")) if o["name"] == "roll")
    assert [c["value"] for c in roll["choices"]] == ["knockdown", "major_wound", "fall"]


def option_names_full(payload: dict[str, Any] | None) -> list[dict[str, Any]]:
    assert payload is not None
    return list(payload["options"])


@pytest.mark.parametrize(("system", "spell"), [("ars-harn", True), ("pendragon", False), ("fading-suns", False)])
def test_heal_offers_body_levels_only_where_there_is_a_healing_spell(tree_payloads: list[dict[str, Any]],
                                                                    system: str, spell: bool) -> None:
    assert ("body_levels" in option_names(command(guild_payload(tree_payloads, [system]), "heal"))) is spell


def test_shared_commands_never_repeat_the_servers_own(tree_payloads: list[dict[str, Any]]) -> None:
    shared = {p["name"] for p in shared_payload(tree_payloads)}
    assert not shared & set(GUILD_COMMANDS)
    assert shared | set(GUILD_COMMANDS) == {p["name"] for p in tree_payloads}


def test_every_system_option_is_an_option_of_the_wide_command(tree_payloads: list[dict[str, Any]]) -> None:
    for path, options in SYSTEM_OPTIONS.items():
        assert set(options) <= set(option_names(command(tree_payloads, path)))
        assert all(set(described) <= set(system_ids()) for described in options.values())


@pytest.mark.parametrize(("path", "system", "given", "line"), [
    ("attack", "pendragon", ["aspect"],
     "/attack has no aspect option in King Arthur Pendragon (this system's: mounted, charge, unopposed)"),
    ("attack", "ars-harn", ["mounted"], "/attack has no mounted option in Ars Magica \u00d7 HarnMaster "
                                        "(this system's: aspect, aim, save_excess, range)"),
    ("attack", "fading-suns", ["aim"],
     "/attack has no aim option in Fading Suns (this system's: location, defense, throw)"),
    ("cast", "fading-suns", [], "/cast is not used in Fading Suns"),
    ("encounter declare", "pendragon", [], "/encounter declare is not used in King Arthur Pendragon"),
    ("heal", "fading-suns", ["wound", "body_levels"], "/heal has no body_levels option in Fading Suns"),
])
def test_what_a_system_lacks_is_one_line_in_slash_words(path: str, system: str, given: list[str], line: str) -> None:
    with pytest.raises(UserError) as caught:
        require_in_system(path, system, given)
    assert str(caught.value) == line


def test_what_a_system_has_passes() -> None:
    require_in_system("attack", "pendragon", ["mounted", "charge", "modifier"])
    require_in_system("attack", "ars-harn", ["aspect", "aim", "save_excess"])
    require_in_system("cast", "ars-harn", ["aim"])
