"""Flames of War armies kept in a game file across assaults and rounds (docs/rules/
flames-of-war-assault.md, section 4): every team and platoon of the armies that fought, by id
and name, with its state; a destroyed team does not fight again, a Pinned Down platoon charges
only after it has rallied, and the next assault of the game needs no roster."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import api
from referee.catalog import render
from referee.core.errors import GameFileError, UsageError
from referee.core.text import Msg
from referee.frontends.answers import AnswerPort
from referee.game import open_game
from referee.rulesets.fow.view import state_view
from tests.support import ROOT
from tests.support.fow import A, D, P, whole

ROSTER = ROOT / "transcripts" / "rosters" / "fow-orchard.toml"
FOW = "flames-of-war"


def play(answers: dict[str, Any], game: Path, declaration: dict[str, Any] | None = None,
         seed: int = 1) -> tuple[Any, list[str]]:
    plan = api.plan_attack("fow", seed=seed, declaration=declaration, game=game)
    seen: list[str] = []

    class Keeping:
        def __init__(self) -> None:
            self.inner = AnswerPort(answers, plan.dice, use_defaults=True,
                                    roll_missing_dice=True)

        def ask(self, question: Any) -> Any:
            seen.append(question.id)
            return self.inner.ask(question)

    return api.play(plan, Keeping(), game=game), seen  # type: ignore[arg-type]


def kept(game: Path) -> dict[str, Any]:
    with open_game(game) as tx:
        return tx.state(FOW)  # type: ignore[no-any-return]


def teams(game: Path) -> dict[str, str]:
    return {t["id"]: t["status"] for t in kept(game)["teams"]}


def pinned(game: Path) -> dict[str, bool]:
    return {p["name"]: p["pinned"] for p in kept(game)["platoons"]}


FIRST = {"step": "assault", "assault": "p1 p2 vs r1 r2 r3 ag, fire none",
         "round.1.to-hit": [5, 6], "round.1.motivation": [1]}


@pytest.mark.clause("F-A16")
def test_FA16_a_roster_s_armies_enter_the_game_with_their_states(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    result, _ = play(FIRST, game, {"roster": str(ROSTER)})
    assert result.outcome_data["winner"] == "attacker"
    states = teams(game)
    assert len(states) == 11  # every team of the roster, also those not in the fight
    assert states["r1"] == "destroyed" and states["r2"] == "destroyed"
    assert states["gt1"] == "active" and states["ht"] == "active"
    assert pinned(game)["Red Rifle Platoon (invented)"] is True  # it broke off (F-A24)
    assert pinned(game)["Grey Pioneer Platoon (invented)"] is False
    assert kept(game)["assaults"] == 1


@pytest.mark.clause("F-A2")
def test_FA2_the_next_assault_takes_the_game_s_armies_and_not_a_destroyed_team(
        tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    play(FIRST, game, {"roster": str(ROSTER)})
    result, asked = play({"assault": "gt1 vs r3 ag, fire none", "round.1.to-hit": [6],
                          "round.1.motivation": [1]}, game)
    assert asked[0] == "assault"  # no first question: the game keeps the armies
    assert "fow.inferred.game_armies" in [s.text.id for s in result.steps]
    with pytest.raises(Exception) as err:
        play({"assault": "gt1 vs r1"}, game)
    assert "destroyed" in render(err.value.msg)  # type: ignore[attr-defined]
    assert teams(game)["r3"] == "destroyed" or teams(game)["ag"] == "destroyed"
    assert kept(game)["assaults"] == 2


@pytest.mark.clause("F-A2")
def test_FA2_a_pinned_platoon_charges_only_after_it_has_rallied(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    play(FIRST, game, {"roster": str(ROSTER)})  # the Red Rifle Platoon broke off: pinned
    with pytest.raises(UsageError) as err:
        play({"assault": "r3 ag vs p1 p2", "assault.rallied": False}, game)
    assert "has not rallied" in render(err.value.msg)
    result, asked = play({"assault": "r3 vs p1 p2", "assault.rallied": True,
                          "round.1.to-hit": [1], "round.1.choice.grey-pioneer-platoon-invented":
                          "break-off"}, game)
    assert "assault.rallied" in asked
    assert result.outcome_data["winner"] == "attacker"
    assert pinned(game)["Red Rifle Platoon (invented)"] is False  # rallied, and won
    assert pinned(game)["Grey Pioneer Platoon (invented)"] is True  # broke off


@pytest.mark.clause("F-A18")
def test_FA18_ratings_asked_once_are_kept(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    _, asked = play({"step": "assault", "assault": "gt1 vs rt ht, fire none",
                     "assault.ratings.red-armour-invented": "veteran fearless reroll",
                     "round.1.to-hit": [1],
                     "round.1.choice.red-armour-invented": "break-off"},
                    game, {"roster": str(ROSTER)})
    assert "assault.ratings.red-armour-invented" in asked
    armour = next(p for p in kept(game)["platoons"] if p["name"] == "Red Armour (invented)")
    assert (armour["skill"], armour["motivation"], armour["reroll"]) == (
        "veteran", "fearless", True)
    _, again = play({"assault": "p1 vs rt, fire none", "round.1.to-hit": [1],
                     "round.1.choice.red-armour-invented": "break-off"}, game)
    assert "assault.ratings.red-armour-invented" not in again


def test_a_declared_assault_keeps_its_teams_and_refuses_a_destroyed_one_by_name(
        tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    first = whole([A("g1")], [D("r1"), D("r2")])
    play({"round.1.to-hit": [6], "round.1.motivation": [6],
          "round.1.choice.red-platoon": "break-off"}, game, first)
    assert teams(game) == {"g1": "active", "r1": "destroyed", "r2": "active"}
    renamed = whole([A("g1")], [D("x9", name="R1"), D("r2")])  # a new id, the same name
    with pytest.raises(UsageError) as err:
        play({}, game, renamed)
    assert "destroyed" in render(err.value.msg)


def test_a_typed_assault_keeps_its_teams_for_the_next_one(tmp_path: Path) -> None:
    """Issue 27: the teams typed at the table are kept like a roster's; the next assault of
    the game names them by id in one line, with no first question."""
    game = tmp_path / "g.sqlite"
    play({"assault.defending": "3 inf, trained confident",
          "assault.assaulting": "2 inf, trained confident", "round.1.to-hit": [1, 1]}, game)
    assert teams(game) == {"a1": "active", "a2": "active", "d1": "destroyed",
                           "d2": "active", "d3": "active"}
    _, again = play({"assault": "a1 a2 vs d2 d3, fire none"}, game)
    assert again[0] == "assault" and "step" not in again
    assert "assault.defending" not in again and "assault.assaulting" not in again


@pytest.mark.clause("F-1")
def test_in_a_game_that_keeps_teams_allocation_alone_resolves_hits_already_rolled(
        tmp_path: Path) -> None:
    """The assault line of a game that keeps armies takes ``allocation`` alone: only the
    allocation of hits already rolled, its teams typed (not kept, not changing the kept
    ones), as the first question of a game with no armies offers."""
    game = tmp_path / "g.sqlite"
    play({"assault.defending": "3 inf, trained confident",
          "assault.assaulting": "2 inf, trained confident", "round.1.to-hit": [1, 1]}, game)
    before = teams(game)
    result, asked = play({"assault": "allocation", "defending.1": "2 inf",
                          "hitting.1": "2 hits"}, game)
    assert asked[:2] == ["assault", "defending.1"] and "step" not in asked
    assert "allocated" in render(result.outcome)
    assert teams(game) == before


def test_new_platoons_typed_in_a_game_are_kept_beside_the_others_on_their_sides(
        tmp_path: Path) -> None:
    """Issue 27: ``new`` alone in the assault line types a new assault of new platoons: their
    teams numbered on after the kept ones (no id taken twice), each new platoon named apart
    and its side asked once; every team is kept on the game's side it is on, whoever
    charged, so that a later line may set any kept teams against each other; verify agrees."""
    from tests.support.game import invoke, new_game

    game = tmp_path / "g.sqlite"
    new_game(game)
    assert invoke(["attack", "fow", "--game", str(game), "--no-odds"],
                  answers=TYPED_ASSAULT)[0] == 0  # Grey charged
    code, out, err = invoke(["attack", "fow", "--game", str(game), "--no-odds"], answers=[
        "new", "2 inf, trained confident", "", "3 inf, veteran fearless", "", "Red",
        "5 5 5", "", "2", "larks"])
    assert code == 0, err
    assert "Which side is the assaulting platoon 2 on?  Red" in out
    assert "Outcome: Red wins the assault after 1 round" in out
    code, out, err = invoke(["game", "roster", str(game), "--json"])
    sides = {u["name_text"]: g["side"] for g in json.loads(out)["groups"] for u in g["units"]}
    assert sides["Infantry A1"] == sides["Infantry D6"] == "Grey"  # the new defenders: Grey
    assert sides["Infantry A5"] == sides["Infantry D1"] == "Red"
    code, out, err = invoke(["attack", "fow", "--game", str(game), "--no-odds"],
                            answers=["a1 a2 vs a5 a6 a7, fire none", "5 5", "", "2", "wrens"])
    assert code == 0, err
    assert "Outcome: Grey wins the assault after 1 round" in out
    assert invoke(["game", "reveal", str(game)])[0] == 0
    code, out, err = invoke(["game", "verify", str(game)])
    assert code == 0 and "(3 entries)" in out, err


def test_the_state_view_shows_platoons_and_teams(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    play(FIRST, game, {"roster": str(ROSTER)})
    platoons, teams_table = state_view(kept(game))
    assert [render(c) for c in platoons.columns] == ["Platoon", "Side", "Skill", "Motivation",
                                                     "Pinned"]
    rifle = next(r for r in platoons.rows if r[0] == "Red Rifle Platoon (invented)")
    assert render(rifle[-1].text) == "Pinned Down"
    row = next(r for r in teams_table.rows if r[0] == "r1")
    assert row[-1].value == "destroyed"
    assert state_view({}) == ()


def test_a_damaged_state_is_refused_before_any_rule_reads_it(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    play(FIRST, game, {"roster": str(ROSTER)})
    broken = kept(game)["teams"]
    broken[0]["status"] = "resurrected"
    with open_game(game) as tx:
        tx.update_state(FOW, {"teams": broken})
    with pytest.raises(GameFileError):
        play({"assault": "p1 vs r3"}, game)


@settings(max_examples=8, deadline=None)
@given(st.lists(st.integers(1, 10**6), min_size=2, max_size=3))
def test_a_destroyed_team_stays_destroyed_across_assaults(seeds: list[int]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "g.sqlite"
        decl = whole([A("g1"), A("g2")], [D("r1"), D("r2"), D("r3")],
                     [P("Grey platoon", "attacker", "veteran", "fearless"),
                      P("Red platoon", "defender")])
        gone: set[str] = set()
        for seed in seeds:
            fighting = whole([a for a in decl["assaulting"] if a["id"] not in gone],
                             [d for d in decl["defending"] if d["id"] not in gone],
                             decl["platoons"])
            if not fighting["assaulting"] or not fighting["defending"]:
                break
            play({"assault.rallied": True}, game, fighting, seed=seed)
            now = {t for t, s in teams(game).items() if s == "destroyed"}
            assert gone <= now
            gone = now


TYPED_ASSAULT = ["", "3 inf rof 2, gun rof 1, tank top 1, trained confident", "",
                 "4 inf, veteran fearless", "", "Grey", "1 4 6 2 3 1 2", "a4 destroyed",
                 "5 3 1", "", "2", "owls"]
"""The whole assault of benchmarks/questions.py's fow-assault-typed case, typed in a game
made by ``game new`` (sides Grey and Red): the charging side is said to be Grey."""


@pytest.mark.parametrize(("lang", "outcome"), [
    ("en", "Outcome: Grey wins the assault after 1 round"),
    ("ru", "Итог: Grey: победа в ближнем бою после 1 раунда")])
def test_a_typed_assault_in_a_game_names_the_winning_side(tmp_path: Path, lang: str,
                                                          outcome: str) -> None:
    """Issue 27: with a game file the sides are known (asked once, before any die): the
    outcome names the side that won, not "Attacker"; the entry keeps the sides it was told,
    so that ``game verify`` resolves it again to the same outcome."""
    from tests.support.game import invoke, new_game

    game = tmp_path / "g.sqlite"
    new_game(game)
    code, out, err = invoke(["attack", "fow", "--game", str(game), "--no-odds"],
                            answers=TYPED_ASSAULT, lang=lang)
    assert code == 0, err
    assert outcome in out
    assert "Attacker" not in out.split("Outcome:")[-1] and "Атакующ" not in out.split("Итог")[-1]
    assert invoke(["game", "reveal", str(game)])[0] == 0
    # in either language: the entry is resolved again in the language it was played in,
    # since the default names of a typed assault were made in it
    for verifying in ("en", "ru"):
        code, out, err = invoke(["game", "verify", str(game)], lang=verifying)
        assert code == 0 and out.startswith(("The log holds together (1 entry)",
                                             "Журнал цел")), err


NAMED_ASSAULT = ["", "Red Rifles: 3 inf rof 2, gun rof 1, tank top 1, trained confident", "",
                 "Grey Rifles: 4 inf, veteran fearless", "", "Grey", "1 4 6 2 3 1 2",
                 "a4 destroyed", "5 3 1", "", "2", "owls"]


def test_platoons_named_in_their_lines_are_named_everywhere(tmp_path: Path) -> None:
    """Issue 27, real names: a platoon's name before a colon in its side's line names it in
    the side question, the dice prompts, the outcome and the armies the game keeps, so that
    two typed assaults keep two platoons, not one "assaulting platoon"."""
    from tests.support.game import invoke, new_game

    game = tmp_path / "g.sqlite"
    new_game(game)
    code, out, err = invoke(["attack", "fow", "--game", str(game), "--no-odds"],
                            answers=NAMED_ASSAULT)
    assert code == 0, err
    assert "Which side is Grey Rifles on?" in out
    assert "the counterattack test: one die (Red Rifles 4+)" in out
    assert "Pinned Down: Red Rifles" in out
    code, out, err = invoke(["game", "roster", str(game), "--json"])
    assert [(g["name_text"], g["side"]) for g in json.loads(out)["groups"]] == [
        ("Grey Rifles", "Grey"), ("Red Rifles", "Red")]
    # without a game the platoons' names are the sides'
    code, out, err = invoke(["attack", "fow", "--no-odds"],
                            answers=NAMED_ASSAULT[:5] + NAMED_ASSAULT[6:-1])
    assert code == 0, err
    assert "Outcome: Grey Rifles wins the assault after 1 round" in out


def test_a_platoon_name_is_read_before_the_colon_and_refused_when_taken() -> None:
    from referee.core.errors import AnswerError
    from referee.rulesets.fow.side_line import SideQuestion

    question = SideQuestion(id="x", text=Msg.of("fow.q.side_assaulting"), charging=True,
                            taken="Red Rifles")
    side = question.accept("Grey Rifles: 4 inf, veteran fearless")
    assert side.name == "Grey Rifles" and side.teams == 4
    assert question.format(side).startswith("Grey Rifles: 4 ")
    assert question.accept("4 inf, veteran fearless").name is None
    with pytest.raises(AnswerError) as err:
        question.accept("red rifles: 4 inf, veteran fearless")
    assert "Red Rifles is the defending platoon" in render(err.value.msg)
    # a new platoon typed beside the game's armies never takes a kept platoon's name (its
    # teams would go on that platoon's side unasked)
    beside = SideQuestion(id="x", text=Msg.of("fow.q.side_assaulting"), charging=True,
                          kept=frozenset({"grey rifles"}))
    with pytest.raises(AnswerError) as err:
        beside.accept("Grey Rifles: 4 inf, veteran fearless")
    assert "Grey Rifles is a platoon the game keeps" in render(err.value.msg)
