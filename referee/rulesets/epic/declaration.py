"""The declaration of an Epic Armageddon shooting attack, as a validated value.

A script's ``[declaration]`` table is checked against these models (pydantic gives the field
path of any mistake); an interactive attack without one builds the same value from questions.

Two shapes share one model. With ``weapons`` only, the attack is the roll to hit (E-7 to E-9).
With ``target_units`` the whole attack is resolved (E-1 to E-14): who may fire, suppression,
Blast markers, allocation, saves and the break check; weapons with barrage points make it a
barrage (E-15 to E-19); an ``overwatch`` table makes it overwatch fire (E-20). Situation
fields left out (a distance, whether a unit is in range) are asked at the table.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator
from pydantic_core import PydanticCustomError

from referee.core.text import Msg
from referee.rulesets.epic.assault_model import AssaultDeclaration, ExtraAttacks
from referee.rulesets.epic.common import MODEL_CONFIG, TerrainId, shown
from referee.rulesets.epic.common import weapon_key as weapon_key  # re-exported
from referee.rulesets.fields import FilePath, Name

UnitType = Literal["INF", "LV", "AV", "WE"]  # WE: a war engine (E-W1)
ArcId = Literal["all", "forward", "rear", "left", "right", "fixed-forward"]


class Weapon(BaseModel):
    model_config = MODEL_CONFIG

    name: Name = Field(description="the weapon's name as the players call it")
    shots: int = Field(default=1, ge=1, le=200,
                       description="shots: in total, or per weapon when units carry it")
    ap: int | None = Field(default=None, ge=1, le=9, description="AP to-hit value, e.g. 5 for AP5+")
    at: int | None = Field(default=None, ge=1, le=9, description="AT to-hit value, e.g. 4 for AT4+")
    barrage: int | None = Field(default=None, ge=1, le=40, description="barrage points (E-16)")
    macro: bool = Field(default=False, description="its hits are macro-weapon hits (E-12)")
    titan_killer: Literal["1", "d3", "d6"] | None = Field(
        default=None, description="a Titan killer: no save but invulnerable; against a war "
                                  "engine, this many points of damage a hit (E-W8)")
    disrupt: bool = Field(default=False, description="a Blast marker per hit (E-13)")
    ignore_cover: bool = Field(default=False, description="ignores cover (brief section 3)")
    arc: ArcId = Field(default="all", description="fire arc (E-3)")
    range: float | None = Field(default=None, gt=0, le=500,
                                description="range in cm: a unit farther from the target "
                                            "does not fire it (E-2); left out: whether it "
                                            "reaches is asked with the line of fire")
    number: int | None = Field(default=None, ge=1,
                               description="entered at the table without a name: its number, "
                                           "shown as 'Unit 3' in the player's language; the "
                                           "name stays the key of question ids")

    @model_validator(mode="after")
    def _has_a_value(self) -> Weapon:
        if self.ap is None and self.at is None and self.barrage is None:
            raise PydanticCustomError("epic.decl.no_value", "a weapon needs an AP or AT value")
        if self.barrage is not None and (self.ap is not None or self.at is not None):
            raise PydanticCustomError("epic.decl.barrage_and_value",
                                      "a barrage weapon has barrage points, not AP/AT")
        return self

    @property
    def key(self) -> str:
        return weapon_key(self.name)

    @property
    def label(self) -> Msg | str:
        return shown(self.name, self.number, "weapon")


class FiringUnit(BaseModel):
    """A unit of the firing formation and where it stands (E-2 to E-4)."""

    model_config = MODEL_CONFIG

    name: Name
    weapons: list[str] = Field(default_factory=list, description="weapon names, one per weapon")
    distance: float | None = Field(default=None, ge=0, description="cm to the target formation")
    nearest_enemy: float | None = Field(default=None, ge=0,
                                        description="cm to the nearest enemy (option E-X8)")
    in_range: bool | None = Field(default=None, description="range and LOF to a target unit")
    bearing: float | None = Field(default=None, ge=0, lt=360,
                                  description="degrees of the target from the unit's facing")
    number: int | None = Field(default=None, ge=1,
                               description="entered at the table without a name: its number, "
                                           "shown as 'Unit 3' in the player's language; the "
                                           "name stays the key of question ids")
    group: str | None = Field(default=None,
                              description="firing units entered together as alike (one line "
                                          "at the table): of several equally far, which is "
                                          "suppressed is not asked")

    @property
    def key(self) -> str:
        return weapon_key(self.name)

    @property
    def label(self) -> Msg | str:
        return shown(self.name, self.number, "shooter")


class TargetUnit(BaseModel):
    """A unit of a target formation (E-10, E-11) and its situation."""

    model_config = MODEL_CONFIG

    name: Name
    type: UnitType
    armour: int | None = Field(default=None, ge=2, le=6, description="armour save, 4 for 4+")
    terrain: TerrainId | None = Field(default=None, description="the ground the unit is in")
    distance: float | None = Field(default=None, ge=0, description="cm to the nearest attacker")
    in_range: bool | None = Field(default=None, description="in range and LOF of the attackers")
    in_mw_range: bool | None = Field(default=None,
                                     description="in range/LOF of the macro-weapons (E-12)")
    under_template: bool | None = Field(default=None, description="under a barrage template")
    under_centre: bool = Field(default=False,
                               description="a war engine under a template's centre: attacked "
                                           "half its DC times, rounded up (E-W7)")
    reinforced: bool = False
    invulnerable: bool = False
    dc: int | None = Field(default=None, ge=1, le=20, description="a war engine's DC (E-W1)")
    damage: int = Field(default=0, ge=0, le=20, description="damage it has taken")
    void_shields: int = Field(default=0, ge=0, le=12, description="void shields (E-W9)")
    number: int | None = Field(default=None, ge=1,
                               description="entered at the table without a name: its number, "
                                           "shown as 'Unit 3' in the player's language; the "
                                           "name stays the key of question ids")
    group: str | None = Field(default=None,
                              description="units entered together as alike (one line at the "
                                          "table): the hits that could go to any of them are "
                                          "not asked, and their saves are rolled together")

    @model_validator(mode="after")
    def _war_engine(self) -> TargetUnit:
        if (self.type == "WE") != (self.dc is not None):
            raise PydanticCustomError("epic.decl.we_dc", "a war engine, and only one, has a dc")
        if self.dc is not None and self.damage >= self.dc:
            raise PydanticCustomError("epic.decl.we_destroyed",
                                      "damage {damage} destroys it (dc {dc})",
                                      {"damage": self.damage, "dc": self.dc})
        return self

    @property
    def key(self) -> str:
        return weapon_key(self.name)

    @property
    def label(self) -> Msg | str:
        return shown(self.name, self.number, "unit")


class OtherFormation(BaseModel):
    """Another formation caught under the barrage templates (E-15, E-19)."""

    model_config = MODEL_CONFIG

    name: Name
    blast_markers: int | None = Field(default=None, ge=0, le=99, description="left out: asked")
    broken: bool | None = Field(default=None,
                                description="broken for a reason besides its Blast markers "
                                            "(it lost an assault); left out: broken if its "
                                            "Blast markers reach its units, else asked")
    crossfire: int | None = Field(default=None, ge=0, le=9,
                                  description="friendly formations that have this one in "
                                              "crossfire (it depends on where it stands); "
                                              "left out: asked")
    units: list[TargetUnit] = Field(min_length=1, max_length=60)


class Overwatch(BaseModel):
    """What the enemy formation did, for overwatch fire (E-20)."""

    model_config = MODEL_CONFIG

    trigger: Literal["move", "disembark", "shoot", "regroup", "teleport", "counter-charge"]
    enemy_action: str | None = Field(default=None, description="the enemy's action (advance...)")
    after_move: int | None = Field(default=None, ge=0, le=3, description="after which move")
    coherent: bool = Field(default=True, description="every unit within 5 cm of another")


class Situation(BaseModel):
    """Where a roster unit stands in this attack (fields left out are asked)."""

    model_config = MODEL_CONFIG

    distance: float | None = Field(default=None, ge=0)
    nearest_enemy: float | None = Field(default=None, ge=0)
    in_range: bool | None = None
    in_mw_range: bool | None = None
    bearing: float | None = Field(default=None, ge=0, lt=360)
    terrain: TerrainId | None = None
    under_template: bool | None = None


class RosterUnit(BaseModel):
    """A unit of a roster formation: what it shoots with, its saves, and what it fights
    with in an assault (E-A3, E-A15 to E-A18; a war engine's DC and shields, E-W1, E-W9)."""

    model_config = MODEL_CONFIG

    name: Name
    type: Literal["INF", "LV", "AV", "WE"]
    armour: int | None = Field(default=None, ge=2, le=6)
    weapons: list[str] = Field(default_factory=list)
    reinforced: bool = False
    invulnerable: bool = False
    cc: int | None = Field(default=None, ge=2, le=6, description="close combat value")
    ff: int | None = Field(default=None, ge=2, le=6, description="firefight value")
    dc: int | None = Field(default=None, ge=1, le=20, description="a war engine's DC")
    void_shields: int = Field(default=0, ge=0, le=12)
    fearless: bool = False
    inspiring: bool = False
    expendable: bool = False
    leader: bool = False
    supreme_commander: bool = Field(default=False, description="a re-roll of one failed "
                                                               "initiative test a turn (E-T8)")
    first_strike: bool = False
    extra: list[ExtraAttacks] = Field(default_factory=list, max_length=4)


class RosterFormation(BaseModel):
    model_config = MODEL_CONFIG

    name: Name
    weapons: list[Weapon] = Field(default_factory=list)
    units: list[RosterUnit] = Field(min_length=1, max_length=60)
    side: Name | None = Field(default=None, description="its side in a game (referee game)")
    initiative: int | None = Field(default=None, ge=1, le=6,
                                   description="its initiative value, 2 for 2+ (E-T3)")


class Roster(BaseModel):
    """A roster file: formations described once, named in later attacks."""

    model_config = MODEL_CONFIG

    formation: list[RosterFormation] = Field(min_length=1)


class TurnStep(BaseModel):
    """The next step of an Epic turn (``referee epic-turn``): the roster its formations
    come from (else the game file's), ``end_phase`` to end the action phase now, or
    ``regroup`` a formation after its marshal or hold action (E-T5)."""

    model_config = MODEL_CONFIG

    roster: FilePath | None = None
    end_phase: bool = False
    regroup: Name | None = None
    # issue 27: what the game file keeps of the sides (``referee epic-turn`` reads them):
    # each formation's side, and the game's two sides, offered by name when one is asked
    sides: dict[Name, Name] = Field(default_factory=dict, max_length=500)
    side_names: list[Name] = Field(default_factory=list, max_length=2)


class ShootingDeclaration(BaseModel):
    model_config = MODEL_CONFIG

    firing: Name | None = None
    target: Name | None = None
    roster: FilePath | None = Field(default=None, description="a roster file")
    weapons: list[Weapon] = Field(default_factory=list, max_length=30)
    firing_units: list[FiringUnit] = Field(default_factory=list, max_length=60)
    firing_blast_markers: int | None = Field(default=None, ge=0, le=99,
                                             description="left out: asked")
    target_units: list[TargetUnit] = Field(default_factory=list, max_length=60)
    target_blast_markers: int | None = Field(default=None, ge=0, le=99,
                                             description="left out: asked")
    target_broken: bool | None = Field(default=None,
                                       description="broken for a reason besides its Blast "
                                                   "markers (it lost an assault); left out: "
                                                   "broken if its Blast markers reach its "
                                                   "units (E-14), else asked")
    target_on_overwatch: bool = False
    crossfire: int | None = Field(default=None, ge=0, le=9,
                                  description="friendly formations that have the target in "
                                              "crossfire; left out: asked")
    also_under_templates: list[OtherFormation] = Field(default_factory=list, max_length=9)
    overwatch: Overwatch | None = None
    aim: Literal["war-engines", "others"] | None = Field(
        default=None, description="a formation of war engines and other units: which the "
                                  "attack aims at (E-W2); left out: asked")
    takes_overwatch: bool = Field(default=False,
                                  description="the firing formation takes the Overwatch action "
                                              "now: it goes on overwatch, no shot (E-20)")
    situation: dict[str, Situation] = Field(default_factory=dict,
                                            description="roster units' situation, by name")
    by_hand: bool = Field(default=False,
                          description="weapons and target units are asked at the table")
    assault: AssaultDeclaration | None = Field(default=None,
                                               description="an assault (engage action, "
                                                           "E-A1) instead of shooting")
    turn: TurnStep | None = Field(default=None,
                                  description="the next step of the turn kept in the game "
                                              "file (E-T1 to E-T7) instead of an attack")

    @model_validator(mode="after")
    def _consistent(self) -> ShootingDeclaration:
        if self.assault is not None or self.turn is not None:
            if self.weapons or self.target_units or self.firing_units or self.roster:
                raise PydanticCustomError("epic.decl.assault_alone",
                                          "an assault is declared alone, not with shooting")
            return self
        if not self.weapons and self.roster is None and not self.by_hand:
            raise PydanticCustomError("epic.decl.no_weapons", "declare weapons or a roster")
        seen: set[str] = set()
        for w in self.weapons:
            if w.key in seen:
                raise PydanticCustomError("epic.decl.same_name", "two weapons named {name}",
                                          {"name": w.name})
            seen.add(w.key)
        for units in (self.firing_units, self.target_units):
            keys = [u.key for u in units]
            dup = next((u.name for u in units if keys.count(u.key) > 1), None)
            if dup is not None:
                raise PydanticCustomError("epic.decl.same_unit", "two units named {name}",
                                          {"name": dup})
        if not self.full and any(w.barrage is not None for w in self.weapons):
            # (a barrage is placed over the target's units: there is no roll to hit alone)
            raise PydanticCustomError("epic.decl.barrage_needs_units",
                                      "a barrage needs the target's units")
        # with a roster, formations left out are chosen from it at the table
        if self.full and self.roster is None and (self.firing is None or self.target is None):
            raise PydanticCustomError("epic.decl.names", "name the firing and target formations")
        for u in self.firing_units:
            for name in u.weapons:
                if self.weapons and name.casefold() not in {w.name.casefold()
                                                            for w in self.weapons}:
                    raise PydanticCustomError("epic.decl.unknown_weapon",
                                              "{unit} carries {weapon}, not declared",
                                              {"unit": u.name, "weapon": name})
        return self

    @property
    def full(self) -> bool:
        """The whole attack (E-1 to E-14) rather than the roll to hit alone."""
        return bool(self.target_units) or self.roster is not None or self.by_hand

    def weapon(self, name: str) -> Weapon:
        return next(w for w in self.weapons if w.name.casefold() == name.casefold())
