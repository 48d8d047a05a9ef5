"""The words for a character leaving a lasting state (/recover, /ready, /encounter end), per system.

The states are the engines' (``rules.model.WayOut``); what each costs is said in the system's terms: an
ars-harn round's action or a Tactical Advantage, the Pendragon round, a Fading Suns turn's action.
"""

from __future__ import annotations

from bot.services.results import FightEnded, WayOutView
from bot.systems import profile_of
from bot.text_safety import plain

# state -> what the character does to leave it ("{who} gets up")
_DOES = {
    "prone": "gets up",
    "unhorsed": "mounts up",
    "shock": "tries to snap out of shock",
    "unconscious": "comes round",
    "incapacitated": "is no longer incapacitated",
    "out_of_fight": "rejoins the fight",
    "stunned": "shakes off the stun",
    "dropped": "picks up the {weapon}",
    "broken": "takes a new {weapon}",
    "not_in_hand": "readies the {weapon}",
}

# what a way out costs ("" where it costs nothing worth saying); one that takes the action, in each profile's words
_COST = {"advantage": "free: the Tactical Advantage is spent", "gm": "on the GM's word"}

# what /encounter end ends, in the game's words
_ENDED = {"prone": "gets up", "out_of_fight": "is back with the others", "stunned": "shakes off the stun",
          "shield_spent": "recharges the energy shield"}


def state_words(condition: str) -> str:
    """``out_of_fight`` as a player reads it: ``out of the fight``."""
    return {"out_of_fight": "out of the fight", "not_in_hand": "not in hand"}.get(condition,
                                                                                 condition.replace("_", " "))


def way_out_headline(system: str, who: str, way: WayOutView) -> str:
    does = _DOES.get(way.condition, f"is no longer {state_words(way.condition)}")
    line = f"**{plain(who)}** {does.format(weapon=plain(way.weapon or 'weapon'))}"
    profile = profile_of(system)
    action = profile.way_out_cost if profile is not None else "that is their action"
    cost = action if way.cost == "action" else _COST.get(way.cost, "")
    if not way.in_fight and way.cost != "gm":
        cost = ""
    return f"{line} ({cost})." if cost else f"{line}."


# what outlasts the fight, and the way out of it (ars-harn's shock: issue 34, A4)
_KEPT = {"shock": "is still in shock: `/recover condition:shock` rolls to snap out of it, and a rest ends it"}


def fight_ended_line(ended: FightEnded) -> str:
    """``Wulf gets up and picks up the Battleaxe.``; ``Wulf is still in shock: ...``"""
    parts = [_ENDED.get(state, f"is no longer {state_words(state)}") for state in ended.ended]
    if ended.gathered:
        parts.append(f"picks up the {' and the '.join(map(plain, dict.fromkeys(ended.gathered)))}")
    said = [f"{plain(ended.name)} {' and '.join(parts)}."] if parts else []
    said += [f"{plain(ended.name)} {_KEPT.get(state, f'is still {state_words(state)}')}." for state in ended.kept]
    return " ".join(said)
