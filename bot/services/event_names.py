"""The characters an event names, stored beside it (``event_names``, bot/db/models.py's ``EventName``): what the
web page's log filtered by a character reads (bot/services/campaign.py). Each event's rows are written in its
own transaction, with it (bot/services/actions.py: ``record_event``, ``insert_event``); the events stored before
the table got theirs from its migration (bot/db/migrations/versions/0015_event_names.py)."""

from __future__ import annotations

from bot.services.event_records import EventRecord
from bot.text_safety import skeleton


def skeletons(record: EventRecord) -> list[str]:
    """The skeletons of the names ``record`` names (its ``named``), each once: two names that look alike in
    Discord are one character to the filter, as they are to the bot's commands."""
    return sorted({skeleton(name) for name in record.named})
