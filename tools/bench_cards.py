"""Benchmark: text → CBN deck → text, file to file, against a plain per-column Python loop.

``python -m tools.bench_cards [--cards N] [--plain-cards M] [--seed S] [--json]``

N cards of random text (seeded; lines of 0–80 characters from the 029 code's upper-case ASCII set)
are written to a temporary text deck.  The *fast* path is the library's own streaming one — what
``ibm1013 cards encode``/``decode`` run: :func:`~emulator.formats.read_deck_arrays` and
:func:`~emulator.formats.write_deck_arrays` over numpy chunks — encoding the text deck to a CBN deck
and decoding that back to text.  The *plain* path does the same work with a Python loop over every
column (dictionary look-ups, parity from a table, one ``bytes`` per card).  It runs in the same
process on the first M cards (the rates are per card, so a smaller sample keeps the run short), and
both outputs are compared byte for byte.

The fast path runs ``--repeat`` times each way after a small warm-up and the best time counts.
Reported: cards per second each way for both paths, their ratio (fast/plain), and the peak memory
of the fast path (``tracemalloc`` peak of Python and numpy allocations, and the process's maximum
resident set).  Files are written without ``fsync`` (the CLI adds one at the end).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

from emulator import get_code
from emulator.formats import read_deck_arrays, write_deck_arrays

ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,()+-*/=$'&%<>:;#@"
"""Characters of the generated text (all in the 029 code)."""


def make_text(path: str, cards: int, seed: int) -> None:
    """A text deck of ``cards`` random lines (0–80 characters each)."""
    rng = np.random.default_rng(seed)
    alphabet = np.frombuffer(ALPHABET, dtype=np.uint8)
    with open(path, "wb") as out:
        for start in range(0, cards, 100_000):
            n = min(100_000, cards - start)
            lengths = rng.integers(0, 81, n)
            chars = alphabet[rng.integers(0, len(alphabet), int(lengths.sum()) + n)]
            chars[np.cumsum(lengths + 1) - 1] = ord("\n")
            out.write(chars.tobytes())


# -- the fast path: the library ---------------------------------------------------------------------

def fast_convert(source: str, target: str, source_format: str, target_format: str) -> None:
    with open(source, "rb") as stream, open(target, "wb") as out:
        _, arrays = read_deck_arrays(stream, source_format, code="029", source=source)
        write_deck_arrays(arrays, out, target_format, code="029")


# -- the plain path: one Python step per column ------------------------------------------------------

def _cbn_byte(six: int) -> int:
    return six | (0x40 if bin(six).count("1") % 2 == 0 else 0)


CBN_BYTE = [_cbn_byte(v) for v in range(64)]


def plain_encode(source: str, target: str, cards: int) -> None:
    """Text deck → CBN, column by column (simple lines only: no TAB or ``~`` in the generated text)."""
    encoding = get_code("029").encoding
    with open(source, encoding="ascii") as lines, open(target, "wb") as out:
        for _, line in zip(range(cards), lines, strict=False):
            record = bytearray()
            text = line.rstrip("\n")[:80].ljust(80)
            for column, ch in enumerate(text):
                word = encoding[ch]
                record.append(CBN_BYTE[word >> 6] | (0x80 if column == 0 else 0))
                record.append(CBN_BYTE[word & 0x3F])
            out.write(record)


def plain_decode(source: str, target: str) -> None:
    """CBN → text, column by column, checking parity and trimming trailing blanks."""
    decoding = get_code("029").decoding
    with open(source, "rb") as deck, open(target, "wb") as out:
        while record := deck.read(160):
            chars = []
            for i in range(0, 160, 2):
                hi, lo = record[i] & 0x7F, record[i + 1]
                if CBN_BYTE[hi & 0x3F] != hi or CBN_BYTE[lo & 0x3F] != lo:
                    raise ValueError(f"parity error at column {i // 2 + 1}")
                chars.append(decoding[((hi & 0x3F) << 6) | (lo & 0x3F)])
            out.write(("".join(chars).rstrip(" ") or " ").encode() + b"\n")


# -- measuring ----------------------------------------------------------------------------------------

def timed(step: Callable[[], Any]) -> float:
    start = time.perf_counter()
    step()
    return time.perf_counter() - start


def best_of(repeat: int, step: Callable[[], Any]) -> float:
    return min(timed(step) for _ in range(repeat))


def run(cards: int, plain_cards: int, seed: int, repeat: int = 3, progress: Any = None) -> dict[str, Any]:
    plain_cards = min(plain_cards, cards)
    with tempfile.TemporaryDirectory(prefix="bench_cards.") as tmp:
        paths = {name: os.path.join(tmp, name) for name in
                 ("in.txt", "fast.cbn", "fast.txt", "plain.cbn", "plain.txt", "sample.txt", "sample.cbn")}
        step = progress or (lambda label, fn: fn())
        step("writing the text deck", lambda: make_text(paths["in.txt"], cards, seed))
        # Warm-up on a small deck: code tables, numpy and the page cache settle before timing.
        make_text(paths["sample.txt"], 1000, seed)
        fast_convert(paths["sample.txt"], paths["sample.cbn"], "text", "cbn")
        fast_convert(paths["sample.cbn"], paths["sample.txt"], "cbn", "text")
        encode = step("fast encode", lambda: best_of(repeat, lambda: fast_convert(
            paths["in.txt"], paths["fast.cbn"], "text", "cbn")))
        decode = step("fast decode", lambda: best_of(repeat, lambda: fast_convert(
            paths["fast.cbn"], paths["fast.txt"], "cbn", "text")))
        tracemalloc.start()  # a separate pass: tracing costs time
        step("memory", lambda: (fast_convert(paths["in.txt"], paths["fast.cbn"], "text", "cbn"),
                                fast_convert(paths["fast.cbn"], paths["fast.txt"], "cbn", "text")))
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        plain_enc = step("plain encode", lambda: timed(
            lambda: plain_encode(paths["in.txt"], paths["plain.cbn"], plain_cards)))
        plain_dec = step("plain decode", lambda: timed(
            lambda: plain_decode(paths["plain.cbn"], paths["plain.txt"])))
        with open(paths["fast.cbn"], "rb") as f:
            same_cbn = f.read(160 * plain_cards) == open(paths["plain.cbn"], "rb").read()
        with open(paths["fast.txt"], "rb") as f:
            plain_text = open(paths["plain.txt"], "rb").read()
            same_text = f.read(len(plain_text)) == plain_text
        expected = sum(1 for _ in open(paths["in.txt"], "rb"))
    result = {
        "cards": cards,
        "plain_cards": plain_cards,
        "repeat": repeat,
        "encode_cards_per_s": cards / encode,
        "decode_cards_per_s": cards / decode,
        "plain_encode_cards_per_s": plain_cards / plain_enc,
        "plain_decode_cards_per_s": plain_cards / plain_dec,
        "peak_tracemalloc_mb": peak / 2**20,
        "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "outputs_match": same_cbn and same_text and expected == cards,
    }
    result["encode_ratio"] = result["encode_cards_per_s"] / result["plain_encode_cards_per_s"]
    result["decode_ratio"] = result["decode_cards_per_s"] / result["plain_decode_cards_per_s"]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_cards", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=1_000_000, help="cards for the fast path")
    parser.add_argument("--plain-cards", type=int, default=50_000, help="cards for the plain loop")
    parser.add_argument("--seed", type=int, default=1013)
    parser.add_argument("--repeat", type=int, default=3, help="fast runs each way; the best counts")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if min(args.cards, args.plain_cards, args.repeat) < 1:
        parser.error("--cards, --plain-cards and --repeat must be at least 1")
    if args.json or not sys.stderr.isatty():
        result = run(args.cards, args.plain_cards, args.seed, args.repeat)
    else:
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TimeElapsedColumn

        with Progress(SpinnerColumn(), "{task.description}", TimeElapsedColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            def step(label: str, fn: Callable[[], Any]) -> Any:
                task = bar.add_task(label, total=None)
                value = fn()
                bar.update(task, total=1, completed=1)
                return value

            result = run(args.cards, args.plain_cards, args.seed, args.repeat, progress=step)
    if args.json:
        print(json.dumps(result))
    else:
        r = result
        print(f"text -> cbn -> text, file to file, {r['cards']:,} cards, best of {r['repeat']} "
              f"(plain loop on {r['plain_cards']:,})")
        print(f"  encode text->cbn : {r['encode_cards_per_s']:>12,.0f} cards/s   "
              f"plain {r['plain_encode_cards_per_s']:>10,.0f} cards/s   ratio {r['encode_ratio']:6.1f}x")
        print(f"  decode cbn->text : {r['decode_cards_per_s']:>12,.0f} cards/s   "
              f"plain {r['plain_decode_cards_per_s']:>10,.0f} cards/s   ratio {r['decode_ratio']:6.1f}x")
        print(f"  peak memory      : {r['peak_tracemalloc_mb']:.1f} MB traced (fast path), "
              f"{r['max_rss_mb']:.0f} MB max RSS (process)")
        print(f"  outputs match    : {r['outputs_match']}")
    return 0 if result["outputs_match"] else 1


if __name__ == "__main__":
    sys.exit(main())
