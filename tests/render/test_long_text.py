"""Wrapping and measuring are linear in the text (issue 28, case 4): a 1 MB name took 41 s to
print (the stacked table folded a long word by measuring what was left of it again after each
line); 1 KB names were instant. Timing is the benchmark's (``benchmarks/long_names.py``);
here the characters measured are counted, and the linear forms are checked to cut as the old
ones did."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.game import invoke


def _measured(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The characters the renderers measure (``cell_len``), counted."""
    from rich.cells import cell_len

    import referee.render.console
    import referee.render.fast_table
    import referee.render.stacked

    counted = [0]

    def counting_cell_len(text: str, *args: Any) -> int:
        counted[0] += len(text)
        return cell_len(text, *args)

    for module in (referee.render.console, referee.render.fast_table, referee.render.stacked):
        monkeypatch.setattr(module, "cell_len", counting_cell_len)
    return counted


@pytest.mark.parametrize("size", [1_000, 100_000])
def test_a_long_name_is_measured_a_few_times_not_once_a_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    """Case 4: a 1 MB name took 41 s to print (quadratic); 1 KB names were instant. The
    characters measured grow with the name, not with its square."""
    name = "x" * size
    path = tmp_path / "long.toml"
    path.write_text('ruleset = "epic"\nroll_missing_dice = true\nseed = 1\n[declaration]\n'
                    f'firing = "{name}"\ntarget = "Red Hill Battery (invented)"\n'
                    '[[declaration.weapons]]\nname = "Cannon"\nshots = 3\nap = 5\nat = 4\n'
                    '[answers]\naction = "double"\ncover = true\n"fire-type.cannon" = "at"\n',
                    encoding="utf-8")
    counted = _measured(monkeypatch)
    code, out, err = invoke(["run", str(path), "--no-odds"])
    assert code == 0, err
    assert out.count("x" * 100) >= size // 120  # the name is shown whole, folded
    assert counted[0] <= 60 * size + 200_000, counted[0]


def _old_wrap(text: str, width: int) -> list[str]:
    """The wrap before this issue (one word measured again after each piece folded off)."""
    from rich.cells import cell_len

    def fit(word: str, width: int) -> int:
        cells = 0
        for i, char in enumerate(word):
            cells += cell_len(char)
            if cells > width:
                return max(i, 1)
        return len(word)

    width = max(width, 1)
    out: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            while cell_len(word) > width:
                if line:
                    out.append(line)
                    line = ""
                cut = fit(word, width)
                out.append(word[:cut])
                word = word[cut:]
            if not line:
                line = word
            elif cell_len(line) + 1 + cell_len(word) <= width:
                line += " " + word
            else:
                out.append(line)
                line = word
        out.append(line)
    return out


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet=st.sampled_from([*"ab cd\nЖ字é ", "ｗ", "\u0301"]),
                    max_size=60), width=st.integers(2, 12))
def test_the_linear_wrap_cuts_as_the_old_one_did(text: str, width: int) -> None:
    """(At least two cells: narrower, a wide character alone overflows its line, and the old
    wrap wrote an empty line after it.)"""
    from referee.render.stacked import wrap

    assert wrap(text, width) == _old_wrap(text, width)


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_the_grid_narrows_its_columns_as_a_cell_at_a_time_did(data: Any) -> None:
    """``stacked.grid_widths`` takes the excess from the widest columns at once, as the old
    loop did a cell at a time (the excess of a long name is its length)."""
    from referee.render.stacked import _narrowed

    count = data.draw(st.integers(1, 6))
    lengths = [data.draw(st.integers(0, 40)) for _ in range(count)]
    least = [data.draw(st.integers(0, n)) for n in lengths]
    room = sum(n - low for n, low in zip(lengths, least, strict=True))
    excess = data.draw(st.integers(0, room))
    widths = list(lengths)
    for _ in range(excess):
        i = max((i for i in range(count) if widths[i] > least[i]), key=lambda i: widths[i])
        widths[i] -= 1
    assert _narrowed(lengths, least, excess) == widths
