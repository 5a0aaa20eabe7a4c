"""Benchmark: a day of 1013 traffic through the SimPy model, against bare SimPy in the same run.

    python -m tools.bench_simulate [--cards 144000] [--ber 1e-5] [--repeat 3] [--json] [--profile]

A day of traffic: 144,000 full 80-column cards (100 cards/min for 24 h) at a bit error rate of
1e-5.  The day is simulated ``--repeat`` times, each run next to a run of bare SimPy (timeouts with
a callback, the kind of event the model uses) and of the same deck over a clean line, because a
shared machine's speed drifts by tens of percent within a minute.  Printed: simulated cards per
wall-second and per CPU-second (best and median of the runs), SimPy events per card, and the
ratio of the model to the ceiling no model on SimPy could pass (bare event rate / events per
card) — the figure that stays put when the machine's speed does not — in wall and in CPU time.
Last, the same ratio for the two STR cores alone, exchanging the deck through a plain queue with
no SimPy, line or terminal: the model drives these cores, so it can never do better than that.
Not a test: figures depend on the machine, and on how the interpreter was built: a CPython
compiled without profile-guided optimization (pyenv's default) runs the same code 15-30 % slower
than a distribution's ``python3`` — the bare SimPy rate printed shows which kind you have.

``--instructions`` counts instead of timing, for a machine too busy to time on: valgrind
(``apt-get install valgrind``) counts the instructions a simulated card costs (a run of ``4 × N``
cards less a run of ``N``, each less its deck's making) and a bare SimPy event (likewise), and prints
their ratio at the model's events per card — the same ceiling ratio, counted in instructions.  The
count is exact and the same on a loaded machine (``PYTHONHASHSEED=0``); time per instruction is not,
so the timed ratio stays the figure of record (on this project's machine it ran at about 0.75 of the
counted one).
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import shutil
import statistics
import sys
import time
from collections import deque
from typing import Any

import numpy as np
import simpy

from ibm1013 import Transfer, TransferConfig
from ibm1013.sim.transfer import run_transfer
from ibm1013.str import Receiver, Send, Transmitter
from ibm1013.str import fourofeight as fo
from ibm1013.str.events import COMPLETE
from tools import callgrind


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


def core_alone_cpu(deck: np.ndarray, config: TransferConfig) -> float:
    """CPU seconds the two STR cores take to exchange ``deck`` over a clean line with nothing else:
    no SimPy, no line, no terminal, only a queue handing each end what the other sent (timers are
    never needed on a clean line).  What the model costs at the least on top of SimPy."""
    session = config.session
    tx, rx = Transmitter(deck, session), Receiver(session)
    queue: deque[tuple[Any, bytes]] = deque()

    def perform(to: Any, actions: list) -> None:
        for a in actions:
            if type(a) is Send:
                queue.append((to, a.data))

    cpu = time.process_time()
    perform(rx, tx.start())
    perform(tx, rx.start())
    while queue and tx.ended is None:
        core, data = queue.popleft()
        perform(tx if core is rx else rx, core.receive_data(data))
    cpu = time.process_time() - cpu
    if tx.ended is None or tx.ended.outcome != COMPLETE:
        raise RuntimeError(f"the cores alone did not complete: {tx.ended}")
    return cpu


def timed_run(deck: np.ndarray, config: TransferConfig) -> tuple[Transfer, float, float]:
    """The transfer, and the wall and CPU seconds it took."""
    start, cpu_start = time.perf_counter(), time.process_time()
    transfer = run_transfer(deck, config)
    return transfer, time.perf_counter() - start, time.process_time() - cpu_start


def make_deck(cards: int, seed: int = 1) -> np.ndarray:
    words = np.array([w for w in range(4096) if fo.WORD_TO_CHAR[w]], dtype=np.uint16)
    return np.random.default_rng(seed).choice(words, size=(cards, 80))


COUNTED = """
import sys
from tools.bench_simulate import bare_simpy_rate, make_deck
from ibm1013.sim.transfer import TransferConfig, run_transfer
what, n, ber = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
if what == "bare":
    bare_simpy_rate(n)
else:
    deck = make_deck(n)
    if what == "model":
        transfer = run_transfer(deck, TransferConfig.build(ber=ber, seed=1))
        print("events", transfer.events)
"""


def counted(what: str, n: int, ber: float) -> tuple[int, int]:
    """Instructions a process running ``what`` (``model``, ``deck`` or ``bare``) of size ``n`` takes
    under valgrind, and the SimPy events the model scheduled (0 for the others)."""
    instructions, printed = callgrind.count(COUNTED, what, str(n), str(ber))
    events = re.search(r"events (\d+)", printed)
    return instructions, int(events.group(1)) if events else 0


def instructions(cards: int, ber: float) -> dict[str, float]:
    """Instructions per simulated card and per bare SimPy event, and their ceiling ratio."""
    small, large = max(1, cards // 4), cards
    (m1, e1), (m2, e2) = counted("model", small, ber), counted("model", large, ber)
    (d1, _), (d2, _) = counted("deck", small, ber), counted("deck", large, ber)
    (b1, _), (b2, _) = counted("bare", 50_000, ber), counted("bare", 200_000, ber)
    per_card = ((m2 - m1) - (d2 - d1)) / (large - small)
    per_event = (b2 - b1) / 150_000
    events_per_card = (e2 - e1) / (large - small)
    return {"instructions_per_card": per_card, "instructions_per_bare_event": per_event,
            "events_per_card": events_per_card,
            "model_vs_ceiling_instructions": events_per_card * per_event / per_card}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=144_000)
    parser.add_argument("--ber", type=float, default=1e-5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs of the day (best and median shown)")
    parser.add_argument("--json", action="store_true", help="figures as JSON")
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under valgrind instead of timing (--cards 16000 is plenty)")
    args = parser.parse_args(argv)
    if args.instructions:
        if shutil.which("valgrind") is None:
            parser.error("--instructions needs valgrind (apt-get install valgrind)")
        if args.cards < 8:
            parser.error("--instructions needs --cards of 8 or more")
        figures = instructions(args.cards, args.ber)
        if args.json:
            print(json.dumps(figures, indent=2))
        else:
            print(f"instructions per card        {figures['instructions_per_card']:,.0f}")
            print(f"instructions per bare event  {figures['instructions_per_bare_event']:,.0f}")
            print(f"events per card              {figures['events_per_card']:.3f}")
            print(f"model vs ceiling, counted    {figures['model_vs_ceiling_instructions']:.3f}")
        return 0

    deck = make_deck(args.cards, args.seed)
    config = TransferConfig.build(ber=args.ber, seed=args.seed)
    clean = TransferConfig.build(ber=0.0, seed=args.seed)
    runs = []
    for _ in range(max(1, args.repeat)):
        bare_wall, bare_cpu = bare_simpy_rate()
        transfer, wall, cpu = timed_run(deck, config)
        _, clean_wall, _ = timed_run(deck, clean)
        core_cpu = core_alone_cpu(deck, clean)
        per_card = transfer.events / max(1, args.cards)
        runs.append({
            "cards_per_wall_s": args.cards / wall, "cards_per_cpu_s": args.cards / cpu,
            "clean_cards_per_wall_s": args.cards / clean_wall,
            "bare_events_per_wall_s": bare_wall, "bare_events_per_cpu_s": bare_cpu,
            "model_vs_ceiling": args.cards / wall / (bare_wall / per_card),
            "model_vs_ceiling_cpu": args.cards / cpu / (bare_cpu / per_card),
            "core_alone_vs_ceiling_cpu": args.cards / core_cpu / (bare_cpu / per_card),
        })
    r = transfer.report
    figures = {
        "python": f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})",
        "cards": args.cards, "ber": args.ber, "seed": args.seed, "runs": runs,
        "simulated_hours": r.simulated_seconds / 3600, "cards_per_minute": r.cards_per_minute,
        "retransmissions": r.retransmissions, "detected_errors": r.detected_errors,
        "undetected_errors": r.undetected_errors, "lost": r.lost, "duplicated": r.duplicated,
        "events_per_card": per_card,
        **{f"best_{key}": max(run[key] for run in runs) for key in runs[0]},
        **{f"median_{key}": statistics.median(run[key] for run in runs) for key in runs[0]},
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        _print(figures, args)
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
        run_transfer(deck[: min(args.cards, 30_000)], config)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(18)
    return 0


def _print(f: dict, args: argparse.Namespace) -> None:
    def rate(key: str, form: str = ">9,.0f") -> str:
        return f"best {f['best_' + key]:{form}}   median {f['median_' + key]:{form}}"

    print(f"interpreter         {f['python']}")
    print(f"deck                {args.cards} cards x 80 columns, BER {args.ber:g}, seed {args.seed}, "
          f"{len(f['runs'])} runs")
    print(f"simulated           {f['simulated_hours']:.2f} h of line time, {f['cards_per_minute']:.2f} "
          f"cards/min, {f['retransmissions']} retransmissions, {f['detected_errors']} detected / "
          f"{f['undetected_errors']} undetected errors, lost {f['lost']}, duplicated {f['duplicated']}")
    print(f"cards per wall-s    {rate('cards_per_wall_s')}   (target 100,000)")
    print(f"cards per CPU-s     {rate('cards_per_cpu_s')}")
    print(f"clean line (BER 0)  {rate('clean_cards_per_wall_s')}   (same deck, side by side)")
    print(f"events per card     {f['events_per_card']:.2f}")
    print(f"bare SimPy events/s {rate('bare_events_per_wall_s')}")
    ceiling = f["best_bare_events_per_wall_s"] / f["events_per_card"]
    print(f"ceiling cards/s     {ceiling:,.0f} (best bare rate / events per card)")
    print(f"model vs ceiling    {rate('model_vs_ceiling', '>9.3f')}   (each run against the bare SimPy "
          "run next to it)")
    print(f"  in CPU time       {rate('model_vs_ceiling_cpu', '>9.3f')}   (steadier on a loaded machine)")
    print(f"STR cores alone     {rate('core_alone_vs_ceiling_cpu', '>9.3f')}   (CPU time; the two cores "
          "exchanging the deck with no SimPy, line or terminal: the most the model could reach)")


if __name__ == "__main__":
    raise SystemExit(main())
