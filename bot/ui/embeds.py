"""Every word the bot shows: embeds built from service results, and the one-line replies.

Builders take the frozen views of bot/services/views.py (or plain values) and return embeds that
``limits.fit`` has clipped to Discord's limits, so any input, however large, can be sent. They live in
one module per subject, and this module gathers them so that callers keep writing ``embeds.action(...)``:

- embed_common.py: the systems' display names, the embed frame, the "Done" embed
- replies.py: the one-line replies and the confirm and cancel button labels
- decision_embeds.py: GM decisions (waiting lines, button labels, marking a message decided or closed)
- action_embeds.py: engine actions and /roll
- character_embeds.py: characters, injuries, wounds and /heal's treatments
- encounter_embeds.py: the tracker, initiative and the encounter lines
- record_embeds.py: the event log and /undo
- settings_embeds.py: /setup
- help_embeds.py: /help
"""

from __future__ import annotations

from bot.ui.action_embeds import (
    ACTION_TITLES,
    action,
    action_details,
    action_heading,
    event_details,
    report_details,
    roll,
)
from bot.ui.character_embeds import (
    TREATMENT_LABELS,
    character,
    character_list,
    condition_text,
    injuries,
    party_injuries,
    treatment_label,
    wound_line,
    wound_note,
)
from bot.ui.decision_embeds import (
    CHOICE_LABELS,
    CHOICE_WORDS,
    DECISION_PROMPTS,
    NO_LONGER_NEEDED,
    ROLL_NAMES,
    WAITING,
    closed_line,
    decision_button_label,
    decision_label,
    decision_line,
    decision_taken,
    mark_closed,
    mark_decided,
    pending_line,
    roll_name,
)
from bot.ui.embed_common import SYSTEM_TITLES, done, system_title
from bot.ui.encounter_embeds import (
    declared,
    encounter_ended,
    encounter_started,
    initiative,
    joined,
    left,
    next_turn,
    npcs_cleared,
    npcs_joined,
    tracker,
    tracker_moved,
)
from bot.ui.help_embeds import HELP, help_topic
from bot.ui.record_embeds import EVENT_TITLES, event_line, log, undone
from bot.ui.replies import (
    APOLOGY,
    CANCEL_LABEL,
    CHANGED_COMMAND,
    CONFIRM_LABEL,
    DETAILS_LABEL,
    EXPIRED,
    NO_GUILD,
    NOT_GM,
    NOT_YOURS,
    STALE_BUTTON,
    TOO_SLOW,
    UNKNOWN_COMMAND,
    cancelled,
    confirm_delete,
    deleted,
    error_line,
    name_the_character,
)
from bot.ui.settings_embeds import (
    gm_role_set,
    pack,
    pack_reset,
    pack_uploaded,
    rolls_set,
    ruling_set,
    secret_rolls_set,
    settings,
    system_set,
    turns_set,
)

__all__ = [
    "ACTION_TITLES",
    "APOLOGY",
    "CANCEL_LABEL",
    "CHANGED_COMMAND",
    "CHOICE_LABELS",
    "CHOICE_WORDS",
    "CONFIRM_LABEL",
    "DECISION_PROMPTS",
    "DETAILS_LABEL",
    "EVENT_TITLES",
    "EXPIRED",
    "HELP",
    "NOT_GM",
    "NOT_YOURS",
    "NO_GUILD",
    "NO_LONGER_NEEDED",
    "ROLL_NAMES",
    "STALE_BUTTON",
    "SYSTEM_TITLES",
    "TOO_SLOW",
    "TREATMENT_LABELS",
    "UNKNOWN_COMMAND",
    "WAITING",
    "action",
    "action_details",
    "action_heading",
    "cancelled",
    "character",
    "character_list",
    "closed_line",
    "condition_text",
    "confirm_delete",
    "decision_button_label",
    "decision_label",
    "decision_line",
    "decision_taken",
    "declared",
    "deleted",
    "done",
    "encounter_ended",
    "encounter_started",
    "error_line",
    "event_details",
    "event_line",
    "gm_role_set",
    "help_topic",
    "initiative",
    "injuries",
    "joined",
    "left",
    "log",
    "mark_closed",
    "mark_decided",
    "name_the_character",
    "next_turn",
    "npcs_cleared",
    "npcs_joined",
    "pack",
    "pack_reset",
    "pack_uploaded",
    "party_injuries",
    "pending_line",
    "report_details",
    "roll",
    "roll_name",
    "rolls_set",
    "ruling_set",
    "secret_rolls_set",
    "settings",
    "system_set",
    "system_title",
    "tracker",
    "tracker_moved",
    "treatment_label",
    "turns_set",
    "undone",
    "wound_line",
    "wound_note",
]
