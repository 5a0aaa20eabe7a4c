"""The board a player plays on: ``ibm1013 play GAME`` on a terminal.

The screen is the board (:class:`BoardView`, redrawn in place at the terminal's size), a line
saying what happened, and the footer with the keys.  Every command goes to the game's
:class:`~decks.session.Session` — the same one the plain prompt drives — so a refusal names the
rule exactly as there.  Three ways to move:

* type the move as at the prompt: a key that starts a move (``t``, ``f``, ``w``, ``s`` …, or ``:``)
  opens the command line, Enter plays it;
* the arrow keys and Tab move a cursor over the piles; Enter picks the top card up —
  Enter again on the same pile takes one card more — and Enter on another pile puts it there;
* click a card (with the cards on it), then click where it goes.

Once a card is picked up, the piles it may go to are lit.  Clicking the stock deals from it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Footer, Static

from decks import board, engine
from decks.engine.state import role_of
from decks.session import Result, Session, worth_trying
from decks.stats import Stats, Tally, key
from emulator.errors import IbmError
from emulator.words import counted
from ibm1013.tui.layout import CELL, Cell, Layout, layout

if TYPE_CHECKING:
    from decks.stream_sources import TypedSource
    from ibm1013.tui.line import LineMonitor, LinePane

Sent = TypeVar("Sent")

MOVE_KEYS = set("tfwshrxpd0123456789")
"""Keys that start a move typed in the engine's notation (they open the command line)."""

FACE = "black on white"
RED_FACE = "red on white"
BACK = "white on blue"
PICKED = "black on yellow"
TARGET = "black on green"
HINTED = "black on magenta"


def syntax_example(state: engine.GameState) -> str:
    """How a move is written, as an example of the notation (not advice: the legal moves are the
    line above it)."""
    form, what = board.move_forms(state)[0]
    return f"type a move, e.g. {form} ({what}), or pick a card up; l: every move form and the rules"


class BoardView(Widget):
    """The piles of a game state, drawn as cells of :mod:`ibm1013.tui.layout`; clicks are
    reported as :class:`BoardView.Clicked`."""

    DEFAULT_CSS = "BoardView { height: 1fr; }"

    class Clicked(Message):
        def __init__(self, cell: Cell) -> None:
            super().__init__()
            self.cell = cell

    def __init__(self, state: engine.GameState, symbols: bool = False, *, id: str | None = None,  # noqa: A002
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.state = state
        self.symbols = symbols
        self.picked: tuple[str, int] | None = None
        self.targets: set[str] = set()
        self.hinted: set[str] = set()
        self.cursor: str | None = None
        self.drawn: Layout | None = None
        self.input_at = 0.0
        """When the last click was made (Textual's event clock; the input -> redraw measurement)."""

    def show(self, state: engine.GameState) -> None:
        self.state = state
        self.refresh()

    def current(self) -> Layout:
        """The layout for the widget's present size."""
        return layout(self.state, max(self.size.width, CELL), max(self.size.height, 1))

    def render(self) -> Text:
        self.drawn = drawn = self.current()
        rows: dict[int, list[Cell]] = {}
        for cell in drawn.cells:
            rows.setdefault(cell.y, []).append(cell)
        out = Text()
        for y in range(drawn.height):
            line = Text()
            for cell in sorted(rows.get(y, []), key=lambda c: c.x):
                line.append(" " * (cell.x - line.cell_len))
                line.append_text(self._cell(cell))
            out.append_text(line)
            out.append("\n")
        return out

    def _cell(self, cell: Cell) -> Text:
        pile = self.state.piles[cell.pile]
        if cell.kind == "label":
            style = "bold reverse" if cell.pile == self.cursor else "bold green" if (
                cell.pile in self.targets) else "dim"
            return Text(f"{cell.pile:<{CELL}}"[:CELL], style=style)
        if cell.kind == "empty":
            text, style = " -- ", "dim"
        elif cell.kind == "back":
            text = f"{'#' + str(cell.count) if cell.count > 1 else '##':^{CELL}}"
            style = BACK
        else:
            name = pile.cards[cell.index].name
            shown = board.card_text(name, self.symbols).plain
            text, style = f" {shown:<{CELL - 1}}", RED_FACE if name[-1] in "DH" else FACE
        top = cell.index == len(pile.cards) - 1 or cell.kind == "empty"
        if self.picked and cell.pile == self.picked[0] and cell.index >= self.picked[1]:
            style = PICKED
        elif cell.pile in self.targets and top:
            style = TARGET
        elif cell.pile in self.hinted and top:
            style = HINTED
        if cell.pile == self.cursor and top:
            style += " underline bold"
        return Text(text, style=style)

    def on_click(self, event: events.Click) -> None:
        self.input_at = event.time
        drawn = self.drawn or self.current()
        cell = drawn.hit(event.x, event.y)
        if cell is not None:
            self.post_message(self.Clicked(cell))


class TextScreen(ModalScreen[None]):
    """A page of text over the board (the rules, the statistics); Escape or q goes back."""

    BINDINGS = [Binding("escape,q,l,g", "dismiss", "Back")]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll { width: 90%; height: 90%; border: round $accent; background: $panel; }
    """

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text, self.text = title, text

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(self.title_text, style="bold"))
            yield Static(self.text, id="page", markup=False)

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)


class PlayApp(App[None]):
    """Play a game full-screen.  ``side``: a widget beside the board (the line pane of
    ``play --stream``); ``fixed_deal``: no new deal or restart (a streamed game keeps its deal)."""

    TITLE = "ibm1013 play"
    AUTO_FOCUS = None  # the keys go to the board until a move is typed
    ENABLE_COMMAND_PALETTE = False  # the footer's room is for the game's keys
    CSS = """
    #status { height: auto; padding: 0 1; }
    #command { display: none; height: 1; background: $boost; }
    #game { width: 1fr; padding: 0 1; }
    """
    BINDINGS = [
        Binding("u", "undo", "Undo"), Binding("y", "redo", "Redo"), Binding("i", "hint", "Hint"),
        Binding("a", "autoplay", "Auto"), Binding("n", "new_deal", "New deal"),
        Binding("o", "restart", "Restart"), Binding("k", "save", "Save"), Binding("l", "rules", "Rules"),
        Binding("g", "stats", "Stats"), Binding("q", "quit_game", "Quit"),
        Binding("left", "cursor(-1, 0)", show=False), Binding("right", "cursor(1, 0)", show=False),
        Binding("up", "cursor(0, -1)", show=False), Binding("down", "cursor(0, 1)", show=False),
        Binding("tab", "tab(1)", show=False, priority=True),
        Binding("shift+tab", "tab(-1)", show=False, priority=True),
        Binding("enter", "choose", show=False), Binding("escape", "drop", show=False),
    ]

    def __init__(self, session: Session, *, save_path: str | None = None, side: Widget | None = None,
                 fixed_deal: bool = False, stats: Stats | None = None) -> None:
        super().__init__()
        self.session = session
        self.save_path = save_path
        self.side = side
        self.fixed_deal = fixed_deal
        self.stats = stats
        self.tally = None if stats is None else Tally(
            session, stats, on_error=lambda text: self.notify(text, severity="error"))
        """Counts each game once: won, or left after a move (a new deal, a restart, quitting)."""
        self.quitting = False
        self.typed: str | None = None
        """The command line being typed (None: closed)."""
        self.message = syntax_example(session.state)
        self.redraws: list[Callable[[], None]] = []
        """Called once after the next refresh of the screen (the input -> redraw measurement)."""

    # -- the screen ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="game"):
                yield Static(id="status")
                yield BoardView(self.session.state, self.session.symbols, id="board")
                yield Static(id="command")
            if self.side is not None:
                yield self.side
        yield Footer(compact=True)

    @property
    def board(self) -> BoardView:
        return self.query_one("#board", BoardView)

    def on_mount(self) -> None:
        self.board.cursor = self.board.current().piles[0]  # reading order: the first pile on top
        self.show()

    def show(self, message: str | None = None, error: bool = False) -> None:
        """Redraw the board and the status lines."""
        if message is not None:
            self.message = message
        state = self.session.state
        title = f"{engine.rules_of(state).title}, deal {state.deal_number}, move {len(state.history)}"
        status = Text(f"{title} — {board.status_line(state)}\n", style="bold")
        if not engine.is_won(state):  # the moves the game takes now, as the prompt's 'moves' lists them
            status.append(worth_trying(state, ["moves"])[1] + "\n", style="green")
        status.append(self.message, style="bold red" if error else "")  # wrapped, never cut
        self.query_one("#status", Static).update(status)
        self.board.show(state)
        if self.redraws:
            for done in self.redraws:
                self.call_after_refresh(done)
            self.redraws = []

    # -- commands: everything goes through the session --------------------------------------------
    def play(self, command: str) -> bool:
        """Run one command through the session; a refusal is shown with its rule.  True if done."""
        try:
            result = self.session.run(command)
        except IbmError as err:
            self.show(f"refused: {err}", error=True)
            return False
        self.after(result.changed, result.text if not result.changed else f"played {command}")
        return True

    def after(self, changed: bool, message: str) -> None:
        board_view = self.board
        board_view.picked, board_view.targets, board_view.hinted = None, set(), set()
        if self.session.won:  # (the tally heard of the win and counted it)
            message = f"WON in {counted(len(self.session.state.history), 'move')}"
        self.show(message)

    def new_game(self, change: Callable[[], Result]) -> None:
        if self.fixed_deal:
            self.show("a streamed game keeps its deal: no new deal or restart", error=True)
            return
        result = change()  # the tally counts the game left, if a move was made
        self.after(True, f"{result.kind}: deal {self.session.state.deal_number}")

    def action_undo(self) -> None:
        self.play("undo")

    def action_redo(self) -> None:
        self.play("redo")

    def action_autoplay(self) -> None:
        result = self.session.autoplay()
        self.after(result.changed, result.text)

    def action_new_deal(self) -> None:
        self.new_game(self.session.new_deal)

    def action_restart(self) -> None:
        self.new_game(self.session.restart)

    def action_save(self) -> None:
        state = self.session.state
        path = self.save_path or f"{state.game}-{state.deal_number}.{self.session.fmt}"
        try:
            self.show(self.session.save(path))
        except IbmError as err:
            self.show(f"not saved: {err}", error=True)

    def action_hint(self) -> None:
        self.show("hint: searching …")
        self.run_worker(self._hint, thread=True, exclusive=True, group="hint")

    def _hint(self) -> None:
        result = self.session.run("hint")  # reads the state once; the search runs off the screen's thread
        self.call_from_thread(self._hinted, result)

    def _hinted(self, result: Any) -> None:
        if result.before is not self.session.state:
            return  # a move was made meanwhile: the hint was for another position
        self.board.hinted = set(result.moves[0].piles) if result.moves else set()
        self.show(result.text)

    def action_rules(self) -> None:
        state = self.session.state
        self.push_screen(TextScreen(engine.rules_of(state).title,
                                    board.move_help(state) + "\n\n" + board.game_rules(state.game)))

    def action_stats(self) -> None:
        stats = self.stats or Stats.load()
        here = key(self.session.state)
        lines = [f"{'» ' if k == here else '  '}{k}\n    {r.describe()}" for k, r in stats.records.items()]
        self.push_screen(TextScreen(f"Statistics ({stats.path})", "\n".join(lines) or "no games yet"))

    def action_quit_game(self) -> None:
        if self.session.unsaved and not self.quitting:
            self.quitting = True
            self.show("moves not saved: k saves the game, q again quits", error=True)
            return
        if self.tally is not None:
            self.tally.leave()
        self.exit()

    # -- the command line ---------------------------------------------------------------------------
    # Our own line, not a focused Input: a key typed quickly after the one that opened it must
    # land in it too (a focus change takes effect only once the keys before it are handled).
    def on_key(self, event: events.Key) -> None:
        self.board.input_at = event.time
        if self.typed is None:
            if event.character and (event.character in MOVE_KEYS or event.character == ":"):
                self.edit("" if event.character == ":" else event.character, event)
            return
        if event.key == "enter":
            line, self.typed = self.typed.strip(), None
            if line:
                self.play(line)
        elif event.key == "escape":
            self.typed = None
        elif event.key == "backspace":
            self.typed = self.typed[:-1]
        elif event.is_printable and event.character:
            self.typed += event.character
        self.edit(self.typed, event)

    def edit(self, typed: str | None, event: events.Key) -> None:
        """Show the command line as ``typed`` (None: closed); the key is used up."""
        event.stop()
        event.prevent_default()
        self.typed = typed
        line = self.query_one("#command", Static)
        line.display = typed is not None
        if typed is not None:
            line.update(Text.assemble(("> ", "bold"), typed, ("▏", "blink"),
                                      ("   Enter plays it, Esc closes", "dim")))

    # -- the cursor, picking up and putting down ------------------------------------------------------
    def action_drop(self) -> None:
        self.board.picked, self.board.targets = None, set()
        self.show("")

    def action_tab(self, step: int) -> None:
        if self.typed is not None:  # Tab is a priority key: it comes here even while typing
            return
        piles = self.board.current().piles
        here = piles.index(self.board.cursor) if self.board.cursor in piles else -1
        self.board.cursor = piles[(here + step) % len(piles)]
        self.board.refresh()

    def action_cursor(self, dx: int, dy: int) -> None:
        drawn = self.board.current()
        labels = {c.pile: c for c in drawn.cells if c.kind == "label"}
        here = labels.get(self.board.cursor or "") or next(iter(labels.values()))
        if dx:
            row = sorted((c for c in labels.values() if c.y == here.y), key=lambda c: c.x)
            i = row.index(here) + dx
            if 0 <= i < len(row):
                self.board.cursor = row[i].pile
        else:
            rows = sorted({c.y for c in labels.values()})
            i = rows.index(here.y) + dy
            if 0 <= i < len(rows):
                row = [c for c in labels.values() if c.y == rows[i]]
                self.board.cursor = min(row, key=lambda c: abs(c.x - here.x)).pile
        self.board.refresh()

    def action_choose(self) -> None:
        if self.board.cursor is not None:
            self.choose(self.board.cursor, None)

    def on_board_view_clicked(self, message: BoardView.Clicked) -> None:
        cell = message.cell
        self.board.cursor = cell.pile
        self.choose(cell.pile, cell.index if cell.kind == "card" else None)

    def choose(self, pile: str, index: int | None) -> None:
        """A pile chosen by Enter (``index`` None: its top) or a click on card ``index``: pick a
        card up, or put the picked-up cards there."""
        state = self.session.state
        picked = self.board.picked
        if picked is None:
            if role_of(pile) == "stock":
                self.deal_from_stock()
            elif not state.piles[pile].cards:
                self.show(f"{pile} is empty")
            else:
                top = len(state.piles[pile].cards) - 1
                self.pick(pile, top if index is None else index)
        elif pile != picked[0]:
            self.put(picked, pile)
        elif index is not None and index != picked[1]:
            self.pick(pile, index)
        elif index is None and picked[1] > state.piles[pile].hidden:
            self.pick(pile, picked[1] - 1)  # Enter again: one card more
        elif any(m.kind == "remove" and m.piles == (pile,) for m in engine.legal_moves(state)):
            self.play(f"x {pile}")
        else:
            self.action_drop()

    def deal_from_stock(self) -> None:
        kinds = {m.kind for m in engine.legal_moves(self.session.state)}
        self.play("r" if "stock" not in kinds and "redeal" in kinds else "s")

    def pick(self, pile: str, index: int) -> None:
        state = self.session.state
        if index < state.piles[pile].hidden:
            self.show(f"that card of {pile} is face down", error=True)
            return
        count = len(state.piles[pile].cards) - index
        moves = self.session.targets(pile, count) or self.session.targets(pile)
        partners = {p for m in engine.legal_moves(state) if m.kind == "remove" and pile in m.piles
                    for p in m.piles if p != pile}
        self.board.picked = (pile, index)
        self.board.targets = {m.dst for m in moves} | partners
        cards = " ".join(c.name for c in state.piles[pile].cards[index:])
        where = ", ".join(sorted(self.board.targets)) or "nowhere"
        self.show(f"{cards} from {pile}: may go to {where}")

    def put(self, picked: tuple[str, int], dst: str) -> None:
        src, index = picked
        count = len(self.session.state.piles[src].cards) - index
        legal = [m for m in engine.legal_moves(self.session.state)
                 if (m.kind == "move" and m.piles == (src, dst))
                 or (m.kind == "remove" and set(m.piles) == {src, dst})]
        exact = [m for m in legal if m.count == count or m.kind == "remove"]
        chosen = (exact or legal)[:1]
        # no legal move: ask the session anyway, so the refusal names the rule
        self.play(str(chosen[0]) if chosen else f"{src} {dst}" + (f" {count}" if count > 1 else ""))
        self.board.picked, self.board.targets = None, set()
        self.board.refresh()


def stream_app(source: TypedSource, port: str, save_path: str | None = None,
               stats: Stats | None = None) -> tuple[PlayApp, LinePane]:
    """The board for ``source.session`` (a :class:`~decks.stream_sources.TypedSource`) with the line
    pane beside it; the pane pictures each card once the watcher confirms it, and times each move
    from made to confirmed.  A streamed game keeps its deal."""
    from ibm1013.tui.line import LinePane

    feed = source.feed
    deck = len(feed.cards)
    what: dict[int, str] = {}

    def heard(before: Any, after: Any, line: str) -> None:  # after the source made its cards
        for event in range(len(what) + 1, feed.events + 1):
            what[event] = f"event {event}: {line}"

    def card_of(number: int) -> tuple[Any, str] | None:
        if number <= deck:
            return feed.cards[number - 1], f"game deck, card {number} of {deck}"
        event = number - deck
        if event > len(source.sent):
            return None
        return source.sent[event - 1], what.get(event, f"event {event}: end")

    source.session.listeners.append(heard)
    pane = LinePane(f"the line: {port}")
    pane.made_at = lambda number: source.made.get(number - deck)
    pane.card_of = card_of
    return PlayApp(source.session, save_path=save_path, side=pane, fixed_deal=True, stats=stats), pane


def stream_full_screen(source: TypedSource, port: str, send: Callable[[LineMonitor], Sent],
                       save_path: str | None, stats: Stats | None = None) -> Sent:
    """``play --stream`` on a terminal: :func:`stream_app`, and ``send(monitor)`` (the stream) in a
    thread; quitting sends the end card, and the stream's figures are returned once the watcher has
    confirmed it."""
    from ibm1013.tui.line import Beside, LineMonitor

    app, pane = stream_app(source, port, save_path, stats)
    return Beside(app, pane, lambda: send(LineMonitor(pane, sending=True)), on_exit=source.finish).run()
