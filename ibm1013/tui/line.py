"""The line beside the game: the cards as they cross, the STR exchange, cards/min and latencies.

The 1013 sends a game as cards, one record each: ``TL SOR1``/``SOR2``, the columns, ``TL`` and
the LRC character; the far end answers ``CL ACK1``/``ACK2`` (taken) or ``CL ERR`` (send it again).
:class:`LineMonitor` is a :class:`~ibm1013.line.trace.Trace` on the station's thread; it hands what
it sees to the screen's thread without waiting (``call_soon_threadsafe``), where :class:`LinePane`
shows it:

* the figures — cards through, cards per minute, records, ACKs, ERRs, retransmissions, and the
  latency of each move (at the player's end from the move made to its ACK; at the watcher's from
  the card's arrival to its appearance on screen);
* the last cards, each as a small punched-card picture (:func:`emulator.render.card_braille`)
  with its text (what the event was, and the columns as a keypunch would print them);
* the exchange itself, one line per sequence (idle fill left out), ERRs and retransmissions lit.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Generic, TypeVar, TypeVarTuple, Unpack

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import RichLog, Static

from emulator.card import Card
from emulator.errors import IbmError
from emulator.render import card_braille
from ibm1013.line.trace import LineDecoder, Trace, render
from ibm1013.str.events import CardAccepted, CardDelivered, CardFailed, Event, Send
from ibm1013.str.receiver import Receiver
from ibm1013.str.transmitter import Transmitter

Args = TypeVarTuple("Args")
Result = TypeVar("Result")

CARDS_SHOWN = 3
"""Cards pictured in the pane (the newest first)."""
FIGURES_S = 0.25
"""How often the figures are redrawn while they change."""


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


class LineMonitor(Trace):
    """Passes what a station sees to ``pane`` on its app's event loop (never blocking the line).
    ``sending``: this is the player's end, whose cards count once the far end confirms them (the
    watcher's count as it accepts them); the one-card resume record the watcher sends before the
    stream is not a card of the game, and is not counted at either end."""

    def __init__(self, pane: LinePane, sending: bool) -> None:
        self.pane = pane
        self.sending = sending
        self.incoming = LineDecoder()

    def post(self, method: Callable[[Unpack[Args]], None], *args: *Args) -> None:
        """Call ``method(*args)`` on the screen's thread, soon; never waits."""
        loop = self.pane.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(method, *args)

    def say(self, text: str) -> None:
        """A line about the stream for the pane (from any thread)."""
        self.post(self.pane.say, text)

    def sent(self, now: float, start: float, end: float, send: Send) -> None:
        self.post(self.pane.exchange, "out", render(send.data), send.card, send.attempt)

    def received(self, now: float, data: bytes, machine: Transmitter | Receiver) -> None:
        for token in self.incoming.feed(data):
            self.post(self.pane.exchange, "in", token.text(), None, 0)

    def event(self, now: float, event: Event) -> None:
        if isinstance(event, CardDelivered) and self.sending:
            self.post(self.pane.delivered, event.number, now)
        elif isinstance(event, CardAccepted) and not self.sending:
            self.post(self.pane.counted, now)
        elif isinstance(event, CardFailed):
            self.post(self.pane.exchange, "!", f"card {event.number} given up: {event.reason}", None, 0)


class LinePane(Vertical):
    """The pane: figures, the last cards pictured, the STR exchange."""

    DEFAULT_CSS = """
    LinePane { width: 46; border-left: solid $accent; padding: 0 1; }
    LinePane #figures { height: 6; }
    LinePane #cards { height: auto; max-height: 16; }
    LinePane RichLog { height: 1fr; }
    """

    def __init__(self, title: str, *, name: str | None = None, id: str | None = None,  # noqa: A002
                 classes: str | None = None, disabled: bool = False) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.title_text = title
        self.loop: asyncio.AbstractEventLoop | None = None
        self.first: float | None = None
        self.cards = 0
        self.records = self.acks = self.errs = self.retransmissions = 0
        self.latencies: list[float] = []
        """Per move: made -> ACK (the player's end) or arrival -> on screen (the watcher's)."""
        self.made_at: Callable[[int], float | None] = lambda number: None
        """When the move on card ``number`` was made (the player's end)."""
        self.card_of: Callable[[int], tuple[Card, str] | None] = lambda number: None
        """The card ``number`` and what it carries, at the sending end (to picture it once sent)."""
        self.ready = threading.Event()
        """Set once the pane is on screen: the line's thread may start."""
        self.shown: deque[tuple[int, Card, str]] = deque(maxlen=CARDS_SHOWN)
        self.note = ""
        self.stale = False

    def compose(self) -> ComposeResult:
        yield Static(id="figures")
        yield Static(id="cards")
        yield RichLog(id="exchange", max_lines=500, wrap=False, markup=False)

    def on_mount(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.draw_figures()
        self.set_interval(FIGURES_S, self._figures_due)
        self.ready.set()

    def figures(self) -> None:
        """The figures changed: redrawn with the next tick (a busy line must not flood the screen)."""
        self.stale = True

    def _figures_due(self) -> None:
        if self.stale:
            self.draw_figures()

    # -- what the line did (on the screen's thread) ----------------------------------------------
    def counted(self, now: float) -> None:
        """A card went through (accepted here, or confirmed by the far end)."""
        self.cards += 1
        self.first = self.first if self.first is not None else now
        self.figures()

    def delivered(self, number: int, now: float) -> None:
        """The far end acknowledged card ``number``: a move made here has crossed."""
        made = self.made_at(number)
        if made is not None:
            self.latencies.append(now - made)
        sent = self.card_of(number)
        if sent is not None:
            self.card(number, *sent)
        self.counted(now)

    def exchange(self, direction: str, text: str, card: int | None, attempt: int) -> None:
        if text.startswith("IDLE") and " " not in text:
            return  # idle fill: the line's carrier, not news
        style = ""
        if "CL ERR" in text:
            self.errs += 1
            style = "bold red"
        elif "CL ACK" in text:
            self.acks += 1
        if "TL SOR" in text:
            self.records += 1
        if attempt > 1:
            self.retransmissions += 1
            style = "bold yellow"
        if direction == "!":
            style = "bold red"
        arrow = {"out": "→", "in": "←"}.get(direction, "!")
        tail = f"  [card {card}" + (f", try {attempt}]" if attempt > 1 else "]") if card else ""
        log = self.query_one("#exchange", RichLog)
        log.write(Text(f"{arrow} {text}{tail}", style=style))
        self.figures()

    def card(self, number: int, card: Card, what: str) -> None:
        """Card ``number`` crossed the line; ``what`` says what it carried."""
        self.shown.appendleft((number, card, what))
        out = Text()
        for n, c, w in self.shown:
            out.append(f"card {n}: {w}\n", style="bold")
            printed = c.interpreted().rstrip()
            if printed:
                out.append(f"  {printed[:40]}\n", style="dim")
            out.append("\n".join(card_braille(c)) + "\n", style="white on grey23")
        self.query_one("#cards", Static).update(out)

    def say(self, note: str) -> None:
        """A line about the stream's state (waiting for the far end, ended, an error)."""
        self.note = note
        self.figures()

    def draw_figures(self) -> None:
        self.stale = False
        now = time.monotonic()
        minutes = max(now - self.first, 1.0) / 60 if self.first is not None else None
        rate = f"{self.cards / minutes:.1f} cards/min" if minutes else "no card yet"
        lat = (f"last move {self.latencies[-1]:.3f} s, p50 {percentile(self.latencies, 0.5):.3f} s"
               if self.latencies else "no move yet")
        text = Text(f"{self.title_text}\n", style="bold")
        text.append(f"cards {self.cards} · {rate}\n")
        text.append(f"records {self.records} · ACK {self.acks} · ")
        text.append(f"ERR {self.errs}", style="bold red" if self.errs else "")
        text.append(f" · resent {self.retransmissions}\n",
                    style="bold yellow" if self.retransmissions else "")
        text.append(f"{lat}\n")
        text.append(self.note, style="italic")
        self.query_one("#figures", Static).update(text)


class Beside(Generic[Result]):
    """Runs ``work`` (the line's loop) in a thread while ``app`` holds the terminal; :meth:`run`
    returns ``work``'s result, or raises what it raised, once both are done.  ``on_exit`` runs when
    the app closes (the player quit: the stream sends its end card)."""

    def __init__(self, app: App[None], pane: LinePane, work: Callable[[], Result],
                 on_exit: Callable[[], None] | None = None, join_s: float = 60.0) -> None:
        self.app, self.pane, self.work, self.on_exit, self.join_s = app, pane, work, on_exit, join_s
        self.result: list[Result] = []
        """``work``'s result, once it has returned one."""
        self.error: BaseException | None = None
        self.done = threading.Event()

    def _run(self) -> None:
        try:
            if not self.pane.ready.wait(30):
                raise IbmError("the screen did not come up within 30 s")
            self.result.append(self.work())
        except BaseException as err:  # handed to the main thread, raised there
            self.error = err
            if self.pane.loop is not None and not self.pane.loop.is_closed():
                self.pane.loop.call_soon_threadsafe(self.pane.say, f"stopped: {err} (q leaves)")
        finally:
            self.done.set()

    def run(self) -> Result:
        thread = threading.Thread(target=self._run, daemon=True)
        thread.start()
        self.app.run()
        if self.on_exit is not None:
            self.on_exit()
        if not self.done.wait(self.join_s):
            raise IbmError(f"the line did not finish within {self.join_s:g} s after the screen closed")
        if self.error is not None:
            raise self.error
        return self.result[0]
