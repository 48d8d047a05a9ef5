"""Text a user typed, as the bot takes it in and shows it to others: the one place of that policy.

Two halves, documented for users in docs/commands.md ("Names and the text the bot echoes"):

- **At entry, names** (characters, NPC name prefixes) are normalised (Unicode NFKC, whitespace runs
  made one space) and refused, in one line that says what a name may hold, when they carry a character
  that cannot be part of a name: markup (``* _ ~ | ` # > [ ] < @ :`` ...), an invisible or format
  character (zero-width spaces, direction overrides), a control character, or a combining mark with no
  letter to sit on. ``skeleton`` is how a name reads (look-alike Cyrillic and Greek letters, ``0``/``O``,
  ``1``/``l``/``I`` folded together): the services refuse a name that reads the same as another in the
  server, and a player's character that reads like an NPC template's numbered name ("Bandit 1").
- **At render, everything** a user typed (names, stored before this policy too, notes, file names,
  roll expressions, pack entries' names, Discord display names) passes through ``plain`` before it is
  written into an embed or a message, and through ``label`` before it is a button label, a select
  option or an autocomplete choice (surfaces that render no markdown). ``plain`` escapes every markdown
  character with a backslash, breaks ``scheme://`` (Discord turns a bare URL in embed text into a link)
  and the ``@everyone``/``@here`` words with a zero-width space, and drops invisible and control
  characters. It returns a ``Plain`` (a ``str``), and is idempotent on one: a name made plain once is
  never escaped twice, however many helpers it passes through.
"""

from __future__ import annotations

import re
import unicodedata

from bot.errors import UserError

MAX_NAME = 100

# What a name may hold besides letters, digits, marks on them, spaces and symbols such as emoji.
NAME_PUNCTUATION = "'\u2019-.,()&!?\""
_ALLOWED = "letters, digits, spaces and ' - . , ( ) & ! ?"

# Letters that look blank (Hangul fillers, the braille blank): a name of these reads as nothing.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Combining marks stacked on one letter past this are "zalgo" text, not a script's accents.
_MAX_MARKS = 4


def clean_name(name: str, what: str = "a character's name") -> str:
    """``name`` normalised (NFKC, one space between words) if it may be a name; else one UserError line
    that says what is allowed."""
    text = unicodedata.normalize("NFKC", str(name))
    for char in text:  # before whitespace is collapsed: a line break is refused, not joined
        if char in "\n\r\u2028\u2029\x85\x0b\x0c":
            raise UserError(f"{what} is one line: {_ALLOWED}")
    cleaned = " ".join(text.split())
    if not cleaned:
        raise UserError("a character needs a name")
    if len(cleaned) > MAX_NAME:
        raise UserError(f"{what} is at most {MAX_NAME} characters")
    _check_characters(cleaned, what)
    if not any(unicodedata.category(c)[0] in "LN" for c in cleaned):
        raise UserError(f"{what} needs a letter or a digit")
    return cleaned


def _check_characters(cleaned: str, what: str) -> None:
    """One UserError line for the first character a name may not hold: a combining mark with no letter under it
    (or stacked past _MAX_MARKS), an invisible or control character, or punctuation not in NAME_PUNCTUATION."""
    marks = 0
    previous = ""
    for char in cleaned:
        category = unicodedata.category(char)
        if category[0] == "M":
            marks += 1
            if not previous or unicodedata.category(previous)[0] not in "LNMS" or marks > _MAX_MARKS:
                raise UserError(f"{what} holds a combining mark (U+{ord(char):04X}) with no letter to sit on; "
                                f"a name holds {_ALLOWED}")
        else:
            marks = 0
            if category in ("Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp") or char in _BLANK:
                raise UserError(f"{what} holds an invisible or control character (U+{ord(char):04X}); "
                                f"a name holds {_ALLOWED}")
            if not (category[0] in "LN" or char == " " or char in NAME_PUNCTUATION or category == "So"):
                raise UserError(f"{what} cannot hold '{char}': a name holds {_ALLOWED}")
        previous = char


# -- how a name reads --------------------------------------------------------------------------------

# Look-alikes of Latin letters (Unicode's confusables.txt, the common Cyrillic and Greek ones), and the
# digits and letters that read alike in Discord's font. Mapped before case folding.
_LOOK_ALIKE = str.maketrans({
    # Cyrillic capitals
    "\u0410": "A", "\u0412": "B", "\u0415": "E", "\u0405": "S", "\u0406": "l", "\u0408": "J", "\u041a": "K",
    "\u041c": "M", "\u041d": "H", "\u041e": "O", "\u0420": "P", "\u0421": "C", "\u0422": "T", "\u0425": "X",
    "\u0423": "Y", "\u04ae": "Y", "\u04ba": "H", "\u051a": "Q", "\u051c": "W", "\u04c0": "l", "\u0417": "3",
    # Cyrillic small letters
    "\u0430": "a", "\u0435": "e", "\u043e": "o", "\u0440": "p", "\u0441": "c", "\u0443": "y", "\u0445": "x",
    "\u0455": "s", "\u0456": "i", "\u0458": "j", "\u04bb": "h", "\u0501": "d", "\u051b": "q", "\u051d": "w",
    "\u04cf": "l", "\u0491": "r", "\u0450": "\u00e8", "\u0451": "\u00eb", "\u0457": "\u00ef",
    # Greek capitals
    "\u0391": "A", "\u0392": "B", "\u0395": "E", "\u0396": "Z", "\u0397": "H", "\u0399": "l", "\u039a": "K",
    "\u039c": "M", "\u039d": "N", "\u039f": "O", "\u03a1": "P", "\u03a4": "T", "\u03a5": "Y", "\u03a7": "X",
    # Greek small letters
    "\u03bf": "o", "\u03bd": "v", "\u03c1": "p", "\u03b1": "a", "\u03b9": "i", "\u03ba": "k", "\u03c5": "u",
    "\u03b3": "y", "\u03f2": "c", "\u03f3": "j",
    # Latin letters and digits that read alike
    "\u0131": "i", "\u0251": "a", "\u0261": "g", "I": "l", "1": "l", "|": "l", "0": "O",
})
_LOOK_ALIKE_PAIRS = (("rn", "m"), ("vv", "w"))


def skeleton(name: str) -> str:
    """How ``name`` reads: two names with one skeleton look the same in Discord."""
    text = unicodedata.normalize("NFKC", name)
    text = unicodedata.normalize("NFD", text).translate(_LOOK_ALIKE).casefold()
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cf", "Cc"))
    for pair, single in _LOOK_ALIKE_PAIRS:
        text = text.replace(pair, single)
    return unicodedata.normalize("NFC", " ".join(text.split()))


# What a number reads as in a skeleton (1 -> l, 0 -> o).
_NUMBER_SKELETON = re.compile(r" ?[0-9lo]+")


def reads_like_numbered(name: str, prefix: str) -> bool:
    """``name`` reads like ``prefix`` followed by a number (the names NPCs get: "Bandit 1")."""
    head = skeleton(prefix)
    read = skeleton(name)
    return bool(head) and read.startswith(head) and _NUMBER_SKELETON.fullmatch(read[len(head):]) is not None


def numbered_prefix(name: str) -> str | None:
    """"Bandit" for an NPC named "Bandit 12"; None for a name that ends in no number."""
    found = re.fullmatch(r"(.+?) ([0-9]+)", name)
    return found.group(1) if found else None


# -- render -------------------------------------------------------------------------------------------


class Plain(str):
    """Text already made plain for Discord's markdown (``plain`` leaves it as it is)."""

    __slots__ = ()


# Every character Discord's markdown reads (a backslash before any ASCII punctuation shows it as itself).
_MARKUP = re.compile(r"([\\*_~|`\[\]<>#])")
# A list item, quote or subtext marker at the start of a line.
_LIST_MARK = re.compile(r"^(\s*)([-+])(?=\s|#)", re.MULTILINE)
_NUMBERED = re.compile(r"^(\s*[0-9]+)\.(?=\s)", re.MULTILINE)
_SCHEME = re.compile(r"(?<=[A-Za-z0-9+.\-]):(?=//)")
_EVERYONE = re.compile(r"@(?=everyone|here)", re.IGNORECASE)
_ZWSP = "\u200b"


def _invisible(char: str) -> bool:
    return char != "\n" and unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs", "Zl", "Zp")


# Any character one of the rewrites below may touch: anything but printable ASCII and the line break (an invisible
# or control character, or text the invisible check must read), markup, and the characters that start a list
# item, a numbered line, a link's scheme or a mention. Text without any (most names) is already plain.
_MAY_NEED_WORK = re.compile(r"[^\n\x20-\x7e]|[\\*_~|`\[\]<>#+\-.:@]")
_ASCII_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")  # the only invisible characters ASCII has


def plain(value: object) -> Plain:
    """``value`` as text that Discord shows as itself: no markdown, link, mention or invisible character."""
    if isinstance(value, Plain):
        return value
    text = str(value)
    if _MAY_NEED_WORK.search(text) is None:  # 45 calls an attack that hits: most are names with nothing to do
        return Plain(text)
    return _made_plain(text)


def _made_plain(text: str) -> Plain:
    """Every rewrite of ``plain``, in order (the fast path above skips text none of them touches)."""
    if (not text.isascii() or _ASCII_CONTROL.search(text)) and any(_invisible(c) for c in text):
        text = "".join(c for c in text if not _invisible(c))
    text = _MARKUP.sub(r"\\\1", text)
    text = _LIST_MARK.sub(r"\1\\\2", text)
    text = _NUMBERED.sub(r"\1\\.", text)
    text = _SCHEME.sub(":" + _ZWSP, text)
    text = _EVERYONE.sub("@" + _ZWSP, text)
    return Plain(text)


def label(value: object) -> str:
    """``value`` for a surface that shows text as it is (button labels, select options, autocomplete
    choices): one line, no invisible or control characters."""
    return " ".join("".join(c for c in str(value) if not _invisible(c)).split())
