"""Measure game streaming: cards per game state, and per-move latency simulated and over a line.

::

    python -m tools.measure_stream cards [--deal 617] [--json]
    python -m tools.measure_stream latency [--moves 60] [--think 1.0] [--json]

``cards``: for every game of the registry, the readable deck (:mod:`decks.punch`) against the compact
one (:mod:`decks.compact`) at deal time and after 100 moves — or as many as the game allows: the
longest of ten seeded random walks over the legal moves, so the count is reproducible.

``latency``: the same Klondike game (deal 617, the first ``--moves`` moves of a seeded walk, one
every ``--think`` seconds) streamed three ways at 1200 bit/s: the SimPy line clean, the SimPy line at
BER 1e-4, and real processes — ``ibm1013 line --bit-rate 1200`` with ``play --stream`` and ``watch``
on its two ptys, paced at 1200 bit/s.  Latency is from the move made at A to the move shown at B
(``time.monotonic`` is one clock for every process of the machine).  Figures over the real line are
as noisy as the machine is busy.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
from typing import Any

from decks import compact, engine, punch
from ibm1013.cli.stream import _percentiles

IBM1013 = [sys.executable, "-m", "ibm1013"]


def longest_walk(game: str, deal: int, limit: int = 100, tries: int = 10) -> engine.GameState:
    """The longest of ``tries`` seeded random walks of at most ``limit`` legal moves."""
    best = engine.deal(game, deal, {})
    for seed in range(tries):
        rng, state = random.Random(seed), engine.deal(game, deal, {})
        for _ in range(limit):
            legal = engine.legal_moves(state)
            if not legal:
                break
            state = engine.apply(state, rng.choice(legal))
        if len(state.history) > len(best.history):
            best = state
        if len(best.history) == limit:
            break
    return best


def card_counts(deal: int) -> list[dict[str, Any]]:
    rows = []
    for game in engine.game_names():
        fresh, played = engine.deal(game, deal, {}), longest_walk(game, deal)
        rows.append({"game": game, "deal_readable": len(punch.encode(fresh)),
                     "deal_compact": len(compact.encode(fresh)), "moves": len(played.history),
                     "played_readable": len(punch.encode(played)),
                     "played_compact": len(compact.encode(played))})
    return rows


# --------------------------------------------------------------------------------------------------
def script(moves: int, think: float) -> str:
    state = longest_walk("klondike", 617, moves)
    return "".join(f"+{think} {m}\n" for m in state.history)


def simulated(text: str, ber: float) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
    try:
        out = subprocess.run([*IBM1013, "simulate-play", "klondike", "--deal", "617", "--moves", f.name,
                              "--ber", str(ber), "--seed", "1", "--json"],
                             capture_output=True, text=True, timeout=600, check=True).stdout
    finally:
        os.unlink(f.name)
    return json.loads(out)


def over_line(text: str) -> dict[str, Any]:
    """``play --stream`` and ``watch`` as processes over ``ibm1013 line`` paced at 1200 bit/s."""
    with tempfile.TemporaryDirectory() as tmp:
        moves = os.path.join(tmp, "moves.txt")
        with open(moves, "w") as f:
            f.write(text)
        line = subprocess.Popen([*IBM1013, "line", "--bit-rate", "1200", "--json"],
                                stdout=subprocess.PIPE, text=True)
        try:
            ready, _, _ = select.select([line.stdout], [], [], 20)
            if not ready:
                raise RuntimeError("ibm1013 line printed no paths")
            ports = json.loads(line.stdout.readline())  # type: ignore[union-attr]
            watch = subprocess.Popen([*IBM1013, "watch", ports["b"], "--json"], cwd=tmp,
                                     stdout=subprocess.PIPE, text=True)
            play = subprocess.run([*IBM1013, "play", "klondike", "--deal", "617", "--stream", ports["a"],
                                   "--moves", moves, "--stream-json"], capture_output=True, text=True,
                                  timeout=900, check=True)
            shown_out, _ = watch.communicate(timeout=60)
        finally:
            line.send_signal(signal.SIGTERM)
            line.wait(10)
    report = json.loads(play.stdout.splitlines()[-2])
    shown = {e["event"]: e["shown_at"] for e in map(json.loads, shown_out.splitlines()[:-1])}
    made = {int(k): v for k, v in report["made_at"].items()}
    end = max(made)  # the end event is made with the last move and queued behind it: not a move
    lat = sorted(shown[n] - made[n] for n in made if n in shown and n != end)
    return {"latency_s": _percentiles(lat), "cards_sent": report["cards_confirmed"],
            "retransmissions": report["retransmissions"], "keepalives": report["keepalives"]}


def latency(moves: int, think: float) -> dict[str, Any]:
    text = script(moves, think)
    return {"clean_sim": simulated(text, 0.0), "noisy_sim": simulated(text, 1e-4),
            "line_1200": over_line(text)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="measure_stream", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    c = sub.add_parser("cards")
    c.add_argument("--deal", type=int, default=617)
    c.add_argument("--json", action="store_true")
    m = sub.add_parser("latency")
    m.add_argument("--moves", type=int, default=60)
    m.add_argument("--think", type=float, default=1.0)
    m.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.what == "cards":
        rows = card_counts(args.deal)
        if args.json:
            print(json.dumps(rows))
            return 0
        print(f"{'game':<16} {'deal: readable':>15} {'compact':>8} {'moves':>6} {'readable':>9} "
              f"{'compact':>8}")
        for r in rows:
            print(f"{r['game']:<16} {r['deal_readable']:>15} {r['deal_compact']:>8} {r['moves']:>6} "
                  f"{r['played_readable']:>9} {r['played_compact']:>8}")
        return 0
    result = latency(args.moves, args.think)
    if args.json:
        print(json.dumps(result))
        return 0
    for name, r in result.items():
        q = r["latency_s"]
        print(f"{name:<10} p50 {q['p50']:.4f} s  p99 {q['p99']:.4f} s  max {q['max']:.4f} s  "
              f"({q['count']} events, {r['cards_sent']} cards, {r['retransmissions']} retransmissions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
