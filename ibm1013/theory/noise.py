"""What the line's noise does to one eight-bit character, as matrices.

The simulated line (:mod:`emulator.noise`) flips bits one at a time, most significant bit of each
character first.  Independent errors flip each bit with probability ``ber``.  Gilbert–Elliott bursts
are a two-state chain (good, bad) stepped once per bit: the bit is flipped with the BER of the state
it is sent in, then the chain moves (good→bad with ``p_gb``, bad→good with ``p_bg``).  Bits are only
counted while characters are on the line; time without characters does not move the chain.

For a character the effect of the noise is one matrix per *error pattern* ``e`` (the XOR of what
arrives with what was sent): ``M[e][s, s']`` is the probability that pattern ``e`` happens and the
chain ends the character in state ``s'``, given it began in ``s``.  With independent errors there is
one state and ``M[e] = ber^|e| (1-ber)^(8-|e|)``.  A frame of characters is the product of its
characters' matrices in the order they are sent, so every probability the theory needs is a sum of
such products — exact for both models.

Everything here is batched: ``n`` settings at once, matrices of shape ``(n, S, S)``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Burst = tuple[float, float, float]


def bit_matrices(bers: Sequence[float], bursts: Sequence[Burst | None]) -> tuple[np.ndarray, np.ndarray]:
    """``(ok, flip)``, each ``(n, S, S)``: one bit sent clean / flipped, with the chain's step after it.
    All settings must have the same number of states ``S`` (1 without bursts, 2 with)."""
    n = len(bers)
    if all(b is None for b in bursts):
        p = np.asarray(bers, dtype=float).reshape(n, 1, 1)
        return 1.0 - p, p
    if any(b is None for b in bursts):
        raise ValueError("settings with and without bursts go in separate batches")
    arr = np.asarray(bursts, dtype=float)
    p_gb, p_bg, ber_bad = arr[:, 0], arr[:, 1], arr[:, 2]
    step = np.empty((n, 2, 2))
    step[:, 0, 0], step[:, 0, 1] = 1 - p_gb, p_gb
    step[:, 1, 0], step[:, 1, 1] = p_bg, 1 - p_bg
    ber_state = np.stack([np.asarray(bers, dtype=float), ber_bad], axis=1)  # (n, 2): good, bad
    flip = ber_state[:, :, None] * step
    return step - flip, flip


def char_matrices(ok: np.ndarray, flip: np.ndarray) -> np.ndarray:
    """``M``, shape ``(256, n, S, S)``: ``M[e]`` for every error pattern ``e`` of a character (bit 7,
    the first on the line, is the pattern's most significant bit)."""
    if ok.shape[-1] == 1:  # independent errors: ber^|e| (1 - ber)^(8 - |e|)
        weight = np.array([bin(e).count("1") for e in range(256)], dtype=float)[:, None, None, None]
        result: np.ndarray = flip[None] ** weight * ok[None] ** (8 - weight)
        return result
    patterns = np.stack([ok, flip])  # patterns of the first bit: 0, 1
    for _ in range(7):
        patterns = np.concatenate([patterns @ ok, patterns @ flip])  # appending a bit: index*2 + bit
        patterns = patterns.reshape(2, -1, *ok.shape).transpose(1, 0, 2, 3, 4).reshape(-1, *ok.shape)
    return patterns


def stationary(flip_or_burst: Burst | None) -> np.ndarray:
    """The share of bits sent in each state in the long run: ``[1]`` without bursts,
    ``[p_bg, p_gb] / (p_gb + p_bg)`` with (the good state only if the chain cannot move)."""
    if flip_or_burst is None:
        return np.ones(1)
    p_gb, p_bg = flip_or_burst[0], flip_or_burst[1]
    if p_gb + p_bg == 0:
        return np.array([1.0, 0.0])
    return np.array([p_bg, p_gb]) / (p_gb + p_bg)


def power(m: np.ndarray, k: int | np.ndarray) -> np.ndarray:
    """``m`` (``(n, S, S)``) to the ``k``-th power, batched; ``k`` one whole number ``>= 0`` or one
    for each of the ``n`` (squaring, each setting taking the squares its own exponent needs)."""
    if np.ndim(k) == 0:
        return np.linalg.matrix_power(m, int(k))
    k = np.asarray(k, dtype=np.int64)
    out = np.broadcast_to(np.eye(m.shape[-1]), m.shape).copy()
    square = m
    while k.any():
        take = (k & 1).astype(bool)
        out[take] = out[take] @ square[take]
        k = k >> 1
        if k.any():
            square = square @ square
    return out
