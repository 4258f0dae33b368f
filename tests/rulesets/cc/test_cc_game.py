"""Combat Commander in a game file (issue 27): a piece typed without a name gets its side's
default name (numbered by kind without gaps) so that the game keeps it; a later attack offers
the kept pieces by name, asks only what the game cannot know or what changed, and never
offers what is gone. In-process through the command line, answers by question id. Invented
units only."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.catalog import render
from referee.cli import app
from referee.context import Environment
from referee.core.errors import AnswerError
from referee.core.questions import Question
from referee.frontends.answers import AnswerPort
from tests.support.game import new_game

FIRST = {"attacker": "germany", "defender": "america", "piece.1": "squad 5 6 3",
         "piece.2": "team 3 8 3", "situation": "cover 1", "unit.1": "7", "unit.2": "6"}
KEPT = "kept:germany:*:america:-"  # the squad and the team at the two US units
PER_ATTACK = ("base", "fire", "defence")  # what each attack chooses, and its cards


class Asked(AnswerPort):
    """Answers by id, Enter for the rest, ``4 5`` for every Fate card; keeps each question."""

    def __init__(self, answers: dict[str, Any], dice: Any) -> None:
        super().__init__(answers, dice, use_defaults=True)
        self.asked: list[tuple[Question, str]] = []

    def ask(self, question: Question) -> Any:
        if question.kind == "dice" and question.id not in self.answers:
            self.answers[question.id] = "4 5"
        value = super().ask(question)
        from referee.render.display import answer_text

        self.asked.append((question, answer_text(question, value)))
        return value


def attack(game: Path, answers: dict[str, Any], *extra: str,
           lang: str = "en") -> tuple[list[tuple[Question, str]], str]:
    ports: list[Asked] = []

    def factory(dice: Any) -> Asked:
        ports.append(Asked(dict(answers), dice))
        return ports[-1]

    out = io.StringIO()
    env = Environment(stdin=io.StringIO(), stdout=out, stderr=out, stdin_isatty=False,
                      stdout_isatty=False, color=False, port_factory=factory)
    from referee.start import load_app

    try:
        result = CliRunner().invoke(load_app(lang) if lang != "en" else app,
                                    ["attack", "cc", "--game", str(game), "--no-odds", *extra],
                                    obj=env, catch_exceptions=False)
    finally:
        if lang != "en":
            load_app("en")
    text = out.getvalue() + result.output
    assert result.exit_code == 0, text
    return ports[0].asked, text


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """A game whose first attack was typed at the table (the squad and the team, both
    named by the player, at two US units typed without names)."""
    game = tmp_path / "game.sqlite"
    new_game(game)
    FIRST_ASKED[:] = attack(game, {**FIRST, "game.side": "Grey"})[0]
    return game


FIRST_ASKED: list[tuple[Question, str]] = []  # the questions of ``played``'s first attack


def _ids(asked: list[tuple[Question, str]]) -> list[str]:
    return [q.id for q, _ in asked]


def test_typed_pieces_get_default_names_by_side_and_kind_without_gaps(tmp_path: Path) -> None:
    game = tmp_path / "game.sqlite"
    new_game(game)
    asked, out = attack(game, {"attacker": "germany", "defender": "america",
                               "piece.1": "2x 5 6 3 with 3 8", "situation": "cover 0",
                               "unit.1": "2x 7", "game.side": "Grey"})
    # the ids are the numbered ones of every typed attack: scripts answer as before
    assert "defence.unit-2" in _ids(asked)
    base = next(q for q, _ in asked if q.id == "base")
    assert [render(c.label) for c in base.choices] == [  # type: ignore[attr-defined]
        "German unit 1 (FP 5)", "German unit 2 (FP 5)", "German weapon 1 (FP 3)",
        "German weapon 2 (FP 3)"]
    assert "American unit 1, American unit 2" in out


def test_a_later_attack_offers_the_kept_pieces_by_name_and_repeats_nothing(
        played: Path) -> None:
    first = FIRST_ASKED
    second, out = attack(played, {"attacker": KEPT})
    kept = next(q for q, _ in second if q.id == "attacker")
    labels = [render(c.label) for c in kept.choices]  # type: ignore[attr-defined]
    assert labels[0] == ("squad, team at American unit 1, American unit 2 (3 hexes, "
                         "hindrance 0, cover 1, as the game keeps them)")
    # no leader among the targets: the order of their defence rolls changes nothing (C-12)
    assert _ids(second) == ["attacker", "base", "fire", "defence.american-unit-1",
                            "defence.american-unit-2"]
    said = {(render(q.text), a) for q, a in first if not q.id.startswith(PER_ATTACK)}
    assert [(render(q.text), a) for q, a in second
            if not q.id.startswith(PER_ATTACK) and (render(q.text), a) in said] == []
    assert "American unit 1 (Morale 8)" in out  # the kept Morale with the kept cover


def test_a_typed_attack_of_new_pieces_numbers_on_from_the_kept_ones(played: Path) -> None:
    asked, out = attack(played, {**FIRST, "unit.2": "-"})
    assert "American unit 3" in out  # unit 1 and 2 are the game's: a new one is the third
    assert "defence.unit-1" in _ids(asked)


def test_what_changed_is_one_line_and_a_piece_out_of_reach_is_refused(played: Path) -> None:
    asked, out = attack(played, {"attacker": KEPT + "|changed",
                                 "kept-situation": "4 h1 cover 0 moving American unit 2"})
    line = next(q for q, _ in asked if q.id == "kept-situation")
    assert line.default == "3 cover 1"
    assert "American unit 2" in out
    with pytest.raises(AnswerError) as err:
        line.accept("12")  # C-6: no piece reaches 12 hexes
    assert "(C-6)" in render(err.value.msg)
    with pytest.raises(AnswerError) as err:
        line.accept("3 moving Nobody")
    assert "not a unit of the target hex" in render(err.value.msg)


@pytest.mark.clause("C-8")
def test_the_owner_may_leave_kept_pieces_out_of_the_fire_group(played: Path) -> None:
    """C-8: the group is the owner's to form: ``without NAMES`` leaves kept pieces out
    (the squad fires alone: FP 5, not 5 + 1); a name that is not a firing piece, or leaving
    every piece out, is refused with what is expected."""
    asked, out = attack(played, {"attacker": KEPT + "|changed",
                                 "kept-situation": "3 cover 1 without team"}, "--working")
    assert "base" not in [q.id for q, _ in asked]  # one piece fires: no base to choose
    assert "squad fires alone, FP 5" in out
    line = next(q for q, _ in asked if q.id == "kept-situation")
    # the names typed after "moving" and "without" complete with Tab (issue 27)
    assert line.suggestions == ("American unit 1", "American unit 2", "squad", "team")
    for wrong, says in (("3 without nobody", "not a piece of this fire group: squad, team"),
                        ("3 without squad, team", "every piece is left out"),
                        ("3 without team without squad", "'without' is given twice")):
        with pytest.raises(AnswerError) as err:
            line.accept(wrong)
        assert says in render(err.value.msg)
    assert line.format(line.accept("3 cover 1 without team")) == "3 cover 1 without team"


@pytest.mark.clause("C-4")
def test_a_broken_unit_keeps_its_state_and_its_broken_side_is_asked_once(
        played: Path) -> None:
    # the fire card 6 5 (total 17) against 7 + 1 cover + 3 breaks American unit 1
    attack(played, {"attacker": KEPT, "fire": "6 5", "defence.american-unit-1": "1 2"})
    second, _ = attack(played, {"attacker": KEPT + "|changed", "kept-situation": "3 cover 1",
                                  "broken-morale.american-unit-1": "9",
                                  "broken-morale.american-unit-2": "8"})
    kept = next(q for q, _ in second if q.id == "attacker")
    assert "American unit 1 (broken)" in render(kept.choices[0].label)  # type: ignore
    assert "broken-morale.american-unit-1" in _ids(second)
    third, _ = attack(played, {"attacker": KEPT})
    assert not any(q.id.startswith("broken-morale") for q, _ in third)  # kept


def test_an_eliminated_unit_is_never_offered(played: Path) -> None:
    attack(played, {"attacker": KEPT, "fire": "6 5",
                    "defence.american-unit-1": "1 2", "defence.american-unit-2": "1 2"})
    attack(played, {"attacker": KEPT, "fire": "6 5",
                    "defence.american-unit-1": "1 2", "defence.american-unit-2": "6 5",
                    "broken-morale.american-unit-1": "5",
                    "broken-morale.american-unit-2": "5", "vp.american-unit-1": "1"})
    asked, _ = attack(played, {"attacker": KEPT})
    kept = next(q for q, _ in asked if q.id == "attacker")
    labels = " / ".join(render(c.label) for c in kept.choices)  # type: ignore[attr-defined]
    assert "American unit 1" not in labels and "American unit 2" in labels


def test_the_other_side_fires_back_and_only_the_unknown_morale_is_asked(played: Path) -> None:
    # the US units were never given FP: they cannot fire from the list; typed as new pieces
    # they are new pieces; the squad and team's Morale is asked when they are fired at
    attack(played, {"attacker": "america", "defender": "germany",
                               "piece.1": "5 6 2", "situation": "cover 0", "unit.1": "7",
                               "game.side": "Red"})
    second, _ = attack(played, {"attacker": "kept:america:*:germany:*",
                                "morale.squad": "7/6", "morale.team": "6"})
    assert _ids(second)[:3] == ["attacker", "morale.squad", "morale.team"]


def test_russian_names_and_choice(tmp_path: Path) -> None:
    game = tmp_path / "game.sqlite"
    new_game(game)
    attack(game, {**FIRST, "piece.1": "5 6 3", "game.side": "Grey"}, lang="ru")
    asked, _ = attack(game, {"attacker": KEPT}, lang="ru")
    kept = next(q for q, _ in asked if q.id == "attacker")
    label = render(kept.choices[0].label, "ru")  # type: ignore[attr-defined]
    assert label.startswith("Подразделение 1 (Германия), team по Подразделение 1 (США)")
    assert "как их хранит партия" in label
