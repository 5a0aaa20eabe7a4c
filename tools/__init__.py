"""The ``ibm1013`` command line and the benchmarks."""
