"""ars-harn outcomes as words: attacks, shock and kill rolls, healing, rest, readying a weapon."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.ui.outcomes.common import (
    MORTAL_MARK,
    Field,
    OutcomeText,
    Severity,
    _details,
    _num,
    check_line,
    human,
    joined,
    modifiers,
    plural,
    text,
    worst,
)

_ARS_SEVERITY = {"M": Severity.LIGHT, "S": Severity.SERIOUS, "G": Severity.GRIEVOUS, "K": Severity.MORTAL}
_ARS_WORDS = {"M": "minor", "S": "serious", "G": "grievous", "K": "kill"}


def _ars_injury(injury: Any) -> tuple[str, Severity]:
    if not isinstance(injury, Mapping):
        return "", Severity.NONE
    code = str(injury.get("code") or "")
    letter = code[:1].upper()
    words = str(injury.get("severity") or _ARS_WORDS.get(letter, ""))
    level = _ARS_SEVERITY.get(letter, Severity.LIGHT)
    parts = [f"**{code}**" if code else "", human(words)]
    levels = injury.get("levels")
    if levels is not None:
        parts.append(plural(levels, "injury level"))
    if injury.get("bleeding"):
        parts.append("bleeding")
    return ", ".join(p for p in parts if p), level


_ARS_CHECKS = ("shock", "kill", "fumble", "stumble", "amputation")


def ars_harn(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    attacker, defender = names
    used = {"attack_total", "defense_total", "hit", "excess", "saved_points", "tactical_advantage", "damage_total",
            "soak_total", "location", "effective_impact", "injury", "injury_levels", *_ARS_CHECKS, "weapon", "aspect",
            "aim", "attack_modifiers", "defense_modifiers", "attack_botched", "defense_botched", "excess_saved",
            "saved_points_used", "saved_points_capped", "tactical_advantage_for", "damage_base", "soak_base",
            "armour", "conditions", "armour_pieces", "targeting", "spell", "kind", "severed", "dropped"}
    if outcome.get("action") in _ARS_OTHER:
        return _ARS_OTHER[str(outcome["action"])](outcome, names)
    fields: list[Field] = []
    severity = Severity.NONE
    injury_text, injury_level = _ars_injury(outcome.get("injury"))
    location = " ".join(text(p) for p in (outcome.get("side"), outcome.get("location")) if p) or None
    hit = outcome.get("hit")
    spell = outcome.get("spell") if outcome.get("action") == "cast" else None
    if hit is False and spell:
        headline = f"**Miss**: {attacker}'s {text(spell)} misses {defender}."
    elif hit is False:
        headline = f"**Miss**: {attacker}'s attack does not get through {defender}'s defence."
    elif injury_text:
        headline = f"**Hit** on {defender}'s **{text(location)}**: {injury_text}."
        severity = injury_level
    elif hit or location is not None:
        headline = f"**Hit** on {defender}'s **{text(location)}**, but the armour takes it all."
        severity = Severity.LIGHT if hit else Severity.NONE
    elif outcome.get("action") in ("shock", "kill") and isinstance(outcome.get(outcome["action"]), Mapping):
        passed = outcome[str(outcome["action"])].get("passed")
        headline = f"**{attacker}** {'passes' if passed else 'fails'} the {outcome['action']} roll."
        if outcome["action"] == "shock":
            headline += " In shock." if outcome.get("in_shock") else " Not in shock."
    else:
        headline = f"{attacker} acts." if defender == attacker or not defender else f"{attacker} acts on {defender}."
        severity = Severity.INFO
    targeting = outcome.get("targeting")
    if isinstance(targeting, Mapping):
        how = ", ".join(text(outcome[k]) for k in ("spell", "aspect", "aim") if outcome.get(k))
        line = f"{how}: {check_line(targeting)}" if how else check_line(targeting)
        if modifiers(targeting.get("modifiers")):
            line += f" ({modifiers(targeting.get('modifiers'))})"
        fields.append(("Targeting", line, False))
    elif outcome.get("attack_total") is not None or outcome.get("defense_total") is not None:
        how = ", ".join(text(outcome[k]) for k in ("weapon", "aspect", "aim") if outcome.get(k))
        line = (f"{how}: " if how else "") + f"**{_num(outcome.get('attack_total'))}**"
        if modifiers(outcome.get("attack_modifiers")):
            line += f" ({modifiers(outcome.get('attack_modifiers'))})"
        if outcome.get("attack_botched"):
            line += " **botched**"
        line += f"\nagainst defence **{_num(outcome.get('defense_total'))}**"
        if modifiers(outcome.get("defense_modifiers")):
            line += f" ({modifiers(outcome.get('defense_modifiers'))})"
        if outcome.get("defense_botched"):
            line += " **botched**"
        if outcome.get("excess"):
            line += f"\nexcess {outcome['excess']}" + (", saved for next round" if outcome.get("excess_saved") else "")
        fields.append(("Attack", line, False))
    if outcome.get("saved_points") or outcome.get("saved_points_used"):
        line = f"{outcome.get('saved_points') or 0} kept for later"
        if outcome.get("saved_points_used"):
            line += f", {outcome['saved_points_used']} spent"
        if outcome.get("saved_points_capped"):
            line += " (capped at three times the skill)"
        fields.append(("Saved points", line, True))
    if outcome.get("damage_total") is not None or outcome.get("effective_impact") is not None:
        soak = f"soak {_num(outcome.get('soak_total'))}"
        if outcome.get("armour"):
            pieces = outcome.get("armour_pieces")
            soak += f" (armour {outcome['armour']}" + (f": {text(pieces)})" if pieces else ")")
        fields.append(("Impact", f"damage {_num(outcome.get('damage_total'))} \u2212 {soak} = "
                                 f"**{_num(outcome.get('effective_impact'))}**", True))
    if injury_text:
        total = outcome.get("injury_levels")
        fields.append(("Injury", injury_text + (f"\n{defender} now has {plural(total, 'injury level')}"
                                                if total is not None else ""), False))
    elif outcome.get("injury_levels") is not None and hit:
        fields.append(("Injury levels", f"{defender}: {outcome['injury_levels']}", True))
    for name in _ARS_CHECKS:
        check = outcome.get(name)
        if check is None:
            continue
        fields.append((_CHECK_TITLES[name], check_line(check), True))
        if isinstance(check, Mapping) and check.get("passed") is False:
            severity = worst(severity, Severity.MORTAL if name in ("kill", "amputation") else Severity.SERIOUS)
    conditions = outcome.get("conditions")
    if conditions:
        fields.append(("Condition", f"{defender}: {text(conditions)}", True))
    for line in _ars_losses(outcome, defender):
        fields.append(("Lost", line, True))
    advantage = outcome.get("tactical_advantage")
    if advantage:
        side = outcome.get("tactical_advantage_for") or (advantage if isinstance(advantage, str) else "defender")
        who = {"attacker": attacker, "defender": defender}.get(str(side), side)
        fields.append(("Tactical advantage", f"{text(who)} gains a tactical advantage", False))
    fields.extend(_details(outcome, used))
    numbers, brief = _ars_brief(outcome, names)
    return OutcomeText(headline, fields, severity, brief, numbers)


def _ars_brief(outcome: Mapping[str, Any], names: tuple[str, str]) -> tuple[str | None, list[str]]:
    """The public lines under an attack's headline: the totals in one line, then each check and condition."""
    attacker, defender = names
    lines: list[str] = []
    numbers = None
    targeting = outcome.get("targeting")
    if isinstance(targeting, Mapping):
        passed = targeting.get("passed")
        verdict = "on target" if passed else "off target" if passed is False else "waiting"
        impact = outcome.get("effective_impact")
        numbers = joined([f"targeting {_num(targeting.get('total'))} vs {_num(targeting.get('ease_factor'))}: "
                          f"{verdict}", f"impact {_num(impact)}" if impact is not None and outcome.get("hit")
                          else None])
    elif outcome.get("attack_total") is not None or outcome.get("defense_total") is not None:
        how = " ".join(text(outcome[k]) for k in ("weapon", "aspect", "aim") if outcome.get(k))
        totals = f"{_num(outcome.get('attack_total'))} vs {_num(outcome.get('defense_total'))}"
        if outcome.get("attack_botched") or outcome.get("defense_botched"):
            who = "attack" if outcome.get("attack_botched") else "defence"
            totals += f" ({who} **botched**)"
        impact = outcome.get("effective_impact")
        numbers = joined([f"{how}: {totals}" if how else totals,
                          f"impact {_num(impact)}" if isinstance(impact, int) and impact > 0 and outcome.get("hit")
                          else None,
                          "excess saved" if outcome.get("excess_saved") else None])
    checks = []
    for name in _ARS_CHECKS:
        check = outcome.get(name)
        if not isinstance(check, Mapping):
            continue
        passed = check.get("passed")
        verdict = "waiting for the GM" if passed is None else "passed" if passed else "**failed**"
        checks.append(f"{_CHECK_TITLES[name]} {verdict}")
    if outcome.get("in_shock"):
        checks.append(f"{defender} is **in shock**")
    if checks:
        lines.append(joined(checks))
    conditions = outcome.get("conditions")
    if conditions:
        mark = f"{MORTAL_MARK} " if outcome.get("gm_decision") else ""
        lines.append(f"{mark}{defender}: {text(conditions)}")
    lines.extend(_ars_losses(outcome, defender))
    advantage = outcome.get("tactical_advantage")
    if advantage:
        side = outcome.get("tactical_advantage_for") or (advantage if isinstance(advantage, str) else "defender")
        who = {"attacker": attacker, "defender": defender}.get(str(side), side)
        lines.append(f"{text(who)} gains a tactical advantage")
    return numbers, lines


def _ars_losses(outcome: Mapping[str, Any], defender: str) -> list[str]:
    """A weapon dropped, a limb severed: what the defender has lost."""
    lines = []
    if outcome.get("severed"):
        lines.append(f"{defender}'s **{text(outcome['severed'])}** is severed")
    if outcome.get("dropped"):
        lines.append(f"{defender} drops the {text(outcome['dropped'])}")
    else:
        fumble = outcome.get("fumble")
        if isinstance(fumble, Mapping) and fumble.get("passed") is False:
            hand = f"{text(outcome['side'])} hand" if outcome.get("side") else "hand"
            lines.append(f"{defender} fumbles, but the {hand} holds nothing to drop")
    return lines


_ARS_RESULTS = {"CS": "critical success", "MS": "success", "MF": "failure", "CF": "critical failure"}


def _ars_heal(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    healer, patient = names
    method = str(outcome.get("method") or "treatment")
    fields: list[Field] = []
    result = str(outcome.get("result") or "")
    if method == "spell":
        headline = f"{healer}'s healing spell mends **{patient}**."
        severity = Severity.LIGHT
    else:
        words = _ARS_RESULTS.get(result, human(result) or "done")
        whose = "their own" if healer == patient else f"{patient}'s"
        headline = f"{healer} treats {whose} wound `{_num(outcome.get('wound'))}` with chirurgy: **{words}**."
        severity = Severity.LIGHT if result in ("CS", "MS") else Severity.SERIOUS
        if outcome.get("chirurgy") is not None:
            fields.append(("Chirurgy roll", check_line(outcome["chirurgy"]), True))
        if outcome.get("healing_rate") is not None:
            fields.append(("Heals", f"at rate {outcome['healing_rate']} (the roll each 5 days of rest)", True))
    if outcome.get("bleeding_stopped"):
        fields.append(("Bleeding", "stopped", True))
    if outcome.get("injury_levels") is not None:
        fields.append(("Now", f"{patient} has {plural(outcome['injury_levels'], 'injury level')}", True))
    used = {"method", "wound", "treatment", "chirurgy", "result", "healing_rate", "bleeding_stopped", "injury_levels"}
    fields.extend(_details(outcome, used))
    return OutcomeText(headline, fields, severity)


def _ars_rest(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    who = names[0]
    days = outcome.get("days")
    lines = []
    for roll in outcome.get("healing") or []:
        if isinstance(roll, Mapping):
            change = f"{roll.get('before')} \u2192 {roll.get('after') or 'healed'}"
            total = f" ({roll['total']} vs {roll['ease_factor']})" if roll.get("total") is not None else ""
            lines.append(f"wound `{_num(roll.get('wound'))}`: {change}{total}")
    fields: list[Field] = [("Healing rolls", "\n".join(lines) or "none due yet", False)]
    if outcome.get("injury_levels") is not None:
        fields.append(("Now", f"{who} has {plural(outcome['injury_levels'], 'injury level')}", True))
    fields.extend(_details(outcome, {"days", "intervals", "healing", "healed", "injury_levels", "conditions"}))
    return OutcomeText(f"**{who}** rests {days} day{'s' if days != 1 else ''}.", fields, Severity.LIGHT)


def _ars_ready(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    weapon = outcome.get("weapon")
    headline = f"**{names[0]}** readies the {text(weapon)}." if weapon else f"**{names[0]}** readies a weapon."
    return OutcomeText(headline, _details(outcome, {"weapon", "held"}), Severity.INFO)


_ARS_OTHER: dict[str, Callable[[Mapping[str, Any], tuple[str, str]], OutcomeText]] = {
    "heal": _ars_heal, "rest": _ars_rest, "ready": _ars_ready,
}


_CHECK_TITLES = {"shock": "Shock", "kill": "Kill roll", "fumble": "Fumble", "stumble": "Stumble",
                 "amputation": "Amputation", "knockdown": "Knockdown", "fall": "Fall"}
