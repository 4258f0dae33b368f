"""Script files: loading, errors that name file, line and field, and writing them back."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.catalog import render
from referee.core.errors import ScriptError
from referee.files import locate
from referee.script import Script, dump_script, load_script


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(text, encoding="utf-8")
    return path


def error(tmp_path: Path, text: str) -> str:
    with pytest.raises(ScriptError) as err:
        load_script(write(tmp_path, text))
    return render(err.value.msg)


def test_a_script_loads_with_its_parts(tmp_path: Path) -> None:
    s = load_script(write(tmp_path, 'ruleset = "epic"\nseed = 4\n[answers]\naction = "double"\n'))
    assert (s.ruleset, s.seed, dict(s.answers), s.declaration) == \
        ("epic", 4, {"action": "double"}, None)
    assert not s.roll_missing_dice and not s.use_defaults  # strict unless the script says


def test_errors_name_file_line_and_what_was_expected(tmp_path: Path) -> None:
    name = str(tmp_path / "s.toml")
    assert error(tmp_path, 'ruleset = "epic"\nseed = "four"\n') == \
        f"{name}, line 2 (seed): expected 'seed' to be a whole number"
    assert error(tmp_path, 'ruleset = "epic"\nanswer = {}\n').startswith(
        f"{name}, line 2 (answer): unknown key 'answer'")
    assert error(tmp_path, "seed = 1\n") == \
        f"{name}, ruleset: expected a 'ruleset' key naming the ruleset (see 'referee rulesets')"
    assert error(tmp_path, 'ruleset = "epic"\n[answers\n').startswith(f"{name}, line 2, column")
    with pytest.raises(ScriptError) as missing:
        load_script(tmp_path / "none.toml")
    assert render(missing.value.msg) == f"{tmp_path / 'none.toml'}: expected an existing file"


def test_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_bytes(b'ruleset = "\xff"\n')
    with pytest.raises(ScriptError):
        load_script(path)


def test_locate_finds_fields_in_arrays_of_tables() -> None:
    text = ('ruleset = "epic"\n\n[declaration]\nfiring = "A"\n\n[[declaration.weapons]]\n'
            'name = "x"\nshots = 1\n\n[[declaration.weapons]]\nname = "y"\nshots = 0\n\n'
            '[answers]\n"to-hit.y" = [1]\n')
    assert locate(text, ["declaration", "weapons", 1, "shots"]) == 12
    assert locate(text, ["declaration", "weapons", 0, "name"]) == 7
    assert locate(text, ["declaration", "firing"]) == 4
    assert locate(text, ["answers", "to-hit.y"]) == 15
    assert locate(text, ["ruleset"]) == 1
    assert locate(text, ["declaration", "weapons", 1, "ap"]) == 10  # missing: its table
    assert locate(text, ["declaration"]) == 3  # a whole table


def test_locate_finds_fields_in_nested_arrays_of_tables() -> None:
    text = ('[[formation]]\nname = "A"\n[[formation.units]]\nname = "Tank"\n'
            '[[formation]]\nname = "B"\n[[formation.units]]\nname = "Tank"\n'
            '[[formation.units]]\nname = "Tank"\n[[formation.weapons]]\nname = "Gun"\n')
    assert locate(text, ["formation", 1, "units", 1, "name"]) == 10
    assert locate(text, ["formation", 0, "units", 0, "name"]) == 4
    assert locate(text, ["formation", 1, "weapons", 0, "name"]) == 12
    assert locate(text, ["formation", 1, "name"]) == 6
    assert locate(text, ["formation", 2, "name"]) is None


scalars = st.one_of(st.booleans(), st.integers(-10**6, 10**6),
                    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12))
answers = st.dictionaries(st.text(alphabet="abc.-_ 1", min_size=1, max_size=10),
                          st.one_of(scalars, st.lists(st.integers(1, 6), max_size=5),
                                    st.fixed_dictionaries({"rolled": st.lists(
                                        st.integers(1, 6), max_size=4)})), max_size=6)


@given(answers, st.one_of(st.none(), st.integers(0, 10**6)), st.booleans())
def test_dump_script_round_trips_through_toml(ans: dict, seed: int | None, roll: bool) -> None:
    decl = {"firing": "A \"quoted\" name", "weapons": [{"name": "x", "shots": 2, "ap": 5}]}
    script = Script(path="p", ruleset="epic", seed=seed, declaration=decl, answers=ans,
                    options={"allocation-by": "defender"}, roll_missing_dice=roll)
    back = tomllib.loads(dump_script(script, "a comment\nover two lines"))
    assert back["answers"] == ans
    assert back["declaration"] == decl
    assert back.get("seed") == seed
    assert back.get("roll_missing_dice", False) == roll
    assert back["options"] == {"allocation-by": "defender"}
