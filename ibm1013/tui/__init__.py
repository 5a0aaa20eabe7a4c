"""The full-screen game: ``ibm1013 play`` and ``ibm1013 watch`` on a terminal.

Built on Textual (https://textual.textualize.io): it is written on rich, which draws our boards
already, it redraws only what changed and follows the terminal's size, it reads the mouse and the
keys of every common terminal, and it comes with a test pilot that drives an app headless with keys
and clicks — so the tests press keys and click cards as a player does.

* :mod:`ibm1013.tui.layout` — where every card of a game goes on a screen of a given size (and
  which card a click hits); pure, no Textual.
* :mod:`ibm1013.tui.play` — the board a player plays on, driving a :class:`decks.session.Session`.
* :mod:`ibm1013.tui.line` — the line pane: cards as they arrive, the STR exchange, the rates.
* :mod:`ibm1013.tui.watch` — the watcher's screen: the streamed game's board and the line beside it.
"""
