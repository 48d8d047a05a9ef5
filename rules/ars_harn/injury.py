"""A new injury and what follows it: amputation, kill, fumble/stumble and shock rolls.

Order (a ruling, see the docs): amputation first (a severed part becomes G5, which may replace a
Kill result), then the Kill roll, then Fumble/Stumble (the new injury's levels already count),
then Shock against the new total of Injury Levels. A failed Kill roll stops the chain.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules.ars_harn.catalog import ArsHarnCatalog, Location
from rules.ars_harn.character import Character, WoundRec
from rules.ars_harn.settings import Rulings
from rules.ars_harn.totals import fatigue_penalty, physical_encumbrance
from rules.dice import SUCCESS, DiceSource


@dataclass(frozen=True)
class Ctx:
    catalog: ArsHarnCatalog
    rulings: Rulings
    dice: DiceSource


def check(ctx: Ctx, label: str, modifier: int, ease_factor: int, parts: dict[str, int] | None = None
          ) -> dict[str, Any]:
    """An Ars Magica stress roll against an Ease Factor; a botch fails."""
    roll = ctx.dice.ars_check(label, modifier, ease_factor, botch_dice=ctx.rulings.roll_botch_dice)
    out: dict[str, Any] = {
        "total": roll.total,
        "ease_factor": ease_factor,
        "passed": roll.result == SUCCESS,
        "botched": roll.botches > 0,
        "automatic": False,
        "die": roll.total - modifier,
    }
    if parts is not None:
        out["modifiers"] = parts
    return out


def automatic(ease_factor: int) -> dict[str, Any]:
    """A Fumble or Stumble the rules make automatic: no roll, a failure."""
    return {"total": None, "ease_factor": ease_factor, "passed": False, "botched": False, "automatic": True,
            "die": None}


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


def injury_view(w: WoundRec, catalog: ArsHarnCatalog) -> dict[str, Any]:
    return w.to_dict(catalog)


def shock_parts(c: Character, catalog: ArsHarnCatalog) -> dict[str, int]:
    """Seed: Stamina, modified by Fatigue and Bleeding and Virtues/Flaws, never Encumbrance."""
    return {"sta": c.char("sta"), "fatigue": fatigue_penalty(c, catalog), "bleeding": -c.bleeding_wounds,
            "virtues_flaws": c.vf_mod("shock")}


def roll_shock(ctx: Ctx, c: Character) -> tuple[Character, dict[str, Any]]:
    parts = shock_parts(c, ctx.catalog)
    result = check(ctx, "shock", sum(parts.values()), c.injury_levels, parts)
    c = replace(c, pending_rolls=tuple(p for p in c.pending_rolls if p.get("kind") != "shock"))
    if not result["passed"]:
        c = c.with_condition("shock")
    return c, result


def kill_ease_factor(catalog: ArsHarnCatalog, levels: int) -> int:
    return catalog.numbers.ease_factors["kill_multiplier"] * levels


def roll_kill(ctx: Ctx, c: Character, wound_index: int, ease_factor: int, who: str
              ) -> tuple[Character, dict[str, Any], dict[str, Any] | None]:
    """Seed: Stamina modified only by Virtues and Flaws, against twice the Kill rating."""
    parts = {"sta": c.char("sta"), "virtues_flaws": c.vf_mod("kill")}
    result = check(ctx, "kill", sum(parts.values()), ease_factor, parts)
    c = replace(c, pending_rolls=tuple(p for p in c.pending_rolls if p.get("kind") != "kill"))
    decision = None
    if not result["passed"]:
        c, decision = kill_failed(ctx, c, wound_index, who)
    return c, result, decision


def kill_failed(ctx: Ctx, c: Character, wound_index: int, who: str
                ) -> tuple[Character, dict[str, Any] | None]:
    ruling = ctx.rulings.kill_failure
    if ruling == "death":
        return c.with_condition("dead"), None
    c = c.with_condition("incapacitated")
    if ruling == "incapacitation":
        return c, None
    options = ["death", "incapacitation"]
    c = replace(c, pending_decision={"kind": "kill", "wound": wound_index, "options": options})
    return c, {"kind": "kill", "who": who, "options": options, "wound": wound_index}


def drop_from_hand(c: Character, hand: str) -> tuple[Character, str | None]:
    """Whatever ``hand`` holds falls to the ground (a two-handed weapon leaves both hands)."""
    position = 0 if hand == "right" else 1
    index = c.held[position]
    if index is None:
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


def inflict(ctx: Ctx, victim: Character, new: NewInjury, who: str) -> tuple[Character, dict[str, Any]]:
    """Record ``new`` on ``victim`` and make every roll it calls for. Returns the outcome fields."""
    catalog, rulings = ctx.catalog, ctx.rulings
    out: dict[str, Any] = {"injury": None, "amputation": None, "kill": None, "fumble": None, "stumble": None,
                           "shock": None, "gm_decision": None, "pending": [], "dropped": None, "severed": None}
    severity, levels = new.code[0], int(new.code[1])
    bleeding = bleeds(rulings, severity, levels, new.aspect) if new.bleeding is None else new.bleeding
    location, side = new.location, new.side
    amputated = False
    auto_limb = False
    top_band = len(catalog.injury_bands) - 1
    if new.band is not None and amputation_indicated(rulings, location, severity, new.aspect, new.band, top_band):
        parts = {"size": victim.size, "virtues_flaws": victim.vf_mod("amputation")}
        result = check(ctx, "amputation", sum(parts.values()),
                       catalog.numbers.ease_factors["amputation"], parts)
        out["amputation"] = result
        if not result["passed"]:
            amputated = True
            code = catalog.numbers.amputation_wound
            severity, levels, bleeding = code[0], int(code[1]), True
            part = f"{side}_{location.key}" if side else location.key
            victim = replace(victim, severed=(*victim.severed, part))
            out["severed"] = part
            auto_limb = True
    index = victim.wound_counter + 1
    wound = WoundRec(index=index, location=location.key, side=side, aspect=new.aspect, severity=severity,
                     levels=levels, bleeding=bleeding, amputated=amputated, source=new.source)
    victim = replace(victim, wounds=(*victim.wounds, wound), wound_counter=index)
    out["injury"] = injury_view(wound, catalog)
    if amputated and location.severing_kills:
        out["severed_kills"] = True
        return victim.with_condition("dead"), out
    limb = f"{side}_{location.limb}" if location.limb and side else None
    if limb is not None and severity in ("G", "K"):
        auto_limb = True
    if limb is not None and auto_limb and limb not in victim.unusable_limbs:
        victim = replace(victim, unusable_limbs=(*victim.unusable_limbs, limb))

    if severity == "K":
        ease = kill_ease_factor(catalog, levels)
        if rulings.auto_rolls:
            victim, out["kill"], out["gm_decision"] = roll_kill(ctx, victim, index, ease, who)
            if not out["kill"]["passed"]:
                return victim, out
        else:
            pending = {"kind": "kill", "wound": index, "ease_factor": ease}
            victim = replace(victim, pending_rolls=(*victim.pending_rolls, pending))
            out["pending"].append(pending)

    if location.limb is not None and side is not None:
        kind = "fumble" if location.limb == "arm" else "stumble"
        ease = catalog.numbers.ease_factors[kind]
        wanted = rulings.fumble_roll_when == "every_injury" or levels >= 2
        limb_roll: dict[str, Any] | None = None
        if auto_limb:
            limb_roll = automatic(ease)
        elif wanted:
            parts = {"dex": victim.char("dex"), "wounds": -victim.injury_levels,
                     "fatigue": fatigue_penalty(victim, catalog), "virtues_flaws": victim.vf_mod(kind),
                     "encumbrance": -physical_encumbrance(victim, catalog, rulings)}
            limb_roll = check(ctx, kind, sum(parts.values()), ease, parts)
        if limb_roll is not None:
            out[kind] = limb_roll
            if not limb_roll["passed"]:
                if kind == "fumble":
                    victim, out["dropped"] = drop_from_hand(victim, side)
                else:
                    victim = victim.with_condition("prone")

    if rulings.auto_rolls:
        victim, out["shock"] = roll_shock(ctx, victim)
    elif not any(p.get("kind") == "shock" for p in victim.pending_rolls):
        pending = {"kind": "shock"}
        victim = replace(victim, pending_rolls=(*victim.pending_rolls, pending))
        out["pending"].append(pending)
    return victim, out
