"""The payload guard's pieces: what counts as a snowflake, and a shape that never shows a value."""

from __future__ import annotations

from bot.ops.payloads import guard_parsers, interaction_problem, shape, snowflake


def test_a_snowflake_is_a_decimal_id_of_at_most_64_bits() -> None:
    assert snowflake("1579351304101298177") and snowflake(7)
    assert not any(snowflake(v) for v in ("abc", "-1", "18446744073709551616", "", None, True, 1.5, "１２"))


def test_a_shape_keeps_field_names_and_types_never_values() -> None:
    payload = {"token": "secret-token", "id": "12", "data": {"options": [{"name": "x", "value": 3}]}}
    text = repr(shape(payload))
    assert "secret-token" not in text and "'12'" not in text
    assert shape(payload) == {"token": "str", "id": "str", "data": {"options": [{"name": "str", "value": "int"}]}}


def test_a_parser_that_raises_costs_its_event_only() -> None:
    seen: list[str] = []

    def boom(data: dict[str, object]) -> None:
        raise KeyError("user")

    parsers = {"GUILD_CREATE": boom, "READY": lambda data: seen.append("ready")}
    dropped = guard_parsers(parsers, lambda _channel: None)
    parsers["GUILD_CREATE"]({"id": "1"})
    parsers["READY"]({})
    assert dropped.by_event == {"GUILD_CREATE": 1} and seen == ["ready"]


def test_an_interaction_of_a_channel_another_guild_holds_is_refused() -> None:
    base = {"id": "5", "type": 2, "token": "t", "guild_id": "10", "channel_id": "20",
            "member": {"user": {"id": "3"}}, "data": {"name": "log"}}
    assert interaction_problem(base, lambda channel: 10) is None
    assert interaction_problem(base, lambda channel: None) is None  # not cached: nothing to hold it against
    assert interaction_problem(base, lambda channel: 11) == "the channel belongs to another guild"
    with_channel = dict(base, channel={"id": "20", "guild_id": "11"})
    assert interaction_problem(with_channel, lambda channel: None) == "the channel belongs to another guild"
