"""The ``ibm1013`` command line.

Each subcommand group lives in a module of its own under ``tools/`` and provides
``register(subparsers)``, which adds its parsers and sets ``func`` on each (a callable taking the
parsed arguments and returning the exit status).  Errors a user can act on (:class:`IbmError`) are
printed as one line on stderr with exit status 2 — never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from emulator.errors import IbmError

COMMAND_MODULES: tuple[str, ...] = (
    "tools.cmd_cards",     # ibm1013 cards …
    "tools.cmd_simulate",  # ibm1013 simulate …
    "tools.cmd_serial",    # ibm1013 send / receive / line
    "tools.cmd_games",     # ibm1013 games / deck / deal / play / solve
    "tools.cmd_demo",      # ibm1013 demo
    "tools.cmd_sweep",     # ibm1013 sweep / plot
    "tools.cmd_stream",    # ibm1013 watch / simulate-play (play --stream is in cmd_games)
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ibm1013",
        description="Punched cards, card decks and the IBM 1013 Card Transmission Terminal.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name == name:  # that command group is not built yet
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = args.func(args)
    except IbmError as err:
        print(f"ibm1013: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ibm1013: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
