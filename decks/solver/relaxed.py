"""Dead positions proved by a relaxation of the game (:class:`Relaxation`): a test of
:mod:`decks.solver.stuck`, asked in the Klondike family.

The relaxation is the game in which no move ever undoes what another did.  Every hand card counts
as playable at any time, a card that could once take a card always can, and a space once made
stays.  Growing from the position until nothing changes, it finds which cards could ever get off
the card they lie on, ever lie with nothing on them, and ever go home (:meth:`Relaxation.dead`).
Any real line of play is a line of the relaxation too, so a card the relaxation never sends home
never goes home: the position is dead.  It follows the chains the stuck-card tests stop at: flip 3
deal 12's root is dead so (a search without it needed 266,182 positions to prove it lost), and in
the search of flip 3 deal 26 two in five of the positions it is asked about.  Where a redeal is
left it is asked alone: the stuck-card tests proved nothing more in the searches measured (flip 3
and the online rules, deals 1-150 at 50,000 positions: the same positions searched), only cost
time.  In Klondike, with no redeal, it is asked after them (they follow the waste's order; it does
not).  The stuck-card test's simpler dead end, no face-down card ever turned up
(:meth:`Relaxation.no_turn_up`), is here too: the relaxation proves each such position lost as well.

Compiled, the sets are 64-bit ints and the tables bytes: a list of large ints would box and unbox
one at every read.
"""

from __future__ import annotations

from typing import Final, final

from mypy_extensions import i64

from decks.solver.moves import Model
from decks.solver.position import Pos

_NONE: Final = 255
"""In :attr:`Relaxation.builders`, no card."""
_LOW_BIT: Final = bytes(max([c for c in range(63) if (1 << c) % 67 == r] or [0]) for r in range(67))
"""By a one-bit set's remainder modulo 67 (each of 2**0 … 2**62 leaves a different one), its bit:
which card it holds, without shifting through the bits below it."""


@final
class Relaxation:
    """The relaxed test for one game, built once per search from the compiled rules and the
    stuck-card test's tables (each card's targets, whether it may go into a space, its suit's
    number); :meth:`dead` judges a position.  ``applies``: one pack of four suits, no card
    building on more than two others or built on by more than two, and a space that takes only a
    king (else never asked)."""

    def __init__(self, model: Model, targets: list[list[int]], to_space: list[bool], suit_no: list[int],
                 suits: int) -> None:
        self.model = model
        self.suits = suits
        rank = model.rank
        self.tails = model.unit == "tail"
        self.total = len(model.cards)
        self.one: i64 = 1
        self.applies = (model.space_rule in (1, 2) and not any(len(t) > 2 for t in targets)
                        and suits <= 4 and max(rank) <= 13)
        # by card, its bit in the test's sets; by bit, the bits of the (at most two) cards that build
        # on that card, at 2 × bit and 2 × bit + 1 (:data:`_NONE`: none; bytes, which a compiled
        # module reads without unboxing an int); the cards a space takes (a set)
        bits = [max(0, 13 * suit_no[c] + rank[c] - 1) for c in range(model.size)]
        self.bit = bytes(bits)
        self.suit_at = bytes(k // 13 for k in range(64))
        # the hand's cards (:meth:`_hand_bits`) and the hand piles they were found in
        self._hand_set: i64 = 0
        self._hand_piles: list[bytes | None] = [None] * len(model.letters)
        builders: list[list[int]] = [[] for _ in range(64)]
        kings: i64 = 0
        for c in model.cards if self.applies else []:     # (bits below 52 only where it applies)
            for t in targets[c]:
                builders[bits[t]].append(bits[c])
            if to_space[c]:
                kings |= self.one << bits[c]
        self.applies = self.applies and all(len(b) <= 2 for b in builders)
        self.builders = bytes(b[k] if k < len(b) else _NONE for b in builders for k in range(2))
        self.kings: i64 = kings
        # for the turn-up test (:meth:`no_turn_up`): the stuck-card test's tables; by card, the
        # lower cards of its suit; by card, the number of the last position that found it face down
        self.targets, self.to_space, self.suit_no = targets, to_space, suit_no
        self.rank: list[int] = list(rank)
        self.lower: list[list[int]] = [[d for d in model.cards if suit_no[d] == suit_no[c]
                                        and rank[d] < rank[c]] for c in range(model.size)]
        self._down: list[int] = [0] * model.size
        self._down_gen = 0

    def dead(self, p: Pos, height: list[int]) -> bool:
        """Whether some card can never go home even if no move ever undid another's work (a
        *relaxation*: every hand card counts as playable at any time, a card that once could take a
        card always can, a space once made stays): the least fixed point of "can get off the card
        it lies on", "can take a card" and "can go home", grown from the position until nothing
        changes.  A face-up card above a pile's head gets off the card beneath it only by going home
        (where face-up cards move all together) or with the cards on it (any face-up tail moves);
        the head with the cards on it.  Whatever a line of play does, the relaxation can do too, so
        a card it cannot send home is never sent home.

        Sets of cards are bit masks (card ``c`` at bit ``bit[c]``: suit number × 13 + rank - 1; by
        bit, the cards building on that card from ``builders``, at 2 × bit and 2 × bit + 1; kings at
        ``kings``): the cards that can take a card (``takes``), get off the card they lie on
        (``off``), lie with nothing on them (``bare``), can go home (``home``: in each suit, every
        rank up to some rank: :func:`_climb`); and the cards that build on a card of ``takes``
        (``onto``), which could move onto the tableau, as could a king once a space is made."""
        m = self.model
        one = self.one                  # (compiled, a literal 1 shifted as an i64 is a C int: 32 bits)
        bit, suit_at = self.bit, self.suit_at
        tails = self.tails
        piles, hidden = p.piles, p.hidden
        up: i64 = 0                     # the cards not home yet
        for s in range(self.suits):
            r: i64 = height[s]
            up |= ((one << (13 - r)) - 1) << (13 * s + r)
        space = False
        for i in m.tab:
            if len(piles[i]) == 0:
                space = True
        hand = self._hand_bits(piles)   # a hand card can be played at some time
        bare: i64 = hand
        home: i64 = ~up                 # the cards that can go home (every bit set: all of them)
        for s in range(self.suits):
            home = _climb(home, bare, s)
        takes: i64 = 0
        off: i64 = 0
        onto: i64 = 0
        done: i64 = 0                   # the tableau piles (by index) whose every card gets off
        builders, kings = self.builders, self.kings
        changed = True
        while changed and home != -1:
            changed = False
            played = hand & ~takes & (onto | kings if space else onto)
            if played != 0:             # hand cards that can reach the tableau, so take a card
                takes |= played
                changed = True
                onto |= _builders(builders, played & up, one)
            for i in m.tab:
                if i < 63 and (done >> i) & 1 == 1:
                    continue
                pile = piles[i]
                h: i64 = hidden[i]
                top = True              # every card above this one can get off it
                whole = True            # every card so far gets off, the ones above it too
                at: i64 = len(pile) - 1
                while at >= 0:
                    k: i64 = bit[pile[at]]
                    if top and (bare >> k) & 1 == 0:
                        bare |= one << k
                        takes |= one << k
                        if (up >> k) & 1 == 1:
                            a: i64 = builders[2 * k]
                            if a != _NONE:
                                onto |= one << a
                            a = builders[2 * k + 1]
                            if a != _NONE:
                                onto |= one << a
                        changed = True
                        shift: i64 = 13 * suit_at[k]    # (_climb, inline)
                        run = ((home | bare) >> shift) & 0x1FFF
                        home |= ((run ^ (run + 1)) >> 1) << shift
                        if home == -1:
                            return False
                    leaves = (off >> k) & 1 == 1
                    if not leaves:
                        if top and (home >> k) & 1 == 1:
                            leaves = True
                        elif (at < h and top) or at == h or (at > h and tails):
                            leaves = (onto >> k) & 1 == 1 or (space and (kings >> k) & 1 == 1)
                        if leaves:
                            off |= one << k
                            changed = True
                    top = leaves
                    whole = whole and leaves
                    if at == 0 and leaves and not space:
                        space = changed = True
                    if not top and at <= h:
                        break
                    at -= 1
                if whole and i < 63:    # every card bare and getting off: nothing more to tell
                    done |= one << i
        return home != -1

    def _hand_bits(self, piles: tuple[bytes, ...]) -> i64:
        """The hand's cards (a set), found again only where a hand pile is not the bytes object
        it was at the last call (positions asked in turn share most piles)."""
        m = self.model
        same = True
        for i in m.hand:
            if piles[i] is not self._hand_piles[i]:
                same = False
        if same:
            return self._hand_set
        one, bit = self.one, self.bit
        hand: i64 = 0
        for i in m.hand:
            pile = piles[i]
            self._hand_piles[i] = pile
            for j in range(len(pile)):
                hand |= one << bit[pile[j]]
        self._hand_set = hand
        return hand

    def no_turn_up(self, p: Pos, height: list[int]) -> bool:
        """Whether no face-down tableau card can ever be turned up (so the position is lost): for
        each pile with face-down cards, its head (the lowest face-up card) leaves only home, onto a
        target or into a space, and none of them can ever be: a lower card of its suit lies face
        down, each target lies face down or home, and it is no king or every pile holds face-down
        cards.  Until a first card is turned up the face-down cards stay where they are, so nothing
        of this changes: no first card is ever turned up."""
        m = self.model
        piles, hidden = p.piles, p.hidden
        self._down_gen = gen = next_gen(self._down_gen, self._down)
        down = self._down
        space = asked = False
        for i in m.tab:
            h = hidden[i]
            if h == 0:
                space = True            # a pile that may one day be empty
                continue
            pile = piles[i]
            if h >= len(pile):
                return False
            for j in range(h):
                down[pile[j]] = gen
            asked = True
        if not asked:
            return False
        rank, suit_no = self.rank, self.suit_no
        for i in m.tab:
            h = hidden[i]
            if h == 0:
                continue
            head = piles[i][h]
            if space and self.to_space[head]:
                return False
            for t in self.targets[head]:
                if down[t] != gen and rank[t] > height[suit_no[t]]:
                    return False
            home = True
            for c in self.lower[head]:
                if down[c] == gen:
                    home = False
                    break
            if home:
                return False
        return True

    def all_placed(self, p: Pos, height: list[int]) -> bool:
        """Whether every card lies somewhere: home, in the tableau or in the hand (not so in a
        position made by hand, whose missing cards the relaxation cannot judge)."""
        m = self.model
        placed = 0
        for r in height:
            placed += r
        for i in m.tab:
            placed += len(p.piles[i])
        for i in m.hand:
            placed += len(p.piles[i])
        return placed == self.total


def _climb(home: i64, bare: i64, s: i64) -> i64:
    """In the relaxation (:meth:`Relaxation.dead`), ``home`` with suit ``s``'s cards that can go home
    raised over the next cards of the suit that lie bare (in ``bare``): the suit's 13 bits of
    ``home`` are the ranks up to the highest that can go home, so with ``bare``'s they run on
    unbroken from the ace as far as the suit can go (bits below the first clear one)."""
    low = 13 * s
    run = ((home | bare) >> low) & 0x1FFF
    return home | (((run ^ (run + 1)) >> 1) << low)


def _builders(builders: bytes, cards: i64, one: i64) -> i64:
    """The cards that build on a card of ``cards`` (sets: :attr:`Relaxation.builders`; ``one``: 1,
    as :attr:`Relaxation.one`), each card of ``cards`` found by its lowest bit's remainder modulo 67
    (:data:`_LOW_BIT`), without shifting through the bits below it."""
    out: i64 = 0
    while cards != 0:
        low = cards & -cards
        cards ^= low
        k: i64 = _LOW_BIT[low % 67]
        a: i64 = builders[2 * k]
        if a != _NONE:
            out |= one << a
        a = builders[2 * k + 1]
        if a != _NONE:
            out |= one << a
    return out


def next_gen(gen: int, stamps: list[int]) -> int:
    """The stamp after ``gen`` (1 … 255, ``stamps`` cleared when it comes round): a small int, which
    a compiled list stores without allocating an int object."""
    if gen < 255:
        return gen + 1
    for c in range(len(stamps)):
        stamps[c] = 0
    return 1
