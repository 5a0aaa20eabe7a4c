"""The instruction-count guard: three workloads counted under valgrind against a committed baseline.

    python -m tools.instruction_guard                      # count, compare, exit 1 on a regression
    python -m tools.instruction_guard --record             # count all three, rewrite the baseline
    python -m tools.instruction_guard --record startup     # re-record one workload (the others kept)

A timed benchmark on a shared two-core machine moves by tens of percent from one minute to the next;
the instructions a process executes, counted by valgrind's callgrind (``apt-get install valgrind``)
with the hash seed fixed, do not move at all.  So this guard can be exact where a timed test cannot:
each workload's count must stay within :data:`TOLERANCE` (5 %) of the count recorded in
:data:`BASELINE` (``tests/data/instruction_counts.json``).  ``tests/test_instruction_guard.py`` runs it
in the README's test command, so CI runs it too.

The workloads, each counted as a process that does it less the same process that does not (so the
interpreter's own start and the imports do not dilute what is guarded):

* ``startup`` — ``python -m ibm1013 --help`` less ``python -c pass``: what the command line's start
  costs on top of the bare interpreter (the help is answered without argparse:
  :mod:`ibm1013.cli.start`);
* ``parser`` — ``python -m ibm1013 cards --help`` less ``python -c pass``: the start of every other
  command line, which argparse parses (:mod:`ibm1013.cli.main`);
* ``simulate`` — 5,000 cards of random columns through the SimPy model at a bit error rate of 1e-5,
  seed 1 (:func:`ibm1013.sim.transfer.run_transfer`), less the same process with the deck made and
  nothing sent;
* ``solver`` — :func:`decks.solver.solve` of Klondike deal 1 with a fixed limit of positions (it
  decides the deal in 2,161), less the same search stopped at 2 positions.

The counts depend on the interpreter, the platform, the build (the compiled cores or the Python
source: :data:`ibm1013.CORE`, :data:`decks.solver.CORE`) and the versions of SimPy and NumPy, so the
baseline records them (:func:`environment`).  Where they differ from this process's the counts cannot
be compared: the guard says what differs, and fails under CI (``CI=true`` or
``IBM1013_REQUIRE_INTEROP=1``, where the baseline's machine is the one CI runs on) and skips
elsewhere.  A slowdown that is intended (a feature that costs instructions) is accepted by recording
the baseline again, with the command printed on failure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from emulator.atomic import atomic_output
from tools import callgrind

BASELINE = os.path.join(callgrind.ROOT, "tests", "data", "instruction_counts.json")
TOLERANCE = 0.05
"""A count more than 5 % over its baseline is a regression."""
RECORD = "python -m tools.instruction_guard --record"
"""The command that rewrites the baseline (add workload names to re-record only those)."""

SIM_CARDS = 5_000
SOLVER_GAME, SOLVER_DEAL, SOLVER_NODES = "klondike", 1, 4_000

SIMULATE = f"""
import sys
from tools.bench_simulate import make_deck
from ibm1013.sim.transfer import TransferConfig, run_transfer
deck = make_deck({SIM_CARDS})
config = TransferConfig.build(ber=1e-5, seed=1)
if sys.argv[1] == "run":
    transfer = run_transfer(deck, config)
    print(transfer.report.cards_received, transfer.report.retransmissions, transfer.events)
"""
SOLVE = """
import sys
from decks import engine, solver
state = engine.deal(sys.argv[1], int(sys.argv[2]))
print(solver.solve(state, int(sys.argv[3])).nodes)
"""
ENVIRONMENT = """
import json, platform, sys
import numpy, simpy
import ibm1013, decks.solver
print(json.dumps({
    "python": f"{platform.python_implementation()} {platform.python_version()}",
    "platform": f"{platform.system()} {platform.machine()}",
    "simulation build": ibm1013.CORE, "solver build": decks.solver.CORE,
    "simpy": simpy.__version__, "numpy": numpy.__version__}))
"""


@dataclass(frozen=True)
class Workload:
    """One guarded workload: the arguments of the counted process and of its idle twin."""

    name: str
    what: str
    run: tuple[str, ...]
    idle: tuple[str, ...]


WORKLOADS = (
    Workload("startup", "python -m ibm1013 --help, less python -c pass",
             ("-m", "ibm1013", "--help"), ("-c", "pass")),
    Workload("parser", "python -m ibm1013 cards --help, less python -c pass",
             ("-m", "ibm1013", "cards", "--help"), ("-c", "pass")),
    Workload("simulate", f"{SIM_CARDS:,} simulated cards, BER 1e-5, seed 1, less making the deck",
             ("-c", SIMULATE, "run"), ("-c", SIMULATE, "idle")),
    Workload("solver", f"{SOLVER_GAME} deal {SOLVER_DEAL} searched (at most {SOLVER_NODES:,} positions), "
                       "less stopped at 2",
             ("-c", SOLVE, SOLVER_GAME, str(SOLVER_DEAL), str(SOLVER_NODES)),
             ("-c", SOLVE, SOLVER_GAME, str(SOLVER_DEAL), "2")),
)
NAMES = tuple(w.name for w in WORKLOADS)


def _env(root: str) -> dict[str, str]:
    """The counted processes' environment: this one's, with everything that moves a count fixed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COV_"))}
    env.update(PYTHONHASHSEED="0", PYTHONPATH=root, COLUMNS="100", LINES="40", LC_ALL="C.UTF-8",
               **callgrind.ONE_THREAD)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("IBM1013_PURE_PYTHON", None)
    return env


def environment(root: str = callgrind.ROOT) -> dict[str, str]:
    """What the counts depend on, as this checkout's processes see it."""
    run = subprocess.run([sys.executable, "-c", ENVIRONMENT], cwd=root, env=_env(root),
                         capture_output=True, text=True, timeout=120, check=True)
    return json.loads(run.stdout)


def count(args: Sequence[str], root: str = callgrind.ROOT) -> tuple[int, str]:
    """Instructions ``python ARGS`` takes under valgrind in checkout ``root``, and what it printed.
    It runs once first without valgrind, so that its bytecode is written and not counted."""
    env = _env(root)
    command = [sys.executable, *args]
    subprocess.run(command, cwd=root, env=env, capture_output=True, timeout=600, check=True)
    return callgrind.run(command, cwd=root, env=env)


def measure(workload: Workload, root: str = callgrind.ROOT) -> dict[str, Any]:
    """The workload's count (its process less its idle twin) and the two raw counts."""
    run, printed = count(workload.run, root)
    idle, _ = count(workload.idle, root)
    printed = printed.strip()
    return {"instructions": run - idle, "run": run, "idle": idle, "what": workload.what,
            "printed": printed if len(printed) < 100 else f"{len(printed)} characters"}


@dataclass(frozen=True)
class Verdict:
    """How one count compares with its baseline."""

    name: str
    baseline: int
    now: int

    @property
    def ratio(self) -> float:
        return self.now / self.baseline

    @property
    def regressed(self) -> bool:
        return self.ratio > 1 + TOLERANCE

    def line(self) -> str:
        note = ("REGRESSION: more than 5 % over the baseline" if self.regressed else
                f"faster by more than 5 %: record the gain with `{RECORD} {self.name}`"
                if self.ratio < 1 - TOLERANCE else "ok")
        return f"{self.name:<9} {self.now:>15,} instructions, baseline {self.baseline:>15,}, " \
               f"{self.ratio:.3f}x  {note}"


def load(path: str = BASELINE) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def mismatch(recorded: dict[str, str], here: dict[str, str]) -> str | None:
    """One line naming what differs between the baseline's environment and this one, or ``None``."""
    diffs = [f"{key} {recorded.get(key)!r} there, {here.get(key)!r} here"
             for key in sorted(set(recorded) | set(here)) if recorded.get(key) != here.get(key)]
    if not diffs:
        return None
    return (f"the instruction baseline was recorded elsewhere ({'; '.join(diffs)}): counts are not "
            f"comparable; on the machine CI runs on, record it with `{RECORD}`")


def compare(baseline: dict[str, Any], counts: dict[str, int]) -> list[Verdict]:
    """A verdict for every workload counted, against its baseline count."""
    return [Verdict(name, int(baseline["workloads"][name]["instructions"]), now)
            for name, now in counts.items()]


def failure_message(verdicts: list[Verdict]) -> str | None:
    """What to print when a count regressed (``None`` when none did)."""
    bad = [v for v in verdicts if v.regressed]
    if not bad:
        return None
    names = " ".join(v.name for v in bad)
    return ("\n".join(v.line() for v in bad) +
            f"\nIf the slowdown is intended, record the new counts on this machine with `{RECORD} "
            f"{names}` and commit {os.path.relpath(BASELINE, callgrind.ROOT)}.")


def record(names: Sequence[str], root: str = callgrind.ROOT, path: str = BASELINE) -> dict[str, Any]:
    """Count ``names`` and write them to the baseline (keeping the other workloads' counts when the
    environment is the same; a new environment needs every workload recorded)."""
    here = environment(root)
    data: dict[str, Any] = {"environment": here, "workloads": {}}
    if os.path.exists(path):
        old = load(path)
        if old.get("environment") == here:
            data["workloads"] = old.get("workloads", {})
        elif set(names) != set(NAMES):
            raise SystemExit(f"error: {mismatch(old.get('environment', {}), here)}; record every "
                             f"workload (`{RECORD}`), not only {', '.join(names)}")
    for w in WORKLOADS:
        if w.name in names:
            data["workloads"][w.name] = measure(w, root)
            print(f"{w.name:<9} {data['workloads'][w.name]['instructions']:>15,} instructions  ({w.what})")
    data["note"] = f"written by `{RECORD}`; checked by tests/test_instruction_guard.py"
    with atomic_output(path) as out:
        out.write((json.dumps(data, indent=2, sort_keys=True) + "\n").encode())
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", nargs="*", choices=NAMES, metavar="WORKLOAD",
                        help=f"count and rewrite the baseline: these workloads ({', '.join(NAMES)}), "
                             "or all when none is named")
    parser.add_argument("--only", nargs="+", choices=NAMES, metavar="WORKLOAD",
                        help="check only these workloads")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        parser.error("valgrind is missing: apt-get install valgrind")
    if args.record is not None:
        record(args.record or NAMES)
        return 0
    baseline = load()
    wrong = mismatch(baseline["environment"], environment())
    if wrong:
        print(f"error: {wrong}", file=sys.stderr)
        return 2
    counts = {w.name: measure(w)["instructions"] for w in WORKLOADS if w.name in (args.only or NAMES)}
    verdicts = compare(baseline, counts)
    for v in verdicts:
        print(v.line())
    message = failure_message(verdicts)
    if message:
        print(message, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
