"""How far from a win a position looks: the measures that order the search (:class:`Measures`).

A depth-first search tries a position's children closest to a win first, and a best-first one
expands, of all positions reached, the closest; "closest" is one of these measures, each a number
of cards still to go with weights for what stands in their way (face-down cards, cards out of
sequence, cards lying over the next card a foundation wants).  Which measure a game's search uses
is chosen in :mod:`decks.solver.search` (``ORDERS``) and by the game's tuning
(``SolverTuning.measure``, ``SolverTuning.orders``); where the tuning names the game's own
``Rules.distance`` as one of these, it is made here natively, without building a game state.
"""

from __future__ import annotations

from typing import Final, final

from mypy_extensions import i64

from decks.engine import Rules
from decks.solver.moves import Model
from decks.solver.position import _LOW_BIT, Pos, _kept

_KEPT: Final = 200_000
"""How many piles a measure keeps its counts for (by the pile's cards: :meth:`Measures.tidy_distance`,
:meth:`Measures._facts_of`) before it starts them over."""


@final
class Measures:
    """The measures of one game's positions, with the tables they need made once from the compiled
    rules."""

    def __init__(self, model: Model) -> None:
        m = self.model = model
        self.total, self.size, self.cards, self.names = m.total, m.size, m.cards, m.names
        self.tab, self.fnd, self.stock, self.waste = m.tab, m.fnd, m.stock, m.waste
        self.rank, self.suit, self.suit_number, self.builds = m.rank, m.suit, m.suit_number, m.builds
        self.by_top = m.by_top
        # the game's own measure, natively
        self.tidy = m.rules.solver.measure == "tidy"
        self._breaks: dict[bytes, int] = {}     # tidy_distance's count per pile, by its cards
        self._compile_nearer(m.rules)
        self._compile_joins()
        self._compile_buried(m)

    def distance(self, p: Pos) -> int:
        """How far from a win the position looks, to try the closest child first: cards not home,
        face-down tableau cards four times, and face-down cards of a stock dealt onto the piles
        twice (a stock turned onto a waste is not progress; ``Rules.distance`` is not consulted: a
        hook on a full game state per child costs more than the search gains), or the game's
        measure where the solver knows it (:meth:`tidy_distance`)."""
        if self.tidy:
            return self.tidy_distance(p)
        hidden = p.hidden
        far = self.total - self.model.home_count(p)
        for i in self.tab:
            far += 3 * hidden[i]
        if self.waste is None and self.stock is not None:
            far += hidden[self.stock]
        return far

    def tidy_distance(self, p: Pos) -> int:
        """The measure of games whose tuning says ``SolverTuning.measure = "tidy"``, natively:
        cards not on a foundation, plus two for every tableau card lying on one it does not build on."""
        piles, breaks = p.piles, self._breaks
        far = self.total
        for i in self.fnd:
            far -= len(piles[i])
        for i in self.tab:
            pile = piles[i]
            n = breaks.get(pile)
            if n is None:
                if len(breaks) > _KEPT:
                    breaks.clear()
                builds = self.builds
                n = breaks[pile] = 2 * sum([not builds[a][b] for a, b in zip(pile, pile[1:], strict=False)])
            far += n
        return far

    def buried_distance(self, p: Pos) -> int:
        """A measure for games whose tableau is all face up and whose foundations build up in suit
        from the ace (King Albert's old move order and best-first one: ``SolverTuning.measure``): the
        tidy measure (:meth:`tidy_distance`: cards not home, two for every card lying on one it
        does not build on), plus six for every card lying over the next card a foundation wants and
        three for every card over the card after it.  Those cards must all move before that suit
        can go on, so a position that has dug the next cards out looks nearer a win than one that
        has only built (weights 6 and 3, search 2026-12-03e: docs/games.md).

        With one card of each suit and rank, codes below 63 (:meth:`_compile_buried`), each pile's
        part is read from its :class:`_PileFacts` (made once for the pile's cards: a child shares all
        but a pile or two with its parent): its tidy count, and of the two cards each suit wants
        next, the ones it holds under its top, as bits, and how many cards lie over each."""
        piles = p.piles
        if not self.by_facts:
            return self.tidy_distance(p) + self._buried_by_cards(p, self._heights(piles))
        if not _kept(piles, self.fnd, self._was_fnd):   # other foundations: work out anew
            self._next_wanted(piles)
        far: i64 = self._fnd_far
        six: i64 = self._six
        wanted: i64 = six | self._three
        low_bit = _LOW_BIT
        for i in self.tab:
            pile = piles[i]
            facts = self._was_facts[i]
            if self._was_facts_pile[i] is not pile:     # else as for the last position asked
                facts = self._was_facts[i] = self._facts_of(pile)
                self._was_facts_pile[i] = pile
            far += facts.tidy
            hits: i64 = facts.under & wanted
            while hits != 0:
                low: i64 = hits & -hits         # one of the wanted cards under the top, as its bit
                over = facts.depths[low_bit[low % 67]]
                far += 6 * over if six & low else 3 * over
                hits ^= low
        return far

    def _heights(self, piles: tuple[bytes, ...]) -> list[int]:
        """By suit number, the rank of its foundation's top card (0: none)."""
        rank, suit = self.rank, self.suit_number
        height = [0] * 8
        for f in self.fnd:
            pile = piles[f]
            if len(pile) > 0:
                height[suit[pile[-1]]] = rank[pile[-1]]
        return height

    def _next_wanted(self, piles: tuple[bytes, ...]) -> None:
        """For :meth:`buried_distance`, from the foundations (kept until they change): the cards
        not home (``_fnd_far``), and as bits the next card each suit wants (``_six``) and the card
        after it (``_three``)."""
        height = self._heights(piles)
        far: i64 = self.total
        for f in self.fnd:
            far -= len(piles[f])
        bit = self._bit
        six: i64 = 0                    # the next card of each suit, as bits
        three: i64 = 0                  # the card after it
        for s, row in enumerate(self.card_at):
            h = height[s]
            if h + 1 < len(row) and row[h + 1] >= 0:
                six |= bit[row[h + 1]]
            if h + 2 < len(row) and row[h + 2] >= 0:
                three |= bit[row[h + 2]]
        self._fnd_far: i64 = far
        self._six: i64 = six
        self._three: i64 = three

    def _buried_by_cards(self, p: Pos, height: list[int]) -> int:
        """:meth:`buried_distance`'s weights card by card (where two cards may share a suit and
        rank), by the foundations' ``height`` of each suit number."""
        piles, rank, suit = p.piles, self.rank, self.suit_number
        far = 0
        for i in self.tab:
            pile = piles[i]
            n = len(pile)
            for j in range(n - 1):
                c = pile[j]
                need = rank[c] - height[suit[c]]
                if need == 1:
                    far += 6 * (n - 1 - j)
                elif need == 2:
                    far += 3 * (n - 1 - j)
        return far

    def _compile_buried(self, m: Model) -> None:
        """For :meth:`buried_distance`: by suit number and rank, the card's code (-1: none); whether
        no two cards share a suit and rank and the codes are below 63 (``by_facts``: else the
        measure reads every card); by card code, its bit."""
        ranks = max(self.rank) + 1
        self.card_at: list[list[int]] = [[-1] * ranks for _ in range(max(self.suit_number) + 1)]
        self.by_facts = max(m.copies) <= 1 and max(self.suit_number) < 8 and self.size <= 63
        for c in self.cards:
            s, r = self.suit_number[c], self.rank[c]
            if r <= 0:
                continue
            if self.card_at[s][r] >= 0 or not self.suit[c]:
                self.by_facts = False
            self.card_at[s][r] = c
        self._bit: list[i64] = [1 << c for c in range(min(self.size, 63))]
        self._facts: dict[bytes, _PileFacts] = {}
        # by pile index, the last pile buried_distance read (the very bytes object) and its facts
        self._was_facts_pile = [b""] * len(m.names)
        self._was_facts = [self._facts_of(b"")] * len(m.names)
        # the last foundations buried_distance read (a pile no position holds to begin with), and
        # what it worked out from them (_next_wanted)
        self._was_fnd: list[bytes] = [b"\xff"] * len(self.fnd)
        self._next_wanted(tuple([b""] * len(m.names)))     # (right as it stands with no foundations)

    def _facts_of(self, pile: bytes) -> _PileFacts:
        """The pile's :class:`_PileFacts`, made once for its cards and kept."""
        facts = self._facts.get(pile)
        if facts is None:
            if len(self._facts) > _KEPT:
                self._facts.clear()
            n = len(pile)
            builds, bit = self.builds, self._bit
            depths = [0] * self.size
            under: i64 = 0
            tidy = 0
            for j in range(n - 1):
                depths[pile[j]] = n - 1 - j
                under |= bit[pile[j]]
                if not builds[pile[j]][pile[j + 1]]:
                    tidy += 2
            facts = self._facts[pile] = _PileFacts(tidy, under, bytes(depths))
        return facts

    def _compile_nearer(self, rules: Rules) -> None:
        """For :meth:`nearer_distance`, where the game's tuning says ``SolverTuning.measure =
        "nearer-foundation"``: each foundation's suit (by number) and whether it builds up from the
        ace or down from the king, from the card it takes when empty (its by-top table: an ace-king
        game's foundations, :func:`decks.games.two_pack.ace_king_accepts`)."""
        self.ends: list[tuple[int, int, bool]] = []
        self._needs: dict[bytes, list[int]] = {}        # each card's need, by the foundations' tops
        if rules.solver.measure != "nearer-foundation":
            return
        assert self.by_top is not None, "the nearer-foundation measure needs ace and king foundations"
        for f, table in self.by_top:
            start = table[self.size]
            assert len(start) == 1 and self.rank[start[0]] in (1, 13), self.names[f]
            self.ends.append((f, self.suit_number[start[0]], self.rank[start[0]] == 1))

    def nearer_distance(self, p: Pos) -> int:
        """Colorado's measure (:func:`decks.games.colorado.distance`), natively: cards not on a
        foundation, plus two for every tableau card lying on a card needed sooner.  A card's need
        is how many cards of its suit must go home before it can, on the nearer of its suit's two
        foundations (:meth:`_compile_nearer`)."""
        piles = p.piles
        far = self.total
        for f in self.fnd:
            far -= len(piles[f])
        need = self._need(piles)
        for i in self.tab:
            pile = piles[i]
            for j in range(1, len(pile)):
                if need[pile[j - 1]] < need[pile[j]]:
                    far += 2
        return far

    def _need(self, piles: tuple[bytes, ...]) -> list[int]:
        """By card code, its need (:meth:`nearer_distance`) with these foundations."""
        key = bytes([piles[f][-1] if len(piles[f]) > 0 else 255 for f, _, _ in self.ends])
        need = self._needs.get(key)
        if need is not None:
            return need
        if len(self._needs) > 100_000:
            self._needs.clear()
        count = len(set(self.suit_number))
        up, down = [0] * count, [14] * count
        for f, s, builds_up in self.ends:
            pile = piles[f]
            if len(pile) > 0:
                if builds_up:
                    up[s] = self.rank[pile[-1]]
                else:
                    down[s] = self.rank[pile[-1]]
        need = [0] * self.size
        for c in self.cards:
            s, r = self.suit_number[c], self.rank[c]
            after_up, after_down = r - up[s] - 1, down[s] - r - 1
            if after_up >= 0 and after_down >= 0:
                need[c] = min(after_up, after_down)
            elif after_up >= 0 or after_down >= 0:
                need[c] = max(after_up, after_down)
        self._needs[key] = need
        return need

    def suit_run_distance(self, p: Pos) -> int:
        """The measure of games whose tuning says ``SolverTuning.measure = "suit-runs"``
        (:func:`decks.games.spider.distance`), natively: cards not home, face-down tableau cards
        three times more, and two for every face-up card lying on one that is not of its suit and
        one rank higher (:meth:`_breaks_above`)."""
        piles, hidden = p.piles, p.hidden
        far = self.total - self.model.home_count(p)
        for i in self.tab:
            pile = piles[i]
            h = hidden[i]
            far += 3 * h
            if h + 1 < len(pile):
                far += 2 * self._breaks_above(pile, h)
        return far

    def spider_distance(self, p: Pos) -> int:
        """The best-first order's measure in the Spider games (:data:`decks.games.spider.SPIDER_ORDERS`):
        cards not discarded, five for every face-down tableau card (each hides what the rest of the
        deal needs), and two for every face-up card lying on one that is not of its suit and one
        rank higher (a break in a same-suit run, which must be mended before the suit goes)."""
        piles, hidden = p.piles, p.hidden
        far = self.total - self.model.home_count(p)
        for i in self.tab:
            pile = piles[i]
            h = hidden[i]
            far += 5 * h
            if h + 1 < len(pile):
                far += 2 * self._breaks_above(pile, h)
        return far

    def _breaks_above(self, pile: bytes, h: i64) -> i64:
        """How many cards of ``pile`` above place ``h`` lie on one that is not of their suit and one
        rank higher (a break in a same-suit run), counted pair by pair from the table :attr:`_joins`
        (:meth:`_compile_joins`): a pile's face-up cards are few, and counting them costs less than
        looking the pile up in a table of counts kept by its cards."""
        joins = self._joins
        size: i64 = self.size
        n: i64 = 0
        a: i64 = pile[h]
        for j in range(h + 1, len(pile)):
            b: i64 = pile[j]
            n += 1 - joins[a * size + b]
            a = b
        return n

    def _compile_joins(self) -> None:
        """For :meth:`_breaks_above`: by ``a * size + b`` (card codes), 1 where card ``b`` lying on
        card ``a`` continues a same-suit run (its suit, one rank lower), else 0."""
        rank, suit, size = self.rank, self.suit, self.size
        self._joins = bytes([1 if suit[a] == suit[b] and rank[a] == rank[b] + 1 else 0
                             for a in range(size) for b in range(size)])


@final
class _PileFacts:
    """What :meth:`Measures.buried_distance` reads of a tableau pile: ``tidy``, twice the cards lying
    on one they do not build on; ``under``, the cards under its top as bits (by code); ``depths``,
    by card code, how many cards lie over the card (0: none, or not in the pile)."""

    def __init__(self, tidy: int, under: i64, depths: bytes) -> None:
        self.tidy, self.under, self.depths = tidy, under, depths
