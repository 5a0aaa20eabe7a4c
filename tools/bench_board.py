"""How fast the full-screen board answers (``python -m tools.bench_board``).

Two figures of issue 26:

* **input -> redraw for a move.**  Textual's pilot drives :class:`ibm1013.tui.play.PlayApp` headless
  at a terminal size: a card is clicked, then (timed from here) its target, until the screen has
  been composed again with the move made (``call_after_refresh``); then the move is undone (timed the
  same way, key ``u``).  Klondike, and Parallels — the largest two-pack layout (109 piles) — at
  80×24 and 160×50.  Side by side, interleaved, the baseline: the plain interface's work for the
  same move (the session's command and the whole board printed through rich to a terminal-like
  console), which is what ``play --plain`` does after each move.
* **the watcher's delay** from a card's arrival (the STR core accepted it) to the board redrawn with
  it on screen: :class:`ibm1013.tui.watch.WatchApp` headless, fed by a real ``ibm1013 play
  --stream --moves`` over a real ``ibm1013 line`` (``--fast``).

Headless means the screen's updates are composed and written to Textual's headless driver, not to
a terminal emulator: what a terminal then takes to paint them is not included.  p50 and p99 of
``--moves`` timed moves each.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

from rich.console import Console
from textual._time import get_time  # the clock Textual stamps its events with

from decks import board, engine
from decks.session import Session
from ibm1013.tui.play import PlayApp


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.5) - 1))] if ordered else 0.0


def movable(state: engine.GameState, rng: random.Random) -> engine.Move | None:
    transfers = [m for m in engine.legal_moves(state) if m.kind == "move"]
    return rng.choice(transfers) if transfers else None


async def board_times(game: str, deal: int, size: tuple[int, int], moves: int, seed: int
                      ) -> tuple[list[float], list[float], list[float]]:
    """(move, undo, plain) seconds for ``moves`` random legal transfers and their undos."""
    rng = random.Random(seed)
    session = Session(engine.deal(game, deal))
    app = PlayApp(session)
    plain = Console(file=io.StringIO(), force_terminal=True, width=size[0], color_system="truecolor")
    move_s: list[float] = []
    undo_s: list[float] = []
    plain_s: list[float] = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for _ in range(moves):
            move = movable(session.state, rng)
            if move is None:
                session.new_deal()
                app.show()
                await pilot.pause()
                continue
            drawn = app.board.current()
            src, dst = drawn.anchor(move.src), drawn.anchor(move.dst)
            await pilot.click("#board", offset=(src.x + 1, src.y))
            await pilot.pause()
            for key, sink in (("click", move_s), ("u", undo_s)):
                done = asyncio.Event()
                redrawn: list[float] = []

                def stamp(redrawn: list[float] = redrawn, done: asyncio.Event = done) -> None:
                    redrawn.append(get_time())
                    done.set()

                app.redraws.append(stamp)
                if key == "click":
                    await pilot.click("#board", offset=(dst.x + 1, dst.y))
                else:
                    await pilot.press("u")
                await asyncio.wait_for(done.wait(), 30)
                # from the input event's making to the screen composed with the move
                sink.append(redrawn[0] - app.board.input_at)
            # the baseline: what the plain prompt does for the same move
            t0 = time.perf_counter()
            Session(session.state).run(str(move))
            plain.print(board.board(engine.apply(session.state, move)))
            plain_s.append(time.perf_counter() - t0)
            session.run(str(move))  # play on from the moved position
            app.show()
            await pilot.pause()
    return move_s, undo_s, plain_s


async def watcher_delays(moves: int, think: float) -> list[float]:
    """Seconds from each card's arrival to the watcher's board redrawn with it."""
    from emulator.serial import Link
    from ibm1013.cli.main import build_parser
    from ibm1013.cli.stream import _endpoint, _watch
    from ibm1013.tui.watch import WatchApp

    line = subprocess.Popen([sys.executable, "-m", "ibm1013", "line", "--json", "--bit-rate", "0"],
                            stdout=subprocess.PIPE, text=True)
    try:
        ends = json.loads(line.stdout.readline())
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "moves.txt")
            state, lines = engine.deal("klondike", 617), []
            for _ in range(moves):
                move = movable(state, random.Random(len(lines))) or engine.parse_move("s")
                state = engine.apply(state, move)
                lines.append(str(move))
            with open(script, "w") as out:
                out.write("\n".join(lines) + "\n")
            args = build_parser().parse_args(["watch", ends["b"], "--fast", "--timeout", "20",
                                              "--save", os.path.join(tmp, "seen.cbn")])
            config, _ = _endpoint(args)
            link = Link.open(ends["b"])
            app = WatchApp(ends["b"])
            def work() -> None:
                app.pane.ready.wait(30)
                _watch(args, link, config, app)

            thread = threading.Thread(target=work, daemon=True)
            async with app.run_test(size=(140, 45)) as pilot:
                thread.start()
                player = subprocess.Popen(
                    [sys.executable, "-m", "ibm1013", "play", "klondike", "--deal", "617", "--stream",
                     ends["a"], "--moves", script, "--think", str(think), "--fast", "--timeout", "20"],
                    stdout=subprocess.DEVNULL)
                while thread.is_alive():
                    await pilot.pause(0.05)
                await pilot.pause()
                player.wait(60)
            link.close()
    finally:
        line.terminate()
        line.wait(10)
    return [seen - came for came, seen in app.shown_at]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=100, help="timed moves per layout")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.5,
                        help="the streamed player's seconds between moves")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for game, size in (("klondike", (80, 24)), ("parallels", (80, 24)), ("parallels", (160, 50))):
        move_s, undo_s, plain_s = asyncio.run(board_times(game, 1, size, args.moves, args.seed))
        rows.append({"game": game, "size": f"{size[0]}x{size[1]}", "moves": len(move_s),
                     "move_p50_ms": 1000 * pct(move_s, 0.5), "move_p99_ms": 1000 * pct(move_s, 0.99),
                     "undo_p50_ms": 1000 * pct(undo_s, 0.5), "undo_p99_ms": 1000 * pct(undo_s, 0.99),
                     "plain_p50_ms": 1000 * pct(plain_s, 0.5), "plain_p99_ms": 1000 * pct(plain_s, 0.99)})
    delays = asyncio.run(watcher_delays(max(10, args.moves // 4), args.think))
    watch = {"cards": len(delays), "p50_ms": 1000 * pct(delays, 0.5), "p99_ms": 1000 * pct(delays, 0.99),
             "max_ms": 1000 * max(delays, default=0.0)}
    if args.json:
        print(json.dumps({"board": rows, "watcher": watch}))
        return 0
    print(f"{'layout':<22}{'moves':>6}  {'move p50/p99 ms':>16}  {'undo p50/p99 ms':>16}  "
          f"{'plain p50/p99 ms':>17}  board/plain p50")
    for r in rows:
        print(f"{r['game'] + ' ' + r['size']:<22}{r['moves']:>6}  "
              f"{r['move_p50_ms']:>7.1f} /{r['move_p99_ms']:>7.1f}  "
              f"{r['undo_p50_ms']:>7.1f} /{r['undo_p99_ms']:>7.1f}  "
              f"{r['plain_p50_ms']:>8.1f} /{r['plain_p99_ms']:>7.1f}  "
              f"{r['move_p50_ms'] / r['plain_p50_ms']:>6.2f}")
    print(f"watcher: card arrival -> on screen over {watch['cards']} cards: p50 {watch['p50_ms']:.1f} ms, "
          f"p99 {watch['p99_ms']:.1f} ms, max {watch['max_ms']:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
