"""Shared fixtures: a migrated database on SQLite (always) and on a throwaway PostgreSQL (where its
server binaries exist), a fake engine registered as system "fake", Services and actors.

Tests that take ``db`` or ``services`` run once per backend: ``[sqlite]`` and ``[postgres]``.

Tests that run the bot against the emulator take ``discord_profile`` (emulator/profiles.py): "quick" bucket
windows unless the test is about rate limits (marker ``discord_rates``: Discord's); a test marked ``latency``
runs once more, ``[realistic]``: 50 ms REST and 40 ms gateway latency one way, and Discord's buckets. A test marked
``latency(realistic="opt-in")`` (a long playground replay whose story another system's realistic replay already
tells under latency) skips its ``[realistic]`` run unless asked: ``--all-realistic`` or GRIEVOUS_ALL_REALISTIC=1.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.db.scratch_postgres import start_scratch_postgres
from rules import registry
from rules.dice import DiceSource
from rules.errors import IllegalAction, SheetError, UnknownEntry
from rules.model import READY, InitiativeScore, Resolution, Ruling, Scenario, SheetSummary, TurnReadiness, Wound
from rules.outcome import OMIT_NONE, DecisionRequest, Outcome
from rules.sheet_spec import SheetField, SheetSpec

TABLES = ("pending_decisions", "event_names", "events", "combatants", "encounters", "characters", "channel_settings",
          "guild_settings", "content_packs", "web_links", "web_sessions")


# -- the browser tests' screenshots -------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--screenshots", metavar="DIR", default=os.environ.get("GRIEVOUS_SCREENSHOTS") or None,
                     help="the browser tests (marker browser) save a phone-width screenshot of each page in DIR "
                          "(also GRIEVOUS_SCREENSHOTS)")
    parser.addoption("--all-realistic", action="store_true", default=bool(os.environ.get("GRIEVOUS_ALL_REALISTIC")),
                     help='also run the [realistic] runs of the tests marked latency(realistic="opt-in"), long '
                          "playground replays (also GRIEVOUS_ALL_REALISTIC=1)")


# -- which Discord the emulator is ---------------------------------------------------------------------


def _own_profile(node: Any) -> str:
    return "discord" if node.get_closest_marker("discord_rates") else "quick"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    latency = metafunc.definition.get_closest_marker("latency")
    if latency is None:
        return
    if "discord_profile" not in metafunc.fixturenames:
        raise pytest.UsageError(f"{metafunc.definition.nodeid} is marked latency but takes no discord_profile")
    realistic: Any = "realistic"
    if latency.kwargs.get("realistic") == "opt-in" and not metafunc.config.getoption("all_realistic"):
        realistic = pytest.param("realistic", marks=pytest.mark.skip(
            reason="a long replay's realistic run: --all-realistic (or GRIEVOUS_ALL_REALISTIC=1) runs it"))
    metafunc.parametrize("discord_profile", [_own_profile(metafunc.definition), realistic], indirect=True)


@pytest.fixture
def discord_profile(request: pytest.FixtureRequest) -> str:
    """The emulator profile of this test: "quick", "discord" (marker discord_rates) or "realistic"."""
    return str(getattr(request, "param", None) or _own_profile(request.node))


# -- the known-long tests first ----------------------------------------------------------------------
# Under pytest-xdist each worker takes the next test in this order as it frees (``--maxschedchunk 1``,
# pyproject.toml): a long test started last would keep one worker running alone after the others are done.
# Longest first, as a full run measured them (wall seconds at -n 4, 2026-12-07, on a shared machine); a test
# not listed keeps its place after them.

LONGEST = (
    "tests/e2e/test_e2e_restart_soak.py::test_twenty_sigkill_and_restart_rounds_with_twelve_channels_never_hang",  # 186
    "tests/e2e/test_bench_evening.py::test_the_evening_mix_runs_every_kind_without_errors_and_profiles_the_bot",  # 98
    "tests/e2e/test_e2e_late.py::test_an_action_shown_but_not_marked_before_a_crash_is_not_posted_again",  # 53
    "tests/e2e/test_e2e_crash.py::test_sigkill_in_a_burst_keeps_every_answered_attack_once_and_nothing_half_written",
    "tests/e2e/test_e2e_late.py::test_a_late_post_after_a_restart_carries_the_gm_buttons_and_a_press_resolves_it",
    "tests/e2e/test_bench_pack_uploads.py::test_max_size_merges_from_two_servers_are_stored_and_another_servers_rolls_"
    "answered",  # 42
    "tests/services/test_changes_reference.py::test_the_ops_are_the_straightforward_walks_to_the_byte",
    "tests/e2e/test_e2e_db_file.py::test_a_database_file_deleted_under_the_running_bot_is_noticed_and_the_next_start_"
    "refuses",  # 35
    "tests/services/test_pack_cache.py::test_a_catalogs_counted_size_is_within_a_factor_of_two_of_what_tracemalloc_sees",
    "tests/e2e/test_e2e_pack_uploads.py::test_max_size_uploads_from_several_servers_leave_another_servers_rolls_"
    "answered_in_time",  # 32
    "tests/bot/test_limits_fit.py::test_fit_gives_what_the_rebuilding_path_gives",
    "tests/bot/test_playground_systems.py::test_no_gm_decision_leaks_internals_and_the_decision_is_said_once",
    "tests/e2e/test_e2e_late.py::test_killed_between_commit_and_answer_the_restarted_bot_posts_the_attack_and_the_undo_"
    "late_once",  # 28
    "tests/bot/test_typed_dice.py::test_alices_damage_is_not_the_man_at_arms_damage",
    "tests/e2e/test_e2e_hostile_input.py::test_other_users_are_answered_while_hostile_and_large_uploads_are_read",
    "tests/rules/odds/test_odds_exact.py::test_merging_states_changes_no_probability",  # 26
    "tests/e2e/test_e2e_shards.py::test_two_shard_processes_on_one_postgres_share_the_guilds_and_survive_a_kill",
    "tests/bot/test_dice_by_side.py::test_a_knockdown_the_gm_types_bare_is_his_bandits_and_one_typed_for_the_knight_"
    "is_the_knights",  # 23
    "tests/db/test_copy.py::test_copy_a_sqlite_file_into_postgresql",
    "tests/e2e/test_e2e_late.py::test_a_429_on_the_answer_past_the_deadline_posts_the_attack_late_at_once",
    "tests/bot/test_persistent_components.py::test_every_button_is_a_dynamic_item",
    "tests/e2e/test_web_browser.py::test_the_page_in_a_browser_for_a_player_the_gm_and_the_table",  # 19
    "tests/rules/ars_harn/test_ars_harn_fuzz.py::test_plausible_actions_give_only_rules_errors_and_valid_sheets",
    "tests/bot/test_playground.py::test_the_demo_with_no_terminal_answers_every_line_to_the_last",
    "tests/bot/test_playground_ways_out.py::test_a_fight_runs_to_its_end_and_into_the_next_session",  # 15
    "tests/e2e/test_e2e_gm_rolls.py::test_settled_elsewhere_or_undone_the_buttons_leave_their_message",
    "tests/e2e/test_e2e_fights.py::test_fading_suns_fight_ends_with_the_gm_confirming_a_death_effect",
    "tests/e2e/test_e2e_fights.py::test_ars_harn_fight_ends_in_a_kill_roll_the_gm_decides",
    "tests/e2e/test_e2e_fights.py::test_pendragon_fight_ends_with_the_gm_deciding_the_dying",
    "tests/services/test_pack_cache.py::test_an_upload_is_merged_in_the_build_process_and_a_killed_process_is_replaced",
    "tests/e2e/test_planted_secrets.py::test_no_planted_npc_figure_reaches_a_player_in_any_system",  # 14
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests in LONGEST first, in its order (each with all its parameters); the rest as collected."""
    rank = {name: n for n, name in enumerate(LONGEST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("[")[0], len(LONGEST)))


# -- a fake engine, for paths that must not depend on a real one --------------------------------------


FAKE_SHEET = SheetSpec("fake", (
    SheetField("name", "text", "Name", required=True, default="New Character", high=100),
    SheetField("str", "number", "Strength", default=10, low=0, high=30),
    SheetField("weapons", "items", "Weapons", default=[], items="weapons"),
    SheetField("armour", "items", "Armour", default=[], items="armour"),
), {})


@dataclass(frozen=True)
class FakeCatalog:
    weapons: Mapping[str, tuple[str, ...]]
    armour: tuple[str, ...] = ("Leather Cap", "Mail Shirt")
    sheet: SheetSpec = FAKE_SHEET

    def sheet_names(self, items: str) -> list[str]:
        return {"weapons": self.weapon_names(), "armour": self.armour_names()}.get(items, [])

    def item_problem(self, items: str, name: str) -> str | None:
        return None if name in self.sheet_names(items) else f"unknown {items} '{name}'"

    def weapon_names(self) -> list[str]:
        return list(self.weapons)

    def armour_names(self) -> list[str]:
        return list(self.armour)

    def npc_templates(self) -> dict[str, dict[str, Any]]:
        return {"bandit": {"name": "Bandit", "str": 8, "weapons": ["Club"]},
                "knight": {"name": "Knight", "str": 14, "weapons": ["Sword"], "armour": ["Mail Shirt"]}}

    def location_labels(self) -> dict[str, str]:
        return {}

    def defense_names(self) -> tuple[str, ...]:
        return ()


FAKE_CATALOG = FakeCatalog({"Sword": ("edge", "point"), "Club": ("blunt",), "Spear": ("point",)})
ASPECTS = ("blunt", "edge", "point")


@dataclass(frozen=True)
class FakeOutcome(Outcome):
    """What a fake engine action did: ``gm_decision`` always, the other fields only for the actions that set them."""

    gm_decision: DecisionRequest | None = None
    hit: bool | None = field(default=None, metadata=OMIT_NONE)
    attack: int | None = field(default=None, metadata=OMIT_NONE)
    weapon: str | None = field(default=None, metadata=OMIT_NONE)
    aspect: str | None = field(default=None, metadata=OMIT_NONE)
    wound: dict[str, Any] | None = field(default=None, metadata=OMIT_NONE)
    initiative: int | None = field(default=None, metadata=OMIT_NONE)
    applied: Any = field(default=None, metadata=OMIT_NONE)
    shock: str | None = field(default=None, metadata=OMIT_NONE)

    @property
    def gm_decisions(self) -> tuple[DecisionRequest, ...]:
        asked = self.gm_decision
        return (asked,) if asked is not None and asked.kind and asked.options else ()


class FakeEngine:
    """Attack: d10 "attack" (3+ hits), d100 "location"; every hit is one wound on the defender.

    A 10 on the attack asks the GM about a kill; with auto_rolls false every hit asks about shock.
    """

    system_id = "fake"
    title = "Fake"
    roll_labels = frozenset({"attack", "location", "initiative", "healing"})
    label_sides: dict[str, str] = {}
    actions = frozenset({"attack", "cast", "initiative", "gm_decide", "heal", "rest", "shock"})
    rulings = (
        Ruling("auto_rolls", True, "Roll shock at once"),
        Ruling("hit_on", 3, "Attack face that hits"),
        Ruling("style", "plain", "Wording", ("plain", "grim")),
    )

    def validate_sheet(self, sheet: Mapping[str, Any], catalog: Any) -> dict[str, Any]:
        out = dict(sheet)
        if not isinstance(out.get("name"), str):
            raise SheetError("field 'name' must be text")
        strength = out.setdefault("str", 10)
        if isinstance(strength, bool) or not isinstance(strength, int) or not 1 <= strength <= 20:
            raise SheetError(f"field 'str' must be a whole number from 1 to 20, not {strength!r}")
        for key, known in (("weapons", catalog.weapon_names()), ("armour", catalog.armour_names())):
            items = out.setdefault(key, [])
            if not isinstance(items, list):
                raise SheetError(f"field '{key}' must be a list")
            for item in items:
                if item not in known:
                    raise UnknownEntry(f"field '{key}': unknown item '{item}'")
        if not isinstance(out.setdefault("wounds", []), list):
            raise SheetError("field 'wounds' must be a list")
        return out

    def resolve(self, scenario: Scenario, dice: DiceSource, catalog: Any) -> Resolution:
        action = dict(scenario.action)
        kind = action.get("type", "attack")
        settings = {s.name: s.default for s in self.rulings} | dict(scenario.rulings)
        attacker = dict(scenario.attacker or {})
        defender = dict(scenario.defender) if scenario.defender is not None else None
        outcome = FakeOutcome(action=str(kind))
        if kind in ("attack", "cast"):
            assert defender is not None
            weapon = action.get("weapon") or (attacker.get("weapons") or ["Fist"])[0]
            default = catalog.weapons.get(weapon, ("blunt",))[0] if kind == "attack" else "blunt"
            aspect = action.get("aspect") or default
            if aspect not in ASPECTS:
                raise UnknownEntry(f"unknown aspect '{aspect}' (aspects: {', '.join(ASPECTS)})")
            if kind == "attack" and aspect not in catalog.weapons.get(weapon, ()):
                raise IllegalAction(f"{weapon} has no {aspect} aspect")
            attack = dice.dice("attack", 1, 10).total
            location = dice.d100("location").total
            hit = attack >= int(settings["hit_on"])
            outcome = replace(outcome, hit=hit, attack=attack, weapon=weapon, aspect=aspect)
            if hit:
                wounds = list(defender["wounds"])
                wound = {"index": len(wounds) + 1, "location": location, "code": f"W{attack}",
                         "by": attacker["name"]}
                defender["wounds"] = [*wounds, wound]
                outcome = replace(outcome, wound=wound)
                if attack == 10:
                    kill = DecisionRequest("kill", "defender", ("death", "incapacitation"))
                    outcome = replace(outcome, gm_decision=kill)
                elif not settings["auto_rolls"]:
                    outcome = replace(outcome, gm_decision=DecisionRequest("shock", "defender", ("shocked", "steady")))
        elif kind == "initiative":
            outcome = replace(outcome, initiative=dice.dice("initiative", 1, 10).total + int(attacker.get("str", 0)))
        elif kind == "gm_decide":
            attacker[str(action["kind"])] = action["choice"]
            outcome = replace(outcome, applied=action["choice"])
        elif kind in ("heal", "rest"):
            count = int(action.get("days", 1))
            dice.dice("healing", 1, 6)
            attacker["wounds"] = list(attacker.get("wounds", []))[:-count] if count else attacker.get("wounds", [])
        elif kind == "shock":
            outcome = replace(outcome, shock="steady")
        return Resolution("fake", tuple(dice.rolls), outcome, attacker, defender)

    def ways_out(self, sheet: Mapping[str, Any], catalog: Any, in_fight: bool) -> tuple[Any, ...]:
        return ()

    def summarize(self, sheet: Mapping[str, Any], catalog: Any) -> SheetSummary:
        wounds = tuple(Wound(index=w["index"], location=str(w["location"]), code=w["code"], severity="wound",
                             penalty=1) for w in sheet.get("wounds", []))
        return SheetSummary(name=sheet["name"], stats=(("Str", str(sheet.get("str"))),),
                            equipment=tuple(("Weapon", w) for w in sheet.get("weapons", [])), wounds=wounds,
                            condition=str(sheet.get("kill", "dead" if len(wounds) > 5 else "fine")))

    def turn_readiness(self, sheet: Mapping[str, Any], catalog: Any,
                       rulings: Mapping[str, Any] | None = None) -> TurnReadiness:
        """Dead (a kill of "death", or six wounds): skipped. ``stunned: true``: loses one turn, then recovers."""
        if sheet.get("kill") == "death" or len(sheet.get("wounds", [])) > 5:
            return TurnReadiness("dead", "is dead", skipped=True)
        if sheet.get("stunned"):
            return TurnReadiness("stunned", "is stunned", skipped=True, ends_when_skipped=True)
        return READY

    def lose_turn(self, sheet: Mapping[str, Any], catalog: Any) -> dict[str, Any]:
        return {k: v for k, v in sheet.items() if k != "stunned"}

    def initiative_score(self, outcome: Outcome) -> InitiativeScore | None:
        value = outcome.initiative if isinstance(outcome, FakeOutcome) else None
        return InitiativeScore(value, (0,)) if value is not None else None


@pytest.fixture
def fake_system(monkeypatch: pytest.MonkeyPatch) -> str:
    """System "fake" is registered for the test (the registry is restored afterwards); every test that
    takes ``services`` gets it."""
    from bot.ui.outcomes import DESCRIBERS, generic

    monkeypatch.setitem(registry.SYSTEMS, "fake", "tests.fake")
    monkeypatch.setitem(registry._loaded, "fake", FakeEngine())  # type: ignore[arg-type]
    monkeypatch.setitem(registry._records, "fake", {kind: FakeOutcome for kind in FakeEngine.actions})
    # its words: the actor acts, and the fields listed (as a stored outcome no record reads is worded)
    monkeypatch.setitem(DESCRIBERS, FakeOutcome, lambda record, names: generic(record.to_dict(), names))
    return "fake"


def catalogs(system: str) -> Any:
    if system == "fake":
        return FAKE_CATALOG
    from content import load_catalog

    return load_catalog(system)


# -- databases -----------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A migrated database on a throwaway PostgreSQL shared by the session (skips where it can't run)."""
    server = start_scratch_postgres("grievous_test")
    if isinstance(server, str):
        pytest.skip(server)
    try:
        asyncio.run(_migrate(server.url))
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file, copied for each test (migrating once keeps the suite fast)."""
    path = tmp_path_factory.mktemp("sqlite") / "template.db"
    asyncio.run(_migrate(f"sqlite+aiosqlite:///{path}"))
    return path


async def _migrate(url: str) -> None:
    from bot.db.engine import Database
    from bot.db.migrate import upgrade

    db = Database.from_url(url)
    try:
        await upgrade(db)
    finally:
        await db.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, migrated, empty database on ``backend``."""
    if backend == "sqlite":
        path = tmp_path / "grievous.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite+aiosqlite:///{path}"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
async def db(db_url: str, fake_system: str) -> AsyncIterator[Any]:
    """The Database for ``db_url``; on PostgreSQL the shared database is emptied first."""
    from sqlalchemy import text

    from bot.db.engine import Database

    database = Database.from_url(db_url)
    if database.dialect == "postgresql":
        async with database.engine.begin() as connection:
            await connection.execute(text(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE"))
    yield database
    await database.dispose()


SERVICE_WORK_SECONDS = 300.0  # as the e2e suite's FUNCTIONAL_WORK_SECONDS


@pytest.fixture
def make_services(db: Any, fake_system: str) -> Any:
    """``make_services(seed=1)``: a Services on the test database (a new one acts as a restart); other keywords
    are what bench/ compares (``attack_pictures=False`` ...: bench/switches.py's ``Switches``)."""
    from bench.switches import SwitchedServices, Switches
    from bot.services import Services

    def make(seed: int = 1, **switches: Any) -> Any:
        counter = iter(range(10**9))
        rng = lambda: Random(seed * 1_000_003 + next(counter))  # noqa: E731
        services = (SwitchedServices(db, Switches(**switches), rng=rng, catalogs=catalogs) if switches
                    else Services(db, rng=rng, catalogs=catalogs))
        # The limit on reading an upload or building a pack decides only the tests about it (they set their own):
        # on a loaded machine, a build beside three other workers took over the bot's 10 s.
        services.runtime.slow_work.work_budget = SERVICE_WORK_SECONDS
        return services

    return make


@pytest.fixture
def services(make_services: Any) -> Any:
    return make_services()


@pytest.fixture
async def other_process(db_url: str) -> AsyncIterator[Any]:
    """A second bot process's Services on the same database (its own engine, caches and event feed)."""
    from bot.db.engine import Database
    from bot.services import Services

    database = Database.from_url(db_url)
    services = Services(database, catalogs=catalogs)
    yield services
    await services.runtime.close()
    await database.dispose()


# -- actors ----------------------------------------------------------------------------------------------

GUILD, CHANNEL, GM_ROLE = 1000, 2000, 3000


@pytest.fixture
def manager() -> Any:
    from bot.services import Actor

    return Actor(GUILD, CHANNEL, 1, "Manager", (), is_manager=True)


@pytest.fixture
def gm() -> Any:
    from bot.services import Actor

    return Actor(GUILD, CHANNEL, 2, "Gemma", (GM_ROLE,))


@pytest.fixture
def alice() -> Any:
    from bot.services import Actor

    return Actor(GUILD, CHANNEL, 11, "Alice")


@pytest.fixture
def bob() -> Any:
    from bot.services import Actor

    return Actor(GUILD, CHANNEL, 12, "Bob")


async def aldo_and_brun(services: Any, manager: Any, alice: Any, bob: Any) -> Any:
    """A guild on the fake system with a GM role, Alice's Aldo and Bob's Brun in an encounter: `services`."""
    await services.setup.set_system(manager, "fake")
    await services.setup.set_gm_role(manager, GM_ROLE)
    await services.characters.create(alice, "Aldo", {"str": 12}, ["sword"], ["leather cap"])
    await services.characters.create(bob, "Brun", {"str": 11}, ["Club", "Spear"])
    await services.encounters.start(alice)
    await services.encounters.add(alice, "Aldo")
    await services.encounters.add(bob, "Brun")
    return services


@pytest.fixture
async def table(services: Any, manager: Any, alice: Any, bob: Any) -> Any:
    """`aldo_and_brun`'s table on the `services` fixture."""
    return await aldo_and_brun(services, manager, alice, bob)


EXAMPLE_SHEETS = Path(__file__).resolve().parents[1] / "content" / "examples" / "sheets"


async def npc_table(services: Any, manager: Any, gm: Any, system: str, npc: str, *, gm_rolls: bool) -> None:
    """`system` with a GM role (and rolls by the GM if `gm_rolls`): the GM's encounter with one `npc` (a template)."""
    await services.setup.set_system(manager, system)
    await services.setup.set_gm_role(manager, GM_ROLE)
    if gm_rolls:
        await services.setup.set_rolls(manager, "gm")
    await services.encounters.start(gm)
    await services.encounters.add_npcs(gm, npc, 1)


async def bjorn_against_a_bandit(services: Any, manager: Any, gm: Any, alice: Any, *, gm_rolls: bool) -> None:
    """`npc_table` in ars-harn with Bandit 1, and Alice's Bjorn (content/examples/sheets/bjorn.yaml) added to it."""
    await npc_table(services, manager, gm, "ars-harn", "bandit", gm_rolls=gm_rolls)
    await services.characters.import_sheet(alice, "bjorn.yaml", (EXAMPLE_SHEETS / "bjorn.yaml").read_bytes())
    await services.encounters.add(alice, "Bjorn")


# -- fixtures of their own modules: the playground scripts, replayed once per run for every test that reads one
# (tests/bot/playground_replay.py); Discord's API spec judges the emulator's traffic in every test that makes some
# (tests/spec/watch.py) --

from tests.bot.playground_replay import replays  # noqa: E402, F401
from tests.spec.watch import spec_check  # noqa: E402, F401
