"""Noise on a data line: bits flipped in the characters as they travel.

A telephone line does not lose characters, it garbles bits.  These models flip bits inside the bytes
handed to them, so whatever checks the line code has (four-of-eight counting, LRC, CRC …) do the
detecting, and a double error can slip through exactly as it would on a real line.

* :class:`BitErrors` — independent bit errors at a bit error rate (BER).
* :class:`GilbertElliott` — bursts: a two-state Markov chain (good/bad) stepped once per bit, with
  ``p_gb`` the chance per bit of going from good to bad, ``p_bg`` of coming back, and a BER in each
  state (the good state's is the plain BER).
* :class:`NoNoise` — a clean line.

Bits are counted along the line, most significant bit of each byte first, and the models keep their
state from one chunk to the next, so cutting a stream into chunks differently gives the same errors.
Instead of one random draw per bit they draw the *gap* to the next error (a geometric variable), so a
clean chunk at a low BER costs no random call at all.  Every model takes a seed: same seed, same
errors.  No SimPy here — the simulated line and the serial virtual line both use these.

:class:`LineCut` is the other way a line fails: at a chosen time it stops carrying anything.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Protocol

_NEVER = math.inf


class NoiseModel(Protocol):
    """Anything that corrupts a chunk of line bytes.

    ``clean_bits`` is the clean fast path: the next ``clean_bits`` bits will certainly pass unchanged,
    so a caller may let a chunk of ``n <= clean_bits`` bits through untouched by lowering
    ``clean_bits`` by ``n`` — one integer comparison — instead of calling :meth:`corrupt`; the model
    counts such bits as passed.  (``math.inf`` on a line that never errs.)
    """

    flipped_bits: int
    clean_bits: float

    def corrupt(self, data: bytes) -> tuple[bytes, int]:
        """``data`` with some bits flipped, and how many were flipped in this chunk."""
        ...


def _make_rng(seed: int | str | None) -> random.Random:
    return random.Random(seed)


def _gap(rng: random.Random, ber: float) -> float:
    """Number of clean bits before the next error at bit error rate ``ber`` (geometric)."""
    if ber <= 0.0:
        return _NEVER
    if ber >= 1.0:
        return 0
    return math.floor(math.log(1.0 - rng.random()) / math.log1p(-ber))


def _flip(data: bytes, positions: list[int]) -> bytes:
    out = bytearray(data)
    for pos in positions:
        out[pos >> 3] ^= 0x80 >> (pos & 7)
    return bytes(out)


class NoNoise:
    """A clean line: nothing is ever changed."""

    flipped_bits = 0
    clean_bits = _NEVER

    def corrupt(self, data: bytes) -> tuple[bytes, int]:
        return data, 0


class BitErrors:
    """Independent bit errors: each bit is flipped with probability ``ber``."""

    def __init__(self, ber: float, seed: int | str | None = 0) -> None:
        if not 0.0 <= ber <= 1.0:
            raise ValueError(f"bit error rate must be between 0 and 1, not {ber}")
        self.ber = ber
        self._rng = _make_rng(seed)
        self.clean_bits = _gap(self._rng, ber)  # the gap to the next error
        self.flipped_bits = 0

    def corrupt(self, data: bytes) -> tuple[bytes, int]:
        nbits = len(data) * 8
        if self.clean_bits >= nbits:  # the common case: nothing happens in this chunk
            self.clean_bits -= nbits
            return data, 0
        positions: list[int] = []
        pos: float = int(self.clean_bits)  # _gap is infinite when ber is 0
        while pos < nbits:
            positions.append(int(pos))  # finite here: the gap is infinite only when ber is 0
            pos += 1 + _gap(self._rng, self.ber)
        self.clean_bits = pos - nbits
        self.flipped_bits += len(positions)
        return _flip(data, positions), len(positions)


class GilbertElliott:
    """Burst errors: a good state with BER ``ber_good`` and a bad one with BER ``ber_bad``.

    Per bit, the line goes from good to bad with probability ``p_gb`` and back with ``p_bg``, so a
    burst lasts ``1/p_bg`` bits on average and the line spends ``p_gb/(p_gb+p_bg)`` of its time in
    bursts.  The line starts in the good state.
    """

    def __init__(
        self, p_gb: float, p_bg: float, ber_bad: float, ber_good: float = 0.0,
        seed: int | str | None = 0,
    ) -> None:
        for name, value in (("P_GB", p_gb), ("P_BG", p_bg), ("BER_BAD", ber_bad), ("BER", ber_good)):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, not {value}")
        if p_bg <= 0.0 and p_gb > 0.0:
            raise ValueError("P_BG must be above 0, or a burst would never end")
        self.p_gb, self.p_bg = p_gb, p_bg
        self.ber_good, self.ber_bad = ber_good, ber_bad
        self._rng = _make_rng(seed)
        self.bad = False
        self._state_left = self._stay()
        self._gap = _gap(self._rng, ber_good)
        self.flipped_bits = 0
        self.clean_bits = self._window = min(self._state_left, self._gap)

    def _stay(self) -> float:
        """Bits before the next change of state (geometric, at least 1)."""
        return 1 + _gap(self._rng, self.p_bg if self.bad else self.p_gb)

    def corrupt(self, data: bytes) -> tuple[bytes, int]:
        # bits let through on the clean fast path since the last call (none counted on a line that
        # cannot change: inf - inf)
        passed = self._window - self.clean_bits if self._window != _NEVER else 0
        self._state_left -= passed
        self._gap -= passed
        nbits = len(data) * 8
        if self._state_left >= nbits and self._gap >= nbits:  # no error, no change of state
            self._state_left -= nbits
            self._gap -= nbits
            self.clean_bits = self._window = min(self._state_left, self._gap)
            return data, 0
        positions: list[int] = []
        pos = 0
        while pos < nbits:
            state_end = pos + self._state_left
            span_end = min(nbits, state_end)
            while pos + self._gap < span_end:
                pos += int(self._gap)
                positions.append(pos)
                pos += 1
                self._gap = _gap(self._rng, self.ber_bad if self.bad else self.ber_good)
            self._gap -= span_end - pos
            self._state_left = state_end - span_end
            pos = int(span_end)
            if self._state_left <= 0:
                self.bad = not self.bad
                self._state_left = self._stay()
                self._gap = _gap(self._rng, self.ber_bad if self.bad else self.ber_good)
        return self._finish(data, positions)

    def _finish(self, data: bytes, positions: list[int]) -> tuple[bytes, int]:
        self.clean_bits = self._window = min(self._state_left, self._gap)
        self.flipped_bits += len(positions)
        return (_flip(data, positions) if positions else data), len(positions)


def make_noise(
    ber: float = 0.0, burst: tuple[float, float, float] | None = None, seed: int | str | None = 0,
) -> NoiseModel:
    """The noise model for a plain ``ber`` and optional ``burst = (P_GB, P_BG, BER_BAD)``."""
    if burst is not None and burst[0] > 0.0:
        p_gb, p_bg, ber_bad = burst
        return GilbertElliott(p_gb, p_bg, ber_bad, ber_good=ber, seed=seed)
    if ber > 0.0:
        return BitErrors(ber, seed=seed)
    return NoNoise()


def parse_burst(text: str) -> tuple[float, float, float]:
    """``"P_GB,P_BG,BER_BAD"`` → a tuple of three probabilities (a clear ``ValueError`` otherwise)."""
    parts = text.split(",")
    if len(parts) != 3:
        raise ValueError(f"burst must be P_GB,P_BG,BER_BAD (three numbers), not {text!r}")
    try:
        values = tuple(float(p) for p in parts)
    except ValueError:
        raise ValueError(f"burst must be three numbers P_GB,P_BG,BER_BAD, not {text!r}") from None
    for v in values:
        if not 0.0 <= v <= 1.0:
            raise ValueError(f"burst probabilities must be between 0 and 1, not {v}")
    return values[0], values[1], values[2]


@dataclass(frozen=True)
class LineCut:
    """The line goes dead at ``at_seconds`` (``None``: never).  Nothing sent after that arrives."""

    at_seconds: float | None = None

    def is_cut(self, now: float) -> bool:
        return self.at_seconds is not None and now >= self.at_seconds
