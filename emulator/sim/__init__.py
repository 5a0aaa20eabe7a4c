"""SimPy building blocks for unit-record hardware: hopper, reader, punch, line, timers.

Generic pieces with no knowledge of any particular terminal (``ibm1013.sim.terminal`` builds the 1013 from
them):

* :mod:`emulator.sim.line` — a data line as ``Port`` (rate, duplex, turnaround) → ``Cut`` → ``Noisy``
  (models from :mod:`emulator.noise`) → ``Wire`` (propagation and arrival: one SimPy event);
* :mod:`emulator.sim.devices` — ``Hopper``, ``Stacker``, ``CardReader``, ``CardPunch``;
* :mod:`emulator.sim.timers` — restartable named timers costing one event per expiry, not per restart.
"""
