"""Every lasting state a Pendragon character can be put in, and what ends it (docs/rules/pendragon.md, "Ways out").

Standing up or remounting takes the round; so does re-arming ("must re-arm himself before he can attack
again"). A knight out cold wakes, or one who left the fight comes back, at the GM's word. Between fights each
costs nothing, and a broken weapon is replaced (in a fight only under ``replace_broken_in_fight``).
"""

from __future__ import annotations

from typing import Any

from rules.errors import IllegalAction
from rules.model import WayOut
from rules.pendragon.character import Character
from rules.pendragon.context import Ctx
from rules.pendragon.options import Options
from rules.pendragon.outcomes import ConditionOutcome, EndFightOutcome

# what each action takes besides "type" (the engine's ACTIONS table lists them)
END_FIGHT_OPTIONS: tuple[str, ...] = ()
CONDITION_OPTIONS: tuple[str, ...] = ("add", "remove")


def ways_out(char: Character, in_fight: bool) -> tuple[WayOut, ...]:
    if char.dead or char.dying:
        return ()
    cost = "action" if in_fight else "free"
    out: list[WayOut] = []
    if char.prone:
        out.append(WayOut("prone", {"type": "stand"}, cost))
    if char.horse is not None and not char.mounted:
        out.append(WayOut("unhorsed", {"type": "stand", "mount": True}, cost))
    if char.unconscious:
        out.append(WayOut("unconscious", {"type": "gm_decide", "kind": "wake"}, "gm"))
    if char.out_of_fight:
        out.append(WayOut("out_of_fight", {"type": "gm_decide", "kind": "rejoin"}, "gm"))
    for name in char.dropped_weapons:
        out.append(WayOut("dropped", {"type": "rearm", "weapon": name}, cost, name))
    for name in char.broken_weapons:
        out.append(WayOut("broken", {"type": "rearm", "weapon": name, "replace": True, "in_fight": in_fight},
                          cost, name))
    if char.must_rearm:
        taken = set(char.dropped_weapons) | set(char.broken_weapons)
        for weapon in char.weapons:
            if weapon.name not in taken:
                out.append(WayOut("not_in_hand", {"type": "rearm", "weapon": weapon.name}, cost, weapon.name))
    return tuple(out)


def end_fight(ctx: Ctx, char: Character, action: Any) -> tuple[EndFightOutcome, Character]:
    """What lasts only for a fight ends with it: the fallen get up, a knight who left the fight is back, and
    dropped weapons are gathered (ruling ``weapons_gathered``). Wounds, unconsciousness, a broken weapon and
    being on foot stay (a horse is remounted, a weapon replaced, with /recover and /ready)."""
    Options(action, "end_fight", END_FIGHT_OPTIONS)
    # the unconscious, the dying and the dead do not get up: they stay where they fell (issue 34, P4)
    down = char.unconscious or char.dying or char.dead
    ended = [flag for flag in ("prone", "out_of_fight") if getattr(char, flag) and not (flag == "prone" and down)]
    gathered = list(char.dropped_weapons) if ctx.rulings.flag("weapons_gathered") else []
    wielding = char.wielding
    if gathered and (wielding is None or wielding in char.broken_weapons):
        wielding = gathered[0]
    must_rearm = char.must_rearm and (wielding is None or wielding in char.broken_weapons)
    char = char.with_(prone=char.prone and down, out_of_fight=False, wielding=wielding, must_rearm=must_rearm,
                      dropped_weapons=tuple(w for w in char.dropped_weapons if w not in gathered))
    return EndFightOutcome(ended=tuple(ended), gathered=tuple(gathered)), char


# The states the GM may set or clear by hand (``condition``), as the sheet's flags name them.
GM_CONDITIONS = ("prone", "mounted", "unconscious", "dying", "dead", "out_of_fight", "must_rearm",
                 "chirurgery_needed")


def set_conditions(ctx: Ctx, char: Character, action: Any) -> tuple[ConditionOutcome, Character]:
    """The GM's word: set (``add``) or clear (``remove``) sheet states by name."""
    opts = Options(action, "condition", CONDITION_OPTIONS)
    changes: dict[str, bool] = {}
    for option, on in (("add", True), ("remove", False)):
        for name in opts.names(option):
            if name not in GM_CONDITIONS:
                raise IllegalAction(f"'{name}' is not a Pendragon condition (conditions: {', '.join(GM_CONDITIONS)})")
            changes[name] = on
    if changes.get("dead"):
        changes.setdefault("dying", False)
    char = char.with_(**changes)
    now = [name for name in GM_CONDITIONS if getattr(char, name)]
    return ConditionOutcome(conditions=tuple(now)), char
