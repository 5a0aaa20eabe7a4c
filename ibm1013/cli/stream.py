"""``ibm1013 play … --stream PORT``, ``ibm1013 watch PORT`` and ``ibm1013 simulate-play GAME``.

::

    ibm1013 line --link /tmp/a --link /tmp/b &
    ibm1013 watch /tmp/b --save seen.cbn &                      # terminal B: the game as played
    ibm1013 play klondike --deal 617 --stream /tmp/a            # terminal A: every move goes down
    ibm1013 simulate-play klondike --deal 617 --ber 1e-4 --json # both ends and the line in SimPy

The game goes as compact cards (:mod:`decks.compact`, :mod:`decks.stream`) over one open-ended STR
session (:mod:`ibm1013.str.stream`); see ``docs/streaming.md``.  A move script for ``--moves`` may give a
think time before a move: ``+2.5 t3 f`` (else ``--think`` seconds).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

from emulator.errors import ExitStatus, IbmError
from emulator.words import cards
from ibm1013.cli import argtypes, options

if TYPE_CHECKING:
    from decks import engine
    from decks.stream_sources import TypedSource
    from emulator.card import Card

DEFAULT_THINK_S = 1.0


# --------------------------------------------------------------------------------------------------
# options
# --------------------------------------------------------------------------------------------------
def _line_options(p: argparse.ArgumentParser | Any, *, keepalive: bool) -> None:
    options.BIT_RATE.add(p, default=1200)
    options.FAST.add(p, action="store_true")
    options.PROPAGATION.add(p, default=0.01)
    options.TIMEOUT.add(p, default=30.0,
                        note=None if keepalive else "make it longer than the player's --keepalive")
    if keepalive:
        options.KEEPALIVE.add(p, default=options.DEFAULT_KEEPALIVE_S)


def add_play_stream_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("streaming the game (ibm1013 watch at the far end)")
    g.add_argument("--stream", metavar="PORT", help="send every move down PORT as it is made")
    options.THINK.add(g, default=DEFAULT_THINK_S)
    g.add_argument("--stream-json", action="store_true", help="print the stream's report as JSON")
    _line_options(g, keepalive=True)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("watch", help="watch a game streamed from the far end of PORT, move by move",
                       description="Watch the game an `ibm1013 play --stream` sends down PORT.")
    p.add_argument("port", metavar="PORT", help="device, pty path or pyserial URL")
    options.SAVE.add(p, default=None)
    options.COMPACT.add(p, action="store_true")
    p.add_argument("--format", default=None, metavar="FORMAT", type=argtypes.deck_format,
                   help="deck format for --save (default: from the extension, else cbn)")
    p.add_argument("--resume", action="store_true",
                   help="continue after a cut: tell the player's end what this end holds")
    p.add_argument("--quiet", action="store_true", help="do not print the layout after each move")
    options.PLAIN.add(p, action="store_true")
    p.add_argument("--json", action="store_true", help="one JSON line per event, then the report")
    _line_options(p, keepalive=False)
    p.set_defaults(func=watch)

    p = sub.add_parser("simulate-play", help="a game streamed over the simulated line",
                       description="A player (the solver or a move list) at A, the SimPy line, a "
                                   "watcher at B; per-move latency and line figures.")
    p.add_argument("game", metavar="GAME", type=argtypes.game, help="a game name (see 'ibm1013 games')")
    options.DEAL.add(p, default=1)
    p.add_argument("--option", action="append", default=[], metavar="K=V",
                   help="a game option (give it again for more; 'ibm1013 games' lists them)")
    p.add_argument("--moves", metavar="FILE", help="the player's moves (default: the solver's)")
    p.add_argument("--max-moves", type=argtypes.COUNT, default=100, help="at most this many moves")
    options.THINK.add(p, default=DEFAULT_THINK_S)
    options.BIT_RATE.add(p, default=1200)
    options.BER.add(p, default=0.0)
    options.SEED.add(p, default=0)
    options.KEEPALIVE.add(p, default=options.DEFAULT_KEEPALIVE_S)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=simulate_play)


# --------------------------------------------------------------------------------------------------
# play --stream
# --------------------------------------------------------------------------------------------------
def _endpoint(args: argparse.Namespace) -> Any:
    from ibm1013.line.endpoint import EndpointConfig
    from ibm1013.str.config import SessionConfig
    from ibm1013.str.layout import ColumnLayout
    from ibm1013.str.stream import KEEPALIVE_S

    if args.bit_rate <= 0:
        raise IbmError(f"--bit-rate must be positive, not {args.bit_rate}")
    session = SessionConfig(bit_rate=args.bit_rate, columns=ColumnLayout.parse("auto"))
    keepalive = getattr(args, "keepalive", None) or KEEPALIVE_S
    if hasattr(args, "keepalive") and keepalive >= args.timeout:
        raise IbmError(f"--keepalive ({keepalive:g} s) must be shorter than --timeout ({args.timeout:g} s)")
    return EndpointConfig(session=session, paced=not args.fast, propagation_s=args.propagation,
                          timeout_s=args.timeout, resume=getattr(args, "resume", False)), keepalive


def _open(port: str) -> Any:
    from emulator.serial import Link

    return Link.open(port)


def play_streamed(args: argparse.Namespace) -> int:
    """``play … --stream PORT``: play (or run ``--moves``) with every change sent as it is made."""
    from decks import engine
    from decks.session import layout, save_deck
    from decks.stats import Stats
    from decks.stream import GameFeed
    from decks.stream_sources import ScriptSource, TypedSource, play_commands
    from emulator.formats import output_format
    from emulator.words import counted
    from ibm1013.cli.deckfiles import start_game
    from ibm1013.cli.plain import chosen
    from ibm1013.line.stream import stream_cards

    config, keepalive = _endpoint(args)
    state = start_game(args.game, args.deal, args.option, args.load, args.format, code=args.code)
    feed = GameFeed(state)
    source: ScriptSource | TypedSource
    if args.moves:
        from decks.session import read_script, timed_script

        text = read_script(args.moves)  # its errors name the file
        try:
            steps = play_commands(state, timed_script(text, args.think))
        except IbmError as err:
            raise IbmError(f"{args.moves}: {err}") from None
        link = _open(args.stream)
        source = ScriptSource(feed, steps)
    else:
        link = _open(args.stream)
        source = TypedSource(feed, args.symbols)
    full_screen = isinstance(source, TypedSource) and not chosen(args.plain)
    stats = Stats.load() if isinstance(source, TypedSource) else None  # a script is no game played

    def send(monitor: Any = None) -> Any:
        return stream_cards(link, feed.cards, source, config, keepalive_s=keepalive,
                            on_delivered=source.begin, monitor=monitor,
                            on_waiting=_waiting(args, config, monitor and monitor.say))

    try:
        if full_screen and isinstance(source, TypedSource):  # (full_screen says it is one)
            from ibm1013.tui.play import stream_full_screen

            figures = stream_full_screen(source, link.name, send, args.save, stats)
        else:
            if isinstance(source, TypedSource):
                _play_plain(source, stats)
            figures = send()
    except IbmError as err:  # the stream gave up (or was refused): the game is the player's
        raise IbmError(f"{err}; {_keep(args, feed.state)}") from None
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP: one line, what is kept, status 130

        print(f"ibm1013: interrupted; {_keep(args, feed.state)}", file=sys.stderr)
        return ExitStatus.INTERRUPTED
    finally:
        link.close()
    deck = len(feed.cards)
    if args.moves:
        print(layout(feed.state, args.symbols))
    if args.save:
        n = save_deck(feed.state, args.save, output_format(args.save, args.format),
                      compact_form=args.compact)
        print(f"saved {cards(n)} to {args.save}")
    report = {"game": feed.state.game, "deal": feed.state.deal_number, "deck_cards": deck,
              "events": feed.events, "cards_confirmed": figures.cards, "sessions": figures.sessions,
              "retransmissions": figures.retransmissions, "keepalives": figures.keepalives,
              "made_at": {str(n): t for n, t in source.made.items()}}
    if args.stream_json:
        print(json.dumps(report))
    else:
        print(f"streamed {counted(feed.events, 'event')} after a {deck}-card deck; every card "
              f"confirmed ({counted(figures.retransmissions, 'retransmission')}, "
              f"{counted(figures.sessions, 'session')})")
    if not engine.is_won(feed.state):  # a win: the board's last line said "WON in N moves"
        print("not won")
    return ExitStatus.OK


def _play_plain(source: TypedSource, stats: Any) -> None:
    """Play at the plain prompt in a thread of its own; the game counted in ``stats`` and the
    ``end`` card once the player stops."""
    from decks.stats import Tally
    from ibm1013.cli.plain import interactive

    tally = Tally(source.session, stats, on_error=lambda text: print(text, file=sys.stderr))

    def play() -> None:
        interactive(source.session, offer_save=False)
        tally.leave()
        source.finish()

    threading.Thread(target=play, daemon=True).start()


def _waiting(args: argparse.Namespace, config: Any, say: Any = None) -> Any:
    """What the player hears while no watcher answers: once that play goes on, once that the end
    waits for the watcher (printed, or ``say(text)``: the line pane of the full-screen board)."""
    said: set[bool] = set()
    say = say or (lambda text: print(text, flush=True))

    def on_waiting(stats: Any, finished: bool) -> None:
        if finished in said:
            return
        said.add(finished)
        what = "the line broke" if stats.sessions else f"no watcher on {args.stream} yet"
        if finished:
            say(f"{what}; the game is over here: waiting up to {config.timeout_s:g} s more for the "
                "watcher to take it (then the game is saved)")
        else:
            say(f"{what}: play on, the watcher catches up on every move when it answers")

    return on_waiting


def _keep(args: argparse.Namespace, state: engine.GameState) -> str:
    """Save the game the stream could not deliver, and say where and how to go on."""
    from decks.session import free_deck_path, save_deck
    from emulator.formats import output_format

    path = args.save or free_deck_path(f"{state.game}-{state.deal_number}", output_format("", args.format))
    try:
        save_deck(state, path, output_format(path, args.format), compact_form=args.compact)
    except IbmError as err:
        return f"the game could not be saved ({err})"
    return (f"the game is saved in {path}: carry on with `ibm1013 play {state.game} --load {path} "
            f"--stream {args.stream}` (and `ibm1013 watch PORT --resume` at the far end)")


# --------------------------------------------------------------------------------------------------
# watch
# --------------------------------------------------------------------------------------------------
def watch(args: argparse.Namespace) -> int:
    from ibm1013.cli.plain import chosen

    config, _ = _endpoint(args)
    link = _open(args.port)
    try:
        if args.json or args.quiet or chosen(args.plain):
            watcher, journal = _watch(args, link, config)
        else:
            from ibm1013.tui.watch import watch_full_screen

            watcher, journal = watch_full_screen(link.name, lambda view: _watch(args, link, config, view))
    finally:
        link.close()
    return _watched(args, watcher, journal)


def _watch(args: argparse.Namespace, link: Any, config: Any, view: Any = None) -> tuple[Any, Any]:
    """Watch the stream until its end; returns the :class:`~decks.stream.Watcher` and the journal.
    ``view`` (the full-screen watcher, :mod:`ibm1013.tui.watch`) sees every card and the line, and
    may stop it."""
    from decks.session import layout
    from decks.stream import Diverged, Watcher
    from ibm1013.line.journal import Journal
    from ibm1013.line.stream import Refused, watch_cards

    journal = Journal.open(args.save or "watch.deck", resume=args.resume)
    watcher = Watcher()

    def on_card(number: int, card: Card, now: float) -> None:
        try:
            event = watcher.take(number, card)
        except Diverged as err:
            raise Refused(f"{err}; the stream is ended") from None
        if watcher.restarted:  # the stream starts over at this deck: so does the journal
            journal.start_over(watcher.deck[:-1])  # (this card is appended once we return)
        if view is not None:
            view.card(number, card, event, watcher.state, now)
        if watcher.state is None or watcher.next is not None:  # a game deck still coming in
            return
        what = event.describe() if event else "restart" if watcher.restarted else "deal"
        if args.json:
            print(json.dumps({"event": watcher.events, "what": what, "card": number,
                              "shown_at": time.monotonic()}), flush=True)
        elif not args.quiet and view is None:
            said = {"deal": "the game", "restart": "the player restarted: the game from "
                    f"its saved deck, move {len(watcher.state.history)}"}
            print(f"{said.get(what, f'event {watcher.events}: {what}')}\n{layout(watcher.state)}",
                  flush=True)

    try:
        for n, card in enumerate(journal.cards(), 1):
            watcher.take(n, card)
        watcher.drop_partial_restart()  # a restarted player sends its deck again from its first card
        ended = watch_cards(link, journal, on_card, config, monitor=view and view.monitor,
                            stop=view and view.stop)
        if not watcher.finished:
            raise IbmError(f"the stream stopped ({ended.message}; {ended.outcome})")
    except (IbmError, KeyboardInterrupt) as err:  # KeyboardInterrupt: Ctrl-C, SIGTERM or SIGHUP
        from ibm1013.line.endpoint import Interrupted

        journal.close_or_discard()
        held = "no card had arrived" if journal.count == 0 else (
            f"{watcher.events} events held, {cards(journal.count)} safe in {journal.path}: run watch "
            "again with --resume, for this player or one restarted with play --load DECK --stream")
        if isinstance(err, KeyboardInterrupt):
            raise Interrupted(f"interrupted ({held})") from None
        raise IbmError(f"{err} ({held})") from None
    return watcher, journal


def _watched(args: argparse.Namespace, watcher: Any, journal: Any) -> int:
    """The end of a watch: the deck saved if asked, then the journal gone, the last line said."""
    from decks import engine
    from decks.session import save_deck
    from decks.stream import ending
    from emulator.formats import output_format

    assert watcher.state is not None
    if args.save:
        n = save_deck(watcher.state, args.save, output_format(args.save, args.format),
                      compact_form=args.compact)
        print(f"saved {cards(n)} to {args.save}", file=sys.stderr)
    journal.close()
    os.unlink(journal.path)
    won = engine.is_won(watcher.state)
    if args.json:
        print(json.dumps({"events": watcher.events, "won": won, "game": watcher.state.to_dict()}))
    else:
        print(ending(watcher.events, watcher.state))
    return ExitStatus.OK


# --------------------------------------------------------------------------------------------------
# simulate-play
# --------------------------------------------------------------------------------------------------
def simulate_play(args: argparse.Namespace) -> int:
    from decks import engine
    from decks.session import find_solution, parse_options
    from decks.stream import GameFeed, Watcher
    from decks.stream_sources import play_commands
    from ibm1013.sim.stream import simulate_stream
    from ibm1013.sim.transfer import TransferConfig
    from ibm1013.str.stream import KEEPALIVE_S

    if not 0.0 <= args.ber <= 1.0:
        raise IbmError(f"--ber must be between 0 and 1, not {args.ber}")
    if args.max_moves < 1:
        raise IbmError("--max-moves must be at least 1")
    state = engine.deal(engine.get_game(args.game).name, args.deal, parse_options(args.option))
    if args.moves:
        try:
            from decks.session import read_script, timed_script

            steps = play_commands(state, timed_script(read_script(args.moves), args.think)[: args.max_moves])
        except IbmError as err:
            raise IbmError(f"{args.moves}: {err}") from None
    else:
        result = find_solution(state, 20_000)
        moves = result.moves or _greedy(state, args.max_moves)
        chosen = moves[: args.max_moves]
        steps = play_commands(state, [(i, args.think, str(m)) for i, m in enumerate(chosen, 1)])
    feed, watcher = GameFeed(state), Watcher()

    def maker(new: engine.GameState, command: str) -> Any:
        return lambda: feed.change(feed.state, new, command)

    timed: list[tuple[float, Any]] = [(at + 2.0, maker(new, cmd)) for at, new, cmd in steps]
    last = (steps[-1][0] if steps else 0.0) + 2.0 + args.think
    timed.append((last, lambda: [feed.event("end", feed.state)]))
    config = TransferConfig.build(bit_rate=args.bit_rate, columns="auto", ber=args.ber, seed=args.seed)
    config.validate()

    def on_card(number: int, card: Card, _now: float) -> None:
        watcher.take(number, card)

    run = simulate_stream(feed.cards, timed, config, keepalive_s=args.keepalive or KEEPALIVE_S,
                          on_card=on_card)
    deck = len(feed.cards)
    last = max(run.made)  # the end card: not a move
    lat = sorted(run.accepted[n] - run.made[n] for n in run.made if deck < n < last and n in run.accepted)
    ok = watcher.finished and watcher.state is not None and watcher.state.to_dict() == feed.state.to_dict()
    report = {
        "game": state.game, "deal": state.deal_number, "bit_rate": args.bit_rate, "ber": args.ber,
        "moves": feed.events - 1, "deck_cards": deck, "cards_sent": len(run.accepted),
        "records_sent": run.records_sent, "retransmissions": run.retransmissions,
        "keepalives": run.keepalives, "failed_cards": run.failed,
        "latency_s": _percentiles(lat), "mirrored": ok,
        "ended": {k: v.outcome for k, v in run.ended.items()}, "simulated_seconds": round(run.seconds, 3),
    }
    if args.json:
        print(json.dumps(report))
    else:
        p = report["latency_s"]
        print(f"{state.game} deal {state.deal_number}: {report['moves']} moves streamed at "
              f"{args.bit_rate} bit/s, BER {args.ber:g}")
        print(f"latency move made at A -> shown at B: p50 {p['p50']:.3f} s, p99 {p['p99']:.3f} s, "
              f"max {p['max']:.3f} s")
        print(f"cards sent {report['cards_sent']} (deck {deck}), records {run.records_sent}, "
              f"retransmissions {run.retransmissions}, keepalive bids {run.keepalives}")
        print("B mirrors A exactly" if ok else "B does NOT mirror A")
    return ExitStatus.OK if ok else ExitStatus.INCOMPLETE


def _greedy(state: engine.GameState, limit: int) -> list[engine.Move]:
    from decks import engine, solver

    moves, s = [], state
    for _ in range(limit):
        move = solver.hint(s, 1)
        if move is None:
            break
        moves.append(move)
        s = engine.apply(s, move)
    return moves


def _percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50": 0.0, "p99": 0.0, "max": 0.0, "count": 0}

    def pick(q: float) -> float:
        return round(values[min(len(values) - 1, math.ceil(q * len(values)) - 1)], 4)

    return {"p50": pick(0.5), "p99": pick(0.99), "max": round(values[-1], 4), "count": len(values)}
