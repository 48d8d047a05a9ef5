"""`bench.pack_uploads` keeps running as the bot changes: two servers' max-size merges while another server
rolls, every upload stored and every /roll answered (its latency figures are never asserted)."""

from __future__ import annotations

from pathlib import Path

from bench import pack_uploads


async def test_max_size_merges_from_two_servers_are_stored_and_another_servers_rolls_answered(tmp_path: Path) -> None:
    # Not decided by production's limits: the bot's 10 s to read an upload, Discord's 3 s to answer.
    args = pack_uploads.parse_args(["--servers", "2", "--every", "0.5", "--work-seconds", "300", "--deadline", "60"])
    result = await pack_uploads.run(args, tmp_path)
    assert len(result.upload_texts) == 2 and all("Done" in text for text in result.upload_texts), result.upload_texts
    assert result.rolls and all(handle.callback is not None for handle in result.rolls)
    lines = pack_uploads.render(result, args)
    assert "0 unanswered" in lines[1] and "2 of 2 stored" in lines[2]
