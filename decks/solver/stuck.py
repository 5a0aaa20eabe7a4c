"""Dead positions proved at sight: cards that are stuck for good (:class:`Stuck`).

In a game whose foundations build up in suit from the ace and never give a card back, every card must
one day go home, and a card goes home only after every lower card of its suit.  Some cards can leave
the place they lie in *only* by going home; call such a card *fixed*.  A fixed card ``x`` lying on
cards it covers for good (the cards *beneath* it, below) holds them there until ``x`` goes home.  So in
any winning line

* ``x`` goes home before every card beneath it (they cannot move while ``x`` covers them), and
* a card goes home after every lower card of its suit.

Each is a strict "before" between two cards going home.  If these "befores" make a cycle, no line of
play wins: the position is dead.  The simplest cycle is a fixed card lying on a lower card of its own
suit (La Belle Lucie's classic blocker: the 6 of spades on the 7 and the 3 of spades in one fan, with
no redeal left — the 6 can only go home, after the 3, which it covers).  Longer ones run across piles:
a fixed 5 of spades on the 3 of hearts while a fixed 4 of hearts lies on the 2 of spades.

**Which cards are fixed** (each rule follows from the game's own move rules; :meth:`Stuck.dead`):

* A card can go onto a tableau card that takes it (a *target*: in Klondike a card one rank higher in
  the other colour, in La Belle Lucie the next card of its suit), onto a space where the game allows it
  (Klondike: a king), or home.  A card with no target that could ever take it, and no space, is fixed.
* A target is closed for good when it is home (the foundations never give a card back); when it lies
  beneath the card itself (it can only come out after the card has left); or when it is a card of the
  hand (stock or waste) that can never reach the tableau (itself fixed).  It is closed to the card
  asking, too, when it is a hand card that could reach the tableau only onto cards lying beneath the
  card asking, directly or through other hand cards: at the root of flip 3 deal 33 the jack of clubs
  heads a pile over both black kings and the 10 of clubs, with both red queens in the stock; a red
  queen reaches the tableau only onto a black king (it takes no space), so the jack leaves only home,
  after the 10 it covers, and the deal is lost.
* A target is also closed to a card when it lies face up under a card that can go home only after one
  of the cards beneath the asking card: where a pile's face-up cards move only all together (Klondike
  without partial moves), the cards over a target leave it only by going home, so the target is free
  only once the asking card has left (in a position of Klondike deal 53's search, the 7 of diamonds,
  lying over the ace of clubs in the waste, cannot use the 8 of spades under the 6 of clubs).  This is
  asked only with no redeal left; where the waste comes round again it decided no more deals in the
  searches measured and only cost time.  A target anywhere else — on the tableau, face up or down, or
  in the hand — might be free one day, so it counts as open.
* Which cards lie *beneath* a card for good: in a game whose tableau moves one card at a time (La Belle
  Lucie), every card below it in its pile; where a pile's face-up cards move together (or any face-up
  tail: Klondike), only the face-down cards below the lowest face-up card — the *head*, which leaves
  only as the bottom of a moving build or home.  The face-up cards above the head are never fixed: they
  can leave with a build, whatever their targets (an earlier attempt that judged them fixed lost won
  deals).  In the waste, once no redeal is left, every waste card below a card: only the waste's top
  card can be played.
* A simpler dead end (:meth:`Relaxation.no_turn_up <decks.solver.relaxed.Relaxation.no_turn_up>`):
  no face-down tableau card can ever be turned up.  A pile's face-down cards come up only once its
  head has left, and the head leaves only home (after every lower card of its suit), onto a target,
  or into a space (a king, where some pile holds no face-down card and so may one day be empty).  If
  for every pile with face-down cards a lower card of the head's suit lies face down, each of its
  targets lies face down or home, and it cannot take a space, then no first card can come up, since
  until one does the face-down cards stay where they are; and a game with a card face down is not
  won.  The relaxation below proves every such position lost too (its head never gets off: no card
  that takes it is ever bare or playable, and no space comes), so this is asked only where the
  relaxation is not (a position made by hand, with cards in no pile).
* A stronger test: a relaxation of the game (:mod:`decks.solver.relaxed`).  Where a redeal is left it
  is asked alone; in Klondike, with no redeal, after the tests above.
* While a redeal is left, the hand cards cover nothing for good (a redeal brings them round again), and
  in a game whose redeal gathers and deals the tableau anew (La Belle Lucie) nothing is judged.

The test is sound — a position it calls dead cannot be won — and misses many dead positions: those lost
only because two cards want the same place, or the same space, at once (what the relaxation leaves
out), and every game with two packs, reserves or spaces that take any card (King Albert).  It is used
only by the search with restarts (:func:`decks.solver.search.solve`), which prunes a dead position and
counts it proved lost.
"""

from __future__ import annotations

from typing import Final, final

from decks.solver.blockers import NO_RANK as _NO_RANK
from decks.solver.blockers import Blockers as _Blockers
from decks.solver.blockers import applies, cycle, lowest_beneath, lows_beneath
from decks.solver.moves import Model
from decks.solver.position import Pos
from decks.solver.relaxed import Relaxation, next_gen

_AWAY: Final = 255
"""Where :meth:`Stuck._locate` finds a card that lies in no pile."""
_UNJUDGED: Final = 0
_FIXED: Final = 1
_FREE: Final = 2
"""What :meth:`Stuck._hand_fixed` found of a card: not asked yet, fixed, free."""
_Waiting = bytes
"""Waste cards that may be held (:meth:`Stuck._waste_facts`), lowest first, a byte each: twice the
place in the waste, plus one where a lower card of its suit lies beneath it (one pack: below 256);
what lies beneath each is read from the waste's lowest ranks (:meth:`Stuck._waste_lows`)."""
_HandFacts = tuple[list[int], _Blockers, bool, _Waiting, list[list[int] | None]]
"""What :meth:`Stuck._hand` keeps of a hand.  The search asks about one position after another
that share most piles, and the test keeps what depends on a few alone: where each card lies (laid
again only in the piles whose bytes changed), the hand's facts (the last ones, and by hand and
heights), the lowest ranks under each head; the verdicts are those of a test asked afresh."""


@final
class Stuck:
    """The dead-position test for one game (:mod:`decks.solver.stuck`): built once per search from the
    compiled rules; :meth:`dead` judges a position.  ``applies`` says whether the game is one the
    test knows how to judge (else :meth:`dead` is never true)."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.applies = applies(model)
        size = model.size
        # the tableau cards each card builds on (its targets), and whether it may go into a space
        self.targets: list[list[int]] = [[u for u in model.cards if model.builds[u][c]] for c in range(size)]
        self.to_space: list[bool] = [model.space_rule in (1, 2) and model.rank[c] == 13 for c in range(size)]
        suits = sorted({model.suit[c] for c in model.cards})
        self.suit_no: list[int] = [suits.index(model.suit[c]) if c in model.cards else 0 for c in range(size)]
        self.suits = len(suits)
        self.rank: list[int] = list(model.rank)
        self.heads_only = model.unit in ("face-up", "tail")
        # where a pile's face-up cards move only all together (Klondike), a card they cover is closed
        # to a card that must leave before they can go home (:meth:`_held_over`)
        self.runs_hold = model.unit == "face-up"
        # where each card lies (:meth:`_locate`): by card, its pile (_AWAY: none) and place in it; by
        # pile, the bytes last laid; by pile number (_AWAY too), whether a hand or tableau pile.  By
        # card, what :meth:`_hand_shut` found for one asking card (where _shut_stamp is _shut_gen)
        self._pile_of, self._place_of = [_AWAY] * size, [0] * size
        self._laid: list[bytes | None] = [None] * len(model.letters)
        self._located: list[int] = list(model.tab) + list(model.hand)
        self._is_hand = [i in model.hand for i in range(_AWAY + 1)]
        self._is_tab = [i in model.tab for i in range(_AWAY + 1)]
        self._shut_stamp: list[int] = [0] * size
        self._shut: list[bool] = [False] * size
        self._shut_gen = 0
        # by tableau pile, the cards :meth:`_lowest_under` last found the lowest ranks under, and those
        self._low_pile = [b""] * len(model.letters)
        self._low: list[bytes] = [bytes([_NO_RANK] * self.suits) for _ in model.letters]
        self.gathers = bool(model.rules.actions) and model.stock is None    # La Belle Lucie's redeal
        self.has_hand = bool(model.hand)
        self._hands: dict[tuple[tuple[bytes, ...], int], _HandFacts] = {}
        # the last hand's facts (:meth:`_hand`), its piles' bytes and the foundations' heights
        self._last_hand: _HandFacts = ([], [], False, b"", [])
        # by a waste's cards, the lowest rank of each suit beneath each of its places (_waste_lows)
        self._lows: dict[bytes, bytes] = {}
        self._lows_last: tuple[bytes, bytes] = (b"", b"")     # the waste whose lows were found last
        # the foundations :meth:`_heights` read last (by object) and the heights it found there
        self._fnd_laid: list[bytes | None] = [None] * len(model.fnd)
        self._height: list[int] = [0] * self.suits     # (no foundations: always none home)
        self._laid_hand: list[bytes | None] = [None] * len(model.letters)
        self._last_level = -1
        # the number standing for the heights last found (:meth:`_heights`), and the bits it gives a
        # suit (enough for every rank)
        self._level = 0
        self._shift = max(model.rank).bit_length()
        # the relaxed test (decks.solver.relaxed), where the game is one it judges
        self.relaxation = Relaxation(model, self.targets, self.to_space, self.suit_no, self.suits)
        self.relaxed = self.heads_only and self.has_hand and self.relaxation.applies

    def dead(self, p: Pos) -> bool:
        """Whether the position can be proved lost by its stuck cards (see the module docstring):
        the fixed cards and what lies beneath them make a cycle of "goes home before"."""
        if not self.applies:
            return False
        m = self.model
        if self.gathers and m.redeal_left(p):
            return False
        piles = p.piles
        height = self._heights(piles)
        allowed = m.redeals_allowed     # blocks: no redeal left, the waste's cards cover others for good
        blocks = m.waste is not None and allowed is not None and p.redeals >= allowed
        relaxed = self.relaxed and self.relaxation.all_placed(p, height)
        if relaxed and not blocks:      # alone where a redeal is left (see the module docstring)
            return self.relaxation.dead(p, height)
        if self.heads_only and not relaxed and self.relaxation.no_turn_up(p, height):
            return True                 # (where the relaxation is asked, it proves these too)
        self._locate(p, relaxed)
        judged, in_waste, waste_dead, waiting, opened = self._hand(p, height, blocks)
        if waste_dead:
            return True
        # the tableau's runs are asked about only with no redeal left: a help in Klondike's searches,
        # none measured where the waste comes round again (flip 3, online rules), only a cost
        held_over = self.runs_hold and blocks
        blockers: _Blockers = []
        hidden = p.hidden
        for i in m.tab:
            pile = piles[i]
            h = hidden[i]
            if self.heads_only:
                if 0 < h < len(pile) and self._fixed(p, pile[h], i, h, height, judged, blocks):
                    blockers.append((pile[h], list(self._lowest_under(pile, i, h))))
            elif len(pile) > 1:
                self._pile_blockers(p, i, max(h, 1), height, judged, blocks, blockers)
        if held_over and m.waste is not None:
            # none in the tableau: a cycle in the waste needs one over a lower card of its suit
            held = self._held_in_waste(p, height, judged, waiting, opened, not blockers)
            if held and not blockers:
                return True
            blockers += held
        if not blockers:
            return relaxed and self.relaxation.dead(p, height)
        # a cycle within the waste alone needs a fixed card over a lower one of its suit (if blocker
        # a goes before blocker b beneath it, and b before a, a card beneath b and so beneath a is of
        # a's suit and lower): waste_dead; a longer one runs through the tableau's blockers too
        return cycle(blockers + in_waste, self.suit_no, self.rank) or (
            relaxed and self.relaxation.dead(p, height))

    def _hand(self, p: Pos, height: list[int], blocks: bool) -> _HandFacts:
        """What the hand (stock and waste) holds for good, kept by the hand's piles, the foundations'
        heights and ``blocks`` (no redeal left): the hand cards judged (:meth:`_hand_fixed`; the
        waste's judged at once, the rest when asked), the fixed waste cards with what lies beneath
        them, whether one of them lies over a lower card of its suit, and the waste cards that may
        be held, with their open targets once found (:meth:`_waste_facts`).  ``height`` must be the
        list :meth:`_heights` found last (its :attr:`_level` stands for it)."""
        m = self.model
        if not self.has_hand or not blocks:     # nothing in the waste to judge: the rest when asked
            return [_UNJUDGED] * m.size, [], False, b"", []
        piles = p.piles
        level = self._level             # (the heights of this position: :meth:`_heights`)
        same = level == self._last_level
        for i in m.hand:
            same = same and piles[i] is self._laid_hand[i]
        if same:
            return self._last_hand
        for i in m.hand:
            self._laid_hand[i] = piles[i]
        self._last_level = level
        key = (tuple([piles[i] for i in m.hand]), level)     # (blocks is true here)
        hit = self._hands.get(key)
        if hit is not None:
            self._last_hand = hit
            return hit
        if len(self._hands) > 100_000:
            self._hands.clear()
        hit = self._hands[key] = self._last_hand = self._waste_facts(p, height)
        return hit

    def _waste_facts(self, p: Pos, height: list[int]) -> _HandFacts:
        """A hand's facts (:meth:`_hand`, no redeal left), in one pass up the waste: each card judged
        (:meth:`_hand_fixed`); the fixed ones with the lowest rank of each suit beneath (blockers),
        whether one lies over a lower card of its suit, the places of the others that take no space,
        waiting (:meth:`_held_in_waste` asks about them, where the tableau's runs hold)."""
        m = self.model
        judged = [_UNJUDGED] * m.size
        in_waste: _Blockers = []
        waiting: list[int] = []
        dead = False
        waste = b"" if m.waste is None else p.piles[m.waste]
        lows = self._waste_lows(waste)
        rank, suit_no, suits, to_space = self.rank, self.suit_no, self.suits, self.to_space
        runs_hold = self.runs_hold
        for j in range(1, len(waste)):
            c = waste[j]
            at = j * suits
            over = lows[at + suit_no[c]] < rank[c]     # over a lower card of its suit
            if self._hand_fixed(p, c, height, judged, True):
                in_waste.append((c, list(lows[at:at + suits])))
                dead = dead or over
            elif runs_hold and not to_space[c]:
                waiting.append(2 * j + 1 if over else 2 * j)
        opened: list[list[int] | None] = [None] * len(waiting)
        return judged, in_waste, dead, bytes(waiting), opened

    def _waste_lows(self, waste: bytes) -> bytes:
        """:func:`lows_beneath` of the waste, kept by its cards (many hands' facts, kept by the heights
        too, share a waste); a new waste's carried on from the places it shares with the last."""
        hit = self._lows.get(waste)
        if hit is None:
            if len(self._lows) > 10_000:     # (about 3 MB at most)
                self._lows.clear()
            hit = lows_beneath(waste, self.rank, self.suit_no, self.suits, self._lows_last)
            self._lows[waste], self._lows_last = hit, (waste, hit)
        return hit

    def _pile_blockers(self, p: Pos, i: int, first: int, height: list[int], judged: list[int],
                       blocks: bool, out: _Blockers) -> None:
        """Into ``out``, each fixed card of tableau pile ``i`` (cards leaving one at a time from the
        top: fans) from place ``first`` up, with the lowest rank of each suit beneath."""
        pile = p.piles[i]
        lowest = lowest_beneath(pile, first - 1, self.rank, self.suit_no, self.suits)
        rank, suit_no = self.rank, self.suit_no
        for j in range(first, len(pile)):
            below = pile[j - 1]
            s = suit_no[below]
            if rank[below] < lowest[s]:
                lowest[s] = rank[below]
            c = pile[j]
            if self._fixed(p, c, i, j, height, judged, blocks):
                out.append((c, list(lowest)))

    def _heights(self, piles: tuple[bytes, ...]) -> list[int]:
        """By suit number, the rank its foundation has reached (0: none home); and, as
        :attr:`_level`, one number standing for the heights (:attr:`_shift` bits a suit).  The
        same list as last time where every foundation is the bytes object read last (positions
        asked in turn share most piles; no caller changes the list)."""
        laid = self._fnd_laid
        fnd = self.model.fnd
        same = True
        for k in range(len(fnd)):
            if piles[fnd[k]] is not laid[k]:
                same = False
                laid[k] = piles[fnd[k]]
        if same:
            return self._height
        height = [0] * self.suits
        rank, suit_no, shift = self.rank, self.suit_no, self._shift
        for f in fnd:
            pile = piles[f]
            if len(pile) > 0:
                top = pile[-1]
                height[suit_no[top]] = rank[top]
        level = 0
        for r in height:
            level = (level << shift) | r
        self._level = level
        self._height = height
        return height

    def _beneath(self, t: int, i: int, place: int) -> bool:
        """Whether card ``t`` lies in pile ``i`` beneath ``place`` (where :meth:`_locate` found it)."""
        return self._pile_of[t] == i and self._place_of[t] < place

    def _fixed(self, p: Pos, c: int, i: int, place: int, height: list[int], judged: list[int],
               blocks: bool) -> bool:
        """Whether tableau card ``c``, at ``place`` in pile ``i``, can leave only by going home: no space
        takes it, and every target is closed to it: home, beneath it, a hand card that can never
        reach the tableau or only onto cards beneath it (:meth:`_hand_shut`), or (where the
        tableau's runs hold, with no redeal left) held over (:meth:`_held_over`)."""
        if self.to_space[c]:
            return False
        lowest: bytes | None = None     # by suit, the lowest rank beneath c, once asked
        rank, suit_no = self.rank, self.suit_no
        fresh = False
        for t in self.targets[c]:
            if rank[t] <= height[suit_no[t]] or self._beneath(t, i, place):
                continue
            if self.has_hand and self._is_hand[self._pile_of[t]]:
                if not fresh:           # a fresh memo for _hand_shut, once asked
                    self._shut_gen = next_gen(self._shut_gen, self._shut_stamp)
                    fresh = True
                if self._hand_shut(p, t, i, place, height, judged, blocks):
                    continue
            if not (self.runs_hold and blocks):
                return False
            if lowest is None:
                lowest = self._lowest_under(p.piles[i], i, place)
            if not self._held_over(p, t, lowest, 0):
                return False
        return True

    def _locate(self, p: Pos, placed: bool) -> None:
        """Note each tableau and hand card's pile and place (never asked of a card home), again only
        in piles whose bytes are not those laid last (positions asked in turn share most piles), and
        there only from the first place where they differ: every card of the bytes laid last still
        has its pile and place, since a card lies in one pile at a time (one pack), and a card moved
        elsewhere since was laid there.  ``placed``: every card is known to lie in some pile."""
        m, pile_of, place_of, laid = self.model, self._pile_of, self._place_of, self._laid
        piles = p.piles
        if not placed:
            count = 0
            for i in range(len(piles)):
                count += len(piles[i])
            if count < len(m.cards):            # a position made by hand: some card in no pile
                for c in range(len(pile_of)):
                    pile_of[c] = _AWAY
                for i in range(len(laid)):
                    laid[i] = None
        for i in self._located:
            pile = piles[i]
            old = laid[i]
            if pile is old:
                continue
            laid[i] = pile
            start = 0
            if old is not None:
                same = min(len(old), len(pile))
                while start < same and pile[start] == old[start]:
                    start += 1
            for j in range(start, len(pile)):
                pile_of[pile[j]], place_of[pile[j]] = i, j

    def _held_over(self, p: Pos, t: int, lowest: bytes, at: int) -> bool:
        """Whether card ``t`` lies face up in the tableau under a card that can go home only after a
        card beneath the card asking (``lowest[at:]``: by suit, the lowest rank beneath it).  Where a
        pile's face-up cards move only all together, the cards over ``t`` leave it only by going
        home; so ``t`` is free only once the asking card has left its place: closed to it."""
        i = self._pile_of[t]
        if not self._is_tab[i]:
            return False
        pile = p.piles[i]
        j = self._place_of[t]
        if j < p.hidden[i]:
            return False
        rank, suit_no = self.rank, self.suit_no
        for k in range(j + 1, len(pile)):
            u = pile[k]
            if lowest[at + suit_no[u]] < rank[u]:
                return True
        return False

    def _open_targets(self, p: Pos, c: int, j: int, height: list[int], judged: list[int]) -> list[int]:
        """The targets of waste card ``c``, at place ``j``, that the hand leaves open (as
        :meth:`_fixed` finds them, in order): not home, not beneath it, not shut to it
        (:meth:`_hand_shut`).  The hand alone decides this, so it is kept with its facts."""
        w = self.model.waste
        assert w is not None
        rank, suit_no = self.rank, self.suit_no
        self._shut_gen = next_gen(self._shut_gen, self._shut_stamp)    # a fresh memo for _hand_shut
        return [t for t in self.targets[c] if not (
            rank[t] <= height[suit_no[t]] or self._beneath(t, w, j)
            or self._is_hand[self._pile_of[t]] and self._hand_shut(p, t, w, j, height, judged, True))]

    def _held_in_waste(self, p: Pos, height: list[int], judged: list[int], waiting: _Waiting,
                       opened: list[list[int] | None], own: bool) -> _Blockers:
        """The waste cards (no redeal left) that are fixed only because a target of theirs is held
        over (:meth:`_held_over`) in this position's tableau, each with the lowest rank of each suit
        beneath it; those fixed by the hand alone are :meth:`_hand`'s (``waiting``: the others;
        ``opened``: the targets the hand leaves open of each, found when first asked; below them,
        the waste's lowest ranks, :meth:`_waste_lows`).  ``own``: only the first such card over a lower
        card of its own suit, where no tableau card is fixed.  Blockers in one pile make a cycle only
        so: were none so, the deepest ``d`` of a cycle goes before the next, ``e``, above it, so a
        card of ``e``'s suit no higher than ``e`` lies beneath ``d``, and so beneath ``e``: a lower
        card of ``e``'s own suit after all."""
        out: _Blockers = []
        suits = self.suits
        waste = b"" if self.model.waste is None else p.piles[self.model.waste]
        lows = self._waste_lows(waste)
        for k in range(len(waiting)):
            j = waiting[k]
            if own and j & 1 == 0:
                continue                # no lower card of its suit beneath it
            j >>= 1
            c = waste[j]
            at = j * suits
            targets = opened[k]
            if targets is None:
                targets = opened[k] = self._open_targets(p, c, j, height, judged)
            held = True
            for t in targets:
                if not self._held_over(p, t, lows, at):
                    held = False
                    break
            if held:
                out.append((c, list(lows[at:at + suits])))
                if own:
                    break
        return out

    def _hand_fixed(self, p: Pos, c: int, height: list[int], judged: list[int], blocks: bool) -> bool:
        """Whether card ``c`` is a card of the hand (stock or waste) that can never reach the tableau:
        no space would take it, and each target is home, lies beneath it in the waste (``blocks``: no
        redeal left), or is such a hand card itself.  A target is one rank higher, so the question
        climbs the ranks and ends; each card's answer is kept in ``judged``."""
        known = judged[c]
        if known != _UNJUDGED:
            return known == _FIXED
        waste = self.model.waste
        place = -1
        at = self._pile_of[c]
        if waste is not None and blocks and at == waste:
            place = self._place_of[c]
        fixed = not self.to_space[c] and (place >= 0 or self._is_hand[at])
        if fixed:
            rank, suit_no = self.rank, self.suit_no
            for t in self.targets[c]:
                if rank[t] <= height[suit_no[t]] or (waste is not None and self._beneath(t, waste, place)):
                    continue
                if not self._hand_fixed(p, t, height, judged, blocks):
                    fixed = False
                    break
        judged[c] = _FIXED if fixed else _FREE
        return fixed

    def _hand_shut(self, p: Pos, t: int, i: int, place: int, height: list[int], judged: list[int],
                   blocks: bool) -> bool:
        """Whether card ``t`` is a hand card that can never reach the tableau (:meth:`_hand_fixed`), or
        only onto cards lying beneath ``place`` in pile ``i`` or onto hand cards shut so themselves:
        not while the card at ``place`` stays, so no target for it (:meth:`_fixed`).  A
        target is one rank higher, so the question climbs the ranks and ends (each answer kept)."""
        if self._hand_fixed(p, t, height, judged, blocks):
            return True
        gen = self._shut_gen
        if self._shut_stamp[t] == gen:
            return self._shut[t]
        shut = not self.to_space[t] and self._is_hand[self._pile_of[t]]
        if shut:
            rank, suit_no = self.rank, self.suit_no
            for u in self.targets[t]:
                if rank[u] <= height[suit_no[u]] or self._beneath(u, i, place):
                    continue
                if not self._hand_shut(p, u, i, place, height, judged, blocks):
                    shut = False
                    break
        self._shut_stamp[t], self._shut[t] = gen, shut
        return shut

    def _lowest_under(self, pile: bytes, i: int, place: int) -> bytes:
        """:meth:`_lowest` beneath ``place`` in tableau pile ``i``, kept by pile with the cards it
        was found under (positions asked in turn share most piles, and a pile's face-down cards
        change less often than its face-up ones)."""
        under = self._low_pile[i]
        if place != len(under) or not pile.startswith(under):
            self._low_pile[i] = pile[:place]
            self._low[i] = bytes(lowest_beneath(pile, place, self.rank, self.suit_no, self.suits))
        return self._low[i]
