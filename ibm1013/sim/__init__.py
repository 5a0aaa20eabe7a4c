"""The 1013 on a simulated line: SimPy drivers of the STR core.

:mod:`~ibm1013.sim.terminal` builds a sending and a receiving 1013 from the generic unit-record
parts of :mod:`emulator.sim` around the sans-I/O core (:mod:`ibm1013.str`);
:mod:`~ibm1013.sim.transfer` puts two of them on one line and returns a
:class:`~ibm1013.report.TransferReport`, with the books an omniscient observer keeps
(:mod:`~ibm1013.sim.books`); :mod:`~ibm1013.sim.stream` runs a game streamed move by move on the
same line; :mod:`~ibm1013.sim.timeline` draws who sent what when.
"""
