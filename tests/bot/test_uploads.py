"""Uploaded files (sheets, homebrew packs): one user line when too big or not downloadable."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.errors import UserError
from bot.interactions import read_upload


class FakeFile:
    def __init__(self, size: int, fail: bool = False) -> None:
        self.filename, self.size, self.fail = "sheet.yaml", size, fail

    async def read(self) -> bytes:
        if self.fail:
            raise discord.HTTPException(_Response(), "gone")
        return b"x" * self.size


class _Response:
    status, reason = 404, "Not Found"


async def test_an_upload_within_the_limit_is_read() -> None:
    assert await read_upload(FakeFile(10), 64 * 1024) == b"x" * 10  # type: ignore[arg-type]


@pytest.mark.parametrize(("file", "limit", "line"), [
    (FakeFile(70_000), 64 * 1024, "sheet.yaml: is 70000 bytes, over the 64 KiB limit"),
    (FakeFile(10, fail=True), 64 * 1024, "sheet.yaml: could not be downloaded; try again"),
])
async def test_a_bad_upload_is_one_line(file: Any, limit: int, line: str) -> None:
    with pytest.raises(UserError) as caught:
        await read_upload(file, limit)
    assert str(caught.value) == line
