"""Benchmark of the command line's start-up (``python -m tools.bench_startup``).

A short command spends most of its time starting: the interpreter, then the modules it imports.  This
runs, interleaved so that a load on the machine falls on all alike, each of

* ``python -c pass`` — the baseline: the interpreter alone, with the same ``site`` (and PYTHONPATH);
* ``python -c 'import numpy'`` — the floor of any command that reads a deck in bulk (the deck arrays
  are numpy's);
* ``python -m ibm1013 --help`` — the parser of every command, and nothing behind it;
* ``python -m ibm1013 cards decode DECK`` of a 5-card CBN deck — one real, small command (a small
  plain deck is decoded without numpy, by :mod:`emulator.formats._small`);

and prints each one's median and fastest wall time, and their ratios to the baseline's (issue 52's
target: both commands at most 2 times the baseline on a quiet machine).  On a loaded machine the
fastest of many runs is the steadier figure.  ``--runs`` sets how many times each is run.
``--instructions`` counts instead the instructions each takes under valgrind's callgrind, once:
a figure the machine's load cannot move (though start-up also waits on the disk and the page cache,
which a count does not see).

The modules run from cached bytecode, as an installed package's do (pip compiles them): the runs
drop ``PYTHONDONTWRITEBYTECODE`` and keep the bytecode under a temporary ``PYTHONPYCACHEPREFIX``,
outside the source tree, filled by a first untimed run of each command.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "python -c 'import numpy'": ["-c", "import numpy"],
    "ibm1013 --help": ["-m", "ibm1013", "--help"],
    "ibm1013 cards decode (5 cards)": ["-m", "ibm1013", "cards", "decode", "{deck}"],
}


def small_deck(directory: str) -> str:
    """A 5-card CBN deck, punched by ``cards encode``."""
    text, deck = os.path.join(directory, "five.txt"), os.path.join(directory, "five.cbn")
    with open(text, "w") as out:
        out.writelines(f"CARD {i} OF A SMALL DECK\n" for i in range(1, 6))
    subprocess.run([sys.executable, "-m", "ibm1013", "cards", "encode", text, "-o", deck], check=True)
    return deck


def once(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def instructions(args: list[str], env: dict[str, str]) -> int:
    """Instructions ``python ARGS`` takes, counted by callgrind."""
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         env=env, timeout=600)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise SystemExit(f"bench_startup: valgrind printed no count: {run.stderr[-300:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (default 15)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions with valgrind's callgrind instead of timing")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, "pycache")
        deck = small_deck(tmp)
        commands = {name: [a.format(deck=deck) for a in args] for name, args in COMMANDS.items()}
        times: dict[str, list[float]] = {name: [] for name in commands}
        for args in commands.values():
            once(args, env)  # compiles the bytecode
        if options.instructions:
            counts = {name: instructions(args, env) for name, args in commands.items()}
            for name, value in counts.items():
                print(f"{name:32s} {value:13,d} instructions = {value / counts['python -c pass']:4.2f}x "
                      "python -c pass's")
            return
        for _ in range(options.runs):
            for name, args in commands.items():
                times[name].append(once(args, env))
    base, fastest = statistics.median(times["python -c pass"]), min(times["python -c pass"])
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:32s} median {median * 1000:6.1f} ms = {median / base:4.2f}x,  "
              f"fastest {min(values) * 1000:6.1f} ms = {min(values) / fastest:4.2f}x python -c pass's")


if __name__ == "__main__":
    main()
