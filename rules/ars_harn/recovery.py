"""Healing: healing spells, Chirurgy treatment (HarnMaster's treatment table) and rest over days."""

from __future__ import annotations

from dataclasses import replace

from rules.ars_harn.catalog import SEVERITY_ORDER, ArsHarnCatalog, Treatment
from rules.ars_harn.character import Character, WoundRec
from rules.ars_harn.context import Ctx
from rules.ars_harn.options import Options
from rules.ars_harn.outcomes import Check, HealingRoll, HealOutcome, RestOutcome, SpellStep
from rules.ars_harn.totals import common_penalty
from rules.dice import SUCCESS
from rules.errors import IllegalAction, RulesError

HEAL_OPTIONS = ("method", "wound", "body_levels", "modifier", "who")
REST_OPTIONS = ("days", "attending_chirurgy", "who")


def treatment_for(catalog: ArsHarnCatalog, w: WoundRec) -> Treatment:
    row = "G" if w.severity in ("G", "K") else w.severity
    return catalog.numbers.treatment[w.aspect][row]


def worst(wounds: list[WoundRec]) -> WoundRec:
    return max(wounds, key=lambda w: (w.levels, SEVERITY_ORDER.index(w.severity), w.index))


def pick_wound(patient: Character, action: Options, only_untreated: bool = False) -> WoundRec:
    if action.has("wound"):
        index = action.integer("wound", 0, low=0, high=100000)
        found = patient.wound(index)
        if found is None:
            known = ", ".join(str(w.index) for w in patient.wounds) or "none"
            raise IllegalAction(f"{patient.name} has no wound {index} (wounds: {known})")
        return found
    candidates = [w for w in patient.wounds if not (only_untreated and w.treated)]
    if not candidates:
        what = "untreated wound" if only_untreated else "wound"
        raise IllegalAction(f"{patient.name} has no {what} to heal")
    return worst(candidates)


def limb_restored(catalog: ArsHarnCatalog, c: Character) -> Character:
    """A limb is usable again once no Grievous or Kill wound is on it and nothing there is severed."""
    keep = []
    for limb in c.unusable_limbs:
        side, kind = limb.split("_", 1)
        hurt = any(w.side == side and catalog.locations[w.location].limb == kind and
                   (w.severity in ("G", "K") or w.amputated) for w in c.wounds)
        severed = any(part.startswith(f"{side}_") and catalog.locations.get(part.split("_", 1)[1]) is not None
                      and catalog.locations[part.split("_", 1)[1]].limb == kind for part in c.severed)
        if hurt or severed:
            keep.append(limb)
    return replace(c, unusable_limbs=tuple(keep))


def set_levels(catalog: ArsHarnCatalog, c: Character, w: WoundRec, levels: int) -> tuple[Character, WoundRec | None]:
    """The wound at ``levels`` Injury Levels (healed and removed at 0); bleeding stops below Grievous."""
    if levels <= 0:
        return replace(c, wounds=tuple(x for x in c.wounds if x.index != w.index)), None
    severity = catalog.severity_for(levels)
    new = replace(w, levels=levels, severity=severity, bleeding=w.bleeding and severity in ("G", "K"))
    return c.replace_wound(new), new


def heal(ctx: Ctx, action: Options, healer: Character, patient: Character, same: bool
         ) -> tuple[HealOutcome, Character, Character]:
    method = action.choice("method", ("spell", "chirurgy"), None)
    if method is None:
        raise RulesError("action 'heal': option 'method' must be spell or chirurgy")
    if patient.has("dead"):
        raise IllegalAction(f"{patient.name} is dead")
    if method == "spell":
        if action.has("modifier"):
            raise RulesError("action 'heal': option 'modifier' is only for chirurgy")
        out, patient = heal_spell(ctx, action, patient)
        healer = patient if same else healer
    else:
        if action.has("body_levels"):
            raise RulesError("action 'heal': option 'body_levels' is only for a healing spell")
        why = healer.incapable()
        if why is not None:
            raise IllegalAction(f"{healer.name} cannot treat anyone while {why}")
        out, patient = chirurgy(ctx, action, healer, patient)
        healer = patient if same else healer
    patient = lapse_kill_decision(patient)
    if same:
        healer = patient
    return replace(out, injury_levels=patient.injury_levels, patient=patient.name, healer=healer.name), healer, patient


def lapse_kill_decision(c: Character) -> Character:
    """A failed kill roll waits on the GM's choice of death or incapacitation for one wound. Once healing has
    taken that wound below K (or away), nothing is left to decide: the decision lapses and the incapacitation
    it already brought stands, as if the GM had chosen it (a ruling, see docs/rules/ars-harn.md)."""
    decision = c.pending_decision
    if decision is None or decision.get("kind") != "kill":
        return c
    wound = next((w for w in c.wounds if w.index == decision.get("wound")), None)
    if wound is not None and wound.severity == "K":
        return c
    return replace(c, pending_decision=None)


def heal_spell(ctx: Ctx, action: Options, patient: Character) -> tuple[HealOutcome, Character]:
    """Each Body Level healed: a wound of S3 or less is gone; G4 or worse becomes S2 (see the docs)."""
    catalog = ctx.catalog
    numbers = catalog.numbers
    count = action.integer("body_levels", 1, low=1, high=100)
    target: WoundRec | None = pick_wound(patient, action)
    steps: list[SpellStep] = []
    for _ in range(count):
        if target is None:
            if not patient.wounds:
                break
            target = worst(list(patient.wounds))
        before = target.code
        if target.levels <= numbers.healing_spell_heals_up_to:
            patient, _gone = set_levels(catalog, patient, target, 0)
            steps.append(SpellStep(target.index, before, None))
            target = None
        else:
            code = numbers.healing_spell_reduced_wound
            new = replace(target, severity=code[0], levels=int(code[1]), bleeding=False, treated=False,
                          healing_rate=None)
            patient = patient.replace_wound(new)
            steps.append(SpellStep(target.index, before, new.code))
            target = new
    patient = limb_restored(catalog, patient)
    return HealOutcome(method="spell", body_levels=count, steps=tuple(steps)), patient


def chirurgy(ctx: Ctx, action: Options, healer: Character, patient: Character) -> tuple[HealOutcome, Character]:
    """HarnMaster treatment with Chirurgy as the Physician skill: 3 = marginal, 9 = critical success."""
    catalog = ctx.catalog
    eases = catalog.numbers.ease_factors
    w = pick_wound(patient, action, only_untreated=True)
    if w.treated:
        raise IllegalAction(f"{patient.name}'s wound {w.index} has been treated already")
    treatment = treatment_for(catalog, w)
    parts = {"int": healer.char("int"), "chirurgy": healer.ability("Chirurgy"), **common_penalty(healer, catalog),
             "virtues_flaws": healer.vf_mod("chirurgy"), "modifier": action.integer("modifier", 0)}
    if ctx.rulings.treatment_bonus:
        parts["treatment"] = treatment.bonus // 10
    roll = ctx.dice.ars_check("chirurgy", sum(parts.values()), eases["chirurgy_marginal"],
                              botch_dice=ctx.rulings.roll_botch_dice)
    if roll.botches:
        result = "CF"
    elif roll.result != SUCCESS:
        result = "MF"
    elif roll.total >= eases["chirurgy_critical"]:
        result = "CS"
    else:
        result = "MS"
    rate = treatment.rates[result]
    success = result in ("MS", "CS")
    new = replace(w, treated=True, healing_rate=rate, bleeding=w.bleeding and not success)
    patient = patient.replace_wound(new)
    roll_check = Check(total=roll.total, ease_factor=eases["chirurgy_marginal"], passed=success,
                       botched=roll.botches > 0, modifiers=parts, critical_ease_factor=eases["chirurgy_critical"])
    return HealOutcome(method="chirurgy", wound=w.index, treatment=treatment.treatment, chirurgy=roll_check,
                       result=result, healing_rate=rate, bleeding_stopped=w.bleeding and success,
                       bleeding=new.bleeding), patient


def rest(ctx: Ctx, action: Options, c: Character) -> tuple[RestOutcome, Character]:
    """Days of rest: fatigue, shock and prone go; every 5 days each wound gets a healing roll."""
    catalog = ctx.catalog
    numbers = catalog.numbers
    if c.has("dead"):
        raise IllegalAction(f"{c.name} is dead")
    days = action.integer("days", 1, low=1, high=365)
    attending = action.integer("attending_chirurgy", 0, low=0, high=30)
    interval = numbers.healing_interval_days
    intervals = (c.rest_days + days) // interval - c.rest_days // interval
    first_day = interval - c.rest_days % interval  # the day of this rest that ends the first interval
    c = replace(c, rest_days=c.rest_days + days, fatigue=0, tactical_advantage=False, saved_points=0,
                saved_rounds=0, initiative=None)
    for condition in ("shock", "prone", "unconscious"):
        c = c.with_condition(condition, False)
    c = replace(c, pending_rolls=tuple(p for p in c.pending_rolls if p.get("kind") != "shock"))
    log: list[HealingRoll] = []
    healed: list[int] = []
    for number in range(1, intervals + 1):
        for w in list(c.wounds):
            rate = w.healing_rate if w.treated and w.healing_rate is not None else treatment_for(catalog, w).rates["NT"]
            total: int | None = None
            ease: int | None = None
            if rate >= numbers.automatic_healing_rate:
                drop, result = 1, "automatic"
            else:
                parts = {"sta": c.char("sta"), "healing_rate": rate, "virtues_flaws": c.vf_mod("healing"),
                         "attending": attending // 2}
                roll = ctx.dice.ars_check("healing", sum(parts.values()), numbers.ease_factors["healing_marginal"],
                                          botch_dice=ctx.rulings.roll_botch_dice)
                if roll.botches:
                    drop, result = 0, "CF"
                elif roll.result != SUCCESS:
                    drop, result = 0, "MF"
                elif roll.total >= numbers.ease_factors["healing_critical"]:
                    drop, result = 2, "CS"
                else:
                    drop, result = 1, "MS"
                total, ease = roll.total, numbers.ease_factors["healing_marginal"]
            c, after = set_levels(catalog, c, w, w.levels - drop)
            if after is None:
                healed.append(w.index)
            log.append(HealingRoll(interval=number, day=first_day + (number - 1) * interval, wound=w.index,
                                   healing_rate=rate, result=result, total=total, ease_factor=ease, before=w.code,
                                   after=None if after is None else after.code))
    c = lapse_kill_decision(limb_restored(catalog, c))
    return RestOutcome(days=days, intervals=intervals, healing=tuple(log), healed=tuple(healed),
                       injury_levels=c.injury_levels, conditions=c.conditions), c
