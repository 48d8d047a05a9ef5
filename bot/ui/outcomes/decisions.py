"""A GM decision (the "gm_decide" action of any system) as words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.systems import PROFILES
from bot.ui.outcomes.common import Field, OutcomeText, Severity, _details, human, text

# (decision kind, choice) -> what happens to the character, as a sentence ending (each profile's decisions).
_DECISION_WORDS = {(kind, choice): ending for profile in PROFILES.values() for kind, words in profile.decisions.items()
                   for choice, ending in words.outcomes.items()}
_DECISION_CHOICES = {"death": "dies", "incapacitation": "is **incapacitated**", "survival": "survives",
                     "unconscious": "is **unconscious**", "approve": "is approved", "deny": "is denied"}


def decision_words(kind: Any, choice: Any, who: str) -> str:
    """A GM decision as a sentence: ``**Bandit 1** dies.``"""
    verb = _DECISION_WORDS.get((str(kind), str(choice))) or _DECISION_CHOICES.get(str(choice))
    if verb is None:  # a choice no profile words: said once, beside "Chosen by" (not "The GM chose ...")
        return f"**{who}**: {human(choice)}."
    return f"**{who}** {verb}."


def decision_severity(choice: Any) -> Severity:
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
    return OutcomeText(decision_words(kind, choice, who), fields, decision_severity(choice))

