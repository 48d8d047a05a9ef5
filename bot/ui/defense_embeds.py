"""The words of a defence the target's player chooses (Fading Suns, ruling ask_defense): the prompt, its
buttons, the line it is closed with, and the line an attack made after it carries."""

from __future__ import annotations

from bot.services.results import DefenseAnswer, DefensePrompt
from bot.text_safety import plain
from bot.ui import limits
from bot.ui.outcomes import title

DEFENSE_LABELS = {"dodge": "Dodge", "parry": "Parry", "none": "No defence"}
_DEFENSE_WORDS = {"dodge": "a dodge", "parry": "a parry", "none": "no defence"}


def defense_label(choice: str) -> str:
    return limits.clip(DEFENSE_LABELS.get(choice, title(choice)), limits.BUTTON_LABEL)


def defense_words(choice: str | None) -> str:
    return _DEFENSE_WORDS.get(choice or "none", f"a {plain(choice or '')}")


def _seconds(seconds: float) -> str:
    whole = round(seconds)
    return "a minute" if whole == 60 else f"{whole} s"


def defense_prompt(prompt: DefensePrompt) -> str:
    """``⚔️ Thug 1 attacks Erian with a club. @bob, how does Erian defend? (in a minute: a dodge)``"""
    weapon = f" with the {plain(prompt.weapon)}" if prompt.weapon else ""
    return (f"\u2694\ufe0f **{plain(prompt.attacker)}** attacks **{plain(prompt.target)}**{weapon}. "
            f"<@{prompt.owner_id}>, how does {plain(prompt.target)} defend? (No answer in {_seconds(prompt.seconds)}: "
            f"{defense_words(prompt.fallback)}, the table's rule.)")


def defense_closed(prompt: DefensePrompt, answer: DefenseAnswer, user_id: int | None) -> str:
    """The prompt once settled: ``⚔️ Thug 1 attacks Erian: a parry, chosen by @bob.``"""
    head = f"\u2694\ufe0f **{plain(prompt.attacker)}** attacks **{plain(prompt.target)}**"
    if answer.by == "timeout":
        waited = _seconds(answer.seconds)
        return f"{head}: no answer in {waited}, so {defense_words(prompt.fallback)} (the table's rule)."
    by = f" <@{user_id}>" if user_id is not None else ""
    return f"{head}: {defense_words(answer.defense)}, chosen by{by}" + (" (the GM)." if answer.by == "gm" else ".")


def defense_line(answer: DefenseAnswer) -> str:
    """The line an attack made after a prompt carries, saying who chose its defence."""
    if answer.by == "timeout":
        return (f"\U0001f6e1\ufe0f No answer for {plain(answer.target)} in {_seconds(answer.seconds)}: "
                f"{defense_words(answer.fallback)}, the table's rule (unnamed_defense).")
    who = "The GM" if answer.by == "gm" else f"{plain(answer.target)}'s player"
    return f"\U0001f6e1\ufe0f {who} chose {defense_words(answer.defense)}."
