"""King Arthur Pendragon outcomes as words: opposed exchanges, knockdown, major wounds, treatment, rest."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.ui.outcomes.common import (
    MORTAL_MARK,
    Field,
    OutcomeText,
    Severity,
    _brief,
    _details,
    _num,
    check_line,
    human,
    joined,
    plural,
    signed,
    text,
    title,
    worst,
)
from bot.ui.outcomes.decisions import gm_decided
from rules.outcome import Outcome
from rules.pendragon.outcomes import RECORDS, PendragonOutcome


def _opposed(roll: Any) -> str:
    if not isinstance(roll, Mapping):
        return text(roll)
    face, total = roll.get("face"), roll.get("total")
    shown = _num(total if total is not None else face)
    if isinstance(face, int) and isinstance(total, int) and face != total:
        shown = f"{face} {signed(total - face)} = {total}"
    line = f"{shown} vs {_num(roll.get('target'))}: **{human(roll.get('result') or '?')}**"
    extras = [f"{human(name)} {signed(value)}" for name, value in roll.get("modifiers") or []
              if isinstance(value, int)] if isinstance(roll.get("modifiers"), list) else []
    if extras:
        line += f" ({', '.join(extras)})"
    return line


def _roll_words(roll: Any) -> str:
    """A d20 roll mapping as ``7 vs 9, success``."""
    if not isinstance(roll, Mapping):
        return text(roll)
    total = roll.get("total", roll.get("face"))
    return f"{_num(total)} vs {_num(roll.get('target'))}, {human(roll.get('result') or '?')}"


def _passed(roll: Any) -> bool:
    return isinstance(roll, Mapping) and str(roll.get("result")) in ("success", "critical")


def _major_wound_lines(effects: Any, who: str) -> list[str]:
    if not isinstance(effects, Mapping):
        return []
    lines = []
    conscious = effects.get("conscious_roll")
    if conscious is not None:
        lines.append(f"stays conscious ({_roll_words(conscious)})" if _passed(conscious)
                     else f"falls **unconscious** ({_roll_words(conscious)})")
    valorous = effects.get("valorous_roll")
    if valorous is not None:
        lines.append(f"fights on (Valorous {_roll_words(valorous)})" if _passed(valorous)
                     else f"loses heart and **leaves the fight** (Valorous {_roll_words(valorous)})")
    lost = effects.get("stat_lost")
    if lost and str(lost) != "none":
        lines.append(f"loses a point of **{str(lost).upper()}**")
    elif "stat_lost" in effects:
        lines.append("loses no statistic")
    return lines


def pendragon(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    if outcome.get("action") in _PENDRAGON_OTHER:
        return _PENDRAGON_OTHER[str(outcome["action"])](outcome, names)
    attacker, defender = names
    used = {"attacker_roll", "defender_roll", "winner", "tie", "damage_rolled", "armor", "shield_applied",
            "damage_taken", "knockdown", "major_wound", "unconscious", "hit_points", "weapon_broken",
            "weapon_dropped", "dying", "critical", "damage_dice", "unopposed", "unopposed_why",
            "major_wound_effects", "fall",
            "lance_broken", "self_hit", "experience_check", "damage_notes"}
    fields: list[Field] = []
    severity = Severity.NONE
    winner = outcome.get("winner")
    winner_name = {"attacker": attacker, "defender": defender}.get(str(winner))
    loser_name = {"attacker": defender, "defender": attacker}.get(str(winner))
    hurt = loser_name or defender
    taken = outcome.get("damage_taken")
    if outcome.get("tie"):
        headline = "**Tie**: the blows meet and nobody is hurt."
    elif winner_name is None:
        headline = "**Both miss**: nobody is hurt this round." if "winner" in outcome else f"{attacker} acts."
        severity = Severity.NONE if "winner" in outcome else Severity.INFO
    elif taken:
        headline = f"**{winner_name}** wins the exchange: {loser_name} takes **{taken}** damage."
        severity = Severity.LIGHT
    elif outcome.get("damage_rolled") is not None:
        headline = f"**{winner_name}** wins the exchange, but {loser_name}'s armour holds."
    else:
        headline = f"**{winner_name}** wins the exchange."
    if outcome.get("unopposed"):
        headline += f" {defender} could not fight back" + (
            " (a missile, unopposed at range)." if outcome.get("unopposed_why") == "missile" else ".")
    for name, key in ((attacker, "attacker_roll"), (defender, "defender_roll")):
        roll = outcome.get(key)
        if roll is not None:
            weapon = roll.get("weapon") if isinstance(roll, Mapping) else None
            fields.append((f"{name} ({text(weapon)})" if weapon else name, _opposed(roll), True))
    if outcome.get("damage_rolled") is not None:
        armour = f"armour {_num(outcome.get('armor'))}" + (" with shield" if outcome.get("shield_applied") else "")
        dice = f" on {outcome['damage_dice']}" if outcome.get("damage_dice") else ""
        line = f"{outcome['damage_rolled']} rolled{dice}"
        if outcome.get("critical"):
            line += ", **critical**: doubled"
        notes = [human(n) for n in outcome.get("damage_notes") or [] if isinstance(n, str)]
        if notes:
            line += f" ({', '.join(notes)})"
        fields.append(("Damage", f"{line} \u2212 {armour} = **{_num(taken)}**", False))
    knockdown = outcome.get("knockdown")
    if isinstance(knockdown, Mapping):
        if knockdown.get("pending"):
            line = f"{hurt} rolls DEX against the blow: waiting for the GM"
        elif knockdown.get("automatic"):
            line = f"twice {hurt}'s SIZ: **knocked down**"
        elif knockdown.get("passed") is False:
            line = f"{check_line(knockdown)}\n{hurt} is **knocked down**"
        else:
            line = f"{check_line(knockdown)}\n{hurt} keeps their feet"
        if knockdown.get("fall_damage"):
            line += f", and the fall deals {knockdown['fall_damage']}"
        fields.append(("Knockdown", line, True))
        if knockdown.get("passed") is False or knockdown.get("automatic"):
            severity = worst(severity, Severity.SERIOUS)
    if outcome.get("major_wound"):
        lines = _major_wound_lines(outcome.get("major_wound_effects"), hurt)
        fields.append(("Major wound", f"{hurt} suffers a **major wound** and needs chirurgery"
                       + "".join(f"\n{hurt} {line}" for line in lines), False))
        severity = worst(severity, Severity.GRIEVOUS)
    fall = outcome.get("fall")
    if isinstance(fall, Mapping) and fall.get("pending"):
        fields.append(("Fall", f"{hurt} falls unconscious: the DEX roll waits for the GM", True))
    elif isinstance(fall, Mapping):
        line = f"{check_line(fall)}: " + ("a gentle fall" if fall.get("passed") else f"{hurt} falls hard")
        if fall.get("fall_damage"):
            line += f", {fall['fall_damage']} damage"
        fields.append(("Fall", line, True))
    if outcome.get("hit_points") is not None and (taken or outcome.get("self_hit")):
        fields.append(("Hit points", f"{hurt}: {text(outcome['hit_points'])}", True))
    if outcome.get("dying") or (isinstance(outcome.get("hit_points"), int) and outcome["hit_points"] <= 0):
        severity = Severity.MORTAL
        fields.append(("Dying", f"{hurt} is **dying**", True))
    elif outcome.get("unconscious"):
        fields.append(("Unconscious", f"{hurt} falls **unconscious**", True))
        severity = worst(severity, Severity.GRIEVOUS)
    lost = {str(item.get("who")): item for item in outcome.get("weapons_lost") or [] if isinstance(item, Mapping)}
    for key, verb in (("weapon_broken", "breaks"), ("weapon_dropped", "is dropped")):
        whose = outcome.get(key)
        if whose:
            sides = ("attacker", "defender") if str(whose) == "both" else (str(whose),)
            for side in sides:
                owner = {"attacker": attacker, "defender": defender}.get(side, text(side))
                weapon = lost.get(side, {}).get("weapon")
                fields.append((title(key), f"{owner}'s {text(weapon) if weapon else 'weapon'} {verb}: "
                               "they must re-arm (/ready)", True))
            severity = worst(severity, Severity.LIGHT)
    if outcome.get("lance_broken"):
        broken = str(outcome["lance_broken"])
        if broken == "both":
            fields.append(("Lance", f"{attacker}'s and {defender}'s lances break on the blow", True))
        else:
            owner = {"attacker": attacker, "defender": defender}.get(broken, attacker)
            fields.append(("Lance", f"{owner}'s lance breaks on the blow", True))
    if isinstance(outcome.get("self_hit"), Mapping):
        fields.append(("Flail", f"the flail hits its wielder: {_brief(outcome['self_hit'])}", False))
    if outcome.get("experience_check"):
        fields.append(("Experience", "a notable success: the GM may grant an experience check", True))
    fields.extend(_details(outcome, used))
    numbers, brief = _pendragon_brief(outcome, names, hurt)
    return OutcomeText(headline, fields, severity, brief, numbers)


def _short_roll(roll: Any) -> str | None:
    """An opposed roll as ``14 success``."""
    if not isinstance(roll, Mapping):
        return None
    total = roll.get("total", roll.get("face"))
    return f"{_num(total)} {human(roll.get('result') or '?')}"


def _pendragon_brief(outcome: Mapping[str, Any], names: tuple[str, str],
                     hurt: str) -> tuple[str | None, list[str]]:
    """The public lines under an exchange's headline: both rolls and the damage in one line, then what the
    blow did (knockdown, major wound, hit points left, weapons lost)."""
    attacker, defender = names
    lines: list[str] = []
    rolls = [_short_roll(outcome.get("attacker_roll")), _short_roll(outcome.get("defender_roll"))]
    numbers = " vs ".join(r for r in rolls if r)
    damage = None
    if outcome.get("damage_rolled") is not None:
        damage = f"damage {outcome['damage_rolled']} \u2212 armour {_num(outcome.get('armor'))}"
        if outcome.get("critical"):
            damage = f"critical: damage {outcome['damage_rolled']} doubled \u2212 armour {_num(outcome.get('armor'))}"
    totals = joined([numbers, damage]) or None
    effects: list[str] = []
    knockdown = outcome.get("knockdown")
    if isinstance(knockdown, Mapping):
        if knockdown.get("pending"):
            effects.append("knockdown roll waits for the GM")
        elif knockdown.get("passed") is False or knockdown.get("automatic"):
            effects.append(f"{hurt} is **knocked down**")
    if outcome.get("major_wound"):
        effects.append(f"{hurt} suffers a **major wound**")
        for line in _major_wound_lines(outcome.get("major_wound_effects"), hurt):
            if "unconscious" in line or "leaves the fight" in line or "loses a point" in line:
                effects.append(f"{hurt} {line.split(' (')[0]}")
    if effects:
        lines.append(joined(effects))
    hit_points = outcome.get("hit_points")
    if outcome.get("dying") or (isinstance(hit_points, int) and hit_points <= 0):
        lines.append(f"{MORTAL_MARK} {hurt} is **dying** ({_num(hit_points)} hit points)")
    elif outcome.get("unconscious") and not any("unconscious" in e for e in effects):
        lines.append(f"{hurt} falls **unconscious** ({plural(hit_points, 'hit point')} left)")
    elif hit_points is not None and (outcome.get("damage_taken") or outcome.get("self_hit") or
                                     outcome.get("unconscious")):
        lines.append(f"{hurt}: {plural(hit_points, 'hit point')} left")
    lost = {str(item.get("who")): item for item in outcome.get("weapons_lost") or [] if isinstance(item, Mapping)}
    for key, verb in (("weapon_broken", "breaks"), ("weapon_dropped", "is dropped")):
        whose = outcome.get(key)
        if whose:
            for side in ("attacker", "defender") if str(whose) == "both" else (str(whose),):
                owner = {"attacker": attacker, "defender": defender}.get(side, text(side))
                weapon = lost.get(side, {}).get("weapon")
                lines.append(f"{owner}'s {text(weapon) if weapon else 'weapon'} {verb}")
    if outcome.get("lance_broken") and not any("lance breaks" in line for line in lines):
        # said once: a charge's broken lance is also the winner's broken weapon, named above
        lines.append("lances break" if str(outcome["lance_broken"]) == "both" else "a lance breaks")
    return totals, lines


def _pendragon_treatment(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    patient, healer = names[0], names[1] if names[1] != names[0] else None
    what = "First aid" if outcome.get("action") == "first_aid" else "Chirurgery"
    roll = outcome.get("roll")
    result = human(roll.get("result")) if isinstance(roll, Mapping) else "done"
    healed, harmed = outcome.get("healed") or 0, outcome.get("harmed") or 0
    change = f"heals **{healed}** hit point{'s' if healed != 1 else ''}" if healed else "heals nothing"
    if harmed:
        change = f"**worsens the wound by {harmed}**"
    headline = f"{what} for **{patient}**" + (f" by {healer}" if healer else "") + f": {result}, {change}."
    if outcome.get("action") == "chirurgery":
        # a week of chirurgery ends the need only once the patient is out of danger: say which
        headline += " More chirurgery is needed (another week: /heal method:chirurgy)." \
            if outcome.get("chirurgery_needed") else " No more chirurgery is needed: rest heals the rest."
    fields: list[Field] = []
    if roll is not None:
        fields.append(("Roll", _opposed(roll), True))
    if outcome.get("hit_points") is not None:
        fields.append(("Hit points", f"{patient}: {text(outcome['hit_points'])}", True))
    used = {"roll", "healed", "harmed", "hit_points", "wound_index", "events", "gm_decision", "chirurgery_needed"}
    fields.extend(_details(outcome, used))
    return OutcomeText(headline, fields, Severity.SERIOUS if harmed else Severity.LIGHT)


_REST_STOPPED = {"healed": "every wound has healed", "dying": "the patient is dying", "dead": "the patient died"}


def _pendragon_rest(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    who = names[0]
    weeks = outcome.get("weeks_counted", outcome.get("weeks"))
    healed, lost = outcome.get("healed") or 0, outcome.get("lost") or 0
    headline = f"**{who}** rests {weeks} week{'s' if weeks != 1 else ''}: heals {healed} hit point" \
               f"{'s' if healed != 1 else ''}" + (f", **loses {lost}** to deterioration (a chirurgeon is needed: "
                                                   "/heal method:chirurgy)" if lost else "") + "."
    asked, unused = outcome.get("weeks"), outcome.get("days_unused")
    stopped = _REST_STOPPED.get(str(outcome.get("stopped")))
    if stopped and isinstance(asked, int) and isinstance(weeks, int) and asked > weeks:
        headline += f" The rest stopped after {weeks} of {asked} weeks: {stopped}."
    if unused:
        headline += f" Pendragon heals by the week: the {unused} day{'s' if unused != 1 else ''} left over " \
                    "heal nothing."
    if outcome.get("chirurgery_needed") and not lost and outcome.get("wounds_left"):
        headline += " Chirurgery is still needed."
    fields: list[Field] = []
    if outcome.get("hit_points") is not None:
        fields.append(("Hit points", f"{who}: {text(outcome['hit_points'])}", True))
    if outcome.get("wounds_left") is not None:
        fields.append(("Wounds left", str(outcome["wounds_left"]), True))
    used = {"weeks", "weeks_counted", "healed", "lost", "hit_points", "wounds_left", "events", "gm_decision", "days",
            "days_unused", "stopped", "chirurgery_needed"}
    fields.extend(_details(outcome, used))
    return OutcomeText(headline, fields, Severity.SERIOUS if lost else Severity.LIGHT)


def _pendragon_rearm(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    weapon = outcome.get("weapon")
    headline = f"**{names[0]}** re-arms" + (f" with the {text(weapon)}." if weapon else ".")
    return OutcomeText(headline, _details(outcome, {"weapon", "events", "gm_decision"}), Severity.INFO)


def _pendragon_roll(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    """A knockdown, major wound or fall roll made later (the GM makes them: ``/setup rolls mode:gm``)."""
    who = names[0]
    action = str(outcome.get("action"))
    shown = {key: value for key, value in outcome.items() if key != "action"}
    if action == "major_wound":
        shown["major_wound"] = True
    words = pendragon(shown, (who, who))
    roll = outcome.get(action)
    passed = isinstance(roll, Mapping) and (roll.get("passed") is True)
    if action == "knockdown":
        headline = f"**{who}** keeps their feet." if passed else f"**{who}** is **knocked down**."
    elif action == "fall":
        headline = f"**{who}** falls gently." if passed else f"**{who}** falls hard."
    else:
        headline = f"**{who}** suffers the major wound's effects."
    return OutcomeText(headline, words.fields, words.severity if words.severity != Severity.NONE else Severity.INFO,
                       words.brief, words.numbers)


_PENDRAGON_OTHER: dict[str, Callable[[Mapping[str, Any], tuple[str, str]], OutcomeText]] = {
    "first_aid": _pendragon_treatment, "chirurgery": _pendragon_treatment, "rest": _pendragon_rest,
    "rearm": _pendragon_rearm, "knockdown": _pendragon_roll, "major_wound": _pendragon_roll, "fall": _pendragon_roll,
}


def _from_record(outcome: PendragonOutcome, names: tuple[str, str]) -> OutcomeText:
    stored = outcome.to_dict()
    if outcome.action == "gm_decide":
        return gm_decided(stored, names)
    return pendragon(stored, names)


# record type -> its words
DESCRIBERS: dict[type[Outcome], Callable[[Any, tuple[str, str]], OutcomeText]] = {
    record: _from_record for record in RECORDS.values()}
