"""World at War knows the situation (issue 14): a roster of units with their hexes, kinds,
states and artillery ratings (``referee attack waw --roster FILE``: only which hex is the
target and the dice are asked), and unit states kept in the game file between missions, read
back at the next mission on the same hex and shown before the first question."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest

from referee import api
from referee.catalog import render
from referee.core.errors import ScriptError
from referee.frontends.answers import AnswerPort
from referee.frontends.wrappers import ScriptingPort
from referee.game import open_game
from referee.rulesets.waw.view import state_view
from tests.support import ROOT

ROSTER = ROOT / "transcripts" / "rosters" / "waw-ridge.toml"
WAW = "world-at-war"


def play(answers: dict[str, Any], declaration: dict[str, Any] | None = None,
         game: Path | None = None, seed: int = 1) -> tuple[list[str], Any]:
    plan = api.plan_attack("waw", seed=seed, declaration=declaration)
    port = ScriptingPort(AnswerPort(answers, plan.dice, roll_missing_dice=True))
    result = api.play(plan, port, game=game)
    return list(port.answers), result


def texts(result: Any) -> list[str]:
    return [f"[{s.clause}] {render(s.text)}" for s in result.steps]


def kept(game: Path) -> dict[str, Any]:
    with open_game(game) as tx:
        return tx.state(WAW)  # type: ignore[no-any-return]


def roster_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "roster.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- the roster -------------------------------------------------------------------------------

@pytest.mark.clause("W-1")
def test_W1_W2_a_roster_asks_only_the_target_hex_and_the_dice() -> None:
    ids, result = play({"mission": "he", "hex": "0712", "attack": [4, 4, 4, 1, 1, 1],
                        "defence": [1], "effect.alpha.first": "disorganize"},
                       {"roster": str(ROSTER)})
    # Bravo reads the same chart as Alpha: not asked again (issue 27)
    assert ids == ["mission", "hex", "attack", "defence", "effect.alpha.first"]
    shown = texts(result)
    assert "[W-1] Artillery: Grey Battery, the roster's only asset (not asked)" \
        in shown
    assert "[W-2] Infantry defence bonus of 0712: 1, from the roster (not asked)" in shown
    # three hits, none cancelled by the hex's one defence die: one on each unit
    assert result.outcome_data["hits"] == {"alpha": 1, "bravo": 1, "iron": 1}


@pytest.mark.clause("W-4")
def test_W4_the_rosters_states_are_the_units_states() -> None:
    _, result = play({"mission": "he", "hex": "0712", "attack": [4] * 6, "defence": [1],
                      "effect.alpha.first": "none",
                      "effect.bravo.weakened-again": "eliminate"}, {"roster": str(ROSTER)})
    # six hits on three units: two rounds; Bravo (weakened in the roster) is weakened again
    assert result.outcome_data["status"]["bravo"] == "eliminated"
    assert result.outcome_data["status"]["alpha"] == "weakened"
    assert result.outcome_data["status"]["iron"] == "disorganized"
    assert result.outcome_data["hits"] == {"alpha": 2, "bravo": 2, "iron": 2}


def test_the_target_hex_is_picked_among_the_rosters_hexes() -> None:
    from referee.core.errors import ScriptError as Refused

    with pytest.raises(Refused) as err:
        play({"mission": "he", "hex": "0999"}, {"roster": str(ROSTER)})
    assert "0712" in render(err.value.msg) and "0713" in render(err.value.msg)


def test_two_artillery_assets_are_a_choice(tmp_path: Path) -> None:
    text = ROSTER.read_text(encoding="utf-8") + (
        '\n[[artillery]]\nid = "blue-rockets"\nname = "Blue Rockets"\n'
        'firepower = 9\nhit_number = 6\n')
    ids, result = play({"mission": "he", "hex": "0713", "artillery": "blue-rockets",
                        "attack": [1] * 9}, {"roster": roster_file(tmp_path, text)})
    assert ids == ["mission", "hex", "artillery", "attack"]
    assert "[W-1] Firepower 9, hit number 6+ (Blue Rockets)" in texts(result)


@pytest.mark.clause("W-8")
def test_W8_a_chemical_strike_reads_the_hexes_around_from_the_rosters_adjacency() -> None:
    ids, result = play({"mission": "chemical", "hex": "0712", "morale.alpha": False,
                        "morale.bravo": True, "morale.iron": True, "morale.carrier": False},
                       {"roster": str(ROSTER)})
    assert ids == ["mission", "hex", "morale.alpha", "morale.bravo", "morale.iron",
                   "morale.carrier"]
    shown = texts(result)
    assert "[W-8] The six hexes around 0712, as the roster's adjacency gives them: 0713, " \
           "0812" in shown
    status = result.outcome_data["status"]
    assert status["riders"] == "disorganized"  # rides in the carrier, which failed (W-8)
    assert status["alpha"] == "weakened-disorganized"
    units = result.state_updates["units"]
    assert {u["id"] for u in units["0713"]} == {"carrier", "riders"}  # kept in their hex
    assert {u["id"] for u in units["0712"]} == {"alpha", "bravo", "iron"}


@pytest.mark.clause("W-8")
def test_W8_without_adjacency_the_players_say_which_hexes_are_around(tmp_path: Path) -> None:
    text = "\n".join(line for line in ROSTER.read_text(encoding="utf-8").splitlines()
                     if not line.startswith("adjacent"))
    ids, result = play({"mission": "chemical", "hex": "0712", "neighbours": [],
                        "morale.alpha": True, "morale.bravo": True, "morale.iron": True},
                       {"roster": roster_file(tmp_path, text)})
    assert ids[:3] == ["mission", "hex", "neighbours"]
    assert set(result.outcome_data["status"]) == {"alpha", "bravo", "iron"}


def test_a_broken_roster_names_its_file_and_field(tmp_path: Path) -> None:
    bad = roster_file(tmp_path, '[[units]]\nid = "a"\nhex = "0101"\nkind = "infantry"\n'
                                'mounted_in = "nothing"\n')
    with pytest.raises(ScriptError) as err:
        play({"mission": "he"}, {"roster": bad})
    shown = render(err.value.msg)
    assert "roster.toml" in shown and "nothing" in shown


def invoke(args: list[str], answers: list[str], lang: str = "en") -> tuple[int, str]:
    """The command in process (``tests.support.game.invoke``), its output and errors as one."""
    from tests.support.game import invoke as run

    code, out, err = run(args, answers=answers, lang=lang)
    return code, out + err


def test_attack_roster_file_hands_the_roster_to_world_at_war(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    code, out = invoke(["attack", "waw", "--roster", str(ROSTER), "--game", str(game),
                        "--seed", "2"], ["", "0713", "1 1 1 1 1 1"])
    assert code == 0, out
    assert "Outcome: hex 0713 — nobody harmed (0 net hits)" in out
    assert {u["id"] for u in kept(game)["units"]["0713"]} == {"carrier", "riders"}


# --- unit states kept in the game file --------------------------------------------------------

FIRST = {"mission": "he", "hex": "0712 0", "units": '"Alpha" inf, inf, cv',
         "firepower": "6 4+", "attack": [4, 4, 4, 4, 1, 1],
         "effect.alpha.first": "disorganize", "pick.round-2.1": [1]}


@pytest.mark.clause("W-4")
def test_W4_the_next_mission_on_the_hex_starts_from_the_kept_states(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    _, first = play(FIRST, game=game)
    # unit 2 reads the chart Alpha's first hit was read from: disorganized too (issue 27)
    assert first.outcome_data["status"] == {"alpha": "weakened-disorganized",
                                            "unit-2": "disorganized", "unit-3": "disorganized"}
    saved = kept(game)["units"]["0712"]
    assert [(u["id"], u["disorganized"], u["weakened"]) for u in saved] == [
        ("alpha", True, True), ("unit-2", True, False), ("unit-3", True, False)]
    # the next mission: Enter on the units question keeps them, with their states
    plan = api.plan_attack("waw", seed=1)
    port = ScriptingPort(AnswerPort({"mission": "he", "hex": "0712 0", "firepower": "6 4+",
                                     "attack": [1] * 6}, plan.dice, roll_missing_dice=True,
                                    use_defaults=True))
    second = api.play(plan, port, game=game)
    assert port.answers["units"] == '"Alpha" inf dis weak, inf dis, cv dis'
    assert "[W-4] The units of 0712 as the game file keeps them, with the states earlier " \
           "missions left" in texts(second)
    assert second.outcome_data["status"]["alpha"] == "weakened-disorganized"


@pytest.mark.clause("W-4")
def test_W4_a_later_mission_offers_the_kept_hex_and_asks_neither_hex_nor_units(
        tmp_path: Path) -> None:
    """Issue 27: the first question offers an HE mission on each hex the game keeps units
    of; picked, the hex, its units (with their states) and its infantry defence bonus come
    from the game, so only the ratings and the dice are asked."""
    game = tmp_path / "g.sqlite"
    play(FIRST, game=game)
    assert kept(game)["defence"] == {"0712": 0}
    asked, second = play({"mission": "kept:0712", "firepower": "6 4+", "attack": [1] * 6},
                         game=game)
    assert asked == ["mission", "firepower", "attack"]
    shown = texts(second)
    assert "[W-4] The units of 0712 as the game file keeps them, with the states earlier " \
           "missions left" in shown
    assert "[W-2] Infantry defence bonus of 0712: 0, as given in an earlier mission " \
           "(the game file; not asked)" in shown
    assert second.outcome_data["hex"] == "0712"
    assert second.outcome_data["status"] == {"alpha": "weakened-disorganized",
                                             "unit-2": "disorganized", "unit-3": "disorganized"}


@pytest.mark.clause("W-8")
def test_W8_a_later_chemical_strike_picks_the_kept_hex_by_name_and_checks_every_unit(
        tmp_path: Path) -> None:
    """Issue 27: the kept hex is offered as a chemical strike on it too: the hex is not
    asked; the units line offers the kept units with their states (Enter keeps them), and a
    unit of the six hexes around is added to it (W-8: every unit there checks morale). The
    strike hex's units keep the states the strike leaves them."""
    game = tmp_path / "g.sqlite"
    play(FIRST, game=game)
    asked, second = play({"mission": "kept-chemical:0712",
                          "units": '"Alpha" inf dis weak, inf dis, cv dis, "Bravo" inf adj',
                          "unit.1.mounted": "no", "unit.2.mounted": "no",
                          "unit.4.mounted": "no", "morale.alpha": True,
                          "morale.unit-2": False, "morale.unit-3": True,
                          "morale.bravo": False}, game=game)
    assert "hex" not in asked and asked[:2] == ["mission", "units"]
    assert second.outcome_data["mission"] == "chemical"
    assert second.outcome_data["hex"] == "0712"
    assert set(second.outcome_data["passed"]) == {"alpha", "unit-2", "unit-3", "bravo"}
    assert not any("defence bonus" in t for t in texts(second))  # an HE fact, not W-8's
    saved = {u["id"]: (u["disorganized"], u["weakened"]) for u in kept(game)["units"]["0712"]}
    assert saved == {"alpha": (True, True), "unit-2": (True, True), "unit-3": (True, False)}
    # Enter on the units line keeps the kept units and their states
    plan = api.plan_attack("waw", seed=1)
    port = ScriptingPort(AnswerPort({"mission": "kept-chemical:0712"}, plan.dice,
                                    roll_missing_dice=True, use_defaults=True))
    api.play(plan, port, game=game)
    # (the rides the strike settled with them: W-8, issue 27)
    assert port.answers["units"] == '"Alpha" inf dis weak foot, inf dis weak foot, cv dis'


@pytest.mark.clause("W-8")
def test_W8_the_kept_hex_is_offered_as_a_chemical_strike_in_russian_at_the_table(
        tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    code, _ = invoke(["attack", "waw", "--game", str(game), "--seed", "1"],
                     ["", "0712 1", "inf, cv", "4 6+", "1 1 1 1"])
    assert code == 0
    other = ("Химическая атака по гексу 0712, с другими подразделениями или подразделениями "
             "соседних гексов (в партии: подразделение 1, подразделение 2)")
    code, out = invoke(["attack", "waw", "--game", str(game), "--seed", "1"],
                       [other, "", "", "да", "нет"], lang="ru")
    assert code == 0, out
    assert f"? Какая артиллерийская задача? {other}" in " ".join(out.split())  # wrapped
    asked = [line for line in out.splitlines() if line.startswith("? ")]
    assert len(asked) == 5  # the mission, the units (Enter), on foot, two checks: no hex
    assert "Итог: гекс 0712 — подразделение 2" in out
    # the strike settled unit 1's ride: as the game keeps it, it is shown and not asked; the
    # two checks in one line, in Russian words
    picked = ("Химическая атака по гексу 0712, как его хранит партия: подразделение 1 "
              "(спешено), подразделение 2 (дезорганизовано)")
    code, out = invoke(["attack", "waw", "--game", str(game), "--seed", "1"],
                       [picked, "д н"], lang="ru")
    assert code == 0, out
    asked = [line for line in out.splitlines() if line.startswith("? ")]
    assert len(asked) == 2, out
    shown = " ".join(out.split())  # long lines wrap
    assert f"? Какая артиллерийская задача? {picked}" in shown
    assert "? Проверки морали, по порядку: подразделение 1, подразделение 2. Прошло ли " \
           "каждое? (д или н на каждое) д н" in shown


@pytest.mark.clause("W-8")
def test_W8_a_strike_as_the_game_keeps_it_asks_no_units_line_and_keeps_each_ride(
        tmp_path: Path) -> None:
    """Issue 27: the kept hex is offered for a chemical strike as the game keeps it: no
    units line; a ride the game does not know yet is asked (an HE mission does not settle
    it), then kept with the unit, so that the next strike shows it in the choice and does
    not ask it; the morale checks in one line, a rider sharing its vehicle's (W-8)."""
    game = tmp_path / "g.sqlite"
    play(FIRST, game=game)
    asked, first = play({"mission": "kept-chemical-as-kept:0712", "unit.1.mounted": "no",
                         "unit.2.mounted": "unit-3", "morale": "y n"}, game=game)
    assert asked == ["mission", "unit.1.mounted", "unit.2.mounted", "morale"]
    # the line lists those who check, vehicles first: Alpha passes, unit 3 fails, and unit 2
    # riding in it fails with it
    assert first.outcome_data["passed"] == {"alpha": True, "unit-3": False, "unit-2": False}
    assert "[W-8] unit 2 rides in unit 3: no check of its own; the vehicle failed" \
        in texts(first)
    rides = {u["id"]: (u.get("on_foot"), u.get("mounted_in"))
             for u in kept(game)["units"]["0712"]}
    assert rides == {"alpha": (True, None), "unit-2": (None, "unit-3"),
                     "unit-3": (None, None)}
    # an HE mission on the hex between the strikes leaves the rides as they were
    play({"mission": "kept:0712", "firepower": "1 6+", "attack": [1]}, game=game)
    assert {u["id"]: u.get("mounted_in") for u in kept(game)["units"]["0712"]}["unit-2"] \
        == "unit-3"
    asked, second = play({"mission": "kept-chemical-as-kept:0712", "morale": "yes, yes"},
                         game=game)
    assert asked == ["mission", "morale"]  # the rides not asked again
    shown = texts(second)
    assert "[W-8] Alpha: on foot, as the game file keeps it from an earlier chemical strike " \
           "on 0712 (not asked)" in shown
    assert "[W-8] unit 2: rides in unit 3, as the game file keeps it from an earlier " \
           "chemical strike on 0712 (not asked)" in shown
    assert second.outcome_data["passed"] == {"alpha": True, "unit-3": True, "unit-2": True}
    # at the table: the rides in the choice's label, two questions in all
    code, out = invoke(["attack", "waw", "--game", str(game), "--seed", "1"],
                       ["kept-chemical-as-kept:0712", "y y"])
    assert code == 0, out
    assert "? Which artillery mission? Chemical strike on hex 0712, as the game keeps it: " \
           "Alpha (weakened and disorganized, on foot), unit 2 (disorganized, " \
           "in unit 3), unit 3 (disorganized)" in " ".join(out.split())
    assert len([line for line in out.splitlines() if line.startswith("? ")]) == 2
    # the units-line path offers the kept rides in its line (Enter keeps them: not asked)
    plan = api.plan_attack("waw", seed=1)
    port = ScriptingPort(AnswerPort({"mission": "kept-chemical:0712"}, plan.dice,
                                    roll_missing_dice=True, use_defaults=True))
    api.play(plan, port, game=game)
    assert port.answers["units"] == '"Alpha" inf dis weak foot, inf dis in #3, cv dis'
    assert not any(q.endswith(".mounted") for q in port.answers)
    # a line that leaves a ride out has it asked, the kept ride its default
    port = ScriptingPort(AnswerPort({"mission": "kept-chemical:0712",
                                     "units": '"Alpha" inf dis weak foot, inf dis, cv dis'},
                                    plan.dice, roll_missing_dice=True, use_defaults=True))
    api.play(plan, port, game=game)
    assert [q for q in port.answers if q.endswith(".mounted")] == ["unit.2.mounted"]
    assert port.answers["unit.2.mounted"] == "unit-3"


@pytest.mark.clause("W-5")
@pytest.mark.clause("W-8")
def test_W5_W8_an_hq_takes_no_place_in_the_morale_line_of_a_strike_as_kept(
        tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    play({"mission": "he", "hex": "0805 0", "units": "inf, hq, inf", "firepower": "2 4+",
          "attack": [1, 1]}, game=game)
    asked, result = play({"mission": "kept-chemical-as-kept:0805", "morale": "y n"},
                         game=game)
    assert asked == ["mission", "morale"]  # no vehicle: no ride to ask
    assert result.outcome_data["passed"] == {"unit-1": True, "unit-3": False}
    assert "[W-5] unit 2 is an HQ: not an artillery target (W-5), so no morale check for " \
           "the chemical strike (and no HQ roll: the strike scores no hits)" in texts(result)


@pytest.mark.clause("W-8")
def test_W8_the_morale_line_needs_one_yes_or_no_a_unit() -> None:
    from referee.core.errors import AnswerError
    from referee.core.text import Msg
    from referee.rulesets.waw.line import MoraleLine, MoraleQuestion

    q = MoraleQuestion(id="morale", text=Msg.of("waw.q.morale_line", units="-"),
                       units=("Alpha", "Bravo"), default_value="y y")
    assert q.accept("y, n") == MoraleLine((True, False), "en")
    assert q.accept("Д Нет") == MoraleLine((True, False), "ru")
    assert q.format(q.accept("д н")) == "д н"
    assert q.accept("") == MoraleLine((True, True), "en")  # Enter: every unit passed
    with pytest.raises(AnswerError) as err:
        q.accept("y")
    assert render(err.value.msg) == "1 answers for 2 morale checks: one each, in order " \
                                    "(Alpha, Bravo)"
    with pytest.raises(AnswerError) as err:
        q.accept("y maybe")
    assert render(err.value.msg) == "maybe: expected y or n for each morale check " \
                                    "(Alpha, Bravo)"


@pytest.mark.clause("W-8")
def test_W8_a_kept_ride_whose_vehicle_is_gone_is_not_known() -> None:
    from referee.rulesets.waw.kept import rides

    def unit(uid: str, kind: str, **more: Any) -> dict[str, Any]:
        return {"id": uid, "kind": kind, "disorganized": False, "weakened": False,
                "eliminated": False, **more}

    state = {"units": {"0712": [unit("a", "infantry", mounted_in="v"),
                                unit("b", "infantry", on_foot=True),
                                unit("c", "infantry"),
                                unit("v", "combat-vehicle", eliminated=True)]}}
    assert rides(state, "0712") == {"b": None}  # a: its vehicle eliminated; c: never asked


@pytest.mark.clause("W-2")
def test_W2_a_defence_bonus_asked_once_the_attack_has_hits_is_kept_for_the_hex(
        tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    play({"mission": "he", "hex": "0805", "units": "inf", "firepower": "2 4+",
          "attack": [1, 4], "terrain-defence": 2, "defence": [1, 1],
          "effect.unit-1.first": "none"}, game=game)
    assert kept(game)["defence"] == {"0805": 2}
    asked, _ = play({"mission": "kept:0805", "firepower": "2 4+", "attack": [1, 4],
                     "defence": [1, 1]}, game=game)
    assert "terrain-defence" not in asked
    # a mission without hits asks no bonus: nothing kept for its hex
    play({"mission": "he", "hex": "0806", "units": "inf", "firepower": "2 4+",
          "attack": [1, 1]}, game=game)
    assert "0806" not in kept(game)["defence"]


@pytest.mark.clause("W-4")
def test_W4_the_kept_hexes_are_offered_by_their_units_in_both_languages() -> None:
    from referee.core.port import Port
    from referee.rulesets.waw.ask import ask_mission
    from referee.rulesets.waw.situation import _kept_hexes

    class Asked:
        question: Any = None

        def ask(self, question: Any) -> Any:
            self.question = question
            return question.default

    state = {"units": {
        "0712": [{"id": "alpha", "name": "Alpha", "kind": "infantry", "disorganized": True,
                  "weakened": False, "eliminated": False},
                 {"id": "unit-2", "name": None, "kind": "infantry", "disorganized": False,
                  "weakened": False, "eliminated": False}],
        "0805": [{"id": "unit-1", "name": None, "kind": "infantry", "disorganized": False,
                  "weakened": False, "eliminated": True}]}}
    port = Asked()
    assert ask_mission(cast(Port, port), _kept_hexes(state)) == "he"  # Enter: as before
    offered = [c for c in port.question.choices if c.value.startswith("kept:")]
    assert [c.value for c in offered] == ["kept:0712"]  # 0805 has no unit standing
    assert render(offered[0].label) == \
        "HE on hex 0712, as the game keeps it: Alpha (disorganized), unit 2"
    assert render(offered[0].label, "ru") == \
        "ОФ по гексу 0712, как его хранит партия: Alpha (дезорганизовано), подразделение 2"


@pytest.mark.clause("W-4")
def test_W4_an_eliminated_unit_is_no_target_of_the_next_mission(tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    with open_game(game) as tx:
        tx.update_state(WAW, {"units": {"0712": [
            {"id": "alpha", "name": None, "kind": "infantry", "disorganized": False,
             "weakened": False, "eliminated": True},
            {"id": "iron", "name": None, "kind": "combat-vehicle", "disorganized": True,
             "weakened": False, "eliminated": False}]}})
        tx.append_log(WAW, "run", {})  # the entry that left this state
    _, result = play({"mission": "he", "hex": "0712", "attack": [1] * 6},
                       {"roster": str(ROSTER)}, game=game)
    shown = texts(result)
    assert "[W-4] Alpha Platoon was eliminated in 0712 by an earlier mission " \
           "(the game file): not a target" in shown
    assert "[W-4] Iron Tanks: disorganized, as the game file keeps it " \
           "from an earlier mission on 0712" in shown
    assert set(result.outcome_data["status"]) == {"bravo", "iron"}


@pytest.mark.clause("W-4")
def test_W4_a_declared_unit_takes_its_kept_state_unless_the_script_gives_one(
        tmp_path: Path) -> None:
    game = tmp_path / "g.sqlite"
    with open_game(game) as tx:
        tx.update_state(WAW, {"units": {"0101": [
            {"id": "grey", "name": "Grey", "kind": "infantry", "disorganized": True,
             "weakened": False, "eliminated": False}]}})
        tx.append_log(WAW, "run", {})  # the entry that left this state
    decl = {"mission": "he", "hex": "0101", "firepower": 2, "hit_number": 6,
            "terrain_defence": 0, "units": [{"name": "Grey", "kind": "infantry"}]}
    _, result = play({"attack": [1, 1]}, decl, game=game)
    assert result.outcome_data["status"] == {"grey": "disorganized"}
    decl["units"] = [{"name": "Grey", "kind": "infantry", "disorganized": False}]
    _, result = play({"attack": [1, 1]}, decl, game=game)
    assert result.outcome_data["status"] == {"grey": "good"}


# --- the state before the first question ------------------------------------------------------

@pytest.mark.clause("W-6")
def test_W6_W4_the_state_view_shows_the_markers_and_the_units_states() -> None:
    state = {"markers": [{"id": 1, "kind": "smoke", "hex": "0805", "level": 2,
                          "placed_after_phase": 0}], "next_marker": 2, "phases": 0,
             "units": {"0712": [{"id": "unit-2", "name": None, "kind": "infantry",
                                 "disorganized": True, "weakened": True,
                                 "eliminated": False}]}}
    markers, units = state_view(state)
    assert [render(c) for c in markers.rows[0][1:2]] == ["Smoke 2"]
    hex_id, label, kind, status = units.rows[0]
    assert (hex_id, render(label), render(kind), render(status)) == \
        ("0712", "unit 2", "infantry", "weakened and disorganized")
    assert render(label, "ru") == "подразделение 2"
    assert state_view({"markers": [], "units": {}}) == ()


def _first_mission(tmp_path: Path) -> Path:
    """A game file after an HE mission typed at the table on 0712 (an infantry unit and a
    combat vehicle, infantry defence bonus 1)."""
    game = tmp_path / "g.sqlite"
    code, _ = invoke(["attack", "waw", "--game", str(game), "--seed", "1"],
                     ["", "0712 1", "inf, cv", "4 6+", "1 1 1 1"])
    assert code == 0
    return game


def test_attack_with_a_game_file_shows_its_state_before_the_first_question(
        tmp_path: Path) -> None:
    game = _first_mission(tmp_path)
    code, out = invoke(["attack", "waw", "--game", str(game), "--seed", "1"],
                       ["Smoke", "0805"])
    assert code == 0, out
    before = out[:out.index("? Which artillery mission?")]
    assert "Units kept in the game file" in before and "unit 2" in before
    code, out = invoke(["attack", "waw", "--game", str(game), "--seed", "1"],
                       ["", "0712", "", "4 6+", "1 1 1 1"], lang="ru")
    assert code == 0, out
    before = out[:out.index("? Какая артиллерийская задача?")]
    assert "Дым 2" in before and "подразделение 2" in before


def test_the_choice_of_artillery_is_marked_as_changing_how_the_mission_may_end(
        tmp_path: Path) -> None:
    """The artillery asset (and a data file's terrain) change the odds: at the table each
    option's end states are shown side by side (ChoiceQuestion.whatif)."""
    text = ROSTER.read_text(encoding="utf-8") + (
        '\n[[artillery]]\nid = "blue-rockets"\nname = "Blue Rockets"\n'
        'firepower = 9\nhit_number = 6\n')
    seen: dict[str, Any] = {}

    class Spy:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def ask(self, question: Any) -> Any:
            seen[question.id] = question
            return self.inner.ask(question)

    plan = api.plan_attack("waw", seed=1, declaration={"roster": roster_file(tmp_path, text)})
    api.play(plan, Spy(AnswerPort({"mission": "he", "hex": "0713", "artillery": "grey-battery",
                                   "attack": [1] * 6}, plan.dice)))
    assert seen["artillery"].whatif and not seen["hex"].whatif


@pytest.mark.clause("W-4")
def test_W4_the_kept_hex_is_picked_by_its_label_at_the_table_in_russian(
        tmp_path: Path) -> None:
    game = _first_mission(tmp_path)
    picked = "ОФ по гексу 0712, как его хранит партия: подразделение 1, подразделение 2"
    code, out = invoke(["attack", "waw", "--game", str(game), "--seed", "1"],
                       [picked, "4 6+", "1 1 1 1"], lang="ru")
    assert code == 0, out
    assert f"? Какая артиллерийская задача?  {picked}" in out
    asked = [line for line in out.splitlines() if line.startswith("? ")]
    assert len(asked) == 3  # the mission, the ratings, the attack dice: no hex, no units
    assert "Итог: гекс 0712 — никто не пострадал (0 итоговых попаданий)" in out
