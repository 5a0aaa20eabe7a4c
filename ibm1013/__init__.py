"""The IBM 1013 Card Transmission Terminal (1961): four-of-eight line code, STR line control,
the terminal model, two-terminal transfers and real serial endpoints.

Facts: ``docs/ibm1013.md`` (the terminal, its timing, four-of-eight) and ``docs/str.md`` (STR as we
implement it).

The public API is what ``__all__`` names (``CHANGELOG.md`` states the version policy).  Each
function is a command, with the command's settings as keywords, and goes through the very code the
command runs (:mod:`ibm1013.cli.keywords`): a value the command refuses is refused here in the same
words, as a :class:`SettingError`.

* :func:`simulate` — ``ibm1013 simulate``: two 1013s on a simulated line, a
  :class:`TransferReport`; :func:`transfer` — the same run, with what the far end punched;
* :func:`work_out` — ``ibm1013 theory``: the same transfer worked out rather than simulated, its
  :class:`Figures`;
* :func:`sweep_grid` — ``ibm1013 sweep``: many simulations over a grid of settings, a
  :class:`SweepResult` (``.to_pandas()``).

Importing this package costs nothing more than the command line's start-up: the names load when
first used (PEP 562).

>>> import ibm1013
>>> report = ibm1013.simulate("examples/sample-decks/hello.cbn", ber=1e-3, seed=7)
>>> report.ended, report.cards_received, report.retransmissions
('complete', 5, 3)
"""

from __future__ import annotations

from emulator import compiled
from emulator.lazy import exports

TYPE_CHECKING = False  # typing is not imported at run time: this is on the path of every command
if TYPE_CHECKING:
    from typing import Any

    from ibm1013.cli.keywords import SettingError
    from ibm1013.cli.library import simulate, sweep_grid, transfer, work_out
    from ibm1013.report import ExitStatus, JsonValue, Row, TransferReport
    from ibm1013.sim.transfer import SessionSettings, Transfer, TransferConfig
    from ibm1013.sweep.runner import SweepResult
    from ibm1013.theory.figures import Figures

SIM_MODULES = ("ibm1013.str.fourofeight", "ibm1013.str.events", "ibm1013.str.transmitter",
               "ibm1013.str.receiver", "emulator.sim.kernel", "emulator.sim.timers", "emulator.sim.line",
               "ibm1013.sim.terminal", "ibm1013.sim.books")
"""The simulation's hot path, every module a simulated card passes through: the ``ibm1013._sim``
group that ``setup.py`` compiles with mypyc (the same list)."""

SIM_GROUP = "ibm1013._sim"

CORE = compiled.choose(SIM_MODULES, SIM_GROUP)
"""``"compiled"`` or ``"python"``: the build of :data:`SIM_MODULES` this process runs (chosen here,
before any of them loads; :mod:`emulator.compiled`)."""

__all__ = ["ExitStatus", "Figures", "JsonValue", "Row", "SessionSettings", "SettingError", "SweepResult",
           "Transfer", "TransferConfig", "TransferReport", "__version__", "simulate", "sweep_grid",
           "transfer", "work_out"]

_LAZY = {"ExitStatus": "ibm1013.report", "TransferReport": "ibm1013.report", "JsonValue": "ibm1013.report",
         "Row": "ibm1013.report", "SessionSettings": "ibm1013.sim.transfer",
         "Transfer": "ibm1013.sim.transfer", "TransferConfig": "ibm1013.sim.transfer",
         "SweepResult": "ibm1013.sweep.runner", "Figures": "ibm1013.theory.figures",
         "SettingError": "ibm1013.cli.keywords", "simulate": "ibm1013.cli.library",
         "transfer": "ibm1013.cli.library", "work_out": "ibm1013.cli.library",
         "sweep_grid": "ibm1013.cli.library"}


_public, __dir__ = exports(globals(), _LAZY, __all__)


def __getattr__(name: str) -> Any:
    """The public names, imported when first asked for; ``__version__`` from the installed package."""
    if name == "__version__":
        from ibm1013.cli.main import version

        return version()
    return _public(name)
