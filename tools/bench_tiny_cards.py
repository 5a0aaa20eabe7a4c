"""Benchmark: degenerate decks of two-byte cards against a normal deck, per card, in the same run.

``python -m tools.bench_tiny_cards [--cards N] [--repeat R] [--json]``

A CBN file of N byte pairs ``FF 40`` is N two-byte cards (each a record mark with rows 12–3 punched
in column 1, the rest of the card blank), the smallest cards a CBN deck can hold: a one-byte card
(a file of bytes 0xFF) ends on an odd byte, half a column, and is refused at card 1 (read only with
``--lenient``).  A normal CBN deck of N cards is 160 N bytes.  Each is put through what ``ibm1013
cards`` runs — convert to text, decode to plain text with ``--lenient``, convert to BIN, to CBN
and to ``art`` (drawn card by card, so on a twentieth of the cards, ``--art-cards``) — and the text
deck of each (``~raw`` lines for the tiny cards) is read back into CBN.  A file of N bytes 0xFF
(N one-byte cards) is read with ``lenient``, as ``decode --lenient`` does, and written as CBN and
as plain text.  Reported: CPU time per card
for both decks and their ratio (tiny/normal; 1 means a two-byte card costs what a full card does;
issue 23's target is at most 2).  CPU time (``time.process_time``) is less disturbed by other work
on the machine than wall time; the best of ``--repeat`` runs counts.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from emulator import Card
from emulator.codes import Substitutions
from emulator.deck import cards_to_array
from emulator.formats import cbn, read_deck_arrays, write_deck_arrays


def convert(source: str, target: str, source_format: str, target_format: str, **options: Any) -> None:
    with open(source, "rb") as stream, open(target, "wb") as out:
        _, arrays = read_deck_arrays(stream, source_format, code="029", **options)
        write_deck_arrays(arrays, out, target_format, code="029", **options)


STEPS: dict[str, Callable[[str, str], None]] = {
    "cbn -> text": lambda a, b: convert(a, b, "cbn", "text"),
    "decode --lenient": lambda a, b: convert(a, b, "cbn", "text", lenient=True, raw=False,
                                             substitutions=Substitutions()),
    "cbn -> bin": lambda a, b: convert(a, b, "cbn", "bin"),
    "cbn -> cbn": lambda a, b: convert(a, b, "cbn", "cbn"),
}
ONE_BYTE: dict[str, Callable[[str, str], None]] = {
    "one-byte, lenient -> cbn": lambda a, b: convert(a, b, "cbn", "cbn", lenient=True),
    "one-byte, decode --lenient": STEPS["decode --lenient"],
}
"""Steps for the deck of one-byte cards, read only with ``lenient``."""
ART = "cbn -> art"
"""Drawn card by card in Python: measured on a smaller pair of decks."""


def best_cpu(repeat: int, step: Callable[[], None]) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        step()
        times.append(time.process_time() - start)
    return min(times)


def write_decks(directory: str, cards: int) -> tuple[str, str]:
    """A normal CBN deck of ``cards`` cards of text and a deck of as many two-byte cards."""
    normal, tiny = os.path.join(directory, f"normal{cards}.cbn"), os.path.join(directory, f"tiny{cards}.cbn")
    rows = cards_to_array([Card.from_text(f"CARD {i:04d} THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG")
                           for i in range(100)])
    with open(normal, "wb") as out:
        for start in range(0, cards, 10_000):
            out.write(cbn.encode_array(np.tile(rows, (100, 1))[: min(10_000, cards - start)]))
    with open(tiny, "wb") as out:
        out.write(b"\xff\x40" * cards)
    return normal, tiny


def run(cards: int, repeat: int, art_cards: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        normal, tiny = write_decks(tmp, cards)
        out_path = os.path.join(tmp, "out")
        results = {}
        for label, step in STEPS.items():
            a = best_cpu(repeat, lambda step=step: step(normal, out_path))
            b = best_cpu(repeat, lambda step=step: step(tiny, out_path))
            results[label] = (a * 1e6 / cards, b * 1e6 / cards)
        one = os.path.join(tmp, "one.cbn")
        with open(one, "wb") as out:
            out.write(b"\xff" * cards)
        for label, step in ONE_BYTE.items():
            results[label] = tuple(best_cpu(repeat, lambda path=path, step=step: step(path, out_path))
                                   * 1e6 / cards for path in (normal, one))
        small = write_decks(tmp, art_cards)
        results[ART] = tuple(best_cpu(repeat, lambda path=path: convert(path, out_path, "cbn", "art"))
                             * 1e6 / art_cards for path in small)
        texts = {}
        for name, path in (("normal", normal), ("tiny", tiny)):
            texts[name] = os.path.join(tmp, f"{name}.txt")
            convert(path, texts[name], "cbn", "text")
        results["text -> cbn"] = tuple(
            best_cpu(repeat, lambda path=texts[name]: convert(path, out_path, "text", "cbn")) * 1e6 / cards
            for name in ("normal", "tiny")
        )
    return {
        "cards": cards,
        "art_cards": art_cards,
        "steps": {
            label: {"normal_us_per_card": a, "tiny_us_per_card": b,
                    "ratio": b / a if a else None}
            for label, (a, b) in results.items()
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_tiny_cards",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=300_000, help="cards in each deck (default 300000)")
    parser.add_argument("--art-cards", type=int, help="cards in each deck drawn as art (default a twentieth)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each step; the best counts")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    art_cards = max(1, args.cards // 20) if args.art_cards is None else args.art_cards
    if args.cards < 1 or args.repeat < 1 or art_cards < 1:
        parser.error("--cards, --art-cards and --repeat must be at least 1")
    report = run(args.cards, args.repeat, art_cards)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{args.cards} cards each ({art_cards} to art); CPU time per card, best of {args.repeat}; "
          "tiny cards: two-byte, or one-byte in the one-byte rows")
    for label, row in report["steps"].items():
        print(f"  {label:26s} normal deck {row['normal_us_per_card']:6.2f} us   tiny cards "
              f"{row['tiny_us_per_card']:6.2f} us   ratio {row['ratio']:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
