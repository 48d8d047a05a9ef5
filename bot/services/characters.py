"""Characters kept per server for the whole campaign: create, import, show, edit, equip, delete."""

from __future__ import annotations

import copy
import difflib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import Character, GuildSettings
from bot.errors import ConfirmDrop, NotFound, PermissionDenied, UserError
from bot.services import access, import_keep
from bot.services.actions import record_event
from bot.services.actor import Actor
from bot.services.event_records import EditEvent
from bot.services.projection import answered_privately, project_character
from bot.services.results import CharacterBrief, CharacterView, ItemKind, SheetEdit
from bot.services.rulings import channel_system
from bot.services.runtime import Runtime
from bot.services.sheet_file import (
    canonical,
    check_shape,
    clean_name,
    coerce_value,
    get_path,
    item_label,
    load_sheet_file,
    matching,
    set_path,
    shown_name,
    typed_for,
)
from bot.services.sheet_guide import SheetGuide, sheet_guide
from bot.services.snapshots import brief, character_view
from bot.services.undo_record import ChangeRecorder
from bot.services.viewer import table_of, viewer_of
from bot.systems import profile_of
from bot.text_safety import numbered_prefix, reads_like_numbered, skeleton
from content.input_guard import check_text
from content.sheet_names import normalised
from rules.dice import DiceSource
from rules.errors import RulesError, SheetError
from rules.model import Catalog, Scenario
from rules.sheet_spec import SheetProblems

# ``list`` is a method name below, so annotations in the class use these aliases.
Names = list[str]
Briefs = list[CharacterBrief]
_LISTS: dict[str, str] = {"weapon": "weapons", "armour": "armour"}
_PROTECTED = {"name", "weapons", "armour"}


async def load_character(session: AsyncSession, actor: Actor, name: str, *, for_update: bool = False) -> Character:
    row = await repo.character_by_name(session, actor.guild_id, name, for_update=for_update)
    if row is None:
        close = await _close_names(session, actor.guild_id, name)
        hint = f" (did you mean {' or '.join(repr(n) for n in close)}?)" if close else ""
        raise NotFound(f"no character named '{name}' in this server{hint}")
    return row


async def _close_names(session: AsyncSession, guild_id: int, name: str) -> list[str]:
    """Up to three of the server's character names close to ``name``: those holding it ("Aelfric the Grog" for
    "Aelfric"), else look-alikes ("Bjorn" for "Bjron")."""
    holding = await repo.character_names(session, guild_id, name, limit=3)
    if holding:
        return holding
    known = await repo.character_names(session, guild_id, "", limit=500)
    return difflib.get_close_matches(name.strip(), known, n=3, cutoff=0.6)


async def shown_to(rt: Runtime, session: AsyncSession, actor: Actor, row: Character) -> CharacterView:
    """A character as ``actor`` may see it, through the projection (``project_character``): whole, or an NPC
    behind the screen (its name, condition and wounds in words); ``private`` when it holds what the channel may
    not read, so that the answer goes to ``actor`` alone."""
    settings = await repo.guild_settings(session, actor.guild_id)
    return shown(rt, actor, row, await rt.catalogs.catalog_for(session, actor.guild_id, row.system), settings)


def shown(rt: Runtime, actor: Actor, row: Character, catalog: Catalog, settings: GuildSettings | None,
          own: bool = True) -> CharacterView:
    """``shown_to``'s CPU part (the sheet's copy, summary and projection), once the server's ``settings`` and
    the system's ``catalog`` are read: safe in a worker thread (the web roster reads 50 sheets). ``own``: as
    ``character_view``'s."""
    view = character_view(rt, row, catalog, own)
    viewer = viewer_of(actor, settings, row)
    return answered_privately(project_character(view, viewer), viewer, table_of(settings))


class CharacterService:
    def __init__(self, runtime: Runtime) -> None:
        self._rt = runtime

    async def create(self, actor: Actor, name: str, stats: Mapping[str, int | str] | None = None,
                     weapons: Sequence[str] = (), armour: Sequence[str] = (), npc: bool = False) -> CharacterView:
        """A new character in the channel's system, owned by the caller (NPCs: GM only).

        ``stats`` keys may be dotted for nested fields (``abilities.Single Weapon``); weapons and armour
        are content names (any case). The engine validates the whole sheet; its error names the field.
        """
        name = clean_name(name)

        async def work(session: AsyncSession) -> CharacterView:
            if npc:
                await access.require_gm(session, actor, "create NPCs")
            system = await channel_system(session, actor)
            catalog = await self._rt.catalogs.catalog_for(session, actor.guild_id, system)
            sheet: dict[str, Any] = {"name": name}
            for path, value in (stats or {}).items():
                if path.split(".")[0].strip() in _PROTECTED:
                    raise UserError(f"set '{path}' with its own option, not as a stat")
                set_path(sheet, path, coerce_value(value))
            sheet["weapons"] = [canonical(w, catalog.weapon_names(), "weapon") for w in weapons]
            sheet["armour"] = [canonical(a, catalog.armour_names(), "armour piece") for a in armour]
            view = await self._insert(session, actor, system, name, sheet, npc, who=name)
            return await _with_edit(session, actor, view, SheetEdit("created", sheet_private=True))

        return await self._rt.transact(None, work)

    async def import_sheet(self, actor: Actor, filename: str, data: bytes, npc: bool = False,
                           replace: bool = False, drop_recorded: bool = False) -> CharacterView:
        """Create (or, with ``replace``, overwrite) a character from a YAML/JSON upload of at most 64 KiB.

        Over a character play has marked, a player's file never removes or lowers a recorded wound or
        condition (they stay, and the view's ``kept`` says which); the GM's does only with ``drop_recorded``
        (else ``ConfirmDrop`` names them). The file is read, and the sheet checked by the engine, in a worker
        thread: the event loop keeps serving every other command meanwhile."""
        sheet = await self._rt.slow_work.off_loop(load_sheet_file, filename, data)
        raw_name = sheet.get("name")
        if not isinstance(raw_name, str):
            raise UserError(f"{filename}: field 'name' must be the character's name")
        name = clean_name(raw_name)
        sheet["name"] = name

        async def work(session: AsyncSession) -> CharacterView:
            if npc:
                await access.require_gm(session, actor, "create NPCs")
            system = await channel_system(session, actor)
            existing = await repo.character_by_name(session, actor.guild_id, name, for_update=True)
            if existing is not None and replace:
                await access.require_control(session, actor, existing, "replace its sheet")
                view = await self._replace(session, actor, existing, filename, sheet, drop_recorded)
                replaced = SheetEdit("replaced", source=filename, sheet_private=True)
                return await _with_edit(session, actor, view, replaced)
            view = await self._insert(session, actor, system, name, sheet, npc, source=filename, who=name)
            return await _with_edit(session, actor, view, SheetEdit("imported", source=filename, sheet_private=True))

        return await self._rt.transact(None, work)

    async def _replace(self, session: AsyncSession, actor: Actor, row: Character, filename: str,
                       sheet: dict[str, Any], drop_recorded: bool) -> CharacterView:
        """``row``'s sheet from the file, the recorded wounds and conditions kept unless the GM drops them."""
        profile = profile_of(row.system)
        catalog = await self._rt.catalogs.catalog_for(session, row.guild_id, row.system)
        engine = self._rt.engine(row.system)

        def check(candidate: dict[str, Any]) -> dict[str, Any]:
            return self._validate(row.system, candidate, catalog, filename, row.name)

        kept, dropped = await self._rt.slow_work.off_loop(
            import_keep.weigh, row.sheet, copy.deepcopy(sheet), profile.recorded_fields if profile else (),
            check, lambda s: engine.summarize(s, catalog))
        if not dropped:
            return await self._save(session, actor, row, copy.deepcopy(sheet), EditEvent(imported=filename),
                                    source=filename)
        if not (await access.viewer_in(session, actor)).is_gm:
            view = await self._save(session, actor, row, kept, EditEvent(imported=filename, kept_recorded=True),
                                    source=filename)
            return replace(view, kept=dropped)
        if not drop_recorded:
            raise ConfirmDrop(row.name, dropped)
        return await self._save(session, actor, row, copy.deepcopy(sheet), EditEvent(imported=filename),
                                source=filename)

    async def guide(self, actor: Actor) -> SheetGuide:
        """The sheet fields of the channel's system and the names the server's pack offers (template, help)."""

        async def work(session: AsyncSession) -> SheetGuide:
            system = await channel_system(session, actor)
            return sheet_guide(system, await self._rt.catalogs.catalog_for(session, actor.guild_id, system))

        return await self._rt.read(work)

    async def get(self, actor: Actor, name: str) -> CharacterView:
        """Anyone in the server may look at a character; where the GM keeps NPC rolls secret, a player sees of
        an NPC what their character would: its name, condition and wounds (not its stats or equipment)."""

        async def work(session: AsyncSession) -> CharacterView:
            return await shown_to(self._rt, session, actor, await load_character(session, actor, name))

        return await self._rt.read(work)

    async def export(self, actor: Actor, name: str) -> CharacterView:
        """The whole sheet, for /character export. Where the GM keeps NPC rolls secret an NPC's sheet is the
        GM's: a player is told where to read what their character would see (its wounds)."""

        async def work(session: AsyncSession) -> CharacterView:
            view = await shown_to(self._rt, session, actor, await load_character(session, actor, name))
            if view.behind_screen:  # a file of a sheet with no figures would read as a sheet: it is refused
                raise PermissionDenied(f"the GM keeps {view.name}'s sheet behind the screen (secret rolls); "
                                       f"/injuries character:{view.name} shows the wounds you can see")
            return view

        return await self._rt.read(work)

    async def list(self, actor: Actor, mine: bool = False) -> Briefs:
        """The server's characters by name (only the caller's with ``mine``)."""

        async def work(session: AsyncSession) -> Briefs:
            rows = await repo.characters(session, actor.guild_id, actor.user_id if mine else None)
            return [brief(row) for row in rows]

        return await self._rt.read(work)

    async def edit_stat(self, actor: Actor, name: str, stat: str, value: int | str) -> CharacterView:
        """Set one field (dotted for nested ones) as the field holds it: a number, text, true/false, a list
        (bot/services/sheet_file.py ``typed_for``); the engine re-validates the sheet. Owner or GM."""
        stat = check_text(stat, "stat", 100)
        if stat.split(".")[0].strip() in _PROTECTED:
            raise UserError(f"'{stat}' is changed with its own command, not as a stat")

        async def work(session: AsyncSession) -> CharacterView:
            row = await load_character(session, actor, name, for_update=True)
            await access.require_control(session, actor, row, "edit it")
            sheet = copy.deepcopy(row.sheet)
            typed = typed_for(get_path(sheet, stat), value, stat.strip())
            set_path(sheet, stat, typed)
            changed = sheet != row.sheet
            view = await self._save(session, actor, row, sheet, EditEvent(stat=stat.strip(), value=typed))
            edit = SheetEdit("stat", field=stat.strip(), value=typed, changed=changed, sheet_private=True)
            return await _with_edit(session, actor, view, edit)

        return await self._rt.transact(None, work)

    async def set_condition(self, actor: Actor, name: str, condition: str, on: bool) -> CharacterView:
        """GM: set or clear one of the sheet's conditions by the system's name for it (its engine's "condition"
        action). Logged as an edit, so the encounter's /undo takes it back; a name the system does not have
        is one line listing those it has."""
        wanted = "_".join(check_text(condition, "condition", 40).strip().casefold().replace("-", " ").split())

        async def work(session: AsyncSession) -> CharacterView:
            await access.require_gm(session, actor, "set or clear a condition")
            row = await load_character(session, actor, name, for_update=True)
            engine = self._rt.engine(row.system)
            if "condition" not in engine.actions:
                raise UserError(f"{row.system} keeps no conditions to set")
            catalog = await self._rt.catalogs.catalog_for(session, row.guild_id, row.system)
            action = {"type": "condition", "add" if on else "remove": [wanted]}
            after = engine.resolve(Scenario(row.system, action, copy.deepcopy(row.sheet)), DiceSource({}),
                                   catalog).attacker
            sheet = dict(after) if after is not None else copy.deepcopy(row.sheet)
            changed = sheet != row.sheet
            view = await self._save(session, actor, row, sheet, EditEvent(condition=wanted, set=on))
            edit = SheetEdit("condition", field=wanted, value=on, changed=changed)
            return await _with_edit(session, actor, view, edit)

        return await self._rt.transact(None, work)

    async def add_item(self, actor: Actor, name: str, kind: ItemKind, item: str) -> CharacterView:
        """Add a weapon or armour piece from the content pack. Owner or GM."""
        key = _list_key(kind)

        async def work(session: AsyncSession) -> CharacterView:
            row = await load_character(session, actor, name, for_update=True)
            await access.require_control(session, actor, row, "change its equipment")
            catalog = await self._rt.catalogs.catalog_for(session, actor.guild_id, row.system)
            known = catalog.weapon_names() if kind == "weapon" else catalog.armour_names()
            entry = canonical(item, known, "weapon" if kind == "weapon" else "armour piece")
            sheet = copy.deepcopy(row.sheet)
            sheet.setdefault(key, []).append(entry)
            view = await self._save(session, actor, row, sheet, EditEvent(added=entry, kind=kind))
            return await _with_edit(session, actor, view, SheetEdit("added", field=entry, item_kind=kind))

        return await self._rt.transact(None, work)

    async def remove_item(self, actor: Actor, name: str, kind: ItemKind, item: str) -> CharacterView:
        """Remove one weapon or armour piece (the first of that name). Owner or GM. Where the engine keeps state
        for the items (in hand, dropped, broken), its "unequip" action removes it with the item, so no other
        item's state moves."""

        async def work(session: AsyncSession) -> CharacterView:
            row = await load_character(session, actor, name, for_update=True)
            await access.require_control(session, actor, row, "change its equipment")
            sheet = copy.deepcopy(row.sheet)
            entries = sheet.get(_list_key(kind))
            entries = entries if isinstance(entries, list) else []
            index = next((i for i, e in enumerate(entries) if item_label(e).casefold() == item.strip().casefold()),
                         None)
            if index is None:
                held = ", ".join(item_label(e) for e in entries) or "nothing"
                raise NotFound(f"{row.name} has no {kind} '{item}' (has: {held})")
            label = item_label(entries[index])
            engine = self._rt.engine(row.system)
            if "unequip" in engine.actions:
                catalog = await self._rt.catalogs.catalog_for(session, row.guild_id, row.system)
                action = {"type": "unequip", "kind": kind, "item": label}
                after = engine.resolve(Scenario(row.system, action, sheet), DiceSource({}), catalog).attacker
                sheet = dict(after) if after is not None else sheet
            else:
                del entries[index]
            view = await self._save(session, actor, row, sheet, EditEvent(removed=label, kind=kind))
            return await _with_edit(session, actor, view, SheetEdit("removed", field=label, item_kind=kind))

        return await self._rt.transact(None, work)

    async def check_can_delete(self, actor: Actor, name: str) -> CharacterBrief:
        """The character, if the caller may delete it now (owner or GM, not in an active encounter); else the
        refusal, before any prompt."""

        async def work(session: AsyncSession) -> CharacterBrief:
            row = await load_character(session, actor, name)
            await access.require_control(session, actor, row, "delete it")
            if await repo.active_encounters_of(session, row.id):
                raise UserError(f"{row.name} is in an encounter: remove them from it first")
            return brief(row)

        return await self._rt.read(work)

    async def delete(self, actor: Actor, name: str) -> CharacterBrief:
        """Delete for good (the cog confirms first). Owner or GM; not while in an active encounter."""

        async def work(session: AsyncSession) -> CharacterBrief:
            row = await load_character(session, actor, name, for_update=True)
            await access.require_control(session, actor, row, "delete it")
            if await repo.active_encounters_of(session, row.id):
                raise UserError(f"{row.name} is in an encounter: remove them from it first")
            gone = brief(row)
            await session.delete(row)
            return gone

        return await self._rt.transact(None, work)

    async def names(self, actor: Actor, prefix: str = "") -> Names:
        """Up to 25 character names for autocomplete. Under secret rolls a player learns an NPC exists when it is
        seated in an encounter in a channel they can see (docs/commands.md): only this channel's are offered."""

        async def work(session: AsyncSession) -> Names:
            viewer = await access.viewer_in(session, actor)
            seated = actor.channel_id if viewer.behind_screen(True) else None
            return await repo.character_names(session, actor.guild_id, prefix, npcs_seated_in=seated)

        return await self._rt.read(work)

    async def item_names(self, actor: Actor, kind: ItemKind, prefix: str = "") -> Names:
        """Up to 25 weapon or armour names from the channel system's content pack (autocomplete)."""

        async def work(session: AsyncSession) -> Names:
            system = await channel_system(session, actor)
            try:
                catalog = await self._rt.catalogs.catalog_for(session, actor.guild_id, system)
            except RulesError:
                return []
            names = catalog.weapon_names() if kind == "weapon" else catalog.armour_names()
            return matching([shown_name(name) for name in names], prefix)

        return await self._rt.read(work)

    async def location_names(self, actor: Actor, prefix: str = "") -> Names:
        """Hit locations an attack may call in the channel's system (Fading Suns; none elsewhere), for autocomplete."""

        async def work(session: AsyncSession) -> Names:
            system = await channel_system(session, actor)
            try:
                catalog = await self._rt.catalogs.catalog_for(session, actor.guild_id, system)
            except RulesError:
                return []
            profile = profile_of(system)  # a system whose /attack calls a location
            if profile is None or "location" not in profile.own_options.get("attack", {}):
                return []
            # as the results say: "right arm"
            return matching([shown_name(name) for name in catalog.location_labels()], prefix)

        return await self._rt.read(work)

    async def sheet_items(self, actor: Actor, name: str, kind: ItemKind, prefix: str = "") -> Names:
        """Up to 25 weapons or armour pieces on one character's sheet (autocomplete for /attack weapon)."""

        async def work(session: AsyncSession) -> Names:
            row = await repo.character_by_name(session, actor.guild_id, name)
            if row is None or await access.behind_screen(session, actor, row):
                return []
            entries = row.sheet.get(_list_key(kind))
            labels = [shown_name(item_label(e)) for e in entries] if isinstance(entries, list) else []
            return matching(list(dict.fromkeys(label for label in labels if label)), prefix)

        return await self._rt.read(work)

    # -- shared ---------------------------------------------------------------------------------

    def _validate(self, system: str, sheet: dict[str, Any], catalog: Catalog, source: str = "",
                  who: str = "") -> dict[str, Any]:
        """The engine's sheet; its mistakes name ``who`` (the character) and ``source`` (the file)."""
        engine = self._rt.engine(system)
        try:
            validated = engine.validate_sheet(normalised(sheet, catalog.sheet, catalog), catalog)
        except SheetProblems as exc:
            where = f"{who} ({source})" if who and source else source or who or "sheet"
            raise SheetProblems(f"{where}: {'; '.join(exc.problems)}", exc.problems, where) from exc
        except RulesError as exc:
            if not source:
                raise
            raise SheetError(f"{source}: {exc}") from exc
        check_shape(validated, source or "sheet")
        return validated

    async def _insert(self, session: AsyncSession, actor: Actor, system: str, name: str, sheet: dict[str, Any],
                      npc: bool, source: str = "", who: str = "") -> CharacterView:
        if await repo.character_by_name(session, actor.guild_id, name) is not None:
            raise UserError(f"a character named '{name}' already exists in this server")
        catalog = await self._rt.catalogs.catalog_for(session, actor.guild_id, system)
        await _refuse_look_alike(session, actor.guild_id, name, npc, catalog)
        now = self._rt.clock()
        # an upload (``source``) is checked off the event loop; a sheet built from options is small
        checked = (await self._rt.slow_work.off_loop(self._validate, system, sheet, catalog, source, who) if source
                   else self._validate(system, sheet, catalog, source, who))
        row = Character(guild_id=actor.guild_id, name=name, name_key=repo.name_key(name), owner_id=actor.user_id,
                        owner_name=actor.user_name[:100], npc=npc, system=system, sheet=checked, created_at=now,
                        updated_at=now)
        session.add(row)
        await session.flush()
        return character_view(self._rt, row, catalog)

    async def _save(self, session: AsyncSession, actor: Actor, row: Character, sheet: dict[str, Any],
                    change: EditEvent, source: str = "") -> CharacterView:
        """Save an owner's edit and log it as an "edit" event with its undo record; in a channel with an
        encounter, that encounter's /undo can take it back."""
        catalog = await self._rt.catalogs.catalog_for(session, row.guild_id, row.system)
        changes = ChangeRecorder.of([row], None, counters=False)
        # an upload (``source``) is checked off the event loop; an edit of one field is small
        who = row.name
        row.sheet = (await self._rt.slow_work.off_loop(self._validate, row.system, sheet, catalog, source, who)
                     if source else self._validate(row.system, sheet, catalog, source, who))
        row.updated_at = self._rt.clock()
        record = changes.record()
        if record.sheets:
            record_event(self._rt, session, actor, "edit", replace(change, character=row.name, npc=row.npc),
                         record.to_json(),
                         await repo.active_encounter_id(session, actor.channel_id))
        await session.flush()
        return character_view(self._rt, row, catalog)


async def _with_edit(session: AsyncSession, actor: Actor, view: CharacterView, edit: SheetEdit) -> CharacterView:
    """``view`` with what the command changed, as the channel may read it: of an NPC's sheet under secret rolls,
    only that it changed (and a condition, which the table sees), never a figure, a field or an item."""
    settings = await repo.guild_settings(session, actor.guild_id)
    screened = table_of(settings).behind_screen(view.npc)
    if screened and edit.kind in ("stat", "added", "removed"):
        edit = replace(edit, field=None, value=None, item_kind=None)
    # the whole sheet goes privately only to one who may read it (the owner, or the GM for an NPC)
    private = edit.sheet_private and not viewer_of(actor, settings).behind_screen(view.npc)
    return replace(view, edit=replace(edit, screened=screened, sheet_private=private))


async def _refuse_look_alike(session: AsyncSession, guild_id: int, name: str, npc: bool, catalog: Catalog) -> None:
    """Refuse a name that reads the same as another character's in the server (look-alike letters), and a
    player's character that reads like an NPC's numbered name ("Bandit 1"): from a template of the pack,
    or the prefix of an NPC already in the server."""
    read = skeleton(name)
    existing = await repo.guild_names(session, guild_id)
    for other, _ in existing:
        if skeleton(other) == read:
            raise UserError(f"'{name}' reads the same as '{other}', who is already in this server: choose "
                            "another name")
    if npc:
        return
    prefixes = [key.replace("_", " ").replace("-", " ").title() for key in catalog.npc_templates()]
    prefixes += [prefix for other, is_npc in existing if is_npc and (prefix := numbered_prefix(other))]
    for prefix in dict.fromkeys(prefixes):
        if reads_like_numbered(name, prefix):
            raise UserError(f"'{name}' reads like the numbered name of an NPC ({prefix} 1, {prefix} 2 ...): "
                            "a player's character needs another name")


def _list_key(kind: str) -> str:
    if kind not in _LISTS:
        raise UserError(f"kind is weapon or armour, not '{kind}'")
    return _LISTS[kind]
