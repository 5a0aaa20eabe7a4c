"""Foundation plays that can never be regretted (:class:`Safety`).

In games whose foundations build up in suit from the ace and never give cards back, a card may be
played home at once, without branching, once every card that could be built on it (every copy) is
home; in the Klondike family (one pack; cards reach the tableau only from the tableau and the
waste), also once each such card could go home the moment it could be built on it
(:meth:`Safety.unneeded`).  The search makes these plays inside the move that allows them
(:meth:`decks.solver.search.Search.settle`).  The tables it reads are compiled by
:meth:`decks.solver.tables.Tables._compile_safety`.
"""

from __future__ import annotations

from decks.solver.position import Pos, Step, Wanted
from decks.solver.tables import Tables


class Safety(Tables):
    """The rules' tables (:class:`~decks.solver.tables.Tables`) and the judgement of which
    foundation plays are safe."""

    def safe_play(self, p: Pos, after: list[Step] | None = None) -> Step | None:
        """A foundation play that cannot be regretted (:meth:`unneeded`), if the position has one.
        ``after``: the foundation plays just made, when the position before them had none — then
        only the piles they left and the cards each played card follows or could carry need a look."""
        if not self.safe_kind:
            return None
        piles, hidden = p.piles, p.hidden
        for s in self.to_f:
            sp = piles[s]
            if hidden[s] >= len(sp):            # (also an empty pile)
                continue
            c = sp[-1]
            if after and not self._watched(piles, after, s, c):
                continue
            f = self._next_home(piles, c)
            if f >= 0 and self.unneeded(p, c, self.deep_at[s]):
                return (s, f, 1)
        return None

    def _next_home(self, piles: tuple[bytes, ...], c: int) -> int:
        """The first foundation (in the game's order) that takes card ``c`` next, -1 for none (an
        empty one takes an ace; one not full the card following its top)."""
        size, ace = self.foundation_size, self.is_ace
        before = self.before[c]
        for f in self.fnd:
            fp = piles[f]
            if len(fp) == 0:
                if ace[c]:
                    return f
            elif len(fp) < size and (fp[-1] == before if before >= 0
                                     else before == -2 and c in self.succ[fp[-1]]):
                return f
        return -1

    def _watched(self, piles: tuple[bytes, ...], after: list[Step], s: int, c: int) -> bool:
        """After the foundation plays ``after``: whether pile ``s`` is one they left, or card ``c``
        one that a card they played home lets go home safely (:attr:`watch`)."""
        watch = self.watch
        for step in after:
            if step[0] == s or watch[piles[step[1]][-1]][c]:
                return True
        return False

    def safe_top(self, p: Pos, s: int, wanted: Wanted | None) -> bool:
        """Whether pile ``s``'s top card is a safe foundation play, ``wanted`` being what the
        foundations take (:meth:`wanted`; None, where the game has its own rule: never)."""
        sp = p.piles[s]
        return (wanted is not None and self.is_to_f[s] and len(sp) > p.hidden[s]
                and wanted[sp[-1]] is not None
                and self.unneeded(p, sp[-1], self.deep_at[s]))

    def unneeded(self, p: Pos, c: int, deep: bool) -> bool:
        """Whether card ``c`` is of no more use in the tableau: every card that could be built on it
        (each copy) is already on a foundation, or, where ``deep`` (:attr:`deep_safe`; for the
        waste's top card :attr:`deep_waste`), could go there the moment it could be built on ``c``:
        the card before it on its foundation is home (one pack: that foundation takes it next) and
        it is itself of no more use, judged the same way.  A line of play that builds such cards on
        ``c`` can send them home instead, and the foundations only grow, so what is home now stays
        home."""
        copies, before = self.copies, self.before
        for o in self.needers[c]:
            if self._home_copies(p, o) >= copies[o]:
                continue
            if not (deep and before[o] >= 0 and self._home_copies(p, before[o]) >= 1
                    and self.unneeded(p, o, True)):
                return False
        return True

    def _home_copies(self, p: Pos, o: int) -> int:
        """How many copies of card ``o`` are on the foundations (built up in suit from the ace)."""
        rank, suit = self.rank, self.suit_number
        piles = p.piles
        want, at_least = suit[o], rank[o]
        n = 0
        for f in self.fnd:
            fp = piles[f]
            if len(fp) > 0:
                top = fp[-1]
                if suit[top] == want and rank[top] >= at_least:
                    n += 1
        return n
