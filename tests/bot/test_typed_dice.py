"""Issue 18: typed Pendragon damage belongs to the side that typed it, and the answer says which dice the bot
rolled beside the faces typed."""

from __future__ import annotations

import io

from bot.playground.session import Playground
from bot.services.event_records import StoredRoll
from bot.ui.typed_dice import rolled_by_bot, typed_dice_line, unused_faces
from tests.bot.playground_replay import examples


def _rolls(*rolls: dict[str, object]) -> list[StoredRoll]:
    return [StoredRoll.from_dict(roll) for roll in rolls]


ATTACK = _rolls({"label": "attacker", "faces": [7]}, {"label": "defender", "faces": [11]},
                {"label": "defender_damage", "faces": [3, 6, 5, 6]})


def test_typed_faces_unused_and_the_dice_rolled_instead_are_said_in_details() -> None:
    """Issue 34 (the reader's 1): the public line's "typed, not used" part was for the one who typed the faces;
    it is said in Details now, and the public message has no line for faces that went nowhere."""
    typed = {"attacker": [7], "defender": [11], "damage": [5, 5, 4, 2]}
    assert typed_dice_line(typed, {"damage": [5, 5, 4, 2]}) is None
    assert unused_faces({"damage": [5, 5, 4, 2]}) == ["damage=5,5,4,2"]
    assert rolled_by_bot(ATTACK, typed, {"damage": [5, 5, 4, 2]}) == ["defender\\_damage"]


def test_a_label_typed_short_says_how_many_dice_the_bot_rolled() -> None:
    rolls = _rolls({"label": "attacker", "faces": [7]}, {"label": "damage", "faces": [5, 5, 4, 2, 2]})
    assert rolled_by_bot(rolls, {"attacker": [7], "damage": [5, 5, 4, 2]}, {}) == ["damage (1 of 5 dice)"]


def test_dice_typed_in_full_or_not_at_all_get_no_line() -> None:
    whole = {"attacker": [7], "defender": [11], "defender_damage": [3, 6, 5, 6]}
    assert typed_dice_line(whole, {}) is None
    assert typed_dice_line({}, {}) is None


NAMES = {"attacker": "Bandit 1", "defender": "Sir Elyan"}


def test_a_knockdown_typed_that_no_roll_used_is_said_unused_and_whose_it_was() -> None:
    """Issue 34 P6: the GM typed his bandit's blow with a knockdown of 20 for the knight's fall; a bare label is
    the bandit's own, which no blow called for: it is said unused, never given to the knight."""
    whole = {"attacker": [7], "defender": [11], "defender_damage": [3, 6, 5, 6]}
    line = typed_dice_line({**whole, "attacker:knockdown": [20]}, {"attacker:knockdown": [20]}, NAMES)
    assert line is None
    assert unused_faces({"attacker:knockdown": [20]}, NAMES) == ["knockdown=20 (Bandit 1 rolled no knockdown)"]


def test_a_face_typed_for_one_side_says_where_it_went() -> None:
    typed = {"attacker": [7], "defender": [11], "defender_damage": [3, 6, 5, 6], "defender:knockdown": [20]}
    assert typed_dice_line(typed, {}, NAMES) == "\U0001f3b2 20 \u2192 Sir Elyan's knockdown"


def test_a_typed_face_names_the_roll_as_the_game_does() -> None:
    """Read at phone width (issue 34): Fading Suns' typed wound-effect face read 'Thug 1's effect', and a
    Pendragon major wound face 'Bandit 1's major wound'; each roll is named as the system's profile names it."""
    effect = typed_dice_line({"defender:effect": [15]}, {}, {"attacker": "Erian", "defender": "Thug 1"},
                             "fading-suns")
    assert effect == "\U0001f3b2 15 \u2192 Thug 1's wound-effect roll"
    unused = {"defender:major_wound": [9]}
    wound = typed_dice_line({"defender:knockdown": [3], **unused}, unused, NAMES, "pendragon")
    assert wound == "\U0001f3b2 3 \u2192 Sir Elyan's knockdown roll"  # no key the typer never typed (the reader's 2b)
    assert unused_faces(unused, NAMES, "pendragon") == [
        "defender\\_major\\_wound=9 (Sir Elyan rolled no major wound roll)"]
    shock = typed_dice_line({"defender:shock": [2]}, {}, NAMES, "ars-harn")
    assert shock is not None and shock.endswith("Sir Elyan's shock roll")


def test_four_faces_typed_for_one_side_read_in_two_lines_at_phone_width() -> None:
    """A Pendragon blow with four faces typed for the bandit ran to four lines at 40 columns (Discord's mobile
    embed), "→ Bandit 1's ... roll" each time; the side is named once and its rolls listed, every face kept."""
    import textwrap

    typed = {"attacker": [14], "defender": [15], "damage": [4, 4, 3, 3, 2], "defender:knockdown": [15],
             "defender:major_wound": [5], "defender:valorous": [12], "defender:stat_loss": [6]}
    line = typed_dice_line(typed, {}, {"attacker": "Sir Owain", "defender": "Bandit 1"}, "pendragon")
    assert line == "\U0001f3b2 Bandit 1's rolls: knockdown 15, major wound 5, Valorous 12, stat loss 6"
    assert len(textwrap.wrap(line.replace("\U0001f3b2", "[]"), 40)) == 2  # the die is two columns wide


def test_each_side_is_named_once_and_a_roll_of_several_dice_keeps_its_faces_together() -> None:
    typed = {"attacker:knockdown": [3], "defender:knockdown": [20], "defender:stat_loss": [2]}
    assert typed_dice_line(typed, {}, NAMES, "pendragon") == (
        "\U0001f3b2 3 \u2192 Bandit 1's knockdown roll \u00b7 Sir Elyan's rolls: knockdown 20, stat loss 2")
    several = {"defender:shock": [4, 2], "defender:kill": [7]}
    assert typed_dice_line(several, {}, NAMES, "ars-harn") == "\U0001f3b2 Sir Elyan's rolls: shock [4,2], kill 7"


async def test_alices_damage_is_not_the_man_at_arms_damage() -> None:
    """The table's report: Alice typed her own damage, the man-at-arms won the exchange, and her faces became
    his damage. Now his damage is rolled and the answer says her faces were not used."""
    out = io.StringIO()
    playground = Playground(out, echo=True, base_dir=examples())
    script = [
        "/setup system system:pendragon", "/setup gm-role role:GM", ":as alice",
        '/character create name:"Dame Alys" stats:"siz=14 dex=12 str=13 con=14 app=11 skills.sword=16" '
        'weapons:sword armour:"chainmail, shield"',
        "/encounter start", '/encounter add character:"Dame Alys"', ":as gm",
        "/encounter npcs template:man_at_arms count:1", ":as alice",
        '/attack target:"Man-at-arms 1" weapon:sword dice:"attacker=7 defender=11 damage=5,5,4,2"',
        ":click 1",  # Details: what became of the faces, for the one who typed them
    ]
    async with playground.running():
        for line in script:
            assert await playground.run_line(line)
    text = out.getvalue()
    answer = text[text.index("dice:\"attacker=7"):text.rindex(":click 1")]
    assert "Man-at-arms 1 wins the exchange" in answer
    # The playground prints Discord's markdown escape \\_ as the _ a reader sees.
    assert "\U0001f3b2" not in answer.split("Details")[0]  # nothing typed went to a side: no public line
    details = text[text.rindex(":click 1"):]
    assert "These typed faces were not needed: damage=5,5,4,2" in details
    assert "Rolled by the bot: defender_damage" in details
