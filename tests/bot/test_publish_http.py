"""The two discord.py calls the tracker's edit makes below its documented API (bot/ui/publish.py ``_edit_embed``):
this fails when discord.py changes them, before a tracker edit would fail in a bot."""

from __future__ import annotations

import inspect

import discord
from discord.http import HTTPClient, MultipartParameters, handle_message_parameters


def test_the_edit_parameters_are_those_partial_message_edit_sends() -> None:
    embed = discord.Embed(title="\u2694\ufe0f Encounter \u2014 Round 1", description="\u25b6\ufe0f **1. Bandit 1**")
    embed.set_footer(text="Ars Magica \u00d7 HarnMaster \u00b7 encounter #1")
    with handle_message_parameters(embed=embed) as params:
        assert isinstance(params, MultipartParameters)
        assert params.payload == {"embeds": [embed.to_dict()], "tts": False} and not params.files
    # PartialMessage.edit builds its request with it, and sends it with HTTPClient.edit_message
    source = inspect.getsource(discord.PartialMessage.edit)
    assert "handle_message_parameters(" in source and "http.edit_message(self.channel.id, self.id, params=params)" \
        in source


def test_http_edit_message_takes_a_channel_a_message_and_the_parameters() -> None:
    signature = inspect.signature(HTTPClient.edit_message)
    assert list(signature.parameters) == ["self", "channel_id", "message_id", "params"]
    assert signature.parameters["params"].kind is inspect.Parameter.KEYWORD_ONLY
    assert "self.http: HTTPClient" in inspect.getsource(
        discord.Client.__init__)
