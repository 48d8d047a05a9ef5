"""The bot's Prometheus metrics, in a registry of its own (two bots, or a test beside a bot, never clash).

Label values are bounded: command names come from the bot's own command tree ("unknown" otherwise),
components and modals are named by their custom-id prefix, never by an id.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

# Seconds; Discord's deadlines are 3 s for the first answer and 15 min for follow-ups.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0)
DB_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
STALL_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
RESULTS = ("ok", "user_error", "error")
CONTENT_TYPE = CONTENT_TYPE_LATEST


class CacheCounts(Protocol):
    """What the encounter cache counts (bot/services/encounter_cache.py)."""

    hits: int
    misses: int
    dropped: int

    def __len__(self) -> int: ...


class _EncounterCacheCollector(Collector):
    """Read at each scrape from the cache's own counters, so the hot path pays nothing for them."""

    def __init__(self, cache: CacheCounts) -> None:
        self.cache = cache

    def collect(self) -> Iterator[CounterMetricFamily | GaugeMetricFamily]:
        lookups = CounterMetricFamily("grievous_encounter_cache_lookups", "Commands that looked for their channel's "
                                      "encounter in memory: hit (no read) or miss (loaded).", labels=["result"])
        lookups.add_metric(["hit"], self.cache.hits)
        lookups.add_metric(["miss"], self.cache.misses)
        yield lookups
        yield CounterMetricFamily("grievous_encounter_cache_dropped", "Encounters dropped from memory because "
                                  "another command wrote one of their rows.", value=self.cache.dropped)
        yield GaugeMetricFamily("grievous_encounter_cache_entries", "Encounters held in memory now.",
                                value=len(self.cache))


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.commands = Counter("grievous_commands", "Interactions handled, by command and result "
                                "(ok, user_error: a one-line refusal, error: a bug).",
                                ["command", "result"], registry=r)
        self.latency = Histogram("grievous_command_seconds", "From the interaction's arrival to the end of its "
                                 "handling, by command.", ["command"], buckets=LATENCY_BUCKETS, registry=r)
        self.deferred = Counter("grievous_deferred_answers", "Answers that showed \"thinking\" first because the "
                                "work took a while, by command.", ["command"], registry=r)
        self.missed = Counter("grievous_missed_deadlines", "Interactions never answered in time (Discord's 3 s "
                              "passed: 10062 Unknown interaction), by command.", ["command"], registry=r)
        self.in_flight = Gauge("grievous_interactions_in_flight", "Interactions being handled now.", registry=r)
        self.db_seconds = Histogram("grievous_db_transaction_seconds", "Time inside one database session of a "
                                    "command: a write transaction (retries included) or a read.", ["kind"],
                                    buckets=DB_BUCKETS, registry=r)
        self.db_retries = Counter("grievous_db_retries", "Transactions run again after a version clash or a "
                                  "lock.", registry=r)
        self.dropped_payloads = Counter("grievous_gateway_payloads_dropped", "Gateway events dropped as malformed "
                                        "(logged once each with their shape), by event.", ["event"], registry=r)
        self.gateway_reconnects = Counter("grievous_gateway_silent_reconnects", "Shards reconnected by the bot "
                                          "because their gateway delivered no event while their servers were "
                                          "playing.", registry=r)
        self.stalls = Counter("grievous_event_loop_stalls", "Event-loop stalls over the watchdog's threshold, by "
                              "the command running when it stalled (\"none\" if no command was).", ["command"],
                              registry=r)
        self.stall_seconds = Histogram("grievous_event_loop_stall_seconds", "How long the event loop was held, "
                                       "for each stall over the threshold.", buckets=STALL_BUCKETS, registry=r)

    def watch_encounter_cache(self, cache: CacheCounts) -> None:
        self.registry.register(_EncounterCacheCollector(cache))

    def observe_command(self, command: str, result: str, seconds: float, *, deferred: bool, missed: bool) -> None:
        self.commands.labels(command, result).inc()
        self.latency.labels(command).observe(seconds)
        if deferred:
            self.deferred.labels(command).inc()
        if missed:
            self.missed.labels(command).inc()

    def observe_transaction(self, seconds: float, attempts: int) -> None:
        """``attempts`` 0 is a read-only session (autocomplete, status, the log)."""
        self.db_seconds.labels("read" if attempts == 0 else "write").observe(seconds)
        if attempts > 1:
            self.db_retries.inc(attempts - 1)

    def observe_stall(self, seconds: float, command: str | None) -> None:
        self.stalls.labels(command or "none").inc()
        self.stall_seconds.observe(seconds)

    def exposition(self) -> bytes:
        """The text format Prometheus scrapes."""
        return generate_latest(self.registry)
