"""The ``ibm1013`` command line: one module per subcommand group, :mod:`ibm1013.cli.main` builds
the parser and runs a command (``ibm1013 …`` or ``python -m ibm1013 …``).

The modules are thin: they parse and check arguments (:mod:`ibm1013.cli.argtypes`), then call the
packages that do the work — :mod:`emulator`, :mod:`ibm1013` and :mod:`decks` (a game in play is a
:class:`decks.session.Session`, which every interface drives)."""
