"""Issue 24: no verdict proved before may change.  Search 2026-12-03d restarts King Albert over a
best-first order and the new one (:data:`decks.games.king_albert.KING_ORDERS`), and 2026-12-03e changes
that order's measure, so its records of the search with restarts were made again each time;
``tests/data/king-albert-verdicts-2026-12-03.json`` keeps every verdict the records of docs/ had
proved for it before (any search: the baseline, 30 November, 1 December).
A move order decides only which line is tried first: a win is a replayed line of play, and a loss
is every position reachable searched, so neither may turn into the other."""

from __future__ import annotations

from collections import Counter

import pytest
from verdicts import decided_records, old_verdicts

from decks import engine, solver

OLD = old_verdicts("king-albert-verdicts-2026-12-03.json")
VERDICTS = {r["deal"]: r["verdict"] for r in OLD}
CHEAP = 10_000
"""Old verdicts proved within this many positions are proved again here (within :data:`LIMIT`)."""
LIMIT = 50_000


def test_the_old_verdicts_are_all_kept():
    assert Counter(VERDICTS.values()) == {"won": 60, "lost": 29}


def test_no_record_contradicts_an_old_verdict():
    """Every record of docs/ of King Albert (today's search among them) that decides a deal agrees."""
    compared = 0
    for name, r, new in decided_records():
        old = VERDICTS.get(r["deal"]) if r.get("game") == "king-albert" else None
        if old is not None:
            assert new == old, (name, r["deal"])
            compared += 1
    assert compared >= 400


def _cheap(verdict: str) -> list[int]:
    return sorted(r["deal"] for r in OLD if r["verdict"] == verdict and r["nodes"] <= CHEAP)


@pytest.mark.parametrize("deal", _cheap("lost"))
def test_a_deal_proved_lost_cheaply_is_lost_again(deal):
    result = solver.solve(engine.deal("king-albert", deal), LIMIT)
    assert result.status == solver.EXHAUSTED, (deal, result.status)


@pytest.mark.parametrize("deal", _cheap("won")[::3])
def test_a_deal_won_cheaply_is_won_again_and_replays(deal):
    """Every third of the old wins found within CHEAP positions."""
    result = solver.solve(engine.deal("king-albert", deal), LIMIT)
    assert result.won, (deal, result.status)
    assert engine.is_won(engine.replay("king-albert", deal, {}, result.moves))
