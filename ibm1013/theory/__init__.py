"""The transfer's theory: what STR over a noisy line gives, in closed form, beside every simulation.

The simulation (:mod:`ibm1013.sim.transfer`) sends cards one at a time and counts; this package works
out the same figures from the settings alone, as a check on the simulation and for error rates too
small to simulate.  The steps, each a module (and ``docs/throughput.md`` for a newcomer):

* :mod:`~ibm1013.theory.noise` — the noise on one character as matrices (independent errors or
  Gilbert–Elliott bursts);
* :mod:`~ibm1013.theory.undetected` — the error patterns that four-of-eight and the LRC both miss,
  counted by number of flips;
* :mod:`~ibm1013.theory.frames` — what the receiving core makes of a record, a bid, and what the
  sender makes of a reply;
* :mod:`~ibm1013.theory.card` — one card through its attempts, timeouts and give-up;
* :mod:`~ibm1013.theory.figures` — the settings in, the figures out, for one setting or thousands.

Pure: no SimPy, only the STR core's settings and line code.
"""

from ibm1013.theory.figures import Figures, Setting, TheoryError, TooSlow, figures, figures_many

__all__ = ["Figures", "Setting", "TheoryError", "TooSlow", "figures", "figures_many"]
