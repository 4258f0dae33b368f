"""The formations of an attack as the resolver works with them: declared units, the game
file's carried-over state (Blast markers, casualties, broken), and the situation of each unit,
asked at the table when the declaration leaves it out (decision 4: geometry is input)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.core.port import Port
from referee.core.questions import Choice, ChoiceQuestion, ConfirmQuestion, NumberQuestion
from referee.core.result import StepLog
from referee.core.text import Msg
from referee.rulesets.epic.allocation import Target
from referee.rulesets.epic.declaration import FiringUnit, TargetUnit, Weapon, weapon_key
from referee.rulesets.epic.tables import tables

MAX_CM = 500


@dataclass(frozen=True)
class Shooter:
    key: str
    name: str
    weapons: tuple[Weapon, ...]
    distance: float
    in_range: bool
    bearing: float | None


@dataclass(frozen=True)
class Defender:
    """A target unit with everything allocation and saves need."""

    target: Target
    armour: int | None
    cover_save: int | None
    reinforced: bool
    invulnerable: bool
    under_template: bool = True
    ignores_crossfire: bool = False  # in fortifications: no crossfire -1 to its saves (E-11)

    @property
    def key(self) -> str:
        return self.target.key

    @property
    def name(self) -> str:
        return self.target.name


@dataclass
class FormationState:
    """A formation's Blast markers, casualties and broken state (carried in a game file)."""

    name: str
    blast_markers: int
    broken: bool
    destroyed: list[str] = field(default_factory=list)
    on_overwatch: bool | None = None  # None: not recorded (E-20)
    from_game: bool = False

    def to_state(self) -> dict[str, Any]:
        out: dict[str, Any] = {"blast_markers": self.blast_markers, "broken": self.broken,
                               "destroyed": list(self.destroyed)}
        if self.on_overwatch is not None:
            out["overwatch"] = self.on_overwatch
        return out


def formation_state(state: Mapping[str, Any], name: str, markers: int | None, broken: bool,
                    log: StepLog, port: Port | None = None) -> FormationState:
    """The game file's state when it knows the formation (E-14, issue 5), else the declared
    one; Blast markers left out of the declaration are asked."""
    saved = state.get("formations", {}).get(name)
    if saved is None:
        if markers is None:
            markers = 0 if port is None else int(port.ask(NumberQuestion(
                id=f"markers.{weapon_key(name)}", minimum=0, maximum=99, default_value=0,
                clause="E-4", text=Msg.of("epic.q.markers", formation=name))))
        return FormationState(name, markers, broken)
    fs = FormationState(name, int(saved.get("blast_markers", 0)), bool(saved.get("broken")),
                        list(saved.get("destroyed", [])), saved.get("overwatch"), True)
    log.input(Msg.of("epic.step.from_game", formation=name, markers=fs.blast_markers,
                     destroyed=len(fs.destroyed),
                     broken=Msg.of("word.yes" if fs.broken else "word.no")), "E-14")
    return fs


def _distance(port: Port, qid: str, unit: str, clause: str, text: str) -> float:
    return float(port.ask(NumberQuestion(id=f"{qid}.distance",
                                         text=Msg.of(text, unit=unit), minimum=0,
                                         maximum=MAX_CM, clause=clause)))


def shooter(port: Port, unit: FiringUnit, weapons: tuple[Weapon, ...],
            nearest_enemy: bool) -> Shooter:
    """A firing unit with its situation (asked when not declared)."""
    in_range = unit.in_range
    if in_range is None:
        in_range = bool(port.ask(ConfirmQuestion(
            id=f"shooter.{unit.key}.in-range", default_value=True, clause="E-2",
            text=Msg.of("epic.q.shooter_in_range", unit=unit.name))))
    distance = unit.nearest_enemy if nearest_enemy else unit.distance
    if not in_range:  # a unit that cannot fire is neither suppressed nor arc-checked
        return Shooter(unit.key, unit.name, weapons, distance or 0.0, False, unit.bearing)
    if distance is None:
        distance = _distance(port, f"shooter.{unit.key}", unit.name, "E-4",
                             "epic.q.shooter_nearest" if nearest_enemy
                             else "epic.q.shooter_distance")
    bearing = unit.bearing
    if bearing is None and any(w.arc != "all" for w in weapons):
        bearing = float(port.ask(NumberQuestion(
            id=f"shooter.{unit.key}.bearing", minimum=0, maximum=359, clause="E-3",
            text=Msg.of("epic.q.bearing", unit=unit.name))))
    return Shooter(unit.key, unit.name, weapons, distance, in_range, bearing)


def defender(port: Port, unit: TargetUnit, order: int, *, barrage: bool = False,
             overwatch_cover: bool = False, formation_key: str | None = None) -> Defender:
    """A target unit with its situation (asked when not declared). Units of further
    formations under a barrage have the formation in their question ids."""
    t = tables()
    qid = f"situation.{unit.key}" if formation_key is None else \
        f"situation.{formation_key}.{unit.key}"
    in_range = unit.in_range
    if in_range is None:
        in_range = bool(port.ask(ConfirmQuestion(
            id=f"{qid}.in-range", default_value=True, clause="E-10",
            text=Msg.of("epic.q.target_in_range", unit=unit.name))))
    distance = unit.distance
    if distance is None:
        distance = _distance(port, qid, unit.name, "E-10", "epic.q.target_distance")
    terrain_id = unit.terrain
    if terrain_id is None:
        terrain_id = port.ask(ChoiceQuestion(
            id=f"{qid}.terrain", clause="E-8", default_value="open",
            text=Msg.of("epic.q.terrain", unit=unit.name),
            choices=tuple(Choice(x.id, Msg.of(f"epic.terrain.{x.id}")) for x in t.terrain)))
    terrain = t.terrain_of(str(terrain_id))
    in_cover, cover_save = terrain.cover, terrain.save
    if overwatch_cover and unit.type == "INF" and terrain.id == "open":
        in_cover, cover_save = True, 5  # E-X9, NetEA: infantry on overwatch in the open
    under = True
    if barrage:
        under = unit.under_template if unit.under_template is not None else bool(port.ask(
            ConfirmQuestion(id=f"{qid}.under-template", default_value=True,
                            clause="E-15", text=Msg.of("epic.q.under_template",
                                                       unit=unit.name))))
    mw = unit.in_mw_range if unit.in_mw_range is not None else in_range
    return Defender(Target(unit.key, unit.name, unit.type, distance, order, in_range, mw,
                           in_cover), unit.armour, cover_save, unit.reinforced,
                    unit.invulnerable, under, terrain.ignores_crossfire_save)
