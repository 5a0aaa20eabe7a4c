"""SimPy building blocks for unit-record hardware: hopper, reader, punch, line, noise."""
