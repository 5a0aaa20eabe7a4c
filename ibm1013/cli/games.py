"""``ibm1013 games / deck / deal / play / solve``: the solitaire games at the command line.

::

    ibm1013 games [--json]                                   every game: name, pack, rule summary
    ibm1013 deck shuffle KIND [--deal N] [--json]            a pack in dealing order
    ibm1013 deal GAME [--deal N] [--option K=V …] [-o DECK] [--format cbn] [--json]
    ibm1013 play GAME [--deal N | --load DECK] [--moves FILE] [--save DECK] [--symbols]
    ibm1013 solve GAME [--deal N | --load DECK] [--seconds S] [--max-nodes N] [--json]

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
from emulator.errors import ExitStatus, IbmError
from emulator.words import cards
from ibm1013.cli import argtypes, options
from ibm1013.cli.stream import add_play_stream_options, play_streamed

if TYPE_CHECKING:
    from decks import engine

# The games, the solver and the board are imported by the command that uses them, so that the
# parser (and ``ibm1013 --help``) is built without them.

DEFAULT_MAX_NODES = 50_000
"""``solve --max-nodes``' default: :data:`decks.solver.DEFAULT_MAX_NODES`, written here so that the
parser does not load the solver (tests/test_startup.py checks that the two agree)."""
DEFAULT_HINT_SECONDS = 0.7
"""``decks.solver.HINT_SECONDS``, written here so that building the parser imports no solver
(tests/test_settings_contract.py holds them alike)."""
SOLVE_SECONDS = 5.0
"""``solve``'s time budget when neither ``--seconds`` nor ``--max-nodes`` is given:
:data:`decks.solver.SOLVE_SECONDS`, written here for the parser (tests/test_solver_restarts.py
checks that the two agree)."""
WINNABLE_NODES = 200_000
"""Positions ``--winnable`` searches a deal for a win (a node limit: the same deal on any machine)."""
WINNABLE_TRIES = 100
"""Deals ``--winnable`` tries before it gives up."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    options.DEAL.add(p, default=1)
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
    options.COMPACT.add(p, action="store_true")
    _winnable_argument(p)
    p.set_defaults(func=deal)

    p = subparsers.add_parser("play", help="play a game in the terminal, or replay a move script",
                              description="Play GAME in the terminal — full screen, with the mouse and "
                                          "keys, when standard input and output are a terminal; else "
                                          "(or with --plain) at a prompt (type 'help' for the moves) — "
                                          "or replay the moves of a script with --moves; --save "
                                          "punches the game into a deck at the end.")
    _game_arguments(p, load=True)
    p.add_argument("--moves", metavar="FILE", help="replay the moves in FILE instead of asking")
    options.SAVE.add(p, default=None)
    options.DECK_FORMAT.add(p, default="auto", note="and of the deck --save and the save command "
                                                     "write (auto: from the file's extension, else cbn)")
    options.CODE.add(p, default="029", note="of the --load deck")
    p.add_argument("--symbols", action="store_true", help="suits as ♣ ♦ ♥ ♠")
    options.COMPACT.add(p, action="store_true")
    options.PLAIN.add(p, action="store_true", note="and ask for moves at a prompt")
    _winnable_argument(p)
    p.add_argument("--hint-seconds", type=argtypes.number(0, 600, above=True), metavar="S",
                   default=DEFAULT_HINT_SECONDS,
                   help="the time a hint may search (default %(default)s s; the line it finds is shown "
                        "stripped of detours, with what its first move does)")
    add_play_stream_options(p)
    p.set_defaults(func=play)

    p = subparsers.add_parser("solve", help="search for a winning move list",
                              description="Search for a list of moves that wins GAME: the game's exact "
                                          "search where it has one, else a bounded search (restarts over "
                                          f"two move orders) for --seconds (default {SOLVE_SECONDS:g}) or "
                                          "--max-nodes positions; a win is shown stripped of its detours.  "
                                          "Exit status 0 when a win is found, 1 when not.")
    _game_arguments(p, load=True)
    p.add_argument("--seconds", "--max-seconds", dest="seconds", type=argtypes.number(0, 86_400, above=True),
                   metavar="S", help=f"search for S seconds at most (default {SOLVE_SECONDS:g} unless "
                                     "--max-nodes is given)")
    p.add_argument("--max-nodes", type=argtypes.POSITIVE_INT, default=None, metavar="N",
                   help=f"most positions the bounded search looks at (alone: the same search on any "
                        f"machine; {DEFAULT_MAX_NODES:,} is the library's default)")
    p.add_argument("--generic", action="store_true",
                   help="use the bounded general solver even where the game has an exact search")
    options.DECK_FORMAT.add(p, default="auto", note="of the --load deck")
    options.CODE.add(p, default="029", note="of the --load deck")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=solve)


def _winnable_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--winnable", action="store_true",
                   help=f"the first deal from --deal N on that the solver proves winnable "
                        f"(within {WINNABLE_NODES:,} positions a deal, {WINNABLE_TRIES} deals at most)")


def _game_arguments(p: argparse.ArgumentParser, *, load: bool) -> None:
    p.add_argument("game", metavar="GAME", type=argtypes.game, help="a game name (see 'ibm1013 games')")
    source = p.add_mutually_exclusive_group()
    options.DEAL.add(source, default=1)
    if load:
        options.add_deck(source, "--load", help="resume the game punched in DECK (any format 'cards "
                                                "decode' reads: see --format)")
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
    from decks.board import DOCS_GAMES

    rows: list[dict[str, Any]] = []
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
        return ExitStatus.OK
    width = max(len(row["name"]) for row in rows) + 2
    indent = " " * width
    for row in rows:
        print(f"{row['name']:<{width}}{row['title']} — {row['pack']} pack, "
              f"row {row['reference_row']} of the games table")
        print(textwrap.fill(row["summary"], 100, initial_indent=indent, subsequent_indent=indent))
        for o in row["options"]:
            print(textwrap.fill(f"--option {o['name']}={o['default']}  {o['help']}", 100,
                                initial_indent=indent + "  ", subsequent_indent=indent + "    "))
    print(f"\nthe games table, with each game's rules as we read them: {DOCS_GAMES}")
    return ExitStatus.OK


def shuffle(args: argparse.Namespace) -> int:
    from decks.deals import deal_order

    order = [c.name for c in deal_order(args.kind, args.deal)]
    if args.json:
        print(json.dumps({"kind": args.kind, "deal": args.deal, "cards": order}))
    else:
        print(" ".join(order))
    return ExitStatus.OK


# ---------------------------------------------------------------------------------------------
# getting a state: a deal or a punched deck


def get_state(args: argparse.Namespace) -> engine.GameState:
    """The game the arguments ask for: ``--deal`` and ``--option`` of GAME, or ``--load DECK``."""
    from ibm1013.cli.deckfiles import start_game

    if getattr(args, "winnable", False):
        pick_winnable(args)
    load = getattr(args, "load", None)
    if load is None:
        return start_game(args.game, args.deal, args.option, None)
    return start_game(args.game, args.deal, args.option, load, args.format, code=args.code)


def pick_winnable(args: argparse.Namespace) -> None:
    """``--winnable``: set ``args.deal`` to the first deal from ``--deal`` on (default 1) that the
    solver proves winnable, finding a win within :data:`WINNABLE_NODES` positions; an error after
    :data:`WINNABLE_TRIES` deals."""
    from decks.deals import MAX_DEAL
    from decks.session import find_solution, start

    if getattr(args, "load", None):
        raise IbmError("--winnable picks a deal; it cannot go with --load")
    first = args.deal if args.deal is not None else 1
    last = min(first + WINNABLE_TRIES - 1, MAX_DEAL)
    for number in range(first, last + 1):
        result = find_solution(start(args.game, number, args.option), WINNABLE_NODES)
        if result.won:
            print(f"{args.game} deal {number}: winnable (the solver won it in {len(result.moves)} moves)",
                  file=sys.stderr)
            args.deal, args.winnable = number, False
            return
    raise IbmError(f"{args.game}: no win found in deals {first}-{last} ({WINNABLE_NODES:,} positions a deal)")


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
            print(f"{args.output}: {cards(n)}, {state.game} deal {state.deal_number}", file=sys.stderr)
        return ExitStatus.OK
    if args.json:
        print(json.dumps(state.to_dict(), indent=2))
    else:
        print(layout(state, args.symbols))
    return ExitStatus.OK


def solve(args: argparse.Namespace) -> int:
    from decks import solver
    from decks.session import exact_search, find_solution
    from decks.solver.shorten import shorten

    state = get_state(args)
    seconds = SOLVE_SECONDS if args.seconds is None and args.max_nodes is None else args.seconds
    nodes = args.max_nodes or solver.NO_NODE_LIMIT
    exact = not args.generic and exact_search(state) is not None
    if args.json or not sys.stderr.isatty() or nodes < 4 * solver.PROGRESS_EVERY:
        result = find_solution(state, nodes, args.generic, seconds)
    else:                               # a long search on a terminal: positions or seconds, as a bar
        result = _solve_with_bar(state, nodes, args.generic, seconds)
    limits = [f"node limit {args.max_nodes}"] if args.max_nodes else []
    limits += [f"time limit {seconds:g} s"] if seconds is not None else []
    method = "exact search" if exact else ", ".join(["solver", *limits])
    found = len(result.moves)
    if result.won and not exact:
        result.moves = shorten(state, result.moves).moves
    if args.json:
        print(json.dumps({"game": state.game, "deal": state.deal_number, "status": result.status,
                          "won": result.won, "nodes": result.nodes, "method": method,
                          "timed_out": result.timed_out, "runs": result.runs, "unique": result.unique,
                          "dead": result.dead, "seconds": round(result.seconds, 3),
                          "found_moves": found, "searched": result.searched(),
                          "moves": [str(m) for m in result.moves], "best_home": result.best_home,
                          "cards": result.total, "best_moves": [str(m) for m in result.best_moves],
                          "pruned": result.pruned, "explanation": result.explain()}))
    elif result.won:
        print(result.notation())
        shortened = f", shortened from {found}" if found != len(result.moves) else ""
        print(f"# {result.explain()}{shortened} ({method})")
        if not exact:
            print(f"# {result.searched()}")
    else:
        pruned = result.pruned and result.status == solver.EXHAUSTED  # not a strict proof: say so
        status = "no solution in the tree searched" if pruned else result.status
        print(f"{status} ({method}, {result.nodes} node{'' if result.nodes == 1 else 's'} searched)")
        print(f"# {result.explain()}")
        print(f"# {result.searched()}")
    return ExitStatus.OK if result.won else ExitStatus.INCOMPLETE


def _solve_with_bar(state: engine.GameState, nodes: int, generic: bool, seconds: float | None) -> Any:
    """:func:`decks.session.find_solution` with a bar on the terminal: of positions under a node
    limit, else of seconds."""
    import time

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from decks import solver
    from decks.session import find_solution

    with Progress(TextColumn("searching"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        by_nodes = nodes < solver.NO_NODE_LIMIT
        task = bar.add_task("positions", total=nodes if by_nodes else seconds)
        start = time.monotonic()

        def advance(n: int) -> None:
            done = n if by_nodes else min(seconds or 0, round(time.monotonic() - start, 1))
            bar.update(task, completed=done)

        return find_solution(state, nodes, generic, seconds, progress=advance)


# ---------------------------------------------------------------------------------------------
# play


def play(args: argparse.Namespace) -> int:
    if args.winnable:
        pick_winnable(args)
    if args.stream:
        return play_streamed(args)
    from decks import engine
    from decks.session import Session, layout, read_script, save_deck, timed_script
    from emulator.formats import output_format
    from ibm1013.cli.plain import chosen, interactive

    session = Session(get_state(args), "cbn" if args.format == "auto" else args.format, args.symbols)
    session.hint_seconds = args.hint_seconds
    try:
        if args.moves:
            text = read_script(args.moves)  # its errors name the file
            try:
                script = timed_script(text)  # think times matter only when streamed
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
            from decks.stats import Stats, Tally

            tally = Tally(session, Stats.load(), on_error=lambda text: print(text, file=sys.stderr))
            interactive(session, offer_save=not args.save)
            tally.leave()
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
        print(f"saved {cards(n)} to {args.save}")
    if not engine.is_won(session.state):  # a win: the board's last line said "WON in N moves"
        print("not won")
    return ExitStatus.OK


def keep_interrupted_game(state: engine.GameState, unsaved: bool, save: str | None, fmt: str | None,
                          compact: bool = False) -> int:
    """Ctrl-C, SIGTERM or SIGHUP during a game: punch the game into a deck — the ``--save`` file,
    else ``GAME-DEAL.FORMAT`` here, never over a file that is there — and say in one line where it
    is and how to go on; exit status 130.  A game with nothing ``unsaved`` is not written again."""
    from decks import engine
    from decks.session import free_deck_path, save_deck
    from emulator.formats import output_format

    if not unsaved:
        why = "the game is won" if engine.is_won(state) else "no move was left unsaved"
        print(f"\nibm1013: interrupted; {why}", file=sys.stderr)
        return ExitStatus.INTERRUPTED
    path = save or free_deck_path(f"{state.game}-{state.deal_number}", output_format("", fmt))
    try:
        save_deck(state, path, output_format(path, fmt), compact_form=compact)
    except IbmError as err:
        print(f"\nibm1013: interrupted; the game could not be saved: {err}", file=sys.stderr)
        return ExitStatus.INTERRUPTED
    print(f"\nibm1013: interrupted; the game is saved in {path}: go on with "
          f"`ibm1013 play {state.game} --load {path}`", file=sys.stderr)
    return ExitStatus.INTERRUPTED

