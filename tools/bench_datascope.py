"""Benchmark: how fast ``ibm1013 monitor`` decodes, against the line rates it must keep up with.

``python -m tools.bench_datascope [--cards N] [--chunk C] [--ber P] [--seed S] [--json]``

A transcript of a deck session is built from the column layout's own records, each sent through a
seeded noise model and again after ``CL ERR`` until it arrives whole (so there are bad records and
retransmissions): the characters of both directions, in the order they were sent.  Three decoders
then read it, side by side in one process, the transcript cut into chunks of ``C`` characters (1
is what a pty often delivers at 1200 bit/s):

* ``decoder``: :class:`~ibm1013.line.trace.LineDecoder` alone (the sequences, as ``--trace`` cuts them);
* ``datascope``: :class:`~ibm1013.line.datascope.Datascope` (sequences, records judged, counts);
* ``datascope+text``: the same, each observation also formatted as its display line.

Reported: characters per second of each (best of ``--repeat`` runs), and how many times the fastest
line rate the 1013 had (1200 bit/s: 150 characters a second, both directions at once: 300) and a
9600 baud serial port (960 a second each way) each rate is.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

from emulator import Card
from emulator.noise import make_noise
from ibm1013.line.datascope import Datascope
from ibm1013.line.trace import LineDecoder
from ibm1013.str import fourofeight as fo
from ibm1013.str.layout import ColumnLayout, deck_words

LINE_RATES = {"1013 at 1200 bit/s, both ways": 2 * 1200 / 8, "9600 baud 8N1, both ways": 2 * 960}


def transcript(cards: int, ber: float, seed: int) -> list[tuple[str, bytes]]:
    """(direction, characters) of a whole deck session: sync, bid, every record through the noise
    (sent again after ``CL ERR`` until it arrives whole), ``TL EOT``."""
    deck = [Card.from_text(f"BENCH CARD {i:05d} THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG")
            for i in range(cards)]
    bodies = ColumnLayout().encode_records(deck_words(deck))
    noise = make_noise(ber=ber, seed=seed)
    sync = bytes([fo.IDLE] * 195 + [fo.CL, fo.IDLE])
    out = [("b->a", sync), ("a->b", sync), ("a->b", bytes([fo.IDLE, fo.TL, fo.INQ])),
           ("b->a", bytes([fo.CL, fo.ACK2]))]
    for i, body in enumerate(bodies):
        sor = fo.SOR1 if i % 2 == 0 else fo.SOR2
        while True:
            sent = bytes([fo.IDLE, fo.TL, sor]) + body
            data = noise.corrupt(sent)[0] if noise is not None else sent
            out.append(("a->b", data))
            whole = data == sent
            out.append(("b->a", bytes([fo.CL, sor if whole else fo.ERR])))
            if whole:
                break
    return [*out, ("a->b", bytes([fo.IDLE, fo.TL, fo.EOT])), ("b->a", bytes([fo.CL, fo.EOT]))]


def _decoder(chunks: list[tuple[str, bytes]]) -> None:
    decoders = {"a->b": LineDecoder("records"), "b->a": LineDecoder("replies")}
    for direction, data in chunks:
        decoders[direction].feed(data)


def _scope(chunks: list[tuple[str, bytes]], text: bool = False) -> None:
    scope = Datascope()
    for i, (direction, data) in enumerate(chunks):
        for obs in scope.feed(direction, data, i * 1e-3):
            if text:
                obs.line()


def _best(run: Callable[[], None], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cards", type=int, default=500)
    ap.add_argument("--chunk", type=int, default=1, help="characters per read (default 1)")
    ap.add_argument("--ber", type=float, default=2e-4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.cards < 1 or args.chunk < 1 or args.repeat < 1 or not 0 <= args.ber < 1:
        ap.error("--cards, --chunk and --repeat must be positive, --ber in [0, 1)")
    whole = transcript(args.cards, args.ber, args.seed)
    chunks = [(d, data[i:i + args.chunk]) for d, data in whole for i in range(0, len(data), args.chunk)]
    chars = sum(len(data) for _, data in whole)
    scope = Datascope()
    for i, (direction, data) in enumerate(whole):
        scope.feed(direction, data, float(i))
    counts = {k: v for k, v in scope.summary(0.0).items() if k in ("cards", "bad_records",
                                                                    "error_replies", "retransmissions")}
    rates = {
        "decoder": chars / _best(lambda: _decoder(chunks), args.repeat),
        "datascope": chars / _best(lambda: _scope(chunks), args.repeat),
        "datascope+text": chars / _best(lambda: _scope(chunks, text=True), args.repeat),
    }
    result = {"characters": chars, "chunk": args.chunk, "counts": counts,
              "chars_per_second": {k: round(v) for k, v in rates.items()},
              "times_line_rate": {name: {k: round(v / rate, 1) for k, v in rates.items()}
                                  for name, rate in LINE_RATES.items()}}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{chars} characters ({counts}), read {args.chunk} at a time")
    for k, v in rates.items():
        ratios = ", ".join(f"{v / rate:,.0f}x {name}" for name, rate in LINE_RATES.items())
        print(f"  {k:15s} {v:12,.0f} chars/s   ({ratios})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
