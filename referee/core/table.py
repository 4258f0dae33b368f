"""A table of the working (shots, hits, allocation...) or of a rule lookup, as data."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

from referee.core.text import Msg, jsonable

if TYPE_CHECKING:
    from referee.core.dice import DiceRoll


@dataclass(frozen=True, slots=True)
class Shown:
    """A cell with a value of its own and the text it shows: ``Shown(8, "8+")``,
    ``Shown(Fraction(1, 18), "5.6%")``, ``Shown("double", Msg.of("epic.action.double"))``.
    The console shows ``text`` (a string, a message, or a tuple of messages), JSON writes
    ``value`` (a number, a Fraction, an id, None, or a list or mapping of these)."""

    value: Any
    text: Any


class Summary(NamedTuple):
    """How a table of one row per item (an allocation's hits) is shown at the table when it
    is long (``render.console.SUMMARY_ROWS``): its rows counted by the value of the column
    ``by`` (``total`` names the count), in a column per value of the column ``split`` (none:
    the count alone). ``--json`` keeps every row."""

    by: int
    total: Msg
    split: int | None = None


NOTHING = Shown(None, "-")
"""A cell that stands for nothing: ``null`` in JSON, ``-`` in the table."""


def as_need(number: int) -> Shown:
    """A need on the dice: ``4`` shown as ``4+``."""
    return Shown(number, f"{number}+")


def as_signed(number: int) -> Shown:
    """A modifier (or a count added): ``1`` shown as ``+1``, ``0`` as ``+0``."""
    return Shown(number, f"{number:+d}")


def dice_value(roll: DiceRoll) -> Any:
    """A roll's dice as a cell's value: the faces, or ``{"successes": 3}`` when only the
    count of successes was typed (``=3``)."""
    return list(roll.faces) if roll.faces is not None else {"successes": roll.successes}


def dice_text(roll: DiceRoll) -> str:
    """A roll's dice as a table shows them: ``5 6 2``, or ``=3`` for a count typed alone."""
    return " ".join(map(str, roll.faces)) if roll.faces is not None else f"={roll.successes}"


def as_dice(roll: DiceRoll) -> Shown:
    """A roll's dice as a cell (see ``dice_value`` and ``dice_text``)."""
    return Shown(dice_value(roll), dice_text(roll))


class Table(NamedTuple):
    """``keys``: the columns' English keys in JSON; by default the last part of each
    column's message id (``epic.col.need`` -> ``need``)."""

    title: Msg
    columns: tuple[Msg, ...]
    rows: tuple[tuple[Any, ...], ...]
    clause: str | None = None
    keys: tuple[str, ...] = ()
    summary: Summary | None = None

    def column_keys(self) -> tuple[str, ...]:
        if self.keys:
            return self.keys
        return tuple(column.id.rpartition(".")[2] for column in self.columns)

    def to_json(self) -> dict[str, Any]:
        """The table as stored in a game file's log: messages as ids and parameters, a cell
        with a value of its own as that value."""
        return {"title": jsonable(self.title), "clause": self.clause,
                "columns": jsonable(self.columns),
                "rows": [[_stored(cell) for cell in row] for row in self.rows]}


def _stored(cell: Any) -> Any:
    if isinstance(cell, Shown):
        cell = cell.value
    if isinstance(cell, Fraction):
        return str(cell)
    return jsonable(cell)
