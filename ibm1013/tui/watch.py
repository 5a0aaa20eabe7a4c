"""The watcher's screen: ``ibm1013 watch PORT`` on a terminal.

The game as the stream rebuilds it (:class:`~decks.stream.Watcher`), drawn on the same board as the
player's, and beside it the line (:mod:`ibm1013.tui.line`).  The line's loop runs in a thread of
its own (:class:`~ibm1013.tui.line.Beside`); each card it takes is handed to the screen without
waiting, and the delay from the card's arrival to the board redrawn with it is what the pane
reports as each move's latency.  ``q`` leaves (mid-stream, the player's end is told); ``l`` shows
the game's rules.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Static

from decks import board, engine
from decks.stream import Event, ending
from emulator.card import Card
from ibm1013.tui.line import Beside, LineMonitor, LinePane
from ibm1013.tui.play import BoardView, TextScreen

Result = TypeVar("Result")


class WatchApp(App[None]):
    """The streamed game and the line.  The line's thread calls :meth:`card` (any thread)."""

    TITLE = "ibm1013 watch"
    AUTO_FOCUS = None
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #status { height: auto; padding: 0 1; }
    #game { width: 1fr; padding: 0 1; }
    """
    BINDINGS = [Binding("l", "rules", "Rules"), Binding("q", "quit_watch", "Quit")]

    def __init__(self, port: str) -> None:
        super().__init__()
        self.pane = LinePane(f"the line: {port}")
        self.monitor = LineMonitor(self.pane, sending=False)
        self.stop = threading.Event()
        self.state: engine.GameState | None = None
        self.ended = False
        self.shown_at: list[tuple[float, float]] = []
        """(arrival, on screen) of every card that changed the board (the watcher's delay)."""

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="game"):
                yield Static(Text("waiting for the game deck …"), id="status")
                yield BoardView(engine.deal("klondike", 1), id="board", classes="empty")
            yield self.pane
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(BoardView).display = False
        self.pane.say("waiting for the player's end")

    # -- from the line's thread ---------------------------------------------------------------------
    def card(self, number: int, card: Card, event: Event | None, state: engine.GameState | None,
             arrived: float) -> None:
        """Card ``number`` was taken (``event``: what it carried; ``state``: the game after it)."""
        self.monitor.post(self._show, number, card, event, state, arrived)

    # -- on the screen's thread -----------------------------------------------------------------
    def _show(self, number: int, card: Card, event: Event | None, state: engine.GameState | None,
              arrived: float) -> None:
        what = f"event {event.number}: {event.describe()}" if event else "the game deck"
        self.pane.card(number, card, what)
        if state is None:
            self.pane.say(f"the game deck is coming: card {number}")
            return
        self.state = state
        view = self.query_one(BoardView)
        view.display = True
        view.show(state)
        title = f"{engine.rules_of(state).title}, deal {state.deal_number}, move {len(state.history)}"
        status = Text(f"{title} — {board.status_line(state)}\n", style="bold")
        if event is not None and event.kind == "end":  # the game is over: say how, not "watching"
            self.ended = True
            self.pane.say("the player ended the game: q leaves")
            status.append(f"{ending(event.number, state)} — q leaves", style="bold")
        else:
            self.pane.say(f"last: {what}")
            status.append(f"watching: {what}")
        self.query_one("#status", Static).update(status)
        self.call_after_refresh(self._on_screen, arrived)

    def _on_screen(self, arrived: float) -> None:
        now = time.monotonic()
        self.shown_at.append((arrived, now))
        self.pane.latencies.append(now - arrived)
        self.pane.figures()

    def action_rules(self) -> None:
        if self.state is not None:
            self.push_screen(TextScreen(engine.rules_of(self.state).title, board.game_rules(self.state.game)))

    def action_quit_watch(self) -> None:
        self.stop.set()
        self.exit()


def watch_full_screen(port: str, work: Callable[[WatchApp], Result]) -> Result:
    """Run ``work(view)`` (the watcher's loop, fed to the screen) beside the watch screen."""
    app = WatchApp(port)
    return Beside(app, app.pane, lambda: work(app), on_exit=app.stop.set).run()
