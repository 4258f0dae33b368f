"""Who answers each question (``Question.answered_by``), as the rules briefs' "who chooses"
say: the defender's saves, defence rolls and cards, the choices the rules give the defender
and the dice the defender rolls are the defender's; the attacker's dice and choices are the
attacker's; facts both players see on the table are either player's. The opponent's phone
is given the questions of its side by this tag (``referee.seat``), so a question tagged
wrongly would be put to the wrong player.

Every bundled script of a ruleset is resolved through a port that notes each question put,
and the questions are checked against the clause that names who answers them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from referee import api
from referee.core.errors import RefereeError
from referee.core.questions import ATTACKER, DEFENDER, EITHER, Question, other_player
from tests.support import ROOT
from tests.support.epic import decl, funit, tunit

SCRIPTS = ROOT / "transcripts" / "scripts"


class Noting:
    """Passes every question on, noting its id and who answers it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seen: dict[str, str] = {}

    def ask(self, question: Question) -> Any:
        self.seen[question.id] = question.answered_by
        return self.inner.ask(question)


def _asked(prefix: str) -> dict[str, str]:
    """Every question the bundled scripts of a ruleset put, with who answers it."""
    seen: dict[str, str] = {}
    for path in sorted(SCRIPTS.glob(f"{prefix}-*.toml")):
        try:
            plan, port = api.plan_script(path, auto_dice=True)
        except RefereeError:  # a script made to be refused before its first question
            continue
        noting = Noting(port)
        try:
            api.play(plan, noting)
        except RefereeError:  # ... or after some: they were put all the same
            pass
        seen.update(noting.seen)
    return seen


def _matching(seen: dict[str, str], pattern: str) -> Iterator[tuple[str, str]]:
    found = [(q, by) for q, by in seen.items() if re.fullmatch(pattern, q)]
    assert found, f"no question matching {pattern!r} was put by the bundled scripts"
    yield from found


def _all(seen: dict[str, str], pattern: str, who: str) -> None:
    wrong = {q: by for q, by in _matching(seen, pattern) if by != who}
    assert not wrong, f"{pattern} should be the {who}'s: {wrong}"


@pytest.fixture(scope="module")
def epic() -> dict[str, str]:
    return _asked("epic")


@pytest.mark.clause("E-10")
def test_epic_the_targets_owner_saves_and_the_attacker_rolls_to_hit(epic: dict[str, str]) -> None:
    _all(epic, r"save\..*", DEFENDER)  # E-11: the defender's saving throws
    _all(epic, r"to-hit\.[^.]+", ATTACKER)  # E-8: the attacker's dice
    _all(epic, r"cover\.(ap|at|mw)", ATTACKER)  # E-8: the attacker may decline the -1
    _all(epic, r"cover", EITHER)  # E-8: whether the target is in cover: both see it


def _epic_asked(declaration: dict[str, Any], answers: dict[str, Any],
                options: tuple[str, ...] = ()) -> dict[str, str]:
    from referee.frontends.answers import AnswerPort

    plan = api.plan_attack("epic", seed=1, declaration=declaration, options=options)
    port = Noting(AnswerPort({"action": "advance", **answers}, plan.dice,
                             roll_missing_dice=True, use_defaults=True))
    api.play(plan, port)
    return port.seen


BOLTER = {"name": "Heavy bolter", "ap": 2}
# three units side by side at 10 cm: which of them takes the first hit is a choice (E-10)
ROW = [tunit("A", distance=10, armour=4), tunit("B", distance=10, armour=5),
       tunit("C", distance=10, armour=6)]


@pytest.mark.clause("E-10")
def test_epic_the_targets_owner_allocates_unless_the_option_gives_it_to_the_attacker() -> None:
    answers = {"to-hit.heavy-bolter": [6, 6]}
    d = decl([{**BOLTER, "shots": 2}], ROW)
    _all(_epic_asked(d, answers), r"allocate\.normal\.\d+", DEFENDER)
    _all(_epic_asked(d, answers, ("allocation-by=attacker",)), r"allocate\.normal\.\d+",
         ATTACKER)


@pytest.mark.clause("E-X7")
def test_epic_the_defender_orders_the_mixed_allocation() -> None:
    d = decl([{"name": "Bolter", "ap": 2}, {"name": "Lascannon", "at": 2}],
             [tunit("INF1", "INF", distance=10), tunit("LV1", "LV", distance=10),
              tunit("AV1", "AV", distance=20)])
    seen = _epic_asked(d, {"to-hit.bolter": [6], "to-hit.lascannon": [6]},
                       ("mixed-allocation=ask-defender",))
    _all(seen, r"allocate\.normal\.order", DEFENDER)


@pytest.mark.clause("E-4")
def test_epic_the_shooting_formation_picks_its_suppressed_units() -> None:
    units = [funit(f"U{i}", ["Heavy bolter"], d) for i, d in enumerate((10, 20, 30, 30, 40), 1)]
    d = decl([BOLTER], [tunit("A", "AV", 10, 4)], units, firing_blast_markers=2)
    _all(_epic_asked(d, {"suppress": ["U3"], "to-hit.heavy-bolter": "=0"}), r"suppress",
         ATTACKER)


@pytest.fixture(scope="module")
def cc() -> dict[str, str]:
    return _asked("cc")


@pytest.mark.clause("C-12")
def test_cc_the_defender_rolls_his_defence_in_his_order(cc: dict[str, str]) -> None:
    _all(cc, r"defence\..*", DEFENDER)  # C-12: his rolls (cards), whoever's deck
    _all(cc, r"defence-order\.\d+", DEFENDER)  # C-12: in the order he chooses
    _all(cc, r"fire", ATTACKER)  # C-3: the attacker's fire roll


@pytest.fixture(scope="module")
def fow() -> dict[str, str]:
    return _asked("fow")


@pytest.mark.clause("F-1")
def test_fow_the_player_whose_teams_were_hit_allocates_and_saves(fow: dict[str, str]) -> None:
    _all(fow, r"allocation(\.teams)?", DEFENDER)  # F-1
    _all(fow, r"hit\.\d+", DEFENDER)  # F-1, hit by hit
    _all(fow, r"save\..*", DEFENDER)  # F-7: the armoured team's save


@pytest.mark.clause("F-A4")
def test_fow_a_whole_assaults_questions_are_the_side_whose_teams_act(
        fow: dict[str, str]) -> None:
    _all(fow, r"defensive-fire", DEFENDER)  # F-A3, F-A4: the defending teams fire
    _all(fow, r"round\.1\.to-hit", ATTACKER)  # F-A9: the charging side hits first
    found = {by for q, by in fow.items() if re.fullmatch(r"round\.\d+\.allocation", q)}
    assert found and found <= {ATTACKER, DEFENDER}  # the hit side allocates (F-1)


@pytest.fixture(scope="module")
def waw() -> dict[str, str]:
    return _asked("waw")


@pytest.mark.clause("W-2")
def test_waw_the_targets_owner_rolls_his_defence(waw: dict[str, str]) -> None:
    _all(waw, r"defence", DEFENDER)  # W-2: the owner of the target rolls
    _all(waw, r"attack", ATTACKER)  # W-1: the firing side's attack dice
    _all(waw, r"pick\.round-\d+(\.\d+)?", DEFENDER)  # W-3: the hits' owner's pick or roll


@pytest.fixture(scope="module")
def lnlt() -> dict[str, str]:
    """Every question the bundled impulse scripts put (``attacker``: the side whose impulse
    it is)."""
    return _asked("lnlt")


@pytest.mark.clause("L-5")
def test_lnlt_the_target_rolls_its_defence_and_damage_checks(lnlt: dict[str, str]) -> None:
    _all(lnlt, r"i\d+\.fire\.[^.]+\.attack", ATTACKER)
    _all(lnlt, r"i\d+\.fire\.[^.]+\.defence", DEFENDER)
    _all(lnlt, r"i\d+\.fire\.[^.]+\.dc\..*", DEFENDER)


@pytest.mark.clause("L-12")
def test_lnlt_op_fire_is_the_other_players(lnlt: dict[str, str]) -> None:
    _all(lnlt, r"i\d+\.opfire\.\d+\.\d+", DEFENDER)  # whether to answer a move with fire
    _all(lnlt, r"i\d+\.opfire\.\d+\.\d+\.attack", DEFENDER)  # his attack die
    _all(lnlt, r"i\d+\.opfire\.\d+\.\d+\.defence", ATTACKER)  # the mover's defence


def test_other_player_swaps_the_two_sides_and_keeps_either() -> None:
    assert other_player(ATTACKER) == DEFENDER
    assert other_player(DEFENDER) == ATTACKER
    assert other_player(EITHER) == EITHER


def _assault_asked(answers: dict[str, Any]) -> dict[str, str]:
    """The questions of an Epic assault of two infantry units a side, all in contact."""
    from referee.frontends.answers import AnswerPort

    def units(prefix: str) -> list[dict[str, Any]]:
        return [{"name": f"{prefix}{i}", "type": "INF", "armour": 4, "cc": 4, "ff": 5,
                 "contact": True, "engaged": True} for i in (1, 2)]

    declaration = {"assault": {
        "attackers": [{"name": "Grey Company (invented)", "blast_markers": 0,
                       "units": units("A")}],
        "defenders": [{"name": "Red Hill Battery (invented)", "blast_markers": 0,
                       "units": units("D")}], "support": []}}
    plan = api.plan_attack("epic", seed=1, declaration=declaration)
    port = Noting(AnswerPort(answers, plan.dice, roll_missing_dice=True, use_defaults=True))
    api.play(plan, port)
    return port.seen


@pytest.mark.clause("E-A5")
def test_epic_assault_each_side_rolls_its_dice_and_saves_the_hits_on_its_own_units() -> None:
    seen = _assault_asked({"assault.1.attacker": [6, 6], "assault.1.defender": [6, 6]})
    assert seen["assault.1.attacker"] == ATTACKER and seen["assault.1.defender"] == DEFENDER
    _all(seen, r"(allocate|save)\.assault\.1\.defender\..*", DEFENDER)  # its own units
    _all(seen, r"(allocate|save)\.assault\.1\.attacker\..*", ATTACKER)  # hits on the attacker
    seen = _assault_asked({"assault.1.attacker": [1, 1], "assault.1.defender": [1, 1]})
    assert seen["assault.1.result.attacker"] == ATTACKER  # E-A9: each side its result die
    assert seen["assault.1.result.defender"] == DEFENDER
