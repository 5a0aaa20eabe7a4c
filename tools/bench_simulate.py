"""Benchmark: a day of 1013 traffic through the SimPy model, against bare SimPy in the same run.

    python -m tools.bench_simulate [--cards 144000] [--ber 1e-5] [--profile]

A day of traffic: 144,000 full 80-column cards (100 cards/min for 24 h) at a bit error rate of
1e-5.  Printed: simulated cards per wall-second and per CPU-second (the machine may be shared), the
same deck over a clean line side by side, SimPy events per card, and the bare SimPy event rate
measured in the same run (timeouts with a callback, the kind of event the model uses), which
with the events per card gives the ceiling no model on SimPy could pass.  Not a test: figures
depend on the machine.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import simpy

from ibm1013 import fourofeight as fo
from ibm1013.transfer import Transfer, TransferConfig, run_transfer


def bare_simpy_rate(events: int = 400_000) -> tuple[float, float]:
    """Events per wall-second and per CPU-second of a chain of SimPy timeouts, each scheduling the
    next from a callback."""
    env = simpy.Environment()
    left = [events]

    def again(_ev: simpy.events.Event) -> None:
        left[0] -= 1
        if left[0] > 0:
            env.timeout(0.001).callbacks.append(again)

    env.timeout(0.001).callbacks.append(again)
    start, cpu = time.perf_counter(), time.process_time()
    env.run()
    return events / (time.perf_counter() - start), events / (time.process_time() - cpu)


def timed_run(deck: np.ndarray, config: TransferConfig) -> tuple[Transfer, float, float]:
    """The transfer, and the wall and CPU seconds it took."""
    start, cpu_start = time.perf_counter(), time.process_time()
    transfer = run_transfer(deck, config)
    return transfer, time.perf_counter() - start, time.process_time() - cpu_start


def make_deck(cards: int, seed: int = 1) -> np.ndarray:
    words = np.array([w for w in range(4096) if fo.WORD_TO_CHAR[w]], dtype=np.uint16)
    return np.random.default_rng(seed).choice(words, size=(cards, 80))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=144_000)
    parser.add_argument("--ber", type=float, default=1e-5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    args = parser.parse_args(argv)

    deck = make_deck(args.cards, args.seed)
    config = TransferConfig.build(ber=args.ber, seed=args.seed)
    bare = bare_simpy_rate()
    transfer, wall, cpu = timed_run(deck, config)
    _, clean_wall, clean_cpu = timed_run(deck, TransferConfig.build(ber=0.0, seed=args.seed))
    bare_after = bare_simpy_rate()
    r = transfer.report
    per_card = transfer.events / max(1, args.cards)
    bare_wall = max(bare[0], bare_after[0])
    bare_cpu = max(bare[1], bare_after[1])
    print(f"deck                {args.cards} cards x 80 columns, BER {args.ber:g}, seed {args.seed}")
    print(f"simulated           {r.simulated_seconds / 3600:.2f} h of line time, "
          f"{r.cards_per_minute:.2f} cards/min, {r.retransmissions} retransmissions, "
          f"{r.detected_errors} detected / {r.undetected_errors} undetected errors, "
          f"{len(r.failed_cards)} failed, lost {r.lost}, duplicated {r.duplicated}")
    print(f"wall / CPU time     {wall:.2f} s / {cpu:.2f} s  ({cpu / args.cards * 1e6:.2f} CPU-us per card)")
    print(f"cards per wall-s    {args.cards / wall:,.0f}  (target 100,000)")
    print(f"cards per CPU-s     {args.cards / cpu:,.0f}  (this process's CPU time; fairer on a busy machine)")
    print(f"clean line (BER 0)  {args.cards / clean_wall:,.0f} per wall-s, "
          f"{args.cards / clean_cpu:,.0f} per CPU-s (same deck, side by side: what the noise costs)")
    print(f"events per card     {per_card:.2f}")
    print(f"bare SimPy events/s {bare_wall:,.0f} per wall-s, {bare_cpu:,.0f} per CPU-s (best of 2)")
    print(f"ceiling cards/s     {bare_wall / per_card:,.0f} wall, {bare_cpu / per_card:,.0f} CPU "
          f"(bare rate / events per card)")
    print(f"model vs ceiling    {args.cards / wall / (bare_wall / per_card):.2f} wall, "
          f"{args.cards / cpu / (bare_cpu / per_card):.2f} CPU")
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
        run_transfer(deck[: min(args.cards, 30_000)], config)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(18)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
