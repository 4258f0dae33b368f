"""Benchmark: Flames of War assault allocation, 40 hits over 25 defending teams.

What it measures
----------------
On one seeded scenario (25 defending teams of every type, some Bogged Down or Bailed Out,
armoured vehicles of several Top armours; 12 hitting teams scoring 40 hits between them, some
with a priority type, each reaching its own random subset of the defenders):

* **allocate + validate**: the referee's work for one assault: the solver's proposal (a
  min-cost flow, ``Allocator.proposal``) and the full validation of that allocation
  (``Allocator.check``: eligibility, evenness and tiers, priority types, Top armour);
* **baseline**: a bare maximum bipartite matching on the same hit-to-team graph
  (``max_matching``), measured in the same run: the floor of any allocation that must at
  least know how many distinct teams can be hit.

Each is timed over fresh objects (no cached proposal) for ``--rounds`` rounds, interleaved;
medians and minima are printed. The target is a median under 100 ms for allocate + validate.
This is a script, not a timed test: run it from the repository root with

    python benchmarks/fow_allocation.py [--rounds 30] [--seed 2024]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.rulesets.fow.flow import max_matching
from referee.rulesets.fow.problem import Hit, Problem, Team
from referee.rulesets.fow.validate import Allocator

TEAMS, HITS, HITTERS = 25, 40, 12
TARGET_MS = 100.0


def scenario(seed: int) -> Problem:
    rng = random.Random(seed)
    teams = []
    for i in range(TEAMS):
        kind = rng.choice(["infantry", "infantry", "infantry", "gun", "tank", "transport"])
        vehicle = kind in ("tank", "transport")
        top = rng.choice([None, 0, 1, 1, 2, 3]) if vehicle else None
        status = rng.choice(["active"] * 3 + ["bogged-down", "bailed-out"]) if vehicle \
            else "active"
        teams.append(Team(f"d{i}", f"Defending team {i}", kind, status, top))
    ids = [t.id for t in teams]
    shares = [1] * HITTERS
    for _ in range(HITS - HITTERS):
        shares[rng.randrange(HITTERS)] += 1
    hits = []
    number = 0
    for h, share in enumerate(shares):
        reach = tuple(sorted(rng.sample(ids, rng.randint(3, 10))))
        priority = rng.choice([None, None, "tank", "infantry", "gun"])
        for _ in range(share):
            number += 1
            hits.append(Hit(number, f"h{h}", reach, priority))
    return Problem(tuple(teams), tuple(hits))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    problem = scenario(args.seed)
    eligible = [h.eligible for h in problem.hits]

    referee_ms: list[float] = []
    baseline_ms: list[float] = []
    options_ms: list[float] = []
    distinct = matched = 0
    for _ in range(args.rounds):
        start = time.perf_counter()
        allocator = Allocator(problem)
        proposal = allocator.proposal
        verdict = allocator.check(proposal)
        referee_ms.append((time.perf_counter() - start) * 1000)
        assert verdict is None, verdict
        distinct = len(set(proposal.values()))

        # one hit-by-hit prompt: the legal teams for hit 2 once hit 1 left the proposal
        first = problem.hits[0]
        other = next((t for t in first.eligible if t != proposal[first.number]), None)
        start = time.perf_counter()
        chosen = {} if other is None else {first.number: other}
        allocator.options(chosen, problem.hits[1].number)
        options_ms.append((time.perf_counter() - start) * 1000)

        start = time.perf_counter()
        matched = max_matching(eligible)
        baseline_ms.append((time.perf_counter() - start) * 1000)
    assert distinct == matched, (distinct, matched)

    ref, base = statistics.median(referee_ms), statistics.median(baseline_ms)
    print(f"scenario: {len(problem.hits)} hits from {HITTERS} teams over {TEAMS} defending "
          f"teams (seed {args.seed}); {distinct} distinct teams hit; {args.rounds} rounds")
    print(f"{'measure':<22} {'median ms':>10} {'min ms':>10}")
    print(f"{'allocate + validate':<22} {ref:>10.2f} {min(referee_ms):>10.2f}")
    print(f"{'one hit-by-hit prompt':<22} {statistics.median(options_ms):>10.2f} "
          f"{min(options_ms):>10.2f}")
    print(f"{'baseline: matching':<22} {base:>10.2f} {min(baseline_ms):>10.2f}")
    print(f"ratio (median): {ref / base:.1f}x the bare matching; target: under "
          f"{TARGET_MS:.0f} ms -> {'met' if ref < TARGET_MS else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
