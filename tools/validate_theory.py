"""The theory against the simulation over a grid of settings: is every simulated point where the
theory says it should fall?

    python -m tools.validate_theory [--points N] [--workers 2] [--json] [--table]

Each point (bit rate, columns or a mask, column binary, duplex, BER from 1e-6 to 3e-3, bursts,
serial card mechanics) is
simulated (:func:`ibm1013.sim.transfer.run_transfer`, synthetic decks, seeded) and worked out
(:mod:`ibm1013.theory`).  Two figures are compared, each pooled over the point's runs as the theory
defines it:

* cards per minute — 60 × cards delivered / seconds from the first record to the last card's end,
  summed over the runs (a ratio of sums, so short noisy runs do not tilt it);
* retransmissions per card — retransmissions / cards sent, summed over the runs.

The standard error of each: with independent errors the theory's own (cards are independent, so the
spread of one card over √cards); with bursts, where a burst spans cards, the spread between runs
(Student's t).  A correct theory puts about 95 % of points inside ±1.96 standard errors and none
beyond 4.  Cards per point are chosen so each point sees a few dozen errors (``EVENTS``), within
``[MIN_CARDS, MAX_CARDS]``.  ``tests/test_theory_validation.py`` runs the grid in CI.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

EVENTS = 30
MIN_CARDS, MAX_CARDS = 150, 8000
BURST_RUNS = 20
RATES = (600, 1200, 2400)
WIDTHS = ("80", "40", "20", "1-10,41-50")
BERS = (1e-6, 1e-5, 1e-4, 3e-4, 1e-3, 3e-3)
BURSTS = ((1e-4, 0.01, 0.1), (2e-5, 0.02, 0.05))


def grid(ci: bool = False) -> list[dict[str, Any]]:
    """The settings: every bit rate × width × column binary × duplex × BER with independent errors
    (288), with each burst model the 1200 bit/s points at BER 0 and 1e-5 (64), and serial card
    mechanics at 80 and 20 columns, BER 1e-5 to 1e-3 (36): 388.  ``ci``: the 256 that CI runs
    (widths 80, 20 and the mask; bursts at 80 and 20 columns, BER 1e-5; serial at 1200 and 2400)."""
    widths = ("80", "20", "1-10,41-50") if ci else WIDTHS
    points = [dict(bit_rate=r, columns=w, column_binary=cb, duplex=d, ber=b)
              for r in RATES for w in widths for cb in (False, True) for d in ("full", "half") for b in BERS]
    burst_widths, burst_bers = (("80", "20"), (1e-5,)) if ci else (WIDTHS, (0.0, 1e-5))
    points += [dict(bit_rate=1200, columns=w, column_binary=cb, duplex=d, ber=b, burst=burst)
               for burst in BURSTS for w in burst_widths for cb in (False, True) for d in ("full", "half")
               for b in burst_bers]
    points += [dict(bit_rate=r, columns=w, duplex=d, ber=b, mechanics="serial")
               for r in (RATES[1:] if ci else RATES) for w in ("80", "20") for d in ("full", "half")
               for b in (1e-5, 1e-4, 1e-3)]
    return points


def _cards(point: dict[str, Any]) -> tuple[int, int]:
    """(runs, cards per run) for a point: enough cards to see about ``EVENTS`` damaged frames."""
    f = theory(point)
    damaged = 1.0 - f.record_clean * f.reply_clean
    cards = int(min(MAX_CARDS, max(MIN_CARDS, math.ceil(EVENTS / max(damaged, 1e-12)))))
    if point.get("burst"):
        return BURST_RUNS, max(MIN_CARDS, cards // BURST_RUNS)
    return 2, max(MIN_CARDS, cards // 2)


def simulate_point(point: dict[str, Any]) -> dict[str, Any]:
    """Simulate a point's runs; the pooled sums of each run."""
    from ibm1013 import TransferConfig
    from ibm1013.sim.transfer import run_transfer
    from ibm1013.sweep.grid import synthetic_deck

    runs, cards = _cards(point)
    out = []  # each run goes on past a card given up ("skip"), so that it sends the whole deck
    for i in range(runs):
        digest = hashlib.sha256(f"{json.dumps(point, sort_keys=True)}#{i}".encode()).digest()
        seed = int.from_bytes(digest[:4], "big")  # from the point and run alone: any order, any worker
        report = run_transfer(synthetic_deck(cards, seed),
                              TransferConfig.build(seed=seed, on_give_up="skip", **point)).report
        delivered = report.cards_sent - len(report.failed_cards) - len(report.unconfirmed_cards)
        span = 60.0 * delivered / report.cards_per_minute if report.cards_per_minute else 0.0
        out.append((delivered, span, report.retransmissions, report.cards_sent, report.ended))
    return {"point": point, "cards": cards, "runs": out, "theory": theory(point, cards)}


def theory(point: dict[str, Any], cards: int | None = None) -> Any:
    """The theory's figures of a point (``cards``: the length of each run's deck)."""
    from ibm1013 import TransferConfig
    from ibm1013.theory import Setting, figures

    return figures(Setting.of(TransferConfig.build(**point)), cards=cards)


@dataclass
class Comparison:
    point: dict[str, Any]
    cards: int
    simulated: float
    theory: float
    se: float
    z: float
    figure: str


def compare(result: dict[str, Any]) -> list[Comparison]:
    """The point's two comparisons (cards per minute, retransmissions per card)."""
    point, runs, f = result["point"], result["runs"], result["theory"]
    delivered, span = sum(r[0] for r in runs), sum(r[1] for r in runs)
    retrans, sent = sum(r[2] for r in runs), sum(r[3] for r in runs)
    rate = 60.0 * delivered / span if span else 0.0
    per_card = retrans / sent if sent else 0.0
    if point.get("burst"):
        rate_se = _between_runs([r[0] for r in runs], [r[1] / 60.0 for r in runs])
        retrans_se = _between_runs([r[2] for r in runs], [r[3] for r in runs])
        scale = _t975(len(runs) - 1) / 1.959964  # as many Student's t as normal standard errors
        rate_se, retrans_se = rate_se * scale, retrans_se * scale
    else:
        rate_se = f.cards_per_minute_spread / math.sqrt(max(sent, 1))
        retrans_se = f.retransmissions_per_card_sd / math.sqrt(max(sent, 1))
    total = sum(r[3] for r in runs)
    return [Comparison(point, total, rate, f.cards_per_minute, rate_se, _z(rate, f.cards_per_minute, rate_se),
                       "cards_per_minute"),
            Comparison(point, total, per_card, f.retransmissions_per_card, retrans_se,
                       _z(per_card, f.retransmissions_per_card, retrans_se), "retransmissions_per_card")]


def _z(simulated: float, theory: float, se: float) -> float:
    if se > 0:
        return (simulated - theory) / se
    # no spread (a clean line): equal to the report's rounding (cards per minute to 3 decimals)
    return 0.0 if math.isclose(simulated, theory, abs_tol=1e-3) else math.inf


def _between_runs(top: list[float], bottom: list[float]) -> float:
    """Standard error of sum(top)/sum(bottom) from the spread between runs (delta method)."""
    n = len(top)
    ratio = sum(top) / sum(bottom)
    mean_bottom = sum(bottom) / n
    resid = [t - ratio * b for t, b in zip(top, bottom, strict=True)]
    return math.sqrt(sum(r * r for r in resid) / (n * (n - 1))) / mean_bottom


def _t975(df: int) -> float:
    from ibm1013.sweep.results import t975

    return t975(df)


def validate(points: list[dict[str, Any]], workers: int = 2) -> list[Comparison]:
    """Simulate and compare every point (``workers`` processes)."""
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(simulate_point, points, chunksize=4))
    else:
        results = [simulate_point(p) for p in points]
    return [c for r in results for c in compare(r)]


def summary(comparisons: list[Comparison]) -> dict[str, Any]:
    inside = sum(abs(c.z) <= 1.959964 for c in comparisons)
    worst = max(comparisons, key=lambda c: abs(c.z))
    return {"comparisons": len(comparisons), "points": len({json.dumps(c.point, sort_keys=True)
                                                            for c in comparisons}),
            "inside_95": inside / len(comparisons), "max_abs_z": abs(worst.z),
            "worst": {"point": worst.point, "figure": worst.figure, "simulated": worst.simulated,
                      "theory": worst.theory, "z": worst.z}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--points", type=int, default=None, help="only the first N points of the grid")
    ap.add_argument("--ci", action="store_true", help="the grid CI runs (256 points)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--table", action="store_true", help="print every comparison")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    points = grid(args.ci)[: args.points]
    comparisons = validate(points, args.workers)
    if args.table:
        for c in comparisons:
            print(f"{json.dumps(c.point):96s} {c.figure:25s} sim {c.simulated:10.4f} theory "
                  f"{c.theory:10.4f} se {c.se:8.4f} z {c.z:+6.2f}")
    result = summary(comparisons)
    print(json.dumps(result, indent=2) if args.json else
          f"{result['points']} points, {result['comparisons']} comparisons: "
          f"{100 * result['inside_95']:.1f} % inside the 95 % interval, max |z| {result['max_abs_z']:.2f} "
          f"({result['worst']['figure']} at {result['worst']['point']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
