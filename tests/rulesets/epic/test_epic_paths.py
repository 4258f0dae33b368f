"""Every way into an Epic attack gives the same result (issue 29, part A).

A situation (the firing formation's weapons, the target's units and where they stand, its
Blast markers, whether it is broken for another reason, the crossfire, for a barrage the
other formations under the templates) is entered six ways: typed at the table
(``referee attack epic``), in compact lines by ``referee epic-shoot F T``, from a roster by
``referee epic-shoot F T --roster`` and by ``referee attack epic --roster``, as a declaration
given to the API, and as a script file run by ``referee run``. The dice follow one rule
whatever the question's id (every die to hit shows one face, every save die another), so the
six must end alike. First the four defects the issue found, each pinned on the paths where
it was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import api
from referee.core.port import settle_dice
from referee.core.questions import DiceQuestion, LineQuestion, Question
from referee.render.display import value_from_label

FIRING, TARGET, OTHER = "Grey Company", "Red Company", "Blue Squad"
FKEY, TKEY, OKEY = "grey-company", "red-company", "blue-squad"
TYPES = {"INF": "inf", "LV": "lv", "AV": "av"}


class Faces:
    """Answers by id (``inner``: a script's strict port, else ``answers``), every other
    question at its default, and the dice by a rule that does not depend on their ids:
    every die to hit (and every barrage die) shows ``hit``, the second die of a 7+ roll
    ``then``, every save die ``save``."""

    def __init__(self, dice: Any, answers: dict[str, Any] | None = None, inner: Any = None,
                 hit: int = 4, then: int = 4, save: int = 4) -> None:
        self.dice, self.answers, self.inner = dice, answers or {}, inner
        self.hit, self.then, self.save = hit, then, save
        self.asked: list[str] = []

    def ask(self, q: Question) -> Any:
        self.asked.append(q.id)
        if isinstance(q, DiceQuestion):
            rolls_to_hit = q.id.startswith(("to-hit", "barrage."))
            face = (self.then if q.id.endswith(".then") else self.hit) if rolls_to_hit \
                else self.save
            return settle_dice(q, q.accept([face] * q.spec.count), self.dice)
        if self.inner is not None:
            return self.inner.ask(q)
        if q.id in self.answers:
            return q.accept(value_from_label(q, self.answers[q.id]))
        if isinstance(q, LineQuestion):
            return q.accept(q.default or "")
        return q.accept(q.default)

    def finish(self) -> None:
        if self.inner is not None:
            self.inner.finish()


# -- a situation ----------------------------------------------------------------------------

class Situation:
    """Groups of alike units, as the strategies below draw them."""

    def __init__(self, weapons: list[tuple[int, dict[str, Any]]],
                 targets: list[dict[str, Any]], markers: int, broken: bool, crossfire: int,
                 others: list[dict[str, Any]] | None = None, other_markers: int = 0,
                 other_broken: bool = False, other_crossfire: int = 0) -> None:
        self.weapons = weapons
        # a group is beyond the macro-weapons' reach only when some fire (not a barrage),
        # and misses the templates only under a barrage
        macro = not self.barrage and any(p.get("macro") for _, p in weapons)
        self.targets = [dict(g, in_mw=g["in_mw"] or not macro,
                             under=g["under"] or not self.barrage) for g in targets]
        self.others = [dict(g, in_mw=True) for g in others or []]
        self.markers, self.broken, self.crossfire = markers, broken, crossfire
        self.other_markers, self.other_broken = other_markers, other_broken
        self.other_crossfire = other_crossfire

    @property
    def barrage(self) -> bool:
        return "barrage" in self.weapons[0][1]

    @property
    def macro(self) -> bool:
        return any(p.get("macro") for _, p in self.weapons)

    def profiles(self) -> list[dict[str, Any]]:
        return list({_profile_text(p): p for _, p in self.weapons}.values())

    # the answers every path shares: the formations' state, the action
    def state_answers(self) -> dict[str, Any]:
        out = {f"markers.{FKEY}": 0, f"markers.{TKEY}": self.markers,
               f"broken.{TKEY}": self.broken, "action": "advance",
               f"markers.{OKEY}": self.other_markers, f"broken.{OKEY}": self.other_broken,
               f"crossfire.{OKEY}": self.other_crossfire}
        out["crossfire." + TKEY if self.barrage else "crossfire"] = self.crossfire
        return out


def _profile_text(p: dict[str, Any]) -> str:
    parts = [f"{k}{p[k]}" for k in ("ap", "at") if k in p]
    if "barrage" in p:
        parts = [f"bp{p['barrage']}"]
    return "/".join(parts) + (" mw" if p.get("macro") else "")


def _where(g: dict[str, Any], barrage: bool) -> str:
    """Where a group stands, as a line says it: ``out``, or the ground, the distance and
    ``clear`` or ``nomw``."""
    if not g["in_range"]:
        return "out"
    terrain = "woods " if g["woods"] else ""
    flag = " clear" if barrage and not g["under"] else ""
    flag += " nomw" if not barrage and not g["in_mw"] else ""
    return f"{terrain}{g['distance']}{flag}"


def _line(g: dict[str, Any], barrage: bool) -> str:
    """A group of target units as a compact line."""
    save = f"{g['armour']}+" if g["armour"] else "-"
    return f"{g['count']} {TYPES[g['type']]} {save} {_where(g, barrage)}"


def _place(g: dict[str, Any], barrage: bool) -> str:
    """The same group as a roster's situation line sees it: where it stands."""
    return f"{g['count']} {_where(g, barrage)}"


def _units(groups: list[dict[str, Any]], barrage: bool, prefix: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, g in enumerate(groups):
        for _ in range(g["count"]):
            unit: dict[str, Any] = {
                "name": f"{prefix}{len(out) + 1}", "type": g["type"], "group": f"g{i}",
                "distance": float(g["distance"]) if g["in_range"] else 0.0,
                "in_range": g["in_range"], "terrain": "woods" if g["woods"] else "open"}
            if g["armour"]:
                unit["armour"] = g["armour"]
            if barrage:
                unit["under_template"] = g["in_range"] and g["under"]
            else:
                unit["in_mw_range"] = g["in_range"] and g["in_mw"]
            out.append(unit)
    return out


def declaration(s: Situation) -> dict[str, Any]:
    names = {_profile_text(p): f"gun-{i}" for i, p in enumerate(s.profiles(), 1)}
    weapons = [{"name": names[_profile_text(p)], **p} for p in s.profiles()]
    firing_units = [{"name": f"F{n}", "weapons": [names[_profile_text(p)]] * times,
                     "distance": 20.0, "in_range": True}
                    for n, (times, p) in enumerate(s.weapons, 1)]
    d: dict[str, Any] = {"firing": FIRING, "target": TARGET, "weapons": weapons,
                         "firing_units": firing_units, "firing_blast_markers": 0,
                         "target_units": _units(s.targets, s.barrage, "T"),
                         "target_blast_markers": s.markers, "target_broken": s.broken,
                         "crossfire": s.crossfire}
    if s.others:
        d["also_under_templates"] = [{"name": OTHER, "blast_markers": s.other_markers,
                                      "broken": s.other_broken,
                                      "crossfire": s.other_crossfire,
                                      "units": _units(s.others, True, "B")}]
    return d


def typed_answers(s: Situation, named: bool = False) -> dict[str, Any]:
    """The compact lines (issue 27): the firing formation's line, a group a unit (its
    weapon), and the target's, a group a group, with its Blast markers and crossfire;
    ``named``: each line names its formation first (``referee attack epic``; ``epic-shoot``
    names them on the command line)."""
    out = s.state_answers()
    firing = [f"1 {times}x {_profile_text(p)}" for times, p in s.weapons]
    target = [f"bm{s.markers}", f"xf{s.crossfire}", *(_line(g, s.barrage) for g in s.targets)]
    out["firing"] = (f"{FIRING}: " if named else "") + ", ".join(firing)
    out["target"] = (f"{TARGET}: " if named else "") + ", ".join(target)
    if s.others:
        out["other.1.name"] = OTHER
        out.update({f"other.1.{i}": _line(g, True) for i, g in enumerate(s.others, 1)})
        out[f"other.1.{len(s.others) + 1}"] = "-"
    out["other.2.name" if s.others else "other.1.name"] = "-"
    return out


def roster_file(s: Situation, folder: Path) -> Path:
    d = declaration(s)
    lines = [f'[[formation]]\nname = "{FIRING}"']
    for w in d["weapons"]:
        lines.append("[[formation.weapons]]\n" + _toml_table(w))
    for u in d["firing_units"]:
        weapons = ", ".join(f'"{n}"' for n in u["weapons"])
        lines.append(f'[[formation.units]]\nname = "{u["name"]}"\ntype = "INF"\narmour = 5\n'
                     f"weapons = [{weapons}]")
    for name, units in ((TARGET, d["target_units"]),
                        *(((OTHER, d["also_under_templates"][0]["units"]),) if s.others
                          else ())):
        lines.append(f'[[formation]]\nname = "{name}"')
        for u in units:
            lines.append("[[formation.units]]\n" + _toml_table(
                {k: u[k] for k in ("name", "type", "armour") if k in u}))
    path = folder / "roster.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def roster_answers(s: Situation) -> dict[str, Any]:
    out = s.state_answers()
    out[f"situation.{FKEY}"] = "all"
    # the crossfire is said with where the units stand (issue 27)
    out[f"situation.{TKEY}"] = ", ".join([*(_place(g, s.barrage) for g in s.targets),
                                          f"xf{s.crossfire}"])
    if s.others:
        out["others-under-templates"] = [OKEY]
        out[f"situation.{OKEY}"] = ", ".join([*(_place(g, True) for g in s.others),
                                              f"xf{s.other_crossfire}"])
    out.update({"firing-name": FIRING, "target-name": TARGET})
    return out


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return repr(v)


def _toml_table(d: dict[str, Any]) -> str:
    return "\n".join(f"{k} = {_toml_value(v)}" for k, v in d.items()
                     if not isinstance(v, list) or not v or not isinstance(v[0], dict))


def script_file(s: Situation, folder: Path) -> Path:
    d = declaration(s)
    out = ['ruleset = "epic"', "use_defaults = true", "", "[declaration]",
           _toml_table({k: v for k, v in d.items()
                        if k not in ("weapons", "firing_units", "target_units",
                                     "also_under_templates")})]
    for key in ("weapons", "firing_units", "target_units"):
        for item in d[key]:
            out += [f"[[declaration.{key}]]", _toml_table(item)]
    for other in d.get("also_under_templates", []):
        out += ["[[declaration.also_under_templates]]", _toml_table(other)]
        for unit in other["units"]:
            out += ["[[declaration.also_under_templates.units]]", _toml_table(unit)]
    out += ["", "[answers]", 'action = "advance"']
    path = folder / "attack.toml"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


# -- the six paths --------------------------------------------------------------------------

def by_path(s: Situation, folder: Path, faces: dict[str, int]) -> dict[str, Any]:
    """Each path's result, by its name."""
    def play(decl: dict[str, Any] | None, answers: dict[str, Any]) -> Any:
        plan = api.plan_attack("epic", seed=1, declaration=decl)
        return api.play(plan, Faces(plan.dice, answers, **faces))

    roster = str(roster_file(s, folder))
    plan, port = api.plan_script(script_file(s, folder))
    out = {
        "typed": play(None, {"attack-kind": "whole", **typed_answers(s, named=True)}),
        "epic-shoot": play({"firing": FIRING, "target": TARGET, "by_hand": True},
                           typed_answers(s)),
        "epic-shoot --roster": play({"firing": FIRING, "target": TARGET, "roster": roster},
                                    roster_answers(s)),
        "attack --roster": play({"roster": roster}, roster_answers(s)),
        "declaration": play(declaration(s), {"action": "advance"}),
        "script": api.play(plan, Faces(plan.dice, None, port, **faces)),
    }
    return out


def ends(result: Any, barrage: bool) -> Any:
    """What the result says happened, names of units aside (each path names them its way)."""
    data = result.outcome_data
    if barrage:
        return {name: (len(f["casualties"]), f["markers_added"], f["blast_markers"],
                       f["broken"], f["units_left"]) for name, f in data["formations"].items()}
    if not data.get("shot"):
        return ("no shot",)
    return (len(data["casualties"]), data["markers_added"], data["blast_markers"],
            data["broken"], data["extra_hits"], data["units_left"], data["hits"])


GROUP = st.fixed_dictionaries({
    "count": st.integers(1, 3), "type": st.sampled_from(["INF", "LV", "AV"]),
    "armour": st.sampled_from([None, 4, 5, 6]), "woods": st.booleans(),
    "distance": st.sampled_from([10, 20, 30]), "in_range": st.sampled_from([True, True, False]),
    "in_mw": st.booleans(), "under": st.sampled_from([True, True, False])})
SHOOTING = st.one_of(
    st.fixed_dictionaries({"ap": st.integers(3, 6)}),
    st.fixed_dictionaries({"at": st.integers(3, 6)}),
    st.fixed_dictionaries({"ap": st.integers(3, 5), "at": st.integers(4, 6)}),
    st.fixed_dictionaries({"at": st.integers(3, 5), "macro": st.just(True)}))
BARRAGE = st.fixed_dictionaries({"barrage": st.integers(1, 4)})
FACES = st.fixed_dictionaries({"hit": st.sampled_from([1, 4, 5, 6, 6]),
                               "then": st.integers(1, 6), "save": st.integers(1, 6)})
MARKERS = st.sampled_from([0, 0, 1, 2, 4])
BROKEN = st.sampled_from([False, False, False, True])  # mostly not: markers then count


@st.composite
def situations(draw: st.DrawFn) -> Situation:
    barrage = draw(st.booleans())
    kind = BARRAGE if barrage else SHOOTING
    weapons = draw(st.lists(st.tuples(st.integers(1, 2), kind), min_size=1, max_size=3))
    targets = draw(st.lists(GROUP, min_size=1, max_size=3))
    others = draw(st.lists(GROUP, min_size=1, max_size=2)) if barrage and draw(
        st.booleans()) else []
    return Situation(weapons, targets, draw(MARKERS), draw(BROKEN), draw(st.integers(0, 1)),
                     others, draw(MARKERS), draw(BROKEN), draw(st.integers(0, 1)))


@pytest.mark.clause("E-14")
@pytest.mark.clause("E-13")
@pytest.mark.clause("E-12")
@pytest.mark.clause("E-19")
@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(situations(), FACES)
def test_every_path_into_an_attack_gives_the_same_result(tmp_path: Path, s: Situation,
                                                         faces: dict[str, int]) -> None:
    results = by_path(s, tmp_path, faces)
    first = ends(results["declaration"], s.barrage)
    for path, result in results.items():
        assert ends(result, s.barrage) == first, path


# -- the defects, each pinned ---------------------------------------------------------------

def _tanks(markers: int, **extra: Any) -> Situation:
    return Situation([(1, {"ap": 2})],
                     [{"count": 4, "type": "INF", "armour": 5, "woods": False, "distance": 10,
                       "in_range": True, "in_mw": True, "under": True}],
                     markers, False, 0, **extra)


@pytest.mark.clause("E-14")
@pytest.mark.parametrize("path", ["typed", "epic-shoot", "epic-shoot --roster",
                                  "attack --roster", "declaration", "script"])
def test_E14_four_markers_on_four_units_is_broken_on_every_path(tmp_path: Path,
                                                                path: str) -> None:
    """The issue's case: 4 Blast markers on 4 units is broken before the attack, so the
    under-fire marker and the one for the unit killed become two hits with no save: three
    units destroyed, not one (and no pile of 6 markers on 3 units)."""
    s = _tanks(4)
    result = by_path(s, tmp_path, {"hit": 6, "then": 6, "save": 1})[path]
    data = result.outcome_data
    assert data["hits"] == {"ap": 1} and len(data["casualties"]) == 1 + 2
    assert data["extra_hits"] == 2 and data["blast_markers"] == 4 and data["broken"]
    assert any(st.text.id == "epic.step.broken_by_count" for st in result.steps)


@pytest.mark.clause("E-14")
def test_E14_broken_is_asked_only_when_the_count_says_unbroken(tmp_path: Path) -> None:
    plan = api.plan_attack("epic", seed=1,
                           declaration={"firing": FIRING, "target": TARGET, "by_hand": True})
    port = Faces(plan.dice, typed_answers(_tanks(4)), hit=6, save=1)
    api.play(plan, port)
    assert f"broken.{TKEY}" not in port.asked  # 4 on 4: the count says it
    plan = api.plan_attack("epic", seed=1,
                           declaration={"firing": FIRING, "target": TARGET, "by_hand": True})
    s = _tanks(1)
    s.broken = True  # it lost an assault
    port = Faces(plan.dice, typed_answers(s), hit=6, save=1)
    result = api.play(plan, port)
    assert f"broken.{TKEY}" in port.asked
    assert result.outcome_data["extra_hits"] == 2 and len(result.outcome_data["casualties"]) == 3


@pytest.mark.clause("E-14")
def test_E14_the_answer_is_kept_in_the_game_file_and_not_asked_again(tmp_path: Path) -> None:
    game = tmp_path / "game.db"
    s = _tanks(1)
    s.broken = True
    decl = {"firing": FIRING, "target": TARGET, "by_hand": True}
    plan = api.plan_attack("epic", seed=1, declaration=decl, game=game)
    api.play(plan, Faces(plan.dice, typed_answers(s), hit=1, save=6), game=game)
    plan = api.plan_attack("epic", seed=1, declaration=decl, game=game)
    # both formations are the game's now (issue 27): only where the target's units stand
    port = Faces(plan.dice, {**typed_answers(s), f"situation.{TKEY}": "15"}, hit=6, save=6)
    result = api.play(plan, port, game=game)
    assert f"broken.{TKEY}" not in port.asked and f"markers.{TKEY}" not in port.asked
    assert result.outcome_data["extra_hits"] == 1  # broken still: under fire is a hit


@pytest.mark.clause("E-13")
@pytest.mark.parametrize("path", ["epic-shoot --roster", "attack --roster"])
def test_E13_crossfire_is_asked_on_the_roster_paths(tmp_path: Path, path: str) -> None:
    """One crossfiring formation: -1 to the saves (5+ becomes 6+: a 5 fails) and one more
    Blast marker for the first unit destroyed."""
    s = _tanks(0)
    s.crossfire = 1
    result = by_path(s, tmp_path, {"hit": 6, "then": 6, "save": 5})[path]
    assert len(result.outcome_data["casualties"]) == 1
    assert result.outcome_data["markers_added"] == 1 + 1 + 1


@pytest.mark.clause("E-19")
@pytest.mark.clause("E-15")
def test_E19_another_formation_under_the_templates_is_entered_in_compact_lines(
        tmp_path: Path) -> None:
    group = {"count": 2, "type": "INF", "armour": 5, "woods": False, "distance": 15,
             "in_range": True, "in_mw": True, "under": True}
    s = Situation([(2, {"barrage": 3})], [group], 0, False, 0, [dict(group, count=3)], 1)
    result = by_path(s, tmp_path, {"hit": 6, "then": 6, "save": 1})["epic-shoot"]
    forms = result.outcome_data["formations"]
    assert set(forms) == {TARGET, OTHER}
    # 6 barrage points: one extra template and one extra marker (E-17, E-19)
    assert forms[OTHER]["casualties"] == ["infantry-1", "infantry-2", "infantry-3"]
    assert forms[OTHER]["markers_added"] == 1 + 1 + 3


@pytest.mark.clause("E-12")
@pytest.mark.parametrize("path", ["epic-shoot", "epic-shoot --roster"])
def test_E12_units_beyond_the_macro_weapons_reach_are_marked_in_the_lines(
        tmp_path: Path, path: str) -> None:
    """Two macro-weapon hits, the nearest unit beyond their reach (``nomw``): both go to the
    unit they can reach, which dies; the near one lives."""
    near = {"count": 1, "type": "INF", "armour": 4, "woods": False, "distance": 10,
            "in_range": True, "in_mw": False, "under": True}
    s = Situation([(2, {"at": 3, "macro": True})], [near, dict(near, distance=30, in_mw=True)],
                  0, False, 0)
    result = by_path(s, tmp_path, {"hit": 6, "then": 6, "save": 6})[path]
    assert result.outcome_data["allocation"] == [("mw", "infantry-2" if path == "epic-shoot"
                                                  else "t2")] * 2
