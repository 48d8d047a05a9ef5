"""The operator's view of a running bot: interactions in flight, the event-loop watchdog, Prometheus metrics,
the health and metrics endpoint, and the one logging setup (with the token redacted)."""
