"""The project's benchmarks, fuzzers and measurements, run from a checkout as ``python -m tools.NAME``
(the command line is :mod:`ibm1013.cli`).  Nothing in the product imports them."""
