"""Rolls an engine left waiting for the GM (``/setup rolls mode:gm``), as GM decisions with buttons.

With ``auto_rolls`` off each engine queues the rolls a wound calls for on the sheet (docs/rules/*.md):
ars-harn ``pending_rolls`` (shock, kill), Pendragon ``pending_rolls`` (knockdown, major_wound, fall) and
Fading Suns ``pending`` (effect, stumble, fumble, each with an ``id``). After every action the open
"roll:..." decisions of the characters it touched are brought in line with their sheets: a roll newly
owed gets a decision (so the embed carries its buttons), one no longer owed (rolled by /pending-roll, or
made moot: a failed kill roll ends the shock roll) is closed as ``moot``.

A roll decision's kind is ``roll:<roll>`` or, for Fading Suns, ``roll:<roll>:<id>``; its choices are
``roll`` (the bot rolls now) and ``dice`` (the GM types the faces rolled at the table).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Character, PendingDecision
from bot.services.actor import Actor
from bot.services.runtime import Runtime
from bot.systems import profile_of

PREFIX = "roll:"
ROLL = "roll"
DICE = "dice"
CHOICES = (ROLL, DICE)
MOOT = "moot"  # the choice recorded on a roll decision whose roll is no longer owed

@dataclass(frozen=True)
class OwedRoll:
    """One roll a sheet says is owed: its kind (shock, knockdown, effect ...) and, for Fading Suns, its id."""

    roll: str
    ref: int | None = None

    @property
    def kind(self) -> str:
        """The decision kind: ``roll:shock``, ``roll:effect:3``."""
        return f"{PREFIX}{self.roll}" + (f":{self.ref}" if self.ref is not None else "")


def is_roll_kind(kind: str) -> bool:
    return kind.startswith(PREFIX)


def parse_kind(kind: str) -> OwedRoll:
    """``roll:effect:3`` -> OwedRoll("effect", 3)."""
    parts = kind[len(PREFIX):].split(":")
    ref = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
    return OwedRoll(parts[0], ref)


def _owed(system: str, sheet: Mapping[str, Any]) -> list[tuple[str, int | None]]:
    """(roll, ref) of each roll ``sheet`` says is owed, in the order the engine keeps them."""
    profile = profile_of(system)
    if profile is None:
        return []
    items = sheet.get(profile.pending_field)  # where the engine keeps the rolls it waits for
    known, ids = profile.roll_actions, profile.pending_ids
    owed = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict | Mapping) or item.get("kind") not in known:
            continue
        ref = item.get("id") if ids else None
        owed.append((str(item["kind"]), int(ref) if isinstance(ref, int) else None))
    return owed


def owed_rolls(system: str, sheet: Mapping[str, Any]) -> list[OwedRoll]:
    """The rolls ``sheet`` says are owed, in the order the engine keeps them."""
    return [OwedRoll(roll, ref) for roll, ref in _owed(system, sheet)]


def owed_kinds(system: str, sheet: Mapping[str, Any]) -> list[str]:
    """The decision kind of each roll ``sheet`` says is owed (``OwedRoll.kind``), none of them built: a sheet
    that waits for the GM may owe dozens, and every action counts them before and after."""
    return [f"{PREFIX}{roll}" if ref is None else f"{PREFIX}{roll}:{ref}" for roll, ref in _owed(system, sheet)]


def roll_action(system: str, owed: OwedRoll) -> dict[str, Any]:
    """The engine action that makes ``owed`` (docs/rules/*.md, "Actions")."""
    profile = profile_of(system)
    rolls = profile.roll_actions if profile is not None else {}
    action: dict[str, Any] = {"type": rolls[owed.roll]}
    if owed.ref is not None:
        action["pending"] = owed.ref
    return action


async def open_roll_decisions(session: AsyncSession, character_id: int) -> list[PendingDecision]:
    query = (select(PendingDecision)
             .where(PendingDecision.character_id == character_id, PendingDecision.choice.is_(None),
                    PendingDecision.cancelled.is_(False), PendingDecision.kind.startswith(PREFIX))
             .order_by(PendingDecision.id))
    return list((await session.scalars(query)).all())


def _held(session: AsyncSession, character_id: int) -> list[PendingDecision]:
    """The character's decisions this session holds: read or settled in this command (a GM's press,
    /pending-roll), or opened by this action. The identity map is looked up by its keys (class first), which is
    cheaper than taking every row it holds."""
    sync = session.sync_session
    found = [sync.identity_map.get(key) for key in list(sync.identity_map.keys()) if key[0] is PendingDecision]
    found += [row for row in sync.new if isinstance(row, PendingDecision)]
    return [row for row in found if isinstance(row, PendingDecision) and row.character_id == character_id]


async def sync_roll_decisions(rt: Runtime, session: AsyncSession, actor: Actor, characters: Iterable[Character],
                              event_id: int | None, before: Mapping[str, Any] | None = None,
                              ) -> tuple[list[PendingDecision], list[PendingDecision]]:
    """Open a decision for each roll newly owed by ``characters``; close (``moot``) those no longer owed.
    Returns the decisions opened and those closed, not flushed: the caller's flush writes them (``event_id``: the
    event that owes them). It may run with autoflush off: what it reads is taken as the
    session holds it (a decision settled but not flushed is not open; one it opened for the same character is).

    ``before`` maps character id (as text) to the sheet before the action. Open roll decisions mirror
    the rolls a sheet owes after every action, so a character who still owes every roll it owed before
    has none to close, and its open ones are those it owed before: only the rolls newly owed are opened,
    and nothing is looked up (the common cases: the bot making the rolls itself, so none owed before or
    after; a GM-rolls server where each blow adds a roll). Otherwise (a roll made or made moot, no
    ``before``, a decision of the character settled in this command) its open ones are read.
    """
    opened: list[PendingDecision] = []
    closed: list[PendingDecision] = []
    for character in characters:
        if profile_of(character.system) is None:
            continue
        owed = owed_kinds(character.system, character.sheet)
        wanted = Counter(owed)
        earlier = (before or {}).get(str(character.id))
        owed_before = (Counter(owed_kinds(character.system, earlier))
                       if before is not None and isinstance(earlier, Mapping) else None)
        if owed_before is not None and not owed_before and not wanted:
            continue
        if (owed_before is not None and not owed_before - wanted
                and not any(is_roll_kind(row.kind) for row in _held(session, character.id))):
            wanted -= owed_before  # open already: what it owed before
        else:
            stored = [d for d in await open_roll_decisions(session, character.id)
                      if d.choice is None and not d.cancelled]
            for decision in [*stored, *(row for row in opened if row.character_id == character.id)]:
                if wanted[decision.kind] > 0:
                    wanted[decision.kind] -= 1
                else:
                    decision.choice = MOOT
                    closed.append(decision)
        for kind in owed:
            if wanted[kind] <= 0:
                continue
            wanted[kind] -= 1
            row = PendingDecision(guild_id=actor.guild_id, channel_id=actor.channel_id, event_id=event_id,
                                  character_id=character.id, kind=kind[:32], who=character.name,
                                  options=list(CHOICES), created_at=rt.clock())
            session.add(row)
            opened.append(row)
    return opened, closed


def owed_decisions(sheet: Mapping[str, Any]) -> Counter[str]:
    """The kinds of GM decision a sheet waits on: ars-harn and Fading Suns keep one (``pending_decision``),
    Pendragon a list (``pending_decisions``)."""
    one = sheet.get("pending_decision")
    many = sheet.get("pending_decisions")
    found = [one] if isinstance(one, Mapping) else []
    found += [d for d in many if isinstance(d, Mapping)] if isinstance(many, list) else []
    return Counter(str(d.get("kind")) for d in found if d.get("kind"))


async def lapse_decisions(session: AsyncSession, characters: Iterable[Character], before: Mapping[str, Any],
                          asked: Sequence[PendingDecision] = ()) -> list[PendingDecision]:
    """Close (``moot``) the open GM decisions whose cause an action took away: the engine no longer keeps them
    on the sheet (a kill wound healed below K, say). Only characters who waited on a decision before the
    action are looked up, and of those only where something could lapse: unless the command read or settled
    one of the character's decisions, those open are at most the ones its sheet waited on before and those
    this action asked for (``asked``), so if the sheet after still waits on all of them, none lapses. Where
    more are open than the sheet waits on, those ``asked`` stand and the oldest others lapse. The caller's
    flush writes the decisions closed."""
    lapsed: list[PendingDecision] = []
    for character in characters:
        earlier = before.get(str(character.id))
        if not isinstance(earlier, Mapping) or not owed_decisions(earlier):
            continue
        wanted = owed_decisions(character.sheet)
        new = [row for row in asked if row.character_id == character.id]
        others = [row for row in _held(session, character.id)
                  if not is_roll_kind(row.kind) and all(row is not a for a in new)]
        if not others and not (owed_decisions(earlier) + Counter(row.kind for row in new)) - wanted:
            continue
        query = (select(PendingDecision)
                 .where(PendingDecision.character_id == character.id, PendingDecision.choice.is_(None),
                        PendingDecision.cancelled.is_(False), ~PendingDecision.kind.startswith(PREFIX))
                 .order_by(PendingDecision.id))
        # The decisions this action asked for stand before older ones of their kind: a sheet that keeps one
        # decision of a kind (ars-harn, Fading Suns) has just put the new one in the old one's place.
        found = (await session.scalars(query)).all()
        for decision in sorted(found, key=lambda row: all(row is not a for a in new)):
            if wanted[decision.kind] > 0:
                wanted[decision.kind] -= 1
            else:
                decision.choice = MOOT
                lapsed.append(decision)
    return lapsed
