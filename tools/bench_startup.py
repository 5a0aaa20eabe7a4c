"""Benchmark of the command line's start-up (``python -m tools.bench_startup``).

A short command spends most of its time starting: the interpreter, then the modules it imports.  This
runs, interleaved so that a load on the machine falls on all alike, each of

* ``python -c pass`` — the baseline: the interpreter alone, with the same ``site`` (and PYTHONPATH);
* ``python -c 'import numpy'`` — the floor of any command that reads a deck in bulk (the deck arrays
  are numpy's);
* ``python -m ibm1013 --help`` — the parser of every command, and nothing behind it;
* ``python -m ibm1013 cards decode DECK`` of a 5-card CBN deck — one real, small command (a small
  plain deck is decoded without numpy, by :mod:`emulator.small_decks`);

and prints each one's median and fastest wall time, and their ratios to the baseline's (issue 52's
target: both commands at most 2 times the baseline on a quiet machine).  On a loaded machine the
fastest of many runs is the steadier figure.  ``--runs`` sets how many times each is run.
``--instructions`` counts instead the instructions each takes under valgrind's callgrind, once:
a figure the machine's load cannot move (though start-up also waits on the disk and the page cache,
which a count does not see).

The modules run from cached bytecode, as an installed package's do (pip compiles them): the runs
drop ``PYTHONDONTWRITEBYTECODE`` and keep the bytecode under a temporary ``PYTHONPYCACHEPREFIX``,
outside the source tree, filled by a first untimed run of each command.

Two installs (issue 52 asks for both): by default the package this interpreter imports (an editable
install, or ``PYTHONPATH``; ``--tree DIR`` puts ``DIR`` first on ``PYTHONPATH``).  ``--wheel``
builds a pure-Python wheel of the tree (``IBM1013_PURE_PYTHON=1 pip wheel``, from a copy of the
tree's files), installs it (without its dependencies: neither command needs them) in a fresh venv,
and runs the commands with that venv's Python from an empty directory, with no ``PYTHONPATH``; the
baseline is that venv's ``python -c pass``, and the installed ``ibm1013`` script (pip's, which
imports ``re``) is run too.  The wheel has no numpy, so the ``import numpy`` row is left out there.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS: dict[str, list[str]] = {
    "python -c pass": ["{python}", "-c", "pass"],
    "python -c 'import numpy'": ["{python}", "-c", "import numpy"],
    "ibm1013 --help": ["{python}", "-m", "ibm1013", "--help"],
    "ibm1013 cards decode (5 cards)": ["{python}", "-m", "ibm1013", "cards", "decode", "{deck}"],
}
SCRIPT_COMMANDS: dict[str, list[str]] = {
    "script ibm1013 --help": ["{script}", "--help"],
    "script ibm1013 cards decode": ["{script}", "cards", "decode", "{deck}"],
}
"""In a wheel install, also the console script pip generated (no ``runpy``; it imports ``re``)."""
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The checkout holding this script: the tree measured unless ``--tree`` names another."""


def small_deck(directory: str, env: dict[str, str]) -> str:
    """A 5-card CBN deck, punched by ``cards encode`` (of this interpreter's package)."""
    text, deck = os.path.join(directory, "five.txt"), os.path.join(directory, "five.cbn")
    with open(text, "w") as out:
        out.writelines(f"CARD {i} OF A SMALL DECK\n" for i in range(1, 6))
    subprocess.run([sys.executable, "-m", "ibm1013", "cards", "encode", text, "-o", deck], check=True,
                   env=env)
    return deck


def tree_files(tree: str) -> list[str]:
    """The files of ``tree`` a wheel is built from: git's (tracked and new, not ignored) in a checkout,
    else every file but bytecode and build output."""
    listed = subprocess.run(["git", "-C", tree, "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, text=True)
    if listed.returncode == 0:
        names = listed.stdout.split("\0")
        return [name for name in names if name and os.path.isfile(os.path.join(tree, name))]
    skip = ("__pycache__", "build", ".git")
    return [os.path.relpath(os.path.join(top, name), tree) for top, dirs, names in os.walk(tree)
            if not any(part in skip or part.endswith(".egg-info") for part in top.split(os.sep))
            for name in names if not name.endswith((".so", ".pyc"))]


def wheel_venv(tree: str, directory: str) -> str:
    """A fresh venv in ``directory`` holding a pure-Python wheel of ``tree`` (as docs/speed.md built
    it by hand): its ``bin`` directory."""
    source, wheels, venv = (os.path.join(directory, name) for name in ("source", "wheels", "venv"))
    for name in tree_files(tree):
        os.makedirs(os.path.dirname(os.path.join(source, name)), exist_ok=True)
        shutil.copy2(os.path.join(tree, name), os.path.join(source, name))
    quiet = {"check": True, "stdout": subprocess.DEVNULL, "timeout": 1800}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", wheels, source], env={**os.environ, "IBM1013_PURE_PYTHON": "1"}, **quiet)
    subprocess.run([sys.executable, "-m", "venv", venv], **quiet)
    (wheel,) = (os.path.join(wheels, name) for name in os.listdir(wheels) if name.endswith(".whl"))
    subprocess.run([os.path.join(venv, "bin", "python"), "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-index", wheel], **quiet)
    return os.path.join(venv, "bin")


def once(args: list[str], env: dict[str, str], cwd: str | None) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, env=env, cwd=cwd)
    return time.perf_counter() - start


def instructions(args: list[str], env: dict[str, str], cwd: str | None) -> int:
    """Instructions ``ARGS`` takes, counted by callgrind."""
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *args],
                         check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         env=env, timeout=600, cwd=cwd)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise SystemExit(f"bench_startup: valgrind printed no count: {run.stderr[-300:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (default 15)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions with valgrind's callgrind instead of timing")
    parser.add_argument("--wheel", action="store_true",
                        help="measure a wheel of the tree installed in a fresh venv (see above)")
    parser.add_argument("--tree", default=HERE, help="the checkout measured (default: this script's)")
    options = parser.parse_args(argv)
    tree = os.path.abspath(options.tree)
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPATH"] = os.pathsep.join([tree, *filter(None, [os.environ.get("PYTHONPATH")])])
        deck = small_deck(tmp, env)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, "pycache")
        python, cwd, wanted = sys.executable, None, dict(COMMANDS)
        if options.wheel:
            bin_dir = wheel_venv(tree, tmp)
            python, script, cwd = os.path.join(bin_dir, "python"), os.path.join(bin_dir, "ibm1013"), tmp
            del env["PYTHONPATH"], wanted["python -c 'import numpy'"]
            wanted.update({name: [a.replace("{script}", script) for a in args]
                           for name, args in SCRIPT_COMMANDS.items()})
            os.makedirs(cwd := os.path.join(tmp, "empty"))
        commands = {name: [a.format(deck=deck, python=python) for a in args] for name, args in wanted.items()}
        times: dict[str, list[float]] = {name: [] for name in commands}
        for args in commands.values():
            once(args, env, cwd)  # compiles the bytecode
        if options.instructions:
            counts = {name: instructions(args, env, cwd) for name, args in commands.items()}
            for name, value in counts.items():
                print(f"{name:32s} {value:13,d} instructions = {value / counts['python -c pass']:4.2f}x "
                      "python -c pass's")
            return
        for _ in range(options.runs):
            for name, args in commands.items():
                times[name].append(once(args, env, cwd))
    base, fastest = statistics.median(times["python -c pass"]), min(times["python -c pass"])
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:32s} median {median * 1000:6.1f} ms = {median / base:4.2f}x,  "
              f"fastest {min(values) * 1000:6.1f} ms = {min(values) / fastest:4.2f}x python -c pass's")


if __name__ == "__main__":
    main()
