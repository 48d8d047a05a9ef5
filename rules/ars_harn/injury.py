"""A new injury and what follows it: amputation, kill, fumble/stumble and shock rolls.

Order (a ruling, see the docs): amputation first (a severed part becomes G5, which may replace a
Kill result), then the Kill roll, then Fumble/Stumble (the new injury's levels already count),
then Shock against the new total of Injury Levels. A failed Kill roll stops the chain.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.ars_harn.catalog import ArsHarnCatalog, Location
from rules.ars_harn.character import MAX_LIST, Character, WoundRec
from rules.ars_harn.context import Ctx
from rules.ars_harn.outcomes import Check, Injury, KillDecision, OwedRoll, Wounding
from rules.ars_harn.rulings import Rulings
from rules.ars_harn.totals import fatigue_penalty, physical_encumbrance
from rules.dice import SUCCESS
from rules.errors import no_room_for_a_wound


def check(ctx: Ctx, label: str, modifier: int, ease_factor: int, parts: dict[str, int] | None = None) -> Check:
    """An Ars Magica stress roll against an Ease Factor; a botch fails."""
    roll = ctx.dice.ars_check(label, modifier, ease_factor, botch_dice=ctx.rulings.roll_botch_dice)
    return Check(total=roll.total, ease_factor=ease_factor, passed=roll.result == SUCCESS, botched=roll.botches > 0,
                 die=roll.total - modifier, modifiers=parts or {})


def automatic(ease_factor: int) -> Check:
    """A Fumble or Stumble the rules make automatic: no roll, a failure."""
    return Check(total=None, ease_factor=ease_factor, passed=False, automatic=True)


def bleeds(rulings: Rulings, severity: str, levels: int, damage_type: str) -> bool:
    if rulings.bleeding_rule == "grievous_only":
        return severity == "G"
    if rulings.bleeding_rule == "harn":
        return levels >= 4 and damage_type != "fire"
    return severity in ("G", "K")


def amputation_indicated(rulings: Rulings, location: Location, severity: str, aspect: str,
                         band: int | None, top_band: int) -> bool:
    if not location.amputation:
        return False
    if rulings.amputation_when == "top_band":
        return band == top_band
    grievous = severity in ("G", "K")
    if rulings.amputation_when == "grievous_any":
        return grievous
    return grievous and aspect == "edge"


def injury_view(w: WoundRec, catalog: ArsHarnCatalog) -> Injury:
    return Injury(index=w.index, location=w.location, side=w.side, aspect=w.aspect, code=w.code,
                  severity=catalog.severities.get(w.severity, w.severity), levels=w.levels, bleeding=w.bleeding,
                  amputated=w.amputated, treated=w.treated, healing_rate=w.healing_rate, source=w.source)


def shock_parts(c: Character, catalog: ArsHarnCatalog) -> dict[str, int]:
    """Seed: Stamina, modified by Fatigue and Bleeding and Virtues/Flaws, never Encumbrance."""
    return {"sta": c.char("sta"), "fatigue": fatigue_penalty(c, catalog), "bleeding": -c.bleeding_wounds,
            "virtues_flaws": c.vf_mod("shock")}


def roll_shock(ctx: Ctx, c: Character) -> tuple[Character, Check]:
    parts = shock_parts(c, ctx.catalog)
    result = check(ctx, "shock", sum(parts.values()), c.injury_levels, parts)
    c = replace(c, pending_rolls=tuple(p for p in c.pending_rolls if p.get("kind") != "shock"))
    if not result.passed:
        c = c.with_condition("shock")
    return c, result


def kill_ease_factor(catalog: ArsHarnCatalog, levels: int) -> int:
    return catalog.numbers.ease_factors["kill_multiplier"] * levels


def roll_kill(ctx: Ctx, c: Character, wound_index: int, ease_factor: int, who: str
              ) -> tuple[Character, Check, KillDecision | None]:
    """Seed: Stamina modified only by Virtues and Flaws, against twice the Kill rating."""
    parts = {"sta": c.char("sta"), "virtues_flaws": c.vf_mod("kill")}
    result = check(ctx, "kill", sum(parts.values()), ease_factor, parts)
    c = replace(c, pending_rolls=tuple(p for p in c.pending_rolls if p.get("kind") != "kill"))
    decision = None
    if not result.passed:
        c, decision = kill_failed(ctx, c, wound_index, who)
    return c, result, decision


def kill_failed(ctx: Ctx, c: Character, wound_index: int, who: str) -> tuple[Character, KillDecision | None]:
    ruling = ctx.rulings.kill_failure
    if ruling == "death":
        return c.with_condition("dead"), None
    c = c.with_condition("incapacitated")
    if ruling == "incapacitation":
        return c, None
    options = ["death", "incapacitation"]
    c = replace(c, pending_decision={"kind": "kill", "wound": wound_index, "options": options})
    return c, KillDecision(kind="kill", who=who, options=tuple(options), wound=wound_index)


def drop_from_hand(c: Character, hand: str) -> tuple[Character, str | None]:
    """Whatever ``hand`` holds falls to the ground (a two-handed weapon leaves both hands)."""
    position = 0 if hand == "right" else 1
    index = c.held[position]
    if index is None or c.weapons[index].natural is not None:  # a bite or a claw is never let go of
        return c, None
    held = tuple(None if h == index else h for h in c.held)
    dropped = tuple(sorted({*c.dropped, index}))
    return replace(c, held=(held[0], held[1]), dropped=dropped), c.weapons[index].name


@dataclass(frozen=True)
class NewInjury:
    location: Location
    side: str | None
    aspect: str
    code: str
    source: str
    band: int | None = None  # the injury column, for table results; None for Body Levels and GM wounds
    bleeding: bool | None = None  # None: by the bleeding rule


def inflict(ctx: Ctx, victim: Character, new: NewInjury, who: str) -> tuple[Character, Wounding]:
    """Record ``new`` on ``victim`` and make every roll it calls for, in the order the rulings give: the victim's
    rolls (``who``'s side: Amputation, Kill, Fumble or Stumble, Shock)."""
    with ctx.dice.rolling_for(who):
        return _inflict(ctx, victim, new, who)


def _inflict(ctx: Ctx, victim: Character, new: NewInjury, who: str) -> tuple[Character, Wounding]:
    catalog, rulings = ctx.catalog, ctx.rulings
    severity, levels = new.code[0], int(new.code[1])
    bleeding = bleeds(rulings, severity, levels, new.aspect) if new.bleeding is None else new.bleeding
    location, side = new.location, new.side
    amputated = False
    auto_limb = False
    amputation: Check | None = None
    severed: str | None = None
    pending: list[OwedRoll] = []
    top_band = len(catalog.injury_bands) - 1
    if new.band is not None and amputation_indicated(rulings, location, severity, new.aspect, new.band, top_band):
        parts = {"size": victim.size, "virtues_flaws": victim.vf_mod("amputation")}
        amputation = check(ctx, "amputation", sum(parts.values()), catalog.numbers.ease_factors["amputation"], parts)
        if not amputation.passed:
            amputated = True
            code = catalog.numbers.amputation_wound
            severity, levels, bleeding = code[0], int(code[1]), True
            severed = f"{side}_{location.key}" if side else location.key
            victim = replace(victim, severed=(*victim.severed, severed))
            auto_limb = True
    if len(victim.wounds) >= MAX_LIST:
        raise no_room_for_a_wound(victim.name, MAX_LIST)
    index = victim.wound_counter + 1
    wound = WoundRec(index=index, location=location.key, side=side, aspect=new.aspect, severity=severity,
                     levels=levels, bleeding=bleeding, amputated=amputated, source=new.source)
    victim = replace(victim, wounds=(*victim.wounds, wound), wound_counter=index)
    if severed is not None and victim.body is not None:  # a wolf's "right forepaw", not its "right hand"
        severed = catalog.part_word(victim.body, location.key, side)
    limb_word = catalog.body(victim.body).limbs.get(location.limb) if victim.body and location.limb else None
    done = Wounding(injury=injury_view(wound, catalog), amputation=amputation, severed=severed, limb=limb_word)
    if amputated and location.severing_kills:
        return victim.with_condition("dead"), replace(done, severed_kills=True)
    limb = f"{side}_{location.limb}" if location.limb and side else None
    if limb is not None and severity in ("G", "K"):
        auto_limb = True
    if limb is not None and auto_limb and limb not in victim.unusable_limbs:
        victim = replace(victim, unusable_limbs=(*victim.unusable_limbs, limb))

    if severity == "K":
        ease = kill_ease_factor(catalog, levels)
        if rulings.auto_rolls:
            victim, kill, decision = roll_kill(ctx, victim, index, ease, who)
            done = replace(done, kill=kill, gm_decision=decision)
            if not kill.passed:
                return victim, done
        else:
            owed = {"kind": "kill", "wound": index, "ease_factor": ease}
            victim = replace(victim, pending_rolls=(*victim.pending_rolls, owed))
            pending.append(OwedRoll("kill", index, ease))

    if location.limb is not None and side is not None:
        kind = "fumble" if location.limb == "arm" else "stumble"
        ease = catalog.numbers.ease_factors[kind]
        wanted = rulings.fumble_roll_when == "every_injury" or levels >= 2
        limb_roll: Check | None = None
        if auto_limb:
            limb_roll = automatic(ease)
        elif wanted:
            parts = {"dex": victim.char("dex"), "wounds": -victim.injury_levels,
                     "fatigue": fatigue_penalty(victim, catalog), "virtues_flaws": victim.vf_mod(kind),
                     "encumbrance": -physical_encumbrance(victim, catalog, rulings)}
            limb_roll = check(ctx, kind, sum(parts.values()), ease, parts)
        if limb_roll is not None:
            if kind == "fumble":
                done = replace(done, fumble=limb_roll)
            else:
                done = replace(done, stumble=limb_roll)
            if not limb_roll.passed:
                if kind == "fumble":
                    victim, dropped = drop_from_hand(victim, side)
                    done = replace(done, dropped=dropped)
                else:
                    victim = victim.with_condition("prone")

    if rulings.auto_rolls:
        victim, shock = roll_shock(ctx, victim)
        done = replace(done, shock=shock)
    elif not any(p.get("kind") == "shock" for p in victim.pending_rolls):
        victim = replace(victim, pending_rolls=(*victim.pending_rolls, {"kind": "shock"}))
        pending.append(OwedRoll("shock"))
    return victim, replace(done, pending=tuple(pending))
