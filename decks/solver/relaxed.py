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
not).
"""

from __future__ import annotations

from typing import Final, final

from mypy_extensions import i64

from decks.solver.moves import Model
from decks.solver.position import Pos

_NONE: Final = 255
"""In :attr:`Relaxation.first` and :attr:`Relaxation.second`: no target."""


@final
class Relaxation:
    """The relaxed test for one game, built once per search from the compiled rules and the
    stuck-card test's tables (each card's targets, whether it may go into a space, its suit's
    number); :meth:`dead` judges a position.  ``applies``: one pack of four suits, no card
    building on more than two others, and a space that takes only a king (else never asked)."""

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
        # by card, its bit in the test's sets and its targets' (_NONE: none)
        bits = [max(0, 13 * suit_no[c] + rank[c] - 1) for c in range(model.size)]
        self.bit = bytes(bits)
        self.first = bytes(bits[t[0]] if len(t) > 0 else _NONE for t in targets)
        self.second = bytes(bits[t[1]] if len(t) > 1 else _NONE for t in targets)
        self.king = bytes(to_space)

    def dead(self, p: Pos, height: list[int]) -> bool:
        """Whether some card can never go home even if no move ever undid another's work (a
        *relaxation*: every hand card counts as playable at any time, a card that once could take a
        card always can, a space once made stays): the least fixed point of "can get off the card
        it lies on", "can take a card" and "can go home", grown from the position until nothing
        changes.  A face-up card above a pile's head gets off the card beneath it only by going home
        (where face-up cards move all together) or with the cards on it (any face-up tail moves);
        the head with the cards on it.  Whatever a line of play does, the relaxation can do too, so
        a card it cannot send home is never sent home.

        Sets of cards are bit masks (card ``c`` at bit ``bit[c]``: suit number × 13 + rank - 1; its
        targets at ``first[c]`` and ``second[c]``, 255 for none): the cards that can take a card
        (``takes``), get off the card they lie on (``off``), lie with nothing on them (``bare``), can go
        home (``home``: by suit, every rank up to ``reach``)."""
        m = self.model
        one = self.one                  # (compiled, a literal 1 shifted as an i64 is a C int: 32 bits)
        bit = self.bit
        tails = self.tails
        piles, hidden = p.piles, p.hidden
        up: i64 = 0                     # the cards not home yet
        reach: list[i64] = []           # by suit: every card up to this rank can go home
        for s in range(self.suits):
            r: i64 = height[s]
            up |= ((one << (13 - r)) - 1) << (13 * s + r)
            reach.append(r)
        space = False
        for i in m.tab:
            if len(piles[i]) == 0:
                space = True
        bare: i64 = 0
        for i in m.hand:
            pile = piles[i]
            for j in range(len(pile)):
                bare |= one << bit[pile[j]]     # a hand card can be played at some time
        home: i64 = ~up                 # the cards that can go home (every bit set: all of them)
        for s in range(self.suits):
            home |= self._climb(bare, reach, s)
        takes: i64 = 0
        off: i64 = 0
        changed = True
        while changed and home != -1:
            changed = False
            for i in m.hand:
                pile = piles[i]
                for j in range(len(pile)):
                    c = pile[j]
                    k = bit[c]
                    if (takes >> k) & 1 == 0 and self._takes(c, takes & up, space):
                        takes |= one << k
                        changed = True
            for i in m.tab:
                pile = piles[i]
                h = hidden[i]
                top = True              # every card above this one can get off it
                for j in range(len(pile) - 1, -1, -1):
                    c = pile[j]
                    k = bit[c]
                    if top and (bare >> k) & 1 == 0:
                        bare |= one << k
                        takes |= one << k
                        changed = True
                        home |= self._climb(bare, reach, k // 13)
                        if home == -1:
                            return False
                    leaves = (off >> k) & 1 == 1
                    if not leaves:
                        if top and (home >> k) & 1 == 1:
                            leaves = True
                        elif (j < h and top) or j == h or (j > h and tails):
                            leaves = self._takes(c, takes & up, space)
                        if leaves:
                            off |= one << k
                            changed = True
                    top = leaves
                    if j == 0 and leaves and not space:
                        space = changed = True
                    if not top and j <= h:
                        break
        return home != -1

    def _takes(self, c: int, takes: i64, space: bool) -> bool:
        """In the relaxation (:meth:`dead`), whether card ``c`` could move onto a tableau
        card: a target of it is among ``takes`` (cards that can take one, not home), or it is a king
        and a space can be made."""
        t, u = self.first[c], self.second[c]
        return ((space and self.king[c] == 1) or (t != _NONE and (takes >> t) & 1 == 1)
                or (u != _NONE and (takes >> u) & 1 == 1))

    def _climb(self, bare: i64, reach: list[i64], s: i64) -> i64:
        """In the relaxation (:meth:`dead`), raise suit ``s``'s ``reach`` (the rank up to
        which every card can go home) over the next cards of the suit that lie bare (in ``bare``);
        returns their bits."""
        r = reach[s]
        rose: i64 = 0
        while r < 13 and (bare >> (13 * s + r)) & 1 == 1:
            rose |= self.one << (13 * s + r)
            r += 1
        reach[s] = r
        return rose

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
