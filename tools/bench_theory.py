"""Benchmark: the theory of 10,000 settings against the same grid simulated, side by side.

    python -m tools.bench_theory [--cards 100] [--sample 50] [--repeat 3] [--json]

The grid: 4 bit rates (600, 1200, 2000, 2400) × 5 widths (80, 60, 40, 20, 10 columns) × column
binary off/on × full/half duplex × 125 bit error rates from 1e-7 to 3e-3 = 10,000 settings with
independent errors.  Timed in this process:

* ``theory``: :func:`ibm1013.theory.figures_many` of all 10,000 at once (the best of ``--repeat``;
  the first call, which counts each layout's undetected patterns once, is timed apart as ``first``);
* ``simulated``: :func:`ibm1013.sim.transfer.simulate` of every ``--sample``-th setting with a deck
  of ``--cards`` synthetic cards, one seed, scaled to the whole grid (simulating all 10,000 takes a
  busy machine several minutes; ``--sample 1`` does it);
* ``bursts``: the theory of 100 settings with Gilbert–Elliott bursts (the undetected count then
  walks the chain's matrices), per setting.

Printed: seconds and the ratio simulated / theory — how many times faster the closed form gives a
figure than one simulation of ``--cards`` cards.  The target: the theory's 10,000 in under 1 s.
Not a test: figures depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from typing import Any

import numpy as np

from ibm1013 import TransferConfig
from ibm1013.sim.transfer import simulate
from ibm1013.str import ColumnLayout, SessionConfig
from ibm1013.sweep.grid import synthetic_deck
from ibm1013.theory import Setting, figures_many

RATES = (600, 1200, 2000, 2400)
WIDTHS = ("80", "60", "40", "20", "10")
BERS = np.logspace(-7, np.log10(3e-3), 125)


def points() -> list[dict[str, Any]]:
    return [dict(bit_rate=r, columns=w, column_binary=cb, duplex=d, ber=float(b))
            for r in RATES for w in WIDTHS for cb in (False, True) for d in ("full", "half") for b in BERS]


def settings(grid: list[dict[str, Any]]) -> list[Setting]:
    layouts = {(w, cb): ColumnLayout.parse(w, column_binary=cb) for w in WIDTHS for cb in (False, True)}
    return [Setting(SessionConfig(bit_rate=p["bit_rate"], columns=layouts[p["columns"], p["column_binary"]]),
                    duplex=p["duplex"], ber=p["ber"]) for p in grid]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=100, help="cards in each simulated deck")
    parser.add_argument("--sample", type=int, default=50, help="simulate every N-th setting")
    parser.add_argument("--repeat", type=int, default=3, help="timed rounds of the theory (best shown)")
    parser.add_argument("--json", action="store_true", help="figures as JSON")
    args = parser.parse_args(argv)
    if args.cards < 1 or args.sample < 1 or args.repeat < 1:
        parser.error("--cards, --sample and --repeat must be at least 1")
    grid = points()
    todo = settings(grid)
    start = time.perf_counter()
    figures_many(todo)
    first = time.perf_counter() - start
    best = min(_timed(lambda: figures_many(todo)) for _ in range(args.repeat))
    deck = synthetic_deck(args.cards)
    sample = grid[::args.sample]
    simulated = _timed(lambda: [simulate(deck, TransferConfig.build(**p)) for p in sample])
    whole = simulated * len(grid) / len(sample)
    bursts = settings(grid[:100])
    bursts = [Setting(s.session, ber=s.ber, burst=(1e-4, 0.01, 0.1)) for s in bursts]
    burst_s = _timed(lambda: figures_many(bursts)) / len(bursts)
    result = {
        "settings": len(grid), "theory_s": round(best, 4), "theory_first_s": round(first, 4),
        "simulated_settings": len(sample), "cards": args.cards, "simulated_s": round(simulated, 3),
        "simulated_whole_grid_s": round(whole, 2), "ratio_simulated_over_theory": round(whole / best, 1),
        "burst_theory_per_setting_s": round(burst_s, 4),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"theory     {len(grid)} settings  {best:8.3f} s  (first call {first:.3f} s: counts each "
              f"layout's undetected patterns)")
        print(f"simulated  {len(sample)} of them, {args.cards} cards each  {simulated:8.3f} s  -> "
              f"the whole grid {whole:.1f} s")
        print(f"ratio      simulated / theory  {whole / best:.0f}x")
        print(f"bursts     theory {burst_s * 1000:.1f} ms a setting")
    return 0


def _timed(work: Any) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


if __name__ == "__main__":
    sys.exit(main())
