"""The IBM 1013 Card Transmission Terminal (1961): four-of-eight line code, STR line control,
the terminal model, two-terminal transfers and real serial endpoints.

Facts: ``docs/ibm1013.md`` (the terminal, its timing, four-of-eight) and ``docs/str.md`` (STR as we
implement it).
"""

import emulator.compiled  # noqa: F401, E402 - chooses the build of ibm1013._sim before its modules load
