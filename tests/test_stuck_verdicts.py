"""Issue 24: no verdict proved before may change.  Search 2026-12-03b prunes the positions the
stuck-card test proves dead (:mod:`decks.solver.stuck`) in Klondike, Klondike (flip 3), Klondike
(online rules) and La Belle Lucie, so their records of the search with restarts were made again;
``tests/data/stuck-verdicts-2026-12-03.json`` keeps every verdict the records of docs/ had proved for
those games before (any search: the baseline, 30 November, 1 December).  A win is a replayed line of
play, so pruning cannot turn it into a loss unless the test is unsound; a deal lost must stay lost."""

from __future__ import annotations

from collections import Counter

import pytest
from verdicts import decided_records, old_verdicts

from decks import engine, solver

OLD = old_verdicts("stuck-verdicts-2026-12-03.json")
VERDICTS = {(r["game"], r["deal"]): r["verdict"] for r in OLD}
CHEAP = 10_000
"""Old verdicts proved within this many positions are proved again here (within :data:`LIMIT`)."""
LIMIT = 50_000


def test_the_old_verdicts_are_all_kept():
    assert Counter((g, v) for (g, _), v in VERDICTS.items()) == {
        ("klondike", "won"): 19, ("klondike", "lost"): 55, ("klondike-flip3", "won"): 69,
        ("klondike-flip3", "lost"): 13, ("klondike-online", "won"): 13, ("la-belle-lucie", "won"): 100}


def test_no_record_contradicts_an_old_verdict():
    """Every record of docs/ (today's search among them) that decides one of these deals agrees."""
    compared = 0
    for name, r, new in decided_records():
        old = VERDICTS.get((r.get("game"), r.get("deal")))
        if old is not None:
            assert new == old, (name, r["game"], r["deal"])
            compared += 1
    assert compared >= 600


def _cheap(verdict: str) -> list[tuple[str, int]]:
    return sorted((r["game"], r["deal"]) for r in OLD
                  if r["verdict"] == verdict and r["nodes"] <= CHEAP)


@pytest.mark.parametrize(("game", "deal"), _cheap("lost"))
def test_a_deal_proved_lost_cheaply_is_lost_again(game, deal):
    result = solver.solve(engine.deal(game, deal), LIMIT)
    assert result.status == solver.EXHAUSTED, (game, deal, result.status)


@pytest.mark.parametrize(("game", "deal"), _cheap("won")[::4])
def test_a_deal_won_cheaply_is_won_again_and_replays(game, deal):
    """Every fourth of the old wins found within CHEAP positions."""
    result = solver.solve(engine.deal(game, deal), LIMIT)
    assert result.won, (game, deal, result.status)
    assert engine.is_won(engine.replay(game, deal, {}, result.moves))
