"""The IBM 1013 Card Transmission Terminal (1961): four-of-eight line code, STR line control,
the terminal model, two-terminal transfers and real serial endpoints.

Facts: ``docs/ibm1013.md`` (the terminal, its timing, four-of-eight) and ``docs/str.md`` (STR as we
implement it).
"""

from emulator import compiled

SIM_MODULES = ("ibm1013.str.fourofeight", "ibm1013.str.events", "ibm1013.str.transmitter",
               "ibm1013.str.receiver", "emulator.sim.timers", "emulator.sim.line", "ibm1013.sim.terminal",
               "ibm1013.sim.books")
"""The simulation's hot path, every module a simulated card passes through: the ``ibm1013._sim``
group that ``setup.py`` compiles with mypyc (the same list)."""

SIM_GROUP = "ibm1013._sim"

CORE = compiled.choose(SIM_MODULES, SIM_GROUP)
"""``"compiled"`` or ``"python"``: the build of :data:`SIM_MODULES` this process runs (chosen here,
before any of them loads; :mod:`emulator.compiled`)."""
