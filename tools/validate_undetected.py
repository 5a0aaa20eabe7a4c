"""Undetected errors where they can be counted: the theory against the receiving core's check.

    python -m tools.validate_undetected [--columns 20,80] [--events 100] [--direct] [--transfer] [--json]

An error that four-of-eight and the LRC both miss is too rare to meet in whole simulated transfers,
so the theory's count (:mod:`ibm1013.theory.undetected`) is checked against the check itself:

* **Stratified.**  Exactly ``k`` bits of a record frame flipped at random places, ``k = 2 … 8``, for
  random records and for the cards of a real deck, 20 and 80 columns.  A pattern can only get
  through when no framing bit is hit and every data character and the LRC take an even number of
  flips (a four-of-eight character changes into another only by as many 1→0 as 0→1 flips, and the
  LRC's change must then be the XOR of even changes).  The chance of that *even shape* given ``k``
  flips is counted exactly; patterns are drawn from it alone, so each stratum meets a hundred
  events in thousands of draws rather than billions, and ``P(undetected | k)`` is that chance times
  the share the check lets through, with its 95 % interval (Wilson).  Two or three flips can never
  get through; odd ``k`` neither (no even shape has an odd number of flips).
* **Direct.**  Records of three columns at BER 2e-2 to 5e-2, independent and in bursts, twelve
  million of each, each frame flipped as the line flips it; the count of wrong records accepted against the
  theory's chance (Poisson interval).
* **Transfer.**  The SimPy transfer's own ``undetected_errors`` over many runs at one such setting,
  against the theory's undetected errors per card.

The check that counts is :func:`accepted_wrong`, a vectorised copy of the receiving core's test of a
record (framing, four-of-eight and control patterns, length, LRC); ``tests/test_theory_undetected.py``
holds it against :class:`ibm1013.str.Receiver` on the same records, and runs the 20-column strata.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Any

import numpy as np

from ibm1013.str import ColumnLayout, SessionConfig
from ibm1013.str import fourofeight as fo
from ibm1013.theory import undetected

STRATA = range(2, 9)


def record_frames(words: np.ndarray, layout: ColumnLayout) -> np.ndarray:
    """``(n, L)``: the frames ``IDLE TL SOR1 data TL LRC`` of the cards ``words`` (``(n, 80)``)."""
    bodies = layout.encode_records(words)
    head = bytes([fo.IDLE, fo.TL, fo.SOR1])
    return np.frombuffer(b"".join(head + b for b in bodies), dtype=np.uint8).reshape(len(bodies), -1)


def accepted_wrong(frames: np.ndarray, sent: np.ndarray, valid: bytes) -> np.ndarray:
    """For each received frame (rows of ``frames``, sent as the rows of ``sent``): would the receiving
    core accept it as the record expected, with data other than sent?  Framing as sent, every data
    character one of ``valid``, the LRC the XOR of the data, and some data character changed."""
    table = undetected.valid_table(valid)
    length = frames.shape[1]
    framing = [0, 1, 2, length - 2]
    data = frames[:, 3:length - 2]
    intact = (frames[:, framing] == sent[:, framing]).all(axis=1)
    return (intact & table[data].all(axis=1)
            & (np.bitwise_xor.reduce(data, axis=1) == frames[:, -1])
            & (data != sent[:, 3:length - 2]).any(axis=1))


def even_shapes(chars: int, flips: int) -> int:
    """How many ways ``flips`` bits fall on ``chars`` characters with an even number on each."""
    even = [math.comb(8, j) if j % 2 == 0 else 0 for j in range(9)]
    ways = [1] + [0] * flips
    for _ in range(chars):
        ways = [sum(ways[d - j] * even[j] for j in range(0, min(8, d) + 1)) for d in range(flips + 1)]
    return ways[flips]


def _compositions(chars: int, flips: int, rng: np.random.Generator, count: int) -> np.ndarray:
    """``(count, chars)`` flips per character, drawn evenly from the even shapes of ``flips`` flips."""
    even = [math.comb(8, j) if j % 2 == 0 else 0 for j in range(9)]
    # suffix[i][d]: ways for characters i… to take d flips
    suffix = [[0] * (flips + 1) for _ in range(chars + 1)]
    suffix[chars][0] = 1
    for i in range(chars - 1, -1, -1):
        for d in range(flips + 1):
            suffix[i][d] = sum(even[j] * suffix[i + 1][d - j] for j in range(0, min(8, d) + 1))
    out = np.zeros((count, chars), dtype=np.intp)
    left = np.full(count, flips)
    for i in range(chars):
        weights = np.array([[even[j] * suffix[i + 1][d - j] if j <= d else 0 for j in range(9)]
                            for d in range(flips + 1)], dtype=float)
        probs = weights[left] / weights[left].sum(axis=1, keepdims=True)
        pick = (rng.random(count)[:, None] > np.cumsum(probs, axis=1)).sum(axis=1)
        out[:, i] = pick
        left -= pick
    return out


def even_patterns(frames: np.ndarray, flips: int, rng: np.random.Generator) -> np.ndarray:
    """Each frame with ``flips`` bits flipped, drawn evenly among the patterns of an even shape
    (nothing on the framing)."""
    n, length = frames.shape
    positions = list(range(3, length - 2)) + [length - 1]  # data and LRC
    counts = _compositions(len(positions), flips, rng, n)
    errors = np.zeros((n, len(positions)), dtype=np.uint8)
    for j in (2, 4, 6, 8):
        rows, cols = np.nonzero(counts == j)
        if len(rows):
            keys = rng.random((len(rows), 8)).argsort(axis=1)[:, :j]  # j distinct bits
            errors[rows, cols] = np.bitwise_or.reduce(np.left_shift(1, keys).astype(np.uint8), axis=1)
    out = frames.copy()
    out[:, positions] ^= errors
    return out


def wilson(events: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    if trials == 0:
        return 0.0, 1.0
    p = events / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def stratum(frames: np.ndarray, layout: ColumnLayout, flips: int, events: int,
            rng: np.random.Generator, theory: float) -> dict[str, Any]:
    """One stratum: draws until ``events`` wrong records got through (or a cap), the estimate of
    ``P(undetected | flips)`` with its interval, and whether the theory lies inside."""
    length = frames.shape[1]
    share_even = even_shapes(length - 4, flips) / math.comb(8 * length, flips)
    got = drawn = 0
    batch = 20_000
    cap = 200_000 if theory == 0 else 5_000_000  # what cannot get through: a look, not a hunt
    while got < events and drawn < cap and share_even > 0:
        pick = frames[rng.integers(0, len(frames), batch)]
        got += int(accepted_wrong(even_patterns(pick, flips, rng), pick, layout.valid_chars).sum())
        drawn += batch
    low, high = wilson(got, drawn)
    return {"flips": flips, "events": got, "drawn": drawn, "share_even": share_even,
            "estimate": share_even * got / drawn if drawn else 0.0,
            "low": share_even * low, "high": share_even * high, "theory": theory,
            "inside": share_even == 0 and theory < 1e-15 or share_even * low <= theory <= share_even * high}


def theory_given_flips(frames: np.ndarray, layout: ColumnLayout) -> np.ndarray:
    """The theory's ``P(undetected | k flips)`` for these records, each counted with its own
    characters (the mean over the records)."""
    counts = undetected.deck_counts(frames[:, 3:-2], layout.valid_chars, max(STRATA))
    return undetected.given_flips(counts, 8 * frames.shape[1])


def strata(words: np.ndarray, columns: int, events: int, seed: int,
           flips: range = STRATA) -> list[dict[str, Any]]:
    """Every stratum ``flips`` of the records of ``words`` sent ``columns`` wide."""
    layout = ColumnLayout.parse(str(columns))
    frames = record_frames(words, layout)
    theory = theory_given_flips(frames, layout)
    rng = np.random.default_rng(seed)
    return [stratum(frames, layout, k, events, rng, float(theory[k])) for k in flips]


def decks(cards: int, seed: int) -> dict[str, np.ndarray]:
    """A random deck (every card character but the blank, evenly) and a real one (the 167 cards of
    ``tests/data/failed-cards-167.cbn``, 65 columns punched on average)."""
    from emulator.formats import read_deck_arrays
    from ibm1013.sweep.grid import synthetic_deck

    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "failed-cards-167.cbn")
    with open(path, "rb") as f:
        _fmt, chunks = read_deck_arrays(f, "auto")
        real = np.concatenate(list(chunks)).astype(np.uint16)
    return {"random": synthetic_deck(cards, seed), "real": real}


# -- direct: whole frames through the line's noise --------------------------------------------------
def line_flips(bits: int, count: int, ber: float, burst: tuple[float, float, float] | None,
               rng: np.random.Generator) -> np.ndarray:
    """``(count, bits)`` flips as the line makes them: independent at ``ber``, or the two-state chain
    (:mod:`emulator.noise`) started in its long-run state and stepped once per bit."""
    if burst is None:
        return rng.random((count, bits)) < ber
    p_gb, p_bg, ber_bad = burst
    bad = rng.random(count) < p_gb / (p_gb + p_bg)
    out = np.empty((count, bits), dtype=bool)
    for b in range(bits):
        out[:, b] = rng.random(count) < np.where(bad, ber_bad, ber)
        switch = rng.random(count) < np.where(bad, p_bg, p_gb)
        bad ^= switch
    return out


def direct(columns: int, ber: float, burst: tuple[float, float, float] | None, records: int,
           seed: int) -> dict[str, Any]:
    """``records`` random frames of ``columns`` columns through the noise; wrong records accepted,
    against the theory's chance (95 % Poisson interval of the count)."""
    from ibm1013.sweep.grid import synthetic_deck
    from ibm1013.theory import Setting
    from ibm1013.theory.figures import frame_outcomes

    layout = ColumnLayout.parse(str(columns))
    rng = np.random.default_rng(seed)
    chars = np.frombuffer(fo.CARD_CHARS, dtype=np.uint8)
    got = 0
    done = 0
    while done < records:
        n = min(200_000, records - done)
        words = synthetic_deck(1, 0).repeat(n, axis=0)
        words[:, :columns] = fo.CHAR_TO_WORD[rng.choice(chars, size=(n, columns))]
        sent = record_frames(words, layout)
        bits = np.unpackbits(sent, axis=1) ^ line_flips(8 * sent.shape[1], n, ber, burst, rng)
        got += int(accepted_wrong(np.packbits(bits, axis=1), sent, layout.valid_chars).sum())
        done += n
    theory = frame_outcomes(Setting(SessionConfig(columns=layout), ber=ber, burst=burst))["record_wrong"]
    low, high = poisson_interval(got)
    return {"columns": columns, "ber": ber, "burst": burst, "records": records, "events": got,
            "expected": theory * records, "low": low, "high": high,
            "inside": low <= theory * records <= high}


def poisson_interval(events: int) -> tuple[float, float]:
    """The 95 % interval of a Poisson mean from one count (Wilson–Hilferty's approximation to the
    exact chi-square bounds, good to a few per cent from one event on)."""
    def chi2(p_z: float, df: float) -> float:
        return df * (1 - 2 / (9 * df) + p_z * math.sqrt(2 / (9 * df))) ** 3

    low = 0.0 if events == 0 else chi2(-1.959964, 2 * events) / 2
    return low, chi2(1.959964, 2 * events + 2) / 2


def transfer(columns: int, ber: float, runs: int, cards: int, seed: int) -> dict[str, Any]:
    """The SimPy transfer's own undetected counter, summed over ``runs`` transfers, against the
    theory's undetected errors per card times the cards sent."""
    from ibm1013 import TransferConfig
    from ibm1013.sim.transfer import run_transfer
    from ibm1013.sweep.grid import synthetic_deck
    from ibm1013.theory import Setting, figures

    got = sent = 0
    for i in range(runs):
        config = TransferConfig.build(columns=str(columns), ber=ber, seed=seed + i)
        report = run_transfer(synthetic_deck(cards, seed + i), config).report
        got += report.undetected_errors
        sent += report.cards_sent
    per_card = figures(Setting.of(TransferConfig.build(columns=str(columns), ber=ber))).undetected_per_million
    expected = per_card * 1e-6 * sent
    low, high = poisson_interval(got)
    return {"columns": columns, "ber": ber, "cards_sent": sent, "events": got, "expected": expected,
            "low": low, "high": high, "inside": low <= expected <= high}


DIRECT = ((3, 2e-2, None), (3, 5e-2, None), (3, 1e-3, (1e-3, 0.05, 0.3)), (3, 0.0, (2e-3, 0.1, 0.5)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--columns", default="20,80", help="widths of the strata (default %(default)s)")
    ap.add_argument("--events", type=int, default=100, help="events to count in each stratum")
    ap.add_argument("--records", type=int, default=12_000_000, help="records of each direct point")
    ap.add_argument("--direct", action="store_true", help="run the direct points too")
    ap.add_argument("--transfer", action="store_true", help="run the SimPy transfer point too")
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out: dict[str, Any] = {"strata": []}
    for name, words in decks(200, args.seed).items():
        for columns in (int(c) for c in args.columns.split(",")):
            for row in strata(words, columns, args.events, args.seed):
                out["strata"].append({"deck": name, "columns": columns, **row})
    if args.direct:
        out["direct"] = [direct(c, b, g, args.records, args.seed) for c, b, g in DIRECT]
    if args.transfer:
        out["transfer"] = transfer(2, 3e-2, 400, 200, args.seed)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        _print(out)
    rows = out["strata"] + out.get("direct", []) + ([out["transfer"]] if "transfer" in out else [])
    return 0 if all(r["inside"] for r in rows) else 1


def _print(out: dict[str, Any]) -> None:
    print("deck    cols  k  events     drawn   P(undetected | k flips): measured [95 %]            theory")
    for r in out["strata"]:
        print(f"{r['deck']:7s} {r['columns']:4d} {r['flips']:2d} {r['events']:7d} {r['drawn']:9d}   "
              f"{r['estimate']:10.3e} [{r['low']:9.3e}, {r['high']:9.3e}]   {r['theory']:10.3e} "
              f"{'inside' if r['inside'] else 'OUTSIDE'}")
    for r in out.get("direct", []):
        print(f"direct {r['columns']} columns, BER {r['ber']:g}, bursts {r['burst']}: {r['events']} wrong "
              f"records accepted of {r['records']}, theory {r['expected']:.1f} "
              f"[{r['low']:.1f}, {r['high']:.1f}] {'inside' if r['inside'] else 'OUTSIDE'}")
    if "transfer" in out:
        r = out["transfer"]
        print(f"transfer {r['columns']} columns, BER {r['ber']:g}: {r['events']} undetected errors in "
              f"{r['cards_sent']} cards, theory {r['expected']:.1f} [{r['low']:.1f}, {r['high']:.1f}] "
              f"{'inside' if r['inside'] else 'OUTSIDE'}")


if __name__ == "__main__":
    sys.exit(main())
