"""/pack upload, show, reset: a server's homebrew content pack, one uploaded file per default pack file.

An upload is checked by building the whole catalog (the default pack, the server's other homebrew
files and the new one) before anything is stored; the build runs in a worker thread, outside the
transaction (``Runtime.candidate_catalog``). Every change moves ``guild_settings.pack_version``; this
process keeps the catalog it built under the new version, the others rebuild theirs (off the loop)
on their next command.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import ContentPack
from bot.errors import NotFound, UserError
from bot.services import access
from bot.services.actor import Actor
from bot.services.rulings import channel_system
from bot.services.runtime import Runtime
from bot.services.views import PackFileView, PackView
from rules.errors import RulesError


def pack_filename(filename: str) -> str:
    """``Weapons.yml`` -> ``weapons.yaml``: pack files are named as in the default pack."""
    name = filename.strip().lower()
    return name[: -len(".yml")] + ".yaml" if name.endswith(".yml") else name


class PackService:
    """A server's homebrew files for the channel's system; changes are for the GM or a server manager."""

    def __init__(self, runtime: Runtime) -> None:
        self._rt = runtime

    async def upload(self, actor: Actor, filename: str, data: bytes) -> PackView:
        """Store one pack file (replacing the server's earlier upload of that name) if the whole pack builds;
        otherwise the ContentError names the file, the entry and the field, and nothing is stored."""
        name = pack_filename(filename)

        async def work(session: AsyncSession) -> tuple[PackView, Any]:
            await access.require_gm(session, actor, "change the server's content pack")
            system = await channel_system(session, actor)
            rows = {row.filename: row for row in await repo.content_packs(session, actor.guild_id, system)}
            files = {key: row.text.encode("utf-8") for key, row in rows.items()} | {name: data}
            catalog = self._rt.candidate_catalog(system, files)  # raises before anything is stored
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
        self._rt.remember_pack(actor.guild_id, *kept)  # stored: this process need not build it again
        return view

    async def show(self, actor: Actor) -> PackView:
        """The files this server overrides for the channel's system, and what the pack holds."""

        async def work(session: AsyncSession) -> PackView:
            system = await channel_system(session, actor)
            rows = await repo.content_packs(session, actor.guild_id, system)
            return _view(system, rows, await self._rt.catalog_for(session, actor.guild_id, system))

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
                catalog = self._rt.candidate_catalog(system, {row.filename: row.text.encode() for row in kept})
            except RulesError as exc:
                raise UserError(f"the pack would not load without {name}: {exc}; reset that file too, "
                                "or the whole pack") from exc
            for row in gone:
                await session.delete(row)
            version = await self._bump(session, actor.guild_id) if gone else None
            return _view(system, kept, catalog, changed=name or "all"), (system, version, catalog)

        view, (system, version, catalog) = await self._rt.transact(None, work)
        if version is not None:
            self._rt.remember_pack(actor.guild_id, system, version, catalog)
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


def _view(system: str, rows: Sequence[ContentPack], catalog: Any, changed: str | None = None) -> PackView:
    files = tuple(PackFileView(filename=row.filename, uploaded_by=row.uploaded_by, updated_at=_aware(row.updated_at),
                               size=len(row.text.encode("utf-8")))
                  for row in sorted(rows, key=lambda r: r.filename))

    def count(method: str) -> int:
        found = getattr(catalog, method, None)
        return len(found()) if callable(found) else 0

    return PackView(system=system, files=files, weapons=count("weapon_names"), armour=count("armour_names"),
                    npcs=count("npc_templates"), changed=changed)


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; they were stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
