"""A fire attack without a script: the declaration is asked, one piece at a time.

Kept short on purpose: one firing piece or a group in one hex, plus the target hex's units.
Groups over several hexes, leaders and weapons carried by units come from ``--declaration``.
"""

from __future__ import annotations

from referee.core.port import Port
from referee.core.questions import Choice, ChoiceQuestion, ConfirmQuestion, NumberQuestion
from referee.core.text import Msg
from referee.rulesets.cc.deck import NATIONS
from referee.rulesets.cc.declaration import FireDeclaration


def _number(port: Port, qid: str, text: Msg, low: int, high: int, default: int,
            clause: str | None = None) -> int:
    value: int = port.ask(NumberQuestion(id=qid, text=text, minimum=low, maximum=high,
                                         default_value=default, clause=clause))
    return value


def ask_declaration(port: Port) -> FireDeclaration:
    nations = tuple(Choice(n, Msg.of(f"cc.nation.{n}")) for n in NATIONS)
    attacker = port.ask(ChoiceQuestion(id="attacker", text=Msg.of("cc.q.attacker"),
                                       choices=nations, default_value="germany"))
    defenders = tuple(c for c in nations if c.value != attacker)
    defender = port.ask(ChoiceQuestion(id="defender", text=Msg.of("cc.q.defender"),
                                       choices=defenders, default_value=defenders[0].value))
    count = _number(port, "pieces", Msg.of("cc.q.pieces"), 1, 12, 1, "C-6")
    firing = []
    for i in range(1, count + 1):
        heavy = count == 1 and port.ask(ConfirmQuestion(
            id=f"piece.{i}.white-band", text=Msg.of("cc.q.white_band", n=i), clause="C-7"))
        firing.append({
            "name": f"piece {i}", "hex": "A1", "kind": "weapon" if heavy else "unit",
            "white_band": heavy,
            "fp": _number(port, f"piece.{i}.fp", Msg.of("cc.q.fp", n=i), 0, 30, 5),
            "range": _number(port, f"piece.{i}.range", Msg.of("cc.q.range", n=i), 0, 40, 5),
            "distance": _number(port, f"piece.{i}.distance", Msg.of("cc.q.distance", n=i),
                                0, 40, 1, "C-6"),
            "hindrance": _number(port, f"piece.{i}.hindrance", Msg.of("cc.q.hindrance", n=i),
                                 0, 20, 0, "C-9")})
    command = _number(port, "command", Msg.of("cc.q.command"), 0, 5, 0, "C-14")
    if command:
        firing.append({"name": "leader", "kind": "leader", "hex": "A1", "command": command,
                       "fires": False})
    bonus = _number(port, "bonus", Msg.of("cc.q.bonus"), -10, 10, 0, "C-9")
    cover = _number(port, "cover", Msg.of("cc.q.cover"), -5, 10, 0, "C-4")
    units = _number(port, "units", Msg.of("cc.q.units"), 1, 12, 1, "C-12")
    target = []
    for i in range(1, units + 1):
        broken = port.ask(ConfirmQuestion(id=f"unit.{i}.broken",
                                          text=Msg.of("cc.q.unit_broken", n=i)))
        target.append({
            "name": f"unit {i}",
            "morale": _number(port, f"unit.{i}.morale", Msg.of("cc.q.morale", n=i, side=Msg.of(
                "cc.word.broken_side" if broken else "cc.word.good_side")), 0, 15, 7, "C-4"),
            "broken": broken,
            "suppressed": port.ask(ConfirmQuestion(id=f"unit.{i}.suppressed",
                                                   text=Msg.of("cc.q.unit_suppressed", n=i))),
            "moving": port.ask(ConfirmQuestion(id=f"unit.{i}.moving", clause="C-5",
                                               text=Msg.of("cc.q.unit_moving", n=i)))})
        if broken:
            target[-1]["broken_morale"] = target[-1]["morale"]
    return FireDeclaration.model_validate({
        "attacker": attacker, "defender": defender, "target_hex": "target", "cover": cover,
        "firing": firing, "target": target,
        "bonuses": [{"source": "other", "fp": bonus}] if bonus else []})
