"""Epic at the table with fewer questions (issue 14): the typed attack in compact lines, what
the referee infers instead of asking (weapon ranges, alike units, suppression), the roster
flow, overwatch and barrages without a file, names, what-if choices and the game file's state
shown first. Each inference is pinned by the clause it applies."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import api
from referee.catalog import render
from referee.core.errors import AnswerError, MissingAnswerError
from referee.core.port import settle_dice
from referee.core.questions import ChoiceQuestion, ConfirmQuestion, DiceQuestion, Question
from referee.core.text import Msg
from referee.frontends.answers import AnswerPort
from referee.render.display import value_from_label
from referee.rulesets.epic.step_dice import StepDiceQuestion
from referee.rulesets.epic.view import state_view
from tests.support import ROOT

ROSTER = str(ROOT / "transcripts" / "scripts" / "epic-roster.toml")
FIRING, TARGET = "Grey Company (invented)", "Red Hill Battery (invented)"


def typed(**answers: Any) -> dict[str, Any]:
    """A typed whole attack: the two formations' lines (issue 27) from ``firing.N`` and
    ``target.N`` groups, with ``markers.*`` and ``crossfire`` given as ``bmN``/``xfN``."""
    out: dict[str, Any] = {"attack-kind": "whole",
                           "broken.red-hill-battery-invented": False, "action": "advance"}
    lines: dict[str, list[str]] = {"firing": [], "target": []}
    extra = {"firing": answers.pop("markers.grey-company-invented", 0),
             "target": answers.pop("markers.red-hill-battery-invented", 0)}
    crossfire = answers.pop("crossfire", 0)
    for key in sorted(answers, key=lambda k: (k.split(".")[0], k.split(".")[-1].zfill(3))):
        side, _, n = key.partition(".")
        if side in lines and n.isdigit():
            lines[side].append(answers.pop(key))
    out.update(answers)
    for side, name in (("firing", FIRING), ("target", TARGET)):
        parts = [f"bm{extra[side]}"] if extra[side] else []
        parts += [f"xf{crossfire}"] if side == "target" and crossfire else []
        out[side] = f"{name}: " + ", ".join(parts + lines[side])
    return out


def run(answers: dict[str, Any], declaration: dict[str, Any] | None = None,
        options: tuple[str, ...] = (), strict: bool = True) -> tuple[Any, list[Question]]:
    """The result and every question asked, in order (dice left out are rolled; not
    ``strict``: other questions left out take their defaults, answers left over are let be)."""
    plan = api.plan_attack("epic", seed=1, declaration=declaration, options=options)
    port = _Asked(AnswerPort(answers, plan.dice, roll_missing_dice=True,
                             use_defaults=not strict), strict)
    return api.play(plan, port), port.questions


class _Asked:
    def __init__(self, inner: Any, strict: bool) -> None:
        self.inner, self.strict = inner, strict
        self.questions: list[Question] = []

    def ask(self, question: Question) -> Any:
        self.questions.append(question)
        return self.inner.ask(question)

    def finish(self) -> None:
        if self.strict:
            self.inner.finish()


def ids(questions: list[Question]) -> list[str]:
    return [q.id for q in questions]


def steps(result: Any) -> list[str]:
    return [s.text.id for s in result.steps]


# -- the typed attack ---------------------------------------------------------------------------

def test_the_reference_attack_costs_at_most_8_questions_and_ends_as_before() -> None:
    """The issue's epic-typed attack: 4 AP4+ shots and 2 AT4+ shots at 6 infantry (6+, two
    in woods) and 2 armoured vehicles (4+), every die a 5 to hit and a 1 to save."""
    answers = typed(**{"firing.1": "4 ap4", "firing.2": "2 at4",
                       "target.1": "2 inf 6+ woods 15", "target.2": "4 same open 20",
                       "target.3": "2 av 4+ 25", "cover.ap": True,
                       "to-hit": [5] * 6, "save.normal": [1] * 6})
    result, asked = run(answers)
    assert len(asked) <= 8  # issue 27: a line a formation, a prompt a roll step
    assert result.outcome_data["casualties"] == ["infantry-1", "infantry-2", "infantry-3",
                                                 "infantry-4", "armoured-vehicle-1",
                                                 "armoured-vehicle-2"]
    assert result.outcome_data["blast_markers"] == 7 and result.outcome_data["broken"]


def test_an_old_typed_script_is_refused_naming_the_new_question() -> None:
    old = {"attack-kind": "whole", "firing-name": FIRING, "target-name": TARGET,
           "markers.grey-company-invented": 0, "weapons": 1, "weapon.1.shots": 4,
           "weapon.1.ap": "4", "weapon.1.at": "none", "weapon.1.rules": []}
    with pytest.raises(MissingAnswerError) as err:
        api.attack("epic", old)
    assert "'firing'" in render(err.value.msg)


def test_names_left_out_take_labels_in_the_players_language_and_stable_ids() -> None:
    answers = {"attack-kind": "whole", "firing": "ap4", "target": "inf 6+ 15",
               "broken.target-formation": False, "action": "advance", "to-hit.ap4": [1]}
    result, _ = run(answers)
    assert render(result.outcome, "en").startswith("Target formation: 0 units destroyed")
    assert render(result.outcome, "ru").startswith("«Формация-цель»: уничтожено 0 юнитов")
    # the game file keys the formations as the ids do, whatever the language
    assert set(result.state_updates["formations"]) == {"target-formation"}


def test_units_typed_without_a_name_are_named_by_their_type_in_the_players_language() -> None:
    """Issue 27: ``Infantry 1``, not ``Unit 1``; a weapon by its profile (``AP4+``)."""
    result, asked = run(typed(**{"firing.1": "ap4", "target.1": "inf 6+ 15",
                                 "to-hit.ap4": [5], "save.normal.infantry-1": [1]}))
    save = next(q for q in asked if q.id == "save.normal.infantry-1")
    assert render(save.text, "en").startswith("Save for Infantry 1:")
    assert render(save.text, "ru").startswith("Спас-бросок, Пехота 1:")
    shots = next(t for t in result.tables if t.title.id == "epic.table.shots")
    assert render(shots.rows[0][0], "ru") == "AP4+"


@pytest.mark.clause("E-4")
def test_E4_without_blast_markers_no_distance_is_asked_and_the_working_says_why() -> None:
    result, asked = run(typed(**{"firing.1": "4 ap4", "target.1": "inf 6+ 15"}))
    line = next(q for q in asked if q.id == "firing")
    with pytest.raises(AnswerError) as err:  # with Blast markers, the distance is needed
        line.accept("bm1, 4 ap4")
    assert err.value.msg.id == "epic.entry.no_distance_firing"
    assert "epic.step.no_markers" in steps(result)
    assert "epic.step.no_firing_units" not in steps(result)


@pytest.mark.clause("E-4")
def test_E4_with_blast_markers_the_farthest_typed_units_are_suppressed() -> None:
    answers = typed(**{"markers.grey-company-invented": 2, "firing.1": "3 ap5 20",
                       "firing.2": "ap5/at6 35", "firing.3": "2 ap5 30",
                       "target.1": "3 inf 6+ 15", "to-hit.ap5": [6] * 4})
    result, asked = run(answers)
    who = next(t for t in result.tables if t.title.id == "epic.table.who_fires")
    status = {render(r[0]): r[4].id for r in who.rows}
    assert status["Shooter 4"] == "epic.fire_status.suppressed"  # 35 cm: the farthest
    assert status["Shooter 5"] == "epic.fire_status.suppressed"  # one of the two at 30 cm
    assert status["Shooter 6"] == "epic.fire_status.able"
    # the two at 30 cm are of one line, alike: which is suppressed is not asked
    assert "suppress" not in ids(asked) and "epic.step.suppress_alike" in steps(result)
    assert result.outcome_data["hits"] == {"ap": 4}  # weapon 2 did not fire: no fire-type


@pytest.mark.clause("E-4")
def test_E4_tied_roster_units_of_one_run_are_alike_but_of_two_runs_the_player_picks() -> None:
    answers = {"markers.grey-company-invented": 1, "markers.red-hill-battery-invented": 0,
               "action": "advance", "situation.grey-company-invented": "2 30, 25",
               "suppress": ["trooper-1"], "situation.red-hill-battery-invented": "20",
               "fire-type.missile-launcher": "ap"}
    decl = {"firing": FIRING, "target": TARGET, "roster": ROSTER}
    result, asked = run(answers, decl, strict=False)
    assert "suppress" not in ids(asked) and "epic.step.suppress_alike" in steps(result)
    answers["situation.grey-company-invented"] = "30, 30, 25"
    _, asked = run(answers, decl, strict=False)
    assert "suppress" in ids(asked)


@pytest.mark.clause("E-10")
def test_E10_hits_among_alike_units_of_a_line_are_not_asked_but_others_are() -> None:
    result, asked = run(typed(**{"firing.1": "2 ap4", "target.1": "3 inf 6+ 20",
                                 "to-hit.ap4": [6, 6]}))
    assert not [i for i in ids(asked) if i.startswith("allocate.")]
    alloc = next(t for t in result.tables if t.title.id == "epic.table.allocation")
    assert [r[4].id for r in alloc.rows] == ["epic.why.alike", "epic.why.alike"]
    assert [render(r[3]) for r in alloc.rows] == ["Infantry 1", "Infantry 2"]
    # the same three units, one a line: not one group, so the defender chooses (E-X6)
    _, asked = run(typed(**{"firing.1": "2 ap4", "target.1": "inf 6+ 20",
                            "target.2": "inf 6+ 20", "target.3": "inf 6+ 20",
                            "to-hit.ap4": [6, 6], "allocate.normal.1": "infantry-1",
                            "allocate.normal.2": "infantry-2"}))
    assert {"allocate.normal.1", "allocate.normal.2"} <= set(ids(asked))


@pytest.mark.clause("E-11")
def test_E11_alike_units_with_one_hit_each_roll_their_saves_together_a_die_a_unit() -> None:
    answers = typed(**{"firing.1": "3 ap4", "target.1": "3 inf 5+ 20",
                       "to-hit.ap4": [6, 6, 6], "save.normal.infantry-1..infantry-3": [5, 2, 6]})
    result, asked = run(answers)
    (batch,) = [q for q in asked if q.id.startswith("save.")]
    assert isinstance(batch, DiceQuestion) and batch.spec.count == 3
    assert result.outcome_data["casualties"] == ["infantry-2"]  # the die read in unit order
    # a count alone: the first listed fail, alike as they are
    answers["save.normal.infantry-1..infantry-3"] = "=2"
    result, _ = run(answers)
    assert result.outcome_data["casualties"] == ["infantry-1"]


@pytest.mark.clause("E-11")
def test_E11_a_unit_with_two_hits_or_a_re_roll_rolls_on_its_own() -> None:
    answers = typed(**{"firing.1": "4 ap4", "target.1": "3 inf 5+ 20 ra",
                       "to-hit.ap4": [6, 6, 6, 6]})
    _, asked = run(answers)
    (saves,) = [q for q in asked if q.id.startswith("save.") and "reroll" not in q.id]
    # one prompt for the step (issue 27), a group a unit: each rolls on its own
    assert isinstance(saves, StepDiceQuestion) and saves.id == "save.normal"
    assert [g.qid for g in saves.groups] == ["save.normal.infantry-1", "save.normal.infantry-2",
                                             "save.normal.infantry-3"]


# -- a compact line and the same units one a line end the same ---------------------------------

def _units(line_id: str) -> list[str]:
    """The units a save question of the typed flow is about, by name (``infantry-2``; a run
    ``infantry-1..infantry-3`` is of one type)."""
    m = re.match(r"save\.\w+\.([a-z-]+)-(\d+)(?:\.\.[a-z-]+-(\d+))?", line_id)
    assert m is not None, line_id
    first = int(m.group(2))
    return [f"{m.group(1)}-{n}" for n in range(first, int(m.group(3) or first) + 1)]


class _Faces:
    """Answers by id, dice by a rule that gives each unit's save dice the same faces
    whether its saves are rolled alone or with alike units."""

    def __init__(self, answers: dict[str, Any], hit: list[int], save: dict[str, int],
                 dice: Any) -> None:
        self.answers, self.hit, self.save, self.dice = answers, hit, save, dice

    def faces(self, qid: str, n: int) -> list[int]:
        if qid.startswith("to-hit"):
            return [self.hit[i % len(self.hit)] for i in range(n)]
        units = _units(qid)
        return [self.save[u] for u in units] if len(units) > 1 else [self.save[units[0]]] * n

    def ask(self, q: Question) -> Any:
        if isinstance(q, StepDiceQuestion):  # a step's groups in one prompt (issue 27)
            faces = [f for g in q.groups for f in self.faces(g.qid, g.spec.count)]
            return settle_dice(q, q.accept(faces), self.dice)
        if isinstance(q, DiceQuestion):
            return settle_dice(q, q.accept(self.faces(q.id, q.spec.count)), self.dice)
        if q.id in self.answers:
            return q.accept(value_from_label(q, self.answers[q.id]))
        return q.accept(q.default if q.default is not None else "")


GROUP = st.tuples(st.integers(1, 3), st.sampled_from(["inf", "av", "lv"]),
                  st.sampled_from(["4+", "5+", "6+", "-"]), st.sampled_from(["", "woods"]),
                  st.sampled_from([10, 20, 30]), st.sampled_from(["", "ra"]))


@pytest.mark.clause("E-10")
@settings(max_examples=40, deadline=None)
@given(st.lists(GROUP, min_size=1, max_size=3),
       st.lists(st.sampled_from(["2 ap4", "at5", "ap5 mw", "3 ap3"]), min_size=1, max_size=2),
       st.lists(st.integers(1, 6), min_size=1, max_size=5),
       st.lists(st.integers(1, 6), min_size=9, max_size=9))
def test_E10_E11_a_group_in_one_line_ends_as_the_same_units_one_a_line(
        groups: list[tuple[Any, ...]], weapons: list[str], hit: list[int],
        save: list[int]) -> None:
    def attack(lines: list[str]) -> Any:
        answers = typed(**{f"firing.{i}": w for i, w in enumerate(weapons, 1)},
                        **{f"target.{i}": line for i, line in enumerate(lines, 1)})
        plan = api.plan_attack("epic", seed=1)
        faces = dict(zip(names, save, strict=False))
        return api.play(plan, _Faces(answers, hit, faces, plan.dice))

    kinds = {"inf": "infantry", "av": "armoured-vehicle", "lv": "light-vehicle"}
    seen: dict[str, int] = {}
    names = []  # each unit's name, in order: numbered by its type (issue 27)
    for n, t, *_ in groups:
        for _ in range(n):
            seen[t] = seen.get(t, 0) + 1
            names.append(f"{kinds[t]}-{seen[t]}")

    grouped = [f"{n} {t} {s} {g} {d} {f}" for n, t, s, g, d, f in groups]
    alone = [f"{t} {s} {g} {d} {f}" for n, t, s, g, d, f in groups for _ in range(n)]
    a, b = attack(grouped), attack(alone)
    for key in ("casualties", "blast_markers", "broken", "hits", "units_left"):
        assert a.outcome_data[key] == b.outcome_data[key], key


# -- rosters: weapon ranges, a line a formation --------------------------------------------------

def roster_answers(firing_line: str, target_line: str, **more: Any) -> dict[str, Any]:
    return {"markers.grey-company-invented": 0, "markers.red-hill-battery-invented": 0,
            "broken.red-hill-battery-invented": False,
            "action": "advance", "situation.grey-company-invented": firing_line,
            "situation.red-hill-battery-invented": target_line, **more}


ROSTER_DECL = {"firing": FIRING, "target": TARGET, "roster": ROSTER}


@pytest.mark.clause("E-2")
def test_E2_a_unit_beyond_its_weapons_range_does_not_fire_it() -> None:
    """Trooper 1 is 35 cm away with a 30 cm rifle; the rocket team 40 cm with a 45 cm
    missile launcher (the roster's ranges)."""
    result, _ = run(roster_answers("35, 25, 40", "15, 20, 25",
                                   **{"fire-type.missile-launcher": "ap",
                                      "to-hit.rifle": [1], "to-hit.missile-launcher": [1]}),
                    ROSTER_DECL)
    assert result.outcome_data["fired"] == ["Trooper 2", "Rocket team"]
    who = next(t for t in result.tables if t.title.id == "epic.table.who_fires")
    assert who.rows[0][4].id == "epic.fire_status.beyond_range"
    assert "epic.step.beyond_weapon_range" in steps(result)


@pytest.mark.clause("E-4")
def test_E4_a_unit_out_of_its_weapons_range_is_not_the_one_suppressed() -> None:
    """One Blast marker: the farthest unit that could fire is suppressed; Trooper 1, at 50 cm
    beyond its rifle's range, could not fire, so Rocket team (40 cm) is suppressed."""
    answers = roster_answers("50, 25, 40", "20", **{"markers.grey-company-invented": 1,
                                                   "to-hit.rifle": [1]})
    result, _ = run(answers, ROSTER_DECL)
    assert result.outcome_data["fired"] == ["Trooper 2"]


@pytest.mark.clause("E-10")
def test_E10_a_target_unit_beyond_the_longest_range_that_fires_cannot_be_hit() -> None:
    answers = roster_answers("25", "15, 20, 60", **{"fire-type.missile-launcher": "at",
                                                    "to-hit.rifle": [6, 6],
                                                    "to-hit.missile-launcher": [6],
                                                    "save.normal.crew-1": [6],
                                                    "save.normal.crew-2": [6]})
    result, _ = run(answers, ROSTER_DECL)
    assert "epic.step.beyond_reach" in steps(result)
    # the AT hit could only go to the scout car, 60 cm away, beyond the 45 cm missile
    assert result.outcome_data["allocation"] == [("ap", "crew-1"), ("ap", "crew-2")]
    assert "epic.step.wasted" in steps(result)


@pytest.mark.clause("E-12")
def test_E12_a_unit_beyond_the_macro_weapons_range_takes_no_macro_hit(tmp_path: Path) -> None:
    roster = tmp_path / "mw.toml"
    roster.write_text('''[[formation]]
name = "Guns"
[[formation.weapons]]
name = "Lance"
at = 3
macro = true
range = 30
[[formation.weapons]]
name = "Cannon"
ap = 4
range = 60
[[formation.units]]
name = "Gun 1"
type = "AV"
armour = 4
weapons = ["Lance", "Cannon"]
[[formation]]
name = "Line"
[[formation.units]]
name = "Post"
type = "INF"
armour = 5
''', encoding="utf-8")
    answers = {"markers.guns": 0, "markers.line": 0, "broken.line": False,
               "action": "advance", "situation.guns": "20", "situation.line": "40",
               "to-hit.lance": [6], "to-hit.cannon": [1]}
    result, _ = run(answers, {"firing": "Guns", "target": "Line", "roster": str(roster)})
    assert "epic.step.beyond_mw_reach" in steps(result)
    assert result.outcome_data["casualties"] == [] and "epic.step.wasted" in steps(result)


def test_a_roster_asks_a_line_a_formation_and_old_per_unit_ids_are_refused() -> None:
    answers = roster_answers("25", "15, 20, 25", **{"fire-type.missile-launcher": "ap",
                                                    "to-hit.rifle": [1, 1],
                                                    "to-hit.missile-launcher": [1]})
    _, asked = run(answers, ROSTER_DECL)
    assert ids(asked)[:6] == ["markers.grey-company-invented",
                              "markers.red-hill-battery-invented",
                              "broken.red-hill-battery-invented", "action",
                              "situation.grey-company-invented",
                              "situation.red-hill-battery-invented"]
    old = {**answers, "shooter.trooper-1.in-range": True}
    del old["situation.grey-company-invented"]
    with pytest.raises(MissingAnswerError) as err:
        run(old, ROSTER_DECL)
    assert "situation.grey-company-invented" in render(err.value.msg)


@pytest.mark.clause("E-1")
def test_E1_attack_with_a_roster_alone_asks_who_fires_and_at_whom() -> None:
    answers = {"firing-name": "Blue Squadron (invented)", "target-name": TARGET,
               "markers.blue-squadron-invented": 0, "markers.red-hill-battery-invented": 0,
               "broken.red-hill-battery-invented": False,
               "action": "advance", "situation.blue-squadron-invented": "40",
               "situation.red-hill-battery-invented": "20, 25, 30",
               "fire-type.tank-gun": "ap", "to-hit.tank-gun": [1, 1]}
    result, asked = run(answers, {"roster": ROSTER})
    first = asked[0]
    assert isinstance(first, ChoiceQuestion) and first.id == "firing-name"
    assert first.values == (FIRING, "Blue Squadron (invented)")  # the armed formations
    second = asked[1]
    assert isinstance(second, ChoiceQuestion)
    assert second.values == (FIRING, TARGET)  # every formation but the firing one
    assert result.outcome_data["fired"] == ["Tank 1", "Tank 2"]


@pytest.mark.clause("E-1")
def test_E1_a_roster_of_one_armed_formation_and_one_other_asks_neither(tmp_path: Path) -> None:
    roster = tmp_path / "two.toml"
    roster.write_text('''[[formation]]
name = "Guns"
[[formation.weapons]]
name = "Cannon"
ap = 4
[[formation.units]]
name = "Gun 1"
type = "AV"
armour = 4
weapons = ["Cannon"]
[[formation]]
name = "Line"
[[formation.units]]
name = "Post"
type = "INF"
armour = 5
''', encoding="utf-8")
    answers = {"markers.guns": 0, "markers.line": 0, "broken.line": False,
               "action": "advance", "situation.guns": "all", "situation.line": "30",
               "to-hit.cannon": [1]}
    _, asked = run(answers, {"roster": str(roster)})
    assert ids(asked)[0] == "markers.guns"


# -- barrages and overwatch at the table ----------------------------------------------------------

@pytest.mark.clause("E-16")
def test_E16_a_typed_barrage_sums_the_points_of_every_unit_that_fires() -> None:
    answers = typed(**{"firing.1": "3 bp2", "target.1": "2 inf 5+ 15",
                       "target.2": "inf 5+ 25 clear", "action": "advance",
                       "other.1.name": "-"})
    result, asked = run(answers)
    assert result.outcome_data["barrage_points"] == 6
    # the unit no template covers is not rolled for (E-15)
    (roll,) = [q for q in asked if q.id.startswith("barrage.")]
    assert isinstance(roll, DiceQuestion) and roll.spec.count == 2


@pytest.mark.clause("E-20")
def test_E20_overwatch_fire_at_the_table_asks_the_trigger_and_ends_the_overwatch() -> None:
    answers = typed(**{"firing.1": "2 ap5", "target.1": "2 inf 6+ 25",
                       "action": "overwatch-fire", "overwatch.trigger": "move",
                       "overwatch.enemy-action": "double", "overwatch.after-move": 2,
                       "to-hit.ap5": [1, 1]})
    result, asked = run(answers)
    assert ids(asked)[-4:-1] == ["overwatch.trigger", "overwatch.enemy-action",
                                 "overwatch.after-move"]
    assert "epic.overwatch.fires" in steps(result) and "epic.overwatch.ended" in steps(result)
    assert result.state_updates["formations"][FIRING]["overwatch"] is False
    # shooting without moving does not trigger it (E-20): no fire, and no further question
    answers = typed(**{"firing.1": "2 ap5", "target.1": "2 inf 6+ 25",
                       "action": "overwatch-fire", "overwatch.trigger": "shoot"})
    result, asked = run(answers)
    assert ids(asked)[-1] == "overwatch.trigger" and result.outcome_data["shot"] is False


@pytest.mark.clause("E-20")
def test_E20_an_action_with_one_move_asks_no_move_number() -> None:
    answers = typed(**{"firing.1": "ap5", "target.1": "inf 6+ 25",
                       "action": "overwatch-fire", "overwatch.trigger": "move",
                       "overwatch.enemy-action": "advance", "to-hit.ap5": [1]})
    _, asked = run(answers)
    assert "overwatch.after-move" not in ids(asked)


# -- what-if choices and the state before the first question --------------------------------------

def test_the_choices_that_change_the_end_are_marked_whatif() -> None:
    answers = roster_answers("25", "woods 15, 20, 25", **{"fire-type.missile-launcher": "ap",
                                                          "cover.ap": True})
    _, asked = run(answers, ROSTER_DECL)
    marked = {q.id for q in asked if isinstance(q, ChoiceQuestion | ConfirmQuestion)
              and q.whatif}
    assert {"fire-type.missile-launcher", "cover.ap"} <= marked
    assert "action" not in marked


@pytest.mark.clause("E-14")
def test_E14_the_game_files_markers_and_broken_formations_are_shown_first() -> None:
    state = {"formations": {TARGET: {"blast_markers": 2, "broken": True,
                                     "destroyed": ["Crew 1"]},
                            "firing-formation": {"blast_markers": 0, "broken": False,
                                                 "destroyed": [], "overwatch": True},
                            "target-formation": {"blast_markers": 1, "broken": False,
                                                 "destroyed": ["unit-2", "unit-3"]}}}
    (table,) = state_view(state)
    assert render(table.title) == "The game file: formations"
    rows = [tuple(render(c) if isinstance(c, Msg) else c for c in r) for r in table.rows]
    assert rows == [(TARGET, 2, "Yes", "Crew 1", "-"),
                    ("Firing formation", 0, "No", "-", "Yes"),
                    ("Target formation", 1, "No", "Unit 2, Unit 3", "-")]
    assert render(table.rows[1][0], "ru") == "Стреляющая формация"
    assert render(table.rows[2][3], "ru") == "Юнит 2, Юнит 3"
    assert state_view({}) == ()


def test_at_the_table_asks_special_rules_saves_and_crossfire() -> None:
    """The whole attack at the table asks the special rules and crossfire."""
    answers = {"attack-kind": "whole", "firing": f"{FIRING}: ap4 mw",
               "target": f"{TARGET}: xf2, inf 4+ inv 10",
               "broken.red-hill-battery-invented": False, "action": "advance",
               "to-hit.ap4-mw": [6], "save.mw.infantry-1.invulnerable": [1]}
    r = api.attack("epic", answers)
    assert r.outcome_data["hits"] == {"mw": 1}
    assert r.outcome_data["casualties"] == ["infantry-1"]
    assert r.outcome_data["markers_added"] == 1 + 1 + 2  # under fire, kill, 2 crossfire
    plan = api.plan_attack("epic", seed=1)
    from referee.frontends.wrappers import ScriptingPort

    port = ScriptingPort(AnswerPort(answers, plan.dice, roll_missing_dice=True))
    api.play(plan, port)
    ids = list(port.answers)
    assert ids.index("firing") < ids.index("target")
    assert not [i for i in ids if i.startswith(("crossfire", "markers."))]  # in the lines
