"""The transposition key: a position as the search's table holds it (:class:`Keys`).

Two positions that cannot differ for the rest of the game get the same key, so the search (its
transposition table, :mod:`decks.solver.search`) expands only one of them.  A key forgets:

* the order of interchangeable tableau piles (``Rules.symmetric``): Klondike's seven piles are one
  position in any order, so the key lists them in order of their bottom card;
* which foundation holds what, where foundations are interchangeable: only each one's height and
  top card count (for foundations built regardless of suit, only the top card's rank);
* which copy of a two-pack card lies where (both copies have one code: :mod:`decks.solver.position`);
* what lies in the discard (the cards not anywhere else);
* with the restarts, where the stock is turned k cards at a time with unlimited redeals (Klondike's
  flip-3 and online rules), which turn of the hand a position stands at, wherever turning the
  stock on from there comes round to every turn from a redeal (the waste holds a multiple of k
  cards, or the stock is empty: with k = 1 always), so such positions are one (:meth:`Keys.turned`).

It keeps, for each pile that may hide cards, how many lie face down: a position with fewer cards
known is another position.
"""

from __future__ import annotations

from typing import Final, cast, final

from mypy_extensions import i64

from decks.solver.moves import Model
from decks.solver.position import _LOW_BIT, Pos

Key = object
"""A transposition key (:meth:`Keys.of`), only ever hashed and compared for equality: one ``bytes``
in the one-pack form (:meth:`Keys._bytes_key`), else a tuple (piles as bytes, face-down counts and
numbers, then the counters and the generator's state)."""

_MARK: Final = [bytes((h,)) for h in range(256)]       # a face-down count as one byte, for keys
_SEP: Final = b"\xff"
"""Between the parts of a bytes key (:meth:`Keys._bytes_key`): no part holds it (card codes are below
63 there, face-down counts no more than a pile's cards, and the last part is UTF-8 text)."""
_EMPTY: Final = b""


@final
class Keys:
    """The keys of one game's positions (:meth:`of`), with the tables of its one-pack form made once
    from the compiled rules."""

    def __init__(self, model: Model, splits: bool = False) -> None:
        m = model
        self.symmetric, self.rank = m.symmetric, m.rank
        self.tab, self.fnd, self.res, self.others = m.tab, m.fnd, m.res, m.others
        self.equal_foundations, self.tops_tell_foundations = m.equal_foundations, m.tops_tell_foundations
        self.sort_reserve, self.track_hidden, self.unlimited = m.sort_reserve, m.track_hidden, m.unlimited
        # the one-pack form (:meth:`_bytes_key`): no two cards share a code, codes below 63 (bits
        # of an i64), a tableau, and foundations that count whole or by their tops
        self.one_pack_key = (max(m.copies) <= 1 and m.size <= 63 and bool(m.tab)
                             and (m.tops_tell_foundations or not m.equal_foundations))
        self._bit: list[i64] = [1 << c for c in range(min(m.size, 63))]     # by card code, its bit
        # the hand as one sequence and a turn (:meth:`_parts_hand`): ``step`` cards a turn, 0 if not
        hand = m.hand_piles()
        self.step, self.stock, self.waste = 0, -1, -1
        if (splits and self.one_pack_key and m.unlimited and m.draw is not None and m.track_hidden
                and len(hand) == 2 and m.others[-2:] == hand):
            self.step = m.draw
            self.stock, self.waste = hand
            self.others = m.others[:-2]
        self._stock_was, self._waste_was, self._order = b"", b"", b""   # _parts_hand's last hand
        self._turned_as = _EMPTY        # _parts_hand's last count of cards turned, as a byte
        self._hidden_was: tuple[int, ...] = ()      # _hidden_bytes's last counts, and their bytes
        self._hidden_as = b""
        # _bytes_key's scratch: its parts, as many as its keys most often have (:meth:`_usual_parts`)
        self._usual = self._usual_parts()
        self._parts: list[bytes] = [_EMPTY] * self._usual
        self._by_bottom: list[bytes] = [_EMPTY] * 64    # _parts_sorted's scratch: by bottom card, its pile
        self._mark_by_bottom: list[bytes] = [_EMPTY] * 64   # … and its face-down count's byte
        self._cards_as: dict[i64, bytes] = {}       # _cards's: sets of cards as bytes, made once
        # _tail's last redeals, counters and generator state, and its part; _bytes_key's last
        # foundation tops and reserve cards (sets of cards), and their parts
        self._counters_was: tuple[tuple[str, int], ...] = ()
        self._rng_was, self._redeals_was = -1, -1
        self._tail_as = repr((-1, (), -1)).encode()     # the part of those: made as _tail makes it
        self._tails: dict[tuple[int, tuple[tuple[str, int], ...], int], bytes] = {}    # each made once
        # and those asked before them (a position's children alternate between its own and another)
        self._tops_was: i64 = -1
        self._singles_was: i64 = -1
        self._tops_before: i64 = -1
        self._singles_before: i64 = -1
        self._tops_as = self._singles_as = self._tops_before_as = self._singles_before_as = b""
        # _parts_sorted_up: the tableau's places first … end - 1 (-1: not one run, or more than ten
        # piles); the bottom cards it last read (six bits a pile), the piles' order then, and before
        self._tab_first: i64 = self.tab[0] if self.tab else 0
        self._tab_end: i64 = self._tab_first + len(self.tab)
        if self.tab != list(range(self._tab_first, self._tab_end)) or len(self.tab) > 10:
            self._tab_end = -1
        self._bottoms_was: i64 = -1
        self._bottoms_before: i64 = -1
        self._order_was: list[int] = []
        self._order_before: list[int] = []
        self._orders: dict[i64, list[int]] = {}     # each order made once (until 65,536 are kept)
        # King Albert's form (:meth:`_reserve_key`): a sorted tableau with no face-down cards, the
        # foundations' tops, a reserve of single cards, nothing else but the tail
        self._res_first: i64 = self.res[0] if self.res else 0      # the reserve's places
        self._res_end: i64 = self._res_first + len(self.res)
        self.reserve_form = (self.one_pack_key and self.symmetric and not self.track_hidden
                             and self._tab_end >= 0 and self.tops_tell_foundations and self.equal_foundations
                             and bool(self.fnd) and self.sort_reserve and not self.others and not self.step
                             and bool(self.res) and self.res == list(range(self._res_first, self._res_end)))
        self._reserve_parts: list[bytes] = [_EMPTY] * (len(self.tab) + 1)
        # _reserve_key's three parts (tops, reserve, tail) and their join, last and before
        self._rest_was: tuple[bytes, bytes, bytes, bytes] = (b"\xff", b"\xff", b"\xff", b"\xff")
        self._rest_before = self._rest_was

    def _bytes_key(self, p: Pos) -> Key | None:
        """:meth:`of` where no two cards share a code (one pack) and the codes are below 64, so no two
        piles of a position share a bottom card, as one ``bytes``: hashed once (a bytes object keeps
        its hash) and compared as memory, where a tuple's hash combines every entry's at every
        look-up.  The parts: the tableau's piles (as their own bytes objects, interchangeable ones in
        order of their bottom card, the empty ones first) with their face-down counts, the
        foundations (interchangeable ones' tops as the set of their cards), the reserve and other
        piles, the hand where :attr:`step` is set (:meth:`_parts_hand`), the numbers as a byte
        each, a set of cards as their codes in order (:meth:`_cards`), joined with :data:`_SEP`, a
        byte no part holds, so the parts can be read back: two positions get equal bytes exactly
        when they would get equal tuples of the form before (tests/solver_tuple_keys.py, which the
        key tests compare with).  The last part holds the redeals, counters and generator state
        (:meth:`_tail`).  None where the general form is needed: an empty pile with face-down
        cards."""
        piles, marks, parts = p.piles, self.track_hidden, self._parts
        # where the tableau is not sorted, one part holds every pile's face-down count: the
        # reserve's and other piles' are not told again
        own_marks = marks and self.symmetric
        k: i64 = 0
        if self.symmetric:
            if not marks and self._tab_end >= 0:
                k = self._parts_sorted_up(p, parts, k)
            else:
                k = self._parts_sorted(p, self.tab, marks, k)
                if k < 0:
                    return None
        else:
            for i in self.tab:
                parts[k] = piles[i]
                k += 1
            parts[k] = self._hidden_bytes(p.hidden)
            k += 1
        if self.tops_tell_foundations:
            if self.equal_foundations and len(self.fnd) == 0:
                pass                    # no foundations (the Spider games): no part for them
            elif self.equal_foundations:
                tops = self._foundation_tops(p)
                if tops != self._tops_was:      # a position's children share its foundations but one
                    self._tops_was, self._tops_as = tops, self._cards(tops)
                parts[k] = self._tops_as
                k += 1
            else:
                for i in self.fnd:
                    fp = piles[i]
                    parts[k] = _MARK[fp[-1]] if len(fp) > 0 else _EMPTY
                    k += 1
        else:
            for i in self.fnd:
                parts[k] = piles[i]
                k += 1
        if self.sort_reserve:
            singles = self._single_cards(p, self.res)
            if singles >= 0:
                if singles != self._singles_was:
                    self._singles_was, self._singles_as = singles, self._cards(singles)
                parts[k] = self._singles_as
                k += 1
            else:
                parts.extend([_EMPTY] * (len(self.res) * (2 if marks else 1)))  # room for them
                k = self._parts_sorted(p, self.res, marks, k)
                if k < 0:
                    del parts[self._usual:]
                    return None
                parts[k] = _EMPTY       # one part more than the reserve as one set: never alike
                k += 1
        else:
            k = self._parts_of(p, self.res, own_marks, k)
        k = self._parts_of(p, self.others, own_marks, k)
        if self.step:
            k = self._parts_hand(p, k)
        parts[k] = self._tail(p)
        k += 1
        if self.step:
            parts[k] = self._turned_as      # last: Keys.turned reads it there
            k += 1
        if k == len(parts):
            return _SEP.join(parts)
        key = _SEP.join(parts[:k])
        del parts[self._usual:]
        return key

    def _reserve_key(self, p: Pos) -> bytes | None:
        """:meth:`_bytes_key` of :attr:`reserve_form` (King Albert): the same bytes, its last three
        parts (the foundations' tops, the reserve's cards, the tail) joined as one part, kept with
        them for the last two asked (a position's children alternate between its own and another),
        so the join copies ten parts, not twelve (which needed a buffer list of their own in
        ``bytes.join``); None where a reserve pile holds more than a card."""
        piles, bit = p.piles, self._bit
        singles: i64 = 0        # (_single_cards, over the reserve's run of places: no list walked)
        for i in range(self._res_first, self._res_end):
            pile = piles[i]
            if len(pile) > 1:
                return None
            if len(pile) == 1:
                singles |= bit[pile[0]]
        parts = self._reserve_parts
        k = self._parts_sorted_up(p, parts, 0)
        tops = self._foundation_tops(p)
        if tops != self._tops_was:
            was, was_as = self._tops_was, self._tops_as
            self._tops_as = self._tops_before_as if tops == self._tops_before else self._cards(tops)
            self._tops_was, self._tops_before, self._tops_before_as = tops, was, was_as
        if singles != self._singles_was:
            was, was_as = self._singles_was, self._singles_as
            known = singles == self._singles_before
            self._singles_as = self._singles_before_as if known else self._cards(singles)
            self._singles_was, self._singles_before, self._singles_before_as = singles, was, was_as
        tail, tops_as, singles_as = self._tail(p), self._tops_as, self._singles_as
        rest = self._rest_was
        if rest[0] is not tops_as or rest[1] is not singles_as or rest[2] is not tail:
            before = self._rest_before
            if before[0] is tops_as and before[1] is singles_as and before[2] is tail:
                self._rest_before, rest = rest, before
            else:
                joined = _SEP.join([tops_as, singles_as, tail])
                self._rest_before, rest = rest, (tops_as, singles_as, tail, joined)
            self._rest_was = rest
        parts[k] = rest[3]
        return _SEP.join(parts)

    def _usual_parts(self) -> int:
        """How many parts :meth:`_bytes_key` joins, unless the reserve is sorted and one of its piles
        holds more than a card (then a part more, and one or two for each reserve pile more)."""
        per_pile = 2 if self.track_hidden and self.symmetric else 1
        n = len(self.tab) * per_pile if self.symmetric else len(self.tab) + 1
        n += 1 if self.tops_tell_foundations and self.equal_foundations and self.fnd else len(self.fnd)
        n += 1 if self.sort_reserve else len(self.res) * per_pile
        n += 2 if self.step else 0          # the hand in turn order, and how many lie turned
        return n + len(self.others) * per_pile + 1

    def _tail(self, p: Pos) -> bytes:
        """For :meth:`_bytes_key`: its last part, the redeals (0 with unlimited redeals), counters
        and generator state as the ``repr`` of their tuple in UTF-8 (which tells strings and numbers
        apart, and never holds the byte 255); made once for a position's children, which share
        them unless a move counts (the very same counters), and once for each such tuple (kept
        until 65,536 are kept, then made afresh)."""
        redeals = 0 if self.unlimited else p.redeals
        counters, rng = p.counters, p.rng
        if counters is self._counters_was and rng == self._rng_was and redeals == self._redeals_was:
            return self._tail_as
        if counters != self._counters_was or rng != self._rng_was or redeals != self._redeals_was:
            tail = (redeals, counters, rng)
            made = self._tails.get(tail)
            if made is None:
                if len(self._tails) >= 65536:
                    self._tails.clear()
                made = self._tails[tail] = repr(tail).encode()
            self._tail_as, self._rng_was, self._redeals_was = made, rng, redeals
        self._counters_was = counters
        return self._tail_as

    def _parts_of(self, p: Pos, indexes: list[int], marks: bool, k: i64) -> i64:
        """For :meth:`_bytes_key`: the piles ``indexes`` in order into its parts from ``k``, each
        followed by its face-down count's byte if ``marks``; the next part's place."""
        piles, hidden, parts = p.piles, p.hidden, self._parts
        for i in indexes:
            parts[k] = piles[i]
            k += 1
            if marks:
                parts[k] = _MARK[hidden[i]]
                k += 1
        return k

    def _parts_sorted(self, p: Pos, indexes: list[int], marks: bool, k: i64) -> i64:
        """As :meth:`_parts_of`, the piles in order of their bottom card, the empty ones first (as
        the tuple form did); -1 where an empty pile has face-down cards."""
        piles, hidden, parts, bit = p.piles, p.hidden, self._parts, self._bit
        by_bottom, mark_by_bottom = self._by_bottom, self._mark_by_bottom
        bottoms: i64 = 0                # a bit for each bottom card
        for i in indexes:
            pile = piles[i]
            if len(pile) > 0:
                b: i64 = pile[0]
                by_bottom[b] = pile
                if marks:
                    mark_by_bottom[b] = _MARK[hidden[i]]
                bottoms |= bit[b]
            elif marks:
                if hidden[i] != 0:
                    return -1
                parts[k] = pile
                parts[k + 1] = _MARK[0]
                k += 2
            else:
                parts[k] = pile
                k += 1
        low_bit = _LOW_BIT
        while bottoms != 0:
            low: i64 = bottoms & -bottoms       # the lowest bottom card left, as its bit
            b = low_bit[low % 67]
            parts[k] = by_bottom[b]
            k += 1
            if marks:
                parts[k] = mark_by_bottom[b]
                k += 1
            bottoms ^= low
        return k

    def _parts_sorted_up(self, p: Pos, parts: list[bytes], k: i64) -> i64:
        """:meth:`_parts_sorted` of the tableau where no card lies face down (no counts) and its
        piles are one run of places (:attr:`_tab_first` …), into ``parts`` from ``k``; the next
        part's place.  The order of the piles depends only on which bottom card each place holds:
        read as six bits a pile (a code and one, 0 for an empty pile), it is the order of the key
        asked before (or the one before it) unless a pile was emptied or filled since (a position's
        children mostly keep every bottom card), and else made once for those bottoms
        (:meth:`_order_of`)."""
        piles = p.piles
        bottoms: i64 = 0
        for i in range(self._tab_first, self._tab_end):
            pile = piles[i]
            bottoms <<= 6
            if len(pile) > 0:
                bottoms |= pile[0] + 1
        if bottoms != self._bottoms_was:
            if bottoms == self._bottoms_before:
                order = self._order_before
            else:
                got = self._orders.get(bottoms)
                if got is None:
                    if len(self._orders) >= 65536:
                        self._orders.clear()
                    got = self._orders[bottoms] = self._order_of(p)
                order = got
            self._bottoms_before, self._order_before = self._bottoms_was, self._order_was
            self._bottoms_was, self._order_was = bottoms, order
        for i in self._order_was:
            parts[k] = piles[i]
            k += 1
        return k

    def _order_of(self, p: Pos) -> list[int]:
        """The tableau's places in the order :meth:`_parts_sorted` takes its piles: the empty ones
        first, then by bottom card."""
        piles = p.piles
        empty, by_bottom = [], [-1] * 64
        for i in range(self._tab_first, self._tab_end):
            if len(piles[i]) == 0:
                empty.append(i)
            else:
                by_bottom[piles[i][0]] = i
        return empty + [i for i in by_bottom if i >= 0]

    def _cards(self, cards: i64) -> bytes:
        """A set of cards (a bit a card, by code) as the bytes of their codes in order, each set made
        once (kept for the next ask until 65,536 are kept, then made afresh)."""
        made = self._cards_as.get(cards)
        if made is None:
            if len(self._cards_as) >= 65536:
                self._cards_as.clear()
            codes: list[int] = []
            left = cards
            while left != 0:
                low: i64 = left & -left
                codes.append(_LOW_BIT[low % 67])
                left ^= low
            made = self._cards_as[cards] = bytes(codes)
        return made

    def _hidden_bytes(self, hidden: tuple[int, ...]) -> bytes:
        """``bytes(hidden)``, made once for a position's children: a move that turns no card up
        leaves the child the parent's very tuple of face-down counts."""
        if hidden is not self._hidden_was:
            self._hidden_was, self._hidden_as = hidden, bytes(hidden)
        return self._hidden_as

    def _parts_hand(self, p: Pos, k: i64) -> i64:
        """For :meth:`_bytes_key` where :attr:`step` is set: the stock and waste as the order a redeal
        would turn them in (the waste, then the stock from its top) as parts from ``k``, and how many
        lie turned (0 where turning on comes round to every turn from a redeal: a multiple of
        ``step``, or all of them), which :meth:`_bytes_key` puts after its tail,
        at the key's end (:attr:`_turned_as`, read by :meth:`turned`); the next part's place.
        Face-down cards anywhere but the whole stock: the stock, its count, the waste (three parts,
        two more than the usual form's one: room is made for them), and the waste's count last."""
        piles, hidden, parts = p.piles, p.hidden, self._parts
        stock, waste = piles[self.stock], piles[self.waste]
        down: int = hidden[self.stock]
        if down != len(stock) or hidden[self.waste] != 0:
            parts.extend([_EMPTY, _EMPTY])
            parts[k], parts[k + 1], parts[k + 2] = stock, _MARK[down], waste
            self._turned_as = _MARK[hidden[self.waste]]
            return k + 3
        if stock is not self._stock_was or waste is not self._waste_was:
            # a position's children share its hand unless a move takes from it: made once for them
            self._stock_was, self._waste_was = stock, waste
            self._order = waste + stock[::-1]
        turned = len(waste)
        self._turned_as = _MARK[0 if turned % self.step == 0 or len(stock) == 0 else turned]
        parts[k] = self._order
        return k + 1

    def turned(self, key: Key) -> int:
        """How many cards of the hand ``key`` holds turned, as the key counts them (0 for a multiple
        of :attr:`step` or all: :meth:`_parts_hand`); -1 where :attr:`step` is not set or the key is
        of the general form (a tuple).

        Turning k at a time goes from t cards turned to t + k, the last turn to all, a redeal to
        none: so from t a position reaches, by turning alone, the same position with t + k, t + 2k …
        turned and then with every multiple of k.  A position proved lost proves lost every one it
        reaches so (:meth:`decks.solver.search.Search.lost`): they are found by the key of the hand
        turned to a multiple of k (:meth:`redealt`)."""
        if not self.step or not isinstance(key, bytes):
            return -1
        return key[-1]                  # the one-pack form (:meth:`_bytes_key`): its last byte

    @staticmethod
    def redealt(key: Key) -> Key:
        """``key`` (a one-pack key where :attr:`step` is set) with the hand turned to a multiple of k."""
        return cast(bytes, key)[:-1] + _MARK[0]

    def _foundation_tops(self, p: Pos) -> i64:
        """The foundations' top cards as one number, a bit a card (equal foundations: which holds which
        does not matter)."""
        piles, bit = p.piles, self._bit
        tops: i64 = 0
        for i in self.fnd:
            fp = piles[i]
            if len(fp) > 0:
                tops |= bit[fp[-1]]
        return tops

    def _single_cards(self, p: Pos, indexes: list[int]) -> i64:
        """For :meth:`_bytes_key`: where the piles ``indexes`` hold one face-up card or none each
        (King Albert's reserve), their cards as one number, a bit a card (which pile holds which
        does not matter, and the empty ones are the rest); -1 where one holds more or a face-down
        card.  Equal for two positions exactly when :meth:`_parts_sorted`'s parts would be."""
        piles, hidden, marks, bit = p.piles, p.hidden, self.track_hidden, self._bit
        cards: i64 = 0
        for i in indexes:
            pile = piles[i]
            n = len(pile)
            if n > 1 or marks and hidden[i] != 0:   # (no card lies face down unless tracked)
                return -1
            if n == 1:
                cards |= bit[pile[0]]
        return cards

    def of(self, p: Pos) -> Key:
        """The transposition key of ``p`` (see the module docstring): one flat tuple, the tableau piles,
        foundations, reserves and other piles each in places of their own (the game fixes how many
        of each), then redeals, counters and the generator."""
        if self.reserve_form:
            quick = self._reserve_key(p)
            if quick is not None:
                return quick
        if self.one_pack_key:
            fast = self._bytes_key(p)
            if fast is not None:
                return fast
        piles, hidden = p.piles, p.hidden
        if self.symmetric:
            seen = self._seen_as(p, self.tab)
            seen.sort()
            out: list[object] = cast("list[object]", seen)  # the sorted piles begin the key
        else:
            out = [piles[i] for i in self.tab]
            out.append(bytes(hidden))
        if self.tops_tell_foundations:
            # the top card tells the height: a foundation starts from one rank and climbs by one
            tops = [piles[i][-1] if len(piles[i]) > 0 else -1 for i in self.fnd]
            if self.equal_foundations:
                tops.sort()
            out.extend(tops)
        elif self.equal_foundations:
            rank = self.rank
            heights = [len(piles[i]) * 256 + rank[piles[i][-1]] if len(piles[i]) > 0 else -1
                       for i in self.fnd]
            heights.sort()
            out.extend(heights)
        else:
            out.extend([piles[i] for i in self.fnd])
        res = self._seen_as(p, self.res)
        if self.sort_reserve:
            res.sort()
        out.extend(res)
        out.extend(self._seen_as(p, self.others))
        out.append(0 if self.unlimited else p.redeals)
        out.append(p.counters)
        out.append(p.rng)
        return tuple(out)

    def _seen_as(self, p: Pos, indexes: list[int]) -> list[bytes]:
        """The piles ``indexes`` as a key holds them: each pile's cards, after a byte of its
        face-down count where cards can lie face down (fewer known is another position)."""
        piles = p.piles
        if not self.track_hidden:
            return [piles[i] for i in indexes]
        mark, hidden = _MARK, p.hidden
        return [mark[hidden[i]] + piles[i] for i in indexes]
