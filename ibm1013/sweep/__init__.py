"""Throughput sweeps: many simulated transfers over a grid of line settings, with seeds.

``ibm1013 sweep`` answers the questions people time a 1013 link for — cards per minute at 600, 1200
and 2400 bit/s when 80, 40, 20 or 10 columns are sent; how throughput falls as the bit error rate
rises; what half duplex costs — as a table of runs, a summary per point with a 95 % confidence
interval over seeds, and plots.  The pieces:

* :mod:`~ibm1013.sweep.grid` — points (the cross product of settings), derived seeds, one run;
* :mod:`~ibm1013.sweep.results` — rows on disk (CSV, JSON Lines), resuming, the per-point summary;
* :mod:`~ibm1013.sweep.backends` — a process pool on this machine, or a Dask cluster
  (:mod:`~ibm1013.sweep.cluster`, with what its batches share in :mod:`~ibm1013.sweep.dask_shared`);
* :mod:`~ibm1013.sweep.lifecycle` — how the pool's worker processes start and stop (the stop signals);
* :mod:`~ibm1013.sweep.runner` — :func:`run_sweep`, tying them together;
* :mod:`~ibm1013.sweep.plot` — the pictures (matplotlib), with the reference table beside ours.
"""

from ibm1013.sweep.grid import DEFAULTS, DIMENSIONS, Run, derive_seed, grid, run_one
from ibm1013.sweep.results import COLUMNS, ResultsFile, summarize
from ibm1013.sweep.runner import SweepResult, run_sweep

__all__ = ["COLUMNS", "DEFAULTS", "DIMENSIONS", "ResultsFile", "Run", "SweepResult", "derive_seed",
           "grid", "run_one", "run_sweep", "summarize"]
