"""How long a deck takes to reach a running Hercules card reader over a paced 1013 line, against the
line's own figure for the same deck (``ibm1013 simulate``).

    python -m tools.measure_sockdev [--cards 200] [--bit-rate 1200] [--json]

Hercules 3.13 (Debian's ``hercules``) runs in daemon mode with a 3505 reader defined as a socket
device (``000C 3505 127.0.0.1:PORT sockdev ebcdic trunc eof``).  ``ibm1013 line`` joins two ptys;
``receive -o sockdev://…`` feeds each card to the reader once it is safe in the journal, and closes
the connection at the end of the deck, which ends the deck for Hercules.  The time measured runs
from ``send`` starting to ``receive`` having handed the last card to the reader and closed (both
ends paced at ``--bit-rate``).  The same deck goes through the simulator, and the ratio of the two
is printed: the real ends' start-up, handshake and journal writes are what the ratio adds.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from emulator import Card, get_format

CONFIG = """ARCHMODE S/370
MAINSIZE 16
NUMCPU 1
CPUMODEL 3090
000C 3505 127.0.0.1:{reader} sockdev ebcdic trunc eof
"""
IBM1013 = [sys.executable, "-m", "ibm1013"]


def free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return probe.getsockname()[1]


def stop(*procs: subprocess.Popen | None) -> None:
    """End every process a measurement started, whatever state it is in, and reap it: SIGKILL, for
    Hercules 3.13 with a socket client can sit out SIGTERM (``wait`` would then time out in a
    ``finally`` and leave it running), and an end cut mid-transfer holds nothing worth keeping."""
    for proc in procs:
        if proc is None:
            continue
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(30)


def wait_for(path: Path, text: str, proc: subprocess.Popen, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while text not in path.read_text(errors="replace"):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"measure_sockdev: hercules never said {text!r}: see {path}")
        time.sleep(0.1)


def measure(cards: int, bit_rate: int, work: Path) -> dict:
    deck = work / "deck.ebcdic"
    with open(deck, "wb") as out:
        texts = [f"CARD {i:04d} OF THE BRANCH OFFICE'S DECK".ljust(80) for i in range(cards)]
        get_format("ebcdic").write([Card.from_text(text, "029") for text in texts], out)
    simulate = [*IBM1013, "simulate", str(deck), "--format", "ebcdic", "--bit-rate", str(bit_rate), "--json"]
    simulated = json.loads(subprocess.run(simulate, capture_output=True, text=True, check=True).stdout)
    hercules_exe = shutil.which("hercules")
    if hercules_exe is None:
        raise SystemExit("measure_sockdev: hercules not found: install it with `apt-get install hercules`")
    reader = free_port()
    (work / "sockdev.cnf").write_text(CONFIG.format(reader=reader))
    log = work / "hercules.log"
    with open(log, "wb") as log_file:
        hercules = subprocess.Popen([hercules_exe, "-f", "sockdev.cnf", "-d"], cwd=work,
                                    stdin=subprocess.DEVNULL, stdout=log_file, stderr=subprocess.STDOUT)
        line = subprocess.Popen([*IBM1013, "line", "--bit-rate", "0", "--json"], stdout=subprocess.PIPE,
                                text=True)
        rx = tx = None
        try:
            wait_for(log, "HHCSD004I Device 000C bound", hercules)
            ends = json.loads(line.stdout.readline())
            paced = ("--bit-rate", str(bit_rate), "--format", "ebcdic", "--json", "--timeout", "30")
            feed = f"sockdev://127.0.0.1:{reader}"
            rx = subprocess.Popen([*IBM1013, "receive", ends["b"], "-o", feed, *paced], cwd=work,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            start = time.monotonic()
            tx = subprocess.Popen([*IBM1013, "send", ends["a"], str(deck), *paced],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            rx_out, rx_err = rx.communicate(timeout=cards * 3 + 120)
            in_reader = time.monotonic() - start
            tx_out, tx_err = tx.communicate(timeout=120)
        finally:
            stop(tx, rx, line, hercules)
    if rx.returncode or tx.returncode:
        raise SystemExit(f"measure_sockdev: the transfer failed: {tx_err.strip()} {rx_err.strip()}")
    sent, got = json.loads(tx_out), json.loads(rx_out)
    return {"cards": cards, "bit_rate": bit_rate, "cards_received": got["cards_received"],
            "seconds_to_reader": round(in_reader, 2), "send_report_seconds": sent["simulated_seconds"],
            "simulated_seconds": simulated["simulated_seconds"],
            "ratio_to_simulated": round(in_reader / simulated["simulated_seconds"], 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.measure_sockdev",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=200, help="cards in the deck (default 200)")
    parser.add_argument("--bit-rate", type=int, default=1200, choices=(600, 1200, 2000, 2400),
                        help="the line's rate, both ends paced (default 1200)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if not 1 <= args.cards <= 10_000:
        parser.error("--cards must be a whole number from 1 to 10000")
    with tempfile.TemporaryDirectory(prefix="measure-sockdev-") as work:
        result = measure(args.cards, args.bit_rate, Path(work))
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['cards']} cards at {result['bit_rate']} bit/s into a running Hercules 3505 sockdev:")
        print(f"  last card in the reader   {result['seconds_to_reader']:8.2f} s after send started")
        print(f"  the sending end's report  {result['send_report_seconds']:8.2f} s")
        print(f"  the simulated line        {result['simulated_seconds']:8.2f} s   "
              f"ratio {result['ratio_to_simulated']:.3f}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("MPLBACKEND", "Agg")
    sys.exit(main())
