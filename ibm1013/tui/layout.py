"""Where the cards of a game go on a screen ``width`` × ``height`` characters, and what a click hits.

Every pile that is not a tableau pile is a slot in the rows at the top — stock, hand card, waste,
then foundations, reserves, the discard — its name above its top card.  The tableau piles are
columns below, cards stacked downwards, in bands when more piles than fit the width (a game's
``BOARD_ROWS`` gives the bands itself, as on the text board).  A card is a cell ``CELL`` characters
wide; when a tableau is too tall for the height, the face-down cards of each pile shrink to one cell
(``#5``).  Nothing here draws: :func:`layout` returns :class:`Cell` records the board paints and
hit-tests.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from decks import engine
from decks.engine.state import role_of

CELL = 4
"""Characters a card takes: a space, its two-character name, a space."""
PITCH = CELL + 1
"""From one column of cards to the next."""
TOP_ORDER = ("stock", "hand card", "waste", "foundation", "reserve", "discard", "other")


@dataclass(frozen=True)
class Cell:
    """One thing on the board at ``(x, y)``: a card (``index`` in its pile), a face-down card or a
    run of them (``back``; ``count`` cards), an empty pile (``empty``, index -1) or a pile's name
    (``label``, index -1: clicking it means the pile's top)."""

    x: int
    y: int
    kind: str
    pile: str
    index: int
    count: int = 1

    @property
    def width(self) -> int:
        return CELL


@dataclass
class Layout:
    """The cells of a board, and the piles in reading order (for the tab key)."""

    cells: list[Cell]
    piles: list[str]
    height: int

    def hit(self, x: int, y: int) -> Cell | None:
        """The cell under ``(x, y)``, if any."""
        for cell in self.cells:
            if cell.y == y and cell.x <= x < cell.x + cell.width:
                return cell
        return None

    def anchor(self, pile: str) -> Cell:
        """The cell a keyboard cursor on ``pile`` sits on: its top card, or its empty slot."""
        cards = [c for c in self.cells if c.pile == pile and c.kind != "label"]
        return max(cards, key=lambda c: (c.y, c.index))


def bands_of(state: engine.GameState) -> tuple[list[str], list[list[str]]]:
    """The piles of the top rows and the bands of columns (``BOARD_ROWS`` of the game's module)."""
    rules = engine.rules_of(state)
    rows = getattr(sys.modules.get(rules.deal.__module__), "BOARD_ROWS", None)
    bands = [list(group) for group in rows] if rows else []
    in_bands = {n for band in bands for n in band}
    top = [n for role in TOP_ORDER for n in state.piles
           if n not in in_bands and role_of(n) == role]
    tableau = [n for n in state.piles if n not in in_bands and role_of(n) == "tableau"]
    if tableau:
        bands.append(tableau)
    return top, bands


def layout(state: engine.GameState, width: int, height: int) -> Layout:
    """The board of ``state`` on ``width`` × ``height`` characters (it may run taller: the board
    scrolls)."""
    top, bands = bands_of(state)
    per_row = max(1, width // PITCH)
    cells: list[Cell] = []
    y = _slots(state, top, per_row, cells)
    tall = y + sum(_band_height(state, band, per_row, False) for band in bands) > height
    for band in bands:
        y = _columns(state, band, per_row, y, tall, cells)
    order = top + [n for band in bands for n in band]
    return Layout(cells, order, y)


def _slots(state: engine.GameState, names: list[str], per_row: int, cells: list[Cell]) -> int:
    """The top rows: label, then the pile's top card (or its back, or the empty slot)."""
    y = 0
    for start in range(0, len(names), per_row):
        for i, name in enumerate(names[start:start + per_row]):
            x = i * PITCH
            pile = state.piles[name]
            cells.append(Cell(x, y, "label", name, -1, len(pile.cards)))
            if not pile.cards:
                cells.append(Cell(x, y + 1, "empty", name, -1))
            elif role_of(name) in ("stock", "discard") or pile.hidden == len(pile.cards):
                cells.append(Cell(x, y + 1, "back", name, len(pile.cards) - 1, len(pile.cards)))
            else:
                cells.append(Cell(x, y + 1, "card", name, len(pile.cards) - 1))
        y += 3
    return y


def _band_height(state: engine.GameState, band: list[str], per_row: int, tall: bool) -> int:
    rows = 0
    for start in range(0, len(band), per_row):
        rows += 2 + max((_rows(state.piles[n], tall) for n in band[start:start + per_row]), default=1)
    return rows


def _rows(pile: engine.Pile, tall: bool) -> int:
    if not pile.cards:
        return 1
    if tall and pile.hidden:
        return 1 + len(pile.cards) - pile.hidden
    return len(pile.cards)


def _columns(state: engine.GameState, band: list[str], per_row: int, y: int, tall: bool,
             cells: list[Cell]) -> int:
    """A band of tableau piles: names, then each pile's cards downwards."""
    for start in range(0, len(band), per_row):
        names = band[start:start + per_row]
        deepest = 1
        for i, name in enumerate(names):
            x = i * PITCH
            pile = state.piles[name]
            cells.append(Cell(x, y, "label", name, -1, len(pile.cards)))
            row = y + 1
            if not pile.cards:
                cells.append(Cell(x, row, "empty", name, -1))
            elif tall and pile.hidden:
                cells.append(Cell(x, row, "back", name, pile.hidden - 1, pile.hidden))
                row += 1
            for index in range(0 if not tall else pile.hidden, len(pile.cards)):
                kind = "back" if index < pile.hidden else "card"
                cells.append(Cell(x, row, kind, name, index))
                row += 1
            deepest = max(deepest, _rows(pile, tall))
        y += 2 + deepest
    return y
