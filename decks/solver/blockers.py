"""What the stuck-card test (:mod:`decks.solver.stuck`) asks apart from a position: which games it
can judge (:func:`applies`), and whether the order in which its fixed cards must go home has a
cycle (:func:`cycle`), which proves a position lost."""

from __future__ import annotations

from decks.solver.moves import Model

Blockers = list[tuple[int, list[int]]]
"""Fixed cards, each with the lowest rank of each suit beneath it (:func:`cycle`)."""


def cycle(blockers: Blockers, suit_no: list[int], rank: list[int]) -> bool:
    """Whether the "goes home before" order of the fixed cards has a cycle.  Each blocker is a fixed
    card and, by suit, the lowest rank beneath it; blocker ``a`` goes home before blocker ``b`` when a
    card of ``b``'s suit no higher than ``b`` lies beneath ``a`` (``a`` before that card, which is
    ``b`` or goes before it).  A blocker over a lower card of its own suit is a cycle by itself.
    Otherwise blockers that go before no other are taken away, round by round (``a`` goes before
    some blocker left iff, in some suit, a card beneath it is no higher than the highest blocker of
    that suit left); a cycle is what remains."""
    if not blockers:
        return False
    for c, lowest in blockers:
        if lowest[suit_no[c]] < rank[c]:         # a lower card of its own suit beneath it
            return True
    suits = len(blockers[0][1])
    left = blockers
    while True:
        highest = [0] * suits
        for c, _ in left:
            if rank[c] > highest[suit_no[c]]:
                highest[suit_no[c]] = rank[c]
        keep = [b for b in left if _before_some(b[1], highest)]
        if not keep:
            return False
        if len(keep) == len(left):
            return True
        left = keep


def _before_some(lowest: list[int], highest: list[int]) -> bool:
    """Whether, in some suit, a card beneath a blocker (its lowest ``lowest``) is no higher than the
    highest blocker of that suit (``highest``; 0 for none): the blocker goes home before another."""
    for s in range(len(lowest)):
        if lowest[s] <= highest[s]:
            return True
    return False


def applies(m: Model) -> bool:
    """Whether :class:`Stuck` can judge the game: one pack; foundations built up in suit from the ace
    that never give a card back (:meth:`Model._safe_kind`); moves and automatic moves the solver
    makes itself; only tableau, foundations, stock and waste piles; a space that takes nothing or
    only a king; the tableau moving one card at a time or its face-up cards together (or any
    face-up tail); and no actions but turning the stock onto the waste and gathering it again
    (Klondike) or a redeal of the tableau (La Belle Lucie)."""
    rules = m.rules
    if not (m.safe_kind and m.native and not m.fills and not m.discarding and not m.native_actions):
        return False
    if any(n > 1 for n in m.copies) or m.held is not None or m.res or m.dis:
        return False
    if any(x not in "tfsw" for x in m.letters) or m.space_rule not in (1, 2, 3):
        return False
    if m.unit not in ("one", "face-up", "tail") or rules.check is not None:
        return False
    if not set(rules.to_tableau) | set(rules.to_foundation) <= {"tableau", "waste"}:
        return False
    kinds = set(rules.actions)
    if m.stock is not None:
        return kinds <= {"stock", "redeal"} and m.draw is not None and not m.turn_onto_empty
    if not kinds:
        return True
    redeal = rules.actions.get("redeal")
    return kinds == {"redeal"} and redeal is not None and rules.solver.redeal_check == "redeals-left"
