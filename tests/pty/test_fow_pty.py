"""Flames of War allocation driven through a real pseudo-terminal (pexpect): the defender
types a complete allocation that breaks F-3, is told why and asked again; then chooses hit by
hit with the arrow keys among the legal teams only (F-1)."""

from __future__ import annotations

import sys
import tomllib

import pytest

from tests.support.pty import DOWN, ENTER, Session, choose

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(sys.platform == "win32", reason="pexpect.spawn needs a POSIX pty"),
]


DECLARATION = "transcripts/scripts/fow-example-1.toml"
MODES = ["accept the referee's proposal", "choose hit by hit", "type a complete allocation"]
Q_MODE = "Defender: accept the referee's allocation of 3 hits shown above?"
Q_TEAMS = "Type the team for each of the 3 hits"
Q_RESULTS = "Every hit is allocated. Results?"
STEPS = ["the whole assault (defensive fire, hits, saves, counterattacks)",
         "only the allocation of hits already rolled"]


@pytest.mark.clause("F-1")
def test_F1_complete_allocation_refused_with_its_clause_then_accepted(spawn) -> None:
    s = Session(spawn("attack", "fow", "--declaration", DECLARATION, "--seed", "3",
                      "--working"))
    choose(s, Q_MODE, MODES, MODES[0], "type a complete allocation")
    s.expect(Q_TEAMS)
    s.child.sendline("a a b")
    s.expect("breaks F-3")
    s.expect(Q_TEAMS)  # asked again; nothing resolved yet
    assert "Outcome:" not in s.text
    s.child.sendline("t a b")
    s.expect(Q_RESULTS)
    s.child.send(ENTER)  # default: stop after the allocation
    s.expect("Outcome:")
    assert s.finish() == 0
    shown = s.text
    assert "3 hits allocated to 3 teams; 0 ignored" in " ".join(shown.split())
    assert "Traceback" not in shown
    assert "the defender's allocation (t a b) is legal" in " ".join(shown.split())


@pytest.mark.clause("F-1")
def test_F1_hit_by_hit_offers_only_legal_teams(spawn) -> None:
    s = Session(spawn("attack", "fow", "--declaration", DECLARATION, "--seed", "3",
                      "--working"))
    choose(s, Q_MODE, MODES, MODES[0], "choose hit by hit")
    s.expect("Hit 1 (from Rifle team X): which team takes it?")
    s.child.send(DOWN * 2 + ENTER)  # Infantry A, Infantry B, Transport T: the transport
    s.expect("Hit 2 (from Rifle team X): which team takes it?")
    s.expect("Infantry B (Infantry, holds 0)")
    s.child.send(ENTER)  # the default: the referee's plan
    s.expect(Q_RESULTS)
    prompt = s.text.split("Hit 2 (from Rifle team X)")[-1]
    assert "Transport T" not in prompt  # a second hit on T would break F-3: not offered
    s.child.send(ENTER)
    s.expect("Outcome:")
    assert s.finish() == 0
    flat = " ".join(s.text.split())
    assert "hit 3: only Infantry B keeps a legal allocation possible" in flat


# --- the declaration typed at the table (issue 14) -----------------------------------------

def _typed_defenders(s: Session, lines: list[str], refused: str, why: str, *,
                     again: str = "Defending teams",
                     more: str = "Next defending team or group") -> None:
    s.child.sendline(refused)
    s.expect(why)  # refused at once, with the part that is wrong; asked again
    s.expect(again)  # asked again: keys typed before a prompt would be dropped
    for line in lines:
        s.child.sendline(line)
        s.expect(more)  # each line waits for its prompt
    s.child.send(ENTER)  # no more defending teams


@pytest.mark.clause("F-6")
def test_F6_compact_lines_refused_early_then_the_proposal_shown_before_the_question(
        spawn, tmp_path) -> None:
    record = tmp_path / "rec.toml"
    s = Session(spawn("attack", "fow", "--seed", "1", "--record", str(record)))
    choose(s, "What do you resolve?", STEPS, STEPS[0], STEPS[1])
    s.expect("Defending teams: a team or a group of identical teams (D1 on)")
    _typed_defenders(s, ["3 inf", "gun", "tank bailed top 1"], "inf top 1",
                     "'top 1': only tanks and transports have Top armour (F-6)")
    s.expect("Names of the defending teams, in order")
    s.child.send(ENTER)  # the default labels
    s.expect("Hitting teams: a team or a group of identical teams (H1 on)")
    s.child.sendline("3 hits d9")
    s.expect("'d9': not a number of hits")
    s.child.sendline("3 hits")
    s.expect("Next hitting team or group")  # keys typed before it would be dropped
    s.child.sendline("2 hits")
    s.expect("Next hitting team or group (H3 on)")
    s.child.send(ENTER)
    s.expect("Names of the hitting teams, in order")
    s.child.send(ENTER)
    s.expect("The referee's proposal [F-3]")
    s.expect("Defender: accept the referee's allocation of 5 hits shown above?")
    s.child.send(ENTER)  # one Enter accepts it
    s.expect(Q_RESULTS)
    s.child.send("unver")  # type-to-filter: only the unverified reading is left
    s.child.send(ENTER)
    s.expect("Top armour save for Tank D5")
    s.child.sendline("4")
    s.expect("Outcome:")
    assert s.finish() == 0
    shown = s.text
    assert "5 hits allocated to 5 teams; 0 ignored" in " ".join(shown.split())
    assert "Traceback" not in shown
    proposal = shown.index("The referee's proposal")
    assert proposal < shown.index("Defender: accept the referee's allocation")
    script = tomllib.loads(record.read_text(encoding="utf-8"))
    assert script["answers"]["defending.3"] == "tank bailed top 1"
    assert script["answers"]["hitting.1"] == "3 hits all"
    assert script["answers"]["results"] == "unverified"


def test_compact_lines_in_russian_refused_in_russian_and_type_to_filter(spawn) -> None:
    s = Session(spawn("--lang", "ru", "attack", "fow", "--seed", "1"))
    choose(s, "Что разыгрываем?", STEPS, STEPS[0], STEPS[1])
    s.expect("Обороняющиеся отделения: одно отделение или группа одинаковых (начиная с D1)")
    _typed_defenders(s, ["3 пехота", "орудие", "танк покинут верх 1"], "пехота покинут",
                     "«покинут»: Застрявшей или Покинутой бывает только техника",
                     again="Обороняющиеся отделения",
                     more="Следующее обороняющееся отделение или группа")
    s.expect("Имена обороняющихся отделений, по порядку")
    s.child.sendline("Стрелки 1, Стрелки 2, -, ПТО, Пантера")
    s.expect("Атакующие отделения: одно отделение или группа одинаковых (начиная с H1)")
    s.child.sendline("2x2 поп.")
    s.child.sendline("1 попадание")
    s.expect("Следующее атакующее отделение или группа (начиная с H4)")
    s.child.send(ENTER)
    s.expect("Имена атакующих отделений, по порядку")
    s.child.send(ENTER)
    s.expect("Предложение судьи [F-3]")
    s.expect("Обороняющийся: принять показанное выше распределение 5 попаданий?")
    s.child.send("целиком")  # a Russian label filters the list
    s.child.send(ENTER)
    s.expect("Введите отделение для каждого из 5 попаданий")
    s.child.sendline("d1 d2 d3 d4 d5")
    s.expect("Все попадания распределены. Результаты?")
    s.child.send(ENTER)
    s.expect("Итог:")
    assert s.finish() == 0
    flat = " ".join(s.text.split())
    assert "распределено 5 попаданий на 5 отделений; не учтено 0" in flat
    assert "Traceback" not in flat
    assert "Пантера" in flat and "Пехота D3" in flat and "Пехота H1" in flat
