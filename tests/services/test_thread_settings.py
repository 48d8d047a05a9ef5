"""A thread or forum post follows its parent channel's setup unless set on the thread itself (issue 34)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

THREAD = 2500


async def test_a_thread_follows_its_channel_until_set_on_itself(services: Any, manager: Any, gm: Any) -> None:
    await services.setup.set_system(manager, "ars-harn")
    await services.setup.set_system(manager, "pendragon", channel_only=True)
    in_thread = replace(manager, channel_id=THREAD, parent_channel_id=manager.channel_id)
    assert (await services.setup.show(in_thread)).system == "pendragon"
    started = await services.encounters.start(replace(gm, channel_id=THREAD, parent_channel_id=gm.channel_id))
    assert started.system == "pendragon"

    await services.setup.set_system(in_thread, "fading-suns", channel_only=True)
    assert (await services.setup.show(in_thread)).system == "fading-suns"
    assert (await services.setup.show(manager)).system == "pendragon"  # the channel keeps its own
    await services.setup.clear_channel_system(in_thread)
    assert (await services.setup.show(in_thread)).system == "pendragon"
