"""The whole Flames of War assault at the table: the first question, each side in one line
(``side_line``), the one line of known armies (``fight_line.AssaultQuestion``), and a typed
assault giving what the same declaration gives."""

from __future__ import annotations

from typing import Any

import pytest

from referee import api
from referee.catalog import render
from referee.core.errors import AnswerError
from referee.core.text import Msg
from referee.frontends.answers import AnswerPort
from referee.rulesets.fow.fight_line import AssaultQuestion
from referee.rulesets.fow.side_line import Group, RatingsQuestion, SideQuestion
from tests.support import ROOT
from tests.support.fow import A, D, P, questions_asked, whole

ROSTER = ROOT / "transcripts" / "rosters" / "fow-orchard.toml"


def side(charging: bool, **extra: Any) -> SideQuestion:
    return SideQuestion(id="x", text=Msg.of("fow.q.step"), charging=charging, **extra)


def refusal(question: Any, line: str) -> str:
    with pytest.raises(AnswerError) as err:
        question.accept(line)
    return render(err.value.msg)


def play(answers: dict[str, Any], declaration: dict[str, Any] | None = None
         ) -> tuple[Any, list[str]]:
    plan = api.plan_attack("fow", seed=1, declaration=declaration)
    seen: list[str] = []

    class Keeping:
        def __init__(self) -> None:
            self.inner = AnswerPort(answers, plan.dice, use_defaults=True,
                                    roll_missing_dice=True)

        def ask(self, question: Any) -> Any:
            seen.append(question.id)
            return self.inner.ask(question)

    return api.play(plan, Keeping()), seen  # type: ignore[arg-type]


# --- the first question ----------------------------------------------------------------------

@pytest.mark.clause("F-A1")
def test_FA1_enter_at_the_first_question_is_the_whole_assault() -> None:
    _, asked = play({"assault.defending": "inf, trained confident",
                     "assault.assaulting": "inf, trained confident",
                     "round.1.to-hit": [1], "round.1.choice.defending-platoon": "break-off"})
    assert asked[:2] == ["step", "assault.defending"]


# --- a side in one line ----------------------------------------------------------------------

@pytest.mark.parametrize(("line", "groups", "ratings"), [
    ("3 inf rof 2, gun rof 1, tank top 1 bailed, veteran confident",
     [Group(3, "infantry", fires=2), Group(1, "gun", fires=1),
      Group(1, "tank", "bailed-out", top=1)], ("veteran", "confident", False)),
    ("2x inf building rof1, transport top 0, conscript reluctant reroll",
     [Group(2, "infantry", building=True, fires=1), Group(1, "transport", top=0)],
     ("conscript", "reluctant", True)),
    ("3 пехота скор 2, танк верх 1 застрял, ветераны бесстрашные",
     [Group(3, "infantry", fires=2), Group(1, "tank", "bogged-down", top=1)],
     ("veteran", "fearless", False)),
    ("inf at 3 fp 4 4+, trained confident",
     [Group(1, "infantry", anti_tank=3, firepower=4, hits_on=4)],
     ("trained", "confident", False)),
])
def test_a_defending_side_line(line: str, groups: list[Group],
                               ratings: tuple[str, str, bool]) -> None:
    value = side(False).accept(line)
    assert list(value.groups) == groups
    assert (value.skill, value.motivation, value.reroll) == ratings
    assert side(False).accept(side(False).format(value)) == value


@pytest.mark.clause("F-A4")
def test_FA4_a_charging_side_line_says_reach_priority_and_concealment() -> None:
    entry = side(True, team_ids=("d1", "d2", "d3"), buildings=True)
    value = entry.accept("2 inf d1 d2, tank top 2 fa priority inf, escort door, "
                         "trained fearless concealed")
    assert value.concealed and value.skill == "trained"
    assert value.groups[0] == Group(2, "infantry", reach=("d1", "d2"))
    assert value.groups[1] == Group(1, "tank", top=2, fully_armoured=True, priority="infantry")
    assert value.groups[2].situation == "outside-at-opening"
    assert entry.accept(entry.format(value)) == value


@pytest.mark.parametrize(("charging", "line", "words"), [
    (False, "3 inf rof 2", "say the platoon's Skill"),
    (False, "3 inf, trained", "say the platoon's Motivation"),
    (False, "inf top 1, trained confident", "only tanks and transports have Top armour"),
    (False, "inf bailed, trained confident", "only tanks and transports are Bogged Down"),
    (False, "tank building, trained confident", "never in a building"),
    (False, "transport rof 1, trained confident", "does not fire"),
    (False, "escort, trained confident", "defends as an infantry team"),
    (False, "inf 2, trained confident", "needs its word"),
    (False, "inf concealed, trained confident", "belongs to the charging teams"),
    (True, "transport, trained confident", "never charges"),
    (True, "inf rof 2, trained confident", "belongs to the defending teams"),
    (True, "inf fa, trained confident", "only tanks and Tank Escorts"),
    (True, "tank door, trained confident", "fights from the open"),
    (True, "inf inside, trained confident", "no defending team is in a building"),
    (True, "inf priority transport, trained confident", "F-X1"),
    (True, "inf, trained veteran confident", "a second Skill"),
    (True, "inf, trained confident wobbly", "'wobbly'"),
])
def test_a_wrong_side_line_is_refused_naming_the_part(charging: bool, line: str,
                                                      words: str) -> None:
    shown = refusal(side(charging, team_ids=("d1",)), line)
    assert words in shown and "\n" not in shown


def test_ratings_alone_read_in_either_language() -> None:
    entry = RatingsQuestion(id="x", text=Msg.of("fow.q.step"))
    assert entry.accept("ветераны уверенные переброс") == ("veteran", "confident", True)
    assert "say the platoon's Motivation" in refusal(entry, "veteran")


def test_a_typed_assault_gives_what_its_declaration_gives() -> None:
    answers = {"assault.defending": "2 inf rof 1, tank top 1, trained confident",
               "assault.assaulting": "2 inf, veteran fearless",
               "defensive-fire": [1, 1], "round.1.to-hit": [5, 6],
               "round.1.save.d3": [6], "round.1.motivation": [5],
               "round.1.choice.defending-platoon": "break-off"}
    typed, _ = play(answers)
    declared, _ = questions_asked(whole(
        [A("a1"), A("a2")], [D("d1", fires=1), D("d2", fires=1), D("d3", "tank", top=1)],
        [P("the assaulting platoon", "attacker", "veteran", "fearless",
           key="assaulting-platoon"),
         P("the defending platoon", "defender", key="defending-platoon")]),
        {k: v for k, v in answers.items() if not k.startswith("assault.")})
    for key in ("stopped", "rounds", "winner", "status", "round_log", "effects"):
        assert typed.outcome_data[key] == declared.outcome_data[key], key


# --- the one line of known armies ------------------------------------------------------------

TEAMS = (("p1", "Grey", "Pioneers", "infantry", "active", 0),
         ("p2", "Grey", "Pioneers", "infantry", "active", 0),
         ("gt", "Grey", "Tanks", "tank", "bailed-out", 0),
         ("tr", "Grey", "Tanks", "transport", "active", 0),
         ("r1", "Red", "Rifles", "infantry", "active", 2),
         ("r2", "Red", "Rifles", "infantry", "destroyed", 2),
         ("ag", "Red", "Rifles", "gun", "active", 0),
         ("rt", "Red", "Armour", "tank", "active", 1))


def assault_line() -> AssaultQuestion:
    return AssaultQuestion(id="assault", text=Msg.of("fow.q.step"), teams=TEAMS)


@pytest.mark.clause("F-A2")
def test_FA2_the_assault_line_defaults_to_every_enemy_and_every_firer() -> None:
    line = assault_line().accept("p1-p2")
    assert line.charge == ("p1", "p2")
    assert line.vs == ("r1", "ag", "rt")  # r2 is destroyed
    assert line.fire == ("r1", "rt")  # ag's card gives no dice of fire
    changed = assault_line().accept("p1 vs r1 rt, rt bailed, fire none")
    assert changed.fire == () and changed.states == (("rt", "bailed-out", False),)
    assert assault_line().accept(assault_line().format(changed)) == changed


@pytest.mark.clause("F-A2")
@pytest.mark.parametrize(("line", "words"), [
    ("p1 gt", "one platoon charges"),
    ("gt", "Bailed Out: it cannot charge"),
    ("tr", "never charges"),
    ("p1 vs r2", "destroyed"),
    ("p1 vs p2", "charging side"),
    ("p1 vs r1 fire ag", "not in the fight"),
    ("p1 vs r1 ag fire ag", "no dice of fire"),
    ("p1 vs r1 ag, r1 bailed", "only tanks and transports"),
    ("p1 vs rt, rt bailed, fire rt", "Bailed Out: it does not fire"),
    ("vs r1", "which teams charge"),
    ("bailed", "name the team first"),
])
def test_FA2_a_wrong_assault_line_is_refused(line: str, words: str) -> None:
    assert words in refusal(assault_line(), line)


@pytest.mark.clause("F-A18")
def test_FA18_a_roster_platoon_without_ratings_is_asked_them_once() -> None:
    result, asked = play({"step": "assault", "assault": "gt1 vs rt ht, fire none",
                          "assault.ratings.red-armour-invented": "trained confident",
                          "round.1.to-hit": [1],
                          "round.1.choice.red-armour-invented": "break-off"},
                         {"roster": str(ROSTER)})
    assert asked.count("assault.ratings.red-armour-invented") == 1
    assert result.outcome_data["winner"] == "attacker"
