"""Benchmark: ``cards sort --by 73-80`` against GNU ``sort`` on the same cards, CPU time and peak memory.

``python -m tools.bench_sort [--cards N] [--rounds R] [--seed S] [--dir DIR] [--before CHECKOUT] [--json]``

N cards (default a million, seeded; :func:`tools.bench_deckops.make_text`: columns 1-72 random text,
73-80 a shuffled sequence number) are written as a text deck and as a CBN deck.  Each round runs,
one after the other, each a child process of its own (so a shared, noisy machine loads them alike):

* ``LC_ALL=C sort -s -t '|' -k1.73,1.80 DECK -o OUT``: GNU sort on the text lines, one field (no
  ``|`` in the deck), key characters 73 to 80 of the line, stable (``-s``: equal keys keep their
  order, as the card sorter keeps them; no last-resort comparison of whole lines);
* ``ibm1013 cards sort DECK.txt --by 73-80 -o OUT.txt`` and the same on the CBN deck;
* with ``--before CHECKOUT``, the same two commands from another tree (``PYTHONPATH=CHECKOUT``).

An untimed round comes first: the modules then run from cached bytecode, as an installed package's
do (kept under a temporary ``PYTHONPYCACHEPREFIX``, as in :mod:`tools.bench_startup`).  For each
child: CPU time (user + system, from ``wait4``) and peak memory (its ``ru_maxrss``).  Printed:
each command's ratio to GNU sort of the same round, the min and the median over the rounds.  The
key is the same: in the 029 code digits collate as in bytes (EBCDIC F0-F9), and every line is 80
characters, so character 73 is column 73.  The outputs are checked: our text output equals GNU
sort's byte for byte, and our CBN output is that text punched.  The decks are deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


LAUNCHER = ("import os, sys\n"
            "pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ,\n"
            "                     file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])\n"
            "_, status, usage = os.wait4(pid, 0)\n"
            "print(os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime, usage.ru_maxrss)\n")
"""Starts a command and prints its exit status, CPU seconds and peak memory (KiB).  A small process
of its own: a child's peak counts the memory of the process it was forked from, so the benchmark,
which holds the deck, cannot start the commands itself."""


def child(argv: list[str], env: dict[str, str], cwd: str) -> dict[str, float]:
    """Run ``argv`` in ``cwd`` (not a tree's top: ``python -m`` imports from there first); its CPU
    seconds (user + system) and peak resident memory in MiB."""
    done = subprocess.run([sys.executable, "-S", "-c", LAUNCHER, *argv], env=env, capture_output=True,
                          text=True, check=False, cwd=cwd)
    fields = done.stdout.split()
    if done.returncode or len(fields) != 3 or fields[0] != "0":
        raise SystemExit(f"bench_sort: {' '.join(argv)} failed: {done.stderr}")
    return {"cpu": float(fields[1]), "rss_mib": int(fields[2]) / 1024}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=1_000_000, help="cards in the deck")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, each command once a round")
    parser.add_argument("--seed", type=int, default=22, help="seed of the deck")
    parser.add_argument("--dir", default="/tmp", help="where the decks are written (and removed)")
    parser.add_argument("--before", metavar="CHECKOUT", help="also run this tree's ibm1013 (before)")
    parser.add_argument("--json", action="store_true", help="print the results as one JSON object")
    args = parser.parse_args(argv)
    gnu = shutil.which("sort")
    if gnu is None:
        raise SystemExit("bench_sort: GNU sort not found")
    from tools.bench_deckops import load, make_text, save

    trees = {"after": ROOT, **({"before": os.path.abspath(args.before)} if args.before else {})}
    with tempfile.TemporaryDirectory(prefix="bench-sort-", dir=args.dir) as tmp:
        deck = {ext: os.path.join(tmp, f"deck.{ext}") for ext in ("txt", "cbn")}
        make_text(deck["txt"], args.cards, args.seed)
        save(deck["cbn"], load(deck["txt"], "text"), "cbn")
        gnu_out = os.path.join(tmp, "gnu.txt")
        runs: dict[str, tuple[list[str], dict[str, str]]] = {
            "gnu sort": ([gnu, "-s", "-t", "|", "-k1.73,1.80", deck["txt"], "-o", gnu_out],
                         {**os.environ, "LC_ALL": "C"})}
        for tree, path in trees.items():  # bytecode cached, as an installed package's (bench_startup)
            env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
                   "PYTHONPATH": path, "PYTHONPYCACHEPREFIX": os.path.join(tmp, "pycache")}
            for ext in ("txt", "cbn"):
                out = os.path.join(tmp, f"{tree}.{ext}")
                runs[f"{tree} {ext}"] = ([sys.executable, "-m", "ibm1013", "cards", "sort", deck[ext], "--by",
                                          "73-80", "-o", out], env)
        seen: dict[str, list[dict[str, float]]] = {name: [] for name in runs}
        for command, env in runs.values():  # an untimed round: the bytecode compiled, the files cached
            child(command, env, tmp)
        for _ in range(args.rounds):
            for name, (command, env) in runs.items():
                seen[name].append(child(command, env, tmp))
        with open(os.path.join(tmp, "gnu.txt"), "rb") as f:
            expected = f.read()
        checks = {}
        for tree in trees:
            with open(os.path.join(tmp, f"{tree}.txt"), "rb") as f:
                checks[f"{tree} txt equals gnu sort"] = f.read() == expected
            punched = os.path.join(tmp, "expected.cbn")
            save(punched, load(gnu_out, "text"), "cbn")
            with open(os.path.join(tmp, f"{tree}.cbn"), "rb") as a, open(punched, "rb") as b:
                checks[f"{tree} cbn equals gnu sort punched"] = a.read() == b.read()
    results = summary(seen, args, checks)
    if args.json:
        print(json.dumps(results))
    else:
        show(results)
    return 0 if all(checks.values()) else 1


def summary(seen: dict[str, list[dict[str, float]]], args: argparse.Namespace,
            checks: dict[str, bool]) -> dict[str, Any]:
    base = seen["gnu sort"]
    out: dict[str, Any] = {"cards": args.cards, "rounds": args.rounds, "load": os.getloadavg()[0],
                           "checks": checks, "commands": {}}
    for name, runs in seen.items():
        cpu = [r["cpu"] / b["cpu"] for r, b in zip(runs, base, strict=True)]
        rss = [r["rss_mib"] / b["rss_mib"] for r, b in zip(runs, base, strict=True)]
        out["commands"][name] = {
            "cpu_s": [round(r["cpu"], 3) for r in runs], "rss_mib": [round(r["rss_mib"], 1) for r in runs],
            "cpu_ratio_min": min(cpu), "cpu_ratio_median": statistics.median(cpu),
            "rss_ratio_min": min(rss), "rss_ratio_median": statistics.median(rss)}
    return out


def show(results: dict[str, Any]) -> None:
    print(f"{results['cards']:,} cards, {results['rounds']} rounds in turns, load average "
          f"{results['load']:.2f}; ratio = command / GNU sort of the same round")
    for name, r in results["commands"].items():
        print(f"  {name:<10} cpu s {' '.join(f'{c:.2f}' for c in r['cpu_s'])}   peak MiB "
              f"{' '.join(f'{m:.0f}' for m in r['rss_mib'])}")
        print(f"  {'':<10} cpu ratio min {r['cpu_ratio_min']:.2f} median {r['cpu_ratio_median']:.2f};"
              f" peak ratio min {r['rss_ratio_min']:.2f} median {r['rss_ratio_median']:.2f}")
    for check, ok in results["checks"].items():
        print(f"  {check}: {ok}")


if __name__ == "__main__":
    sys.exit(main())
