"""The order in which the stuck-card test's fixed cards must go home (:mod:`decks.solver.stuck`):
whether it has a cycle (:func:`cycle`), which proves a position lost."""

from __future__ import annotations

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
