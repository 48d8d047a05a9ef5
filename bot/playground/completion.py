"""Tab completion for the interactive playground: command names, subcommands, option names and the
choices an option offers (from the commands the bot registered, the server's own first)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

META = ("as", "channel", "choices", "click", "forum", "help", "idle", "lock", "pins", "quit", "say", "thread",
        "unlock", "wait", "who")
_SUBCOMMAND_TYPES = (1, 2)
_BOOLEAN = 5


class Completer:
    """``commands()`` gives the registered command payloads; ``line()`` the text typed so far (readline's)."""

    def __init__(self, commands: Callable[[], Sequence[dict[str, Any]]],
                 line: Callable[[], str] | None = None) -> None:
        self._commands = commands
        self._line = line
        self._matches: list[str] = []

    def complete(self, text: str, state: int) -> str | None:
        """readline's completer: the ``state``-th completion of the word being typed."""
        if state == 0:
            typed = self._line() if self._line is not None else text
            self._matches = self.candidates(typed)
        return self._matches[state] if state < len(self._matches) else None

    def candidates(self, typed: str) -> list[str]:
        """Completions of the last word of ``typed``; a finished word ends in a space (readline in Python adds
        none), an option name in its colon."""
        words = typed.split(" ")
        current, before = words[-1], [w for w in words[:-1] if w]
        if typed.startswith(":"):
            if not before:
                return [f":{verb} " for verb in META if f":{verb}".startswith(current)]
            if before[0] == ":choices":
                return self.candidates(" ".join([*before[1:], current]))
            return []
        if not before:
            names = sorted({str(c["name"]) for c in self._commands() if c.get("type", 1) == 1})
            return [f"/{name} " for name in names if f"/{name}".startswith(current or "/")]
        if not before[0].startswith("/"):
            return []
        options = self._options(before)
        if options is None:
            return []
        subcommands = [o for o in options if o.get("type") in _SUBCOMMAND_TYPES]
        if subcommands and ":" not in current:
            return [f"{o['name']} " for o in subcommands if str(o["name"]).startswith(current)]
        given = {w.partition(":")[0] for w in before if ":" in w}
        name, colon, value = current.partition(":")
        if not colon:
            return [f"{o['name']}:" for o in options
                    if str(o["name"]).startswith(name) and o["name"] not in given]
        option = next((o for o in options if o["name"] == name), None)
        if option is None:
            return []
        values = ["true", "false"] if option.get("type") == _BOOLEAN else [
            str(c["value"]) for c in option.get("choices") or []]
        return [f"{name}:{v} " for v in values if v.startswith(value)]

    def _options(self, words: list[str]) -> list[dict[str, Any]] | None:
        """The options at the level the typed command and subcommand names reach (None: no such command)."""
        name = words[0][1:]
        command = next((c for c in self._commands() if c.get("name") == name and c.get("type", 1) == 1), None)
        if command is None:
            return None
        options: list[dict[str, Any]] = list(command.get("options") or [])
        for word in words[1:]:
            nested = next((o for o in options if o.get("name") == word and o.get("type") in _SUBCOMMAND_TYPES),
                          None)
            if nested is None:
                break
            options = list(nested.get("options") or [])
        return options


def install(commands: Callable[[], Sequence[dict[str, Any]]]) -> bool:
    """Bind Tab to completion in ``input()``; False where there is no readline (Windows)."""
    try:
        import readline
    except ImportError:
        return False
    readline.set_completer(Completer(commands, lambda: readline.get_line_buffer()[:readline.get_endidx()]).complete)
    readline.set_completer_delims(" ")
    if "libedit" in (readline.__doc__ or ""):  # macOS
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    return True
