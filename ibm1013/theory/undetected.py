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


@lru_cache(maxsize=16)
def valid_table(valid: bytes) -> np.ndarray:
    """A 256-entry boolean table of the data characters a layout accepts (read-only)."""
    table = np.zeros(256, dtype=bool)
    table[list(valid)] = True
    table.setflags(write=False)
    return table


def change_weights(position_chars: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """``W[i, e]``: the chance that pattern ``e`` on data position ``i`` leaves a valid character,
    for ``position_chars[i]`` a distribution over the 256 characters (one-hot for a known card)."""
    # W[i, e] = sum_c w_i(c) [c ^ e valid]
    result: np.ndarray = position_chars @ valid[_XOR].astype(float)
    return result


_SIGN = np.where(WEIGHT[np.bitwise_and.outer(np.arange(256), np.arange(256))] % 2, -1.0, 1.0)
"""The Walsh–Hadamard transform: ``_SIGN[k, e] = (-1)^(bits of k & e)``."""


def _graded(coeffs: np.ndarray) -> np.ndarray:
    """``(256, 9, S, S)``: the transform of ``coeffs[e]`` (``(256, S, S)``), split by the flips ``|e|``."""
    out = np.zeros((256, 9, *coeffs.shape[1:]))
    for bits in range(9):
        es = WEIGHT == bits
        out[:, bits] = np.tensordot(_SIGN[:, es], coeffs[es], axes=1)
    return out


def _times(poly: np.ndarray, factor: np.ndarray, max_flips: int) -> np.ndarray:
    """Product of two transformed polynomials in the number of flips (cut at ``max_flips``)."""
    out = np.zeros_like(poly)
    size = poly.shape[-1]
    for bits in range(factor.shape[1]):
        if bits > max_flips or not factor[:, bits].any():
            continue
        part, f = poly[:, :max_flips + 1 - bits], factor[:, bits, None]
        if size == 1:  # counts, or independent errors: no matrices to multiply
            out[:, bits:] += part * f
            continue
        for i in range(size):  # written out: numpy's batched matmul is slow for tiny matrices
            for j in range(size):
                out[:, bits:, i, j] += sum(part[..., i, k] * f[..., k, j] for k in range(size))
    return out


_COUNT_FACTORS: dict[bytes, np.ndarray] = {}
"""Transforms of the count walks' positions, by their weights (a few hundred at most: one per data
character of each layout, and the even mixes)."""


def walk(weights: np.ndarray, max_flips: int, chars: np.ndarray | None = None,
         closing: np.ndarray | None = None) -> np.ndarray:
    """``U[k]`` for ``k = 0 … max_flips`` (``(K+1, S, S)``): the error patterns on the data positions
    and the LRC that a receiver accepts, by number of flips; ``U[0]`` is the clean record.

    ``weights[i, e]`` (:func:`change_weights`) says whether pattern ``e`` keeps data position ``i``
    valid; ``chars`` (``(256, S, S)``, default 1): the noise's matrix of each pattern
    (:mod:`~ibm1013.theory.noise`), so that ``U`` holds chances rather than counts; ``closing``: the
    matrix of the clean ``TL`` between the data and the LRC.

    The XOR of the data's changes must equal the LRC's change.  In the Walsh–Hadamard domain that
    XOR-convolution is a product for each of the 256 transform indices, so each data position is one
    multiplication of polynomials in the number of flips; the LRC is summed by Parseval's identity.
    Kept apart by number of flips, no sum cancels more than the 256 terms of one transform (the
    clean record, which outweighs everything else, is a degree of its own)."""
    m = np.ones((256, 1, 1)) if chars is None else chars
    size = m.shape[-1]
    poly = np.zeros((256, max_flips + 1, size, size))
    poly[:, 0] = np.eye(size)
    # positions alike share one transform; for counts, across calls too (a deck's characters)
    factors: dict[bytes, np.ndarray] = _COUNT_FACTORS if chars is None else {}
    for w in weights:
        key = w.tobytes()
        if key not in factors:
            factors[key] = _graded(w[:, None, None] * m)
        poly = _times(poly, factors[key], max_flips)
    if closing is not None:
        poly = poly @ closing
    lrc = _graded(m)
    result = np.zeros((max_flips + 1, size, size))
    for bits in range(9):
        if bits <= max_flips:
            result[bits:] += np.einsum("kdab,kbc->dac", poly[:, :max_flips + 1 - bits], lrc[:, bits]) / 256
    result[1::2] = 0.0  # every change of a data character, and the LRC's matching one, is even
    return result


def flip_tail(chars: np.ndarray, positions: int, max_flips: int) -> np.ndarray:
    """``(S, S)``: the chance of more than ``max_flips`` flips in ``positions`` characters (all that
    :func:`walk` leaves out, whether or not such patterns would get through)."""
    graded = np.stack([chars[WEIGHT == bits].sum(axis=0) for bits in range(9)])  # (9, S, S)
    poly = np.zeros((max_flips + 1, *chars.shape[1:]))
    poly[0] = np.eye(chars.shape[-1])
    for _ in range(positions):
        new = np.zeros_like(poly)
        for bits in range(min(9, max_flips + 1)):
            new[bits:] += poly[:max_flips + 1 - bits] @ graded[bits]
        poly = new
    result: np.ndarray = np.linalg.matrix_power(chars.sum(axis=0), positions) - poly.sum(axis=0)
    return result


def count_patterns(weights: np.ndarray, max_flips: int) -> np.ndarray:
    """:func:`walk` as counts: ``U[k]``, the patterns of ``k`` flips that get through."""
    result: np.ndarray = np.clip(walk(weights, max_flips)[:, 0, 0], 0.0, None)
    return result


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
    table = valid_table(valid).astype(float)
    total = np.zeros(max_flips + 1)
    for record in records:
        total += count_patterns(table[_XOR[record]], max_flips)  # one-hot: W[i, e] = [c_i ^ e valid]
    return total / max(1, len(records))


def column_counts(records: np.ndarray, valid: bytes, max_flips: int) -> np.ndarray:
    """:func:`count_patterns` for records whose character at each position is drawn as often as it
    is at that position in ``records`` (``(n, N)``), positions independently of each other: one walk,
    however long the deck (:func:`deck_counts` walks every record)."""
    table = valid_table(valid)
    freq = np.stack([np.bincount(col, minlength=256) for col in records.T.astype(np.intp)]).astype(float)
    return count_patterns(change_weights(freq / max(1, len(records)), table), max_flips)


def probability(counts: np.ndarray, bers: np.ndarray, data_bits: int,
                framing_bits: int) -> tuple[np.ndarray, np.ndarray]:
    """``(P, bound)`` for each of ``bers`` (independent errors): the chance a record is accepted with
    wrong data, from ``counts`` (patterns with 0 … K flips), and a bound on what the flips beyond K
    could add (the binomial tail: as if every such pattern got through)."""
    bers = np.asarray(bers, dtype=float)
    inside = (bers > 0) & (bers < 1)
    p = np.where(inside, bers, 0.5)[:, None]
    k = np.arange(len(counts))
    log_binom = _log_binomials(data_bits)
    with np.errstate(divide="ignore"):
        log_counts = np.where(counts > 0, np.log(np.where(counts > 0, counts, 1.0)), -np.inf)
        log_counts[0] = -np.inf  # the clean record
        terms = np.exp(log_counts + k * np.log(p) + (data_bits - k) * np.log1p(-p)).sum(axis=1)
    through = terms * np.exp(framing_bits * np.log1p(-p[:, 0]))
    mean = float((data_bits * p).max())  # beyond the mode the terms fall off: stop where they vanish
    more = np.arange(len(counts), min(data_bits, len(counts) + int(mean + 12 * math.sqrt(mean + 1)) + 64) + 1)
    tail = np.exp(log_binom[more] + more * np.log(p) + (data_bits - more) * np.log1p(-p)).sum(axis=1)
    return np.where(inside, through, 0.0), np.where(inside, tail, np.where(bers >= 1, 1.0, 0.0))


@lru_cache(maxsize=64)
def _log_binomials(n: int) -> np.ndarray:
    """``log C(n, k)`` for ``k = 0 … n``."""
    i = np.arange(n)
    return np.concatenate([[0.0], np.cumsum(np.log(n - i) - np.log(i + 1))])


def given_flips(counts: np.ndarray, frame_bits: int) -> np.ndarray:
    """``P(accepted with wrong data | exactly k flips at random places in the frame)`` for each k."""
    return np.array([c / math.comb(frame_bits, k) if k <= frame_bits else 0.0
                     for k, c in enumerate(counts)])


def ascii_parity_probability(data_chars: int, ber: float, max_flips: int = 32) -> float:
    """The same figure for a 7-bit ASCII line with one (even) parity bit per character and the same
    XOR LRC: any even number of flips in a character keeps its parity, so every pattern of even
    weight is a valid change (all 128 characters are data)."""
    weights = np.zeros((data_chars, 256))
    weights[:, WEIGHT % 2 == 0] = 1.0
    weights[:, 0] = 1.0
    counts = count_patterns(weights, max_flips)
    return float(probability(counts, np.array([ber]), 8 * (data_chars + 1), 0)[0][0])
