"""What the speed-ups of the dead-end proofs rely on (issue 52): the relaxation proves every position
the turn-up test proves, so the turn-up test is skipped where the relaxation is asked; and the
stuck-card test, which keeps what it found of one position for the next (where cards lie, the
hand's facts, the lowest cards under a head), answers positions asked one after another as it
answers each asked afresh."""

from __future__ import annotations

import random

from decks import engine
from decks.solver.moves import Model
from decks.solver.position import Pos
from decks.solver.stuck import Stuck
from decks.solver.tree import Search


def _random_position(m: Model, rng: random.Random) -> Pos:
    """Klondike with every card placed: two or three piles holding many cards face down, the other
    piles a few face-up cards, some cards home, the rest in the stock and the waste."""
    cards = list(m.cards)
    rng.shuffle(cards)
    piles, hidden = [b""] * len(m.names), [0] * len(m.names)
    by_suit: dict[int, list[int]] = {}
    for c in sorted(cards, key=lambda c: m.rank[c]):
        by_suit.setdefault(m.suit[c], []).append(c)
    home: set[int] = set()
    for f, suit in zip(m.fnd, sorted(by_suit), strict=False):
        up_to = rng.choice([0, 0, 1, 2, 3])
        piles[f] = bytes(by_suit[suit][:up_to])
        home |= set(by_suit[suit][:up_to])
    rest = [c for c in cards if c not in home]
    for n, i in enumerate(m.tab):
        size = rng.randint(8, 13) if n < rng.choice([2, 3]) else rng.randint(0, 2)
        piles[i], rest = bytes(rest[:size]), rest[size:]
        hidden[i] = max(0, len(piles[i]) - 1) if size > 2 else 0
    assert m.stock is not None and m.waste is not None
    cut = rng.randint(0, len(rest))
    piles[m.stock], piles[m.waste] = bytes(rest[:cut]), bytes(rest[cut:])
    return Pos(tuple(piles), tuple(hidden), 0, (), 0)


def test_the_relaxation_proves_every_position_the_turn_up_test_proves():
    """In seeded positions with every card placed (Klondike, its flip 3 and online rules): wherever
    no face-down card can ever be turned up, the relaxation finds a card that never goes home."""
    proved = 0
    rng = random.Random(5)
    for game in ("klondike", "klondike-flip3", "klondike-online"):
        m = Model(engine.deal(game, 1))
        stuck = Stuck(m)
        relaxation = stuck.relaxation
        for _ in range(3000):
            p = _random_position(m, rng)
            height = stuck._heights(p.piles)
            assert relaxation.all_placed(p, height)
            if relaxation.no_turn_up(p, height):
                assert relaxation.dead(p, height), (game, p)
                assert stuck.dead(p)
                proved += 1
    assert proved >= 30


def test_positions_asked_in_turn_get_the_answers_they_get_asked_afresh():
    """Positions of seeded random play and their children, asked of one test in turn (as the search
    asks them) and each of a test made for it alone: the same verdicts."""
    rng = random.Random(3)
    asked = dead = 0
    for game in ("klondike", "klondike-flip3", "klondike-online", "la-belle-lucie"):
        for deal in (1, 2, 3):
            state = engine.deal(game, deal)
            search = Search(state)
            m = search.model
            kept = Stuck(m)
            for _ in range(60):
                p = m.pos(state)
                for child in [p, *(entry[4] for entry in search.children(p, 0)[0])]:
                    verdict = kept.dead(child)
                    assert verdict == Stuck(m).dead(child), (game, deal, child)
                    asked += 1
                    dead += verdict
                moves = engine.legal_moves(state, prune=False)
                if not moves or engine.is_won(state):
                    break
                state = engine.apply(state, rng.choice(moves))
    assert asked >= 1000 and dead >= 50


def test_positions_asked_in_any_order_get_the_answers_they_get_asked_afresh():
    """Positions of seeded random play, asked of one test in a shuffled order: a pile's bytes then
    change to any other bytes, longer or shorter, sharing a first part or not (the test lays a
    pile's cards again only from where its bytes differ from the last laid), and the hand changes
    between any two hands.  The same verdicts as a test asked each afresh."""
    rng = random.Random(11)
    asked = dead = 0
    for game in ("klondike", "klondike-flip3", "klondike-online", "la-belle-lucie"):
        for deal in (4, 5):
            state = engine.deal(game, deal)
            search = Search(state)
            m = search.model
            seen: list[Pos] = []
            for _ in range(50):
                p = m.pos(state)
                seen += [p, *(entry[4] for entry in search.children(p, 0)[0])]
                moves = engine.legal_moves(state, prune=False)
                if not moves or engine.is_won(state):
                    break
                state = engine.apply(state, rng.choice(moves))
            rng.shuffle(seen)
            kept = Stuck(m)
            for p in seen:
                verdict = kept.dead(p)
                assert verdict == Stuck(m).dead(p), (game, deal, p)
                asked += 1
                dead += verdict
    assert asked >= 1000 and dead >= 50


def test_a_pile_changed_in_its_middle_is_laid_again():
    """Seeded positions with every card placed, each asked and then asked again with two cards of
    one pile swapped below its top (its length and top card the same, its bytes new): a test
    kept across them answers as a test asked afresh."""
    rng = random.Random(7)
    changed = 0
    for game in ("klondike", "klondike-online"):
        m = Model(engine.deal(game, 1))
        kept = Stuck(m)
        for _ in range(1500):
            p = _random_position(m, rng)
            assert kept.dead(p) == Stuck(m).dead(p)
            i = rng.choice([i for i in (*m.tab, *m.hand) if len(p.piles[i]) > 2])
            pile = bytearray(p.piles[i])
            a, b = sorted(rng.sample(range(len(pile) - 1), 2))
            pile[a], pile[b] = pile[b], pile[a]
            piles = list(p.piles)
            piles[i] = bytes(pile)
            q = Pos(tuple(piles), p.hidden, p.redeals, p.counters, p.rng)
            verdict = kept.dead(q)
            assert verdict == Stuck(m).dead(q), (game, q)
            changed += verdict != kept.dead(p)
    assert changed >= 20


def _waste_positions(m: Model, stuck: Stuck, rng: random.Random) -> tuple[Pos, Pos]:
    """Two Klondike positions with no redeal left and the same hand: a five in the waste over a
    lower card of its suit and over one of the two sixes that take it.  In the first the other six
    lies face up in the tableau, so the five may leave; in the second it is home (and its suit up
    to it), so the five leaves only home, after the card it covers: dead.  The other cards are
    dealt at random (``rng``), face down under one face-up card a pile."""
    five = next(c for c in m.cards if m.rank[c] == 5 and len(stuck.targets[c]) == 2)
    six_under, six = stuck.targets[five]
    low = next(c for c in m.cards if m.suit[c] == m.suit[five] and m.rank[c] == 3)
    home_suit = sorted((c for c in m.cards if m.suit[c] == m.suit[six] and m.rank[c] <= 6),
                       key=lambda c: m.rank[c])
    waste = bytes([six_under, low, five])
    rest = [c for c in m.cards if c not in waste and c not in home_suit]
    rng.shuffle(rest)
    assert m.stock is not None and m.waste is not None
    stock = bytes(rest[:10])
    spread = rest[10:]
    tabs = [bytes(spread[k::len(m.tab)]) for k in range(len(m.tab))]
    positions = []
    for sent_home in (home_suit[:-1], home_suit):
        piles, hidden = [b""] * len(m.names), [0] * len(m.names)
        for k, i in enumerate(m.tab):
            piles[i] = tabs[k] + (bytes([six]) if k == 0 and six not in sent_home else b"")
            hidden[i] = len(piles[i]) - 1
        piles[m.fnd[0]] = bytes(sent_home)
        piles[m.stock], piles[m.waste] = stock, waste
        positions.append(Pos(tuple(piles), tuple(hidden), 0, (), 0))
    return positions[0], positions[1]


def test_the_hand_is_judged_again_when_only_the_heights_change():
    """The hand's facts are kept by the hand and the heights: asked with the same hand (the same
    bytes objects, then equal ones after another hand) and a six sent home, the test finds the
    five over a lower card of its suit fixed, as a test asked afresh does."""
    m = Model(engine.deal("klondike", 1))
    rng = random.Random(2)
    checked = 0
    for _ in range(40):
        stuck = Stuck(m)
        free, fixed = _waste_positions(m, stuck, rng)
        if Stuck(m).dead(free):
            continue                    # dead for another reason: no help here
        assert Stuck(m).dead(fixed)
        assert not stuck.dead(free) and stuck.dead(fixed)
        again = Pos(tuple(bytes(pile) for pile in fixed.piles), fixed.hidden, 0, (), 0)
        assert not stuck.dead(free)
        stuck.dead(_random_position(m, rng))
        assert stuck.dead(again)
        checked += 1
    assert checked >= 5


def test_the_heights_are_found_again_when_one_foundation_changes():
    """The heights are kept while every foundation is the bytes object read last: positions that
    change one foundation at a time (the others the very objects of the position before), and
    equal foundations as new objects, get the heights and the number standing for them that a test
    asked afresh finds."""
    m = Model(engine.deal("klondike", 1))
    rng = random.Random(8)
    kept = Stuck(m)
    p = _random_position(m, rng)
    changed = 0
    for _ in range(300):
        piles = list(p.piles)
        f = rng.choice(m.fnd)
        if rng.random() < 0.8:
            piles[f] = _random_position(m, rng).piles[f]
        else:
            piles = [bytes(bytearray(pile)) for pile in piles]  # equal piles, new objects
        p = Pos(tuple(piles), p.hidden, 0, (), 0)
        fresh = Stuck(m)
        assert kept._heights(p.piles) == fresh._heights(p.piles)
        assert kept._level == fresh._level
        changed += kept._heights(p.piles) != [0] * kept.suits
    assert changed >= 100


def test_the_waste_lows_are_the_lowest_ranks_beneath_each_place():
    """The waste's lowest ranks, kept by its cards and carried on from the places a waste shares
    with the one found before (cards turned onto it, its top played, or another waste): by place
    and suit, the lowest rank beneath."""
    m = Model(engine.deal("klondike", 1))
    stuck = Stuck(m)
    rng = random.Random(4)
    waste = b""
    for _ in range(300):
        cards = [c for c in m.cards if c not in waste]
        change = rng.choice(["turn", "play", "other", "middle"])
        if change == "turn":
            waste += bytes(rng.sample(cards, min(len(cards), rng.randint(1, 3))))
        elif change == "play":
            waste = waste[:-1]
        elif change == "middle" and waste:
            at = rng.randrange(len(waste))
            waste = waste[:at] + bytes(rng.sample(cards, 1)) + waste[at + 1:]
        else:
            waste = bytes(rng.sample(list(m.cards), rng.randint(0, 24)))
        lows = stuck._waste_lows(waste)
        assert stuck._waste_lows(bytes(bytearray(waste))) == lows
        assert len(lows) == len(waste) * stuck.suits
        for j in range(len(waste)):
            for s in range(stuck.suits):
                beneath = [m.rank[c] for c in waste[:j] if stuck.suit_no[c] == s]
                assert lows[j * stuck.suits + s] == min(beneath, default=99), (waste, j, s)
