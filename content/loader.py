"""Finding and reading a system's pack files, then handing them to that system's schema."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache
from importlib import import_module, resources
from pathlib import Path
from typing import Any, cast

from content.errors import ContentError
from content.input_guard import PACK_FILE, parse_document
from content.pack_merge import every_problem
from rules.dice import VictoryBand, VictoryChart
from rules.registry import SYSTEMS

MAX_PACK_FILES = 64


def package_name(system_id: str) -> str:
    if system_id not in SYSTEMS:
        raise ContentError(system_id, message=f"is not a known system (known: {', '.join(SYSTEMS)})")
    return system_id.replace("-", "_")


def pack_file_names(system_id: str) -> list[str]:
    """The YAML files of the system's default pack: the only names a homebrew pack may replace."""
    folder = resources.files("content") / package_name(system_id)
    if not folder.is_dir():
        return []
    return sorted(item.name for item in folder.iterdir() if item.name.endswith(".yaml"))


def load_pack_documents(system_id: str, path: Path | None = None,
                        files: Mapping[str, bytes] | None = None) -> dict[str, Any]:
    """file name -> parsed YAML, for the default pack overlaid with the folder ``path`` or the
    in-memory ``files`` ({file name: bytes}, names the default pack has) when given."""
    docs: dict[str, Any] = {}
    folder = resources.files("content") / package_name(system_id)
    for name in pack_file_names(system_id):
        docs[name] = parse_document((folder / name).read_bytes(), f"{system_id}/{name}", PACK_FILE)
    overlay: list[tuple[str, bytes, str]] = []  # (pack file name, bytes, where it came from)
    if path is not None:
        if not path.is_dir():
            raise ContentError(str(path), message="is not a folder of YAML files")
        found = sorted(p for p in path.iterdir() if p.suffix in (".yaml", ".yml"))
        if len(found) > MAX_PACK_FILES:
            raise ContentError(str(path), message=f"holds more than {MAX_PACK_FILES} YAML files")
        overlay += [(file.stem + ".yaml", file.read_bytes(), str(file)) for file in found]
    if files is not None:
        allowed = set(docs)
        for name in sorted(files):
            if name not in allowed:
                raise ContentError(name, message=f"is not a file of the {system_id} pack "
                                                 f"(allowed: {', '.join(sorted(allowed))})")
        overlay += [(name, files[name], name) for name in sorted(files)]
    _overlay(docs, overlay)
    if not docs:
        raise ContentError(system_id, message="has no content pack")
    return docs


def _overlay(docs: dict[str, Any], files: Iterable[tuple[str, bytes, str]]) -> None:
    """A homebrew file replaces the default file of the same name."""
    for name, data, source in files:
        docs[name] = parse_document(data, source, PACK_FILE)


def load_catalog(system_id: str, path: Path | None = None) -> Any:
    """The validated catalog for ``system_id``: cached for the default pack, fresh for a homebrew one."""
    if path is None:
        return _default_catalog(system_id)
    return _build(system_id, load_pack_documents(system_id, path))


def load_catalog_files(system_id: str, files: Mapping[str, bytes]) -> Any:
    """The validated catalog for ``system_id``: the default pack overlaid with ``files`` ({file name: bytes},
    e.g. a server's uploads). Any mistake is a ContentError naming the file, the entry and the field."""
    if not files:
        return _default_catalog(system_id)
    docs = load_pack_documents(system_id, files=files)
    try:
        return _build(system_id, docs)
    except ContentError as first:
        # A pack that does not build is a GM's upload being checked: list every mistake, not the first only.
        defaults = load_pack_documents(system_id)
        raise every_problem(first, docs, defaults, set(files), lambda d: _build(system_id, d)) from None


@cache
def _default_catalog(system_id: str) -> Any:
    return _build(system_id, load_pack_documents(system_id))


def _build(system_id: str, docs: dict[str, Any]) -> Any:
    try:
        schema = import_module(f"content.{package_name(system_id)}.schema")
    except ModuleNotFoundError as exc:
        raise ContentError(system_id, message="has no schema yet (engine not built)") from exc
    build = cast(Callable[[dict[str, Any]], Any], schema.build)
    return build(docs)


@cache
def victory_chart() -> VictoryChart:
    """The Fading Suns victory chart (used by the dice roller as well as the engine)."""
    file = "fading-suns/victory_chart.yaml"
    item = resources.files("content") / "fading_suns" / "victory_chart.yaml"
    doc = parse_document(item.read_bytes(), file, PACK_FILE)
    if not isinstance(doc, dict) or not isinstance(doc.get("bands"), list):
        raise ContentError(file, field="bands", message="must be a list of bands")
    bands = []
    for number, band in enumerate(doc["bands"], 1):
        try:
            bands.append(VictoryBand(int(band["low"]), int(band["high"]), int(band["points"]), int(band["dice"])))
        except (KeyError, TypeError, ValueError) as exc:
            message = f"needs whole numbers low, high, points, dice ({exc})"
            raise ContentError(file, f"band {number}", message=message) from exc
    return VictoryChart(tuple(bands))
