"""/odds: the exact odds of an attack or spell as /attack or /cast would declare it. Reads, never writes.

The ``compare`` text is read through the input guard (``content.input_guard``), as the ``dice`` text is.

The declaration is read in one short read-only session (who acts, on whom, the sheets, the server's
rulings and pack); the enumeration runs in a worker process (``bot.services.odds_worker``) with a time
budget, so a heavy declaration answers with what is exact so far and stalls no other guild.
"""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.errors import PermissionDenied, UserError
from bot.services import access
from bot.services.actions import clean_options
from bot.services.actor import Actor
from bot.services.combat import CombatService
from bot.services.dice_option import parse_dice
from bot.services.encounters import active_encounter
from bot.services.odds_worker import OddsWorker, compute
from bot.services.rulings import scenario_rulings
from bot.services.runtime import Runtime
from content.input_guard import check_text, whole_number
from rules.errors import IllegalAction
from rules.model import Catalog, Scenario
from rules.odds.api import Odds

# seconds of enumeration per /odds, shared by the declarations it compares (the answer is deferred past
# 1.5 s, so Discord shows "thinking" meanwhile); past it the answer says how much is exact
BUDGET = 5.0
MAX_COMPARE = 200
# what compare: may change, and how its text becomes an option value
_COMPARE_KEYS = {"weapon": str, "aspect": str, "aim": str, "location": str, "defense": str, "modifier": int,
                 "save_excess": bool, "mounted": bool, "charge": bool, "spell": str, "damage": int, "kind": str,
                 "body_levels": int}
_PAIR = re.compile(r'(\w+)\s*[:=]\s*("[^"]*"|\S+)')
_CAST_OPTIONS = ("spell", "damage", "damage_type", "body_levels")


@dataclass(frozen=True)
class Declaration:
    """One declaration and its odds: what was asked (weapon, aspect, aim ...) and the distribution."""

    action: dict[str, Any]
    odds: Odds


@dataclass(frozen=True)
class OddsView:
    system: str
    attacker: str
    target: str
    declarations: tuple[Declaration, ...]
    forced: dict[str, list[int]]
    # compare: the second declaration, when the rules forbid it (a sword cannot charge): what it was, and why
    refused: tuple[dict[str, Any], str] | None = None


@dataclass(frozen=True)
class _Job:
    catalog: Catalog
    scenario: Scenario


def parse_compare(text: str) -> dict[str, Any]:
    """``aim:mid``, ``weapon:Dagger aspect:point``: the options the second declaration changes."""
    out: dict[str, Any] = {}
    rest = check_text(text, "compare", MAX_COMPARE).strip()
    position = 0
    while position < len(rest):
        if rest[position].isspace():
            position += 1
            continue
        pair = _PAIR.match(rest, position)
        if pair is None:
            word = rest[position:].split()[0]
            raise UserError(f"compare: cannot read '{word}': write option:value, e.g. aim:mid or weapon:Dagger")
        key, value = pair.group(1).lower(), pair.group(2).strip('"')
        kind = _COMPARE_KEYS.get(key)
        if kind is None:
            raise UserError(f"compare: '{key}' is not an option (options: {', '.join(_COMPARE_KEYS)})")
        if kind is int:
            out[key] = whole_number(value, f"compare: {key}", -1000, 1000)
        elif kind is bool:
            if value.lower() not in ("true", "false", "yes", "no"):
                raise UserError(f"compare: {key} takes true or false, not '{value}'")
            out[key] = value.lower() in ("true", "yes")
        else:
            out[key] = value
        position = pair.end()
    if not out:
        raise UserError("compare: say what changes, e.g. aim:mid or weapon:Dagger aspect:point")
    return out


class OddsService:
    def __init__(self, runtime: Runtime, combat: CombatService, worker: OddsWorker | None) -> None:
        """``worker``: the process the enumerations run in (``odds_worker.WORKER``); None: each in a thread."""
        self._rt = runtime
        self._combat = combat
        self._worker = worker

    async def odds(self, actor: Actor, target: str, weapon: str | None = None,
                   options: Mapping[str, Any] | None = None, dice_text: str | None = None,
                   attacker: str | None = None, compare: str | None = None,
                   budget: float = BUDGET) -> OddsView:
        """The odds of the declared attack (a spell when ``options`` name one), and of a second declaration
        that changes what ``compare`` says, side by side. Nothing is saved, nothing is rolled."""
        first = clean_options(options)
        second = None if compare is None else {**first, **parse_compare(compare)}
        second_weapon = None if second is None else second.pop("weapon", weapon)

        async def read(session: AsyncSession) -> tuple[OddsView, list[_Job]]:
            encounter = await active_encounter(session, actor, for_update=False)
            engine = self._rt.engine(encounter.system)
            catalog = await self._rt.catalogs.catalog_for(session, actor.guild_id, encounter.system)
            rulings = scenario_rulings(engine, await repo.guild_settings(session, actor.guild_id))
            forced = parse_dice(dice_text, engine.roll_labels)
            jobs, actions = [], []
            names = ("", "")
            for chosen_weapon, opts in ((weapon, first), (second_weapon, second)):
                if opts is None:
                    continue
                opts = dict(opts)
                if "kind" in opts:
                    opts["damage_type"] = opts.pop("kind")
                kind = "cast" if any(key in opts for key in _CAST_OPTIONS) else "attack"
                call = await self._combat.declare(session, actor, encounter, kind, target, chosen_weapon, opts,
                                                  attacker, turns=False)
                if call.target is not None and await access.behind_screen(session, actor, call.target):
                    # the odds are worked from the NPC's sheet: they would tell what its secret rolls hide
                    raise PermissionDenied(f"the GM keeps {call.target.name}'s sheet behind the screen (secret "
                                           "rolls), and the odds would tell it: only the GM can ask them")
                scenario = Scenario(system=encounter.system, action=dict(call.action),
                                    attacker=copy.deepcopy(call.actor_character.sheet),
                                    defender=copy.deepcopy(call.target.sheet) if call.target else None,
                                    rulings=rulings)
                jobs.append(_Job(catalog, scenario))
                actions.append(dict(call.action))
                names = (call.actor_character.name, call.target.name if call.target else "")
            view = OddsView(encounter.system, names[0], names[1], (), forced)
            return view, jobs

        view, jobs = await self._rt.read(read)
        declarations = []
        refused = None
        deadline = time.monotonic() + budget
        for index, job in enumerate(jobs):
            # an even share, plus whatever the declarations before did not use
            share = (deadline - time.monotonic()) / (len(jobs) - index)
            try:
                odds = await compute(self._worker, job.scenario.system, job.scenario, job.catalog, view.forced,
                                     max(share, 0.05))
            except IllegalAction as exc:
                if index == 0:  # what was asked first cannot be done: that is the answer
                    raise
                refused = (dict(job.scenario.action), str(exc))  # the first one's odds still answer
                continue
            declarations.append(Declaration(dict(job.scenario.action), odds))
        return OddsView(view.system, view.attacker, view.target, tuple(declarations), view.forced, refused)
