"""/pack upload, show, reset: a server's homebrew content pack, one uploaded file per default pack file.

An upload is checked by building the whole catalog (the default pack, the server's other homebrew
files and the new one) before anything is stored; the build runs in the build process, outside the
transaction (``Runtime.candidate_catalog``), and so does merging an upload into the server's file
(``Runtime.merged_upload``). Every change moves ``guild_settings.pack_version``; this
process keeps the catalog it built under the new version, the others rebuild theirs (off the loop)
on their next command.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from datetime import UTC, datetime
from importlib import resources
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import ContentPack
from bot.errors import Conflict, NotFound, UserError
from bot.services import access
from bot.services.actor import Actor
from bot.services.results import PackFileView, PackView
from bot.services.rulings import channel_system
from bot.services.runtime import Runtime
from content.input_guard import PACK_FILE, parse_document
from content.loader import pack_file_names, package_name
from content.pack_merge import dump_document, merge_document, pack_file_name
from rules.errors import RulesError
from rules.model import Catalog


def pack_filename(filename: str) -> str:
    """``Weapons.yml`` -> ``weapons.yaml``: pack files are named as in the default pack."""
    name = filename.strip().lower()
    return name[: -len(".yml")] + ".yaml" if name.endswith(".yml") else name


def merged_upload(system: str, name: str, base: bytes | None, data: bytes,
                  header: str) -> tuple[bytes, list[str], list[str]]:
    """The file to store: ``data``'s entries merged by key into ``base`` (the server's earlier homebrew of
    that file, else the default one). CPU-bound (the guard parses both): run off the event loop."""
    source = f"{system}/{name}"
    default = (resources.files("content") / package_name(system) / name).read_bytes()
    before = parse_document(base if base is not None else default, source, PACK_FILE)
    merged, added, changed = merge_document(before, parse_document(data, name, PACK_FILE), name)
    text = dump_document(merged, header).encode("utf-8")
    if len(text) > PACK_FILE.max_bytes:
        raise UserError(f"{name}: merged into the pack's file it would be over the "
                        f"{PACK_FILE.max_bytes // 1024} KiB limit")
    return text, added, changed


class PackService:
    """A server's homebrew files for the channel's system; changes are for the GM or a server manager."""

    def __init__(self, runtime: Runtime) -> None:
        self._rt = runtime

    async def upload(self, actor: Actor, filename: str, data: bytes, replace: bool = False) -> PackView:
        """Store one pack file if the whole pack builds; otherwise PackProblems names every mistake (file,
        entry, field) and nothing is stored. The file's entries are merged by key into the server's current
        file of that name (its earlier homebrew, or the default one); ``replace`` stores it as it is."""

        async def where(session: AsyncSession) -> tuple[str, str, dict[str, bytes]]:
            await access.require_gm(session, actor, "change the server's content pack")
            system = await channel_system(session, actor)
            name = pack_file_name(filename, pack_file_names(system), system)
            rows = await repo.content_packs(session, actor.guild_id, system)
            return system, name, {row.filename: row.text.encode("utf-8") for row in rows}

        system, name, held = await self._rt.read(where)
        base = held.pop(name, None)
        added: list[str] = []
        changed: list[str] = []
        if not replace:
            header = (f"Homebrew {name} for {system}: the pack's file with this server's entries merged in "
                      f"(/pack upload, {self._rt.clock():%Y-%m-%d}).")
            # Parsing both files holds the GIL (libyaml): in the build process, with the catalog it makes.
            merge = functools.partial(merged_upload, system, name, base, data, header)
            data, added, changed = await self._rt.catalogs.merged_upload(merge, system, name, held)

        async def work(session: AsyncSession) -> tuple[PackView, Any]:
            await access.require_gm(session, actor, "change the server's content pack")
            if await channel_system(session, actor) != system:
                raise Conflict("the channel's system changed meanwhile: upload the file again")
            rows = {row.filename: row for row in await repo.content_packs(session, actor.guild_id, system)}
            now_base = rows[name].text.encode("utf-8") if name in rows else None
            if not replace and now_base != base:
                raise Conflict(f"{name} changed while this upload was merged into it: upload the file again")
            files = {key: row.text.encode("utf-8") for key, row in rows.items()} | {name: data}
            catalog = self._rt.catalogs.candidate_catalog(system, files)  # raises before anything is stored
            text = data.decode("utf-8")  # the build parsed it, so it is UTF-8
            now = self._rt.clock()
            row = rows.get(name)
            if row is None:
                row = ContentPack(guild_id=actor.guild_id, system=system, filename=name, text=text,
                                  uploaded_by=actor.user_id, updated_at=now)
                session.add(row)
                rows[name] = row
            else:
                row.text, row.uploaded_by, row.updated_at = text, actor.user_id, now
            version = await self._bump(session, actor.guild_id)
            return _view(system, list(rows.values()), catalog, changed=name), (system, version, catalog)

        view, kept = await self._rt.transact(None, work)
        self._rt.catalogs.remember_pack(actor.guild_id, *kept)  # stored: this process need not build it again
        return dataclasses.replace(view, added=tuple(added), updated=tuple(changed), merged=not replace)

    async def current_file(self, actor: Actor, filename: str) -> tuple[str, str, bytes, bool]:
        """(system, file name, the file's bytes, whether it is the server's homebrew) for /pack file: the file
        a GM starts homebrew from."""

        async def work(session: AsyncSession) -> tuple[str, str, bytes, bool]:
            system = await channel_system(session, actor)
            name = pack_file_name(filename if "." in filename else filename + ".yaml", pack_file_names(system), system)
            rows = {row.filename: row for row in await repo.content_packs(session, actor.guild_id, system)}
            if name in rows:
                return system, name, rows[name].text.encode("utf-8"), True
            return system, name, (resources.files("content") / package_name(system) / name).read_bytes(), False

        return await self._rt.read(work)

    async def default_file_names(self, actor: Actor, prefix: str = "") -> list[str]:
        """The channel's system's pack files (autocomplete for /pack file)."""

        async def work(session: AsyncSession) -> list[str]:
            system = await channel_system(session, actor)
            return [n for n in pack_file_names(system) if n.startswith(prefix.strip().lower())][:25]

        return await self._rt.read(work)

    async def show(self, actor: Actor) -> PackView:
        """The files this server overrides for the channel's system, and what the pack holds."""

        async def work(session: AsyncSession) -> PackView:
            system = await channel_system(session, actor)
            rows = await repo.content_packs(session, actor.guild_id, system)
            return _view(system, rows, await self._rt.catalogs.catalog_for(session, actor.guild_id, system))

        return await self._rt.read(work)

    async def reset(self, actor: Actor, filename: str | None = None) -> PackView:
        """Drop one homebrew file (or, with none named, all of them) so the default pack's apply again."""

        async def work(session: AsyncSession) -> tuple[PackView, Any]:
            await access.require_gm(session, actor, "change the server's content pack")
            system = await channel_system(session, actor)
            rows = list(await repo.content_packs(session, actor.guild_id, system))
            name = pack_filename(filename) if filename else None
            gone = [row for row in rows if name is None or row.filename == name]
            if name is not None and not gone:
                held = ", ".join(row.filename for row in rows) or "none"
                raise NotFound(f"this server has no homebrew {name} for {system} (homebrew files: {held})")
            kept = [row for row in rows if row not in gone]
            try:
                catalog = self._rt.catalogs.candidate_catalog(system, {row.filename: row.text.encode() for row in kept})
            except RulesError as exc:
                raise UserError(f"the pack would not load without {name}: {exc}; reset that file too, "
                                "or the whole pack") from exc
            for row in gone:
                await session.delete(row)
            version = await self._bump(session, actor.guild_id) if gone else None
            return _view(system, kept, catalog, changed=name or "all"), (system, version, catalog)

        view, (system, version, catalog) = await self._rt.transact(None, work)
        if version is not None:
            self._rt.catalogs.remember_pack(actor.guild_id, system, version, catalog)
        return view

    async def file_names(self, actor: Actor, prefix: str = "") -> list[str]:
        """The server's homebrew file names for the channel's system (autocomplete for /pack reset)."""

        async def work(session: AsyncSession) -> list[str]:
            system = await channel_system(session, actor)
            rows = await repo.content_packs(session, actor.guild_id, system)
            return [row.filename for row in rows if row.filename.startswith(prefix.strip().lower())][:25]

        return await self._rt.read(work)

    @staticmethod
    async def _bump(session: AsyncSession, guild_id: int) -> int:
        """Move the server's pack version on; the new version."""
        settings = await repo.guild_settings_for_update(session, guild_id)
        settings.pack_version = (settings.pack_version or 0) + 1
        await session.flush()
        return settings.pack_version


def _view(system: str, rows: Sequence[ContentPack], catalog: Catalog, changed: str | None = None) -> PackView:
    files = tuple(PackFileView(filename=row.filename, uploaded_by=row.uploaded_by, updated_at=_aware(row.updated_at),
                               size=len(row.text.encode("utf-8")))
                  for row in sorted(rows, key=lambda r: r.filename))
    return PackView(system=system, files=files, weapons=len(catalog.weapon_names()),
                    armour=len(catalog.armour_names()), npcs=len(catalog.npc_templates()), changed=changed)


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; they were stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
