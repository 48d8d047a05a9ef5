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
                "location_roll", "saved_points_cap", "rolled_result", "side"}


def modifiers(value: Any) -> str:
    """``{dex: 1, ability: 5, wounds: 0}`` as ``dex +1, ability +5`` (zeros left out)."""
    if not isinstance(value, Mapping):
        return ""
    return ", ".join(f"{human(k)} {signed(v)}" for k, v in value.items() if isinstance(v, int) and v)


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
            "armour", "conditions"}
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
            soak += f" (armour {outcome['armour']})"
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


_CHECK_TITLES = {"shock": "Shock", "kill": "Kill roll", "fumble": "Fumble", "stumble": "Stumble",
                 "amputation": "Amputation", "knockdown": "Knockdown", "fall": "Fall"}


# -- pendragon -----------------------------------------------------------------------------------

def _opposed(roll: Any) -> str:
    if not isinstance(roll, Mapping):
        return text(roll)
    return f"{_num(roll.get('face'))} vs {_num(roll.get('target'))}: **{human(roll.get('result') or '?')}**"


def pendragon(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    attacker, defender = names
    used = {"attacker_roll", "defender_roll", "winner", "tie", "damage_rolled", "armor", "shield_applied",
            "damage_taken", "knockdown", "major_wound", "unconscious", "hit_points", "weapon_broken",
            "weapon_dropped", "dying", "critical", "damage_dice", "unopposed", "major_wound_effects"}
    fields: list[Field] = []
    severity = Severity.NONE
    winner = outcome.get("winner")
    winner_name = {"attacker": attacker, "defender": defender}.get(str(winner))
    loser_name = {"attacker": defender, "defender": attacker}.get(str(winner))
    taken = outcome.get("damage_taken")
    if outcome.get("tie"):
        headline = "**Tie**: the blows meet and nobody is hurt."
    elif winner_name is None:
        headline = "Both miss: nobody is hurt this round." if "winner" in outcome else f"{attacker} acts."
        severity = Severity.NONE if "winner" in outcome else Severity.INFO
    elif taken:
        headline = f"**{winner_name}** wins the exchange: {loser_name} takes **{taken}** damage."
        severity = Severity.LIGHT
    else:
        headline = f"**{winner_name}** wins the exchange, but {loser_name}'s armour holds."
    if "attacker_roll" in outcome or "defender_roll" in outcome:
        fields.append((attacker, _opposed(outcome.get("attacker_roll")), True))
        fields.append((defender, _opposed(outcome.get("defender_roll")), True))
    if outcome.get("damage_rolled") is not None:
        armour = f"armour {_num(outcome.get('armor'))}"
        if outcome.get("critical"):
            armour += ", critical: double damage"
        if outcome.get("shield_applied"):
            armour += " with shield"
        dice = f" on {outcome['damage_dice']}" if outcome.get("damage_dice") else ""
        fields.append(("Damage", f"{outcome['damage_rolled']} rolled{dice} \u2212 {armour} = **{_num(taken)}**",
                       False))
    knockdown = outcome.get("knockdown")
    if knockdown is not None:
        fields.append(("Knockdown", check_line(knockdown), True))
        if isinstance(knockdown, Mapping) and knockdown.get("passed") is False:
            severity = worst(severity, Severity.SERIOUS)
            fields[-1] = ("Knockdown", fields[-1][1] + f"\n{loser_name or defender} is knocked down", True)
    if outcome.get("major_wound"):
        effects = _brief(outcome.get("major_wound_effects"))
        fields.append(("Major wound", f"{loser_name or defender} suffers a **major wound**"
                       + (f"\n{effects}" if effects else ""), False))
        severity = worst(severity, Severity.GRIEVOUS)
    if outcome.get("hit_points") is not None:
        fields.append(("Hit points", f"{loser_name or defender}: {outcome['hit_points']}", True))
    if outcome.get("dying") or (isinstance(outcome.get("hit_points"), int) and outcome["hit_points"] <= 0):
        severity = Severity.MORTAL
        fields.append(("Dying", f"{loser_name or defender} is **dying**", True))
    if outcome.get("unconscious"):
        fields.append(("Unconscious", f"{loser_name or defender} falls **unconscious**", True))
        severity = worst(severity, Severity.GRIEVOUS)
    for key, verb in (("weapon_broken", "breaks"), ("weapon_dropped", "is dropped")):
        whose = outcome.get(key)
        if whose:
            owner = {"attacker": attacker, "defender": defender}.get(str(whose), text(whose))
            fields.append((title(key), f"{owner}'s weapon {verb}", True))
            severity = worst(severity, Severity.LIGHT)
    fields.extend(_details(outcome, used))
    return OutcomeText(headline, fields, severity)


# -- fading-suns ---------------------------------------------------------------------------------

_FS_SEVERITY = {"minor": Severity.LIGHT, "major": Severity.SERIOUS, "grievous": Severity.GRIEVOUS,
                "crippled": Severity.MORTAL}
_FS_EFFECT = {"stun": Severity.SERIOUS, "unconscious": Severity.GRIEVOUS, "death": Severity.MORTAL}


def fading_suns(outcome: Mapping[str, Any], names: tuple[str, str]) -> OutcomeText:
    attacker, defender = names
    used = {"goal", "roll", "success", "critical", "victory_points", "location", "armor", "damage", "severity",
            "effect_roll", "effect", "penalties"}
    fields: list[Field] = []
    wound = outcome.get("severity")
    severity = _FS_SEVERITY.get(str(wound), Severity.NONE)
    if outcome.get("success") is False:
        headline = f"**Miss**: {attacker} fails the goal roll."
    elif wound:
        headline = (f"**Hit** on {defender}'s **{text(outcome.get('location'))}**: a **{human(wound)}** wound "
                    f"({_num(outcome.get('damage'))} damage).")
    elif outcome.get("location") is not None:
        headline = f"**Hit** on {defender}'s **{text(outcome.get('location'))}**, but the armour takes it all."
        severity = Severity.LIGHT if outcome.get("damage") else Severity.NONE
    else:
        headline = f"{attacker} acts."
        severity = Severity.INFO
    if "roll" in outcome or "goal" in outcome:
        line = f"{_num(outcome.get('roll'))} vs goal {_num(outcome.get('goal'))}"
        if outcome.get("critical"):
            line += ": **critical**"
        elif outcome.get("success") is not None:
            line += ": **success**" if outcome.get("success") else ": **failure**"
        if outcome.get("victory_points"):
            line += f", {outcome['victory_points']} victory points"
        fields.append(("Goal roll", line, True))
    if outcome.get("damage") is not None:
        fields.append(("Damage", f"armour {_num(outcome.get('armor'))}, final **{outcome['damage']}**", True))
    if outcome.get("effect_roll") is not None:
        fields.append(("Effect roll", check_line(outcome["effect_roll"]), True))
    effect = outcome.get("effect")
    if effect and effect != "none":
        fields.append(("Effect", f"{defender} is **{human(effect)}**", True))
        severity = worst(severity, _FS_EFFECT.get(str(effect), Severity.SERIOUS))
    penalties = outcome.get("penalties")
    if isinstance(penalties, Mapping) and any(penalties.values()):
        shown = ", ".join(f"{human(k)} {signed(v) if isinstance(v, int) else text(v)}" for k, v in penalties.items())
        fields.append(("Penalties", f"{defender}: {shown}", True))
    fields.extend(_details(outcome, used))
    return OutcomeText(headline, fields, severity)


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
        return SYSTEMS.get(system, generic)(outcome, names)
    except Exception:  # a surprising outcome shape must not lose a result that is already saved
        log.exception("cannot word a %s outcome; listing its fields", system)
        return generic(outcome, names)
