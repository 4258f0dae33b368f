"""Saving throws (E-11, E-12 and the section-3 special rules), pure arithmetic.

``save_for`` says which save a hit allows a unit: its armour or, for infantry in terrain that
grants one, the better cover save (one or the other, never both); crossfire makes it one worse;
a save needing 7 or more is lost. Macro-weapon hits allow no save except reinforced armour (the
armour save, no re-roll) and an invulnerable save. Ignore-cover weapons negate cover saves.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.rulesets.epic.tables import tables


@dataclass(frozen=True)
class Save:
    """The save a unit rolls against one kind of hit. ``need`` None: no save at all."""

    need: int | None
    source: str  # armour, cover, none, impossible, macro
    reroll: bool = False  # reinforced armour against a non-macro hit
    invulnerable: bool = False
    crossfire: bool = False  # the need includes crossfire's -1

    @property
    def key(self) -> tuple[int | None, str, bool, bool, bool]:
        return (self.need, self.source, self.reroll, self.invulnerable, self.crossfire)


def save_for(*, unit_type: str, armour: int | None, cover_save: int | None, macro: bool,
             ignore_cover: bool, crossfire: bool, reinforced: bool, invulnerable: bool) -> Save:
    t = tables()
    if macro and not reinforced:
        return Save(None, "macro", invulnerable=invulnerable)  # E-12
    best, source = armour, "armour"
    usable_cover = cover_save if unit_type == "INF" and not macro and not ignore_cover else None
    if usable_cover is not None and (best is None or usable_cover < best):
        best, source = usable_cover, "cover"
    if best is None:
        return Save(None, "none", invulnerable=invulnerable)
    need = best - (t.crossfire_save if crossfire else 0)
    if need >= t.save_impossible_from:
        return Save(None, "impossible", invulnerable=invulnerable)
    return Save(need, source, reroll=reinforced and not macro, invulnerable=invulnerable,
                crossfire=crossfire)


def saved(need: int | None, face: int) -> bool:
    """Does ``face`` pass a save needing ``need``? (No save: never.)"""
    return need is not None and face >= need
