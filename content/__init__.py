"""Content packs: YAML data for each system, validated on load into ``rules`` objects.

``load_catalog("ars-harn")`` reads the default pack shipped in ``content/ars_harn/``;
``load_catalog("ars-harn", Path("my-pack"))`` overlays a homebrew folder: a file there replaces
the default file of the same name, and files it lacks come from the default pack.
``load_catalog_files(system, {"weapons.yaml": data})`` does the same with files held in memory
(a server's uploaded pack).
"""

from __future__ import annotations

from content.errors import ContentError
from content.loader import (
    load_catalog,
    load_catalog_files,
    load_pack_documents,
    pack_file_names,
    package_name,
    victory_chart,
)

__all__ = [
    "ContentError", "load_catalog", "load_catalog_files", "load_pack_documents", "pack_file_names", "package_name",
    "victory_chart",
]
