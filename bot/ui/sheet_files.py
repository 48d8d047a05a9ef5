"""Sheets as files a player reads: the commented template of a system, an exported sheet, and the reply
listing everything wrong with a sheet. No discord imports: the command line writes the same template."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from bot.services.results import RecordedState
from bot.services.sheet_guide import SheetGuide
from bot.text_safety import plain
from bot.ui import limits
from bot.ui.embed_common import system_title
from rules.sheet_spec import SheetField

MAX_PROBLEM_LINES = 12
MAX_LISTED = 150  # pack names listed under a field (a huge homebrew pack: the rest are counted)
COMMENT_WIDTH = 100


# -- a sheet's mistakes ----------------------------------------------------------------------------


def sheet_problems(who: str, problems: Sequence[str], *, system: str | None = None) -> str:
    """Every mistake on ``who``'s sheet, one per line, and where to get a sheet that is right."""
    count = len(problems)
    head = f"\u26a0\ufe0f **{plain(who)}**: {count} field{'s' if count != 1 else ''} to fix"
    if system:
        head += f" ({system_title(system)})"
    lines = [head + ":"]
    shown = problems[:MAX_PROBLEM_LINES]
    lines += [f"\u2022 {plain(problem)}" for problem in shown]  # they quote the values the sheet holds
    if count > len(shown):
        lines.append(f"\u2022 \u2026 and {count - len(shown)} more")
    lines.append("A sheet with every field: `/character template`.")
    return limits.clip("\n".join(lines), limits.CONTENT)


# -- the template ----------------------------------------------------------------------------------


def _a(title: str) -> str:
    """"An Ars Magica", "A Fading Suns": the article a system's title takes."""
    return ("An " if title[:1] in "AEIOU" else "A ") + title


def template_filename(system: str) -> str:
    return f"{system}-sheet.yaml"


def template_reply(system: str) -> str:
    return (f"{_a(system_title(system))} sheet to fill in: change the values, keep the field names, then "
            "`/character import sheet:` with the file.")


def template_text(guide: SheetGuide) -> str:
    """A YAML sheet with every field a player writes, each under a comment: meaning, range, pack names.

    As shipped it imports unchanged; a player changes the values after the colons and nothing else."""
    title = system_title(guide.system)
    out = [
        f"# {_a(title)} character sheet for Grievous.",
        "# Change the values after the colons, keep the field names, then upload this file with",
        "#   /character import sheet:<this file>",
        "# Lines starting with # are notes: leave them or delete them. A line that starts with",
        "# '# field:' is optional: take away the '# ' to use it.",
        "# Wounds, conditions and the rest of what the bot keeps are not here: /character export shows them.",
    ]
    for field in guide.spec.player_fields():
        out.append("")
        out += _comment(_about(field, guide))
        value = field.default
        if value is None:
            out.append(f"# {field.name}: {_example(field, guide)}".rstrip())
        else:
            out.append(_line(field.name, value))
    return "\n".join(out) + "\n"


def _about(field: SheetField, guide: SheetGuide) -> list[str]:
    first = field.label + (f": {field.meaning}" if field.meaning else ".")
    rng = field.range_text()
    if rng:
        plain = field.kind in ("choice", "flag") or rng.startswith("up to")
        first += f" {rng[0].upper()}{rng[1:]}." if plain else f" From {rng}."
    if field.required:
        first += " Required."
    lines = [first]
    if field.kind in ("items", "item"):
        lines.append(_listed("From this server's pack", guide.names.get(field.items, ())))
    if field.kind == "scores" and field.names:
        lines.append(_listed("Only" if field.closed else "The rules use", field.names))
    if field.kind == "scores" and field.items:
        lines.append(_listed("Weapons in the pack use", guide.names.get(field.items, ())))
    return lines


def _listed(lead: str, names: Sequence[str]) -> str:
    shown = ", ".join(names[:MAX_LISTED]) or "none"
    more = f" \u2026 and {len(names) - MAX_LISTED} more" if len(names) > MAX_LISTED else ""
    return f"{lead}: {shown}{more}."


def _comment(lines: Sequence[str]) -> list[str]:
    return [f"# {part}" for line in lines
            for part in textwrap.wrap(line, COMMENT_WIDTH - 2, subsequent_indent="  ", break_on_hyphens=False)]


def _example(field: SheetField, guide: SheetGuide) -> str:
    """What a commented-out optional field shows: a pack name to pick, or nothing to fill in."""
    if field.kind == "item":
        names = guide.names.get(field.items, ())
        return _scalar(names[0]) if names else ""
    return ""


def _line(name: str, value: Any) -> str:
    return f"{name}: {_value(value)}"


def _value(value: Any) -> str:
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_scalar(k)}: {_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return _scalar(value)


def _scalar(value: Any) -> str:
    text: str = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10_000)
    return text.removesuffix("\n...\n").strip()


# -- an exported sheet -----------------------------------------------------------------------------

_UNSAFE = re.compile(r"[^\w.-]+")


def export_filename(name: str) -> str:
    stem = _UNSAFE.sub("-", name).strip("-.") or "character"
    return f"{stem[:60]}.yaml"


def export_reply(name: str) -> str:
    return f"**{plain(name)}**'s sheet. `/character import sheet:` takes it back (`replace:true` to overwrite)."


def export_text(name: str, system: str, sheet: Mapping[str, Any]) -> str:
    """The stored sheet as YAML that ``/character import`` takes back unchanged."""
    head = [
        f"# {name}, a {system_title(system)} character exported from Grievous.",
        "# Upload it again with /character import sheet:<this file> (replace:true to overwrite the sheet).",
    ]
    body = yaml.safe_dump(dict(sheet), sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)
    return "\n".join(head) + "\n" + body


def _recorded(state: RecordedState) -> str:
    wounds = [plain(f"{w.location} {w.code}" if w.location else f"{w.severity} ({w.levels} HP)")
              for w in state.wounds]
    return ", ".join([*wounds, *(plain(c) for c in state.conditions)])


def kept_recorded(name: str, kept: RecordedState) -> str:
    """A player's import over a character play has marked (issue 34, N8): what stayed, in one line."""
    return (f"**{plain(name)}** keeps what play recorded and the file lacks ({_recorded(kept)}): an import never "
            "heals; only the GM can import over it.")


def confirm_drop(name: str, dropped: RecordedState) -> str:
    return (f"This file lacks what play recorded on **{plain(name)}**: {_recorded(dropped)}. Import it and drop "
            "them?")


def dropped_recorded(name: str, dropped: RecordedState) -> str:
    return f"**{plain(name)}**'s sheet imported; dropped: {_recorded(dropped)}."
