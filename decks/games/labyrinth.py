"""Labyrinth (the encyclopedia article; ``docs/games.md`` row 6).

The four aces go out as foundations ``f1``–``f4`` (C D H S) and build up in suit to the kings.
Eight cards are laid in a row below them.  The layout is a grid of rows of eight: the cell in row
``r`` and column ``c`` is the pile ``t<r><c>`` (``t11`` … ``t18`` is the first row, ``t23`` the
third card of the second row); a cell holds one card or none.

* **First row**: a gap in the first row is filled at once from the stock (an automatic move).
  Gaps in the other rows are never filled — they make the "labyrinth".
* **Availability**: only the top and bottom cards of each column can be played, i.e. the card in
  the first row and the lowest card of the column; when the lowest is played the card above it is
  released.  Once the stock is out and a first-row gap stays open, the highest card left in that
  column is released the same way.
* **New row** (``s``): when no more moves can be made, a new row of eight (or what is left of the
  stock) is dealt below the last one.  Option ``deal_when_stuck`` (default on, the seed's reading)
  forbids dealing while a play remains.
* **Last resort** (``p t34``): when the stock is out and play is stuck, the player may take any one
  card from the rows that fits a foundation; after it normal play goes on, and the next time play
  is stuck another pick is allowed (counter ``picks``).  Option ``last_resort`` (default on).
"""

from __future__ import annotations

from dataclasses import dataclass

from decks.engine import Action, GameState, Move, Option, PileGroup, Rules, register, rules_of
from decks.engine.dealing import deal_cards, deal_rest_to_stock
from decks.engine.legality import default_foundation_accepts
from decks.engine.play import stock_deal_check, transfer_candidates
from decks.engine.rules import stock
from decks.games.auld_lang_syne import take_out_aces
from decks.packs import PlayingCard

ROWS = 6
"""Rows the grid can need: the first row plus the 40 cards left after it in rows of eight."""
COLUMNS = 8


@dataclass(frozen=True)
class Grid(PileGroup):
    """The cells of the layout, ``t<row><column>``, row by row."""

    rows: int = ROWS
    columns: int = COLUMNS

    def names(self) -> list[str]:
        return [cell(r, c) for r in range(1, self.rows + 1) for c in range(1, self.columns + 1)]


def cell(row: int, column: int) -> str:
    return f"t{row}{column}"


def available_cells(state: GameState) -> set[str]:
    """The cells whose card can be played: per column the first-row card and the lowest card, and
    the highest card left when the column's first-row cell stays empty."""
    out = set()
    for c in range(1, COLUMNS + 1):
        rows = [r for r in range(1, ROWS + 1) if state.piles[cell(r, c)].cards]
        if rows:
            out.add(cell(rows[0], c))
            out.add(cell(rows[-1], c))
    return out


def check_available(state: GameState, move: Move, moving: list[PlayingCard]) -> str | None:
    if move.src[0] == "t" and move.src not in available_cells(state):
        return ("only the cards of the top and bottom rows are available (the first-row card and the "
                "lowest card of each column)")
    return None


def normal_plays(state: GameState) -> list[Move]:
    return transfer_candidates(rules_of(state), state)


def deal_labyrinth(state: GameState, cards: list[PlayingCard]) -> None:
    take_out_aces(state, cards)
    for c in range(1, COLUMNS + 1):
        deal_cards(state, cards, cell(1, c), 1, face_up=True)
    deal_rest_to_stock(state, cards)
    state.counters.update(rows=1, picks=0)


def fill_first_row(state: GameState) -> None:
    """Automatic move: a gap in the first row takes the top card of the stock at once."""
    hand = state.piles["s"]
    for c in range(1, COLUMNS + 1):
        target = state.piles[cell(1, c)]
        if not target.cards and hand.cards:
            target.cards.append(hand.cards.pop())
    hand.hidden = len(hand.cards)


check_new_row = stock_deal_check(normal_plays, "a new row is dealt only when no more moves can be made")


def new_row(state: GameState, move: Move) -> None:
    """Deal a row of eight (or the rest of the stock) below the last row."""
    hand = state.piles["s"]
    row = state.counters["rows"] + 1
    for c in range(1, COLUMNS + 1):
        if hand.cards:
            state.piles[cell(row, c)].cards.append(hand.cards.pop())
    hand.hidden = len(hand.cards)
    state.counters["rows"] = row


def _home(state: GameState, c: PlayingCard) -> str | None:
    """The foundation that takes card ``c`` now, if any."""
    rules = rules_of(state)
    for f in state.names("foundation"):
        if default_foundation_accepts(rules, state, f, c) is None:
            return f
    return None


def check_pick(state: GameState, move: Move) -> str | None:
    if len(move.piles) != 1 or move.count != 1 or move.src[0] != "t" or move.src not in state.piles:
        return "a last-resort pick names one cell of the layout, e.g. 'p t34'"
    if not state.options["last_resort"]:
        return "the last-resort pick is switched off (option last_resort)"
    if state.piles["s"].cards:
        return "the last-resort pick comes only when the stock has run out"
    if normal_plays(state):
        return "the last-resort pick comes only when play is stuck"
    pile = state.piles[move.src]
    if not pile.cards:
        return f"{move.src} is empty"
    if _home(state, pile.cards[-1]) is None:
        return f"{pile.cards[-1]} does not fit on any foundation yet"
    return None


def pick(state: GameState, move: Move) -> None:
    """Take the card from anywhere in the rows to its foundation."""
    c = state.piles[move.src].cards.pop()
    home = _home(state, c)
    assert home is not None
    state.piles[home].cards.append(c)
    state.counters["picks"] = state.counters.get("picks", 0) + 1


def pick_candidates(state: GameState) -> list[Move]:
    if not state.options["last_resort"] or state.piles["s"].cards or normal_plays(state):
        return []
    return [Move("pick", (n,)) for n in Grid("t").names()
            if state.piles[n].cards and _home(state, state.piles[n].cards[-1]) is not None]


def accepts(state: GameState, name: str, c: PlayingCard) -> str | None:
    """Foundations up in suit from the aces (the engine's default rule).  Given as a hook so that the
    solver does not treat foundation plays as free of regret: a first-row play pulls the next stock
    card into that column, which changes what the later rows hold."""
    return default_foundation_accepts(rules_of(state), state, name, c)


def render(state: GameState) -> str:
    """The layout as a person sees it: foundations, stock count, then the grid row by row."""
    lines = ["foundations: " + "  ".join(
        f"{f}:{state.piles[f].cards[-1] if state.piles[f].cards else '--'}"
        for f in state.names("foundation")) + f"   stock: {len(state.piles['s'].cards)} cards"]
    avail = available_cells(state)
    rows = state.counters.get("rows", 1)
    lines.append("      " + " ".join(f" c{c} " for c in range(1, COLUMNS + 1)))
    for r in range(1, rows + 1):
        cells = []
        for c in range(1, COLUMNS + 1):
            p = state.piles[cell(r, c)]
            name = str(p.cards[-1]) if p.cards else ".."
            cells.append(f"[{name}]" if cell(r, c) in avail and p.cards else f" {name} ")
        lines.append(f"row {r} " + " ".join(cells))
    return "\n".join(lines)


LABYRINTH = register(Rules(
    name="labyrinth", title="Labyrinth", seed="000", row=6,
    piles=(PileGroup("f", 4), Grid("t"), stock()),
    deal=deal_labyrinth, build="none", unit="one", space="none",
    to_foundation=("tableau",), to_tableau=(),
    actions={"stock": Action(check_new_row, new_row, lambda s: [Move("stock")]),
             "pick": Action(check_pick, pick, pick_candidates)},
    automatic=(fill_first_row,), check=check_available, foundation_accepts=accepts,
    options=(Option("deal_when_stuck", True, help="a new row only when no more moves can be made"),
             Option("last_resort", True, help="when stuck after the stock is out, pick any one card")),
    symmetric=False,
    notes="Aces out; rows of eight; first-row gaps refilled at once; top and bottom rows available.",
))
