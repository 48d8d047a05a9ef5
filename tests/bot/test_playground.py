"""The offline playground: typed lines become real interactions; replies come back as readable text."""

from __future__ import annotations

import io
import os
import sys
from importlib import resources
from pathlib import Path

import pytest

from bot.cli import main
from bot.playground.lines import LineError, MetaLine, SlashLine, parse_line
from bot.playground.render import render_message
from bot.playground.session import Playground


def test_slash_lines_split_into_path_and_options() -> None:
    line = parse_line('/attack target:"Bandit 1" weapon:Broadsword aim:high')
    assert line == SlashLine(("attack",), {"target": "Bandit 1", "weapon": "Broadsword", "aim": "high"})
    assert parse_line("/encounter start") == SlashLine(("encounter", "start"), {})
    assert parse_line(":as alice") == MetaLine("as", ("alice",))
    assert parse_line("   # a comment") is None


@pytest.mark.parametrize("bad", ['/attack target:"Bandit', "attack target:x", "/attack a:1 a:2", "/x :y", "/ a:b"])
def test_unreadable_lines_say_why(bad: str) -> None:
    with pytest.raises(LineError):
        parse_line(bad)


def test_discord_timestamps_read_as_times() -> None:
    from datetime import datetime

    from bot.playground.render import plain

    expected = datetime.fromtimestamp(1795964581).strftime("%H:%M")
    assert plain("#11 <t:1795964581:t> The GM decides") == f"#11 {expected} The GM decides"
    assert plain("<t:1795964581>").startswith(datetime.fromtimestamp(1795964581).strftime("%Y-%m-%d"))


def test_messages_render_as_text_with_numbered_buttons_and_names() -> None:
    message = {
        "content": "Turn: <@42>",
        "embeds": [{"title": "Bjorn attacks", "color": 0xE74C3C, "fields": [{"name": "Injury", "value": "**K4**"}]}],
        "components": [{"type": 1, "components": [{"type": 2, "label": "Death", "custom_id": "a"},
                                                  {"type": 2, "label": "Incapacitation", "custom_id": "b"}]}],
        "flags": 64,
    }
    text = render_message(message, first_button=3, names={42: "alice"})
    assert "Turn: @alice" in text
    assert "| Bjorn attacks [red]" in text
    assert "| Injury: K4" in text
    assert "[3] Death" in text and "[4] Incapacitation" in text
    assert "only you can see this" in text


def test_an_escaped_character_reads_as_itself_underscores_too() -> None:
    from bot.playground.render import plain

    assert plain(r"defender\_knockdown=15 \*not bold\*") == "defender_knockdown=15 *not bold*"


async def test_threads_and_forum_posts_open_archive_reopen_and_lock_in_one_line_each() -> None:
    """:thread and :forum open a place to play; a command in an archived thread, or a player's in a locked one,
    is one line (Discord shows no command box there) and :say reopens an archived one."""
    out = io.StringIO()
    playground = Playground(out, base_dir=_examples(), discord="quick")
    async with playground.running():
        for line in (":thread The ford", ":idle 2d", "/help", ":say We're back", "/help", ":as alice", ":lock",
                     ":as gm", ":lock", ":as alice", "/help", ":idle soon", ":thread combat", ":forum Session 3",
                     ":thread Aside", ":channel combat", ":thread The ford"):
            await playground.run_line(line)
        thread = playground.channel
        forum_post = playground._channels["Session 3"]
    text = out.getvalue()
    assert "(gm opened a thread in #combat: you are now in #The ford)" in text
    assert "(#The ford was quiet that long: Discord archived it)" in text
    assert "! #The ford is archived: Discord shows no command box there until a message reopens it (:say TEXT)" in text
    assert text.count("Grievous in #The ford (new)") == 1  # /help answered once: after :say reopened the thread
    assert "! locking a thread needs Manage Threads (:as gm)" in text and "(#The ford is locked)" in text
    assert "! #The ford is locked: only a member with Manage Threads posts there (:as gm)" in text
    assert "! :idle takes a time: 90 (minutes), 2h, 1d, 1w" in text
    assert "! #combat is a channel: give the thread another name" in text
    assert "(alice opened a post in the forum #scenes: you are now in #Session 3)" in text
    assert "! #scenes is a forum: :forum NAME opens a post there" in text  # :thread from inside a post
    assert text.endswith("(you are now in #combat)\n(you are now in #The ford)\n")
    assert thread.name == "The ford" and thread.locked and forum_post.parent_id == playground._channels["scenes"].id
    assert "Traceback" not in text


async def test_the_demo_fight_runs_to_the_gm_decision() -> None:
    out = io.StringIO()
    playground = Playground(out, echo=True, base_dir=_examples(), discord="quick")  # quick buckets (a test)
    async with playground.running():
        for line in _demo():
            assert await playground.run_line(line)
        assert playground.emu.refusals == []
    text = out.getvalue()
    assert playground.errors == 0, text
    assert "Bjorn attacks Bandit 1" in text
    assert "S3" in text and "K4" in text
    assert "[3] Death" in text and "[4] Incapacitation" in text
    assert "Bandit 1 lives, but is incapacitated.\n| Chosen by @gm." in text
    assert "The encounter ended" in text


async def test_a_player_cannot_press_the_gm_button_and_bad_lines_are_one_line() -> None:
    out = io.StringIO()
    playground = Playground(out, base_dir=_examples(), discord="quick")
    async with playground.running():
        for line in _demo()[: _demo().index(":click 4") - 1]:
            await playground.run_line(line)
        await playground.run_line(":as bob")
        await playground.run_line(":click 3")  # Death
        await playground.run_line("/attack target:Nobody count:many")
        await playground.run_line(":click 99")
        await playground.run_line(":frobnicate")
        await playground.run_line("/atack target:x")
    text = out.getvalue()
    assert "only the GM" in text.lower() or "gm role" in text.lower()
    assert "! there is no button [99]" in text
    assert "! unknown playground command ':frobnicate'" in text
    assert ("! /attack has no option count here; its options: target, weapon, aspect, aim, modifier, save_excess, "
            "dice, attacker") in text
    assert "! there is no /atack command; did you mean /attack? /help lists them all" in text
    assert "Traceback" not in text


def test_the_cli_replays_a_script_and_exits_2_on_unreadable_lines(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "script.txt"
    script.write_text("/roll expression:3d6+2 dice:1,2,3\n/help topic:combat\n:nonsense\n", encoding="utf-8")
    assert main(["playground", "--script", str(script)]) == 2
    out = capsys.readouterr()
    assert "rolls 3d6+2" in out.out and "Total 8" in out.out
    assert "/attack" in out.out
    assert "1 line(s) could not be run" in out.err


@pytest.mark.parametrize("given", ["postgresql+asyncpg://::bad", "mysql://a@b/c", "/no/such/folder/campaign.db"])
def test_a_database_that_is_not_one_is_one_line_and_exit_2(given: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "script.txt"
    script.write_text("/roll expression:3d6\n", encoding="utf-8")
    assert main(["playground", "--database", given, "--script", str(script)]) == 2
    out = capsys.readouterr()
    assert "--database" in out.err and "Traceback" not in out.err + out.out
    assert len(out.err.strip().splitlines()) == 1 and "rolls" not in out.out


def test_a_plain_file_path_keeps_the_game_in_that_sqlite_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "script.txt"
    script.write_text("/roll expression:3d6+2 dice:1,2,3\n", encoding="utf-8")
    assert main(["playground", "--database", "campaign.db", "--script", str(script)]) == 0
    assert "Total 8" in capsys.readouterr().out
    assert (tmp_path / "campaign.db").stat().st_size > 0


def _examples() -> Path:
    return Path(str(resources.files("content") / "examples"))


def _demo() -> list[str]:
    return (resources.files("content") / "examples" / "playground-demo.txt").read_text(encoding="utf-8").splitlines()


def test_files_the_bot_sends_are_saved_once_and_listed(tmp_path: Path) -> None:
    from emulator.models import Attachment

    png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + (120).to_bytes(4, "big") + (90).to_bytes(4, "big") + b"\0" * 2000
    picture = Attachment(7, "wounds.png", png, "http://x/wounds.png")
    saved = Playground(io.StringIO(), files_dir=tmp_path / "files")
    line = saved._file_line(picture)
    assert line == f"  [file] {tmp_path / 'files' / '001-wounds.png'} (2.0 KB, 120x90)"
    assert saved._file_line(picture) == line and (tmp_path / "files" / "001-wounds.png").read_bytes() == png
    assert Playground(io.StringIO())._file_line(picture) == "  [file] wounds.png (2.0 KB, 120x90)"


async def test_a_seed_is_set_once_per_session_so_each_roll_differs() -> None:
    out = io.StringIO()
    playground = Playground(out, seed=5)
    async with playground.running():
        for _ in range(3):
            await playground.run_line("/roll expression:1d1000")
    totals = [line for line in out.getvalue().splitlines() if "Total" in line]
    assert len(totals) == 3 and len(set(totals)) == 3, totals


async def test_a_kept_database_carries_the_game_to_the_next_session(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'campaign.db'}"
    first = io.StringIO()
    playground = Playground(first, database_url=url, echo=True)
    async with playground.running():
        for line in ("/setup system system:pendragon", ":as alice",
                     '/character create name:Hrolf stats:"siz=14 dex=12 str=13 con=12 app=10"'):
            assert await playground.run_line(line)
    assert playground.errors == 0, first.getvalue()
    second = io.StringIO()
    playground = Playground(second, database_url=url, echo=True)
    async with playground.running():
        await playground.run_line(":as alice")
        await playground.run_line("/character show name:Hrolf")
        await playground.run_line("/setup show")
    text = second.getvalue()
    assert playground.errors == 0 and "Hrolf" in text and "King Arthur Pendragon" in text, text
    assert "Owner: @alice" in text, text


async def test_choices_read_quoted_values_even_half_typed() -> None:
    out = io.StringIO()
    playground = Playground(out)
    async with playground.running():
        for name in ("Old Bjorn", "Old Bertil"):
            await playground.run_line(f'/character create name:"{name}" stats:"str=2 sta=1 dex=0 qik=0"')
        out.seek(0)
        out.truncate()
        await playground.run_line(':choices /character show name:"Old Bj"')
        await playground.run_line(':choices /character show name:"Old B')
    assert playground.errors == 0, out.getvalue()
    assert out.getvalue() == "  Old Bjorn\n" + "  Old Bertil\n  Old Bjorn\n"  # "Old Bj", then "Old B


async def test_an_upload_typed_by_hand_finds_the_example_sheets(monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # not where the sheets are, and no script beside them
    out = io.StringIO()
    playground = Playground(out)
    async with playground.running():
        await playground.run_line("/character import sheet:@sheets/bjorn.yaml")
        await playground.run_line("/character import sheet:@nowhere.yaml")
    text = out.getvalue()
    assert "| Bjorn" in text, text
    assert "! nowhere.yaml: no such file here, beside the script, or in the examples to upload" in text
    assert playground.errors == 1


def test_tab_completes_commands_options_and_choices() -> None:
    from bot.playground.completion import Completer

    commands = [
        {"name": "attack", "type": 1, "options": [
            {"name": "target", "type": 3}, {"name": "aspect", "type": 3, "choices": [
                {"name": "blunt", "value": "blunt"}, {"name": "edge", "value": "edge"}]},
            {"name": "save_excess", "type": 5}]},
        {"name": "encounter", "type": 1, "options": [
            {"name": "start", "type": 1, "options": []},
            {"name": "add", "type": 1, "options": [{"name": "character", "type": 3}]}]},
    ]
    complete = Completer(lambda: commands).candidates
    assert complete("/at") == ["/attack "]
    assert complete("/") == ["/attack ", "/encounter "]
    assert complete("/encounter ") == ["start ", "add "]
    assert complete("/encounter add ch") == ["character:"]
    assert complete("/attack target:Bo a") == ["aspect:"]
    assert complete("/attack aspect:e") == ["aspect:edge "]
    assert complete("/attack save_excess:") == ["save_excess:true ", "save_excess:false "]
    assert complete(":ch") == [":channel ", ":choices "]
    assert complete(":choices /attack aspect:b") == ["aspect:blunt "]
    typed = "/attack asp"
    readline_like = Completer(lambda: commands, lambda: typed)
    assert [readline_like.complete("asp", 0), readline_like.complete("asp", 1)] == ["aspect:", None]


async def test_a_slow_command_is_over_before_the_next_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A command that shows "thinking" (here /setup system, slowed past the playground's quiet moment) has
    answered, and the server's commands follow the new system, before the next line runs."""
    import asyncio

    from bot.app import GrievousBot
    from bot.ui import publish

    resync = GrievousBot.resync_guild

    async def slow_resync(self: GrievousBot, guild_id: int) -> None:
        await asyncio.sleep(0.6)
        await resync(self, guild_id)

    monkeypatch.setattr(publish, "DEFER_AFTER", 0.0)
    monkeypatch.setattr(GrievousBot, "resync_guild", slow_resync)
    out = io.StringIO()
    playground = Playground(out)
    async with playground.running():
        await playground.run_line("/setup system system:pendragon")
        attack = next(c for c in playground.registered_commands() if c["name"] == "attack")
        assert "mounted" in {o["name"] for o in attack["options"]}
    assert "King Arthur Pendragon" in out.getvalue() and playground.errors == 0, out.getvalue()


async def test_choices_of_a_fixed_choice_option_are_listed_and_channels_read_by_name() -> None:
    out = io.StringIO()
    playground = Playground(out)
    async with playground.running():
        await playground.run_line(":choices /setup rolls mode:")
        listed = out.getvalue()
        out.seek(0)
        out.truncate()
        await playground.run_line(":channel gm-screen")
        await playground.run_line(":channel combat")
        await playground.run_line("/setup secret-rolls on:true gm_channel:#gm-screen")
        await playground.run_line("/setup show")
    assert playground.errors == 0, out.getvalue()
    assert "did not answer" not in listed and listed.startswith("  "), listed
    assert "#gm-screen" in out.getvalue() and "#1" not in out.getvalue(), out.getvalue()


async def test_a_channel_made_with_colon_channel_is_there_in_the_next_session(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'campaign.db'}"
    first = io.StringIO()
    playground = Playground(first, database_url=url, echo=True)
    async with playground.running():
        for line in (":channel gm-screen", ":channel combat", "/setup secret-rolls on:true gm_channel:#gm-screen"):
            assert await playground.run_line(line)
    assert playground.errors == 0, first.getvalue()
    second = io.StringIO()
    playground = Playground(second, database_url=url, echo=True)
    async with playground.running():
        await playground.run_line("/setup show")
        shown = second.getvalue()
        await playground.run_line(":channel gm-screen")
    assert playground.errors == 0 and "#gm-screen" in shown and "#1" not in shown, shown


async def test_the_log_says_whose_turn_ended_and_in_which_round() -> None:
    out = io.StringIO()
    playground = Playground(out, base_dir=_examples())
    async with playground.running():
        for line in ("/setup system system:ars-harn", ":as alice", "/character import sheet:@sheets/bjorn.yaml",
                     ":as gm", "/encounter start", "/encounter npcs template:bandit count:1", ":as alice",
                     "/encounter add character:Bjorn", ":as gm", '/encounter initiative dice:"initiative=5,8"',
                     ":as alice", "/encounter next", ":as gm", "/encounter next"):
            await playground.run_line(line)
        out.seek(0)
        out.truncate()
        await playground.run_line("/log limit:2")
    text = out.getvalue()
    assert playground.errors == 0, text
    # Bjorn (8) then Bandit 1 (5): the second end of a turn is the last of round 1, not "(round 2)"
    assert "Game Master ends Bandit 1's turn (round 1)" in text and "Alice ends Bjorn's turn (round 1)" in text, text


async def test_the_docs_roll_is_taken_as_written() -> None:
    assert parse_line("/roll expression:stress+5 vs 9 dice:1,1,4") == SlashLine(
        ("roll",), {"expression": "stress+5 vs 9", "dice": "1,1,4"})
    out = io.StringIO()
    playground = Playground(out)
    async with playground.running():
        await playground.run_line("/roll expression:stress+5 vs 9 dice:1,1,4")
    assert playground.errors == 0 and "vs 9" in out.getvalue(), out.getvalue()


def test_the_demo_with_no_terminal_answers_every_line_to_the_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """`grievous playground --demo < /dev/null`: the last lines' answers are printed before it exits."""
    monkeypatch.chdir(tmp_path)
    with open(os.devnull, encoding="utf-8") as nothing:
        monkeypatch.setattr(sys, "stdin", nothing)
        assert main(["playground", "--demo"]) == 0
    out = capsys.readouterr().out
    last = [line for line in _demo() if line.strip() and not line.startswith("#")][-3:]
    assert last == ['/injuries character:"Bandit 1"', "/log limit:6", "/encounter end"]
    tail = out.rpartition(last[0])[2]
    assert "Wounds" in tail and "Recent events" in tail and "The encounter ended" in tail, tail


def test_a_script_replays_the_same_dice_every_run_without_a_seed(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A replayed script's untyped rolls (here the NPC's whole attack) come from the script seed, not the OS: two runs
    print the same transcript, so a test reading an example transcript cannot flake."""
    script = tmp_path / "fight.txt"
    script.write_text("/setup system system:pendragon\n/encounter start\n/encounter npcs template:bandit count:2\n"
                      '/attack target:"Bandit 2" weapon:club attacker:"Bandit 1"\n/roll expression:1d1000\n',
                      encoding="utf-8")
    runs = []
    for _ in range(2):
        assert main(["playground", "--script", str(script), "--files", str(tmp_path / "files")]) == 0
        runs.append(capsys.readouterr().out)
    assert "Total" in runs[0] and runs[0] == runs[1]


async def test_an_accepted_chirurgery_shows_above_the_rest_that_followed_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 34, P9: the third table saw an accepted chirurgery below the rest that followed it. The press is
    answered at once (deferred) and its result posted after the treatment's write; on a loaded machine that
    came after the playground's quiet moment, so the result was printed with the next line's. Slowed here past
    that moment: the line's own result still comes before the next line runs."""
    import asyncio

    from bot.services.injuries import InjuryService

    answer = InjuryService.answer_offer

    async def slow_answer(self: InjuryService, *args: object, **kwargs: object) -> object:
        await asyncio.sleep(0.6)
        return await answer(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(InjuryService, "answer_offer", slow_answer)
    out = io.StringIO()
    playground = Playground(out)
    async with playground.running():
        for line in ("/setup system system:pendragon", "/setup gm-role role:GM", ":as alice",
                     '/character create name:"Sir Bedwyr" stats:"siz=14 dex=12 str=13 con=8 app=11 '
                     'skills.sword=16 traits.valorous=15" weapons:sword', ":as bob",
                     '/character create name:"Sir Brehus" stats:"siz=14 dex=12 str=13 con=14 app=11 '
                     'skills.sword=16 skills.chirurgery=15 traits.valorous=15" weapons:sword', ":as gm",
                     "/encounter start", "/encounter npcs template:bandit count:1", ":as alice",
                     '/encounter add character:"Sir Bedwyr"', ":as gm",  # a major wound: chirurgery is needed
                     '/attack attacker:"Bandit 1" target:"Sir Bedwyr" weapon:club dice:"attacker=8 defender=17 '
                     'damage=6,6,6 defender_knockdown=20 defender_major_wound=5 defender_valorous=3"',
                     "/encounter end",
                     ":as bob", '/heal character:"Sir Bedwyr" method:chirurgy healer:"Sir Brehus" dice:"chirurgery=5"',
                     ":as alice", ":click 2", '/rest character:"Sir Bedwyr" days:7'):
            await playground.run_line(line)
    text = out.getvalue()
    assert playground.errors == 0, text
    assert "gets chirurgery from Sir Brehus" in text and "rests 1 week" in text, text
    assert text.index("gets chirurgery from Sir Brehus") < text.index("rests 1 week"), text
