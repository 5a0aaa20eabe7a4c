"""Builds the solver's compiled core: mypyc compiles ``decks/solver/position.py`` and
``decks/solver/search.py`` to C extension modules (see :mod:`decks.solver`).  Everything else is
in ``pyproject.toml``.  ``IBM1013_PURE_PYTHON=1 pip install ...`` skips the compilation; a machine
without a C compiler skips it too (the extensions are optional) and runs the same code as Python."""

import os

from setuptools import setup

CORE = ["decks/solver/position.py", "decks/solver/search.py"]


def compiled_core() -> list:
    if os.environ.get("IBM1013_PURE_PYTHON"):
        return []
    from mypyc.build import mypycify

    modules = mypycify([*CORE, "--ignore-missing-imports", "--follow-imports=silent"], opt_level="3",
                       group_name="decks.solver._core")
    for module in modules:
        module.optional = True          # no C compiler: the source runs instead
    return modules


setup(ext_modules=compiled_core())
