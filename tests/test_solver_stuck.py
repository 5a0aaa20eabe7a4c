"""The dead-position test of stuck cards (:mod:`decks.solver.stuck`): sound along winning lines of
many deals, and it finds dead positions made by hand (and lets live ones through, among them the
face-up build an earlier attempt wrongly held immovable)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from decks import engine, solver
from decks.solver.moves import Model
from decks.solver.position import Pos
from decks.solver.stuck import Stuck
from tools.record_won_lines import GAMES

DATA = Path(__file__).resolve().parent / "data" / "stuck-won-lines.json"
LINES = json.loads(DATA.read_text(encoding="utf-8"))
RANKS = "A23456789TJQK"


def test_the_test_applies_to_the_games_whose_lines_are_recorded():
    applies = {g for g in engine.game_names() if Stuck(Model(engine.deal(g, 1))).applies}
    assert applies == set(GAMES)
    assert LINES["prune_stuck"] is False     # lines from the search without the test


@pytest.mark.parametrize("game", GAMES)
def test_no_position_of_a_winning_line_is_dead(game):
    """Every position of every recorded win (deals 1-60, found without the test) is live."""
    lines = [r for r in LINES["lines"] if r["game"] == game]
    assert len(lines) >= {"klondike": 5}.get(game, 30)
    checked = 0
    for r in lines:
        state = engine.deal(game, r["deal"])
        model = Model(state)
        stuck = Stuck(model)
        for move in [None, *engine.parse_moves(r["moves"])]:
            if move is not None:
                state = engine.apply(state, move)
            assert not stuck.dead(model.pos(state)), (game, r["deal"], checked, move)
            checked += 1
        assert engine.is_won(state)
    assert checked >= 500


def test_the_lines_catch_the_error_of_the_earlier_attempt():
    """The check can fail: a test that judges the face-up cards above a build's head as cards that
    cannot move (as an earlier attempt did) calls positions on these winning lines dead."""
    caught = 0
    for r in LINES["lines"]:
        if r["game"] != "klondike-flip3":
            continue
        state = engine.deal(r["game"], r["deal"])
        model = Model(state)
        stuck = Stuck(model)
        stuck.heads_only = False
        stuck.relaxed = False                # (the relaxed test would answer first: flip 3 redeals)
        for move in engine.parse_moves(r["moves"]):
            state = engine.apply(state, move)
            if stuck.dead(model.pos(state)):
                caught += 1
                break
    assert caught >= 10


def position(game: str, tableau: dict[str, tuple[str, int]], home: str = "", waste: str = "",
             redeals: int = 0) -> tuple[Stuck, Pos]:
    """A position made by hand: tableau piles (cards bottom to top, face-down count), foundations
    (``"H6 DT"``: hearts up to the 6, diamonds to the 10), the waste (bottom to top) and redeals
    made.  Cards left out lie nowhere the test looks: it takes them as possibly free."""
    state = engine.deal(game, 1)
    m = Model(state)
    code = {str(c): c.code for c in m.cards.values()}
    piles, hidden = [b""] * len(m.names), [0] * len(m.names)
    for name, (cards, down) in tableau.items():
        piles[m.index[name]] = bytes(code[c] for c in cards.split())
        hidden[m.index[name]] = down
    for f, (suit, top) in zip(m.fnd, home.split(), strict=False):
        piles[f] = bytes(code[RANKS[r] + suit] for r in range(RANKS.index(top) + 1))
    if m.waste is not None:
        piles[m.waste] = bytes(code[c] for c in waste.split())
    start = m.pos(state)
    return Stuck(m), Pos(tuple(piles), tuple(hidden), redeals, start.counters, start.rng)


def test_la_belle_lucie_a_card_over_its_next_and_a_lower_card_of_its_suit():
    """The 6 of spades lies on the 7 (its only target) and the 3: it can only go home, after the 3."""
    stuck, p = position("la-belle-lucie", {"t1": ("3S 7S 6S", 0), "t2": ("KH", 0)}, redeals=2)
    assert stuck.dead(p)
    stuck, p = position("la-belle-lucie", {"t1": ("3S 7S 6S", 0), "t2": ("KH", 0)}, redeals=1)
    assert not stuck.dead(p)                 # a redeal is left: nothing is judged
    stuck, p = position("la-belle-lucie", {"t1": ("3S 6S", 0), "t2": ("7S", 0)}, redeals=2)
    assert not stuck.dead(p)                 # the 6 may go onto the 7, freeing the 3


def test_la_belle_lucie_a_cycle_across_two_fans():
    """The 4 of hearts (on the 5) covers the 2 of spades; the 5 of spades (on the 6) covers the 3 of
    hearts: each must go home before the other."""
    stuck, p = position("la-belle-lucie", {"t1": ("2S 5H 4H", 0), "t2": ("3H 6S 5S", 0)}, redeals=2)
    assert stuck.dead(p)
    stuck, p = position("la-belle-lucie", {"t1": ("2S 5H 4H", 0), "t2": ("3H 5S", 0), "t3": ("6S", 0)},
                        redeals=2)
    assert not stuck.dead(p)


def test_klondike_a_head_with_no_target_over_a_lower_card_of_its_suit():
    """Both red tens are home: the 9 of spades leaves only for home, after the 4 it covers."""
    stuck, p = position("klondike-flip3", {"t1": ("4S 9S", 1)}, home="HT DT")
    assert stuck.dead(p)
    stuck, p = position("klondike-flip3", {"t1": ("4S 9S", 1)}, home="HT D9")
    assert not stuck.dead(p)                 # the ten of diamonds may still take it


def test_klondike_cards_above_the_head_of_a_build_are_not_stuck():
    """The 8 of spades has no target (the 9 of hearts lies under it, the 9 of diamonds is home), but
    it moves with its build, headed by the 9 of hearts, onto a black ten: the 5 under them can come
    free.  (An earlier attempt held such cards immovable and lost won deals.)"""
    stuck, p = position("klondike-flip3", {"t1": ("5S 9H 8S", 1), "t2": ("TC", 0)}, home="D9")
    assert not stuck.dead(p)
    stuck, p = position("klondike", {"t1": ("5S 9H 8S", 1)}, home="D9", waste="TC")
    assert not stuck.dead(p)                 # a ten in the waste may come out to take the build


def test_klondike_the_waste_once_no_redeal_is_left():
    """Draw one, no redeal: the 5 of spades has no target (both red sixes home) and lies on the 3."""
    stuck, p = position("klondike", {}, home="H6 D6", waste="3S 7D 5S")
    assert stuck.dead(p)
    stuck, p = position("klondike-flip3", {}, home="H6 D6", waste="3S 7D 5S")
    assert not stuck.dead(p)                 # unlimited redeals: the waste comes round again


def test_klondike_a_hand_card_that_can_never_reach_the_tableau_is_no_target():
    """The ten of diamonds lies on the jack of spades in the waste, the jack of clubs is home: it
    can never reach the tableau, so the 9 of spades has no target left (the ten of hearts home)
    and covers the 4."""
    stuck, p = position("klondike", {"t1": ("4S 9S", 1)}, home="HT CJ", waste="JS TD")
    assert stuck.dead(p)
    stuck, p = position("klondike", {"t1": ("4S 9S", 1)}, home="HT CJ", waste="TD JS")
    assert not stuck.dead(p)                 # the jack may go first, and the ten onto it


def test_only_the_search_with_restarts_prunes_stuck_positions():
    """La Belle Lucie deal 1: the test proves positions lost at sight (counted as proved lost), so the
    win takes fewer positions; the search without restarts is the search of before."""
    state = engine.deal("la-belle-lucie", 1)
    before = solver.solve(state, 20_000, prune_stuck=False)
    now = solver.solve(state, 20_000)
    assert before.won and now.won and now.nodes < before.nodes
    assert engine.is_won(engine.replay("la-belle-lucie", 1, {}, now.moves))
    one = solver.solve(state, 3_000, restarts=False)
    assert one.nodes == solver.solve(state, 3_000, restarts=False, prune_stuck=True).nodes


def test_klondike_a_target_held_over_in_a_run():
    """Draw one, no redeal: the 7 of diamonds lies over the 3 of diamonds and the ace of clubs in the
    waste.  Its targets: the 8 of clubs, beneath it, and the 8 of spades, under the 7 of hearts and
    the 6 of clubs, which move only with it (the whole face-up part moves) and leave it only by
    going home: the 6 of clubs only after the ace beneath the 7.  So the 7 leaves only for home,
    after the 3 of diamonds it covers."""
    run = {"t1": ("2H 9H 8S 7H 6C", 1)}
    stuck, p = position("klondike", run, waste="8C 3D AC 7D")
    assert stuck.dead(p)
    stuck, p = position("klondike", run, home="CA", waste="8C 3D 7D")
    assert not stuck.dead(p)                 # the 6 of clubs may go home first, freeing the 8
    stuck, p = position("klondike-flip3", run, waste="8C 3D AC 7D")
    assert not stuck.dead(p)                 # the waste comes round again: not asked


def test_klondike_a_head_whose_target_is_held_over():
    """The 9 of spades heads a pile over the 4 of spades; the ten of hearts is home and the ten of
    diamonds lies under the 7 of spades, which goes home only after the 4: the 9 is stuck."""
    stuck, p = position("klondike", {"t1": ("4S 9S", 1), "t2": ("TD 9C 8D 7S", 0)}, home="HT")
    assert stuck.dead(p)
    stuck, p = position("klondike", {"t1": ("4S 9S", 1), "t2": ("TD 9C 8D", 0)}, home="HT")
    assert not stuck.dead(p)                 # nothing over the ten waits for the 4


def test_klondike_a_card_goes_home_once_what_would_build_on_it_could_go_home_at_once():
    """The 3 of hearts goes home at once when both black aces are home: a black 2 could go home the
    moment it could be built on the 3 (search 2026-12-04, with the restarts); before, it waited for
    both black 2s, as the search without restarts still does."""
    stuck, p = position("klondike", {"t1": ("5D 3H", 1)}, home="CA SA H2")
    deep = stuck.model
    assert deep.safe_play(p) == (deep.index["t1"], deep.fnd[2], 1)
    assert Model(engine.deal("klondike", 1), deep_safe=False).safe_play(p) is None
    stuck, p = position("klondike", {"t1": ("5D 3H", 1)}, home="CA H2")
    assert stuck.model.safe_play(p) is None     # the 2 of spades could not go home yet


def verdicts_agree(game: str, deals: range, budget: int, seed: int) -> int:
    """Positions of seeded random play (each deal of ``deals``, every 20th of its first 120 moves)
    searched with and without the restarts, ``budget`` positions each: asserts that wherever both
    decide they decide alike, and returns how many positions both decided."""
    rng = random.Random(seed)
    decided = 0
    for number in deals:
        state = engine.deal(game, number)
        for step in range(121):
            if step % 20 == 0:
                now = solver.solve(state, budget)
                before = solver.solve(state, budget, restarts=False)
                if solver.LIMIT not in (now.status, before.status):
                    assert now.status == before.status, (game, number, step)
                    decided += 1
            moves = engine.legal_moves(state, prune=False)
            if not moves or engine.is_won(state):
                break
            state = engine.apply(state, rng.choice(moves))
    return decided


RANDOM_PLAY = pytest.mark.timeout(900)
"""The random-play tests' work is a count (deals, positions, 5,000 positions a search), about
300,000 positions each: a minute on an idle machine, a dozen times that at a load of 25 on two
cores.  The timeout only guards against a hang."""


@RANDOM_PLAY
def test_klondike_positions_of_random_play_get_the_same_verdict_with_and_without_the_new_rules():
    """Search 2026-12-04's deeper safe plays and targets held over change what is searched, never the
    verdict: on positions of random play (Klondike deals 1-30, every 20th move, seeded), wherever
    both the search with restarts (which uses them and the stuck-card test) and the search without
    (which uses neither) decide within 5,000 positions, they decide alike (58 positions)."""
    decided = verdicts_agree("klondike", range(1, 31), 5_000, seed=7)
    assert decided >= 50


def test_klondike_no_face_down_card_can_ever_come_up():
    """The 9 of hearts and the 9 of diamonds head the two piles with cards face down: each one's
    targets, the black tens, lie face down under them, and a lower card of each one's suit lies
    face down too, so neither ever leaves and no card ever comes up.  (The test of fixed cards
    alone lets it through: a target face down in another pile might come free one day.)"""
    stuck, p = position("klondike-flip3", {"t1": ("2H TC 9H", 2), "t2": ("2D TS 9D", 2)})
    assert stuck.dead(p)
    stuck, p = position("klondike-flip3", {"t1": ("2H TC 9H", 2), "t2": ("2D TS 9D", 1)})
    assert not stuck.dead(p)                 # the ten of spades is face up: it may take the 9 one day
    stuck, p = position("klondike-flip3", {"t1": ("5C TC 9H", 2), "t2": ("2D TS 9D", 2)})
    assert not stuck.dead(p)                 # no heart lies face down: the 9 may go home one day
    stuck, p = position("klondike-flip3", {"t1": ("2H TC KH", 2), "t2": ("2D TS 9D", 2)})
    assert not stuck.dead(p)                 # a king: a pile with nothing face down may be emptied


def test_klondike_a_hand_card_that_can_reach_the_tableau_only_beneath_the_card_asking():
    """Flip 3 deal 33's root, cut down: the jack of clubs lies over both black kings and the 10 of
    clubs, both red queens in the hand.  A red queen reaches the tableau only onto a black king (it
    takes no space), so the jack leaves only home, after the 10 it covers: dead."""
    stuck, p = position("klondike-flip3", {"t1": ("TC KC KS JC", 3)}, waste="QD QH")
    assert stuck.dead(p)
    stuck, p = position("klondike-flip3", {"t1": ("TC KC JC", 2), "t2": ("KS", 1)}, waste="QD QH")
    assert not stuck.dead(p)                 # the king of spades may come up and take a queen
    stuck, p = position("klondike-flip3", {"t1": ("TC KC KS JC", 3), "t2": ("QH", 0)}, waste="QD")
    assert not stuck.dead(p)                 # the queen of hearts is on the tableau already


def test_flip3_deal_33_is_lost_at_its_root():
    """The same, in the deal itself: the search proves it lost without expanding a position."""
    result = solver.solve(engine.deal("klondike-flip3", 33), max_nodes=1000)
    assert result.status == solver.EXHAUSTED and result.nodes == 1


def test_flip3_deal_12_is_lost_at_its_root_by_the_relaxation():
    """Search 2026-12-05c: nothing of flip 3 deal 12's root is stuck for good by the tests of fixed
    cards (search 2026-12-05b needed 266,182 positions to prove it lost), but even with every hand
    card playable at any time and no move ever undoing another, some card never gets home."""
    state = engine.deal("klondike-flip3", 12)
    model = Model(state)
    stuck = Stuck(model)
    root = model.pos(state)
    assert stuck.dead(root)
    stuck.relaxed = False
    assert not stuck.dead(root)
    result = solver.solve(state, max_nodes=1000)
    assert result.status == solver.EXHAUSTED and result.nodes == 1
    assert (result.unique, result.dead) == (1, 3)    # the root entered, its children lost at sight


@RANDOM_PLAY
def test_flip3_positions_of_random_play_get_the_same_verdict_with_and_without_the_relaxation():
    """The relaxed test proves positions lost that the search without the restarts (which uses no
    stuck-card test at all) must search to the end: wherever both decide, they decide alike (deals
    1-20: 115 positions of flip 3, 88 of the online game)."""
    assert verdicts_agree("klondike-flip3", range(1, 21), 5_000, seed=11) >= 100
    assert verdicts_agree("klondike-online", range(1, 21), 5_000, seed=11) >= 75
