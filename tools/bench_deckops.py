"""Benchmark: the card room's jobs on a big deck, against GNU ``sort`` side by side.

``python -m tools.bench_deckops [--cards N] [--repeat R] [--seed S] [--json]``

N cards (default one million, seeded) are written as a text deck of 80-column lines: columns 1-72
random text, 73-80 a shuffled eight-digit sequence number.  Then, taking turns R times (best time
counts, so both see the same machine load):

* ``ibm1013 cards sort DECK --by 73-80 -o OUT`` (a child process, file to file, text to text and
  CBN to CBN), against ``LC_ALL=C sort -s -t '|' -k1.73,1.80 DECK -o OUT`` (GNU sort on the same
  lines, the whole line one field, stable): the ratio is our time over sort's.  The two sorted text
  files must be equal byte for byte (digits sort alike in EBCDIC and in bytes).
* ``cards select`` (``--where 78-79=12``) and ``cards merge`` of the two sorted halves, in cards
  per second: in-process over the deck array (:mod:`emulator.deckops`, the numpy passes), and file
  to file through the command (CBN decks: reading and writing included).

Targets (issue 22): sort no slower than GNU sort; select and merge at least a million cards per
second.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from emulator import Card
from emulator.deckops import merge as collator
from emulator.deckops import select as selector
from emulator.deckops import sort as sorter
from emulator.deckops.fields import Field
from emulator.deckops.keys import SortKey
from emulator.formats import read_deck_arrays, write_deck_arrays

ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,()+-*/=$'&<>:;#@"
"""Characters of columns 1-72 (all in the 029 code; no ``|``, GNU sort's field separator here)."""


def make_text(path: str, cards: int, seed: int) -> None:
    """``cards`` lines of 80 columns: 72 random characters and a shuffled sequence number."""
    rng = np.random.default_rng(seed)
    alphabet = np.frombuffer(ALPHABET, dtype=np.uint8)
    numbers = rng.permutation(cards) * 10 % 10**8
    with open(path, "wb") as out:
        for start in range(0, cards, 100_000):
            n = min(100_000, cards - start)
            lines = np.empty((n, 81), dtype=np.uint8)
            lines[:, :72] = alphabet[rng.integers(0, len(alphabet), (n, 72))]
            digits = numbers[start:start + n, None] // 10 ** np.arange(7, -1, -1) % 10
            lines[:, 72:80] = ord("0") + digits
            lines[:, 80] = ord("\n")
            out.write(lines.tobytes())


def _cpu() -> float:
    """CPU seconds used so far by this process and its finished children (user + system)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def timed(run: Callable[[], Any]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run."""
    start, cpu = time.perf_counter(), _cpu()
    run()
    return time.perf_counter() - start, _cpu() - cpu


def best_of(repeat: int, runs: dict[str, Callable[[], Any]]) -> dict[str, dict[str, float]]:
    """Each run's best wall-clock and best CPU time, taking turns ``repeat`` times so that load
    changes hit all alike."""
    best = {name: {"wall": float("inf"), "cpu": float("inf")} for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            wall, cpu = timed(run)
            best[name] = {"wall": min(best[name]["wall"], wall), "cpu": min(best[name]["cpu"], cpu)}
    return best


def _rates(times: dict[str, dict[str, float]], cards: int) -> dict[str, dict[str, float]]:
    return {name: {k: cards / v for k, v in t.items()} for name, t in times.items()}


def ibm1013(*argv: str) -> Callable[[], None]:
    command = [sys.executable, "-m", "ibm1013", "cards", *argv]
    return lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def load(path: str, fmt: str) -> np.ndarray:
    with open(path, "rb") as stream:
        _, arrays = read_deck_arrays(stream, fmt)
        return np.concatenate([np.zeros((0, 80), dtype=np.uint16), *arrays])


def save(path: str, words: np.ndarray, fmt: str) -> None:
    with open(path, "wb") as out:
        write_deck_arrays([words], out, fmt)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=1_000_000, help="cards in the deck")
    parser.add_argument("--repeat", type=int, default=2, help="turns each run takes (best counts)")
    parser.add_argument("--seed", type=int, default=22, help="seed of the deck")
    parser.add_argument("--json", action="store_true", help="print the results as one JSON object")
    args = parser.parse_args(argv)
    gnu_sort = shutil.which("sort")
    if gnu_sort is None:
        raise SystemExit("bench_deckops: GNU sort not found")
    with tempfile.TemporaryDirectory(prefix="bench-deckops-") as tmp:
        names = "deck.txt deck.cbn ours.txt ours.cbn gnu.txt a.cbn b.cbn sel.cbn m.cbn".split()
        f = {name: os.path.join(tmp, name) for name in names}
        make_text(f["deck.txt"], args.cards, args.seed)
        words = load(f["deck.txt"], "text")
        save(f["deck.cbn"], words, "cbn")
        env = {**os.environ, "LC_ALL": "C"}
        sort_runs = {
            "gnu_sort": lambda: subprocess.run([gnu_sort, "-s", "-t", "|", "-k1.73,1.80", f["deck.txt"],
                                                "-o", f["gnu.txt"]], check=True, env=env),
            "cards_sort_text": ibm1013("sort", f["deck.txt"], "--by", "73-80", "-o", f["ours.txt"]),
            "cards_sort_cbn": ibm1013("sort", f["deck.cbn"], "--by", "73-80", "-o", f["ours.cbn"]),
        }
        sort_times = best_of(args.repeat, sort_runs)
        with open(f["ours.txt"], "rb") as a, open(f["gnu.txt"], "rb") as b:
            same = a.read() == b.read()

        key = [SortKey(Field(73, 80))]
        ordered = sorter.sort(words, key)
        half_a, half_b = ordered[0::2], ordered[1::2]
        save(f["a.cbn"], half_a, "cbn")
        save(f["b.cbn"], half_b, "cbn")
        where = selector.Selection(where=[(Field(78, 79), Card.from_text("12").columns[:2])])
        chunks = [words[i:i + 32768] for i in range(0, len(words), 32768)]
        inproc = best_of(args.repeat + 3, {  # a second or so each: a few more turns
            "select": lambda: np.concatenate(list(selector.select(chunks, where))),
            "merge": lambda: collator.merge(half_a, half_b, key),
            "sort": lambda: sorter.sort(words, key),
        })
        cli = best_of(args.repeat, {
            "select": ibm1013("select", f["deck.cbn"], "--where", "78-79=12", "-o", f["sel.cbn"]),
            "merge": ibm1013("merge", f["a.cbn"], f["b.cbn"], "--by", "73-80", "-o", f["m.cbn"]),
        })
        selected = len(load(f["sel.cbn"], "cbn"))
        merged_ok = np.array_equal(load(f["m.cbn"], "cbn"), ordered)
    gnu = sort_times["gnu_sort"]
    results = {
        "cards": args.cards, "repeat": args.repeat, "seed": args.seed, "load": os.getloadavg()[0],
        "sort_seconds": sort_times, "sorted_text_equal": same,
        "ratio_to_gnu_sort": {name: {k: t[k] / gnu[k] for k in t} for name, t in sort_times.items()},
        "in_process_cards_per_s": _rates(inproc, args.cards),
        "cli_cards_per_s": _rates(cli, args.cards),
        "selected": selected, "merged_equals_sorted": merged_ok,
    }
    if args.json:
        print(json.dumps(results))
        return 0
    print(f"{args.cards:,} cards, best of {args.repeat}, load average {results['load']:.2f} "
          "(wall-clock s, CPU s of process and children; ratio = ours / GNU sort)")
    labels = {"gnu_sort": "GNU sort -s -k1.73,1.80 (text)", "cards_sort_text": "cards sort --by 73-80 (text)",
              "cards_sort_cbn": "cards sort --by 73-80 (cbn)"}
    for name, label in labels.items():
        t, r = sort_times[name], results["ratio_to_gnu_sort"][name]
        print(f"  {label:<32} wall {t['wall']:6.2f} s  cpu {t['cpu']:6.2f} s   "
              f"ratio wall {r['wall']:.2f} cpu {r['cpu']:.2f}")
    print(f"  sorted text files equal byte for byte: {same}")
    for where, rates in (("in-process", results["in_process_cards_per_s"]),
                         ("cards, cbn file to file", results["cli_cards_per_s"])):
        for name, rate in rates.items():
            print(f"  {where} {name:<7} {rate['wall'] / 1e6:6.2f} M cards/s wall, "
                  f"{rate['cpu'] / 1e6:6.2f} M cards per CPU s")
    print(f"  selected {selected} cards; merge equals the sort: {merged_ok}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
