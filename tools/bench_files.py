"""Benchmark: whole-file conversion of a big deck, each as one ``ibm1013`` process, start-up included.

``python -m tools.bench_files [--cards N] [--runs R] [--seed S] [--dir DIR] [--before CHECKOUT]
[--only NAME ...] [--json]``

N cards (default a million) of random text (seeded; :func:`tools.bench_cards.make_text`) are written
to a text deck, and the tree under test punches it into a CBN and an EBCDIC deck once.  Then each of
the commands a user runs on whole files — ``cards encode`` (text → CBN, text → EBCDIC), ``cards
decode`` (CBN → text, EBCDIC → text) and ``cards convert`` (CBN ↔ EBCDIC, CBN → BIN) — runs as a
process of its own, file to file, ``--runs`` times, interleaved with

* the *floor*: a Python process that imports numpy, reads the same input and writes as many bytes as
  the command's output (the least any bulk conversion does), and
* with ``--before CHECKOUT``, the same command run from another checkout (``PYTHONPATH=CHECKOUT``),
  whose output must equal this tree's byte for byte.

Reported per command: the best and median wall time, the best CPU time (user + system of the child),
cards per second (issue 23's target: at least a million, start-up included), and the ratios to the
floor and to *before* from the same runs.  As in :mod:`tools.bench_startup`, modules run from cached
bytecode kept under a temporary ``PYTHONPYCACHEPREFIX``.  Decks go to ``--dir`` (default
``/dev/shm`` where there is one, so the disk does not count) in a temporary directory removed at the
end.  Run it under ``nice``: it is meant for a shared machine, and the ratios are what count there.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

from ibm1013.cli import argtypes
from tools.bench_cards import make_text

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

COMMANDS: dict[str, tuple[str, str, list[str]]] = {
    "encode text → cbn": ("deck.txt", "out.cbn", ["cards", "encode", "{IN}", "-o", "{OUT}"]),
    "decode cbn → text": ("deck.cbn", "out.txt", ["cards", "decode", "{IN}", "-o", "{OUT}"]),
    "encode text → ebcdic": ("deck.txt", "out.ebc",
                             ["cards", "encode", "{IN}", "-o", "{OUT}", "--format", "ebcdic"]),
    "decode ebcdic → text": ("deck.ebc", "out.txt", ["cards", "decode", "{IN}", "-o", "{OUT}"]),
    "convert cbn → ebcdic": ("deck.cbn", "out.ebc", ["cards", "convert", "{IN}", "{OUT}", "--to", "ebcdic"]),
    "convert ebcdic → cbn": ("deck.ebc", "out.cbn", ["cards", "convert", "{IN}", "{OUT}", "--to", "cbn"]),
    "convert cbn → bin": ("deck.cbn", "out.bin", ["cards", "convert", "{IN}", "{OUT}", "--to", "bin"]),
}
"""Each command: its input deck, its output's name, and its arguments to ``python -m ibm1013``."""

FLOOR = ("import sys, numpy\n"
         "data = open(sys.argv[1], 'rb').read()\n"
         "open(sys.argv[2], 'wb').write(bytes(int(sys.argv[3])))\n")
"""The floor: start Python, import numpy, read the input, write as many bytes as the output."""


def _run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _environment(tree: str, cache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=tree, PYTHONPYCACHEPREFIX=cache)
    return env


def _make_decks(directory: str, cards: int, seed: int, env: dict[str, str]) -> None:
    make_text(os.path.join(directory, "deck.txt"), cards, seed)
    for target, fmt in (("deck.cbn", "cbn"), ("deck.ebc", "ebcdic")):
        text = os.path.join(directory, "deck.txt")
        subprocess.run([sys.executable, "-m", "ibm1013", "cards", "encode", text,
                        "-o", os.path.join(directory, target), "--format", fmt], check=True, env=env)


def _summary(times: list[tuple[float, float]], cards: int) -> dict[str, float]:
    walls = [w for w, _ in times]
    cpu = min(c for _, c in times)
    return {"best_s": min(walls), "median_s": statistics.median(walls), "cpu_s": cpu,
            "cards_per_s": cards / min(walls), "cards_per_cpu_s": cards / cpu}


def measure(options: argparse.Namespace, directory: str) -> dict[str, Any]:
    trees = {"after": ROOT} | ({"before": os.path.abspath(options.before)} if options.before else {})
    envs = {name: _environment(tree, os.path.join(directory, "pycache")) for name, tree in trees.items()}
    _make_decks(directory, options.cards, options.seed, envs["after"])
    names = options.only or list(COMMANDS)
    results: dict[str, Any] = {}
    for name in names:
        source, target, template = COMMANDS[name]
        path_in = os.path.join(directory, source)
        outs = {tree: os.path.join(directory, f"{tree}-{target}") for tree in trees}
        runs = {tree: ["-m", "ibm1013", *(a.replace("{IN}", path_in).replace("{OUT}", outs[tree])
                                           for a in template)] for tree in trees}
        for tree, args in runs.items():  # warm-up: compiles the bytecode, makes the output
            _run(args, envs[tree])
        size = os.path.getsize(outs["after"])
        floor = ["-c", FLOOR, path_in, os.path.join(directory, "floor.out"), str(size)]
        times: dict[str, list[tuple[float, float]]] = {"floor": [], **{tree: [] for tree in trees}}
        for _ in range(options.runs):
            times["floor"].append(_run(floor, envs["after"]))
            for tree, args in runs.items():
                times[tree].append(_run(args, envs[tree]))
        entry = {kind: _summary(values, options.cards) for kind, values in times.items()}
        entry["after_over_floor"] = entry["after"]["best_s"] / entry["floor"]["best_s"]
        if "before" in trees:
            entry["before_over_after"] = entry["before"]["best_s"] / entry["after"]["best_s"]
            entry["same_output"] = filecmp.cmp(outs["before"], outs["after"], shallow=False)
        results[name] = entry
        for out in [*outs.values(), os.path.join(directory, "floor.out")]:
            os.unlink(out)
        if not options.json:
            _print(name, entry)
    return {"cards": options.cards, "runs": options.runs, "load": os.getloadavg(), "commands": results}


def _print(name: str, entry: dict[str, Any]) -> None:
    after, floor = entry["after"], entry["floor"]
    line = (f"{name:22s} {after['cards_per_s'] / 1e6:5.2f} M cards/s (best {after['best_s']:.3f} s, "
            f"median {after['median_s']:.3f} s, CPU {after['cpu_s']:.3f} s) = "
            f"{entry['after_over_floor']:4.2f}x the floor ({floor['best_s']:.3f} s, "
            f"CPU {floor['cpu_s']:.3f} s)")
    if "before" in entry:
        same = "same output" if entry["same_output"] else "OUTPUT DIFFERS"
        before = entry["before"]
        line += (f"; before {before['cards_per_s'] / 1e6:5.2f} M cards/s ({before['best_s']:.3f} s, "
                 f"CPU {before['cpu_s']:.3f} s), {entry['before_over_after']:4.2f}x as long; {same}")
    print(line, flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=argtypes.POSITIVE_INT, default=1_000_000,
                        help="cards in the deck (default 1,000,000)")
    parser.add_argument("--runs", type=argtypes.POSITIVE_INT, default=3,
                        help="runs of each command (default 3; the best counts)")
    parser.add_argument("--seed", type=argtypes.SEED, default=1, help="seed of the random text (default 1)")
    parser.add_argument("--dir", default="/dev/shm" if os.path.isdir("/dev/shm") else None,
                        help="where the decks go (default /dev/shm, else the temporary directory)")
    parser.add_argument("--before", metavar="CHECKOUT", help="also run the commands from this checkout")
    parser.add_argument("--only", nargs="+", choices=list(COMMANDS), metavar="NAME",
                        help="only these commands: " + "; ".join(COMMANDS))
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-files-", dir=options.dir) as directory:
        if not options.json:
            load = os.getloadavg()[0]
            print(f"{options.cards:,} cards, best of {options.runs}, load {load:.2f}", flush=True)
        report = measure(options, directory)
    if options.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print(f"load at the end {report['load'][0]:.2f}")


if __name__ == "__main__":
    main()
