"""The spec check, on in every test that runs the bot against the emulator (tests/conftest.py imports the
fixture): it listens to every emulator of the process (emulator/traffic.py) and, when the test ends, fails it
with each mismatch, named by route, field and rule.

`GRIEVOUS_SPEC_REPORT=FILE` appends the mismatches to FILE instead of failing (for counting them across a run),
with a `#` line per test: how much traffic it checked, and how long the check took.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from emulator import traffic

from .checker import Mismatch, spec
from .gateway import check_dispatch

# The emulator's own tests send it requests by hand, wrong ones on purpose: the check is for the bot's traffic.
EXEMPT_DIRS = ("tests/emulator/",)
SHOWN = 30


class SpecWatch:
    def __init__(self) -> None:
        self.exchanges: list[traffic.Exchange] = []
        self.dispatches: list[traffic.Dispatch] = []

    def mismatches(self) -> list[str]:
        checker = spec()
        found: list[str] = []
        for exchange in self.exchanges:
            if exchange.fault is None:
                found.extend(str(m) for m in checker.check(exchange))
        for dispatch in self.dispatches:
            if dispatch.fault is None:
                found.extend(str(m) for m in check_dispatch(dispatch))
        return list(dict.fromkeys(found))  # one line per distinct mismatch


def _exempt(request: pytest.FixtureRequest) -> bool:
    path = str(request.node.path).replace(os.sep, "/")
    return any(part in path for part in EXEMPT_DIRS) or request.node.get_closest_marker("spec_exempt") is not None


@pytest.fixture(autouse=True)
def spec_check(request: pytest.FixtureRequest) -> Iterator[SpecWatch | None]:
    if _exempt(request):
        yield None
        return
    watch = SpecWatch()
    traffic.EXCHANGE_SINKS.append(watch.exchanges.append)
    traffic.DISPATCH_SINKS.append(watch.dispatches.append)
    try:
        yield watch
    finally:
        traffic.EXCHANGE_SINKS.remove(watch.exchanges.append)
        traffic.DISPATCH_SINKS.remove(watch.dispatches.append)
    if not watch.exchanges and not watch.dispatches:
        return
    started = time.perf_counter()
    found = watch.mismatches()
    report = os.environ.get("GRIEVOUS_SPEC_REPORT")
    if report:
        with open(report, "a", encoding="utf-8") as out:
            out.write(f"# {request.node.nodeid}\tchecked {len(watch.exchanges)} exchanges and "
                      f"{len(watch.dispatches)} dispatches in {time.perf_counter() - started:.3f} s\n")
            out.writelines(f"{request.node.nodeid}\t{line}\n" for line in found)
        return
    if found:
        shown = "\n  ".join(found[:SHOWN]) + (f"\n  ... and {len(found) - SHOWN} more" if len(found) > SHOWN else "")
        pytest.fail(f"Discord's API spec refuses {len(found)} thing(s) in this test's traffic "
                    f"(tests/spec/; exceptions in tests/spec/exceptions.py):\n  {shown}", pytrace=False)


__all__ = ["Mismatch", "SpecWatch", "spec_check"]
