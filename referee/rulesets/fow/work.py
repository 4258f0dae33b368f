"""A count of the allocation's work, kept by the graph code itself: shortest-path searches,
the arcs they scan, and the flow augmentations. Not a timer: the same assault costs the same
counts on any machine, so a test can bound them (an accidental exponential fails there
deterministically, not as a slow run).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass
class Work:
    searches: int = 0  # shortest-path searches (Dijkstra, Bellman-Ford rounds) run
    arcs: int = 0  # arcs those searches scanned
    augmentations: int = 0  # flow pushes along an augmenting path
    completions: int = 0  # full completion searches (Allocator.legal_completion)


WORK = Work()
"""The running count (module-global: the graph code adds to it wherever it is called)."""


@contextmanager
def counting() -> Iterator[Work]:
    """The work done inside the ``with`` block, as a fresh ``Work`` value."""
    before = Work(**vars(WORK))
    done = Work()
    try:
        yield done
    finally:
        for name in vars(done):
            setattr(done, name, getattr(WORK, name) - getattr(before, name))
