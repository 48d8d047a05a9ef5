"""What a rule system must provide on the bot side, held against every profile (bot/systems/<system>.py).

A fourth system is one engine, one content pack and one profile: this contract says what its profile must
say, and fails for a profile that leaves something out or names what its engine does not have.
"""

from __future__ import annotations

import ast
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

from bot.scenario_runner import resolve_text
from bot.services.combat import VALUE_CHOICES, engine_action, engine_attack_options
from bot.services.injuries import METHOD_ALIASES
from bot.systems import PROFILES, profile_of
from bot.systems.odds_rows import NESTED
from bot.systems.pictures import BodyWounds, HitPointWounds
from bot.systems.profile import SystemProfile
from bot.ui.decision_embeds import DECISION_PROMPTS
from bot.ui.outcomes import DESCRIBERS
from content import load_catalog
from content.diagram import BarLayout, FigureLayout, diagram_layout
from content.scenario import parse_scenario
from rules.registry import OUTCOMES, SYSTEMS, get_engine, read_outcome

EXAMPLES = Path(__file__).resolve().parents[3] / "content" / "examples"
# the commands only some systems have, and the engine action each one runs
COMMAND_ACTIONS = {"cast": "cast", "advantage": "tactical_advantage", "shock": "shock"}
VALUE_CHOICES_OF: dict[str, list[str]] = {}
for _kind, _choice in VALUE_CHOICES:
    VALUE_CHOICES_OF.setdefault(_kind, []).append(_choice)
# /attack options added after /help's combat topic was written, which it does not name yet
NOT_IN_HELP_YET = {"range", "unopposed", "throw"}
profiles = pytest.mark.parametrize("profile", list(PROFILES.values()), ids=list(PROFILES))


def _command(payloads: list[dict[str, Any]], path: str) -> dict[str, Any] | None:
    found: dict[str, Any] | None = {"options": payloads}
    for word in path.split():
        found = next((o for o in (found or {}).get("options") or [] if o["name"] == word), None)
    return found


def _options(system: str, action: str) -> tuple[str, ...] | None:
    """The options the engine's ACTIONS table declares for ``action`` (None: its table declares none)."""
    table = import_module(SYSTEMS[system]).ACTIONS
    return getattr(table[action], "options", None)


def test_every_engine_has_a_profile_and_every_profile_an_engine() -> None:
    assert set(PROFILES) == set(SYSTEMS)
    for system, profile in PROFILES.items():
        assert profile.system == system and profile_of(system) is profile
        assert profile.title and profile.gm_rolls


@profiles
def test_the_commands_a_profile_owns_are_its_engines_actions(profile: SystemProfile,
                                                              tree_payloads: list[dict[str, Any]]) -> None:
    actions = get_engine(profile.system).actions
    for path, action in COMMAND_ACTIONS.items():
        assert (path in profile.own_commands) == (action in actions), (path, action)
    for path in profile.own_commands:
        assert _command(tree_payloads, path) is not None, f"/{path} is not in the command tree"


@profiles
def test_each_own_option_is_a_slash_option_the_engine_takes(profile: SystemProfile,
                                                             tree_payloads: list[dict[str, Any]]) -> None:
    for path, options in profile.own_options.items():
        command = _command(tree_payloads, path)
        assert command is not None, path
        shown = {o["name"] for o in command["options"]}
        assert set(options) <= shown, f"/{path} lacks {set(options) - shown}"
        assert all(options.values()), f"/{path}: an option without its description"
    declared = _options(profile.system, "attack")
    if declared is None:
        return
    # every /attack option this system takes reaches an option of the engine's attack, under its name there
    attack = _command(tree_payloads, "attack")
    assert attack is not None
    own = set(profile.own_options.get("attack", {}))
    others = {o for p in PROFILES.values() for o in p.own_options.get("attack", {})} - own
    given = {o["name"]: 1 for o in attack["options"] if o["name"] not in others | {"target", "dice", "attacker"}}
    for switch, (option, on, off) in profile.attack_switches.items():
        assert switch in own and option in declared and on != off, switch
    assert set(engine_attack_options(profile.system, given)) <= set(declared), \
        set(engine_attack_options(profile.system, given)) - set(declared)


@profiles
def test_the_gm_decision_and_the_neutral_actions_are_named_as_the_engine_names_them(profile: SystemProfile) -> None:
    actions = get_engine(profile.system).actions
    declared = _options(profile.system, "gm_decide")
    assert profile.decide_options and set(profile.decide_options) <= {"kind", "decision", "choice"}
    if declared is not None:
        assert set(profile.decide_options) <= set(declared)
    neutral = {name for p in PROFILES.values() for name in p.command_actions}
    for name in neutral:
        action, fixed = engine_action(profile.system, name)
        assert action in actions, f"/{name} is '{action}', which the engine does not have"
        options = _options(profile.system, action)
        assert options is None or set(fixed) <= set(options)


@profiles
def test_heal_offers_treatments_the_engine_runs(profile: SystemProfile) -> None:
    actions = get_engine(profile.system).actions
    neutral = set(METHOD_ALIASES.values()) | {"first_aid", "chirurgy", "spell"}
    assert profile.treatments and set(profile.treatments) <= neutral
    for name, treatment in profile.treatments.items():
        assert treatment.action in actions, (name, treatment.action)
        options = _options(profile.system, treatment.action)
        if options is not None:
            assert set(treatment.options) <= set(options)
            assert profile.modifier_option in options, (name, profile.modifier_option)
    assert "rest" in actions and profile.rest_days >= 1
    assert bool(profile.rest_refusal) == (profile.rest_days > 1)


@profiles
def test_each_roll_that_can_wait_is_an_engine_action_and_a_pending_roll_choice(
        profile: SystemProfile, tree_payloads: list[dict[str, Any]]) -> None:
    actions = get_engine(profile.system).actions
    assert profile.pending_field and profile.roll_actions
    for roll, action in profile.roll_actions.items():
        assert action in actions, (roll, action)
        options = _options(profile.system, action)
        if profile.pending_ids and options is not None:
            assert "pending" in options
    command = _command(tree_payloads, "pending-roll roll")
    assert command is not None
    assert set(profile.roll_actions) <= {c["value"] for c in command["choices"]}


@profiles
def test_the_picture_reads_every_example_sheet_and_only_its_own_systems(profile: SystemProfile) -> None:
    catalog = load_catalog(profile.system)
    sheets = []
    for path in sorted(EXAMPLES.glob(f"{profile.system}-*.yaml")):
        scenario, _, _ = parse_scenario(path.read_text(encoding="utf-8"), path.name)
        sheets += [s for s in (scenario.attacker, scenario.defender) if s is not None]
    assert sheets, f"no example scenario for {profile.system} in content/examples"
    for sheet in sheets:
        shown = profile.picture(sheet, catalog, {})
        assert isinstance(shown, BodyWounds if profile.hit_locations else HitPointWounds)
        assert shown.system == profile.system
        assert shown.name == sheet["name"]
    for other in PROFILES:
        if other != profile.system:
            assert profile.picture(sheets[0], load_catalog(other), {}) is None


def test_the_contract_fails_for_a_profile_that_names_an_action_its_engine_lacks() -> None:
    from dataclasses import replace

    from bot.systems.profile import Treatment

    broken = replace(PROFILES["pendragon"], treatments={"first_aid": Treatment("bandage")})
    with pytest.raises(AssertionError):
        test_heal_offers_treatments_the_engine_runs(broken)


@profiles
def test_the_rolls_left_to_the_gm_are_named_in_the_systems_words(profile: SystemProfile) -> None:
    for roll in profile.roll_actions:
        assert roll.replace("_", " ") in profile.gm_rolls.casefold(), (roll, profile.gm_rolls)


@profiles
def test_every_help_topic_has_the_systems_words(profile: SystemProfile) -> None:
    words = profile.help
    for name in ("attack_options", "dice_example", "heal", "roll_examples", "decisions", "initiative"):
        assert getattr(words, name).strip(), f"{profile.system}: no /help words for {name}"
    # /help combat names the system's own /attack options (the later ones, /attack's own descriptions only)
    for option in set(profile.own_options.get("attack", {})) - NOT_IN_HELP_YET:
        assert f"`{option}`" in words.attack_options, option
    # the dice example names only labels the engine rolls
    example = words.dice_example.split('"')[1]
    labels = {part.split("=")[0] for part in example.split()}
    assert labels <= get_engine(profile.system).roll_labels, labels
    for path in profile.own_commands:
        if " " not in path:  # /cast, /shock, /advantage: said under combat
            assert f"/{path}" in words.combat_extra, path


@profiles
def test_heal_names_each_treatment_in_the_systems_words(profile: SystemProfile) -> None:
    for name, treatment in profile.treatments.items():
        assert treatment.label, f"{profile.system} /heal {name}: no label"
    assert profile.way_out.action_cost


@profiles
def test_action_headings_name_the_engines_own_actions(profile: SystemProfile) -> None:
    assert set(profile.action_titles) <= set(get_engine(profile.system).actions), profile.action_titles


@profiles
def test_odds_rows_are_complete(profile: SystemProfile) -> None:
    odds = profile.odds
    assert odds.headline and odds.chart and odds.follow_ups
    chart = [label for label, _ in odds.chart]
    assert not chart[0].startswith(NESTED) and len(set(chart)) == len(chart)
    assert odds.hidden_when_unreachable <= set(chart)
    # rows for an attacker rolling alone only where /attack can ask for it
    assert bool(odds.unopposed_headline) == bool(odds.unopposed_chart) == \
        ("unopposed" in profile.own_options.get("attack", {}))
    assert odds.aims_at_locations == (profile.attack_option_names.get("location") == "aim")


@profiles
def test_every_outcome_record_of_the_engine_has_a_describer(profile: SystemProfile) -> None:
    records = import_module(OUTCOMES[profile.system]).RECORDS
    describers = import_module(profile.describers).DESCRIBERS
    missing = {action for action, record in records.items() if record not in describers}
    assert not missing, f"{profile.system}: no words for the outcome of {sorted(missing)}"
    assert set(records.values()) <= set(DESCRIBERS)
    assert set(records) <= get_engine(profile.system).actions | {"gm_decide"}


@profiles
def test_a_system_with_hit_locations_has_a_body_figure(profile: SystemProfile) -> None:
    assert isinstance(diagram_layout(profile.system), FigureLayout if profile.hit_locations else BarLayout)


@profiles
def test_every_roll_and_decision_left_to_the_gm_has_its_words(profile: SystemProfile) -> None:
    assert set(profile.roll_names) == set(profile.roll_actions)
    assert all(name.endswith(("roll", "rolls")) for name in profile.roll_names.values())


@profiles
def test_every_roll_label_an_engine_can_produce_has_a_name_in_its_profile(profile: SystemProfile) -> None:
    """Issue 34: a label with no name read bare on the typed-dice line ("Bjorn's stumble", "Bandit 1's
    amputation", "Bandit 1's valorous"). Each label the engine's actions roll under has a roll's name."""
    labels = get_engine(profile.system).roll_labels
    named = {**profile.label_names, **profile.roll_names}
    assert labels - set(named) == set()
    assert set(profile.label_names) <= labels  # no name for a label the engine never rolls
    assert not set(profile.label_names) & set(profile.roll_names)  # one name per label
    assert all(name.endswith("roll") for name in profile.label_names.values())
    assert profile.decisions
    for kind, words in profile.decisions.items():
        assert "{who}" in words.prompt and words.outcomes, kind
        assert DECISION_PROMPTS[kind] == words.prompt


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.stem)
def test_each_decision_an_example_leaves_is_one_its_profile_words(path: Path) -> None:
    resolved = resolve_text(path.read_text(encoding="utf-8"), path.name)
    profile = PROFILES[resolved["system"]]
    for decision in read_outcome(profile.system, resolved["outcome"]).gm_decisions:
        words = profile.decisions.get(decision.kind)
        assert words is not None, f"{profile.system}: no words for a '{decision.kind}' decision"
        # each choice says what happens, but the ones whose value the GM types (a fall's damage)
        assert set(decision.options) - set(VALUE_CHOICES_OF.get(decision.kind, ())) <= set(words.outcomes)


def test_no_bot_module_but_a_profile_or_a_describer_imports_an_engines_modules() -> None:
    """An engine's own modules (its sheet parsers, catalog, records) are read on the bot side by its profile,
    and its outcome records by its describer; every other module goes through the profile or the Engine."""
    bot = Path(__file__).resolve().parents[3] / "bot"
    engines = {module.rsplit(".", 1)[0] for module in SYSTEMS.values()}  # rules.ars_harn ...
    allowed = {f"{side}/{module.split('.')[1]}.py" for module in SYSTEMS.values()
               for side in ("systems", "ui/outcomes")}
    found: dict[str, list[str]] = {}
    for path in bot.rglob("*.py"):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
        used = sorted(n for n in names if any(n == e or n.startswith(e + ".") for e in engines))
        where = str(path.relative_to(bot))
        if used and where not in allowed:
            found[where] = used
    assert found == {}
