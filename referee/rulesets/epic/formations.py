"""The formations of an attack as the resolver works with them: declared units, the game
file's carried-over state (Blast markers, casualties, broken), and the situation of each unit,
asked at the table when the declaration leaves it out (decision 4: geometry is input): one
line for a formation, its units in their order (``entry.SituationQuestion``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.core.port import Port
from referee.core.questions import EITHER, ConfirmQuestion, NumberQuestion
from referee.core.result import StepLog
from referee.core.table import Shown
from referee.core.text import Msg
from referee.rulesets.epic.allocation import Target
from referee.rulesets.epic.declaration import FiringUnit, TargetUnit, Weapon, weapon_key
from referee.rulesets.epic.line import Needs, Place, SituationQuestion, each_unit
from referee.rulesets.epic.tables import tables

MAX_CM = 500
DEFAULT_NAMES = {"firing-formation": "epic.default.firing_name",
                 "target-formation": "epic.default.target_name",
                 "assaulting-formation": "epic.default.assaulting_name",
                 "defending-formation": "epic.default.defending_name"}
"""Formations not named at the table: the key (of the game file, of question ids) and the
label a player reads, in the player's language."""


def formation_label(name: str) -> Msg | str:
    return Msg.of(DEFAULT_NAMES[name]) if name in DEFAULT_NAMES else name


@dataclass(frozen=True)
class Shooter:
    key: str
    name: str
    weapons: tuple[Weapon, ...]
    distance: float | None  # None: not needed (no Blast marker, no weapon range)
    in_range: bool
    bearing: float | None
    label: Msg | str | None = None

    @property
    def shown(self) -> Msg | str:
        return self.name if self.label is None else self.label


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
    group: str | None = None  # entered together as alike units (one line at the table)
    dc: int = 0  # a war engine's damage capacity (E-W1); 0: not a war engine
    damage: int = 0  # the damage it has taken
    shields: int = 0  # its void shields up (E-W9)
    under_centre: bool = False  # under a barrage template's centre (E-W7)

    @property
    def war_engine(self) -> bool:
        return self.dc > 0

    @property
    def worth(self) -> int:
        """Units it counts as for the break point: a war engine its starting DC (E-W6)."""
        return self.dc or 1

    @property
    def key(self) -> str:
        return self.target.key

    @property
    def name(self) -> str:
        return self.target.name

    @property
    def shown(self) -> Msg | str:
        return self.target.shown

    def alike(self, other: Defender) -> bool:
        """Units of one group that nothing tells apart: which of them takes a hit, or which
        of them fails a save, changes nothing in the attack (E-X6)."""
        if self.group is None or self.group != other.group:
            return False
        mine, theirs = self.target, other.target
        return ((mine.type, mine.distance, mine.in_range, mine.in_mw_range, mine.in_cover,
                 self.armour, self.cover_save, self.reinforced, self.invulnerable,
                 self.under_template, self.ignores_crossfire)
                == (theirs.type, theirs.distance, theirs.in_range, theirs.in_mw_range,
                    theirs.in_cover, other.armour, other.cover_save, other.reinforced,
                    other.invulnerable, other.under_template, other.ignores_crossfire))


@dataclass
class FormationState:
    """A formation's Blast markers, casualties and broken state (carried in a game file)."""

    name: str
    blast_markers: int
    broken: bool
    destroyed: list[str] = field(default_factory=list)
    on_overwatch: bool | None = None  # None: not recorded (E-20)
    from_game: bool = False
    label: Msg | str | None = None  # what a player reads (None: the name)
    damage: dict[str, int] = field(default_factory=dict)  # war engines' damage (E-W1)
    shields_down: dict[str, int] = field(default_factory=dict)  # void shields down (E-W9)

    @property
    def shown(self) -> Msg | str:
        return self.name if self.label is None else self.label

    def lost(self, unit: str) -> bool:
        """Is ``unit`` (a name) among the destroyed units? Names compare as their keys."""
        return weapon_key(unit) in {weapon_key(d) for d in self.destroyed}

    def to_state(self) -> dict[str, Any]:
        out: dict[str, Any] = {"blast_markers": self.blast_markers, "broken": self.broken,
                               "destroyed": list(self.destroyed)}
        if self.on_overwatch is not None:
            out["overwatch"] = self.on_overwatch
        for key in ("damage", "shields_down"):
            kept = {k: v for k, v in getattr(self, key).items() if v}
            if kept:
                out[key] = kept
        return out


def formation_state(state: Mapping[str, Any], name: str, markers: int | None, broken: bool,
                    log: StepLog, port: Port | None = None,
                    label: Msg | str | None = None) -> FormationState:
    """The game file's state when it knows the formation (E-14, issue 5), else the declared
    one; Blast markers left out of the declaration are asked."""
    shown = name if label is None else label
    saved = state.get("formations", {}).get(name)
    if saved is None and name in state.get("turn", {}).get("sides", {}):
        saved = {}  # in the game's turn since its first strategy roll, nothing on it yet
    if saved is None:
        if markers is None:
            markers = 0 if port is None else ask_markers(port, name, shown)
        return FormationState(name, markers, broken, label=label)
    fs = FormationState(name, int(saved.get("blast_markers", 0)), bool(saved.get("broken")),
                        list(saved.get("destroyed", [])), saved.get("overwatch"), True,
                        label=label, damage=dict(saved.get("damage", {})),
                        shields_down=dict(saved.get("shields_down", {})))
    log.input(Msg.of("epic.step.from_game", formation=shown, markers=fs.blast_markers,
                     destroyed=len(fs.destroyed),
                     broken=Msg.of("word.yes" if fs.broken else "word.no")), "E-14")
    return fs


def settle_broken(port: Port, formation: FormationState, units_left: int,
                  declared: bool | None, log: StepLog) -> None:
    """Whether ``formation`` is broken before the attack (E-14): by the count first (Blast
    markers as many as its units left), else as the game file keeps it, else as declared;
    else one yes/no, as it may be broken for another reason (it lost an assault, E-A11).
    ``formation.broken`` is set; the attack's result keeps it in the game file."""
    if formation.broken or units_left <= 0:
        return
    if formation.blast_markers >= units_left:
        formation.broken = True
        log.input(Msg.of("epic.step.broken_by_count", formation=formation.shown,
                         markers=formation.blast_markers, units=units_left), "E-14",
                  markers=formation.blast_markers, units=units_left, broken=True)
        return
    if formation.from_game:  # the game file knows it: not broken
        return
    if declared is None:
        declared = bool(port.ask(ConfirmQuestion(
            id=f"broken.{weapon_key(formation.name)}", default_value=False, clause="E-14",
            text=Msg.of("epic.q.broken", formation=formation.shown,
                        markers=formation.blast_markers, units=units_left))))
    formation.broken = declared
    if declared:
        log.input(Msg.of("epic.step.broken_declared", formation=formation.shown), "E-14",
                  broken=True)


def ask_crossfire(port: Port, qid: str, shown: Msg | str) -> int:
    """How many friendly formations have ``shown`` in crossfire (brief section 3, E-11 and
    E-13): where they stand is the players' to say."""
    return int(port.ask(NumberQuestion(
        id=qid, minimum=0, maximum=9, default_value=0, clause="E-13", answered_by=EITHER,
        text=Msg.of("epic.q.crossfire", target=shown))))


def ask_markers(port: Port, name: str, shown: Msg | str) -> int:
    """The Blast markers on a formation the game file does not know (E-4, E-14)."""
    return int(port.ask(NumberQuestion(
        id=f"markers.{weapon_key(name)}", minimum=0, maximum=99, default_value=0,
        clause="E-4", answered_by=EITHER, text=Msg.of("epic.q.markers", formation=shown))))


def join(labels: Sequence[Msg | str]) -> Msg | str:
    """Names as one text for a question (``Rifleman 1–4, Carrier 1–2``): a run of names that
    differ only in their closing number, one after another, is written once."""
    runs: list[list[Any]] = []
    for label in labels:
        m = re.fullmatch(r"(.*?)(\d+)", label) if isinstance(label, str) else None
        last = runs[-1] if runs else None
        if (m is not None and last is not None and last[0] == m.group(1)
                and last[2] + 1 == int(m.group(2))):
            last[2] = int(m.group(2))
        elif m is not None:
            runs.append([m.group(1), int(m.group(2)), int(m.group(2))])
        else:
            runs.append([label, None, None])
    parts: list[Msg | str] = []
    for prefix, low, high in runs:
        if low is None:
            parts.append(prefix)
        else:
            parts.append(f"{prefix}{low}" if low == high else f"{prefix}{low}–{high}")
    return listing(parts)


def names_cell(parts: Sequence[Msg | str]) -> Shown:
    """Names as a table cell: a list (empty, shown ``-``, for none), shown as ``listing``."""
    return Shown(list(parts), listing(parts))


def listing(parts: Sequence[Msg | str]) -> Msg | str:
    """Parts as one text, comma between them (``-``: none); names stay plain text."""
    out: Msg | str = parts[0] if parts else "-"
    for part in parts[1:]:
        out = (f"{out}, {part}" if isinstance(out, str) and isinstance(part, str)
               else Msg.of("epic.list.pair", first=out, then=part))
    return out


def ask_places(port: Port, qid: str, text: Msg, hint: Msg, labels: Sequence[Msg | str],
               needs: Needs) -> list[tuple[int, Place]]:
    """One line for where ``labels`` (a formation's units, in order) stand: for each unit,
    the run it is in and its place."""
    if not labels:
        return []
    optional = not (needs.distance or needs.bearing)
    places = port.ask(SituationQuestion(
        id=qid, text=text, hint_msg=hint, count=len(labels),
        needs=needs, default_value="all" if optional else None, clause="E-2",
        answered_by=EITHER))  # where the units stand: both see it
    return each_unit(places)


def ask_standing(port: Port, qid: str, text: Msg, hint: Msg, labels: Sequence[Msg | str],
                 needs: Needs) -> tuple[list[tuple[int, Place]], int]:
    """``ask_places`` for a target formation whose crossfire is not known: the same line
    says it (``xf1``, E-11 and E-13; left out: none), so it is not a question of its own
    at every attack (issue 27)."""
    from referee.rulesets.epic.shoot_line import CrossfireSituationQuestion

    optional = not (needs.distance or needs.bearing)
    standing = port.ask(CrossfireSituationQuestion(
        id=qid, text=text, hint_msg=Msg.of("epic.shoot.hint.crossfire", hint=hint),
        count=len(labels), needs=needs, default_value="all" if optional else None,
        clause="E-2", answered_by=EITHER))
    return each_unit(standing.places), standing.crossfire


def shooter(unit: FiringUnit, weapons: tuple[Weapon, ...], nearest_enemy: bool,
            place: Place | None) -> Shooter:
    """A firing unit with its situation: as declared, else as its formation's line gave it."""
    in_range = unit.in_range
    if in_range is None:
        in_range = True if place is None else place.in_range
    distance = unit.nearest_enemy if nearest_enemy else unit.distance
    if distance is None and place is not None:
        distance = place.distance
    bearing = unit.bearing if unit.bearing is not None else (
        place.bearing if place is not None else None)
    return Shooter(unit.key, unit.name, weapons, distance, in_range, bearing, unit.label)


def shooter_needs(unit: FiringUnit, weapons: tuple[Weapon, ...], nearest_enemy: bool,
                  markers: int) -> tuple[bool, bool, bool]:
    """What the table must tell of a firing unit: whether it is in range and line of fire,
    its distance (for suppression, E-4, or for its weapons' ranges, E-2), its bearing (for
    fire arcs, E-3)."""
    distance = unit.nearest_enemy if nearest_enemy else unit.distance
    return (unit.in_range is None,
            distance is None and (markers > 0 or any(w.range is not None for w in weapons)),
            unit.bearing is None and any(w.arc != "all" for w in weapons))


def target_needs(unit: TargetUnit, barrage: bool) -> bool:
    return (unit.in_range is None or unit.distance is None or unit.terrain is None
            or (barrage and unit.under_template is None))


def defender(unit: TargetUnit, order: int, place: Place | None, *, barrage: bool = False,
             overwatch_cover: bool = False, group: str | None = None) -> Defender:
    """A target unit with its situation: as declared, else as its formation's line gave it
    (``group``: the run of that line it is in, when the declaration names none)."""
    t = tables()
    in_range = unit.in_range
    if in_range is None:
        in_range = True if place is None else place.in_range
    distance = unit.distance
    if distance is None:
        distance = place.distance if place is not None and place.distance is not None else 0.0
    terrain_id = unit.terrain or (place.terrain if place is not None else None) or "open"
    terrain = t.terrain_of(terrain_id)
    in_cover, cover_save = terrain.cover, terrain.save
    if overwatch_cover and unit.type == "INF" and terrain.id == "open":
        in_cover, cover_save = True, 5  # E-X9, NetEA: infantry on overwatch in the open
    under = True
    if barrage:
        under = unit.under_template if unit.under_template is not None else (
            place.under and place.in_range if place is not None else True)
    mw = unit.in_mw_range if unit.in_mw_range is not None else (
        in_range and (place.in_mw if place is not None else True))
    return Defender(Target(unit.key, unit.name, unit.type, distance, order, in_range, mw,
                           in_cover, unit.label, share=unit.dc or 1), unit.armour,
                    cover_save, unit.reinforced,
                    unit.invulnerable, under, terrain.ignores_crossfire_save,
                    unit.group if unit.group is not None else group, dc=unit.dc or 0,
                    damage=unit.damage, shields=unit.void_shields,
                    under_centre=unit.under_centre)
