"""How many questions an attack costs at the table: six reference attacks (not a timed test).

Each case runs the command a player runs (``referee attack``, ``epic-shoot``, ``phase``) in
process, through the same table front end (the rewind port, the odds, the answers' echo), with
a test port that answers as the player would: the facts of the reference attack by question
id, the dice the case types, and Enter (the question's default) for the rest. Every question
asked counts once, dice prompts included, Enter too: each is a prompt the player answers.

A case whose answers name a question the attack no longer asks, or whose attack ends with an
error, is reported as stale (the flow changed: update the case), never counted.

Usage (from the repository root)::

    python benchmarks/questions.py          # one line a case, `NAME: N questions`, then totals
    python benchmarks/questions.py --list   # and every question asked, in order
    python benchmarks/questions.py --json

The scenario "a game night typed, nothing prepared" (issue 27) follows the cases: six attacks
in one game file over two rulesets (Epic, then Flames of War), the same formations, nothing
written beforehand. Each attack is counted as the cases are; a question is *repeated* when an
earlier attack of the night asked the same question (not a die) and got the same answer: what
the game was told already. Choosing what is resolved (which kept formations fire at which) is
a question of each attack, not a repeat.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "benchmarks" / "questions"

# the counts measured before the issue "At the table: half the questions..." and its goals
BEFORE = {"epic-typed": 71, "epic-roster": 37, "cc-typed": 28, "fow-typed": 29,
          "lnlt-fire": 9, "waw-he": 16,
          # issue 30: the whole Flames of War assault was resolved by hand before it
          "fow-assault-typed": None, "fow-assault-game": None,
          # issue 29: Epic assaults were resolved by hand before it
          "epic-assault-typed": None, "epic-assault-roster": None, "epic-assault-game": None,
          # issue 27: measured at f6f7422, where the next mission typed the hex and its
          # defence bonus again and took the kept units with Enter
          "waw-he-game": 7,
          # issue 27: measured at e5a02d8, before the case (the chart answered already)
          "lnlt-impulse-game": 4,
          # measured at e5a02d8, where the strike typed the kept hex again (chemical, 0712)
          "waw-chem-game": 8,
          # issue 27: measured at e5a02d8, where the next attack typed every piece again
          "cc-game": 14}
GOALS = {"epic-typed": 24, "epic-roster": 14, "cc-typed": 14, "fow-typed": 14,
         "lnlt-fire": 5, "waw-he": 9, "fow-assault-typed": 12, "fow-assault-game": 6,
         "epic-assault-typed": 12, "epic-assault-roster": 12, "epic-assault-game": 6,
         "waw-he-game": 5, "cc-game": 5, "lnlt-impulse-game": 4, "waw-chem-game": 5}
# the lines printed after the last answer before issue 27 ("outcome first"; the goal: at
# most 20), measured with --working, which prints what the table printed then (the Epic
# assault cases came after it: none)
LINES_BEFORE: dict[str, int | None] = {
    "epic-typed": 76, "epic-roster": 72, "cc-typed": 36, "fow-typed": 45, "lnlt-fire": 56,
    "waw-he": 53, "fow-assault-typed": 64, "fow-assault-game": 63}
LINES_GOAL = 20


@dataclass
class Case:
    name: str
    what: str
    args: list[str]
    answers: dict[str, Any] = field(default_factory=dict)  # by question id
    dice: Callable[[Any], str] | None = None  # the faces typed at a dice question
    game: bool = False  # the command needs a game file (a new one)
    # commands run first in it, in order, not counted
    setup: list[list[str]] = field(default_factory=list)


def _faces(hit: int, save: int) -> Callable[[Any], str]:
    """Typed dice: every die of a roll to hit shows ``hit``, of a save ``save``."""
    def typed(question: Any) -> str:
        face = save if question.id.startswith(("save", "defence", "cover")) else hit
        return " ".join([str(min(face, question.spec.sides))] * question.spec.count)
    return typed


def _epic_typed() -> Case:
    # one line a group of alike units: 4 AP4+ shots, 2 AT4+ shots; 2 infantry 6+ in woods,
    # 4 more in the open, 2 armoured vehicles 4+; all in range and line of fire
    answers: dict[str, Any] = {
        "attack-kind": "whole", "firing": "Grey Company: 4 ap4, 2 at4",
        "target": "Red Company: 2 inf 6+ woods 15, 4 inf 6+ 20, 2 av 4+ 25",
        "action": "advance"}
    return Case("epic-typed", "referee attack epic, no roster: weapons 4 shots AP4+ and 2 shots "
                "AT4+ at 8 units (6 infantry 6+, 2 armoured vehicles 4+), 2 in woods, Advance",
                ["attack", "epic", "--seed", "1"], answers, _faces(hit=5, save=1))


def _epic_roster() -> Case:
    # the roster knows the units, their saves and their weapons' ranges: the table gives
    # where they stand, a line a formation
    answers: dict[str, Any] = {"action": "advance", "fire-type.missile-launcher": "ap",
                               "situation.grey-company-invented": "20",
                               "situation.red-hill-company-invented": "4 20, 2 25"}
    return Case("epic-roster", "referee epic-shoot with a roster: 4 firing units, 6 target units",
                ["epic-shoot", "Grey Company (invented)", "Red Hill Company (invented)",
                 "--roster", str(FIXTURES / "epic-roster.toml"), "--seed", "1"],
                answers, _faces(hit=5, save=1))


def _cc_typed() -> Case:
    # the squad (FP 5, Range 6) and the team with its light MG (FP 3, Range 8, as one piece
    # since this case began), both 3 hexes away; the US units' Morale 7 and 6, cover 1
    answers: dict[str, Any] = {
        "attacker": "germany", "defender": "america", "piece.1": "squad 5 6 3",
        "piece.2": "team 3 8 3", "situation": "cover 1", "unit.1": "7", "unit.2": "6"}
    return Case("cc-typed", "referee attack cc, no declaration: a squad and a team with a "
                "light MG in one hex fire at two units in one hex; typed Fate cards",
                ["attack", "cc", "--seed", "1"], answers, lambda q: "4 5")


def _fow_typed() -> Case:
    # a line a group of identical teams; every hitting team reaches every defending team
    answers: dict[str, Any] = {"step": "allocation", "defending.1": "3 inf",
                               "defending.2": "gun", "defending.3": "tank bailed top 1",
                               "hitting.1": "3 hits", "hitting.2": "2 hits"}
    return Case("fow-typed", "referee attack fow: 2 hitting teams (3 and 2 hits), 5 defending "
                "teams (3 infantry, a gun, a bailed-out tank); the defender accepts the "
                "proposal", ["attack", "fow", "--seed", "1"], answers, _faces(hit=4, save=4))


def _by_id(faces: dict[str, str]) -> Callable[[Any], str]:
    """Typed dice by question id (the end of it): a whole assault's dice differ by step."""
    def typed(question: Any) -> str:
        return next(v for k, v in faces.items() if question.id.endswith(k))
    return typed


# a typical whole assault: 4 charging teams, 5 defending teams of which 4 fire defensively;
# two hits of defensive fire destroy a charging team, the charge goes in, two assault hits
# destroy two teams, and the defenders fail their counterattack test
ASSAULT_DICE = {"defensive-fire": "1 4 6 2 3 1 2", "to-hit": "5 3 1", "motivation": "2"}


def _fow_assault_typed() -> Case:
    # each side in one line with its ratings; names: Enter; the dice as they fall
    answers: dict[str, Any] = {
        "assault.defending": "3 inf rof 2, gun rof 1, tank top 1, trained confident",
        "assault.assaulting": "4 inf, veteran fearless",
        "defensive-fire.results": "a4 destroyed"}
    return Case("fow-assault-typed", "referee attack fow, the whole assault typed: 4 charging "
                "teams, 5 defending (4 firing defensively), one round, the defenders break",
                ["attack", "fow", "--seed", "1"], answers, _by_id(ASSAULT_DICE))


def _fow_assault_game() -> Case:
    # the armies are the game's (kept from a first assault of the roster): one line says who
    # charges whom; the defensive fire's teams and every card value come from the game
    answers: dict[str, Any] = {"assault": "p1 p2 hq vs r1 r2 r3 ag",
                               "defensive-fire.results": "hq destroyed"}
    dice = {"defensive-fire": "1 4 6 2 3 1 2 1", "to-hit": "5 3", "motivation": "2"}
    return Case("fow-assault-game", "referee attack fow --game, the armies kept in the game: "
                "3 charging teams, 4 defending (all firing defensively), one round, the "
                "defenders break", ["attack", "fow", "--seed", "1"], answers, _by_id(dice),
                game=True, setup=[["run", str(FIXTURES / "fow-first-assault.toml"), "--seed",
                                   "1"]])


def _lnlt_fire() -> Case:
    # "Fire from C4" activates C4 and fires; the only firer and the only target are not
    # asked; the DRM and TM come in one line (Enter: 0 0), both opposed dice in one answer
    answers: dict[str, Any] = {"i1.do": "fire:C4"}
    return Case("lnlt-fire", "referee phase lnlt with a roster: one squad fires at a hex of one "
                "unit, from the choice of activation to the last damage check",
                ["phase", "lnlt", "--roster", str(FIXTURES / "lnlt-fire.toml"), "--seed", "1",
                 "--impulses", "1"], answers,
                lambda q: "5 1" if q.id.endswith(".opposed") else "5", game=True)


def _lnlt_impulse_game() -> Case:
    # the next impulse of a phase the game file keeps: its first impulse (a script, not
    # counted) read a squad's damage check of 8 off the players' chart; Red's squad fires
    # back and Grey's squad, alike, checks 8 too: the chart answers, as entered at #1
    answers: dict[str, Any] = {"i2.do": "fire:D5"}
    first = [["run", str(FIXTURES / "lnlt-first-impulse.toml"), "--seed", "1"]]
    return Case("lnlt-impulse-game", "referee phase lnlt --game, the next impulse: a squad "
                "fires back at a squad alike the first impulse's target, the same damage "
                "check total", ["phase", "lnlt", "--seed", "1", "--impulses", "1"], answers,
                lambda q: "5 2" if q.id.endswith(".opposed") else "3", game=True, setup=first)


def _waw_he() -> Case:
    # the hex with its terrain's infantry defence bonus, the units in one line, the mission's
    # firepower and hit number in one line
    answers: dict[str, Any] = {"mission": "he", "hex": "0712 1", "units": "2 inf, cv",
                               "firepower": "5 4+"}
    return Case("waw-he", "referee attack waw: HE on a hex of 3 units, ratings typed (no data "
                "file), typed dice", ["attack", "waw", "--seed", "1"], answers,
                _faces(hit=5, save=6))


def _waw_he_game() -> Case:
    # the next HE mission on the hex of `waw-he`, whose units and infantry defence bonus the
    # game keeps from the first (a script): the first question offers the hex by its units
    answers: dict[str, Any] = {"mission": "kept:0712", "firepower": "5 4+"}
    first = [["run", str(FIXTURES / "waw-first-mission.toml"), "--seed", "1"]]
    return Case("waw-he-game", "referee attack waw --game, the next HE mission on a hex the "
                "game keeps (3 units, its defence bonus), typed dice",
                ["attack", "waw", "--seed", "1"], answers, _faces(hit=5, save=6), game=True,
                setup=first)


def _waw_chem_game() -> Case:
    # a chemical strike on the hex of `waw-he-game`, whose units the game keeps: the first
    # question offers the hex as the game keeps it (no units line); each infantry unit on
    # foot (an HE mission does not settle it: asked); the morale checks in one line, one
    # failed
    answers: dict[str, Any] = {"mission": "kept-chemical-as-kept:0712", "morale": "y n y"}
    first = [["run", str(FIXTURES / "waw-first-mission.toml"), "--seed", "1"]]
    return Case("waw-chem-game", "referee attack waw --game, a chemical strike on a hex the "
                "game keeps (3 units, one fails its morale check)",
                ["attack", "waw", "--seed", "1"], answers, None, game=True, setup=first)


def _cc_game() -> Case:
    # the next attack of `cc-typed`'s pieces in its game file (the first, typed at the table
    # by a script, is not counted): the squad and the team fire again at the two US units
    answers: dict[str, Any] = {"attacker": "kept:germany:*:america:-"}
    first = [["run", str(FIXTURES / "cc-first-attack.toml"), "--word", "oak"]]
    return Case("cc-game", "referee attack cc --game, the next attack of the pieces the game "
                "keeps from a typed first attack (a squad and a team at two US units), typed "
                "Fate cards", ["attack", "cc"], answers, lambda q: "4 5", game=True,
                setup=first)


# a typical Epic assault: 6 charging infantry (4 in base contact, 2 at 10 cm) against 5
# defending infantry in contact with one Blast marker; one round, the assaulting side wins
EPIC_ASSAULT_DICE = {".1.attacker": "4 5 2 6 1 3", ".1.defender": "5 5 2 1 6",
                     ".result.attacker": "6 2", ".result.defender": "3 1"}


def _epic_assault_dice(question: Any) -> str:
    n = question.spec.count
    for end, faces in EPIC_ASSAULT_DICE.items():
        if question.id.endswith(end):  # as many of the case's faces as there are dice
            return " ".join((faces.split() * n)[:n])
    return " ".join(["4"] * n)  # saves: each a 4


def _epic_assault_typed() -> Case:
    answers: dict[str, Any] = {
        "attack-kind": "assault",
        "assault.attacker": "Grey Company: 4 inf 4+ cc4 ff5 contact, 2 same 10",
        "assault.defender": "Red Company: bm1, 5 inf 5+ cc5 ff4 contact"}
    return Case("epic-assault-typed", "referee attack epic, an assault typed: 6 charging "
                "infantry (4 in contact, 2 at 10 cm) against 5 in contact with one Blast "
                "marker, one round", ["attack", "epic", "--seed", "1"], answers,
                _epic_assault_dice)


def _epic_assault_roster() -> Case:
    answers: dict[str, Any] = {"situation.grey-company-invented": "4 contact, 10",
                               "situation.red-company-invented": "4 contact, 12"}
    return Case("epic-assault-roster", "referee epic-assault with a roster (no game file: "
                "each formation's Blast markers asked): 5 charging units against 5",
                ["epic-assault", "Grey Company (invented)", "Red Company (invented)",
                 "--roster", str(ROOT / "transcripts" / "rosters" / "epic-assault.toml"),
                 "--seed", "1"], answers, _epic_assault_dice)


def _epic_assault_game() -> Case:
    # the armies are the game's: the turn (a strategy roll, then Grey Company's engage action
    # test) keeps each formation of the roster; the assault asks no Blast markers and no
    # broken state, only where the units stand, the formations near the fight and the dice
    answers: dict[str, Any] = {"situation.grey-company-invented": "4 contact, 10",
                               "situation.red-company-invented": "4 contact, 12"}
    turn = [["run", str(FIXTURES / f"epic-turn-{step}.toml"), "--seed", "1"]
            for step in ("strategy", "engage")]
    return Case("epic-assault-game", "referee epic-assault --game, the armies kept in the "
                "game (its turn: Grey Company engages): 5 charging units against 5",
                ["epic-assault", "Grey Company (invented)", "Red Company (invented)",
                 "--roster", str(ROOT / "transcripts" / "rosters" / "epic-assault.toml"),
                 "--seed", "1"], answers, _epic_assault_dice, game=True, setup=turn)


CASES = [_epic_typed, _epic_roster, _cc_typed, _fow_typed, _lnlt_fire, _waw_he,
         _fow_assault_typed, _fow_assault_game, _epic_assault_typed, _epic_assault_roster,
         _epic_assault_game, _waw_he_game, _cc_game, _lnlt_impulse_game, _waw_chem_game]


# --- a game night typed, nothing prepared (issue 27) ----------------------------------------

# the goals: the first attack of a formation, every later attack of known formations, the
# lines after the last answer
NIGHT_GOALS = {"first": 12, "later": 5, "lines": LINES_GOAL}
# before issue 27's part 1 second half (measured at 84c0d7e, where a later attack could not
# name the kept formations: the same night, each later attack typed again as the first was;
# before main's Epic merge, which asks the crossfire and a typed target's broken state on
# every path)
NIGHT_BEFORE = {"night-epic-1": 21, "night-epic-2": 16, "night-epic-3": 18,
                "night-fow-1": 11, "night-fow-2": 10, "night-fow-3": 10}
NIGHT_SETUP = ["game", "new", "{game}", "--side", "Grey", "--side", "Red"]


def _dice(**faces: int) -> Callable[[Any], str]:
    """Typed dice by the start of the question id: every die of it shows that face."""
    def typed(question: Any) -> str:
        face = next(v for k, v in faces.items() if question.id.startswith(k.replace("_", "-")))
        return " ".join([str(min(face, question.spec.sides))] * question.spec.count)
    return typed


def _night() -> list[tuple[Case, str]]:
    """The six attacks of the night, each with whether it is a first or a later attack."""
    first_epic = dict(_epic_typed().answers, **{"game.side": "Grey"})
    kept = "kept:Grey Company:Red Company"
    first_fow = dict(_fow_assault_typed().answers, **{"game.side": "Grey"})
    return [
        (Case("night-epic-1", "Epic, typed: Grey Company fires at Red Company (8 units); the "
              "side asked once", ["attack", "epic"], first_epic, _dice(to_hit=5, save=6)),
         "first"),
        (Case("night-epic-2", "Epic, the same formations as the game keeps them: Grey Company "
              "doubles, Red Company's units have moved",
              ["attack", "epic"], {"attack-kind": kept, "action": "double",
                                   "situation.red-company": "4 20, 2 30, 2 25"},
              _dice(to_hit=5, save=6)), "later"),
        (Case("night-epic-3", "Epic, again: Grey Company on sustained fire",
              ["attack", "epic"], {"attack-kind": kept, "action": "sustained-fire",
                                   "situation.red-company": "15"},
              _dice(to_hit=6, save=2)), "later"),
        (Case("night-fow-1", "Flames of War, the whole assault typed: 4 charging teams at 5 "
              "defending; the side asked once", ["attack", "fow"], first_fow,
              _by_id(ASSAULT_DICE)), "first"),
        (Case("night-fow-2", "Flames of War, the teams the game keeps: the 3 survivors "
              "charge the 3 left", ["attack", "fow"],
              {"assault": "a1 a2 a3 vs d3 d4 d5"},
              _by_id({"defensive-fire": "1 1 1", "to-hit": "5 3 1", "motivation": "2"})),
         "later"),
        (Case("night-fow-3", "Flames of War, again: what is left charges what is left",
              ["attack", "fow"], {"assault": "a1 a2 a3 vs d5"},
              _by_id({"defensive-fire": "1 1 1", "to-hit": "5 5 5", "save.d5": "6 6 6",
                      "motivation": "1"})),
         "later"),
    ]


def run_night() -> list[dict[str, Any]]:
    """Play the night in one game file: each attack's questions, the lines after its last
    answer, and the questions it repeats from earlier attacks (same question, same answer)."""
    import os

    from typer.testing import CliRunner

    from referee.context import Environment
    from referee.start import load_app

    out: list[dict[str, Any]] = []
    seen: dict[tuple[str, str], str] = {}  # (question, answer) -> the attack that had it
    with tempfile.TemporaryDirectory() as folder:
        game = os.path.join(folder, "night.sqlite")
        setup = [a.replace("{game}", game) for a in NIGHT_SETUP]
        done = CliRunner().invoke(load_app("en"), setup, obj=Environment(
            stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()))
        if done.exit_code != 0:
            raise Stale(f"game new: exit {done.exit_code}")
        for case, kind in _night():
            case.args = [*case.args, "--game", game]
            try:
                player, lines = run_player(case)
            except Stale as err:
                out.append({"name": case.name, "kind": kind, "stale": str(err)})
                continue
            asked = player.asked
            shown = [(text, answer) for text, (_qid, answer) in zip(player.texts, asked,
                                                                    strict=True)]
            repeated = [f"{text}  {answer} (as at {seen[text, answer]})"
                        for (qid, _), (text, answer) in zip(asked, shown, strict=True)
                        if not qid.startswith(DICE_IDS) and (text, answer) in seen]
            for key in shown:
                seen.setdefault(key, case.name)
            after = after_last_answer(lines)
            outcome = next((line for line in reversed(lines) if line.startswith("Outcome:")),
                           "")
            out.append({"name": case.name, "what": case.what, "kind": kind,
                        "questions": len(asked), "before": NIGHT_BEFORE[case.name],
                        "goal": NIGHT_GOALS[kind], "repeated": repeated,
                        "lines_after": len(after), "asked": asked, "outcome": outcome})
    return out


# the questions each attack asks afresh: its dice, and what it resolves (never a repeat)
DICE_IDS = ("to-hit", "save", "defensive-fire", "round.", "defence", "fire", "reroll",
            "attack-kind", "step")


class Stale(Exception):
    """The case no longer fits the attack's questions."""


class Player:
    """Answers a case's questions: its facts by id, its dice, Enter for the rest."""

    def __init__(self, case: Case, dice: Any) -> None:
        self.case = case
        self.dice = dice
        self.asked: list[tuple[str, str]] = []
        self.texts: list[str] = []  # each question as shown, in the order asked
        self.used: set[str] = set()

    def ask(self, question: Any) -> Any:
        from referee.catalog import render
        from referee.core.port import settle_dice
        from referee.render.display import answer_text, value_from_label

        if question.id in self.case.answers:
            raw = self.case.answers[question.id]
            self.used.add(question.id)
        elif question.kind == "dice" and self.case.dice is not None:
            raw = self.case.dice(question)
        elif question.default is not None and question.kind != "dice":
            raw = question.default
        else:
            raise Stale(f"no answer for {question.id!r} ({render(question.text)})")
        value = question.accept(value_from_label(question, raw))
        if question.kind == "dice":
            value = settle_dice(question, value, self.dice)
        self.asked.append((question.id, answer_text(question, value)))
        self.texts.append(render(question.text))
        return value


def after_last_answer(lines: list[str]) -> list[str]:
    """The lines printed after the last answered question (``? text  answer``): what the
    player reads once everything is answered."""
    last = max((i for i, line in enumerate(lines) if line.startswith("? ")), default=-1)
    return lines[last + 1:]


def run(case: Case) -> tuple[list[tuple[str, str]], str]:
    """The questions a case asked, in order, and the outcome line it printed."""
    asked, lines = run_lines(case)
    outcome = [line for line in lines if line.startswith("Outcome:")]
    return asked, outcome[-1] if outcome else (lines[-1] if lines else "")


def run_lines(case: Case) -> tuple[list[tuple[str, str]], list[str]]:
    """The questions a case asked, in order, and every line it printed."""
    player, out = run_player(case)
    return player.asked, out


def run_player(case: Case) -> tuple[Player, list[str]]:
    """The player who answered a case (its questions as asked and shown), and every line the
    case printed."""
    from typer.testing import CliRunner

    from referee.context import Environment
    from referee.start import load_app

    players: list[Player] = []

    def factory(dice: Any) -> Player:
        players.append(Player(case, dice))
        return players[-1]

    args = list(case.args)
    with tempfile.TemporaryDirectory() as folder:  # a night's attack names its own game
        if case.game:
            args += ["--game", str(Path(folder) / "game.sqlite")]
        game = ["--game", str(Path(folder) / "game.sqlite")] if case.game else []
        for command in case.setup:
            done = CliRunner().invoke(load_app("en"), [*command, *game],
                                      obj=Environment(stdin=io.StringIO(),
                                                      stdout=io.StringIO(),
                                                      stderr=io.StringIO()),
                                      catch_exceptions=False)
            if done.exit_code != 0:
                raise Stale(f"setup exit {done.exit_code}: {' '.join(command)}")
        stream = io.StringIO()
        env = Environment(stdin=io.StringIO(), stdout=stream, stderr=stream,
                          port_factory=factory)
        try:
            result = CliRunner().invoke(load_app("en"), args, obj=env,
                                        catch_exceptions=False)
        except Stale as err:
            raise Stale(str(err)) from None
    out = (stream.getvalue() + result.output).strip().splitlines()
    if result.exit_code != 0:
        raise Stale(f"exit {result.exit_code}: {out[-1] if out else ''}")
    player = players[0]
    unused = sorted(set(case.answers) - player.used)
    if unused:
        raise Stale(f"answers no question asked for: {', '.join(unused)}")
    return player, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="show every question asked")
    parser.add_argument("--json", action="store_true", help="machine-readable results")
    options = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    results: dict[str, Any] = {}
    for make in CASES:
        case = make()
        try:
            asked, out = run_lines(case)
        except Stale as err:
            results[case.name] = {"stale": str(err)}
            if not options.json:
                print(f"{case.name}: stale ({err})")
            continue
        after = after_last_answer(out)
        last = next((line for line in reversed(out) if line.startswith("Outcome:")),
                    out[-1] if out else "")
        results[case.name] = {"questions": len(asked), "before": BEFORE[case.name],
                              "goal": GOALS[case.name], "asked": asked, "outcome": last,
                              "lines_after": len(after),
                              "lines_after_before": LINES_BEFORE.get(case.name)}
        if not options.json:
            print(f"{case.name}: {len(asked)} questions, {len(after)} lines after the last "
                  f"answer (before issue 27: {LINES_BEFORE.get(case.name)})")
            if options.list:
                for n, (qid, answer) in enumerate(asked, 1):
                    print(f"    {n:3}  {qid:44} {answer}")
                print(f"    -> {last}")
    counted = [r for r in results.values() if "questions" in r]
    total = sum(r["questions"] for r in counted)
    night = run_night()
    if options.json:
        print(json.dumps({"cases": results, "total": total, "game_night": night}, indent=2,
                         ensure_ascii=False))
        return 0 if len(counted) == len(results) and all("questions" in a for a in night) \
            else 1
    _print_night(night, options.list)
    before = sum(v for v in BEFORE.values() if v is not None)
    print(f"total: {total} questions in {len(counted)} attacks "
          f"(before: {before} in the attacks counted before; goal: at most "
          f"{sum(GOALS.values())})")
    met = [name for name, r in results.items() if r.get("questions", 10**9) <= GOALS[name]]
    print(f"goals met: {len(met)} of {len(results)}")
    return 0 if len(counted) == len(results) and all("questions" in a for a in night) else 1


def _print_night(night: list[dict[str, Any]], listed: bool) -> None:
    print("a game night typed, nothing prepared (one game file, Epic then Flames of War):")
    for a in night:
        if "stale" in a:
            print(f"  {a['name']}: stale ({a['stale']})")
            continue
        met = "met" if a["questions"] <= a["goal"] else "NOT met"
        print(f"  {a['name']} ({a['kind']}): {a['questions']} questions (before: "
              f"{a['before']}; goal: at most {a['goal']}, {met}), {len(a['repeated'])} "
              f"repeated, {a['lines_after']} lines after the last answer")
        if listed:
            print(f"      {a['what']}")
            for n, (qid, answer) in enumerate(a["asked"], 1):
                print(f"    {n:3}  {qid:44} {answer}")
            for r in a["repeated"]:
                print(f"      repeated: {r}")
            print(f"    -> {a['outcome']}")
    counted = [a for a in night if "questions" in a]
    print(f"  night: {sum(a['questions'] for a in counted)} questions in {len(counted)} attacks "
          f"(before: {sum(a['before'] for a in counted)}), "
          f"{sum(len(a['repeated']) for a in counted)} repeated, at most "
          f"{max((a['lines_after'] for a in counted), default=0)} lines after a last answer")


if __name__ == "__main__":
    raise SystemExit(main())
