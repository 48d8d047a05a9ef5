"""Where a benchmark writes its figures: between its own markers in a docs file, the rest kept as it is."""

from __future__ import annotations

from pathlib import Path


def write_block(path: Path, name: str, block: str, *, intro: str) -> None:
    """Put ``block`` between ``<!-- bench:NAME:start -->`` and ``<!-- bench:NAME:end -->`` in ``path``. The text
    outside the markers is kept; where there are no markers yet, ``intro`` (a heading and what writes the block)
    and the markers go at the end of the file."""
    begin, end = f"<!-- bench:{name}:start -->", f"<!-- bench:{name}:end -->"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    section = f"{begin}\n{block}{end}"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + section + rest.split(end, 1)[1]
    else:
        text = (text.rstrip("\n") + "\n\n" if text else "") + intro.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text, encoding="utf-8")
