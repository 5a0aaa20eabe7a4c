"""Errors four-of-eight and the LRC both miss: counting the patterns that get through.

A record is accepted by the receiving core (:class:`ibm1013.str.Receiver`) when its framing
(``IDLE TL SORn`` … ``TL``) arrives as sent, every data character is one of the layout's data
characters, and the LRC that arrives equals the XOR of the data that arrives.  It is accepted with
*wrong data* when, besides, some data character changed.  So, for error patterns ``e_i`` on the data
characters and ``e_L`` on the LRC:

* each changed data character ``c_i`` must become another data character: ``c_i ^ e_i`` valid;
* the LRC must change by the XOR of the data's changes: ``e_L = e_1 ^ … ^ e_N``.

A four-of-eight character changes into another only by flipping as many ones to zeros as zeros to
ones, so each changed data character takes an even number (≥ 2) of flips and its change has two,
four, six or eight bits; the LRC then takes as many flips as the XOR of the changes has bits.  Two or
three flips can never get through: one changed character needs two flips in it and two more in the
LRC (or in a second character).

:func:`count_patterns` counts, by number of flips ``k``, the patterns that get through: ``U[k]``.  A
dynamic programme walks the data characters keeping, for every value of the running XOR of the
changes (256) and every number of flips so far, how many patterns lead there — only sums of
non-negative terms, so the tiny counts stay exact in floating point.  With independent bit errors at
rate ``p`` the chance of an undetected error in a record of ``B`` bits is then
``P = (1-p)^framing · Σ_k U[k] p^k (1-p)^(B_d - k)`` (``B_d``: data and LRC bits), and given exactly
``k`` flips anywhere in the frame it is ``U[k] / C(B, k)``.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

WEIGHT = np.array([bin(v).count("1") for v in range(256)], dtype=np.intp)
_XOR = np.bitwise_xor.outer(np.arange(256), np.arange(256))  # _XOR[e, x] = e ^ x


def valid_table(valid: bytes) -> np.ndarray:
    """A 256-entry boolean table of the data characters a layout accepts."""
    table = np.zeros(256, dtype=bool)
    table[list(valid)] = True
    return table


def change_weights(position_chars: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """``W[i, e]``: the chance that pattern ``e`` on data position ``i`` leaves a valid character,
    for ``position_chars[i]`` a distribution over the 256 characters (one-hot for a known card)."""
    # W[i, e] = sum_c w_i(c) [c ^ e valid]
    return position_chars @ valid[_XOR].astype(float)


def count_patterns(weights: np.ndarray, max_flips: int) -> np.ndarray:
    """``U[k]`` for ``k = 0 … max_flips``: patterns (weighted by :func:`change_weights`) on the data
    positions and the LRC that a receiver accepts; ``U[0] = 1`` is the clean record."""
    k1 = max_flips + 1
    state = np.zeros((256, k1))
    state[0, 0] = 1.0
    for w in weights:
        new = np.zeros_like(state)
        for bits in (0, 2, 4, 6, 8):
            if bits > max_flips:
                break
            es = np.flatnonzero((WEIGHT == bits) & (w > 0))
            if not len(es):
                continue
            # new[x', d + bits] += sum_e w[e] * state[x' ^ e, d]
            gathered = np.tensordot(w[es], state[_XOR[es]], axes=1)
            new[:, bits:] += gathered[:, :k1 - bits]
        state = new
    counts = np.zeros(k1)
    for x in range(256):  # the LRC must change by x: WEIGHT[x] more flips
        bits = WEIGHT[x]
        if bits <= max_flips:
            counts[bits:] += state[x, :k1 - bits]
    return counts


@lru_cache(maxsize=256)
def uniform_counts(data_chars: int, valid: bytes, max_flips: int) -> np.ndarray:
    """:func:`count_patterns` for records whose characters are drawn independently and evenly from
    ``valid`` (what the theory assumes when it is given no deck); cached by layout."""
    table = valid_table(valid)
    mix = table / table.sum()
    weights = change_weights(np.tile(mix, (data_chars, 1)), table)
    counts = count_patterns(weights, max_flips)
    counts.setflags(write=False)
    return counts


def deck_counts(records: np.ndarray, valid: bytes, max_flips: int) -> np.ndarray:
    """The mean of :func:`count_patterns` over the records of a deck (``records``: ``(n, N)`` data
    characters), each record counted with its own characters."""
    table = valid_table(valid)
    total = np.zeros(max_flips + 1)
    eye = np.eye(256)
    for record in records:
        total += count_patterns(change_weights(eye[record], table), max_flips)
    return total / max(1, len(records))


def column_counts(records: np.ndarray, valid: bytes, max_flips: int) -> np.ndarray:
    """:func:`count_patterns` for records whose character at each position is drawn as often as it
    is at that position in ``records`` (``(n, N)``), positions independently of each other: one walk,
    however long the deck (:func:`deck_counts` walks every record)."""
    table = valid_table(valid)
    freq = np.stack([np.bincount(col, minlength=256) for col in records.T.astype(np.intp)]).astype(float)
    return count_patterns(change_weights(freq / max(1, len(records)), table), max_flips)


def probability(counts: np.ndarray, ber: float, data_bits: int, framing_bits: int) -> tuple[float, float]:
    """``(P, bound)``: the chance a record is accepted with wrong data at independent errors ``ber``,
    from ``counts`` (patterns with 1 … K flips), and a bound on what the flips beyond K could add
    (the binomial tail: at most every such pattern)."""
    if ber <= 0.0:
        return 0.0, 0.0
    if ber >= 1.0:
        return 0.0, 1.0
    k = np.arange(1, len(counts))
    log_terms = k * math.log(ber) + (data_bits - k) * math.log1p(-ber)
    with np.errstate(divide="ignore"):
        logs = np.log(counts[1:]) + log_terms
    p = float(np.exp(logs[counts[1:] > 0]).sum()) * math.exp(framing_bits * math.log1p(-ber))
    return p, binomial_tail(data_bits, ber, len(counts) - 1)


def binomial_tail(n: int, p: float, k: int) -> float:
    """P(more than ``k`` of ``n`` independent events of chance ``p``)."""
    if k >= n:
        return 0.0
    term = math.exp(n * math.log1p(-p))  # P(0)
    total = term
    for i in range(1, k + 1):
        term *= (n - i + 1) / i * p / (1 - p)
        total += term
    return max(0.0, 1.0 - total) if total < 1 - 1e-9 else _upper(n, p, k)


def _upper(n: int, p: float, k: int) -> float:
    """The tail summed from above (where 1 - sum would lose every digit)."""
    total = 0.0
    for i in range(k + 1, n + 1):
        log_term = (math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                    + i * math.log(p) + (n - i) * math.log1p(-p))
        term = math.exp(log_term)
        total += term
        if term < total * 1e-17:
            break
    return total


def given_flips(counts: np.ndarray, frame_bits: int) -> np.ndarray:
    """``P(accepted with wrong data | exactly k flips at random places in the frame)`` for each k."""
    return np.array([c / math.comb(frame_bits, k) if k <= frame_bits else 0.0
                     for k, c in enumerate(counts)])


def ascii_parity_probability(data_chars: int, ber: float, max_flips: int = 24) -> float:
    """The same figure for a 7-bit ASCII line with one (even) parity bit per character and the same
    XOR LRC: any even number of flips in a character keeps its parity, so every pattern of even
    weight is a valid change (all 128 characters are data)."""
    weights = np.zeros((data_chars, 256))
    weights[:, WEIGHT % 2 == 0] = 1.0
    weights[:, 0] = 1.0
    counts = count_patterns(weights, max_flips)
    return probability(counts, ber, 8 * (data_chars + 1), 0)[0]
