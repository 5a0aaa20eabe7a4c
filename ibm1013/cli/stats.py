"""``ibm1013 stats [GAME] [--json]``: the statistics every game played keeps (:mod:`decks.stats`)."""

from __future__ import annotations

import argparse
import json

from emulator.errors import ExitStatus
from ibm1013.cli import argtypes


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("stats", help="games played and won, streaks, best moves and times",
                              description="Print the statistics of the games played at the keyboard "
                                          "with 'ibm1013 play' (the full-screen board, or --plain; a "
                                          "--moves script is not counted), per game and options (kept "
                                          "in the user's data directory, or in IBM1013_DATA_DIR).")
    p.add_argument("game", metavar="GAME", nargs="?", type=argtypes.game,
                   help="only this game (see 'ibm1013 games')")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.set_defaults(func=show)


def show(args: argparse.Namespace) -> int:
    from decks.stats import Stats

    stats = Stats.load()
    records = {k: r for k, r in stats.records.items() if args.game is None or k.split()[0] == args.game}
    if args.json:
        print(json.dumps({"file": str(stats.path), "games": {k: vars(r) for k, r in records.items()}}))
        return ExitStatus.OK
    if not records:
        print(f"no games recorded yet ({stats.path})")
        return ExitStatus.OK
    for name, record in records.items():
        print(f"{name}\n    {record.describe()}")
    return ExitStatus.OK
