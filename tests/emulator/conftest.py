"""The emulator's own tests. Those that run the bot keep the e2e suite's guard: a test fails if the bot
held the event loop too long."""

from tests.e2e.conftest import stall_guard  # noqa: F401  (an autouse fixture)
