"""A game's dice at a real pseudo-terminal (pexpect): the opponent's word asked after Enter at
the first dice prompt, typed dice over a program roll refused after going back, the override
asked of both players, and the check code shown at the end; the same for an LnLT impulse."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.support.game import log_json, new_game
from tests.support.pty import DOWN, ENTER, Session

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty"),
]


def refused_and_coded(text: str, game: Path, *, dice: int) -> None:
    """The program's first roll (``dice`` dice) shown after Red's word ``owls`` was refused
    when typed over, and the check code shown after entry #1 is the log's."""
    assert "Traceback" not in text
    faces = " ".join([r"[1-6]"] * dice)
    shown = re.search(rf"owls.*?\n\s+({faces}) \(rolled\)", text, re.S)
    assert shown is not None, text
    assert f"the program rolled this: {shown.group(1)}" in text
    code = re.search(r"Check code after #1: (\S+)", text)
    assert code is not None, text
    entry = log_json(game)["entries"][0]
    assert entry["check_code"] == code.group(1) and entry["word"] == "owls"
    assert entry["rolls"][0]["dice_text"] == shown.group(1) and entry["overrides"] == []


def test_the_word_the_refusal_and_the_check_code_at_a_terminal(spawn, tmp_path: Path) -> None:
    game = tmp_path / "night.sqlite"
    new_game(game)
    s = Session(spawn("attack", "epic", "--declaration",
                      "transcripts/scripts/epic-grey-company.toml", "--game", str(game),
                      "--odds", "none"))
    s.expect("Which side")  # asked once, before any die (issue 27)
    s.child.send(ENTER)  # Grey
    s.expect("What action is")
    s.child.send(DOWN + ENTER)  # Double
    s.expect("in cover?")
    s.child.send("y")
    s.expect("fires AP5+ or AT4+?")
    s.child.send(DOWN + ENTER)  # AT 4+
    s.expect("Roll to hit for Heavy cannon")
    s.child.send(ENTER)  # the program rolls: Red's word first
    s.expect("Red: type a word for this attack's dice")
    s.child.sendline("owls")
    s.expect("Roll to hit for Autogun")
    s.child.sendline("<")
    s.expect("Roll to hit for Heavy cannon")
    s.child.sendline("6 6 6")
    s.expect("Override the program's roll?")
    s.child.send("n")
    s.expect("Roll to hit for Heavy cannon")
    s.child.send(ENTER)
    s.expect("Roll to hit for Autogun")
    s.child.send(ENTER)
    six = s.child.expect_exact(["roll the", "Check code after"]) == 0  # a six rolls again?
    s.seen.append(s.child.before + s.child.after)  # kept either way: the code follows it
    if six:
        s.child.send(ENTER)
    assert s.finish() == 0
    refused_and_coded(s.text, game, dice=3)


def test_an_impulse_asks_the_word_keeps_its_roll_and_shows_its_code(
        spawn, tmp_path: Path, game_seed: str) -> None:
    """An LnLT impulse in a game made by ``game new``: Enter at the opposed roll asks Red's
    word, ``<`` over the program's dice and typed dice there are refused, the check code
    after the impulse is the log's."""
    game = tmp_path / "night.sqlite"
    new_game(game)
    s = Session(spawn("phase", "lnlt", "--game", str(game), "--roster",
                      "benchmarks/questions/lnlt-fire.toml", "--impulses", "1"))
    s.expect("Impulse 1, Grey: activate units or pass?")
    s.child.send("fire")
    s.child.send(ENTER)
    s.expect("Direct Fire Table modifiers (DRM), then the terrain modifier (TM)")
    s.child.sendline("0 1")
    s.expect("Opposed roll: attack die of Able squad, then defence die of D4")
    s.child.send(ENTER)  # the program rolls: Red's word first
    s.expect("Red: type a word for this attack's dice")
    s.child.sendline("owls")
    s.expect("Damage-check die of Pawn half-squad")
    s.child.sendline("<")
    s.expect("Opposed roll: attack die of Able squad, then defence die of D4")
    s.child.sendline("6 1")
    s.expect("Override the program's roll?")
    s.child.send("n")
    s.expect("Opposed roll: attack die of Able squad, then defence die of D4")
    s.child.send(ENTER)
    s.expect("Damage-check die of Pawn half-squad")
    s.child.sendline("3")
    s.expect("damage check total")
    s.child.send("shak")
    s.child.send(ENTER)
    assert s.finish() == 0
    refused_and_coded(s.text, game, dice=2)
