"""The words for a character leaving a lasting state (/recover, /ready, /encounter end).

The states are the engines' (``rules.model.WayOut``). Each system's words for them, and what a way out costs in
its terms (an ars-harn round's action or a Tactical Advantage, the Pendragon round, a Fading Suns turn's action),
are its profile's (``SystemProfile.way_out``, bot/systems/<system>.py).
"""

from __future__ import annotations

from bot.services.results import FightEnded, WayOutView
from bot.systems import profile_of
from bot.systems.profile import WayOutWords
from bot.text_safety import plain

# a system without a profile (a test's engine): each state in the plain words below
_PLAIN = WayOutWords(action_cost="that is their action", does={}, ended={})
_GM = "on the GM's word"  # what a way out the GM decides costs, in every system


def _words(system: str) -> WayOutWords:
    profile = profile_of(system)
    return profile.way_out if profile is not None else _PLAIN


def state_words(condition: str) -> str:
    """``out_of_fight`` as a player reads it: ``out of the fight``."""
    return {"out_of_fight": "out of the fight", "not_in_hand": "not in hand"}.get(condition,
                                                                                 condition.replace("_", " "))


def way_out_headline(system: str, who: str, way: WayOutView) -> str:
    words = _words(system)
    does = words.does.get(way.condition, f"is no longer {state_words(way.condition)}")
    line = f"**{plain(who)}** {does.format(weapon=plain(way.weapon or 'weapon'))}"
    # what a way out costs ("" where it costs nothing worth saying)
    cost = {"action": words.action_cost, "gm": _GM, **words.costs}.get(way.cost, "")
    if not way.in_fight and way.cost != "gm":
        cost = ""
    return f"{line} ({cost})." if cost else f"{line}."


def fight_ended_line(system: str, ended: FightEnded) -> str:
    """``Wulf gets up and picks up the Battleaxe.``; ``Wulf is still in shock: ...``"""
    words = _words(system)
    parts = [words.ended.get(state, f"is no longer {state_words(state)}") for state in ended.ended]
    if ended.gathered:
        parts.append(f"picks up the {' and the '.join(map(plain, dict.fromkeys(ended.gathered)))}")
    said = [f"{plain(ended.name)} {' and '.join(parts)}."] if parts else []
    said += [f"{plain(ended.name)} {words.kept.get(state, f'is still {state_words(state)}')}."
             for state in ended.kept]
    return " ".join(said)
