"""How long a remote job entry round trip takes, against the simulated line's figure for the same decks.

    python3 -m tools.measure_rje [--cards 100] [--bit-rate 1200] [--json]      (in a checkout)

The job is the shipped S/370 LIST program (``examples/hercules``: the loader, ``list.lst``) with
``--cards`` data cards, so the output is as many printed lines.  Hercules 3.13 runs in daemon mode with
its 3505 reader and 1403 printer on sockets; ``ibm1013 line`` joins two ptys; ``rje-host`` and ``rje``
run at its ends, paced at ``--bit-rate``, with ``--column-binary`` (the loader's cards are binary).
The IPL is given once ``rje-host`` has fed the job to the reader.

Measured: from ``rje`` starting to ``rje`` ending (the listing written), less the ``--idle`` the host
waits after the last printed line before it ends the output deck — so the time to the last output
line's arrival, give or take the trailer.  The simulated figure is ``ibm1013 simulate`` of the job
deck plus ``ibm1013 simulate`` of the listing the far end received, at the same rate and options.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from tools.measure_sockdev import free_port, stop, wait_for

ROOT = Path(__file__).resolve().parents[1]
IBM1013 = [sys.executable, "-m", "ibm1013"]
IDLE_S = 2.0
CONFIG = """ARCHMODE S/370
MAINSIZE 16
NUMCPU 1
CPUMODEL 3090
HTTPPORT {http} NOAUTH
000C 3505 127.0.0.1:{reader} sockdev ebcdic trunc eof
000E 1403 127.0.0.1:{printer} sockdev
"""


def run(*args: str, cwd: Path) -> None:
    subprocess.run([*IBM1013, *args], cwd=cwd, check=True, capture_output=True)


def job_deck(cards: int, work: Path) -> Path:
    data = "".join(f"CARD {i:04d} OF THE BRANCH OFFICE'S JOB\n" for i in range(cards))
    (work / "data.txt").write_text(data)
    for name in ("loader", "list"):
        run("cards", "encode", str(ROOT / "examples" / "hercules" / f"{name}.lst"), "--listing",
            "--format", "ebcdic", "-o", f"{name}.ebcdic", cwd=work)
    run("cards", "encode", "data.txt", "--format", "ebcdic", "-o", "data.ebcdic", cwd=work)
    run("cards", "cat", "loader.ebcdic", "list.ebcdic", "data.ebcdic", "--to", "ebcdic", "-o", "job.ebcdic",
        cwd=work)
    return work / "job.ebcdic"


def simulated(deck: Path, fmt: str, bit_rate: int) -> float:
    out = subprocess.run([*IBM1013, "simulate", str(deck), "--format", fmt, "--bit-rate", str(bit_rate),
                          "--column-binary", "--json"], capture_output=True, text=True, check=True).stdout
    return float(json.loads(out)["simulated_seconds"])


def measure(cards: int, bit_rate: int, work: Path) -> dict:
    exe = shutil.which("hercules")
    if exe is None:
        raise SystemExit("measure_rje: hercules not found: install it with `apt-get install hercules`")
    deck = job_deck(cards, work)
    reader, printer, http = free_port(), free_port(), free_port()
    (work / "rje.cnf").write_text(CONFIG.format(reader=reader, printer=printer, http=http))
    log = work / "hercules.log"
    ends_options = ("--bit-rate", str(bit_rate), "--column-binary", "--timeout", "60")
    with open(log, "wb") as log_file:
        hercules = subprocess.Popen([exe, "-f", "rje.cnf", "-d"], cwd=work, stdin=subprocess.DEVNULL,
                                    stdout=log_file, stderr=subprocess.STDOUT)
        line = subprocess.Popen([*IBM1013, "line", "--bit-rate", "0", "--json"], stdout=subprocess.PIPE,
                                text=True)
        host = site = None
        try:
            wait_for(log, f"Waiting for HTTP requests on port {http}", hercules)
            ends = json.loads(line.stdout.readline())
            sockets = ("--reader", f"sockdev://127.0.0.1:{reader}", "--printer", f"sockdev://127.0.0.1:{printer}")
            host = subprocess.Popen([*IBM1013, "rje-host", ends["b"], *sockets, "--idle", str(IDLE_S),
                                     *ends_options], cwd=work, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
            start = time.monotonic()
            site = subprocess.Popen([*IBM1013, "rje", ends["a"], str(deck), "--format", "ebcdic",
                                     "-o", str(work / "listing.txt"), *ends_options],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            # rje-host feeds the whole job in one connection: the operator IPLs then
            wait_for(log, "connected to device 000C", hercules, limit=cards * 10 + 120)
            ipl = f"http://127.0.0.1:{http}/cgi-bin/tasks/cmd?cmd=ipl%2000c"
            urllib.request.urlopen(ipl, timeout=30).read()
            site_out, site_err = site.communicate(timeout=cards * 10 + 300)
            elapsed = time.monotonic() - start
            host_out, host_err = host.communicate(timeout=120)
        finally:
            stop(site, host, line, hercules)
    if site.returncode or host.returncode:
        raise SystemExit(f"measure_rje: the round trip failed: {site_err.strip()} {host_err.strip()}")
    lines = (work / "listing.txt").read_text().splitlines()
    figure = simulated(deck, "ebcdic", bit_rate) + simulated(work / "listing.txt", "text", bit_rate)
    return {"cards": cards, "lines_back": len(lines), "bit_rate": bit_rate,
            "rje_seconds": round(elapsed, 2), "idle_seconds": IDLE_S,
            "to_last_line_seconds": round(elapsed - IDLE_S, 2),
            "simulated_seconds": round(figure, 2),
            "ratio_to_simulated": round((elapsed - IDLE_S) / figure, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tools.measure_rje",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=100,
                        help="data cards in the job, lines back (default 100)")
    parser.add_argument("--bit-rate", type=int, default=1200, choices=(600, 1200, 2000, 2400, 9600),
                        help="the ends' rate (default 1200)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if not 1 <= args.cards <= 9999:
        parser.error("--cards must be a whole number from 1 to 9999")
    with tempfile.TemporaryDirectory(prefix="measure-rje-") as work:
        result = measure(args.cards, args.bit_rate, Path(work))
    if args.json:
        print(json.dumps(result))
    else:
        print(f"a LIST job of {result['cards']} data cards, {result['lines_back']} lines back, at "
              f"{result['bit_rate']} bit/s, Hercules 3.13:")
        print(f"  rje start to end          {result['rje_seconds']:8.2f} s")
        print(f"  to the last line (- idle) {result['to_last_line_seconds']:8.2f} s")
        print(f"  the simulated line        {result['simulated_seconds']:8.2f} s   "
              f"ratio {result['ratio_to_simulated']:.3f}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("MPLBACKEND", "Agg")
    sys.exit(main())
