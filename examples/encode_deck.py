"""Punch a text file into a deck of cards with the Python API, write it in two formats, read it back.

    python examples/encode_deck.py examples/sample-decks/hello.f OUTDIR

Each line of the text is one card, punched through a keypunch code: ``026-fortran`` for a FORTRAN
program (its ``(`` ``)`` ``=`` ``+`` are the 026's FORTRAN holes), ``029`` for anything EBCDIC.  The
deck is written as SIMH column binary (``.cbn``, for simh 4.x: ``attach -F cdr CBN hello.cbn``) and as
80-byte EBCDIC records (``.ebcdic``, for Hercules: ``000C 3505 hello.ebcdic ebcdic``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from emulator import Card, Deck, read_deck, write_deck


def punch(text: str, code: str) -> Deck:
    """One card per line of ``text``, keypunched through ``code``."""
    return Deck((Card.from_text(line, code) for line in text.splitlines()), code=code)


def write(cards: Deck, path: Path, fmt: str) -> None:
    write_deck(cards, path, fmt)  # in the deck's code; the file whole or not at all


def main(source: str, outdir: str) -> None:
    src, out = Path(source), Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    text = src.read_text()
    fortran = punch(text, "026-fortran")
    write(fortran, out / f"{src.stem}.cbn", "cbn")
    ebcdic = punch(text, "029")
    write(ebcdic, out / f"{src.stem}.ebcdic", "ebcdic")

    again = read_deck(out / f"{src.stem}.cbn", code="026-fortran")  # read back: the format is detected
    assert again == fortran and again.format == "cbn"
    print(f"{len(fortran)} cards -> {src.stem}.cbn ({(out / f'{src.stem}.cbn').stat().st_size} bytes), "
          f"{src.stem}.ebcdic ({(out / f'{src.stem}.ebcdic').stat().st_size} bytes)")
    print("card 3 reads back as:", again[2].text(again.code).rstrip())
    print(f"its column 14, '(', is punched {again[2].punches(14)} on the 026 (029: {ebcdic[2].punches(14)})")


if __name__ == "__main__":
    main(*sys.argv[1:3])
