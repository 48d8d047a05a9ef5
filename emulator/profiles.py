"""Named settings for the emulator: how far Discord is from the bot, and how quick its buckets are.

- ``"discord"``: every rule and the assumed bucket sizes (emulator/ratelimits.py), no latency. The emulator's
  default, and the playground's.
- ``"quick"``: the same rules and counts, every bucket window a tenth as long (``RateLimits.window_scale``):
  the buckets still empty and discord.py still waits them out, in a tenth of the time. A test setting, for the
  tests that are not about rate limits (tests/conftest.py ``discord_profile``); never Discord's numbers.
- ``"realistic"``: Discord's bucket sizes and one-way latency like a real connection, 50 ms for each REST
  request and response and 40 ms for each gateway event (as ``bench.latency --discord realistic``): the e2e
  flows and playground scripts marked ``latency`` run once more under it.

``Emulator(**options("realistic"))`` or ``running_emulator(**options("quick"), interaction_deadline=...)``.
"""

from __future__ import annotations

from typing import Any

from .ratelimits import RateLimits

PROFILES = ("discord", "quick", "realistic")
QUICK_WINDOW_SCALE = 0.1
REALISTIC_REST_LATENCY = 0.050  # seconds, one way
REALISTIC_GATEWAY_LATENCY = 0.040


def options(profile: str) -> dict[str, Any]:
    """The Emulator keyword arguments of ``profile`` (a new RateLimits each call: its buckets are state)."""
    if profile == "discord":
        return {}
    if profile == "quick":
        return {"rate_limits": RateLimits(window_scale=QUICK_WINDOW_SCALE)}
    if profile == "realistic":
        return {"rest_latency": REALISTIC_REST_LATENCY, "gateway_latency": REALISTIC_GATEWAY_LATENCY}
    raise ValueError(f"unknown emulator profile {profile!r} (profiles: {', '.join(PROFILES)})")
