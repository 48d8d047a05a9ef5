"""Benchmarks that drive the real bot through the loopback Discord emulator (see bench/README.md).

Nothing here is imported by the bot: the benchmark-only commands live in ``bench.cog`` and are added
to a bot only by ``bench.latency``.
"""
