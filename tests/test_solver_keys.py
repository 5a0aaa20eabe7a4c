"""The transposition key as one ``bytes`` (:meth:`decks.solver.keys.Keys._bytes_key`): two positions
get equal keys exactly when they get equal keys in the tuple form it replaced
(tests/solver_tuple_keys.py), over positions real searches reach, with their
interchangeable piles shuffled and their face-down counts changed; where the stock is turned k at a
time with unlimited redeals (flip 3, online), with the hand turned to every count too, and the
turned count and the redealt key read from the bytes as from the tuple."""

from __future__ import annotations

import random

import pytest

from decks import engine
from decks.solver.keys import Key, Keys
from decks.solver.position import Pos
from decks.solver.tree import Search
from tests import solver_tuple_keys as tuple_form
from tests.solver_tuple_keys import tuple_key
from tests.test_solver_turns import turned

BYTES_GAMES = ["spiderette", "king-albert", "klondike", "la-belle-lucie", "agnes", "bisley", "baroness",
               "little-spider", "labyrinth"]
"""Games whose keys take the bytes form (one pack, the stock not turned k at a time)."""


def reached(search: Search, root: Pos, count: int) -> list[Pos]:
    """The first ``count`` positions a breadth-first walk of the search's moves reaches from ``root``
    (every child, seen before or not: transpositions come twice; each expanded once, by its
    tuple key)."""
    out, queue, expanded = [root], [root], set()
    while queue and len(out) < count:
        p = queue.pop(0)
        key = tuple_key(search.keys, p)
        if key in expanded:
            continue
        expanded.add(key)
        targets = search.model.targets(p)
        for _prio, _turns, base, mv, done in search.sequences(p, targets):
            made = search.make(p, base, mv, done, targets.wanted, False)
            if made is not None:
                out.append(made[0])
                queue.append(made[0])
    return out[:count]


def variants(p: Pos, keys: Keys, rng: random.Random) -> list[Pos]:
    """``p``, with its interchangeable tableau piles in another order, and with one pile's
    face-down count one less (a position that differs where the key keeps face-down counts)."""
    out = [p]
    piles, hidden = list(p.piles), list(p.hidden)
    if keys.symmetric:
        order = list(keys.tab)
        rng.shuffle(order)
        for i, j in zip(keys.tab, order, strict=True):
            piles[i], hidden[i] = p.piles[j], p.hidden[j]
        out.append(Pos(tuple(piles), tuple(hidden), p.redeals, p.counters, p.rng))
    down = [i for i, h in enumerate(p.hidden) if h > 0]
    if down:
        hidden = list(p.hidden)
        hidden[rng.choice(down)] -= 1
        out.append(Pos(p.piles, tuple(hidden), p.redeals, p.counters, p.rng))
    return out


@pytest.mark.parametrize("game", BYTES_GAMES)
def test_bytes_keys_are_equal_exactly_when_the_tuple_keys_are(game: str) -> None:
    rng = random.Random(52)
    new_of_old: dict[Key, Key] = {}
    old_of_new: dict[Key, Key] = {}
    positions = 0
    for deal in (1, 2):
        search = Search(engine.deal(game, deal))
        keys = search.keys
        assert keys.one_pack_key and not keys.step
        root = search.model.pos(engine.deal(game, deal))
        for p in reached(search, root, 600):
            for q in variants(p, keys, rng):
                old, new = tuple_key(keys, q), keys.of(q)
                assert isinstance(old, tuple)
                assert new_of_old.setdefault(old, new) == new      # equal before: equal now
                assert old_of_new.setdefault(new, old) == old      # equal now: equal before
                positions += 1
    assert all(isinstance(new, bytes) for new in old_of_new)
    assert len(new_of_old) < positions      # some positions came more than once: equal keys checked
    assert len(new_of_old) > positions // 8     # and many different ones


def test_counters_and_the_generator_state_tell_keys_apart() -> None:
    search = Search(engine.deal("king-albert", 1))
    keys = search.keys
    p = search.model.pos(engine.deal("king-albert", 1))

    def key(redeals: int, counters: tuple[tuple[str, int], ...], rng: int) -> Key:
        return keys.of(Pos(p.piles, p.hidden, redeals, counters, rng))

    tails = [(0, (), 1), (0, (), 254), (0, (), 255), (0, (), 1 << 40), (0, (), -1), (-1, (), -1),
             (1, (), 1), (0, (("deals", 1),), 1), (0, (("deals", 11),), 1),
             (0, (("deals", 1), ("rows", 1)), 1), (0, (("deal", 11),), 1), (1, (("deals", 1),), 1)]
    made = [key(*tail) for tail in tails]
    assert all(isinstance(k, bytes) for k in made) and len(set(made)) == len(tails)
    assert made == [key(*tail) for tail in tails]    # the same again (the last part is kept)
    assert made[0] == key(0, tuple(list(())), 1) == keys.of(p)


def test_a_reserve_pile_of_two_cards_takes_the_sorted_form_and_then_the_usual_one_again() -> None:
    search = Search(engine.deal("king-albert", 1))
    keys = search.keys
    p = search.model.pos(engine.deal("king-albert", 1))
    full = [i for i in keys.res if len(p.piles[i]) == 1]
    a, b = full[0], full[1]

    def moved(onto: int, off: int) -> Pos:
        piles = list(p.piles)
        piles[onto], piles[off] = p.piles[onto] + p.piles[off], b""
        return Pos(tuple(piles), p.hidden, p.redeals, p.counters, p.rng)

    one, other = moved(a, b), moved(b, a)
    assert keys._single_cards(one, keys.res) == -1          # the sorted form of the reserve
    before = keys.of(p)
    made = [keys.of(q) for q in (one, other, one, p)]
    assert made[0] == made[2] and made[3] == before         # the usual form again after it
    assert len({made[0], made[1], before}) == 3
    assert (made[0] == made[1]) == (tuple_key(keys, one) == tuple_key(keys, other))


def hand_variants(p: Pos, search: Search) -> list[Pos]:
    """``p`` with its hand turned to every count, where all of the stock lies face down and none of
    the waste (as a search's hands do)."""
    stock_at, waste_at = search.model.hand_piles()
    if p.hidden[stock_at] != len(p.piles[stock_at]) or p.hidden[waste_at] != 0:
        return []
    cards = len(p.piles[stock_at]) + len(p.piles[waste_at])
    return [turned(p, search.model, t) for t in range(cards + 1)]


@pytest.mark.parametrize("game", ["klondike-flip3", "klondike-online"])
def test_hand_keys_as_bytes_agree_with_the_tuple_form(game: str) -> None:
    rng = random.Random(53)
    new_of_old: dict[Key, Key] = {}
    old_of_new: dict[Key, Key] = {}
    redealt_new_of_old: dict[Key, Key] = {}
    redealt_old_of_new: dict[Key, Key] = {}
    positions = turned_on = fallback = 0
    for deal in (1, 2):
        search = Search(engine.deal(game, deal))
        keys = search.keys
        assert keys.one_pack_key and keys.step == (3 if game == "klondike-flip3" else 1)
        root = search.model.pos(engine.deal(game, deal))
        for p in reached(search, root, 300):
            for q in variants(p, keys, rng) + hand_variants(p, search)[::5]:
                old, new = tuple_key(keys, q), keys.of(q)
                assert isinstance(old, tuple) and isinstance(new, bytes)
                assert new_of_old.setdefault(old, new) == new      # equal before: equal now
                assert old_of_new.setdefault(new, old) == old      # equal now: equal before
                assert keys.turned(new) == tuple_form.turned(keys, old)
                turned_on += keys.turned(new) > 0
                fallback += len(new.split(b"\xff")) != keys._usual
                if keys.turned(new) >= 0:
                    r_old, r_new = tuple_form.redealt(old), keys.redealt(new)
                    assert keys.turned(r_new) == tuple_form.turned(keys, r_old) == 0
                    assert redealt_new_of_old.setdefault(r_old, r_new) == r_new
                    assert redealt_old_of_new.setdefault(r_new, r_old) == r_old
                positions += 1
    assert len(new_of_old) < positions and len(new_of_old) > positions // 8
    assert fallback > 0                             # a face-down count of the hand changed
    assert (turned_on > 0) == (game == "klondike-flip3")    # online: every turn comes round
