"""The line beside the game: the full-screen watcher and ``play --stream``, driven headless by
Textual's pilot over a real ``ibm1013 line``; the boards are checked against the engine's, the
pane's counts against what crossed the line."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from decks import engine
from decks.stream import GameFeed
from emulator.serial import Link
from ibm1013.cli.main import build_parser
from ibm1013.cli.stream import TypedSource, _endpoint, _watch
from ibm1013.line.stream import stream_cards
from ibm1013.tui.line import LineMonitor
from ibm1013.tui.play import stream_app
from ibm1013.tui.watch import WatchApp
from tests.processes import finish, start
from tests.test_cli_serial import VirtualLineProcess
from tests.test_stream_cli import final_state, script

pytestmark = pytest.mark.timeout(240)
SIZE = (140, 45)
FAST = ("--fast", "--timeout", "30")  # long: the watcher shares its process with the screen
PLAYER = (*FAST, "--keepalive", "1")


async def until(pilot, done, limit: float = 90) -> None:
    """Let the app run until ``done()`` (the line's thread has finished)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not done():
        assert loop.time() < deadline, "the line did not finish"
        await pilot.pause(0.05)


def player_end(port: str, *options: str):
    """The player's end of ``play spiderette --deal 5 --stream PORT OPTIONS`` on the full-screen
    board: its parsed arguments, endpoint settings, keepalive, open link, feed, source, app and pane."""
    args = build_parser().parse_args(["play", "spiderette", "--deal", "5", "--stream", port, *options])
    config, keepalive = _endpoint(args)
    link = Link.open(port)
    feed = GameFeed(engine.deal("spiderette", 5))
    source = TypedSource(feed, False)
    app, pane = stream_app(source, port)
    return args, config, keepalive, link, feed, source, app, pane


def test_the_watcher_shows_the_game_and_the_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        args = build_parser().parse_args(["watch", line.b, *FAST])
        config, _ = _endpoint(args)
        link = Link.open(line.b)
        app = WatchApp(line.b)
        out: dict = {}

        def work() -> None:
            app.pane.ready.wait(30)
            out["mirror"], out["journal"] = _watch(args, link, config, app)

        async def go():
            async with app.run_test(size=SIZE) as pilot:
                thread = threading.Thread(target=work, daemon=True)
                thread.start()
                player = start("play", "klondike", "--deal", "617", "--stream", line.a,
                               "--moves", script(tmp_path), "--think", "0.2", *PLAYER)
                await until(pilot, lambda: not thread.is_alive())
                await pilot.pause()
                out["player"] = finish(player, 60)
                return app.state, app.pane, app.shown_at
        state, pane, shown = asyncio.run(go())
        link.close()
    finally:
        line.stop()
    code, _, err = out["player"]
    assert code == 0, err
    assert state.to_dict() == final_state().to_dict() == out["mirror"].state.to_dict()
    events = out["mirror"].events
    deck = len(out["mirror"].deck)
    assert pane.cards == deck + events  # every card accepted (not the watcher's own resume record)
    assert pane.acks >= pane.cards and pane.records >= pane.cards  # each record answered
    assert len(shown) == events + 1 and all(seen >= came for came, seen in shown)  # deck + events
    assert pane.shown[0][2] == f"event {events}: end"


def test_play_stream_shows_the_line_beside_the_board(tmp_path):
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        watcher = start("watch", line.b, "--json", *FAST, cwd=str(tmp_path))
        args, config, keepalive, link, feed, source, app, pane = player_end(line.a, *PLAYER)
        out: dict = {}

        def work() -> None:
            pane.ready.wait(30)
            out["stats"] = stream_cards(link, feed.cards, source, config, keepalive_s=keepalive,
                                        on_delivered=source.begin, monitor=LineMonitor(pane, sending=True))

        async def go():
            async with app.run_test(size=SIZE) as pilot:
                thread = threading.Thread(target=work, daemon=True)
                thread.start()
                await until(pilot, lambda: pane.cards >= len(feed.cards))  # the deck is through
                await pilot.press("s", "enter", "u", "y")
                await until(pilot, lambda: pane.cards >= len(feed.cards) + 3)
                await pilot.press("q")
                source.finish()
                await until(pilot, lambda: not thread.is_alive())
                return source.session.state
        state = asyncio.run(go())
        link.close()
        code, wout, werr = finish(watcher, 60)
    finally:
        line.stop()
    assert code == 0, werr
    assert [json.loads(x)["what"] for x in wout.splitlines()[:-1]] == ["deal", "s", "undo", "redo", "end"]
    assert json.loads(wout.splitlines()[-1])["game"] == state.to_dict()
    assert out["stats"].cards == pane.cards == len(feed.cards) + 4
    assert len(pane.latencies) == 4 and all(0 < t < 30 for t in pane.latencies)  # 3 moves + the end
    assert pane.shown[0][2] == "event 4: end"


def test_play_stream_without_a_watcher_says_so_in_the_pane():
    from ibm1013.cli.stream import _waiting
    from ibm1013.line.endpoint import TransferError

    line = VirtualLineProcess("--bit-rate", "0")
    try:
        args, config, keepalive, link, feed, source, app, pane = player_end(
            line.a, "--fast", "--timeout", "3", "--keepalive", "1")
        out: dict = {}

        def work() -> None:
            pane.ready.wait(30)
            monitor = LineMonitor(pane, sending=True)
            try:
                stream_cards(link, feed.cards, source, config, keepalive_s=keepalive,
                             on_delivered=source.begin, monitor=monitor,
                             on_waiting=_waiting(args, config, monitor.say))
            except TransferError as err:
                out["error"] = str(err)

        async def go():
            async with app.run_test(size=SIZE) as pilot:
                thread = threading.Thread(target=work, daemon=True)
                thread.start()
                await until(pilot, lambda: "no watcher" in pane.note)
                seen = pane.note
                await pilot.press("s", "enter")  # play goes on meanwhile
                source.finish()
                await until(pilot, lambda: not thread.is_alive())
                return seen, source.session.state
        seen, state = asyncio.run(go())
        link.close()
    finally:
        line.stop()
    assert f"no watcher on {line.a} yet: play on" in seen
    assert len(state.history) == 1 and "error" in out
