"""The solver searches exactly as it did when tests/data/solver-searches.json was recorded
(``python -m tools.record_searches``, with the code before the Spider games' moves, discard and
deal, and Colorado's measure were made natively, issue 24): for every deal and budget there, the
same verdict, the same positions expanded, runs, table and positions proved lost, and the same
moves.  And the native moves are the engine's moves: on positions of random play, what the solver
makes of each move is what the engine makes of it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from decks import engine, solver
from decks.engine import rules as engine_rules
from decks.solver.moves import Model
from decks.solver.position import StateOf

DATA = Path(__file__).resolve().parent / "data" / "solver-searches.json"
RECORDED = json.loads(DATA.read_text(encoding="utf-8"))


def test_the_recording_is_of_this_search_version():
    """A search meant to change bumps SEARCH_VERSION and records the file again."""
    assert RECORDED["search"] == solver.SEARCH_VERSION
    games = {r["game"] for r in RECORDED["searches"]}
    assert games == set(engine.game_names())
    spiders = [r for r in RECORDED["searches"] if r["game"] in ("spiderette", "will-o-the-wisp")]
    assert sum(r["status"] == solver.WON for r in spiders) >= 3


@pytest.mark.parametrize("r", RECORDED["searches"],
                         ids=[f"{r['game']}-{r['deal']}-{r['nodes']}{'' if r['restarts'] else '-one-run'}"
                              f"{'-' + json.dumps(r['options']) if r['options'] else ''}"
                              for r in RECORDED["searches"]])
def test_the_search_is_the_one_recorded(r):
    result = solver.solve(engine.deal(r["game"], r["deal"], r["options"]), r["nodes"], restarts=r["restarts"])
    moves = result.moves if result.won else result.best_moves
    assert (result.status, result.nodes, result.runs, result.unique, result.dead, result.best_home) == (
        r["status"], r["expanded"], r["runs"], r["unique"], r["dead"], r["best_home"])
    assert [str(m) for m in moves] == r["moves"]


def _along_the_wins(game: str, options: dict) -> list[engine.GameState]:
    """The game states along the recorded wins of the game (where the suits are discarded)."""
    out = []
    for r in RECORDED["searches"]:
        if r["game"] == game and r["options"] == options and r["status"] == solver.WON:
            state = engine.deal(game, r["deal"], options)
            for move in r["moves"]:
                out.append(state)
                state = engine.apply(state, move)
    return out


def _random_positions(game: str, options: dict, deals: range, steps: int) -> list[engine.GameState]:
    """Game states along random play of each deal (seeded), every one."""
    rng = random.Random(24)
    out = []
    for number in deals:
        state = engine.deal(game, number, options)
        for _ in range(steps):
            out.append(state)
            moves = engine.legal_moves(state, prune=False)
            if not moves:
                break
            state = engine.apply(state, rng.choice(moves))
    return out


@pytest.mark.parametrize("game, options", [("spiderette", {}), ("will-o-the-wisp", {}),
                                           ("spiderette", {"auto_discard": False})])
def test_native_spider_moves_are_the_engines(game, options):
    """Every move the solver lists, made natively, gives the position the engine gives; the moves
    listed are the engine's pruned legal moves (all of them, no more); the native ``useless`` is the
    game's own hook."""
    rules = engine.rules_of(engine.deal(game, 1, options))
    seen_deal = seen_discard = 0
    for state in _along_the_wins(game, options) + _random_positions(game, options, range(1, 9), 160):
        m = Model(state)
        assert m.native and m.native_actions and m.in_suit_useless
        p = m.pos(state)
        search = solver.Search(state)
        listed = search.sequences(p, m.targets(p))
        ours = sorted(str(mv) for *_, done in listed for mv in solver.search._moves(m, done))
        assert ours == sorted(str(mv) for mv in engine.legal_moves(state, prune=True))
        for _prio, _turns, base, mv, _done in listed:
            child = m.move(base, mv) if isinstance(mv, tuple) else m.act(base, mv)
            move = mv if isinstance(mv, engine.Move) else m.step_move(*mv)
            assert child == m.by_engine(base, move), (state.deal_number, str(move))
            seen_deal += move.kind == "stock"
            seen_discard += move.kind == "remove" or len(child.piles[m.dis[0]]) > len(p.piles[m.dis[0]])
        for s in m.tab:
            for n in range(1, m.movable(p.piles[s], p.hidden[s]) + 1):
                assert m._splits_suit_run(p, s, n) == rules.useless(StateOf(m, p)(), m.step_move(s, s, n))
    assert seen_deal and seen_discard


def test_colorados_native_measure_is_its_hook(monkeypatch):
    """Colorado's ``Rules.distance`` made natively (the old move order's measure) gives the hook's
    value on positions of random play, and the search it orders is the one the hook orders."""
    rules = engine.rules_of(engine.deal("colorado", 1))
    for state in _random_positions("colorado", {}, range(1, 4), 150):
        search = solver.Search(state)
        assert search.old_measure == "nearer-foundation"
        assert search.old_distance(search.model.pos(state)) == rules.distance(state)
    native = solver.solve(engine.deal("colorado", 2), 2500)
    rules = engine.rules_of(engine.deal("colorado", 2))       # its tuning without the native measure
    monkeypatch.setitem(engine_rules._CONFIGURED, ("colorado", ()),
                        engine.replace(rules, solver=engine.replace(rules.solver, measure=None)))
    hook = solver.solve(engine.deal("colorado", 2), 2500)
    assert solver.Search(engine.deal("colorado", 2)).old_measure == "hook" and native.runs == hook.runs >= 2
    assert (native.status, native.nodes, native.unique, native.best_moves) == (
        hook.status, hook.nodes, hook.unique, hook.best_moves)


def test_colorados_stock_is_dealt_one_card_at_a_time_and_a_win_replays():
    """Colorado's card dealt must be played before the next is dealt (its check says
    ``SolverTuning.turn_check = "waste-empty"``): the solver once turned through the whole stock, and a win it
    claimed (deal 2, 190 moves within 3,000 positions) did not replay."""
    from decks.solver.tree import _shown_once

    for state in _random_positions("colorado", {}, range(1, 4), 100):
        search = solver.Search(state)
        p = search.model.pos(state)
        native = _shown_once(search._turns_native(p), False)
        assert native == _shown_once(search._turns_by_engine(p, lambda st=state: st), False)
        assert len(native) == (1 if p.piles[search.model.stock] and not p.piles[search.model.waste] else 0)
    for number in range(1, 6):
        s = engine.deal("colorado", number)
        result = solver.solve(s, 5000)
        assert not result.won or engine.is_won(engine.replay("colorado", number, s.options, result.moves))
        best = engine.replay("colorado", number, s.options, result.best_moves)
        assert sum(len(best.piles[f"f{i}"].cards) for i in range(1, 9)) == result.best_home
