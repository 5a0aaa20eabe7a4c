"""Builds the compiled cores: mypyc compiles the solver's modules (``decks/solver/position.py``,
``keys.py``, ``measures.py``, ``stuck.py`` and ``search.py``) to C extension modules (see
:mod:`decks.solver`), and, as a second group ``ibm1013._sim``, the modules every simulated card
passes through (see :mod:`emulator.compiled`).
Everything else is in ``pyproject.toml``.  ``IBM1013_PURE_PYTHON=1 pip install ...`` skips the
compilation; a machine without a C compiler skips it too (the extensions are optional) and runs the
same code as Python."""

import os

from setuptools import setup

CORE = ["decks/solver/position.py", "decks/solver/tables.py", "decks/solver/safety.py",
        "decks/solver/moves.py", "decks/solver/keys.py", "decks/solver/measures.py",
        "decks/solver/relaxed.py", "decks/solver/stuck.py", "decks/solver/tree.py", "decks/solver/best.py",
        "decks/solver/search.py"]
SIM = ["ibm1013/str/fourofeight.py", "ibm1013/str/events.py", "ibm1013/str/transmitter.py",
       "ibm1013/str/receiver.py", "emulator/sim/kernel.py", "emulator/sim/timers.py", "emulator/sim/line.py",
       "ibm1013/sim/terminal.py", "ibm1013/sim/books.py"]
"""The simulation's hot path (see :mod:`emulator.compiled`): the STR core, four-of-eight, the
terminal model and its timers."""


def compiled_core() -> list:
    if os.environ.get("IBM1013_PURE_PYTHON"):
        return []
    from mypyc.build import mypycify

    # --config-file= : not pyproject.toml's [tool.mypy] (the strict check of tests/test_types.py); the
    # compiled modules are built with these flags alone.
    flags = ["--ignore-missing-imports", "--follow-imports=silent", "--config-file="]
    modules = mypycify([*CORE, *flags], opt_level="3", group_name="decks.solver._core")
    sim = mypycify([*SIM, *flags], opt_level="3", group_name="ibm1013._sim")
    for module in [*modules, *sim]:
        module.optional = True          # no C compiler: the source runs instead
    return [*modules, *sim]


setup(ext_modules=compiled_core())
