"""Measure `send --follow`: the delay from a card punched to the card safe at the far end.

``python -m tools.measure_follow [--cards N] [--every SECONDS] [--bit-rate B] [--warmup S] [--json]``

Runs the real commands: ``ibm1013 line`` (unpaced: the endpoints pace themselves at ``--bit-rate``),
``ibm1013 receive`` into a text deck, and ``ibm1013 send --follow`` on a punch file that this tool
writes itself, one 80-column card every ``--every`` seconds (0: all at once, as SIMH's 1401 punches
a short deck), starting ``--warmup`` seconds after the commands (by then the deck session is up
and holding the line with bids; with 0 the first card also waits for the session's start-up).  A
thread watches the receiving end's journal; a card counts as received when the journal holds it
(it is durable there before its acknowledgement goes out).  Reported: p50, p99 and the largest
delay, and the line's own time for one card at that bit rate (an 80-column record is 85
characters of 8 bits, and its reply 2).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from ibm1013.line.journal import cards_in, journal_path

IBM1013 = [sys.executable, "-m", "ibm1013"]




def measure(cards: int, every: float, bit_rate: int, warmup: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        punch, out = os.path.join(tmp, "punch.txt"), os.path.join(tmp, "copy.txt")
        line = subprocess.Popen([*IBM1013, "line", "--json", "--bit-rate", "0"], stdout=subprocess.PIPE,
                                text=True)
        ends = json.loads(line.stdout.readline())
        rx = subprocess.Popen([*IBM1013, "receive", ends["b"], "-o", out, "--bit-rate", str(bit_rate)],
                              stdout=subprocess.DEVNULL)
        tx = subprocess.Popen([*IBM1013, "send", ends["a"], "--follow", punch, "--idle", "3",
                               "--bit-rate", str(bit_rate)], stdout=subprocess.DEVNULL)
        punched: list[float] = []
        received: list[float] = []
        done = threading.Event()

        def watch() -> None:
            journal = journal_path(out)
            while not done.is_set() and len(received) < cards:
                n = cards_in(journal)
                received.extend([time.monotonic()] * (n - len(received)))
                time.sleep(0.002)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        time.sleep(warmup)  # the handshake and the deck session's start do not wait for the punch
        with open(punch, "w") as f:
            for i in range(cards):
                f.write(f"PUNCHED CARD {i:05d} ".ljust(80, "X") + "\n")
                f.flush()
                punched.append(time.monotonic())
                if every:
                    time.sleep(every)
        watcher.join(60 + cards * 2)
        done.set()
        status = (tx.wait(120), rx.wait(120))
        line.terminate()
        line.wait(10)
    each = [round(r - p, 3) for p, r in zip(punched, received, strict=False)]
    delays = sorted(each)
    card_s = (85 + 2) * 8 / bit_rate
    return {"cards": cards, "every_s": every, "bit_rate": bit_rate, "exit_statuses": status,
            "received": len(received), "p50_s": round(statistics.median(delays), 4),
            "p99_s": round(delays[min(len(delays) - 1, int(0.99 * len(delays)))], 4),
            "max_s": round(delays[-1], 4), "line_card_s": round(card_s, 4), "first_s": each[0],
            "p50_after_first_s": round(statistics.median(sorted(each[1:])), 4) if len(each) > 1 else None,
            "max_after_first_s": max(each[1:], default=None)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cards", type=int, default=50)
    ap.add_argument("--every", type=float, default=1.0)
    ap.add_argument("--bit-rate", type=int, default=1200)
    ap.add_argument("--warmup", type=float, default=8.0,
                    help="seconds before the first card (the session start-up, up to ~6 s, is not "
                         "counted then; 0 counts it in the first card's delay)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.cards < 1 or args.every < 0 or args.bit_rate < 1 or not 0 <= args.warmup < 600:
        ap.error("--cards and --bit-rate must be positive, --every not negative")
    result = measure(args.cards, args.every, args.bit_rate, args.warmup)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['received']}/{args.cards} cards, one every {args.every:g} s at {args.bit_rate} "
              f"bit/s: punched -> safe at the far end p50 {result['p50_s']:.3f} s, p99 "
              f"{result['p99_s']:.3f} s, max {result['max_s']:.3f} s (the line's own time for a "
              f"card: {result['line_card_s']:.3f} s); exit statuses {result['exit_statuses']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
