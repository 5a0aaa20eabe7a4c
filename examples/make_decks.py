"""Make the sample decks in examples/sample-decks/ again (``tests/test_examples.py`` checks they are current).

    python examples/make_decks.py [OUTDIR]

* ``hello.cbn`` and ``hello.ebcdic``: ``hello.f`` punched by ``encode_deck.py`` (the same bytes as
  ``ibm1013 cards encode hello.f -o hello.cbn --code 026-fortran`` and ``… -o hello.ebcdic --format
  ebcdic``).
* ``games/GAME.txt``: deal 1 of every game, punched as a deck in SIMH text form, one card a line
  (the same as ``ibm1013 deal GAME --deal 1 -o GAME.txt --format text``).
* ``games/GAME-compact.txt``: the same deal as one compact card (``docs/streaming.md``; the same as
  ``ibm1013 deal GAME --deal 1 --compact -o GAME-compact.txt --format text``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import decks
from emulator import write_deck

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import encode_deck  # noqa: E402 - the example script beside this one


def main(outdir: Path = HERE / "sample-decks") -> None:
    text = (HERE / "sample-decks" / "hello.f").read_text()
    outdir.mkdir(parents=True, exist_ok=True)
    encode_deck.write(encode_deck.punch(text, "026-fortran"), outdir / "hello.cbn", "cbn")
    encode_deck.write(encode_deck.punch(text, "029"), outdir / "hello.ebcdic", "ebcdic")
    games = outdir / "games"
    games.mkdir(exist_ok=True)
    for name in decks.game_names():
        state = decks.deal(name, 1)
        write_deck(decks.punch_game(state), games / f"{name}.txt", "text")
        write_deck(decks.punch_game(state, compact=True), games / f"{name}-compact.txt", "text")
    print(f"{outdir}: hello.cbn, hello.ebcdic, {len(decks.game_names())} games")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "sample-decks")
