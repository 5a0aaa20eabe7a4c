"""The process that imported this module (tests/sweep_started.py)."""

import os

PID = os.getpid()
