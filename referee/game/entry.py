"""What a game file keeps of each attack or impulse besides its result.

Before the first question (``prepare``): the entry's number in the game and, in a game made by
``game new``, the dice of that entry (``EntryDice``: the game's seed, the number, and the
opponent's contribution asked before the first program die, ``referee.game.pending``), and the
dice typed in an undone attack of the same number (shown again when it is redone). After the
last answer
(``History``): each roll with its dice, typed or rolled by the program, and its odds; the
attacking and defending formations and their sides (asked once per name and remembered); the
units the odds expected the attack to destroy; and what resolves it again (``replay``: the
options, the declaration, the answers in order: ``play.attack.attack_replay``), from which
``game verify`` recomputes it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.core.dice import DiceRoll, DiceSource, KeyedDice
from referee.core.errors import GameFileError, UsageError
from referee.core.questions import Choice, ChoiceQuestion, Question
from referee.core.text import Msg, jsonable

if TYPE_CHECKING:
    from referee.core.result import Result
    from referee.game import Event, GameTransaction, LogEntry
    from referee.game.contribution import Source
    from referee.game.pending import EntryFlow
    from referee.game.seed import GameInfo


@dataclass
class GamePlay:
    """An entry about to be played in a game file: its number, the game (``None``: a file
    made by ``--game`` alone), the typed dice of the undone entry it redoes, by question;
    ``redoes``: that entry; ``resume``: the abandoned pending entry ``--resume`` takes up;
    ``revision``: the file's revision when this command last read or wrote it; ``flow``: the
    pending entry and contribution of its program dice (``referee.game.pending``)."""

    file: Path
    number: int
    info: GameInfo | None = None
    typed_then: dict[str, str] = field(default_factory=dict)
    redoes: LogEntry | None = None
    resume: Event | None = None
    revision: int | None = None
    flow: EntryFlow | None = None
    code: str | None = None  # the check code after the entry, once written
    contributed: bool = False  # the number has its contribution already (a redo's)

    @property
    def committed(self) -> bool:
        return self.info is not None

    def dice(self) -> KeyedDice:
        """The game's dice for this entry (only in a game made by ``game new``): drawn from
        the seed, the entry's number and the opponent's contribution (``begin`` hooks it)."""
        from referee.core.dice import EntryDice

        assert self.info is not None
        return EntryDice(self.info.seed, self.number)

    def begin(self, dice: KeyedDice, *, ruleset: str, command: str, source: Source,
              options: Mapping[str, Any], declaration: Any,
              answers: Callable[[], Sequence[tuple[str, Any]]],
              say: Callable[[Msg], None] | None = None) -> EntryFlow | None:
        """Before the entry's first question: its program dice will ask ``flow`` for the
        contribution (the entry written pending first). ``None``: not a game's dice."""
        from referee.core.dice import EntryDice
        from referee.game.pending import EntryFlow

        if not self.committed or not isinstance(dice, EntryDice):
            return None
        self.flow = EntryFlow(self, ruleset=ruleset, command=command, source=source,
                              options=options, declaration=declaration, answers=answers,
                              say=say)
        dice.contribute = self.flow.contribute
        return self.flow

    def next_entry(self, number: int) -> None:
        """The next entry of the same command (the next impulse of a phase)."""
        self.number = number
        self.typed_then.clear()
        self.redoes = self.resume = None
        self.flow = None


def prepare(path: Path, *, seed_given: bool = False, resume: int | None = None) -> GamePlay:
    """What the next entry of the game file ``path`` needs before its first question (a file
    that does not exist yet is made by the entry's write). The file is opened for writing: an
    older format is migrated, and an attack another command left pending is met first
    (``open_game``). ``resume``: the number of the attack ``--resume`` continues."""
    from referee.game import open_game
    from referee.game.pending import resumable
    from referee.game.seed import game_info

    if not path.exists():
        return GamePlay(path, 1)
    with open_game(path) as tx:
        info = game_info(tx)
        if info is not None and info.revealed is not None:
            raise GameFileError(Msg.of("game.error.revealed", file=str(path)))
        if info is not None and seed_given:
            raise UsageError(Msg.of("game.error.seed_given", file=str(path)))
        taken_up = resumable(tx, resume) if resume is not None else None
        number = resume if taken_up is not None and resume is not None else tx.next_number()
        redone = tx.redone(number)
        typed = {} if redone is None else {r["question"]: shown_dice(r) for r in redone.rolls
                                           if r.get("source") == DiceSource.TYPED.value}
        revision = tx.revision
        contributed = bool(tx.contributions(number)) if tx.schema >= 3 else False
    return GamePlay(path, number, info, typed, redone, taken_up, revision,
                    contributed=contributed)


def shown_dice(roll: Mapping[str, Any]) -> str:
    """A logged roll's dice as a player reads them (``5 6 2``, ``=3``, a card's trigger)."""
    from referee.catalog import render
    from referee.game.history import message

    dice = roll.get("dice")
    text = (" ".join(str(d) for d in dice) if isinstance(dice, list)
            else f"={roll.get('successes', '?')}")
    label = roll.get("label")
    return f"{text} {render(message(label))}" if label else text


# --- the rolls ------------------------------------------------------------------------------

def rolls_of(ruleset: str, answers: Sequence[tuple[str, Any]],
             odds: Sequence[Any]) -> list[dict[str, Any]]:
    """Each roll of the final answers (question id, value), in order, with the odds
    recorded for it (matched by question, in order)."""
    from referee.game.luck import roller

    out = []
    numbers: dict[str, int] = {}
    at = 0
    for qid, value in answers:
        if not isinstance(value, DiceRoll):
            continue
        roll_odds = None
        if at < len(odds) and odds[at].question == qid:
            roll_odds, at = odds[at], at + 1
        roll_number = 0
        if value.source.by_program:
            roll_number = numbers.get(qid, 0)
            numbers[qid] = roll_number + 1
        label = value.label()
        item: dict[str, Any] = {
            "question": qid, "roll": roll_number, "source": value.source.value,
            "dice": list(value.faces) if value.faces is not None else None,
            "successes": value.successes, "label": jsonable(label) if label else None}
        if roll_odds is not None and roll_odds.actual is not None:
            report = roll_odds.report
            pct = roll_odds.percentile
            by, higher = roller(ruleset, qid, report.unit.id)
            item.update({"title": jsonable(report.title), "unit": report.unit.id,
                         "value": roll_odds.actual,
                         "percentile": round(float(pct), 2) if pct is not None else None,
                         "at_least": round(float(report.dist.at_least(roll_odds.actual)), 6),
                         "at_most": round(float(report.dist.at_most(roll_odds.actual)), 6),
                         "by": by, "higher_is_better": higher})
        out.append(item)
    return out


def expected_destroyed(odds: Sequence[Any]) -> dict[str, Any] | None:
    """The units the odds expected the attack to destroy, before its first roll that says."""
    from referee.game.luck import EXPECTED_DESTROYED

    for roll_odds in odds:
        labels = getattr(roll_odds.report, "end_labels", ())
        if not any(label.id in EXPECTED_DESTROYED for label in labels):
            continue
        for state in roll_odds.report.end_states:
            if state.label.id in EXPECTED_DESTROYED:
                return {"label": jsonable(state.label), "value": round(float(state.value), 4)}
    return None


# --- who attacked whom ------------------------------------------------------------------------

def _name_key(value: Any) -> str | None:
    """A formation's name as the side table keeps it (a message: its id; a text: itself)."""
    if isinstance(value, Msg):
        return value.id
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


def parties(result: Result) -> tuple[Any, Any]:
    """The attacking and defending formation as the declaring step names them."""
    from referee.game.luck import DECLARING

    for step in result.steps:
        names = DECLARING.get(step.text.id)
        if names is not None:
            params = step.text.kwargs
            return tuple(params.get(n) if n else None for n in names)  # type: ignore[return-value]
    return None, None


def title(result: Result) -> Msg | None:
    """The entry's title: its declaring step, else its first step."""
    from referee.game.luck import DECLARING

    for step in result.steps:
        if step.text.id in DECLARING and step.text.id != "lnlt.step.impulse":
            return step.text
    for step in result.steps:
        if step.text.id == "lnlt.step.impulse":
            return step.text
    return result.steps[0].text if result.steps else None


def roster_sides(ruleset: str, declaration: Any) -> dict[str, str]:
    """The sides a roster gives its formations (an Epic roster's ``side``)."""
    roster = getattr(declaration, "roster", None)
    if ruleset != "epic-armageddon" or not isinstance(roster, str):
        return {}
    from referee.rulesets.epic.roster import load_roster

    return {f.name: f.side for f in load_roster(roster).formation if f.side}


# --- replay ---------------------------------------------------------------------------------

def digest_file(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


# --- the entry ------------------------------------------------------------------------------

class History:
    """The game-file part of one attack or impulse: checked when its state is read (its
    number still the next), completed after its last answer (sides asked then, outside the
    file's lock), and written with its result in one transaction."""

    def __init__(self, ruleset: str, *, play: GamePlay | None = None,
                 known_sides: Mapping[str, str] | None = None,
                 ask: Callable[[Question], Any] | None = None) -> None:
        self.ruleset = ruleset
        self.play = play
        self.known = dict(known_sides or {})
        self.ask = ask
        self.game_sides: tuple[str, str] | None = None
        self.remembered: dict[str, str] = {}
        self.roster_sides = dict(self.known)  # kept for the game: never forgotten (issue 27)
        self.parties: tuple[Any, Any] | None = None  # as the resolver declared them
        # the side attacking, when the table said so before the end (the seat of a phone
        # asks it to give the phones their questions): not asked a second time
        self.attacking: Callable[[], str | None] | None = None
        self._details: dict[str, Any] = {}
        self.overrides: list[dict[str, Any]] = []  # agreed at the table (``frontends.fixed``)
        self.code: str | None = None  # the entry's check code, once written
        self.number: int | None = None  # its number, once written
        # for an attack: the final answers (question id, value), the odds recorded, and the
        # replay block, read when the attack is resolved
        self.collect: Callable[[], tuple[Sequence[tuple[str, Any]], Sequence[Any],
                                         Mapping[str, Any] | None]] | None = None

    def check(self, tx: GameTransaction) -> None:
        """In the transaction that reads the state: the number is still the next one (no
        other command wrote since ``prepare``); the sides known so far; the state held is the
        one the log leaves."""
        from referee.game.seed import game_info

        play = self.play
        if play is not None and play.resume is None and tx.next_number() != play.number:
            raise GameFileError(Msg.of("error.game_changed", file=tx.name))
        if play is not None:
            play.revision = tx.revision
        tx.guard_state(self.ruleset)
        info = game_info(tx)
        self.game_sides = info.sides if info is not None else None
        kept = tx.sides()
        self.known = {**kept, **self.known}
        for name, side in self.roster_sides.items():  # a roster's side: kept for the game
            if kept.get(name) != side and (self.game_sides is None or side in self.game_sides):
                self.remembered[name] = side

    def declared(self, attacker: Any, defender: Any) -> None:
        """The resolver says who attacks whom, before any die (issue 27): a formation's side
        not known yet is asked now, once, never after the dice."""
        if self.parties == (attacker, defender):
            return
        self.parties = (attacker, defender)
        self._sides(attacker, defender)

    @property
    def owner(self) -> int | None:
        """The pending entry this entry closes (its command's own: ``open_game(owner=)``)."""
        flow = self.play.flow if self.play is not None else None
        return flow.pending.id if flow is not None and flow.pending is not None else None

    def revision(self, read: int | None) -> int | None:
        """The revision the file must still have at the entry's write: the one read, or
        after this command's own writes (the pending entry, the contribution)."""
        if self.play is not None and self.play.revision is not None:
            return self.play.revision
        return read

    def finish(self, result: Result) -> None:
        """An attack is resolved: complete the entry from what ``collect`` gives."""
        assert self.collect is not None
        self.complete(result, *self.collect())

    def complete(self, result: Result, answers: Sequence[tuple[str, Any]],
                 odds: Sequence[Any], replay: Mapping[str, Any] | None) -> None:
        """Everything the entry keeps besides its result (asks a new formation's side)."""
        from referee.game.luck import destroyed

        attacker, defender = parties(result)
        sides = self._sides(attacker, defender)
        # sides the resolver asked itself (an Epic turn's formations): kept for the game,
        # never changing a side it keeps already
        for name, side in (result.outcome_data.get("sides_told") or {}).items():
            if (self.game_sides is not None and side in self.game_sides
                    and name not in self.known):
                self.remembered.setdefault(name, side)
        shown = title(result)
        self._details = {
            "rolls": rolls_of(self.ruleset, answers, odds), "replay": replay,
            "about": {"title": jsonable(shown) if shown else None,
                      "attacker": jsonable(attacker), "defender": jsonable(defender),
                      "sides": sides, "expected": expected_destroyed(odds),
                      "destroyed": destroyed(self.ruleset, result.outcome_data)}}

    def _side_of(self, name: Any, said: str | None = None) -> str | None:
        key = _name_key(name)
        if key is None or self.game_sides is None:
            return None
        for known in (self.known, self.remembered):
            if key in known and known[key] in self.game_sides:
                return known[key]
        for side in self.game_sides:  # the name of a side itself (a roster's side)
            if side.casefold() == key.casefold():
                return side
        if said in self.game_sides:
            self.remembered[key] = said
            return said
        if self.ask is None:
            return None
        from referee.catalog import render

        shown = render(name) if isinstance(name, Msg) else key
        answer = self.ask(ChoiceQuestion(
            id="game.side", text=Msg.of("game.q.side", name=shown),
            choices=tuple(Choice(s, s) for s in self.game_sides)))
        self.remembered[key] = str(answer)
        return str(answer)

    def _sides(self, attacker: Any, defender: Any) -> dict[str, str | None]:
        a = self._side_of(attacker, self.attacking() if self.attacking is not None else None)
        d = self._side_of(defender) if a is None else None
        if self.game_sides is not None:
            first, second = self.game_sides
            if a is not None:
                d = second if a == first else first
            elif d is not None:
                a = second if d == first else first
        # the other formation's side follows: kept too, so that it is never asked (issue 27)
        for name, side in ((attacker, a), (defender, d)):
            key = _name_key(name) if isinstance(name, str) else None  # a name, not a label
            if key is not None and side is not None and key not in self.known:
                self.remembered.setdefault(key, side)
        return {"attacker": a, "defender": d}

    def store(self, tx: GameTransaction, command: str, result: Result,
              seed: int | None) -> int:
        """Write the entry (with the sides newly known); ``code`` is its check code then."""
        for name, side in self.remembered.items():
            tx.remember_side(name, side)
        play = self.play
        body: dict[str, Any] = {"scheme": 1}
        number = None
        if play is not None and play.committed:
            flow = play.flow
            body = (flow.body(self.overrides) if flow is not None
                    else {"scheme": 2, "pending": None, "overrides": list(self.overrides)})
            number = play.number if flow is not None and flow.pending is not None else None
        written = tx.append_log(self.ruleset, command, result.to_json(), seed,
                                rolls=self._details.get("rolls", ()),
                                replay=self._details.get("replay"),
                                about=self._details.get("about"), body=body, number=number)
        assert tx.last is not None
        self.code = tx.last.code
        self.number = written
        if play is not None:
            play.code = self.code
            if play.flow is not None:
                play.flow.written()
        return written
