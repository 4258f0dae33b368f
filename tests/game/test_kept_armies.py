"""Armies kept in the game file (issue 27, part 1, what is kept): every formation, unit, piece
and team an attack of the game names is kept by name with its side, profile and state, in its
ruleset's state (so that undo, the log's chain and verify cover it); ``referee game roster``
shows them by side, writes them as a roster the other commands read and brings one in. Units
invented."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support import ROOT
from tests.support.game import invoke, new_game

ROSTERS = ROOT / "transcripts" / "rosters"
# the side of Grey Company is asked once the formations' lines are typed, before any die
EPIC_TYPED = ["whole", "Grey Company: 4 ap4", "Red Company: 2 inf 6+ woods 15, 2 av 4+ 25",
              "Grey", "no", "advance", "5 5 5 5", "1 1, 1 1"]


def _roster(game: Path, *extra: str) -> dict[str, Any]:
    code, out, err = invoke(["game", "roster", str(game), "--json", *extra])
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def _units(doc: dict[str, Any], ruleset: str) -> dict[str, tuple[str | None, str, str | None]]:
    return {f"{g['name_text']}/{u['name_text']}": (g["side"], u["profile_text"],
                                                    u["state_text"])
            for g in doc["groups"] if g["ruleset"] == ruleset for u in g["units"]}


def test_an_epic_attack_keeps_both_formations_with_their_sides(game: Path) -> None:
    code, _out, err = invoke(["attack", "epic", "--game", str(game), "--no-odds"],
                             answers=EPIC_TYPED)
    assert code == 0, err
    units = _units(_roster(game), "epic-armageddon")
    assert units["Grey Company/AP4+"] == ("Grey", "4 shots AP4+", None)
    # the target's side follows from the firing formation's: never asked; the units typed
    # without a name are named by their type (issue 27)
    assert units["Red Company/Infantry 1"] == ("Red", "INF 6+", "destroyed")
    # AP hits cannot reach an armoured vehicle
    assert units["Red Company/Armoured vehicle 1"] == ("Red", "AV 4+", None)
    group = next(g for g in _roster(game)["groups"] if g["name_text"] == "Red Company")
    assert [s["text"] for s in group["state"]] == ["3 Blast markers", "broken"]


def test_a_later_epic_attack_offers_the_kept_formations_by_name(game: Path) -> None:
    """Issue 27: the second attack of the same formations is one choice by name; their
    weapons, units, Blast markers and sides are the game's, only what changed is asked."""
    assert invoke(["attack", "epic", "--game", str(game), "--no-odds"],
                  answers=EPIC_TYPED)[0] == 0
    code, out, err = invoke(["attack", "epic", "--game", str(game), "--no-odds"],
                            answers=["kept:Grey Company:Red Company", "advance", "20",
                                     "5 5 5 5"])
    assert code == 0, err
    asked = [line[2:].split("?")[0] for line in out.splitlines() if line.startswith("? ")]
    assert asked == ["What is to be resolved",
                     "What action is Grey Company taking",
                     "Red Company: where do its units stand (Armoured vehicle 1, Armoured "
                     "vehicle 2, in this order)",
                     "Roll to hit for AP4+: 4 dice, 4+ hits  5 5 5 5"]
    assert "Grey Company fires at Red Company (both as the game keeps them)" in out
    # the weapons, the units, the side, the Blast markers: the game's; the destroyed units
    # (Infantry 1, Infantry 2) are not asked again, only where the survivors stand (the
    # crossfire said in the same line: none)


def test_an_epic_roster_written_by_the_game_is_a_roster(game: Path, tmp_path: Path) -> None:
    from referee.rulesets.epic.roster import load_roster

    code, _out, err = invoke(["game", "roster", str(game), "--import",
                              str(ROOT / "benchmarks" / "questions" / "epic-roster.toml")])
    assert code == 0, err
    out = tmp_path / "epic.toml"
    assert invoke(["game", "roster", str(game), "--export", str(out)])[0] == 0
    roster = load_roster(str(out))
    assert [f.name for f in roster.formation] == ["Grey Company (invented)",
                                                  "Red Hill Company (invented)"]
    assert [u.name for u in roster.formation[1].units][:2] == ["Rifleman 1", "Rifleman 2"]


def test_an_epic_assault_roster_brought_in_and_written_back_is_the_same_roster(
        game: Path, tmp_path: Path) -> None:
    """Each unit's close combat and firefight values, its abilities and the formation's
    initiative come back out (a roster with them once made the game file unreadable)."""
    from referee.rulesets.epic.roster import load_roster

    source = ROSTERS / "epic-assault.toml"
    assert invoke(["game", "roster", str(game), "--import", str(source)])[0] == 0
    out = tmp_path / "epic.toml"
    code, _out, err = invoke(["game", "roster", str(game), "--export", str(out)])
    assert code == 0, err
    again, before = load_roster(str(out)), load_roster(str(source))
    by_name = {g.name: g for g in before.formation}
    assert sorted(by_name) == sorted(f.name for f in again.formation)
    for f in again.formation:
        g = by_name[f.name]
        assert (f.side, f.initiative) == (g.side, g.initiative)
        assert [u.model_dump(exclude={"weapons"}) for u in f.units] == \
            [u.model_dump(exclude={"weapons"}) for u in g.units]


def test_combat_commander_keeps_named_pieces_with_their_state(game: Path,
                                                              tmp_path: Path) -> None:
    from referee.rulesets.cc.roster import load_roster

    code, _out, err = invoke(["run", str(ROOT / "transcripts" / "scripts" /
                                         "cc-moving-tie.toml"), "--game", str(game)])
    assert code == 0, err
    units = _units(_roster(game), "combat-commander")
    assert units["hex H3/Moving US squad (invented)"][1:] == ("unit, morale 6", "broken")
    assert units["hex G5/Rifle squad G5"][1:] == ("unit, FP 5, range 5", None)
    out = tmp_path / "cc.toml"
    assert invoke(["game", "roster", str(game), "--export", str(out), "--ruleset",
                   "cc"])[0] == 0
    text = out.read_text(encoding="utf-8")
    # a broken unit's broken side and a piece's Morale are not known: named, not invented
    assert "# Moving US squad (invented): not written (broken" in text
    assert "# Rifle squad G5: not written (its Morale or hex is not known yet" in text
    assert [u.name for u in load_roster(str(out)).units] == ["Dug-in US squad (invented)"]


def test_flames_of_war_a_roster_brought_in_is_an_entry_undone_like_an_attack(
        game: Path, tmp_path: Path) -> None:
    doc = _roster(game, "--import", str(ROSTERS / "fow-orchard.toml"))
    assert doc["imported"] == 1
    units = _units(doc, "flames-of-war")
    assert units["Red Armour (invented)/Red light tank"] == ("Red", "Tank, Top 1, RoF 2",
                                                             None)
    out = tmp_path / "fow.toml"
    assert invoke(["game", "roster", str(game), "--export", str(out)])[0] == 0
    again = tmp_path / "again.sqlite"
    new_game(again)
    assert _units(_roster(again, "--import", str(out)), "flames-of-war") == units
    log = json.loads(invoke(["game", "log", str(game), "--json"])[1])
    assert [e["command"] for e in log["entries"]] == ["game-roster"]
    assert invoke(["game", "undo", str(game)])[0] == 0
    assert _roster(game)["groups"] == []


@pytest.mark.clause("W-8")
def test_world_at_war_keeps_each_hexs_units(game: Path, tmp_path: Path) -> None:
    from referee.rulesets.waw.roster import load_roster

    doc = _roster(game, "--import", str(ROSTERS / "waw-ridge.toml"))
    units = _units(doc, "world-at-war")
    assert units["hex 0712/Alpha Platoon"] == ("Red", "infantry", None)
    assert units["hex 0712/Bravo Platoon"][2] == "weakened"
    out = tmp_path / "waw.toml"
    assert invoke(["game", "roster", str(game), "--export", str(out)])[0] == 0
    assert {u.id for u in load_roster(str(out)).units} == {
        u.id for u in load_roster(str(ROSTERS / "waw-ridge.toml")).units}
    # W-8: each infantry unit's ride comes in and goes out with it (issue 27): a chemical
    # strike on the hex as the game keeps it does not ask it
    from referee.game import open_game
    from referee.rulesets.waw.kept import rides

    with open_game(game) as tx:
        state = tx.state("world-at-war")
    assert rides(state, "0713") == {"riders": "carrier"}
    assert rides(state, "0712") == {"alpha": None, "bravo": None}  # a roster's: on foot
    assert {u.id: u.mounted_in for u in load_roster(str(out)).units}["riders"] == "carrier"


def test_lock_n_load_a_roster_brought_in_starts_the_next_phase(game: Path,
                                                               tmp_path: Path) -> None:
    from referee.rulesets.lnlt.roster import read_roster

    doc = _roster(game, "--import", str(ROSTERS / "lnlt-two-hexes.toml"))
    assert _units(doc, "lnl-tactical")["hex C4/Able squad"][0] == "Grey"
    code, out, err = invoke(["phase", "lnlt", "--game", str(game), "--impulses", "1",
                             "--no-odds"], answers=["pass"])
    assert code == 0, err
    assert "units, and where they stand" not in out  # the kept army, not typed again
    written = tmp_path / "lnlt.toml"
    assert invoke(["game", "roster", str(game), "--export", str(written)])[0] == 0
    assert [u.id for u in read_roster(str(written)).units] == ["able", "pawn"]


def test_the_ruleset_to_write_is_asked_for_when_the_game_keeps_several(game: Path) -> None:
    _roster(game, "--import", str(ROSTERS / "fow-orchard.toml"))
    _roster(game, "--import", str(ROSTERS / "waw-ridge.toml"))
    code, _out, err = invoke(["game", "roster", str(game), "--export", "/tmp/never.toml"])
    assert code == 2 and "say which to write with --ruleset" in err


def test_an_army_edited_in_the_file_outside_the_referee_is_refused(game: Path) -> None:
    _roster(game, "--import", str(ROSTERS / "fow-orchard.toml"))
    conn = sqlite3.connect(game)
    (value,) = conn.execute("SELECT value FROM state WHERE key = 'teams'").fetchone()
    teams = json.loads(value)
    teams[0]["status"] = "destroyed" if teams[0].get("status") != "destroyed" else "active"
    conn.execute("UPDATE state SET value = ? WHERE key = 'teams'", (json.dumps(teams),))
    conn.commit()
    conn.close()
    code, _out, err = invoke(["game", "roster", str(game)])
    assert code == 5 and "state.flames-of-war" in err


def test_verify_replays_a_roster_brought_in(game: Path) -> None:
    _roster(game, "--import", str(ROSTERS / "lnlt-two-hexes.toml"))
    assert invoke(["game", "reveal", str(game)])[0] == 0
    code, out, err = invoke(["game", "verify", str(game)])
    assert code == 0 and "The log holds together (1 entry)" in out, err


def test_a_bad_roster_brought_in_names_its_file_and_writes_nothing(game: Path,
                                                                   tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[platoon]]\nname = "P"\nside = "Grey"\n[[platoon.teams]]\nid = "x"\n'
                   'type = "dragon"\n', encoding="utf-8")
    code, _out, err = invoke(["game", "roster", str(game), "--import", str(bad)])
    assert code == 3 and "bad.toml" in err
    assert _roster(game)["groups"] == []


@pytest.mark.parametrize("lang", ["ru"])
def test_game_roster_in_russian(game: Path, lang: str) -> None:
    _roster(game, "--import", str(ROSTERS / "fow-orchard.toml"))
    done = subprocess.run([sys.executable, "-m", "referee", "--lang", lang, "game", "roster",
                           str(game)], capture_output=True, text=True, encoding="utf-8",
                          env={**os.environ, "NO_COLOR": "1"}, check=False)
    assert done.returncode == 0, done.stderr
    assert "Армии, которые хранит партия" in done.stdout and "верх 1" in done.stdout


def test_a_name_that_looks_like_a_message_id_is_shown_as_typed(game: Path) -> None:
    """A side said for a name the players typed is shown as typed, even one spelled like a
    message of the referee's (it used to be rendered as that message, and one with
    placeholders broke `game log`); a nation the referee named is shown in words."""
    for said in ("game.log.reveal=Grey", "cc.nation.germany=Red"):
        code, _out, err = invoke(["game", "roster", str(game), "--side", said])
        assert code == 0, err
    code, out, err = invoke(["game", "log", str(game)])
    assert code == 0, err
    assert "game.log.reveal is on Grey" in out and "German is on Red" in out
