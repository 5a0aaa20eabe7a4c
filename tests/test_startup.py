"""Start-up: the parser of every command is built without the heavy modules behind the commands.

``ibm1013 --help`` (and any parse error) must not pay for numpy, SimPy, the games or the solver: each
command imports what it needs when it runs.  The speed itself is measured by tools/bench_startup.py.
"""

import subprocess
import sys

import pytest

HEAVY = ("numpy", "simpy", "rich", "decks.engine", "decks.solver", "ibm1013.str", "importlib.metadata")


def imported_by(*argv: str) -> set[str]:
    """The modules ``python -m ibm1013 ARGV`` imports, as ``-X importtime`` lists them."""
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "ibm1013", *argv],
                         capture_output=True, text=True, timeout=120)
    lines = [line for line in run.stderr.splitlines() if line.startswith("import time:")]
    assert lines, run.stderr
    return {line.rsplit("|", 1)[1].strip() for line in lines}


@pytest.mark.parametrize("argv", [["--help"], ["cards", "decode", "--format", "nope", "x"],
                                  ["simulate", "--help"], ["play", "--help"]])
def test_the_parser_imports_none_of_the_heavy_modules(argv):
    modules = imported_by(*argv)
    assert "ibm1013.cli.main" in modules  # the listing is real
    assert not [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


def test_the_defaults_written_out_for_the_parser_are_the_libraries():
    from decks.deals import MAX_DEAL
    from decks.solver import DEFAULT_MAX_NODES
    from ibm1013.cli import argtypes, games

    assert games.DEFAULT_MAX_NODES == DEFAULT_MAX_NODES
    assert argtypes.DEAL_NUMBER.high == MAX_DEAL
