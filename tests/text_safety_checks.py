"""How a test reads what the bot sent as Discord would: the hostile text between two markers must show as
itself (every markdown character escaped, no link, no mention, no invisible character)."""

from __future__ import annotations

import re
import string
import unicodedata

# A letter no confusable map or escaping touches: the hostile text sits between two of these.
MARK = "\u01a9"
# Characters Discord's markdown reads, when not escaped with a backslash.
ACTIVE = set("*_~|`[]<>#")
HOSTILE_PIECES = [
    "[", "]", "(", ")", "https://", "http://evil.example/x", "[Free Nitro](https://discord-gift.example/claim)",
    "@everyone", "@here", "<@&123456789012345678>", "<#123456789012345678>", "<@123456789012345678>",
    "# ", "**", "||", "```", "`", "_", "~~", "> ", "\\", "\u202e", "\u2066", "\u200b", "\u0301", "-# ",
    "discord.gg/x", ":", "/", "a", "B", " ", "\u0430", "<t:1:R>", "<:e:1>", "</x:1>", "\ufeff",
]


def wrapped(hostile: str) -> str:
    return f"{MARK}{hostile}{MARK}"


def spans(text: str) -> list[str]:
    return re.findall(f"{MARK}(.*?){MARK}", text, re.DOTALL)


def problems(span: str) -> list[str]:
    """What in ``span`` Discord would read as markup, a link, a mention or an invisible character."""
    found = []
    index = 0
    while index < len(span):
        char = span[index]
        if char == "\\" and index + 1 < len(span) and span[index + 1] in string.punctuation:
            index += 2
            continue
        if char in ACTIVE:
            found.append(f"unescaped {char!r} at {index}")
        elif char != "\u200b" and unicodedata.category(char) in ("Cf", "Cc") and char != "\n":
            found.append(f"invisible U+{ord(char):04X}")
        index += 1
    if re.search(r"[A-Za-z0-9]://", span):
        found.append("a URL Discord would link")
    if re.search(r"@(everyone|here)", span, re.IGNORECASE):
        found.append("an @everyone/@here")
    return found


# A code span the bot wrote (`label`): markdown, links and mentions are inert inside it.
_CODE = re.compile(r"(?<!\\)`([^`]*)`")


def check_echoed(text: str, *, expected: int = 1) -> None:
    """At least ``expected`` hostile spans are in ``text``, and none carries live markup (inside the bot's
    code spans, where nothing is live, none carries an invisible character)."""
    found = 0
    for code in _CODE.findall(text):
        for span in spans(code):
            found += 1
            check_label(span)
    for span in spans(_CODE.sub("", text)):
        found += 1
        assert not problems(span), (problems(span), span, text)
    assert found >= expected, f"the hostile text was not echoed: {text!r}"


def check_label(text: str) -> None:
    """A label (a button, an autocomplete choice) shows text as it is: no invisible character only."""
    bad = [c for c in text if unicodedata.category(c) in ("Cf", "Cc")]
    assert not bad, (bad, text)
