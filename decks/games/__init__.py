"""One small module per game family; each registers its rules record(s) with the engine."""
