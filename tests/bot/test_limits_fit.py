"""``limits.fit`` leaves an embed that fits as it is, without rebuilding it (issue 23: two or three embeds an
attack, each read through discord.py's proxies and rebuilt field by field). What it gives back is, byte for byte
(the JSON discord.py sends, key order included), what the rebuilding path ``_refit`` gives for the same embed."""

from __future__ import annotations

import json
from typing import Any

import discord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ui import limits

# Short and long, ASCII and not (astral characters count two units), empty, whitespace.
TEXT = st.one_of(st.text(max_size=40), st.text(alphabet="ab \u00e9\U0001f5e1", max_size=30),
                 st.integers(0, 7000).map(lambda n: "x" * n), st.integers(0, 1100).map(lambda n: "\U0001f5e1" * n),
                 st.just(""), st.just("   "))
FIELD = st.tuples(TEXT, TEXT, st.booleans())


@st.composite
def recipes(draw: st.DrawFn) -> dict[str, Any]:
    return {"title": draw(st.none() | TEXT), "description": draw(st.none() | TEXT),
            "footer": draw(st.none() | st.tuples(TEXT, st.none() | st.just("https://example.org/i.png"))),
            "author": draw(st.none() | TEXT), "fields": draw(st.lists(FIELD, max_size=28)),
            "from_dict": draw(st.booleans()), "thumbnail": draw(st.booleans())}


def build(recipe: dict[str, Any]) -> discord.Embed:
    """The embed of ``recipe``: through the builder methods, or (as a copied message's) from a dict whose fields
    and footer have keys in another order."""
    if recipe["from_dict"]:
        data: dict[str, Any] = {"type": "rich", "fields": [{"name": n, "value": v, "inline": i}
                                                           for n, v, i in recipe["fields"]]}
        for key in ("title", "description"):
            if recipe[key] is not None:
                data[key] = recipe[key]
        if recipe["footer"] is not None:
            data["footer"] = {"icon_url": recipe["footer"][1], "text": recipe["footer"][0]}
        if recipe["author"] is not None:
            data["author"] = {"name": recipe["author"]}
        return discord.Embed.from_dict(data)
    embed = discord.Embed(title=recipe["title"], description=recipe["description"], colour=0x3366AA)
    if recipe["footer"] is not None:
        embed.set_footer(text=recipe["footer"][0], icon_url=recipe["footer"][1])
    if recipe["author"] is not None:
        embed.set_author(name=recipe["author"])
    if recipe["thumbnail"]:
        embed.set_thumbnail(url="attachment://hit.png")
    for name, value, inline in recipe["fields"]:
        embed.add_field(name=name, value=value, inline=inline)
    return embed


def sent(embed: discord.Embed) -> str:
    return json.dumps(embed.to_dict(), ensure_ascii=False)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(recipes())
def test_fit_gives_what_the_rebuilding_path_gives(recipe: dict[str, Any]) -> None:
    assert sent(limits.fit(build(recipe))) == sent(limits._refit(build(recipe)))


def test_an_embed_that_fits_is_read_once_and_not_rebuilt(monkeypatch: Any) -> None:
    embed = discord.Embed(title="Bjorn attacks Bandit 1", description="**Hit** on Bandit 1's **skull**",
                          colour=0x3366AA)
    embed.add_field(name="\u23f3 Waiting for the GM", value="Bandit 1's shock roll", inline=False)
    embed.set_footer(text="Ars Magica \u00d7 HarnMaster \u00b7 round 1 \u00b7 event #5")
    before = sent(embed)
    reads = []
    for name in ("fields", "footer", "author"):  # each read builds discord.py proxies (fails before: 8 reads)
        prop = getattr(discord.Embed, name)
        monkeypatch.setattr(discord.Embed, name, property(lambda self, p=prop, n=name: reads.append(n) or p.fget(self)))
    rebuilt = []
    monkeypatch.setattr(discord.Embed, "clear_fields", lambda self: rebuilt.append(self))
    assert limits.fit(embed) is embed
    assert sent(embed) == before and reads == [] and rebuilt == []
