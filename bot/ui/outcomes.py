"""Engine outcome dicts as words: a headline, fields and a severity, per system.

Part of the embed wording (bot/ui/embeds.py builds the embeds from these). Every reader here is
defensive: an engine may add fields or leave some out, and nothing in this module may raise on a
shape it does not know; unknown fields are listed under "Details" rather than lost.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

log = logging.getLogger(__name__)


class Severity(Enum):
    """How bad a result is, ranked, with the embed colour it gets."""

    INFO = (0, 0x3498DB)
    NONE = (1, 0x95A5A6)
    LIGHT = (2, 0x2ECC71)
    SERIOUS = (3, 0xE67E22)
    GRIEVOUS = (4, 0xE74C3C)
    MORTAL = (5, 0x992D22)

    @property
    def rank(self) -> int:
        return self.value[0]

    @property
    def colour(self) -> int:
        return self.value[1]


def worst(*levels: Severity) -> Severity:
    return max(levels, key=lambda s: s.rank)


Field = tuple[str, str, bool]


@dataclass
class OutcomeText:
    headline: str
    fields: list[Field] = field(default_factory=list)
    severity: Severity = Severity.NONE


# -- small readers ------------------------------------------------------------------------------

def human(name: Any) -> str:
    """``weapon_dropped`` -> ``weapon dropped``."""
    return str(name).replace("_", " ").replace("-", " ").strip()


def title(name: Any) -> str:
    text = human(name)
    return text[:1].upper() + text[1:]


def text(value: Any) -> str:
    """Any JSON value as short plain text."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return signed(value) if isinstance(value, int) and value < 0 else f"{value:g}"
    if isinstance(value, str):
        return human(value) if value.isidentifier() else value
    if isinstance(value, Mapping):
        return ", ".join(f"{human(k)} {text(v)}" for k, v in value.items()) or "none"
    if isinstance(value, Sequence):
        return ", ".join(text(v) for v in value) or "none"
    return str(value)


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"\u2212{-value}" if value < 0 else "0")


def _get(mapping: Any, key: str, default: Any = None) -> Any:
    return mapping.get(key, default) if isinstance(mapping, Mapping) else default


def _num(value: Any) -> str:
    return text(value) if value is not None else "?"


def check_line(check: Any) -> str:
    """A {total, ease_factor|target, passed|result} check as ``12 vs 9: passed``."""
    if not isinstance(check, Mapping):
        return text(check)
    total = check.get("total", check.get("roll"))
    against = check.get("ease_factor", check.get("target", check.get("goal")))
    line = _num(total)
    if against is not None:
        line += f" vs {_num(against)}"
    if "passed" in check and check["passed"] is not None:
        line += ": **passed**" if check["passed"] else ": **failed**"
    elif check.get("result"):
        line += f": **{human(check['result'])}**"
    elif "passed" in check:
        line += ": waiting for the GM"
    return line


def roll_line(roll: Mapping[str, Any]) -> str:
    """One roll of ``Resolution.rolls`` as ``attack stress [1, 4] = 8 (exploded)``."""
    faces = roll.get("faces") or []
    shown = ", ".join(str(f) for f in faces)
    line = f"`{roll.get('label', '?')}` {roll.get('kind', '')} [{shown}] = **{roll.get('total')}**"
    if roll.get("target") is not None:
        line += f" vs {roll['target']}"
    if roll.get("result"):
        line += f" {human(roll['result'])}"
    if roll.get("victory_points"):
        line += f", {roll['victory_points']} VP"
    flags = [human(f) for f in roll.get("flags") or [] if f != "botch"]
    if roll.get("botches"):
        flags.append(f"{roll['botches']} botch{'es' if roll['botches'] != 1 else ''}")
    if flags:
        line += f" ({', '.join(flags)})"
    return line


def rolls_value(rolls: Sequence[Any], limit: int = 1000) -> str:
    """All roll lines, cut at a line boundary with a count of those left out."""
    lines = [roll_line(r) for r in rolls if isinstance(r, Mapping)]
    out: list[str] = []
    used = 0
    for number, line in enumerate(lines):
        if used + len(line) + 1 > limit - 24:
            out.append(f"\u2026 and {len(lines) - number} more")
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out) or "no dice rolled"


def _brief(value: Any) -> str | None:
    """A leftover value worth showing, or None: false, empty and all-zero values say nothing."""
    if value is None or value is False or value == [] or value == {} or value == "":
        return None
    if isinstance(value, Mapping):
        shown = {k: v for k, v in value.items() if _brief(v) is not None and v != 0}
        return text(shown) if shown else None
    return text(value)


def _details(outcome: Mapping[str, Any], used: set[str]) -> list[Field]:
    lines = []
    for key, value in outcome.items():
        if key in used or key in _NEVER_SHOWN:
            continue
        shown = _brief(value)
        if shown is not None:
            lines.append(f"{title(key)}: {shown}")
    return [("Details", "\n".join(lines), False)] if lines else []


# Bookkeeping fields the engines return that a player does not need to read.
_NEVER_SHOWN = {"gm_decision", "attacker", "defender", "rolls", "system", "action", "pending", "events", "loser",
                "wound_index", "damage_roll_total", "attack_die", "defense_die", "declared_aim", "defense_rolled",
                "location_roll", "saved_points_cap", "rolled_result", "side", "who", "name", "character",
                "hit_points_after", "decisions", "gm_decisions", "weapons_lost", "pending_rolls", "deadline",
                "decision", "choice", "kind", "healer", "patient"}


def modifiers(value: Any) -> str:
    """``{dex: 1, ability: 5, wounds: 0}`` as ``dex +1, ability +5`` (zeros left out)."""
    if not isinstance(value, Mapping):
        return ""
    return ", ".join(f"{human(k)} {signed(v)}" for k, v in value.items() if isinstance(v, int) and v)


# -- GM decisions ---------------------------------------------------------------------------------

# (decision kind, choice) -> what happens to the character, as a sentence ending.
_DECISION_WORDS = {
    ("kill", "death"): "dies", ("kill", "incapacitation"): "lives, but is **incapacitated**",
    ("dying", "death"): "dies", ("dying", "survival"): "survives, at 1 hit point",
    ("death", "death"): "dies", ("death", "unconscious"): "survives, **unconscious**",
    ("experience_check", "approve"): "earns an experience check",
    ("experience_check", "deny"): "earns no experience check",
    ("fall_damage", "none"): "lands without harm",
}
_DECISION_CHOICES = {"death": "dies", "incapacitation": "is **incapacitated**", "survival": "survives",
                     "unconscious": "is **unconscious**", "approve": "is approved", "deny": "is denied"}


def decision_words(kind: Any, choice: Any, who: str) -> str:
    """A GM decision as a sentence: ``**Bandit 1** dies.``"""
    verb = _DECISION_WORDS.get((str(kind), str(choice))) or _DECISION_CHOICES.get(str(choice))
    if verb is None:
        return f"The GM chose **{human(choice)}** for {who}."
    return f"**{who}** {verb}."


def _decision_severity(choice: Any) -> Severity:
    return Severity.MORTAL if str(choice) == "death" else Severity.GRIEVOUS if str(choice) in (
        "incapacitation", "unconscious") else Severity.INFO


def gm_decided(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    """The "gm_decide" action of any system (each names the kind and the choice a little differently)."""
    who = names[0]
    choice = outcome.get("choice") or outcome.get("decision")
    kind = outcome.get("kind") or (outcome.get("decision") if "choice" in outcome else None)
    fields: list[Field] = []
    conditions = outcome.get("conditions")
    if isinstance(conditions, Mapping):
        conditions = conditions.get(str(outcome.get("who") or "attacker"))
    if conditions:
        fields.append(("Condition", f"{who}: {text(conditions)}", True))
    if outcome.get("hit_points") is not None:
        fields.append(("Hit points", f"{who}: {text(outcome['hit_points'])}", True))
    used = {"conditions", "hit_points", "wound", "penalties", "events", "gm_decision", "skill", "amount"}
    fields.extend(_details(outcome, used))
    return OutcomeText(decision_words(kind, choice, who), fields, _decision_severity(choice))


# -- ars-harn ------------------------------------------------------------------------------------

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
        parts.append(f"{levels} injury level{'s' if levels != 1 else ''}")
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
            "armour", "conditions", "armour_pieces"}
    if outcome.get("action") in _ARS_OTHER:
        return _ARS_OTHER[str(outcome["action"])](outcome, names)
    fields: list[Field] = []
    severity = Severity.NONE
    injury_text, injury_level = _ars_injury(outcome.get("injury"))
    location = " ".join(text(p) for p in (outcome.get("side"), outcome.get("location")) if p) or None
    hit = outcome.get("hit")
    if hit is False:
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
    if "attack_total" in outcome or "defense_total" in outcome:
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
        fields.append(("Injury", injury_text + (f"\n{defender} now has {total} injury levels" if total is not None
                                                else ""), False))
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
    advantage = outcome.get("tactical_advantage")
    if advantage:
        side = outcome.get("tactical_advantage_for") or (advantage if isinstance(advantage, str) else "defender")
        who = {"attacker": attacker, "defender": defender}.get(str(side), side)
        fields.append(("Tactical advantage", f"{text(who)} gains a tactical advantage", False))
    fields.extend(_details(outcome, used))
    return OutcomeText(headline, fields, severity)


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
            fields.append(("Healing rate", str(outcome["healing_rate"]), True))
    if outcome.get("bleeding_stopped"):
        fields.append(("Bleeding", "stopped", True))
    if outcome.get("injury_levels") is not None:
        fields.append(("Injury levels", f"{patient}: {outcome['injury_levels']}", True))
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
        fields.append(("Injury levels", f"{who}: {outcome['injury_levels']}", True))
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


# -- pendragon -----------------------------------------------------------------------------------

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
            "weapon_dropped", "dying", "critical", "damage_dice", "unopposed", "major_wound_effects", "fall",
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
        headline += f" {defender} could not fight back."
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
                               "they must re-arm (/rearm)", True))
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
    return OutcomeText(headline, fields, severity)


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
    fields: list[Field] = []
    if roll is not None:
        fields.append(("Roll", _opposed(roll), True))
    if outcome.get("hit_points") is not None:
        fields.append(("Hit points", f"{patient}: {text(outcome['hit_points'])}", True))
    used = {"roll", "healed", "harmed", "hit_points", "wound_index", "events", "gm_decision"}
    fields.extend(_details(outcome, used))
    return OutcomeText(headline, fields, Severity.SERIOUS if harmed else Severity.LIGHT)


def _pendragon_rest(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    who = names[0]
    weeks = outcome.get("weeks_counted", outcome.get("weeks"))
    healed, lost = outcome.get("healed") or 0, outcome.get("lost") or 0
    headline = f"**{who}** rests {weeks} week{'s' if weeks != 1 else ''}: heals {healed} hit point" \
               f"{'s' if healed != 1 else ''}" + (f", **loses {lost}** to deterioration (a chirurgeon is needed: "
                                                   "/heal method:chirurgy)" if lost else "") + "."
    fields: list[Field] = []
    if outcome.get("hit_points") is not None:
        fields.append(("Hit points", f"{who}: {text(outcome['hit_points'])}", True))
    if outcome.get("wounds_left") is not None:
        fields.append(("Wounds left", str(outcome["wounds_left"]), True))
    used = {"weeks", "weeks_counted", "healed", "lost", "hit_points", "wounds_left", "events", "gm_decision"}
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
    return OutcomeText(headline, words.fields, words.severity if words.severity != Severity.NONE else Severity.INFO)


_PENDRAGON_OTHER: dict[str, Callable[[Mapping[str, Any], tuple[str, str]], OutcomeText]] = {
    "first_aid": _pendragon_treatment, "chirurgery": _pendragon_treatment, "rest": _pendragon_rest,
    "rearm": _pendragon_rearm, "knockdown": _pendragon_roll, "major_wound": _pendragon_roll, "fall": _pendragon_roll,
}


# -- fading-suns ---------------------------------------------------------------------------------

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
            "defended", "hit", "net_victory_points", "location", "aimed", "base", "bonus", "damage_before_armor",
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
        how = {"dodge": "dodges", "parry": "parries"}.get(str(defense.get("kind")) if defense else "", "turns aside")
        headline = f"**{defender}** {how} the attack."
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
        kind = human(defense.get("kind") or "defence")
        line = f"{defender} {kind}s: {_fs_goal(defense)}"
        if outcome.get("net_victory_points") is not None and not outcome.get("defended"):
            line += f"\n{outcome['net_victory_points']} VP get through"
        fields.append(("Defence", line, False))
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
    return OutcomeText(headline, fields, severity)


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
    return OutcomeText(headline, fields, severity or Severity.INFO)


_FS_OTHER: dict[str, Callable[[Mapping[str, Any], tuple[str, str]], OutcomeText]] = {
    "heal": _fs_heal, "rest": _fs_rest, "recover": _fs_recover, "effect": _fs_effect,
}


def generic(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    return OutcomeText(f"{names[0]} acts.", _details(outcome, set()), Severity.INFO)


SYSTEMS: dict[str, Callable[[Mapping[str, Any], tuple[str, str]], OutcomeText]] = {
    "ars-harn": ars_harn,
    "pendragon": pendragon,
    "fading-suns": fading_suns,
}


def describe(system: str, outcome: Any, names: tuple[str, str]) -> OutcomeText:
    """Words for ``outcome``; an unexpected shape falls back to listing its fields."""
    if not isinstance(outcome, Mapping):
        return OutcomeText(f"{names[0]} acts.", [], Severity.INFO)
    try:
        if outcome.get("action") == "gm_decide":
            return gm_decided(outcome, names)
        return SYSTEMS.get(system, generic)(outcome, names)
    except Exception:  # a surprising outcome shape must not lose a result that is already saved
        log.exception("cannot word a %s outcome; listing its fields", system)
        return generic(outcome, names)
