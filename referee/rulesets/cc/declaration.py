"""The declaration of one Combat Commander fire attack, as a validated value.

The firing pieces (units, weapons, leaders) with their hexes, FP, Range, distance to the target
and the hindrance on their line of sight; which firing hexes are adjacent; the FP bonuses the
player's cards and the terrain give; the target hex with its units. Geometry is input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from referee.core.text import Msg
from referee.rulesets.cc.words import Nation, piece_key
from referee.rulesets.fields import FilePath, Name

if TYPE_CHECKING:
    from referee.rulesets.cc.roster import Roster



def _numbered(name: str | None, number: int | None) -> None:
    if name is None and number is None:
        raise PydanticCustomError("cc.decl.no_name", "give the piece a name")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FiringPiece(_Model):
    name: Name | None = Field(default=None, description="left out: the piece's number names it")
    number: int | None = Field(default=None, ge=1, le=99,
                               description="typed at the table: its place in the group "
                                           "(its id piece-N, and its label without a name)")
    kind: Literal["unit", "weapon", "leader"] = "unit"
    hex: Name
    fp: int = Field(default=0, ge=0, le=30, description="printed FP on its current side")
    range: int = Field(default=0, ge=0, le=40, description="printed Range")
    distance: int = Field(default=1, ge=0, le=40,
                          description="hexes to the target hex (at least 1: a piece never "
                                      "fires into its own hex)")
    los: bool = True
    hindrance: int = Field(default=0, ge=0, le=20, description="hindrance on its LOS (C-9)")
    white_band: bool = Field(default=False, description="heavy weapon: fires alone (C-7)")
    carrier_broken: bool = Field(default=False, description="weapon: its carrier is broken")
    command: int = Field(default=0, ge=0, le=5, description="leader: printed Command")
    broken: bool = False
    fires: bool = Field(default=True, description="false: a leader present only for Command")
    activated_by: str | None = Field(default=None, description="the leader who activated it")

    @field_validator("distance")
    @classmethod
    def _not_its_own_hex(cls, distance: int) -> int:
        if distance == 0:
            raise PydanticCustomError("cc.decl.distance_zero", "distance 0 is its own hex")
        return distance

    @model_validator(mode="after")
    def _white_band_is_a_weapon(self) -> FiringPiece:
        _numbered(self.name, self.number)
        if self.white_band and self.kind != "weapon":
            raise PydanticCustomError("cc.decl.white_band_weapon",
                                      "only a weapon has a white band")
        return self

    @property
    def key(self) -> str:
        """Its id in question ids: by its number when typed at the table (whatever name it
        was given), else by its name."""
        if self.number is not None:
            return f"piece-{self.number}"
        return piece_key(self.name or "")

    @property
    def label(self) -> Msg | str:
        """What the player reads: its name, or ``piece 3`` (``leader 3``, ``weapon 3``)."""
        if self.name is not None:
            return self.name
        return Msg.of(f"cc.label.{self.kind}", n=self.number)


class FpBonus(_Model):
    source: Literal["down-hill", "sustained-fire", "crossfire", "marksmanship", "other"]
    fp: int = Field(ge=-10, le=10)


class TargetUnit(_Model):
    name: Name | None = Field(default=None, description="left out: the unit's number names it")
    number: int | None = Field(default=None, ge=1, le=99,
                               description="typed at the table: its place in the hex "
                                           "(its id unit-N, and its label without a name)")
    kind: Literal["unit", "leader"] = "unit"
    morale: int = Field(ge=0, le=15)
    broken_morale: int | None = Field(default=None, ge=0, le=15)
    command: int = Field(default=0, ge=0, le=5)
    broken: bool = False
    suppressed: bool = False
    moving: bool = Field(default=False, description="activated for Move (e.g. under Op Fire)")
    vp: int | None = Field(default=None, ge=0, le=20, description="VP if eliminated [7.1]")

    @model_validator(mode="after")
    def _named(self) -> TargetUnit:
        _numbered(self.name, self.number)
        return self

    @property
    def key(self) -> str:
        if self.number is not None:
            return f"unit-{self.number}"
        return piece_key(self.name or "")

    @property
    def label(self) -> Msg | str:
        if self.name is not None:
            return self.name
        return Msg.of(f"cc.label.target_{self.kind}", n=self.number)

    @property
    def data_name(self) -> str:
        """Its name in the outcome's data: the name, or its id when it has none."""
        return self.name if self.name is not None else self.key


class FireDeclaration(_Model):
    attacker: Nation
    defender: Nation
    target_hex: Name | None = Field(default=None,
                                    description="left out: shown as the target hex")
    cover: int = Field(default=0, ge=-5, le=10, description="the target hex's cover (T78.3)")
    firing: list[FiringPiece] = Field(min_length=1, max_length=20)
    adjacent: list[Annotated[list[Name], Field(min_length=2, max_length=2)]] = Field(
        default_factory=list, description="pairs of adjacent firing hexes")
    bonuses: list[FpBonus] = Field(default_factory=list)
    target: list[TargetUnit] = Field(min_length=1, max_length=12)

    @field_validator("firing")
    @classmethod
    def _not_in_the_target_hex(cls, firing: list[FiringPiece],
                               info: ValidationInfo) -> list[FiringPiece]:
        target_hex = info.data.get("target_hex")
        for index, piece in enumerate(firing):
            if target_hex is not None and piece.hex == target_hex:
                raise PydanticCustomError("cc.decl.own_hex",
                                          "{piece} is in the target hex {hex}",
                                          {"piece": piece.name, "hex": piece.hex,
                                           "index": index})
        return firing

    @model_validator(mode="after")
    def _names(self) -> FireDeclaration:
        for group in (self.firing, self.target):
            seen: set[str] = set()
            for piece in group:
                if piece.key in seen:
                    raise PydanticCustomError("cc.decl.same_name", "two pieces named {name}",
                                              {"name": piece.name or piece.key})
                seen.add(piece.key)
        if self.attacker == self.defender:
            raise PydanticCustomError("cc.decl.same_side", "attacker and defender are one")
        if not any(p.fires for p in self.firing):
            raise PydanticCustomError("cc.decl.nobody_fires", "no piece fires")
        return self

    @property
    def shooters(self) -> list[FiringPiece]:
        return [p for p in self.firing if p.fires]

    @property
    def target_label(self) -> Msg | str:
        """The target hex as the player reads it: its name, or ``the target hex``."""
        return self.target_hex if self.target_hex is not None else Msg.of("cc.label.target")


class RosterDeclaration(_Model):
    """``referee attack cc --roster FILE``, or ``roster = FILE`` alone in a script's
    declaration: the pieces come from the roster (read and checked here, before any
    question); the table asks which hexes fire at which hex, who joins, and the situation."""

    roster: FilePath = Field(description="a Combat Commander roster file")
    _loaded: Any = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _read(self) -> RosterDeclaration:
        from referee.rulesets.cc.roster import load_roster

        self._loaded = load_roster(self.roster)
        return self

    @property
    def loaded(self) -> Roster:
        from referee.rulesets.cc.roster import Roster

        assert isinstance(self._loaded, Roster)
        return self._loaded


class Declaration:
    """What a script's ``[declaration]``, ``--declaration`` or ``--roster`` give a CC attack:
    a whole fire declaration, or a roster alone (the model a declaration is validated by)."""

    @staticmethod
    def model_validate(raw: Any, *, strict: bool | None = None,
                       context: dict[str, Any] | None = None
                       ) -> FireDeclaration | RosterDeclaration:
        model: type[FireDeclaration] | type[RosterDeclaration] = (
            RosterDeclaration if isinstance(raw, Mapping) and "roster" in raw
            else FireDeclaration)
        return model.model_validate(raw, strict=strict, context=context)
