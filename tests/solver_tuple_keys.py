"""The one-pack transposition key as a tuple: the form ``Keys.of`` gave before it gave one ``bytes``
(issue 52), kept here as the reference the key tests compare the bytes form with.

Where no two cards share a code (one pack) and the codes are below 64, no two piles of a position
share a bottom card.  The tuple holds the same piles' bytes objects, each followed by its face-down
count where the key keeps those, interchangeable piles in order of their bottom card, the empty ones
first; interchangeable foundations' tops as one number, a bit for each top card; where the stock is
turned k at a time with unlimited redeals, the hand as the order a redeal turns it in and how many lie
turned (0 where turning on comes round to every turn from a redeal); then counters and generator.
Two positions get equal bytes keys exactly when they get equal tuples here."""

from __future__ import annotations

from decks.solver.keys import Key, Keys
from decks.solver.position import _LOW_BIT, Pos


def tuple_key(keys: Keys, p: Pos) -> Key:
    """The key of the tuple form (the general form where this one gives up, as ``Keys.of`` does)."""
    old = _one_pack(keys, p)
    return keys.of(p) if old is None else old


def turned(keys: Keys, key: Key) -> int:
    """How many cards of a tuple key's hand lie turned, as the key counts them; -1 where the game's
    stock is not turned k at a time or the key is of the general form."""
    if not keys.step or not isinstance(key, tuple) or not isinstance(key[0], int):
        return -1
    if not isinstance(key[-4], bytes):
        return -1
    count = key[-3]
    assert isinstance(count, int)
    return count


def redealt(key: Key) -> Key:
    """A tuple key with the hand turned to a multiple of k."""
    assert isinstance(key, tuple)
    return key[:-3] + (0, key[-2], key[-1])


def _one_pack(keys: Keys, p: Pos) -> Key | None:
    piles, marks = p.piles, keys.track_hidden
    out: list[object] = [0 if keys.unlimited else p.redeals]
    if keys.symmetric:
        if not _put_sorted(keys, p, keys.tab, marks, out):
            return None
    else:
        out.extend(piles[i] for i in keys.tab)
        out.append(bytes(p.hidden))
    if keys.tops_tell_foundations:
        if keys.equal_foundations:
            tops = 0
            for i in keys.fnd:
                if len(piles[i]) > 0:
                    tops |= 1 << piles[i][-1]
            out.append(tops)
        else:
            out.extend([piles[i][-1] if len(piles[i]) > 0 else -1 for i in keys.fnd])
    else:
        out.extend([piles[i] for i in keys.fnd])
    if keys.sort_reserve:
        singles = keys._single_cards(p, keys.res)
        if singles >= 0:
            out.append(singles)
        elif not _put_sorted(keys, p, keys.res, marks, out):
            return None
    else:
        _put_piles(p, keys.res, marks, out)
    _put_piles(p, keys.others, marks, out)
    if keys.step:
        _put_hand(keys, p, out)
    out.append(p.counters)
    out.append(p.rng)
    return tuple(out)


def _put_piles(p: Pos, indexes: list[int], marks: bool, out: list[object]) -> None:
    for i in indexes:
        out.append(p.piles[i])
        if marks:
            out.append(p.hidden[i])


def _put_hand(keys: Keys, p: Pos, out: list[object]) -> None:
    piles, hidden = p.piles, p.hidden
    stock, waste = piles[keys.stock], piles[keys.waste]
    if hidden[keys.stock] != len(stock) or hidden[keys.waste] != 0:
        out.extend([stock, hidden[keys.stock], waste, hidden[keys.waste]])
        return
    out.append(waste + stock[::-1])
    out.append(0 if len(waste) % keys.step == 0 or len(stock) == 0 else len(waste))


def _put_sorted(keys: Keys, p: Pos, indexes: list[int], marks: bool, out: list[object]) -> bool:
    piles, hidden = p.piles, p.hidden
    slot: dict[int, int] = {}
    bottoms = 0
    for i in indexes:
        pile = piles[i]
        if len(pile) > 0:
            slot[pile[0]] = i
            bottoms |= 1 << pile[0]
        elif marks:
            if hidden[i] != 0:
                return False
            out.extend([pile, 0])
        else:
            out.append(pile)
    while bottoms != 0:
        low = bottoms & -bottoms
        i = slot[_LOW_BIT[low % 67]]
        out.append(piles[i])
        if marks:
            out.append(hidden[i])
        bottoms ^= low
    return True
