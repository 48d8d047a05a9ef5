"""Discord's limits as the emulator enforces them: what passes, and where each breach is reported."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from emulator import DiscordError, Emulator
from emulator.limits import check_autocomplete, check_commands, check_message, check_modal
from emulator.testing import emu_fixture  # noqa: F401

JSONDict = dict[str, Any]


def command(name: str = "roll", **extra: Any) -> JSONDict:
    return {"name": name, "description": "Roll dice", "type": 1, **extra}


def option(name: str = "dice", kind: int = 3, **extra: Any) -> JSONDict:
    return {"name": name, "description": "How many", "type": kind, **extra}


def codes(error: DiscordError) -> list[str]:
    return error.errors.flatten() if error.errors else [error.message]


def refused(check: Any, *args: Any, **kwargs: Any) -> list[str]:
    with pytest.raises(DiscordError) as caught:
        check(*args, **kwargs)
    return codes(caught.value)


def test_a_sensible_tree_passes() -> None:
    group = {"name": "encounter", "description": "Fights", "type": 2, "options": [
        {"name": "start", "description": "Begin", "type": 1, "options": [option(required=True), option("aim")]},
    ]}
    check_commands([command(options=[option(required=True)]), command("encounter", options=[group]),
                    {"name": "Inspect Wounds", "type": 2}])


@pytest.mark.parametrize(
    ("commands", "where"),
    [
        ([command("Roll")], "0.name: Command name is invalid"),
        ([command("roll dice")], "0.name: Command name is invalid"),
        ([command("r" * 33)], "0.name: Must be between 1 and 32 in length."),
        ([command(description="")], "0.description: Must be between 1 and 100 in length."),
        ([command(description="d" * 101)], "0.description: Must be between 1 and 100 in length."),
        ([command(options=[option(f"o{i}") for i in range(26)])], "0.options: Must be 25 or fewer in length."),
        ([command(options=[option(description="")])], "0.options.0.description: Must be between 1 and 100"),
        ([command(options=[option("a"), option("b", required=True)])],
         "0.options.1.required: Required options must be placed before non-required options"),
        ([command(options=[option(choices=[{"name": str(i), "value": str(i)} for i in range(26)])])],
         "0.options.0.choices: Must be 25 or fewer in length."),
        ([command(options=[option(choices=[{"name": "x", "value": "v" * 101}])])],
         "0.options.0.choices.0.value: Must be 100 or fewer in length."),
        ([command(), command()], "1.name: Application command names must be unique"),
        ([command(f"c{i}") for i in range(101)], "<root>: Must be 100 or fewer in length."),
        ([command(options=[option("sub", 1), option("x")])], "0.options: Sub-command and sub-command group"),
        ([{"name": "Inspect", "type": 2, "description": "no"}], "0.description: Context menu commands cannot"),
    ],
)
def test_command_trees_discord_refuses(commands: list[JSONDict], where: str) -> None:
    assert any(line.startswith(where) for line in refused(check_commands, commands))


def embed(**extra: Any) -> JSONDict:
    return {"title": "Wound", **extra}


def row(*components: JSONDict) -> JSONDict:
    return {"type": 1, "components": list(components)}


def button(custom_id: str = "b", **extra: Any) -> JSONDict:
    return {"type": 2, "style": 1, "label": "Hit", "custom_id": custom_id, **extra}


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"content": "x" * 2001}, "content: Must be 2000 or fewer"),
        ({"embeds": [embed() for _ in range(11)]}, "embeds: Must be 10 or fewer"),
        ({"embeds": [embed(title="t" * 257)]}, "embeds.0.title: Must be 256 or fewer"),
        ({"embeds": [embed(description="d" * 4097)]}, "embeds.0.description: Must be 4096 or fewer"),
        ({"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 26)]}, "embeds.0.fields: Must be 25 or fewer"),
        ({"embeds": [embed(fields=[{"name": "n" * 257, "value": "v"}])]}, "embeds.0.fields.0.name: Must be between"),
        ({"embeds": [embed(fields=[{"name": "n", "value": "v" * 1025}])]}, "embeds.0.fields.0.value: Must be between"),
        ({"embeds": [embed(footer={"text": "f" * 2049})]}, "embeds.0.footer.text: Must be 2048 or fewer"),
        ({"embeds": [embed(author={"name": "a" * 257})]}, "embeds.0.author.name: Must be 256 or fewer"),
        ({"embeds": [embed(description="d" * 4000), embed(description="d" * 2000)]},
         "embeds: Embed size exceeds maximum size of 6000"),
        ({"components": [row(button(str(i))) for i in range(6)]}, "components: Must be 5 or fewer"),
        ({"components": [row(*[button(str(i)) for i in range(6)])]},
         "components.0.components: Must be between 1 and 5"),
        ({"components": [row(button("c" * 101))]}, "components.0.components.0.custom_id: Must be between 1 and 100"),
        ({"components": [row(button(label="l" * 81))]}, "components.0.components.0.label: Must be 80 or fewer"),
        ({"components": [row(button("same"), button("same"))]}, "components: Component custom id cannot be dup"),
        ({"components": [row({"type": 3, "custom_id": "s", "options": [
            {"label": str(i), "value": str(i)} for i in range(26)]})]},
         "components.0.components.0.options: Must be 25 or fewer"),
        ({}, "Cannot send an empty message"),
    ],
)
def test_messages_discord_refuses(body: JSONDict, where: str) -> None:
    assert any(line.startswith(where) for line in refused(check_message, body))


def test_limits_are_inclusive() -> None:
    fields = [{"name": "n" * 256, "value": "v" * 20}] * 2
    check_message({"content": "x" * 2000, "embeds": [embed(title="t" * 256, description="d" * 4096)]})
    check_message({"embeds": [embed(fields=fields)] * 10})
    check_message({"components": [row(*[button(str(r * 5 + i)) for i in range(5)]) for r in range(5)]})


def test_autocomplete_and_modal_limits() -> None:
    many = [{"name": str(i), "value": str(i)} for i in range(26)]
    assert refused(check_autocomplete, {"choices": many}) == ["data.choices: Must be 25 or fewer in length. "
                                                             "(BASE_TYPE_MAX_LENGTH)"]
    assert refused(check_autocomplete, {"choices": [{"name": "n" * 101, "value": "v"}]})[0].startswith(
        "data.choices.0.name: Must be between 1 and 100")
    text = {"type": 4, "custom_id": "t", "label": "Note", "style": 1}
    check_modal({"custom_id": "m", "title": "Note", "components": [row(text)]})
    assert refused(check_modal, {"custom_id": "m", "title": "t" * 46, "components": [row(text)]})[0].startswith(
        "data.title: Must be between 1 and 45")


async def test_refusals_over_http_are_recorded(emu: Emulator) -> None:
    url = f"{emu.api_base}/applications/{emu.application_id}/commands"
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {emu.token}"}) as http:
        async with http.put(url, json=[command(f"c{i}") for i in range(101)]) as reply:
            body = await reply.json()
            assert reply.status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body"
        async with http.put(url, json=[command()]) as reply:
            assert reply.status == 200 and (await reply.json())[0]["application_id"] == str(emu.application_id)
    [refusal] = emu.refusals
    assert refusal.method == "PUT" and refusal.status == 400 and len(refusal.request) == 101
    assert emu.command_names() == ["roll"]
    with pytest.raises(AssertionError, match="Must be 100 or fewer"):
        emu.assert_no_refusals()
