"""The roster of a Lock 'n Load Tactical operations phase, and the phase state kept in a game
file, as validated values.

A roster lists both sides' units with where they are (hex, bunker or cave entrance or inside,
building level), what they are (MMC, SMC, vehicle; leaders with their LM; armor leaders),
the support weapons they carry and their markers. Geometry stays at the table (decision 4):
which hexes are adjacent is part of the roster, as the players read it off the map.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from referee.core import work
from referee.rulesets.fields import Name

ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")

Marker = Literal["moved", "low-crawl", "assault-move", "stealth", "fired", "ops-complete"]
MARKERS: tuple[str, ...] = ("moved", "low-crawl", "assault-move", "stealth", "fired",
                            "ops-complete")
MOVE_MARKERS: tuple[str, ...] = ("moved", "low-crawl", "assault-move", "stealth")
UnitKind = Literal["mmc", "smc", "vehicle"]
SwKind = Literal["mg", "flamethrower", "dft", "oft"]
Position = Literal["open", "entrance", "inside"]


GOOD_ORDER = "good-order"


def statuses() -> tuple[str, ...]:
    """The statuses a unit may have: Good Order, or a result of the damage-check table that
    changes it (a result that keeps Good Order, 'no-effect', is not a status)."""
    from referee.rulesets.lnlt.tables import tables

    t = tables()
    return tuple(dict.fromkeys(r for r in (GOOD_ORDER, *t.leg_results, *t.vehicle_results)
                               if r not in t.keeps_good_order))


def _check_id(value: str) -> str:
    if not ID.match(value):
        raise PydanticCustomError("lnlt.decl.bad_id", "expected letters, digits, - or _ "
                                  "(got '{given}')", {"given": value})
    return value


class SupportWeapon(BaseModel):
    """A support weapon (or a vehicle's MG or gun): DFT weapons add FP, OFT weapons roll on
    the to-hit table printed on their counter."""

    model_config = ConfigDict(extra="forbid")

    id: Name
    name: Name | None = None
    kind: SwKind
    fp: int = Field(default=0, ge=0, le=20)

    _id = field_validator("id")(_check_id)

    @property
    def label(self) -> str:
        return self.name or self.id


class Unit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: Name
    name: Name | None = None
    side: Name
    hex: Name
    kind: UnitKind
    ifp: int = Field(default=0, ge=0, le=20)
    leader: bool = False
    armor_leader: bool = False
    lm: int = Field(default=0, ge=0, le=5)
    armor: int | None = Field(default=None, ge=0, le=20)
    morale: int | None = Field(default=None, ge=0, le=12)
    position: Position = "open"
    level: int | None = Field(default=None, ge=-1, le=10)
    sws: list[SupportWeapon] = Field(default_factory=list, max_length=6)
    markers: list[Marker] = Field(default_factory=list)
    status: str = GOOD_ORDER

    _id = field_validator("id", "hex")(_check_id)

    @field_validator("status")
    @classmethod
    def _known_status(cls, value: str) -> str:
        """Good order or one of the damage-check results of tables.toml: a typo (for
        example 'good_order') is refused, never read as 'not in Good Order'."""
        known = statuses()
        if value not in known:
            raise PydanticCustomError("lnlt.decl.status",
                                      "status '{given}' is not one of {known}",
                                      {"given": value, "known": ", ".join(known)})
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Unit:
        if self.leader and self.kind != "smc":
            raise PydanticCustomError("lnlt.decl.leader_kind",
                                      "a leader is an SMC (armor leaders: armor_leader)")
        if self.armor_leader and self.kind != "vehicle":
            raise PydanticCustomError("lnlt.decl.armor_leader_kind",
                                      "an armor leader is a vehicle")
        if (self.leader or self.armor_leader) and self.lm == 0:
            raise PydanticCustomError("lnlt.decl.leader_lm", "a leader needs his LM (lm = 1...)")
        return self

    @property
    def label(self) -> str:
        return self.name or self.id

    @property
    def is_leader(self) -> bool:
        return self.leader or self.armor_leader

    @property
    def good_order(self) -> bool:
        return self.status == GOOD_ORDER

    @property
    def on_map(self) -> bool:
        return self.status not in ("eliminated", "destroyed")

    @property
    def leg(self) -> bool:
        return self.kind != "vehicle"

    @property
    def shaken(self) -> bool:
        """A leg unit on its Shaken side: it may be activated, but may not fire nor Op Fire,
        and may not move closer to an enemy unit in its LOS. [SRC: LnLP staff on the v4-era
        forums: a Shaken unit activates with its Shaken side, no fire and a reduced MF,
        https://forums.lnlpublishing.com/threads/wounded-results.44/post-264
        and Shaken units cannot fire,
        https://forums.lnlpublishing.com/threads/solo-rules-query-unit-selection.3768
        moving, https://forums.lnlpublishing.com/threads/shaken-unit-and-their-movement-in-relation-to-enemies.2237
        as the v5.1 core rules 6.0 say too (no difference found between v4 and v5),
        https://fliphtml5.com/hscyh/mlhn/LnLT_Core_Rules_Officer_v5.1_Rev73/44 ]"""
        return self.leg and self.status == "shaken"


class Band(BaseModel):
    """One row of a user-supplied damage-check table: from ``at_least`` up, ``result``."""

    model_config = ConfigDict(extra="forbid")

    at_least: int = Field(ge=-20, le=40)
    result: Name


class DamageTable(BaseModel):
    """A Damage Check Table the players supply from their own chart (decision 3): bands of
    the DC total (or of the DC total over the unit's morale), for leg units and vehicles."""

    model_config = ConfigDict(extra="forbid")

    source: Name
    compare: Literal["total", "over-morale"] = "total"
    leg: list[Band] = Field(min_length=1)
    vehicle: list[Band] = Field(default_factory=list)

    @model_validator(mode="after")
    def _known_results(self) -> DamageTable:
        from referee.rulesets.lnlt.tables import tables

        t = tables()
        for name, bands, known in (("leg", self.leg, t.leg_results),
                                   ("vehicle", self.vehicle, t.vehicle_results)):
            for band in bands:
                if band.result not in known:
                    raise PydanticCustomError("lnlt.decl.dct_result",
                                              "{row}: result '{given}' is not one of {known}",
                                              {"row": name, "given": band.result,
                                               "known": ", ".join(known)})
        return self

    def read(self, unit: Unit, dc_total: int) -> str | None:
        """The result for ``unit``; None when the table cannot say (no row, no morale)."""
        bands = self.vehicle if unit.kind == "vehicle" else self.leg
        if not bands:
            return None
        value = dc_total
        if self.compare == "over-morale":
            if unit.morale is None:
                return None
            value = dc_total - unit.morale
        return band_result(((b.at_least, b.result) for b in bands), value)


def band_result(bands: Iterable[tuple[int, str]], value: int) -> str:
    """The result of the highest band (its lowest value, its result) that ``value`` reaches;
    below every band, no effect."""
    found = [b for b in bands if b[0] <= value]
    if not found:
        return "no-effect"
    return max(found, key=lambda b: b[0])[1]


class Roster(BaseModel):
    """The declaration of a phase: sides, initiative, map adjacency and units."""

    model_config = ConfigDict(extra="forbid")

    sides: list[Name] = Field(min_length=2, max_length=2)
    initiative: str | None = None
    turn: int = Field(default=1, ge=1, le=99)
    adjacent: dict[str, list[str]] = Field(default_factory=dict)
    hexes: list[str] = Field(default_factory=list)
    # the terrain modifier of a hex's terrain, read off the players' terrain chart: a fire at
    # a hex given here asks no TM (leave out hexes whose TM depends on the unit: a bunker)
    terrain: dict[str, int] = Field(default_factory=dict)
    units: list[Unit] = Field(min_length=1, max_length=200)
    max_impulses: int | None = Field(default=None, ge=1, le=500)
    damage_table: DamageTable | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_file(cls, data: Any, info: ValidationInfo) -> Any:
        """``{"roster": FILE}`` (``referee attack lnlt --roster FILE``, or a script whose
        declaration names its roster): the roster that file holds, its keys at the top or a
        script's ``[declaration]``, found from the declaring file's folder; a mistake in it
        names that file and line."""
        if not (isinstance(data, dict) and set(data) == {"roster"}
                and isinstance(data["roster"], str)):
            return data
        from referee.files import read_toml, validate
        from referee.rulesets.fields import _from_base

        path = _from_base(data["roster"], info)
        text, raw = read_toml(path)
        prefix: list[str | int] = []
        if isinstance(raw.get("declaration"), dict):
            raw, prefix = raw["declaration"], ["declaration"]
        roster: Roster = validate(cls, raw, path, text, prefix)
        return roster.model_dump()

    @model_validator(mode="after")
    def _consistent(self) -> Roster:
        if self.sides[0] == self.sides[1]:
            raise PydanticCustomError("lnlt.decl.same_sides", "the two sides need two names")
        if self.initiative is not None and self.initiative not in self.sides:
            raise PydanticCustomError("lnlt.decl.initiative",
                                      "initiative must name one of the sides: {sides}",
                                      {"sides": ", ".join(self.sides)})
        seen: set[str] = set()
        for unit in self.units:
            if unit.id in seen:
                raise PydanticCustomError("lnlt.decl.same_unit", "two units with the id {id}",
                                          {"id": unit.id})
            seen.add(unit.id)
            if unit.side not in self.sides:
                raise PydanticCustomError("lnlt.decl.unit_side",
                                          "unit {id}: side must be one of {sides}",
                                          {"id": unit.id, "sides": ", ".join(self.sides)})
        for hex_id, others in self.adjacent.items():
            for h in (hex_id, *others):
                _check_id(h)
        for hex_id, tm in self.terrain.items():
            _check_id(hex_id)
            if not -5 <= tm <= 10:
                raise PydanticCustomError("lnlt.decl.terrain", "{hex}: a terrain modifier from "
                                          "-5 to 10 (got {tm})", {"hex": hex_id, "tm": tm})
        return self

    def scan(self) -> list[Unit]:
        """Every unit, for a loop over the whole roster: each counted as one visit
        (``lnlt.unit-visits``: the work guard of tests/rulesets/lnlt/test_lnlt_work.py)."""
        work.add("lnlt.unit-visits", len(self.units))
        return self.units

    def unit(self, unit_id: str) -> Unit:
        return next(u for u in self.scan() if u.id == unit_id)

    def neighbours(self, hex_id: str) -> set[str]:
        """Hexes adjacent to ``hex_id`` as the roster gives them (either direction)."""
        work.add("lnlt.adjacency-visits", len(self.adjacent))
        out = set(self.adjacent.get(hex_id, ()))
        out |= {h for h, others in self.adjacent.items() if hex_id in others}
        out.discard(hex_id)
        return out

    def all_hexes(self) -> list[str]:
        found = list(self.hexes)
        for u in self.scan():
            found.append(u.hex)
        work.add("lnlt.adjacency-visits", len(self.adjacent))
        for h, others in self.adjacent.items():
            found += [h, *others]
        found += list(self.terrain)
        return sorted(dict.fromkeys(found))

    def multi_level(self, hex_id: str) -> bool:
        """A hex whose units give building levels holds a multi-level building."""
        return any(u.level is not None for u in self.scan() if u.hex == hex_id)

    def bunker(self, hex_id: str) -> bool:
        return any(u.position != "open" for u in self.scan() if u.hex == hex_id)


class UnitAction(BaseModel):
    """One thing a unit did, for the impulse log and for the rule that marked units stay
    marked (L-8): the markers it carried before acting are kept."""

    model_config = ConfigDict(extra="forbid")

    impulse: int
    unit: str
    action: Literal["fire", "move", "spot", "op-fire", "spotted-fire", "move-fire",
                    "activate-others"]
    markers_before: list[str] = Field(default_factory=list)


class PlayedImpulse(BaseModel):
    model_config = ConfigDict(extra="forbid")

    number: int
    side: str
    kind: Literal["pass", "activation"]
    hexes: list[str] = Field(default_factory=list)
    did: list[str] = Field(default_factory=list)
    passes: int = 0


class PhaseState(BaseModel):
    """Everything a game file keeps between impulses, so a phase can be resumed."""

    model_config = ConfigDict(extra="forbid")

    roster: Roster
    initiative: str
    current: str
    impulses: int = 0
    passes: int = 0
    ended: bool = False
    end_reason: str | None = None
    log: list[PlayedImpulse] = Field(default_factory=list)
    actions: list[UnitAction] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> PhaseState:
        """A phase read back from a game file names only its own sides and units."""
        sides = self.roster.sides
        if any(side not in sides for side in (self.initiative, self.current,
                                              *(r.side for r in self.log))):
            raise PydanticCustomError("lnlt.state.side", "a side that is not one of {sides}",
                                      {"sides": ", ".join(sides)})
        units = {u.id for u in self.roster.units}
        for action in self.actions:
            if action.unit not in units:
                raise PydanticCustomError("lnlt.state.unit", "unit {unit} is not in the roster",
                                          {"unit": action.unit})
        return self

    def other(self, side: str) -> str:
        a, b = self.roster.sides
        return b if side == a else a


def read_roster(path: str) -> Roster:
    """A roster file: the roster's keys at the top, or a script with a [declaration]."""
    from referee.files import read_toml, validate

    text, raw = read_toml(path)
    if "declaration" in raw and isinstance(raw["declaration"], dict):
        return validate(Roster, raw["declaration"], path, text,  # type: ignore[no-any-return]
                        ["declaration"])
    return validate(Roster, raw, path, text)  # type: ignore[no-any-return]
