"""Homebrew files that change a pack rather than replace it: the file a browser saved is recognised by its
name, its named entries are merged into the pack's current file by key, and a failed build reports every
mistake at once.

A GM's first homebrew is a file holding only the new weapon. Merged into the current file (the default one,
or the server's earlier homebrew), it keeps what it does not give: the file's ``source``, its mappings
(``ars_mapping``), every other entry. An entry of the same key (case, spaces and underscores aside) replaces
the one it names; a new key is added.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import yaml

from content.errors import ContentError, PackProblems

# "weapons (1).yaml", "weapons_1.yaml" (Discord's spelling of that name), "weapons-2.yml", "weapons copy.yaml"
_COPY_MARK = re.compile(r"(?:[\s_-]*\(\d+\)|[\s_-]+\d+|[\s_-]+copy(?:[\s_-]*\d+)?)$")
MAX_PROBLEMS = 12  # mistakes listed in one answer (each is rebuilt past: the rest wait for the next upload)


def entry_key(name: Any) -> str:
    """Entry names match as the game's words do: "Moon Blade", "moon_blade" and "moon  blade" are one."""
    return " ".join(str(name).replace("_", " ").split()).casefold()


def pack_file_name(filename: str, allowed: list[str], system: str) -> str:
    """The pack file an uploaded file stands for: ``Weapons (1).YML`` -> ``weapons.yaml``; a name that is no
    file of the pack is a ContentError listing the ones that are."""
    name = filename.strip().lower()
    stem, dot, suffix = name.rpartition(".")
    if dot and suffix in ("yaml", "yml", "txt", "json"):
        if suffix == "txt" and stem.endswith((".yaml", ".yml")):  # "weapons.yaml.txt", as some editors save it
            stem = stem.rpartition(".")[0]
        stem = _COPY_MARK.sub("", stem).strip()
        candidate = stem.replace(" ", "_").replace("-", "_") + ".yaml"
        if candidate in allowed:
            return candidate
    raise ContentError(filename, message=f"is not a file of the {system} pack (its files: {', '.join(allowed)})")


def is_entry_section(value: Any) -> bool:
    """A mapping of named entries (``weapons:``, ``npcs:``): each of its values is itself a mapping."""
    return isinstance(value, Mapping) and bool(value) and all(isinstance(v, Mapping) for v in value.values())


def merge_document(base: Any, upload: Any, file: str) -> tuple[dict[str, Any], list[str], list[str]]:
    """``upload``'s entries merged into ``base`` by key: (the merged file, names added, names changed).

    Each top-level section of entries is merged entry by entry; any other top-level field the upload
    gives replaces the base's, and one it leaves out keeps the base's."""
    if not isinstance(upload, Mapping):
        raise ContentError(file, message="must be a mapping at the top level (e.g. `weapons:` with the entries "
                                         "under it)")
    merged: dict[str, Any] = dict(base) if isinstance(base, Mapping) else {}
    added: list[str] = []
    changed: list[str] = []
    for field, value in upload.items():
        current = merged.get(field)
        if isinstance(current, Mapping) and is_entry_section(current) and isinstance(value, Mapping):
            section = dict(current)
            keys = {entry_key(name): name for name in section}
            for name, entry in value.items():
                old = keys.get(entry_key(name))
                if old is None:
                    added.append(str(name))
                    section[name] = entry
                else:
                    if section[old] != entry:
                        changed.append(str(old))
                    section[old] = entry  # the pack's own spelling of the name stays
            merged[field] = section
        else:
            merged[field] = value
    return merged, added, changed


def dump_document(doc: Mapping[str, Any], header: str) -> str:
    """The merged file as YAML a GM can read and edit again: one line per entry, as the shipped files are."""
    body = yaml.safe_dump(dict(doc), sort_keys=False, allow_unicode=True, default_flow_style=None, width=4096)
    return "".join(f"# {line}\n" for line in header.splitlines()) + body


def every_problem(first: ContentError, docs: dict[str, Any], defaults: Mapping[str, Any],
                  homebrew: set[str], build: Callable[[dict[str, Any]], Any]) -> PackProblems:
    """Every mistake in the homebrew files, not only the first the build met.

    Each entry found wrong is set back to the default pack's entry (or left out, if it is new) and the pack
    built again, until it builds or a mistake is not in a homebrew entry (then it is the last one listed)."""
    problems: list[ContentError] = []
    docs = dict(docs)
    error: ContentError | None = first
    while error is not None and len(problems) < MAX_PROBLEMS:
        found = list(getattr(error, "every", None) or [error])
        problems += found
        named = {(item.file, item.entry): item for item in found}  # one entry may hold several mistakes
        if not all(_set_back(docs, defaults, homebrew, item) for item in named.values()):
            break
        try:
            build(docs)
            error = None
        except PackProblems as exc:
            problems += exc.problems
            break
        except ContentError as exc:
            error = exc
    return PackProblems(problems[:MAX_PROBLEMS], more=max(0, len(problems) - MAX_PROBLEMS))


def _set_back(docs: dict[str, Any], defaults: Mapping[str, Any], homebrew: set[str], error: ContentError) -> bool:
    """Put back the default of the homebrew entry ``error`` names (or drop it if it is new); False if it names
    no homebrew entry, so building again would meet the same mistake."""
    name = error.file.rpartition("/")[2]
    if name not in homebrew or error.entry is None or not isinstance(docs.get(name), Mapping):
        return False
    doc = dict(docs[name])
    for field, section in doc.items():
        if isinstance(section, Mapping) and error.entry in section:
            section = dict(section)
            default = (defaults.get(name) or {}).get(field)
            if isinstance(default, Mapping) and error.entry in default:
                section[error.entry] = default[error.entry]
            else:
                del section[error.entry]
            if not section and isinstance(default, Mapping):
                section = dict(default)
            doc[field] = section
            docs[name] = doc
            return True
    return False
