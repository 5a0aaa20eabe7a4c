"""The IBM 1013 Card Transmission Terminal (1961): four-of-eight line code, STR line control,
the terminal model, two-terminal transfers and real serial endpoints.

Facts: ``../shared/reference/str-protocol.md`` and ``fourofeight.md``/``fourofeight.csv``.
"""
