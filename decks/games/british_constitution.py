"""British Constitution, or Constitution (``docs/games.md`` row 15).

Two packs without kings and queens: the ``double-88`` pack (88 cards: AC AD AH AS 2C … JS, twice;
see :mod:`decks.packs`), shuffled by deal number as :mod:`decks.deals` describes.  The eight aces
are set out as the foundations ("the Government") ``f1``–``f8`` (C D H S twice, the first copy of
each in dealing order); they build up in suit to the jacks, eleven cards each.

Below them four rows of eight cards, "the Constitution": the cell in row ``r`` and column ``c`` is
the pile ``t<r><c>`` (``t11`` … ``t18`` is row 1, "the Privy Council"; row 4 is "the People").

* Only row 1 plays to the foundations.  Row 1 builds down in alternating colours, one card at a
  time; a card built on a row-1 pile comes from the top of another row-1 pile or from row 2.
  Rows 2–4 hold one card each and are never built on.
* A space in row 1, 2 or 3 must be filled — before any other move — with any card of the row just
  below (``p t23 t11``: the card of t23 fills t11), so the space moves down row by row.  A space in
  row 4 is filled at once from the stock; that is the only way stock cards come into play.  When
  the stock is out, row-4 spaces stay, and a space with no card below it waits.
* Stuck with cards still in the stock, the game is lost; it is won with all 88 cards on the
  foundations.
"""

from __future__ import annotations

from dataclasses import dataclass

from decks.engine import Action, GameState, Move, PileGroup, Rules, SolverTuning, register
from decks.engine.dealing import deal_cards, deal_rest_to_stock
from decks.engine.rules import stock
from decks.games.two_pack import gap_filler, set_out, tidy_distance
from decks.packs import PlayingCard

ROWS, COLUMNS = 4, 8


@dataclass(frozen=True)
class Grid(PileGroup):
    """The 32 cells ``t<row><column>``, row by row."""

    def names(self) -> list[str]:
        return [cell(r, c) for r in range(1, ROWS + 1) for c in range(1, COLUMNS + 1)]


def cell(row: int, column: int) -> str:
    return f"t{row}{column}"


def row_of(name: str) -> int:
    return int(name[1])


ROW_CELLS = {row: [cell(row, c) for c in range(1, COLUMNS + 1)] for row in range(1, ROWS + 1)}


BOARD_ROWS = tuple(tuple(cells) for cells in ROW_CELLS.values())
"""The board draws the Constitution as its grid: four bands of eight (:mod:`decks.board`)."""


def row_cells(row: int) -> list[str]:
    return ROW_CELLS[row]


def deal_british_constitution(state: GameState, cards: list[PlayingCard]) -> None:
    set_out(state, cards, "AA")
    for row in range(1, ROWS + 1):
        for name in row_cells(row):
            deal_cards(state, cards, name, 1, face_up=True)
    deal_rest_to_stock(state, cards)


def waiting_spaces(state: GameState) -> list[str]:
    """Spaces in rows 1–3 that a card of the row below could fill now."""
    piles = state.piles
    out = []
    for row in range(1, ROWS):
        spaces = [name for name in ROW_CELLS[row] if not piles[name].cards]
        if spaces and any(piles[n].cards for n in ROW_CELLS[row + 1]):
            out += spaces
    return out


def check(state: GameState, move: Move, moving: list[PlayingCard]) -> str | None:
    """The rows' rules first (they need no look at the layout), then the spaces waiting."""
    why = check_rows(move)
    if why is None and (waiting := waiting_spaces(state)):
        row = row_of(waiting[0])
        return (f"the space {waiting[0]} must first be filled from row {row + 1} "
                f"('p {cell(row + 1, 1)} {waiting[0]}')")
    return why


def check_rows(move: Move) -> str | None:
    src, dst = move.piles
    src_row = row_of(src) if src[0] == "t" else 0
    if dst[0] == "f":
        return None if src_row == 1 else "only cards of row 1 go to the foundations"
    if row_of(dst) != 1:
        return "cards are built only on row 1"
    if src_row > 2:
        return "only row 1's top cards and row 2's cards are available for building on row 1"
    return None


def space_accepts(state: GameState, c: PlayingCard) -> str | None:
    return "a space is filled only from the row below it ('p SOURCE SPACE'), or from the stock in row 4"


def check_fill(state: GameState, move: Move) -> str | None:
    if len(move.piles) != 2 or move.count != 1 or not all(n in state.piles and n[0] == "t"
                                                           for n in move.piles):
        return "a fill names the card and the space: 'p t23 t11'"
    src, dst = move.piles
    if state.piles[dst].cards:
        return f"{dst} is not a space"
    if row_of(dst) == ROWS:
        return "a space in row 4 is filled from the stock"
    if row_of(src) != row_of(dst) + 1:
        return f"a space in row {row_of(dst)} is filled from row {row_of(dst) + 1}"
    if not state.piles[src].cards:
        return f"{src} is empty"
    return None


def fill(state: GameState, move: Move) -> None:
    src, dst = move.piles
    state.piles[dst].cards.append(state.piles[src].cards.pop())


def fill_moves(state: GameState) -> list[Move]:
    return [Move("pick", (src, dst)) for dst in waiting_spaces(state)
            for src in row_cells(row_of(dst) + 1) if state.piles[src].cards]


fill_row_4 = gap_filler(tuple(row_cells(ROWS)))
"""Automatic move: a space in row 4 takes the next stock card at once."""


BRITISH_CONSTITUTION = register(Rules(
    name="british-constitution", title="British Constitution", seed="000", row=15,
    piles=(PileGroup("f", 8), Grid("t"), stock()),
    deal=deal_british_constitution, pack="double-88", build="alt-down", unit="one", space="none",
    foundation_size=11, to_foundation=("tableau",), to_tableau=("tableau",),
    check=check, space_accepts=space_accepts,
    actions={"pick": Action(check_fill, fill, fill_moves)},
    automatic=(fill_row_4,), symmetric=False, distance=tidy_distance,
    solver=SolverTuning(fill=tuple(row_cells(ROWS)), measure="tidy"),
    notes="Two packs without kings and queens (88); 8 aces out, up in suit to jacks; 4 rows of 8; only row 1 "
          "plays home and is built on (alternating colours) from row 1 and row 2; spaces filled from below.",
))
