"""The bot's Discord wording as HTML: user text stays text whatever it holds (a property over hostile strings)."""

from __future__ import annotations

from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.text_safety import plain
from bot.web.markdown import Names, to_html, to_text

ALLOWED_TAGS = {"strong", "em", "u", "s", "code", "br", "small", "span", "pre"}
HOSTILE = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "javascript:alert(1)", "\u202e", "\u2066",
           "&lt;", "&amp;", "\"", "'", "`", "**", "__", "~~", "*", "_", "\\", "<@123>", "<#5>", "<@&7>", "-# ", "> ",
           "# ", "```", "<t:1:R>", "@everyone", "https://evil.example", "{{ 7*7 }}", "{% raw %}", "]]>", "<!--"]
hostile_text = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(alphabet=st.characters(
    blacklist_categories=("Cc", "Cs", "Co", "Cf", "Zl", "Zp")), max_size=8)), max_size=12).map("".join)


class _Read(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def read(html: str) -> _Read:
    parser = _Read()
    parser.feed(html)
    parser.close()
    return parser


@settings(max_examples=300, deadline=None)
@given(hostile_text.filter(lambda name: plain(name).strip()))
def test_user_text_the_bot_made_plain_shows_as_itself_and_adds_no_tag(name: str) -> None:
    shown = plain(name)
    html = str(to_html(f"**{shown}** attacks `#3` {shown}"))
    parsed = read(html)
    assert {tag for tag, _ in parsed.tags} <= ALLOWED_TAGS
    assert all(name == "class" for _, attrs in parsed.tags for name, _ in attrs)
    text = "".join(parsed.text).replace("\u200b", "")
    expected = shown if shown == name else _unescaped(shown)
    assert text == f"{expected} attacks #3 {expected}"


def _unescaped(shown: str) -> str:
    """What Discord shows of ``plain``'s output: its backslash escapes undone, the zero-width breaks unseen."""
    out, escaping = [], False
    for char in shown:
        if escaping or char != "\\":
            out.append(char)
            escaping = False
        else:
            escaping = True
    return "".join(out).replace("\u200b", "")


@settings(max_examples=200, deadline=None)
@given(hostile_text)
def test_any_text_at_all_adds_no_tag_and_no_attribute(raw: str) -> None:
    """Even wording that was not made plain: marks become our tags at most, never the text's own."""
    parsed = read(str(to_html(raw, Names())))
    assert {tag for tag, _ in parsed.tags} <= ALLOWED_TAGS
    assert all(name == "class" for _, attrs in parsed.tags for name, _ in attrs)


def test_marks_mentions_and_lines() -> None:
    names = Names(user=lambda _id: "Alice", role=lambda _id: "GM", channel=lambda _id: "combat")
    html = str(to_html("**Bjorn** hits `S2`\n-# <@1> <@&2> <#3>\n> a quote", names))
    assert html == ("<strong>Bjorn</strong> hits <code>S2</code><br><small class=\"sub\">@Alice @GM #combat</small>"
                    "<br><span class=\"quote\">a quote</span>")
    assert str(to_html("<@9>")) == "@a member"
    assert to_text("**excess\\_doubles** \\<b\\>") == "excess_doubles <b>"


def test_a_mark_may_enclose_a_code_span_as_an_undone_log_line_does() -> None:
    html = str(to_html("~~`#6` 08:04 UTC Bandit 1 attacks Bjorn: **Hit**~~ (undone)"))
    assert html == "<s><code>#6</code> 08:04 UTC Bandit 1 attacks Bjorn: <strong>Hit</strong></s> (undone)"
    assert str(to_html("`**not bold**` and *a `b* c`")) == "<code>**not bold**</code> and *a <code>b* c</code>"
    assert str(to_html("\ue0000\ue001 `x`")) == "\ufffd0\ufffd <code>x</code>"  # our placeholder, typed: text
