"""``ibm1013 games / deck / deal / play / solve``: the solitaire games at the command line.

::

    ibm1013 games [--json]                                   every game: name, pack, rule summary
    ibm1013 deck shuffle KIND [--deal N] [--json]            a pack in dealing order
    ibm1013 deal GAME [--deal N] [--option K=V …] [-o DECK] [--format cbn] [--json]
    ibm1013 play GAME [--deal N | --load DECK] [--moves FILE] [--save DECK] [--symbols]
    ibm1013 solve GAME [--deal N | --load DECK] [--max-nodes N] [--max-seconds S] [--json]

``deal -o`` and ``play --save`` write the game as a deck of punched cards (:mod:`decks.punch`) in any
deck format (``cbn`` by default); ``play --load`` and ``solve --load`` read one back in any format
(detected), so a game can be sent down a 1013 line and resumed at the other end.

**Playing.**  On a terminal the game is a full-screen board (:mod:`ibm1013.tui.play`: moves typed,
picked with the arrow keys or clicked; ``docs/games.md``).  With ``--plain``, or when standard input
or output is not a terminal, after every move the board is printed (:mod:`decks.board`): the tableau
in columns,
cards stacked downwards with face-down ones as ``##``, the other piles above it, cards by their short
names (``TD`` = ten of diamonds; ``--symbols`` prints ♣ ♦ ♥ ♠), red suits in red on a colour
terminal.  Type a move in the engine's notation — ``t3 f`` (top card of tableau 3 to a foundation),
``w t2``, ``t1 t4 3`` (three cards as a unit), ``s`` (stock), ``r`` (redeal), ``x t3 t5`` (remove a
pair), ``p t34`` (a game's special pick) — or one of ``moves`` (the legal moves worth trying; ``moves
all``: every one), ``undo [N]``, ``redo [N]``, ``hint [N]`` (the next N moves the search found),
``rules``, ``save FILE``, ``?``/``h``/``help`` (the moves this game has, named with its own piles),
``quit`` (which offers to save a game in progress).  An illegal move is refused with the rule that
forbids it.  With ``--moves FILE`` the same lines are read from the file (``#`` comments, several
moves per line separated by ``,`` or ``;``, a think time ``+SECONDS`` before a move allowed as in the
streamed scripts); the final layout (its last line ``WON in N moves``, else ``not won`` after it)
is printed, and an illegal move stops the script with exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import TYPE_CHECKING, Any

from decks.packs import PACK_KINDS
from emulator.errors import IbmError
from ibm1013.cli import argtypes
from ibm1013.cli.stream import add_play_stream_options, play_streamed

if TYPE_CHECKING:
    from decks import engine

# The games, the solver and the board are imported by the command that uses them, so that the
# parser (and ``ibm1013 --help``) is built without them.

DEFAULT_MAX_NODES = 50_000
"""``solve --max-nodes``' default: :data:`decks.solver.DEFAULT_MAX_NODES`, written here so that the
parser does not load the solver (tests/test_startup.py checks that the two agree)."""


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("games", help="list the solitaire games and their options",
                              description="List every solitaire game: its name (for deal, play and "
                                          "solve), pack, seed kind, a one-line summary and its options.")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.set_defaults(func=list_games)

    deck = subparsers.add_parser("deck", help="playing-card packs",
                                 description="Playing-card packs as the games deal them.")
    sub = deck.add_subparsers(dest="deck_command", metavar="ACTION", required=True)
    p = sub.add_parser("shuffle", help="a pack in dealing order for a deal number",
                       description="Print pack KIND shuffled for deal number N, first card dealt first "
                                   "(the same order every time for the same N).")
    p.add_argument("kind", metavar="KIND", choices=PACK_KINDS, help=" / ".join(PACK_KINDS))
    p.add_argument("--deal", type=argtypes.DEAL_NUMBER, default=1, metavar="N", help="deal number")
    p.add_argument("--json", action="store_true", help="print the order as JSON")
    p.set_defaults(func=shuffle)

    p = subparsers.add_parser("deal", help="deal a game: show it, or punch it into a deck",
                              description="Deal GAME by its deal number and show the layout, or punch "
                                          "the game into a deck of cards (-o) that play and solve can "
                                          "load and a 1013 can send.")
    _game_arguments(p, load=False)
    p.add_argument("-o", "--output", metavar="DECK", type=argtypes.output_file,
                   help="write the game as a punched deck ('-' = standard output)")
    p.add_argument("--format", default=None, metavar="FORMAT", type=argtypes.deck_format,
                   help="deck format for -o (default: from the extension, else cbn; see ibm1013 cards -h)")
    p.add_argument("--label", type=argtypes.deck_label,
                   help="4-character deck label for columns 73-76 (default: from the game's name)")
    p.add_argument("--json", action="store_true", help="print the dealt game as JSON")
    p.add_argument("--symbols", action="store_true", help="suits as ♣ ♦ ♥ ♠")
    p.add_argument("--compact", action="store_true", help="punch compact cards (decks/compact.py)")
    p.set_defaults(func=deal)

    p = subparsers.add_parser("play", help="play a game in the terminal, or replay a move script",
                              description="Play GAME in the terminal — full screen, with the mouse and "
                                          "keys, when standard input and output are a terminal; else "
                                          "(or with --plain) at a prompt (type 'help' for the moves) — "
                                          "or replay the moves of a script with --moves; --save "
                                          "punches the game into a deck at the end.")
    _game_arguments(p, load=True)
    p.add_argument("--moves", metavar="FILE", help="replay the moves in FILE instead of asking")
    p.add_argument("--save", metavar="DECK", type=argtypes.output_file,
                   help="at the end, write the game as a punched deck")
    p.add_argument("--format", default=None, metavar="FORMAT", type=argtypes.deck_format,
                   help="deck format for --save / save (default: from the file's extension, else cbn; "
                        "see ibm1013 cards -h)")
    p.add_argument("--symbols", action="store_true", help="suits as ♣ ♦ ♥ ♠")
    p.add_argument("--compact", action="store_true", help="--save punches compact cards")
    p.add_argument("--plain", action="store_true",
                   help="the line-by-line interface, not the full-screen board (the default when "
                        "standard input or output is not a terminal)")
    add_play_stream_options(p)
    p.set_defaults(func=play)

    p = subparsers.add_parser("solve", help="search for a winning move list",
                              description="Search for a list of moves that wins GAME: the game's exact "
                                          "search where it has one, else a bounded search of at most "
                                          "--max-nodes positions.  Exit status 0 when a win is found, 1 "
                                          "when not.")
    _game_arguments(p, load=True)
    p.add_argument("--max-nodes", type=argtypes.POSITIVE_INT, default=DEFAULT_MAX_NODES, metavar="N",
                   help="most positions the bounded search looks at")
    p.add_argument("--max-seconds", type=argtypes.number(0, 86_400, above=True), metavar="S",
                   help="stop the bounded search after S seconds too (it reports the positions it reached)")
    p.add_argument("--generic", action="store_true",
                   help="use the bounded general solver even where the game has an exact search")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=solve)


def _game_arguments(p: argparse.ArgumentParser, *, load: bool) -> None:
    p.add_argument("game", metavar="GAME", type=argtypes.game, help="a game name (see 'ibm1013 games')")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--deal", type=argtypes.DEAL_NUMBER, default=None, metavar="N",
                        help="deal number (default 1)")
    if load:
        source.add_argument("--load", metavar="DECK", help="resume the game punched in DECK")
    p.add_argument("--option", action="append", default=[], metavar="K=V",
                   help="a game option (give it again for more; 'ibm1013 games' lists them)")


# ---------------------------------------------------------------------------------------------
# games, deck shuffle


def game_summary(rules: engine.Rules) -> str:
    """One line about the game: the record's notes, else the first sentence of its module's doc."""
    if rules.notes:
        return rules.notes
    doc = sys.modules[rules.deal.__module__].__doc__ or ""
    para = doc.strip().split("\n\n")[0]
    return " ".join(para.split())


def list_games(args: argparse.Namespace) -> int:
    from decks import engine

    rows = []
    for name in engine.game_names():
        rules = engine.get_game(name)
        rows.append({
            "name": name, "title": rules.title, "pack": rules.pack, "seed": rules.seed,
            "reference_row": rules.row, "summary": game_summary(rules),
            "options": [{"name": o.name, "default": o.default, "kind": o.kind, "choices": list(o.choices),
                         "help": o.help} for o in rules.options],
        })
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    width = max(len(row["name"]) for row in rows) + 2
    indent = " " * width
    for row in rows:
        print(f"{row['name']:<{width}}{row['title']} — {row['pack']} pack, "
              f"docs/games.md row {row['reference_row']}")
        print(textwrap.fill(row["summary"], 100, initial_indent=indent, subsequent_indent=indent))
        for o in row["options"]:
            print(textwrap.fill(f"--option {o['name']}={o['default']}  {o['help']}", 100,
                                initial_indent=indent + "  ", subsequent_indent=indent + "    "))
    return 0


def shuffle(args: argparse.Namespace) -> int:
    from decks.deals import deal_order

    order = [c.name for c in deal_order(args.kind, args.deal)]
    if args.json:
        print(json.dumps({"kind": args.kind, "deal": args.deal, "cards": order}))
    else:
        print(" ".join(order))
    return 0


# ---------------------------------------------------------------------------------------------
# getting a state: a deal or a punched deck


def get_state(args: argparse.Namespace) -> engine.GameState:
    """The game the arguments ask for: ``--deal`` and ``--option`` of GAME, or ``--load DECK``."""
    from decks.session import start

    return start(args.game, args.deal, args.option, getattr(args, "load", None))


# ---------------------------------------------------------------------------------------------
# deal, solve


def deal(args: argparse.Namespace) -> int:
    from decks.session import layout, save_deck
    from emulator.formats import output_format

    state = get_state(args)
    if args.output:
        n = save_deck(state, args.output, output_format(args.output, args.format), args.label,
                      args.compact)
        if args.output != "-":
            print(f"{args.output}: {n} cards, {state.game} deal {state.deal_number}", file=sys.stderr)
        return 0
    if args.json:
        print(json.dumps(state.to_dict(), indent=2))
    else:
        print(layout(state, args.symbols))
    return 0


def solve(args: argparse.Namespace) -> int:
    from decks import solver
    from decks.session import exact_search, find_solution

    state = get_state(args)
    if args.max_nodes < 1:
        raise IbmError("--max-nodes must be at least 1")
    exact = not args.generic and exact_search(state) is not None
    if args.json or not sys.stderr.isatty() or args.max_nodes < 4 * solver.PROGRESS_EVERY:
        result = find_solution(state, args.max_nodes, args.generic, args.max_seconds)
    else:                               # a long search on a terminal: positions searched, as a bar
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(TextColumn("searching"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("positions", total=args.max_nodes)
            result = find_solution(state, args.max_nodes, args.generic, args.max_seconds,
                                   progress=lambda n: bar.update(task, completed=n))
    method = "exact search" if exact else f"solver, node limit {args.max_nodes}"
    if args.max_seconds is not None and not exact:
        method += f", time limit {args.max_seconds:g} s"
    if args.json:
        print(json.dumps({"game": state.game, "deal": state.deal_number, "status": result.status,
                          "won": result.won, "nodes": result.nodes, "method": method,
                          "timed_out": result.timed_out,
                          "moves": [str(m) for m in result.moves], "best_home": result.best_home,
                          "cards": result.total, "best_moves": [str(m) for m in result.best_moves],
                          "pruned": result.pruned, "explanation": result.explain()}))
    elif result.won:
        print(result.notation())
        searched = "" if exact else f", {result.nodes} nodes searched"  # the exact search counts none
        print(f"# won in {len(result.moves)} moves ({method}{searched})")
    else:
        pruned = result.pruned and result.status == solver.EXHAUSTED  # not a strict proof: say so
        status = "no solution in the tree searched" if pruned else result.status
        print(f"{status} ({method}, {result.nodes} nodes searched)")
        print(f"# {result.explain()}")
    return 0 if result.won else 1


# ---------------------------------------------------------------------------------------------
# play


def play(args: argparse.Namespace) -> int:
    if args.stream:
        return play_streamed(args)
    from decks import engine
    from decks.session import Session, layout, read_script, save_deck, timed_script
    from emulator.formats import output_format
    from ibm1013.cli.plain import chosen, interactive

    session = Session(get_state(args), args.format or "cbn", args.symbols)
    try:
        if args.moves:
            try:
                script = timed_script(read_script(args.moves))  # think times matter only when streamed
            except IbmError as err:
                raise IbmError(f"{args.moves}: {err}") from None
            for number, _, command in script:
                if command.lower() == "quit":
                    break
                try:
                    out = session.command(command)
                except IbmError as err:
                    raise IbmError(f"{args.moves}: line {number}: {err}") from None
                if not out.startswith(engine.rules_of(session.state).title):
                    print(out)
            print(layout(session.state, args.symbols))
        elif chosen(args.plain):
            interactive(session, offer_save=not args.save)
        else:
            from decks.stats import Stats
            from ibm1013.tui.play import PlayApp

            PlayApp(session, save_path=args.save, stats=Stats.load()).run()
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP
        return keep_interrupted_game(session.state, session.unsaved, args.save, args.format,
                                     args.compact)
    if args.save:
        n = save_deck(session.state, args.save, output_format(args.save, args.format),
                      compact_form=args.compact)
        print(f"saved {n} cards to {args.save}")
    if not engine.is_won(session.state):  # a win: the board's last line said "WON in N moves"
        print("not won")
    return 0


def keep_interrupted_game(state: Any, unsaved: bool, save: str | None, fmt: str | None,
                          compact: bool = False) -> int:
    """Ctrl-C, SIGTERM or SIGHUP during a game: punch the game into a deck — the ``--save`` file,
    else ``GAME-DEAL.FORMAT`` here, never over a file that is there — and say in one line where it
    is and how to go on; exit status 130.  A game with nothing ``unsaved`` is not written again."""
    from decks import engine
    from decks.session import free_deck_path, save_deck
    from emulator.formats import output_format
    from ibm1013.cli.main import INTERRUPTED_STATUS

    if not unsaved:
        why = "the game is won" if engine.is_won(state) else "no move was left unsaved"
        print(f"\nibm1013: interrupted; {why}", file=sys.stderr)
        return INTERRUPTED_STATUS
    path = save or free_deck_path(f"{state.game}-{state.deal_number}", fmt or "cbn")
    try:
        save_deck(state, path, output_format(path, fmt), compact_form=compact)
    except IbmError as err:
        print(f"\nibm1013: interrupted; the game could not be saved: {err}", file=sys.stderr)
        return INTERRUPTED_STATUS
    print(f"\nibm1013: interrupted; the game is saved in {path}: go on with "
          f"`ibm1013 play {state.game} --load {path}`", file=sys.stderr)
    return INTERRUPTED_STATUS

