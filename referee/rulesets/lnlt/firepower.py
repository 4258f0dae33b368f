"""The firepower of one fire (brief section 3, 5.2) and what Ops Complete changes
(L-12, L-13, L-14): pure arithmetic over the firing units, with the clause of each step.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from referee.core.options import Options
from referee.core.table import Shown
from referee.core.text import Msg
from referee.rulesets.lnlt.roster import SupportWeapon, Unit
from referee.rulesets.lnlt.tables import half_up, tables


class FireKind(StrEnum):
    NORMAL = "normal"  # fire by units free of markers, in their own impulse
    OP_FIRE = "op-fire"  # opportunity fire at a moving enemy (5.3)
    SPOTTED = "spotted"  # L-14: at the hex spotted this impulse, full FP


@dataclass(frozen=True)
class Component:
    """One thing that fires: a unit's IFP (``sw`` None) or one of its support weapons."""

    unit: Unit
    sw: SupportWeapon | None = None

    @property
    def key(self) -> str:
        return self.unit.id if self.sw is None else f"{self.unit.id}.{self.sw.id}"

    @property
    def oft(self) -> bool:
        return self.sw is not None and self.sw.kind == "oft"


@dataclass(frozen=True)
class FpRow:
    source: str
    base: int
    steps: tuple[Msg, ...]
    value: int
    clause: str


@dataclass(frozen=True)
class OftShot:
    component: Component
    drm: int
    clause: str


@dataclass(frozen=True)
class FpBuild:
    rows: tuple[FpRow, ...]
    moved_bonus: int
    total: int
    oft: tuple[OftShot, ...]


def ops_complete_applies(unit: Unit, kind: FireKind) -> bool:
    """L-12/L-13 reductions: a unit under Ops Complete, except at its spotted hex (L-14)."""
    return "ops-complete" in unit.markers and kind is not FireKind.SPOTTED


def steps_cell(steps: tuple[Msg, ...]) -> Shown:
    """A firepower row's steps as a table cell: each step's id (``lead``, ``ops_half``,
    ``sw_full``...) and the firepower after it (``null`` for a step that only notes), shown
    as the steps' text (``-``: none)."""
    return Shown([{"step": m.id.rpartition(".")[2], "fp": m.kwargs.get("fp")} for m in steps],
                 steps or "-")


def _ifp_row(unit: Unit, lead: bool, kind: FireKind, options: Options) -> FpRow:
    t = tables()
    value, steps, clause = unit.ifp, [], "L-5"
    if ops_complete_applies(unit, kind) and unit.kind == "vehicle":
        # L-13, not L-12 (written for MMCs): a vehicle's own firepower is its MGs, at half
        # FP rounded up under Ops Complete
        clause = "L-13"
        value = half_up(value)
        steps.append(Msg.of("lnlt.fp.vehicle_mg_half", fp=value))
    elif ops_complete_applies(unit, kind):
        clause = "L-12"
        if options["ops-complete-op-fire"] == "minus-one":
            value += t.ops_mmc_ifp
            steps.append(Msg.of("lnlt.fp.ops_minus", value=f"{t.ops_mmc_ifp:+d}", fp=value))
        else:
            value = half_up(value)
            steps.append(Msg.of("lnlt.fp.ops_half", fp=value))
    elif "ops-complete" in unit.markers:
        clause = "L-14"
        steps.append(Msg.of("lnlt.fp.spotted_full", fp=value))
    if lead:
        steps.append(Msg.of("lnlt.fp.lead", fp=value))
    else:
        value = half_up(value)
        steps.append(Msg.of("lnlt.fp.other_half", fp=value))
        if unit.kind == "smc":
            steps.append(Msg.of("lnlt.fp.smc_half_note"))
    return FpRow(unit.label, unit.ifp, tuple(steps), value, clause)


def _sw_row(comp: Component, kind: FireKind, options: Options) -> FpRow:
    assert comp.sw is not None
    sw, unit = comp.sw, comp.unit
    value, steps, clause = sw.fp, [], "L-5"
    if ops_complete_applies(unit, kind):
        halved = (sw.kind == "mg" if unit.kind == "vehicle" else
                  sw.kind in (("mg",) if options["ops-complete-sw-halving"] == "mg-only"
                              else tables().ops_sw_halved))
        if halved:
            value = half_up(value)
            steps.append(Msg.of("lnlt.fp.sw_half", fp=value))
            clause = "L-13"
        else:
            steps.append(Msg.of("lnlt.fp.sw_not_halved", kind=Msg.of(f"lnlt.sw.{sw.kind}")))
            clause = "L-13"
    elif "ops-complete" in unit.markers:
        clause = "L-14"
        steps.append(Msg.of("lnlt.fp.spotted_full", fp=value))
    steps.append(Msg.of("lnlt.fp.sw_full"))
    return FpRow(f"{sw.label} ({unit.label})", sw.fp, tuple(steps), value, clause)


def build_fp(components: list[Component], lead: str | None, *, kind: FireKind,
             target_moved: bool, options: Options) -> FpBuild:
    """The FP of one fire: ``lead`` is the id of the unit firing at full IFP (5.2)."""
    t = tables()
    rows: list[FpRow] = []
    oft: list[OftShot] = []
    for comp in components:
        if comp.oft:
            drm = t.ops_oft_drm if ops_complete_applies(comp.unit, kind) else 0
            oft.append(OftShot(comp, drm, "L-13" if drm else "L-6"))
        elif comp.sw is None:
            rows.append(_ifp_row(comp.unit, comp.unit.id == lead, kind, options))
        else:
            rows.append(_sw_row(comp, kind, options))
    bonus = t.moved_target if target_moved and rows else 0
    return FpBuild(tuple(rows), bonus, sum(r.value for r in rows) + bonus, tuple(oft))
