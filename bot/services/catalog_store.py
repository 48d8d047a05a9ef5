"""The catalogs a process plays with: each system's default pack, the servers' homebrew packs over it, and the
catalogs an upload about to be stored would make.

A server's homebrew catalog is kept in memory, bounded by the bytes it holds (catalog_size.deep_size), the least
recently used dropped first; it is built again only when the server's packs change (``pack_version``). A
catalog not built yet is never built inside a transaction: ``catalog_for`` raises BuildNeeded, which the
transaction runner has built off the event loop (bot/services/slow_work.py) before it runs the command again.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Callable, Mapping

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.services.slow_work import BuildNeeded, BuildProcessFailed, SlowWork
from rules.model import Catalog
from rules.registry import available_ids

log = logging.getLogger(__name__)
# Homebrew catalogs kept in-process, bounded by the bytes they hold (catalog_size.deep_size), least recently
# used dropped first: a max-size weapons pack's catalog holds ~3 MB, a small pack's a few KB (docs/scaling.md).
PACK_CACHE_BYTES = 64 * 1024 * 1024
CANDIDATE_CACHE_SIZE = 8  # catalogs built for an upload, kept until its transaction commits

Merge = Callable[[], tuple[bytes, list[str], list[str]]]  # an upload merged into a file: it, the entries added, changed


def load_default(system: str) -> Catalog:
    from content import load_catalog

    catalog: Catalog = load_catalog(system)
    return catalog


def load_pack(system: str, files: Mapping[str, bytes]) -> Catalog:
    from content import load_catalog_files

    catalog: Catalog = load_catalog_files(system, files)
    return catalog


def _build_pack(system: str, files: Mapping[str, bytes]) -> tuple[Catalog, int]:
    """In the build process: a homebrew catalog and the bytes it holds. libyaml holds the GIL for the whole
    parse of a file (~0.6 s for a 511 KiB one), so a thread would still stall the event loop; a process
    does not, and its catalog comes back pickled (~30 ms to read)."""
    from bot.services.catalog_size import deep_size

    catalog = load_pack(system, files)
    return catalog, deep_size(catalog)


def _merge_and_build(merge: Merge, system: str, name: str, others: Mapping[str, bytes],
                     ) -> tuple[bytes, list[str], list[str], tuple[Catalog, int]]:
    """In the build process: an upload merged into the server's file ``name`` (``merge()``: the merged file,
    the entries it added and changed), and the catalog the pack makes with it."""
    text, added, changed = merge()
    return text, added, changed, _build_pack(system, {**others, name: text})


def _digest(files: Mapping[str, bytes]) -> str:
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()


class CatalogStore:
    """``defaults`` loads a system's default pack, ``packs`` one overlaid with a server's files (tests may swap in
    either; a swapped ``packs`` builds on the build thread, the real one in the build process)."""

    def __init__(self, work: SlowWork, defaults: Callable[[str], Catalog] = load_default) -> None:
        self._work = work
        self.defaults = defaults
        self.packs: Callable[[str, Mapping[str, bytes]], Catalog] = load_pack
        # (guild id, system) -> (the guild's pack_version when built, catalog, its bytes)
        self._pack_cache: OrderedDict[tuple[int, str], tuple[int, Catalog, int]] = OrderedDict()
        self.pack_cache_bytes = 0  # what the catalogs above hold
        self.pack_cache_limit = PACK_CACHE_BYTES
        # (system, digest of the files) -> (catalog, its bytes), for an upload or reset about to be stored
        self._candidates: OrderedDict[tuple[str, str], tuple[Catalog, int]] = OrderedDict()

    def warm_up(self) -> None:
        """Import every engine and build the default catalogs (YAML and validation: about a second), so that
        no command pays for it; the bot runs this in a thread at startup."""
        for system in available_ids():
            self.catalog(system)

    def catalog(self, system: str) -> Catalog:
        """The default pack's catalog (no server's homebrew)."""
        return self.defaults(system)

    def pack_catalog(self, system: str, files: Mapping[str, bytes]) -> Catalog:
        """The default pack overlaid with ``files`` ({file name: bytes}); a ContentError names what is wrong.
        Slow for a large pack: services ask ``candidate_catalog`` or ``catalog_for``, which build off the loop."""
        return self.packs(system, files) if files else self.catalog(system)

    async def catalog_for(self, session: AsyncSession, guild_id: int, system: str) -> Catalog:
        """The catalog this server plays ``system`` with: its homebrew pack over the default one, if it has one.

        Reads only the guild's settings row, which the command holds anyway, unless the server's packs
        changed since this process last built them (``pack_version``): then it reads the pack and raises
        BuildNeeded, so the runner builds it outside the transaction and runs the command again.
        """
        settings = await repo.guild_settings(session, guild_id)
        version = settings.pack_version if settings is not None else 0
        if not version:
            return self.catalog(system)
        key = (guild_id, system)
        cached = self._pack_cache.get(key)
        if cached is not None and cached[0] == version:
            self._pack_cache.move_to_end(key)
            return cached[1]
        rows = await repo.content_packs(session, guild_id, system)
        files = {row.filename: row.text.encode("utf-8") for row in rows}
        raise self._needed((guild_id, system, version), system, files,
                           functools.partial(self.remember_pack, guild_id, system, version),
                           lambda: self._pack_cache.get(key, (None,))[0] == version)

    def candidate_catalog(self, system: str, files: Mapping[str, bytes]) -> Catalog:
        """The catalog ``files`` would make (an upload or a reset about to be stored), built off the loop:
        raises BuildNeeded the first time, as ``catalog_for`` does."""
        if not files:
            return self.catalog(system)
        key = (system, _digest(files))
        if key in self._candidates:
            return self._candidates[key][0]
        raise self._needed(key, system, dict(files), functools.partial(self._keep_candidate, key),
                           lambda: key in self._candidates)

    def _needed(self, key: tuple[object, ...], system: str, files: Mapping[str, bytes],
                keep: Callable[[tuple[Catalog, int]], None], kept: Callable[[], bool]) -> BuildNeeded:
        in_process = functools.partial(_build_pack, system, files) if self.packs is load_pack else None
        return BuildNeeded(key, functools.partial(self._measured, system, files), keep, kept, in_process)

    def _measured(self, system: str, files: Mapping[str, bytes]) -> tuple[Catalog, int]:
        """On the build thread: the catalog and the bytes it holds."""
        from bot.services.catalog_size import deep_size

        catalog = self.pack_catalog(system, files)
        return catalog, deep_size(catalog)

    def _keep_candidate(self, key: tuple[str, str], built: tuple[Catalog, int]) -> None:
        self._candidates[key] = built
        while len(self._candidates) > CANDIDATE_CACHE_SIZE:
            self._candidates.popitem(last=False)

    def remember_pack(self, guild_id: int, system: str, version: int, catalog: Catalog | tuple[Catalog, int]) -> None:
        """Keep ``catalog`` as the server's for ``system`` at pack ``version`` (a newer one already kept wins);
        the least recently used go while the cache holds more than ``pack_cache_limit`` bytes."""
        if isinstance(catalog, tuple):
            catalog, size = catalog
        else:  # an upload's candidate, measured when it was built
            size = next((s for c, s in self._candidates.values() if c is catalog), 0)
        key = (guild_id, system)
        cached = self._pack_cache.get(key)
        if cached is None or cached[0] <= version:
            if cached is not None:
                self.pack_cache_bytes -= cached[2]
            self._pack_cache[key] = (version, catalog, size)
            self.pack_cache_bytes += size
        self._pack_cache.move_to_end(key)
        while self.pack_cache_bytes > self.pack_cache_limit and len(self._pack_cache) > 1:
            _key, (_version, _catalog, dropped) = self._pack_cache.popitem(last=False)
            self.pack_cache_bytes -= dropped

    async def merged_upload(self, merge: Merge, system: str, name: str,
                            others: Mapping[str, bytes]) -> tuple[bytes, list[str], list[str]]:
        """``merge()`` (an upload merged into the server's file ``name``: parsing both, CPU-bound; a picklable
        partial) and the catalog the pack makes with the result and ``others`` (the server's other files), in
        the build process, queued with the builds: (the merged file, the entries added, those changed). The
        catalog is kept for the transaction that stores the file (``candidate_catalog``); a mistake is raised
        as the build's."""
        if self.packs is load_pack:
            try:
                text, added, changed, built = await self._work.in_build_process(
                    _merge_and_build, merge, system, name, dict(others))
            except BuildProcessFailed:  # the next build starts another process
                log.exception("the build process failed; merging %s/%s on the build thread", system, name)
            else:
                self._keep_candidate((system, _digest({**others, name: text})), built)
                return text, added, changed
        # A catalog loader a test swapped in, or no build process: the merge on the build thread (the catalog
        # is built when the transaction asks for it).
        return await self._work.on_build_thread(merge)
