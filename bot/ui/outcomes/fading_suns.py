"""Fading Suns outcomes as words: goal rolls, defences, wounds and their effects, healing, rest."""

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
    human,
    joined,
    signed,
    text,
    worst,
)

_FS_SEVERITY = {"minor": Severity.LIGHT, "major": Severity.SERIOUS, "grievous": Severity.GRIEVOUS,
                "crippled": Severity.MORTAL}
_FS_EFFECT = {"stun": Severity.SERIOUS, "unconscious": Severity.GRIEVOUS, "death": Severity.MORTAL}
_FS_EFFECT_WORDS = {"stun": "**stunned**", "unconscious": "knocked **unconscious**", "death": "**killed**",
                    "pending": "waiting for the effect roll"}
_FS_COLUMNS = {"stun": "STUN", "stun_uncon": "STUN/UNCON", "uncon_death": "UNCON/DEATH", "death": "DEATH",
               "stumble": "STUMBLE", "fumble": "FUMBLE"}


def _fs_goal(roll: Mapping[str, Any]) -> str:
    """A goal roll ``{roll, goal, result, victory_points, modifiers}`` as ``7 vs goal 11: success, 2 VP``."""
    line = f"{_num(roll.get('roll'))} vs goal {_num(roll.get('goal'))}"
    if roll.get("result"):
        line += f": **{human(roll['result'])}**"
    if roll.get("victory_points"):
        line += f", {roll['victory_points']} VP"
    parts = roll.get("modifiers")
    if isinstance(parts, Mapping) and parts:
        shown = [f"{human(k)} {v if v >= 0 else signed(v)}" for k, v in parts.items() if isinstance(v, int) and v]
        line += f" ({', '.join(shown)})" if shown else ""
    return line


def _fs_side(names: tuple[str, str], side: Any) -> str:
    return {"attacker": names[0], "defender": names[1]}.get(str(side), text(side))


def _fs_per_side(value: Any, names: tuple[str, str], default_side: str) -> list[tuple[str, Any]]:
    """``{attacker: [...], defender: [...]}`` or a plain list (the acting side's) as (name, items) pairs."""
    if isinstance(value, Mapping):
        return [(_fs_side(names, side), items) for side, items in value.items() if items]
    return [(_fs_side(names, default_side), value)] if value else []


def _fs_checks(outcome: Mapping[str, Any], names: tuple[str, str]) -> list[Field]:
    fields: list[Field] = []
    for check in outcome.get("checks") or []:
        if not isinstance(check, Mapping):
            continue
        who = _fs_side(names, check.get("who"))
        name = _FS_COLUMNS.get(str(check.get("check")), human(check.get("check")))
        if check.get("roll") is None:
            fields.append((name, f"{who}: {human(check.get('note') or 'not rolled')}", True))
            continue
        line = f"{who}: {_fs_goal(check)}"
        consequences = [human(c) for c in check.get("consequences") or []]
        if consequences:
            line += f" \u2192 {', '.join(consequences)}"
        fields.append((name, line, True))
    return fields


def _fs_effect_fields(outcome: Mapping[str, Any], defender: str) -> tuple[list[Field], Severity]:
    fields: list[Field] = []
    severity = Severity.NONE
    roll = outcome.get("effect_roll")
    effect = outcome.get("effect")
    if isinstance(roll, Mapping):
        column = _FS_COLUMNS.get(str(roll.get("column")), human(roll.get("column")))
        result = human(roll.get("effect") or effect or "none")
        fields.append((f"{column} roll (2 \u00d7 END)", f"{_num(roll.get('roll'))} vs {_num(roll.get('goal'))}: "
                       f"**{human(roll.get('result') or '?')}** \u2192 "
                       + ("no effect" if result == "none" else result), True))
    if effect and effect != "none":
        words = _FS_EFFECT_WORDS.get(str(effect), human(effect))
        if effect == "death" and outcome.get("gm_decision"):
            words = "**dying**: the GM confirms death or spares them"
        fields.append(("Effect", f"{defender} is {words}", True))
        severity = _FS_EFFECT.get(str(effect), Severity.SERIOUS)
    return fields, severity


def _fs_penalties(outcome: Mapping[str, Any], who: str) -> list[Field]:
    penalties = outcome.get("penalties")
    if not isinstance(penalties, Mapping) or not any(penalties.values()):
        return []
    shown = ", ".join(f"{human(k)} {signed(v) if isinstance(v, int) else text(v)}" for k, v in penalties.items() if v)
    return [("Wound penalties", f"{who}: {shown}", True)]


def fading_suns(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    if outcome.get("action") in _FS_OTHER:
        return _FS_OTHER[str(outcome["action"])](outcome, names)
    attacker, defender = names
    used = {"goal", "roll", "result", "success", "critical", "victory_points", "victory_dice", "modifiers", "defense",
            "defense_from", "no_defense", "defended", "hit", "net_victory_points", "location", "aimed", "base",
            "bonus", "damage_before_armor",
            "shield", "armor", "armor_rating", "armor_pieces", "damage", "damage_type", "severity", "wound",
            "wound_roll", "effect_roll", "effect", "stumble_roll", "fumble_roll", "checks", "conditions", "dropped",
            "penalties", "weapon", "mode", "column", "attacker", "defender"}
    fields: list[Field] = []
    wound = outcome.get("severity")
    severity = _FS_SEVERITY.get(str(wound), Severity.NONE)
    location = text(outcome.get("location")) if outcome.get("location") else None
    defense = outcome.get("defense") if isinstance(outcome.get("defense"), Mapping) else None
    if outcome.get("success") is False:
        headline = f"**Miss**: {attacker}'s attack fails."
        if outcome.get("result") == "critical_failure":
            headline = f"**Critical failure**: {attacker}'s attack goes badly wrong."
    elif outcome.get("defended"):
        headline = f"**{defender}** {_fs_defends(defense) if defense else 'turns aside'} the attack."
    elif wound:
        headline = f"**Hit** on {defender}'s **{location}**: a **{human(wound)}** wound."
    elif location is not None:
        headline = f"**Hit** on {defender}'s **{location}**, but nothing gets through."
        severity = Severity.NONE
    else:
        headline = f"{attacker} acts."
        severity = Severity.INFO
    if "roll" in outcome or "goal" in outcome:
        weapon = outcome.get("weapon")
        fields.append((f"Goal roll ({text(weapon)})" if weapon else "Goal roll", _fs_goal(outcome), False))
    if defense is not None:
        line = f"{defender} {_fs_defends(defense)}: {_fs_goal(defense)}"
        if outcome.get("net_victory_points") is not None and not outcome.get("defended"):
            line += f"\n{outcome['net_victory_points']} VP get through"
        where = _DEFENCE_FROM.get(str(outcome.get("defense_from")))
        if where:
            line += f"\n{where}"
        fields.append(("Defence", line, False))
    elif outcome.get("no_defense") and outcome.get("hit"):
        fields.append(("Defence", f"{defender} makes none: "
                       f"{_NO_DEFENCE.get(str(outcome['no_defense']), human(outcome['no_defense']))}", False))
    if outcome.get("damage") is not None and outcome.get("hit"):
        base, bonus = outcome.get("base"), outcome.get("bonus")
        line = f"{_num(base)} + {_num(bonus)} VP = {_num(outcome.get('damage_before_armor'))}"
        shield = outcome.get("shield")
        if isinstance(shield, Mapping) and shield.get("activated"):
            line += f" \u2212 {text(shield.get('name'))} shield {_num(shield.get('absorbed'))}" \
                    f" ({_num(shield.get('hits_left'))} hits left)"
        pieces = outcome.get("armor_pieces")
        armour = f" \u2212 armour {_num(outcome.get('armor'))}" + (f" ({text(pieces)})" if pieces else "")
        line += armour + f" = **{outcome['damage']}**"
        if outcome.get("damage_type"):
            line += f" {human(outcome['damage_type'])}"
        fields.append(("Damage", line, False))
    if wound:
        fields.append(("Wound", f"**{human(wound)}** on the {location} (wound `{_num(outcome.get('wound'))}`)", True))
    effect_fields, effect_severity = _fs_effect_fields(outcome, defender)
    fields.extend(effect_fields)
    severity = worst(severity, effect_severity)
    fields.extend(_fs_checks(outcome, names))
    for who, items in _fs_per_side(outcome.get("conditions"), names, "defender"):
        fields.append(("Condition", f"{who}: {text(items)}", True))
    for who, items in _fs_per_side(outcome.get("dropped"), names, "defender"):
        fields.append(("Dropped", f"{who} drops the {text(items)}", True))
    fields.extend(_fs_penalties(outcome, defender))
    fields.extend(_details(outcome, used))
    numbers, brief = _fs_brief(outcome, names)
    return OutcomeText(headline, fields, severity, brief, numbers)


# Who chose the defence (the defender's side does: the attack named it only if its caller controls the target).
_DEFENCE_FROM = {"attack": "chosen for the defender's side", "sheet": "the defence on the target's sheet",
                 "ruling": "no defence named: a dodge (ruling unnamed_defense)",
                 "sheet_fallback": "the sheet's defence cannot meet this attack: a dodge instead",
                 "ruling_fallback": "a dodge"}
_NO_DEFENCE = {"none_chosen": "its side chose none", "stunned": "stunned", "unconscious": "unconscious",
               "dying": "dying", "dead": "dead"}

_FS_DEFENCE_VERBS = {"dodge": "dodges", "parry": "parries", "block": "blocks"}


def _fs_defends(defense: Mapping[str, Any]) -> str:
    """``dodges``, ``parries``: the defence's verb, third person."""
    kind = str(defense.get("kind") or "")
    return _FS_DEFENCE_VERBS.get(kind) or (f"{human(kind)}s" if kind else "defends")


_CONSEQUENCES = {"prone": "falls prone", "drop_weapon": "drops the weapon"}


def _fs_brief(outcome: Mapping[str, Any], names: tuple[str, str]) -> tuple[str | None, list[str]]:
    """The public lines under an attack's headline: goal roll, defence and damage in one line, then the wound's
    effect, the checks' consequences, conditions and dropped weapons."""
    defender = names[1]
    lines: list[str] = []
    parts: list[str | None] = []
    if outcome.get("roll") is not None:
        goal = f"{_num(outcome.get('roll'))} vs {_num(outcome.get('goal'))}"
        vp = outcome.get("victory_points")
        parts.append(f"{goal}: {human(outcome.get('result') or '?')}" + (f", {vp} VP" if vp else ""))
    defense = outcome.get("defense")
    if isinstance(defense, Mapping) and defense.get("roll") is not None:
        parts.append(f"{human(defense.get('kind') or 'defence')} {_num(defense.get('roll'))} vs "
                     f"{_num(defense.get('goal'))}")
    if outcome.get("damage") is not None and outcome.get("hit"):
        parts.append(f"damage {_num(outcome.get('damage_before_armor'))} \u2212 armour {_num(outcome.get('armor'))}")
    numbers = joined(parts) or None
    effect = outcome.get("effect")
    if effect and effect != "none":
        if effect == "death" and outcome.get("gm_decision"):
            lines.append(f"{MORTAL_MARK} {defender} is **dying**")  # the waiting line says what the GM decides
        else:
            lines.append(f"{defender} is {_FS_EFFECT_WORDS.get(str(effect), human(effect))}")
    for check in outcome.get("checks") or []:
        if isinstance(check, Mapping) and check.get("consequences"):
            who = _fs_side(names, check.get("who"))
            name = _FS_COLUMNS.get(str(check.get("check")), human(check.get("check")))
            # a dropped weapon is named on its own line below: said once
            said = [_CONSEQUENCES.get(str(c), human(c)) for c in check["consequences"]
                    if not (c == "drop_weapon" and outcome.get("dropped"))]
            lines.append(f"{name}: {who} {', '.join(said)}" if said else f"{name} failed")
    for who, items in _fs_per_side(outcome.get("dropped"), names, "defender"):
        lines.append(f"{who} drops the {text(items)}")
    return numbers, lines


def _fs_heal(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    healer, patient = names
    skill = human(outcome.get("skill") or "treatment").title()
    wound = outcome.get("severity")
    whose = "their own" if healer == patient else f"{patient}'s"
    result = human(outcome.get("result") or "?")
    headline = f"{healer} treats {whose} {human(wound) + ' ' if wound else ''}wound `{_num(outcome.get('wound'))}` " \
               f"with {skill}: **{result}**."
    fields: list[Field] = [(f"{skill} roll", _fs_goal(outcome), False)]
    if outcome.get("treated"):
        days = outcome.get("days_credited")
        fields.append(("Treated", "the wound heals faster" + (f"; {days} day{'s' if days != 1 else ''} of healing "
                                                               "credited" if days else ""), True))
    fields.extend(_fs_penalties(outcome, patient))
    used = {"skill", "wound", "severity", "roll", "goal", "result", "success", "critical", "victory_points",
            "victory_dice", "modifiers", "treated", "days_credited", "progress", "penalties"}
    fields.extend(_details(outcome, used))
    return OutcomeText(headline, fields, Severity.LIGHT if outcome.get("success") else Severity.SERIOUS)


def _fs_rest(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    who = names[0]
    days = outcome.get("days")
    lines = []
    for step in outcome.get("healed") or []:
        if isinstance(step, Mapping):
            after = f"mends to {human(step['to'])}" if step.get("to") else "heals"
            lines.append(f"wound `{_num(step.get('wound'))}` ({human(step.get('from'))}) {after}")
    fields: list[Field] = [("Healing", "\n".join(lines) or "no wound mends yet", False)]
    left = [w for w in outcome.get("wounds") or [] if isinstance(w, Mapping)]
    if left:
        fields.append(("Wounds left", ", ".join(f"`{w.get('index')}` {text(w.get('location'))} "
                                                 f"{human(w.get('severity'))}" for w in left), False))
    if outcome.get("conditions_cleared"):
        fields.append(("Recovered", text(outcome["conditions_cleared"]), True))
    fields.extend(_fs_penalties(outcome, who))
    fields.extend(_details(outcome, {"days", "healed", "wounds", "conditions_cleared", "penalties"}))
    return OutcomeText(f"**{who}** rests {days} day{'s' if days != 1 else ''}.", fields, Severity.LIGHT)


def _fs_recover(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    who = names[0]
    picked = outcome.get("picked_up") or []
    cleared = outcome.get("cleared") or []
    if picked:
        headline = f"**{who}** picks up the {text(picked)}."
    elif cleared:
        headline = f"**{who}** is no longer {text(cleared)}."
    else:
        headline = f"**{who}** has nothing to recover from."
    fields: list[Field] = []
    if outcome.get("conditions"):
        fields.append(("Condition", f"{who}: {text(outcome['conditions'])}", True))
    fields.extend(_details(outcome, {"condition", "cleared", "picked_up", "conditions", "penalties"}))
    return OutcomeText(headline, fields, Severity.INFO)


def _fs_effect(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    who = names[0]
    fields, severity = _fs_effect_fields(outcome, who)
    fields.extend(_fs_checks(outcome, (who, who)))
    effect = outcome.get("effect")
    headline = f"**{who}** rolls for the wound's effect: " + (
        "no effect." if not effect or effect == "none" else
        "a deadly wound, for the GM to confirm." if effect == "death" and outcome.get("gm_decision") else
        f"{_FS_EFFECT_WORDS.get(str(effect), human(effect))}.")
    for person, items in _fs_per_side(outcome.get("conditions"), (who, who), "attacker"):
        fields.append(("Condition", f"{person}: {text(items)}", True))
    fields.extend(_fs_penalties(outcome, who))
    used = {"resolved", "effect_roll", "effect", "stumble_roll", "fumble_roll", "checks", "conditions", "dropped",
            "penalties", "gm_decision"}
    fields.extend(_details(outcome, used))
    brief = []
    numbers = None
    roll = outcome.get("effect_roll")
    if isinstance(roll, Mapping):
        column = _FS_COLUMNS.get(str(roll.get("column")), human(roll.get("column")))
        numbers = f"{column} roll {_num(roll.get('roll'))} vs {_num(roll.get('goal'))}: " \
                  f"{human(roll.get('result') or '?')}"
    if effect == "death" and outcome.get("gm_decision"):
        brief.append(f"{MORTAL_MARK} {who} is **dying**")
    brief += _fs_brief({k: outcome.get(k) for k in ("checks", "dropped")}, (who, who))[1]
    return OutcomeText(headline, fields, severity or Severity.INFO, brief, numbers)


_FS_OTHER: dict[str, Callable[[Mapping[str, Any], tuple[str, str]], OutcomeText]] = {
    "heal": _fs_heal, "rest": _fs_rest, "recover": _fs_recover, "effect": _fs_effect,
}

