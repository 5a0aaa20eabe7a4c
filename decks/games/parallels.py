"""Parallels (``docs/games.md`` row 8).

Two packs (``double``, 104 cards; order in :mod:`decks.packs`, shuffle in :mod:`decks.deals`).
One ace and one king of each suit are set out first (the first copy of each in dealing order):
``f1``–``f4`` (aces, C D H S) build up in suit, ``f5``–``f8`` (kings) build down in suit.  Between
them the tableau grows in rows of ten: the cell in row ``r`` and column ``a`` … ``j`` is the pile
``t<r><column>`` (``t1a`` … ``t1j`` is the first row, ``t3c`` the third card of the third row);
a cell holds one card or none.  There is no building in the tableau: cards go only to the
foundations.

* **Rows one and two**: every card is available, and a gap is filled at once from the stock.
* **From the third row on**: a card is available when one of its narrow edges is free — it lies in
  the top or the bottom row, or the cell just above or below it is empty.  Gaps are no longer
  filled at once.
* ``s`` when play is at a standstill (no card of the tableau can go to a foundation; option
  ``deal_when_stuck``): with fewer than three rows, or with no gaps, a new row of ten (or what is
  left of the stock) is dealt below the last; from the third row on, while there are gaps, ``s``
  fills all of them instead, left to right and top to bottom, from the stock.
* **Reversals**: when a suit's two foundations meet, the top card of one may move onto the other
  (``f1 f5``), but never a base card (the ace or king set out).

The game ends when play stops after the stock has run out; it is won with all 104 cards on the
foundations.
"""

from __future__ import annotations

from dataclasses import dataclass

from decks.engine import Action, GameState, Move, Option, PileGroup, Rules, SolverTuning, register
from decks.engine.dealing import deal_rest_to_stock
from decks.engine.play import stock_deal_check
from decks.engine.rules import stock
from decks.games.two_pack import ace_king_accepts, ace_king_wanted, fill_from_stock, set_out
from decks.packs import PlayingCard

COLUMNS = "abcdefghij"
ROWS = 10
"""Rows the grid can need: the 96 cards after the foundations, ten to a row."""


@dataclass(frozen=True)
class Grid(PileGroup):
    """The cells of the layout, ``t<row><column>``, row by row."""

    def names(self) -> list[str]:
        return [cell(r, c) for r in range(1, ROWS + 1) for c in COLUMNS]


def cell(row: int, column: str) -> str:
    return f"t{row}{column}"


def rows_dealt(state: GameState) -> int:
    return state.counters.get("rows", 1)


def gaps(state: GameState) -> list[str]:
    """The empty cells of the rows dealt, left to right and top to bottom."""
    return [cell(r, c) for r in range(1, rows_dealt(state) + 1) for c in COLUMNS
            if not state.piles[cell(r, c)].cards]


def available(state: GameState, name: str) -> bool:
    """Whether the card in cell ``name`` may be played (see the module docstring)."""
    rows = rows_dealt(state)
    if rows < 3:
        return True
    r, c = int(name[1:-1]), name[-1]
    if r in (1, rows):
        return True
    return not state.piles[cell(r - 1, c)].cards or not state.piles[cell(r + 1, c)].cards


def check_available(state: GameState, move: Move, moving: list[PlayingCard]) -> str | None:
    if move.src[0] == "t" and not available(state, move.src):
        return ("a card is available only with a narrow edge free: in the top or bottom row, or "
                "with the cell above or below it empty")
    return None


def tableau_plays(state: GameState) -> bool:
    """Whether some available card of the tableau can go to a foundation."""
    wanted = ace_king_wanted(state)
    return any(p.cards and (p.cards[-1].rank, p.cards[-1].suit) in wanted and available(state, name)
               for name, p in state.piles.items() if name[0] == "t")


def deal_parallels(state: GameState, cards: list[PlayingCard]) -> None:
    set_out(state, cards, "AK")
    deal_rest_to_stock(state, cards)
    fill_from_stock(state, [cell(1, c) for c in COLUMNS])
    state.counters["rows"] = 1


def fill_early_gaps(state: GameState) -> None:
    """Automatic move: while fewer than three rows are out, a gap takes the next stock card at once."""
    if rows_dealt(state) < 3:
        fill_from_stock(state, gaps(state))


check_stock = stock_deal_check(
    tableau_plays, "the stock is used only when play is at a standstill (no tableau card can go home)")


def stock_step(state: GameState, move: Move) -> None:
    """Fill the gaps (from the third row on), or deal a new row of ten below the last."""
    holes = gaps(state)
    if holes and rows_dealt(state) >= 3:
        fill_from_stock(state, holes)
        return
    row = rows_dealt(state) + 1
    fill_from_stock(state, [cell(row, c) for c in COLUMNS])
    state.counters["rows"] = row


def render(state: GameState) -> str:
    """Foundations (aces up, kings down), the stock, then the grid with available cards in [ ]."""
    def top(n: str) -> str:
        p = state.piles[n]
        return str(p.cards[-1]) if p.cards else "--"

    lines = ["aces up:    " + "  ".join(f"{f}:{top(f)}" for f in ("f1", "f2", "f3", "f4")),
             "kings down: " + "  ".join(f"{f}:{top(f)}" for f in ("f5", "f6", "f7", "f8"))
             + f"   stock: {len(state.piles['s'].cards)} cards",
             "       " + " ".join(f"  {c}  " for c in COLUMNS)]
    for r in range(1, rows_dealt(state) + 1):
        row = []
        for c in COLUMNS:
            name = cell(r, c)
            p = state.piles[name]
            text = str(p.cards[-1]) if p.cards else ".."
            row.append(f"[{text}]" if p.cards and available(state, name) else f" {text} ")
        lines.append(f"row {r:<2} " + " ".join(row))
    return "\n".join(lines)


PARALLELS = register(Rules(
    name="parallels", title="Parallels", seed="000", row=8,
    piles=(PileGroup("f", 8), Grid("t"), stock()),
    deal=deal_parallels, pack="double", build="none", unit="one", space="none",
    to_foundation=("tableau", "foundation"), to_tableau=(),
    foundation_accepts=ace_king_accepts, check=check_available, solver=SolverTuning(foundations="ace-king"),
    actions={"stock": Action(check_stock, stock_step, lambda s: [Move("stock")])},
    automatic=(fill_early_gaps,),
    options=(Option("deal_when_stuck", True,
                    help="the stock is used only when no tableau card can go to a foundation"),),
    symmetric=False,
    notes="Two packs; an ace and a king of each suit out (up / down in suit); rows of ten; from the third "
          "row only cards with a free narrow edge play; gaps filled at a standstill; reversals.",
))
