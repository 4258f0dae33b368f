"""Odds cases of Combat Commander: the targeting roll (C-1), the fire roll (C-10) and a
defence roll (C-4, C-5), each a Fate card drawn without replacement from a 72-card deck.

``ours`` is the report the attack shows before the card (the roll's exact distribution from
the cards left, the fire card's trigger chances, each target unit's end state); ``bare`` is
the dyce computation of the same query with the cards drawn as the decks draw them, without
replacement: the roll's own distribution (``odds_bench.bare_roll``) and the first unit's
result (the attack total less its defence total, whose sign breaks or suppresses; after a
targeting card that hits, for the ordnance), each later card drawn from the cards the earlier
ones left in their deck (``dyce.evaluation.aggregate_weighted`` over them). ``check``: ours
agrees with it. ``RUNS`` are whole attacks, every roll timed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from dyce import H
from dyce.evaluation import aggregate_weighted
from odds_bench import Case, Run, bare_roll

from referee.core.text import Msg
from referee.rulesets.cc import odds
from referee.rulesets.cc.deck import FateCardQuestion, edition, parse_key

DECKS = edition("cc_20th")
GERMANY: tuple[str, ...] = DECKS.composition("germany") or ()
AMERICA: tuple[str, ...] = DECKS.composition("america") or ()
MISS = -100  # the outcome of a targeting card that misses: no fire roll


def _question(qid: str, remaining: tuple[str, ...] = GERMANY) -> FateCardQuestion:
    return FateCardQuestion(id=qid, text=Msg.of("cc.q.fire", nation="germany", fp=0),
                            nation="germany", edition_id="cc_20th", composition=GERMANY,
                            remaining=remaining)


def _unit(name: str, leader: bool = False, **kw: Any) -> dict[str, Any]:
    return {"key": name.casefold(), "name": name, "kind": "leader" if leader else "unit",
            "morale": 8 if leader else 6, "broken_morale": 7 if leader else 8,
            "command": 1 if leader else 0, "broken": False, "suppressed": False,
            "moving": False, **kw}


def _facts(units: list[dict[str, Any]], same: bool = False) -> dict[str, Any]:
    order = [u["key"] for u in units if u["kind"] != "leader"] + \
        [u["key"] for u in units if u["kind"] == "leader"]
    return {"units": tuple(units), "order": tuple(order),
            "rules": {"cover": 1, "suppressed_tie": "stays-suppressed",
                      "command_from": "highest", "leader_commands_self": True},
            "defence": {"nation": "germany" if same else "america", "same": same,
                        "remaining": GERMANY[5:] if same else AMERICA,
                        "full": GERMANY if same else AMERICA}}


SQUAD = [_unit("Squad")]
HEX = [_unit("Squad"), _unit("Team", broken=True), _unit("Sgt", True)]
TWO_LEADERS = [_unit("Squad"), _unit("Lt", True, command=2), _unit("Sgt", True)]
THREE_LEADERS = [_unit("Squad"), _unit("Cpt", True, command=2), _unit("Lt", True, command=1),
                 _unit("Sgt", True, command=2), _unit("Cpl", True)]
TWELVE = [_unit(f"L{i}", True, command=1 + i % 3) for i in range(12)]


# -- the bare queries: dyce, the cards drawn without replacement -----------------------------
def _cards(keys: tuple[str, ...], value: Callable[[int, int], int]) -> Counter[int]:
    out: Counter[int] = Counter()
    for key in keys:
        (a, b), _ = parse_key(key)
        out[value(a, b)] += 1
    return out


def _less(cards: Counter[int], total: int) -> Counter[int]:
    out = Counter(cards)
    out[total] -= 1
    return +out


def _versus(fp: int, morale: int, attacker: tuple[str, ...], defence: tuple[str, ...] | None
            ) -> H:
    """Attack total less the first unit's defence total (> 0 breaks, 0 suppresses): the fire
    card from ``attacker``, the defence card from ``defence`` (none: the same deck, after
    the fire card)."""
    fire = _cards(attacker, lambda a, b: a + b)
    if defence is not None:
        return H({fp + t: n for t, n in fire.items()}) - \
            H({morale + t: n for t, n in _cards(defence, lambda a, b: a + b).items()})
    return aggregate_weighted((fp + t - H({morale + d: m for d, m in _less(fire, t).items()}),
                               n) for t, n in fire.items())


def _ordnance(threshold: int, fp: int, morale: int, deck: tuple[str, ...]) -> H:
    """The targeting card, then (if its product hits) the fire card and the first unit's
    defence card, all three from one deck."""
    cards = _cards(deck, lambda a, b: 100 * a * b + a + b)  # product and total in one key
    parts = []
    for key, n in cards.items():
        product = key // 100
        if product <= threshold:
            parts.append((H({MISS: 1}), n))
            continue
        left = _less(cards, key)
        totals: Counter[int] = Counter()
        for k, m in left.items():
            totals[k % 100] += m
        parts.append((aggregate_weighted(
            (fp + t - H({morale + d: c for d, c in _less(totals, t).items()}), m)
            for t, m in totals.items()), n))
    return aggregate_weighted(parts)


def _agrees(first: str, threshold: bool = False) -> Callable[[Any, Any], bool]:
    """Ours shows the bare roll (``[0]``) and the first unit's chances of breaking and of
    being suppressed (``[1]``; and the targeting card's chance to hit)."""
    def check(report: Any, bare: tuple[H, H]) -> bool:
        roll, versus = bare
        ends = {e.label: e.value for e in report.end_states}
        p = dict(versus.probability_items())
        broken = sum((v for k, v in p.items() if k > 0), Fraction(0))
        tie = p.get(0, Fraction(0))
        shown = {k: v for k, v in report.dist.items()}
        offset = min(shown) - min(k for k, _ in roll.probability_items())
        same_roll = shown == {k + offset: v for k, v in roll.probability_items()}
        unit_ok = (ends[odds._label(_u(first), odds.Result.BROKEN)] == broken and
                   ends[odds._label(_u(first), odds.Result.SUPPRESSED)] == tie)
        hit_ok = not threshold or ends[Msg.of("cc.odds.end.hit")] == 1 - p.get(MISS, 0)
        return same_roll and unit_ok and hit_ok
    return check


def _u(name: str) -> odds.Unit:
    return odds.Unit(name.casefold(), name, "unit", 0, None, 0, False, False, False)


# -- the cases -------------------------------------------------------------------------------
def _fire(fp: int, units: list[dict[str, Any]], same: bool = False) -> object:
    return odds.fire(_question("fire"), fp=fp, weapons=("LMG",), **_facts(units, same))


def _targeting(units: list[dict[str, Any]], same: bool) -> object:
    return odds.targeting(_question("targeting"), piece="Mortar", distance=4, hindrance=2,
                          fp=6, **_facts(units, same))


def _defence(units: list[dict[str, Any]]) -> object:
    facts = _facts(units)
    return odds.defence(_question("defence.squad", AMERICA[3:]), attack=15, morale=8,
                        unit="squad", **facts)


def _fresh(fn: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        from referee.rulesets.cc import odds_walk

        odds_walk.fresh()  # each step from cold: nothing kept from a roll before
        return fn()
    return run


def _fire_case(name: str, typical: bool, fp: int, units: list[dict[str, Any]],
               morale: int) -> Case:
    return Case(name, typical, _fresh(lambda: _fire(fp, units)),
                lambda: (bare_roll(_question("fire")), _versus(fp, morale, GERMANY, AMERICA)),
                _agrees(units[0]["name"]))


def _targeting_case(name: str, typical: bool, units: list[dict[str, Any]], morale: int
                    ) -> Case:
    return Case(name, typical, _fresh(lambda: _targeting(units, True)),
                lambda: (bare_roll(_question("targeting")),
                         _ordnance(4 + 2, 6, morale, GERMANY)),
                _agrees(units[0]["name"], threshold=True))


def _defence_check(report: Any, bare: H) -> bool:
    """The roll is the defence total of the cards left; its chance to fall below the
    attack is the unit's chance to break."""
    ends = {e.label: e.value for e in report.end_states}
    p = dict(bare.probability_items())
    below = sum((v for k, v in p.items() if k < 15), Fraction(0))
    return (dict(report.dist.items()) == p and
            ends[odds._label(_u("Squad"), odds.Result.BROKEN)] == below)


CASES = [
    _fire_case("cc: fire roll, 1 unit (trigger chances, broken/suppressed)", True, 7, SQUAD,
               6 + 1),
    _fire_case("cc: fire roll, squad + broken team + sergeant", True, 7, HEX, 6 + 1 + 1),
    Case("cc: defence roll, 3 units, 69 cards left", True, _fresh(lambda: _defence(HEX)),
         lambda: H({8 + t: n for t, n in _cards(AMERICA[3:], lambda a, b: a + b).items()}),
         _defence_check),
    _targeting_case("cc: targeting roll, then fire and defence from one deck, 3 units", True,
                    HEX, 6 + 1 + 1),
    _fire_case("cc: fire roll, a squad and two leaders", False, 7, TWO_LEADERS, 6 + 1 + 2),
    _targeting_case("cc: targeting roll, one deck, a squad and two leaders", False,
                    TWO_LEADERS, 6 + 1 + 2),
    _fire_case("cc: fire roll, four leaders (exact: was simulated past two)", False, 7,
               THREE_LEADERS, 6 + 1 + 2),
    Case("cc: targeting roll, one deck, 12 leaders (largest)", False,
         _fresh(lambda: _targeting(TWELVE, True)),
         lambda: (bare_roll(_question("targeting")), _ordnance(6, 6, 8 + 1 + 3, GERMANY)),
         _agrees("L0", threshold=True)),
]


def _fresh_walk() -> None:
    from referee.rulesets.cc import odds_walk

    odds_walk.fresh()


def _target(name: str, leader: bool = False, command: int = 0) -> dict[str, Any]:
    return {"name": name, "kind": "leader" if leader else "unit",
            "morale": 8 if leader else 6, "broken_morale": 7 if leader else 8,
            "command": command}


def _declaration(firing: dict[str, Any], target: list[dict[str, Any]]) -> dict[str, Any]:
    return {"attacker": "germany", "defender": "america", "target_hex": "N6",
            "firing": [firing], "target": target}


RIFLES = {"name": "Rifle squad", "hex": "K9", "fp": 12, "range": 6, "distance": 2}
MORTAR = {"name": "Mortar", "kind": "weapon", "white_band": True, "hex": "K9", "fp": 6,
          "range": 12, "distance": 3}
LEADERS = [_target(f"Sgt {i}", True, 1 + i % 3) for i in range(12)]
RUNS = [
    Run("cc: a squad and 4 leaders", "cc",
        _declaration(RIFLES, [_target("US squad"), *LEADERS[:4]]), fresh=_fresh_walk),
    Run("cc: 12 leaders (the declaration's limit)", "cc", _declaration(RIFLES, LEADERS),
        fresh=_fresh_walk),
    Run("cc: ordnance at 12 leaders, one deck", "cc", _declaration(MORTAR, LEADERS),
        options=("defence-deck=attacker",), fresh=_fresh_walk),
]
