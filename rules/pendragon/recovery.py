"""First Aid (once per wound), Chirurgery (major wounds, the unconscious), natural healing by the week.

The patient is the ``attacker`` sheet. The healer's skill comes from the ``defender`` sheet when one
is given (skills.first_aid / skills.chirurgery), otherwise from the action's ``skill`` option; with neither,
the patient treats themself with their own skill (First Aid only under the ruling ``first_aid_on_self``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.dice import CRITICAL, FUMBLE, SUCCESS
from rules.errors import IllegalAction, RulesError, RulingForbids
from rules.pendragon.character import Character
from rules.pendragon.context import Ctx
from rules.pendragon.injury import after_healing, check_condition, heal, roll_view
from rules.pendragon.options import Options
from rules.pendragon.outcomes import ChirurgeryOutcome, FirstAidOutcome, RestOutcome

# what each action takes besides "type" (the engine's ACTIONS table lists them)
FIRST_AID_OPTIONS: tuple[str, ...] = ("wound", "skill", "modifier")
CHIRURGERY_OPTIONS: tuple[str, ...] = ("skill", "modifier")
REST_OPTIONS: tuple[str, ...] = ("weeks", "days")


def _healer_skill(opts: Options, patient: Character, healer: Character | None, skill: str) -> int:
    given = opts.whole("skill", None, 0, 100)
    if given is not None:
        return given
    if healer is None:  # no healer and no skill: the patient treats themself
        if patient.unconscious or patient.dying:
            state = "dying" if patient.dying else "unconscious"
            raise IllegalAction(f"{patient.name} is {state} and cannot treat themself: another character must")
        healer = patient
    return healer.skill(skill)


def _on_oneself(opts: Options, patient: Character, healer: Character | None) -> bool:
    """The patient is their own healer: named as the healer, or no healer and no skill given."""
    if healer is None:
        return opts.whole("skill", None, 0, 100) is None
    return healer.name.strip().casefold() == patient.name.strip().casefold()


def _harm(ctx: Ctx, char: Character, amount: int, wound_index: int | None, events: list[str]) -> Character:
    """Hit points lost to a bad treatment or deterioration: added to the wound being treated."""
    if amount <= 0:
        return char
    target = wound_index if wound_index is not None else (char.wounds[-1].index if char.wounds else None)
    if target is None:
        return char
    wounds = tuple(replace(w, amount=w.amount + amount, remaining=w.remaining + amount) if w.index == target
                   else w for w in char.wounds)
    events.append("worsened")
    return check_condition(ctx, char.with_(wounds=wounds), events)


def first_aid(ctx: Ctx, patient: Character, healer: Character | None, action: Any) -> tuple[FirstAidOutcome, Character]:
    opts = Options(action, "first_aid", FIRST_AID_OPTIONS)
    if patient.dead:
        raise IllegalAction(f"{patient.name} is dead")
    if _on_oneself(opts, patient, healer) and not ctx.rulings.flag("first_aid_on_self"):
        # docs/rules/pendragon.md, rule 12a: First Aid cannot be used on oneself unless the ruling allows it
        raise RulingForbids("first_aid_on_self", f"{patient.name} cannot give First Aid to themself (ruling "
                            "first_aid_on_self): another character must")
    wanted = opts.whole("wound", None, 1, 1000000)
    if wanted is None:
        untreated = [w for w in patient.wounds if not w.first_aid]
        if not untreated:
            raise IllegalAction(f"{patient.name} has no wound left that has not had First Aid")
        wound = untreated[-1]
    else:
        found = [w for w in patient.wounds if w.index == wanted]
        if not found:
            raise IllegalAction(f"{patient.name} has no wound #{wanted}")
        wound = found[0]
        if wound.first_aid:
            raise IllegalAction(f"{patient.name}'s wound #{wanted} has already had First Aid (once per wound)")
    target = _healer_skill(opts, patient, healer, "first_aid") + (opts.whole("modifier", 0, -100, 100) or 0)
    roll = ctx.dice.pendragon("first_aid", target)
    events: list[str] = []
    h = ctx.catalog.healing
    healed = harmed = 0
    marked = tuple(replace(w, first_aid=True) if w.index == wound.index else w for w in patient.wounds)
    char = patient.with_(wounds=marked)
    if roll.result in (CRITICAL, SUCCESS):
        spec = h.first_aid_critical if roll.result == CRITICAL else h.first_aid_success
        char, healed = heal(char, ctx.roll_spec("healing", spec), wound.index)
        events.append("healed")
    elif roll.result == FUMBLE:
        harmed = ctx.roll_spec("healing", h.first_aid_fumble_harm)
        char = _harm(ctx, char, harmed, wound.index, events)
    char = after_healing(ctx, char, events)
    return FirstAidOutcome(roll=roll_view(roll), wound_index=wound.index, healed=healed, harmed=harmed,
                           hit_points=ctx.hp(char), events=tuple(events)), char


def chirurgery(ctx: Ctx, patient: Character, healer: Character | None, action: Any
               ) -> tuple[ChirurgeryOutcome, Character]:
    """One week of a chirurgeon's care: critical heals twice the Healing Rate, success the Healing Rate,
    failure is the week's deterioration, a fumble deteriorates and loses 1d6 more."""
    opts = Options(action, "chirurgery", CHIRURGERY_OPTIONS)
    if patient.dead:
        raise IllegalAction(f"{patient.name} is dead")
    if not patient.chirurgery_needed:
        raise IllegalAction(f"{patient.name} needs no chirurgery (only major wounds and the unconscious do)")
    target = _healer_skill(opts, patient, healer, "chirurgery") + (opts.whole("modifier", 0, -100, 100) or 0)
    roll = ctx.dice.pendragon("chirurgery", target)
    events: list[str] = []
    h = ctx.catalog.healing
    rate = ctx.derived(patient).healing_rate
    healed = lost = 0
    char = patient
    if roll.result in (CRITICAL, SUCCESS):
        rates = h.chirurgery_critical_rates if roll.result == CRITICAL else h.chirurgery_success_rates
        char, healed = heal(char, rate * rates)
        events.append("healed")
    else:
        lost = ctx.roll_spec("healing", h.deterioration)
        if roll.result == FUMBLE:
            lost += ctx.roll_spec("healing", h.chirurgery_fumble_harm)
        events.append("deteriorated")
        char = _harm(ctx, char, lost, None, events)
    char = after_healing(ctx, char, events)
    if roll.result in (CRITICAL, SUCCESS) and not char.dying and ctx.hp(char) >= ctx.derived(char).unconscious:
        char = char.with_(chirurgery_needed=False)
        events.append("chirurgery_done")
    return ChirurgeryOutcome(roll=roll_view(roll), healed=healed, lost=lost, chirurgery_needed=char.chirurgery_needed,
                             hit_points=ctx.hp(char), events=tuple(events)), char


def rest(ctx: Ctx, patient: Character, action: Any) -> tuple[RestOutcome, Character]:
    """Natural healing: the Healing Rate each week. Untreated, a patient who needs chirurgery
    deteriorates instead (use the chirurgery action for a week with a chirurgeon). ``days`` (instead of
    ``weeks``) counts the whole weeks in them; the days left over heal nothing and are reported. The rest
    stops early when nothing is left to heal, or the patient is dying or dead, and says why (``stopped``)."""
    opts = Options(action, "rest", REST_OPTIONS)
    days = opts.whole("days", None, 1, 7 * ctx.catalog.healing.max_weeks)
    if days is not None and opts.whole("weeks") is not None:
        raise RulesError("action 'rest': give weeks or days, not both")
    if days is not None and days < 7:
        raise IllegalAction("Pendragon heals by the week: rest 7 days or more")
    weeks = days // 7 if days is not None else (opts.whole("weeks", 1, 1, ctx.catalog.healing.max_weeks) or 1)
    if patient.dead:
        raise IllegalAction(f"{patient.name} is dead")
    events: list[str] = []
    char = patient.with_(prone=False, out_of_fight=False)
    healed = lost = 0
    rested = 0
    stopped: str | None = None
    for _ in range(weeks):
        if char.dead:
            stopped = "dead"
            break
        if not char.wounds:
            stopped = "healed"
            break
        rested += 1
        if char.chirurgery_needed:
            amount = ctx.roll_spec("healing", ctx.catalog.healing.deterioration)
            lost += amount
            events.append("deteriorated")
            char = _harm(ctx, char, amount, None, events)
            if char.dying:
                stopped = "dying" if rested < weeks else None
                break
        else:
            char, done = heal(char, ctx.derived(char).healing_rate)
            healed += done
        char = after_healing(ctx, char, events)
    return RestOutcome(weeks=weeks, weeks_counted=rested, healed=healed, days=days,
                       days_unused=None if days is None else days - 7 * weeks, stopped=stopped,
                       chirurgery_needed=char.chirurgery_needed, lost=lost, hit_points=ctx.hp(char),
                       wounds_left=len(char.wounds), events=tuple(events)), char
