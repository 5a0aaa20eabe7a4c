"""What the stuck-card test (:mod:`decks.solver.stuck`) asks apart from a position: which games it
can judge (:func:`applies`), whether the order in which its fixed cards must go home has a cycle
(:func:`cycle`), which proves a position lost, and by suit the lowest rank beneath a place in a pile
(:func:`lowest_beneath`) or beneath each place (:func:`lows_beneath`)."""

from __future__ import annotations

from typing import Final

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


NO_RANK: Final = 99
"""A suit's lowest rank beneath a card when none of its cards lies there."""


def lows_beneath(cards: bytes, rank: list[int], suit_no: list[int], suits: int,
                 last: tuple[bytes, bytes] = (b"", b"")) -> bytes:
    """By place in ``cards`` (a pile, bottom first) and suit number, ``suits`` bytes a place: the
    lowest rank of the suit among the cards beneath that place (:data:`NO_RANK`: none of the suit there).
    ``last``: another pile and its bytes; those of the places whose cards beneath are the same
    (every place up to the first card that differs) are carried on from there."""
    before, known = last
    same = 0
    while same < len(cards) and same < len(before) and cards[same] == before[same]:
        same += 1
    start = min(same + 1, len(cards), len(known) // suits)
    known = known[:start * suits]
    lowest = list(known[(start - 1) * suits:]) if start > 0 else [NO_RANK] * suits
    out: list[int] = []
    for j in range(start, len(cards)):
        if j > 0:
            below = cards[j - 1]
            if rank[below] < lowest[suit_no[below]]:
                lowest[suit_no[below]] = rank[below]
        out += lowest
    return known + bytes(out)


def lowest_beneath(pile: bytes, place: int, rank: list[int], suit_no: list[int], suits: int) -> list[int]:
    """By suit number, the lowest rank beneath ``place`` in ``pile`` (:data:`NO_RANK` for none)."""
    lowest = [NO_RANK] * suits
    for j in range(place):
        c = pile[j]
        s = suit_no[c]
        if rank[c] < lowest[s]:
            lowest[s] = rank[c]
    return lowest
