"""The solitaire board for people: piles drawn as columns, red suits in red, and the help a game needs.

Every solitaire program draws the tableau the same way — one column per pile, the cards of a pile
stacked downwards with the face-down ones (``##``) at the top — and the other piles in a row above
it.  :func:`board` builds that picture as a :class:`rich.text.Text`: ``.plain`` is the text for
scripts, pipes and ``NO_COLOR``; printed through :func:`console` it shows diamonds and hearts in
red and the waste's playable top card highlighted (it is also marked ``[8S]`` in plain text).
Games that lay their cards out in a grid of their own (Labyrinth, Bisley) keep their ``render``
hook.  The board fits 80 columns: a game with more piles than fit is drawn in bands.

:func:`move_help` lists only the move forms the game in hand has; :func:`game_rules` is the game's
section of ``docs/games.md`` (our reading of its rule text; the package installs a copy as
``decks/data/games.md``), falling back to the game module's own description.
"""

from __future__ import annotations

import os
import re
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import IO

from rich.console import Console
from rich.text import Text

from decks import engine
from decks.engine.state import role_of
from emulator.words import cards, counted

WIDTH = 80
"""Columns the board may use."""
COLUMN = 4
"""Characters per tableau column: a card name (2) and a gap."""
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED = "red"
DOCS_GAMES = Path(__file__).resolve().parent / "data" / "games.md"
"""docs/games.md, installed with the package (``decks/data/games.md`` links to it in a checkout)."""

_CARD = re.compile(r"\b([A2-9TJQK])([CDHS])\b")


def console(file: IO[str] | None = None) -> Console:
    """A console that colours only a real terminal, and never when ``NO_COLOR`` is set."""
    stream = file or sys.stdout
    tty = bool(getattr(stream, "isatty", lambda: False)())
    color = tty and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"
    return Console(file=stream, force_terminal=color, no_color=not color, highlight=False,
                   emoji=False, markup=False, width=None if tty else WIDTH)


def card_text(name: str, symbols: bool, style: str = "") -> Text:
    """One card: its short name (or rank + suit symbol), red for diamonds and hearts."""
    red = name[-1:] in "DH"
    shown = name[:-1] + SUIT_SYMBOLS[name[-1]] if symbols and name[-1:] in SUIT_SYMBOLS else name
    return Text(shown, style=" ".join(s for s in (RED if red else "", style) if s))


def colour_cards(text: str, symbols: bool) -> Text:
    """A game's own drawing with every card name coloured (and symbolised if asked)."""
    out = Text()
    last = 0
    for m in _CARD.finditer(text):
        out.append(text[last:m.start()])
        out.append_text(card_text(m.group(0), symbols))
        last = m.end()
    out.append(text[last:])
    return out


def board(state: engine.GameState, symbols: bool = False) -> Text:
    """The whole board: title, the piles above the tableau, the tableau in columns, the status."""
    rules = engine.rules_of(state)
    title = Text(f"{rules.title}, deal {state.deal_number}, move {len(state.history)}", style="bold")
    render: Callable[[engine.GameState], str] | None = getattr(
        sys.modules.get(rules.deal.__module__), "render", None)
    if render is not None:
        body = colour_cards(render(state), symbols)
    else:
        body = _piles(state, symbols, getattr(sys.modules.get(rules.deal.__module__), "BOARD_ROWS", None))
    status = Text(status_line(state), style="bold" if engine.is_won(state) else "")
    return Text("\n").join([title, body, status])


def status_line(state: engine.GameState) -> str:
    """What the player should know now: won, stuck, or how many moves are open."""
    if engine.is_won(state):
        return f"WON in {counted(len(state.history), 'move')}"
    moves = engine.legal_moves(state)
    if not moves:
        return "stuck: no legal move"
    if engine.is_stuck(state):
        return "stuck: only going round the stock is left"
    return counted(len(moves), "legal move")


# ---------------------------------------------------------------------------------------------
# the generic board


_ROW_ORDER = ("stock", "hand card", "waste", "foundation", "reserve", "discard", "other")
_ROW_LABEL = {"stock": "stock", "waste": "waste", "foundation": "foundations", "reserve": "reserve",
              "discard": "discard", "other": "other", "hand card": "hand card"}


def _piles(state: engine.GameState, symbols: bool, rows: tuple[tuple[str, ...], ...] | None) -> Text:
    """The piles by role, one line a role, then the tableau in columns.  A game module may set
    ``BOARD_ROWS``, groups of piles drawn as bands of columns in that order (Little Spider: upper
    row, the foundations, lower row)."""
    bands = [list(group) for group in rows] if rows else []
    in_bands = {name for band in bands for name in band}
    lines: list[Text] = []
    by_role: dict[str, list[str]] = {}
    for name in state.piles:
        if name not in in_bands:
            by_role.setdefault(role_of(name), []).append(name)
    for role in _ROW_ORDER:
        if role in by_role:
            lines.extend(_pile_row(state, role, by_role[role], symbols))
    if by_role.get("tableau"):
        bands.append(by_role["tableau"])
    for band in bands:
        lines.append(Text())
        lines.extend(_columns(state, band, symbols))
    return Text("\n").join(lines)


def _pile_row(state: engine.GameState, role: str, names: list[str], symbols: bool) -> list[Text]:
    """One role's piles on a line (wrapped at the board width): ``foundations  f1 AH  f2 --``."""
    items = [_pile_item(state, role, name, symbols) for name in names]
    label = f"{_ROW_LABEL[role]:<12}"
    lines, line = [], Text(label)
    for item in items:
        if line.cell_len + 2 + item.cell_len > WIDTH and line.cell_len > len(label):
            lines.append(line)
            line = Text(" " * len(label))
        elif line.cell_len > len(label):
            line.append("  ")
        line.append_text(item)
    lines.append(line)
    return lines


def _pile_item(state: engine.GameState, role: str, name: str, symbols: bool) -> Text:
    pile = state.piles[name]
    item = Text(f"{name} ", style="dim")
    if role == "stock":
        return item.append(_count(len(pile.cards)) if pile.cards else "empty")
    if role == "discard":
        return item.append(_count(len(pile.cards)))
    if not pile.cards:
        return item.append("--", style="dim")
    if role in ("waste", "hand card"):  # the last few cards, the playable top one marked
        if len(pile.cards) > 3:
            item.append(f"({len(pile.cards) - 3} more) ", style="dim")
        for c in pile.cards[-3:-1]:
            item.append_text(card_text(c.name, symbols)).append(" ")
        top = card_text(pile.cards[-1].name, symbols, "bold reverse")
        return item.append("[").append_text(top).append("]")
    if pile.hidden == len(pile.cards):
        return item.append(f"## ×{len(pile.cards)}")
    item.append_text(card_text(pile.cards[-1].name, symbols))
    if len(pile.cards) > 1:
        item.append(f" ({len(pile.cards)})", style="dim")
    return item


def _shown(state: engine.GameState, name: str) -> int:
    """Cards of a pile drawn in a column: all of a tableau pile, the top one of any other."""
    pile = state.piles[name]
    return len(pile.cards) if role_of(name) == "tableau" else min(len(pile.cards), 1)


def _count(n: int) -> str:
    return cards(n)


def _columns(state: engine.GameState, names: list[str], symbols: bool) -> list[Text]:
    """Piles as columns, cards stacked downwards, in bands that fit the width."""
    per_band = max(1, WIDTH // COLUMN)
    lines: list[Text] = []
    for start in range(0, len(names), per_band):
        band = names[start:start + per_band]
        if start:
            lines.append(Text())
        lines.append(Text("".join(f"{n:<{COLUMN}}" for n in band).rstrip(), style="dim"))
        depth = max((_shown(state, n) for n in band), default=0)
        for row in range(max(depth, 1)):
            line = Text()
            for n in band:
                pile = state.piles[n]
                if row < _shown(state, n):
                    i = row + len(pile.cards) - _shown(state, n)  # a foundation shows its top card only
                    cell = (Text("##", style="dim") if i < pile.hidden
                            else card_text(pile.cards[i].name, symbols))
                else:
                    cell = Text("--" if row == 0 else "  ", style="dim")
                line.append_text(cell).append(" " * (COLUMN - 2))
            line.rstrip()
            lines.append(line)
    return lines


# ---------------------------------------------------------------------------------------------
# help and rules for the game in hand


PICKS = {
    "labyrinth": ("p t34", "last resort when stuck: any card of the layout to a foundation"),
    "queen-of-italy": ("p t3", "choose the card that starts the first foundation"),
    "british-constitution": ("p t23 t11", "the card of t23 fills the space t11 above it"),
}
"""The ``p`` (pick) move of the games that have one, with an example (docs/games.md)."""


def move_help(state: engine.GameState) -> str:
    """The move forms this game has (the syntax, not advice: ``moves`` lists the legal ones), one
    a line with an example, then the commands."""
    forms = move_forms(state)
    width = max((len(f) for f, _ in forms), default=0)
    lines = [f"{'syntax:' if i == 0 else '':<10}{form:<{width}}  {what}"
             for i, (form, what) in enumerate(forms)]
    lines.append("commands: moves [all]  undo [N]  redo [N]  hint [N]  rules  save FILE  ? (help)  quit")
    return "\n".join(lines)


def move_forms(state: engine.GameState) -> list[tuple[str, str]]:
    """(example, what it does) for each move form the game in hand has, named with its own piles
    (Parallels' cells are ``t1a`` …, British Constitution's ``t11`` …)."""
    rules = engine.rules_of(state)
    roles = {role_of(n) for n in state.piles}
    plays = rules.to_tableau + rules.to_foundation
    tableau = state.names("tableau") or ["t1"]
    t1, t2, t3, t4, t5 = (tableau[min(i, len(tableau) - 1)] for i in range(5))
    forms = []
    if "foundation" in roles and "tableau" in rules.to_foundation:
        forms.append((f"{t3} f", f"the top card of {t3} to a foundation"))
    if "hand card" in roles and "hand card" in plays:
        forms.append((f"h {t2}", f"the hand card (the card just turned) onto {t2}"))
    if "waste" in roles and "waste" in plays:
        forms.append((f"w {t2}", f"the top card of the waste onto {t2}") if "waste" in rules.to_tableau
                     else ("w f", "the top card of the waste to a foundation"))
    if "reserve" in roles and "reserve" in plays:
        r1 = state.names("reserve")[0]
        forms.append((f"{r1} {t2}", f"{r1} onto {t2}") if "reserve" in rules.to_tableau
                     else (f"{r1} f", f"{r1} to a foundation"))
    if "foundation" in rules.to_foundation:
        found = state.names("foundation")  # a suit's two foundations are half the row apart
        f1, other = found[0], found[len(found) // 2]
        forms.append((f"{f1} {other}", f"the top card of {f1} onto {other} (a reversal)"))
    if "foundation" in rules.to_tableau:
        f1 = state.names("foundation")[0]
        forms.append((f"{f1} {t2}", f"the top card of {f1} back onto {t2}"))
    if "tableau" in rules.to_tableau and rules.build == "none":
        forms.append((f"{t3} {t1}", f"the top card of {t3} into the space {t1}"))
    if "tableau" in rules.to_tableau and rules.build != "none":
        if rules.unit == "face-up":
            forms.append((f"{t1} {t4} 3", f"{t1} onto {t4}: its face-up cards (here 3) together"))
        else:
            forms.append((f"{t1} {t4}", f"the top card of {t1} onto {t4}"))
            if rules.unit != "one":
                forms.append((f"{t1} {t4} 3", f"the top 3 cards of {t1} as a unit"))
    actions = rules.actions
    if "stock" in actions:
        forms.append(("s", "the hand card onto the waste, the next card of the hand into h"
                      if "hand card" in roles else "turn cards from the stock onto the waste"
                      if "waste" in roles else "deal from the stock"))
    if "redeal" in actions and state.options.get("redeals", 1) not in (0, "0"):
        forms.append(("r", "redeal"))
    if "remove" in actions and not state.options.get("auto_discard", False):
        forms.append((f"x {t3} {t5}", f"remove the top cards of {t3} and {t5} (x {t2}: one card, where "
                      "allowed)"))
    if "pick" in actions:
        forms.append(PICKS.get(state.game, (f"p {t3}", "the game's special pick (see 'rules')")))
    return forms


def game_rules(name: str) -> str:
    """Our reading of a game's rules: its section of docs/games.md, else its module's description."""
    rules = engine.get_game(name)
    section = docs_section(name)
    if section:
        return section
    doc = sys.modules[rules.deal.__module__].__doc__ or rules.notes
    return doc.replace("``", "").strip()


def docs_section(name: str, path: Path = DOCS_GAMES) -> str | None:
    """The ``### Title — `name``` section of docs/games.md as plain text for the terminal (Markdown
    emphasis dropped, paragraphs and list items re-wrapped to 78 columns); None if absent."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    m = re.search(rf"^### ([^\n]*) — `{re.escape(name)}`\n(.*?)(?=^##|\Z)", text, re.M | re.S)
    if m is None:
        return None
    body = m.group(2).replace("**", "").replace("`", "")
    blocks = re.split(r"\n(?=\* )|\n\s*\n", body.strip())
    out = [m.group(1).strip(), ""]
    for block in blocks:
        words = " ".join(block.split())
        bullet = words.startswith("* ")
        out.append(textwrap.fill(words, 78, subsequent_indent="  " if bullet else "",
                                 break_on_hyphens=False))
    return "\n".join(out)
