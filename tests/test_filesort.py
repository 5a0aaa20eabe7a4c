"""``cards sort`` by the key columns alone, the records copied out (:mod:`emulator.deckops.filesort`),
writes what the sort of the whole deck held as column words writes, byte for byte.

The reference is the sort as it was before the copy: every card read as a deck array, put in order by
Python's stable sort on the model keys (tests/test_deckops.py), written by the format's writer.
Random decks, seeded: keys with ties, lines short, empty, long, with trailing blanks, lower case,
TABs, CRs, characters beyond ASCII, ``~`` lines, a last line with no newline; CBN decks of full
cards, short cards and end-of-file bytes.  Small blocks and segments make every deck take several
blocks and several passes, so the copy, the fall-back to words midway and the segments all run.
Errors read as the whole-deck read's, and nothing is written.
"""

from __future__ import annotations

import io
import random

import numpy as np
import pytest

from emulator.card import Card
from emulator.deck import array_to_cards, cards_to_array
from emulator.deckops import filesort
from emulator.deckops.fields import Field
from emulator.deckops.keys import SortKey
from emulator.formats import read_deck_arrays, text, write_deck_arrays
from ibm1013.cli.main import main
from tests.test_deckops import model_sort

PIECES = ["ABC", "xyz", "0123", "  ", "é", "\t", "~", "(+)", "$*,", "12", "99", "=-/", "\r", "¢"]


def text_line(rng: random.Random) -> bytes:
    kind = rng.random()
    if kind < 0.55:  # a plain card: text and a sequence number that often ties
        return (rng.choice(["HELLO", "A", "X" * 72, "SORT ME", ""]).ljust(rng.choice([0, 72]))
                + f"{rng.randrange(6):08d}"[: rng.choice([8, 8, 8, 3])]).encode()
    if kind < 0.6:
        return rng.choice([b"~", b"~raw 4400 2200", b"~eof", b"", b"~hello"])
    if kind < 0.65:
        return b"Z" * rng.randrange(81, 120)  # past column 80: cut, counted
    return "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 30))).encode()


def text_deck(rng: random.Random, n: int, plain: bool) -> bytes:
    lines = [(text_line(rng) if not plain else f"CARD{i % 7:>4}".ljust(72).encode()
              + f"{rng.randrange(50):08d}".encode()) for i in range(n)]
    data = b"\n".join(lines)
    bom = b"\xef\xbb\xbf" if rng.random() < 0.2 else b""
    return bom + (data if rng.random() < 0.5 else data + b"\n")


def cbn_deck(rng: random.Random, n: int, plain: bool) -> bytes:
    cards = []
    for _ in range(n):
        if not plain and rng.random() < 0.05:
            cards.append(None)
            continue
        width = 80 if plain or rng.random() < 0.8 else rng.randrange(1, 80)
        cards.append([rng.randrange(4096) if rng.random() < 0.3 else 0x200 >> rng.randrange(10)
                      for _ in range(width)])
    out = io.BytesIO()
    from emulator.formats import cbn

    for columns in cards:
        if columns is None:
            out.write(bytes([cbn.EOF_BYTE]))
            continue
        card = Card(columns + [0] * (80 - len(columns)))
        out.write(bytes(cbn.encode_array(cards_to_array([card])))[: 2 * len(columns)])
    return out.getvalue()


def reference(data: bytes, fmt: str, keys: list[SortKey], code: str = "029") -> bytes:
    """The sort as it was: the deck held as words, the model's stable order, the format's writer."""
    _, arrays = read_deck_arrays(io.BytesIO(data), fmt, code=code)
    cards = array_to_cards(np.concatenate([cards_to_array([]), *arrays]))
    out = io.BytesIO()
    write_deck_arrays([cards_to_array(model_sort(cards, keys, code))], out, fmt, code=code)
    return out.getvalue()


@pytest.fixture
def small_pieces(monkeypatch):
    """Blocks of about 300 bytes, output segments of about 1,000 and reads of 200 while copying: a
    deck of a few hundred cards takes many blocks, several passes and many reads."""
    monkeypatch.setattr(text, "CHUNK_BYTES", 300)
    monkeypatch.setattr(filesort, "SEGMENT_BYTES", 1000)
    monkeypatch.setattr(filesort, "_TEXT_READ", 200)


@pytest.mark.parametrize("seed", range(24))
@pytest.mark.parametrize("fmt", ["text", "cbn"])
def test_sort_writes_what_the_whole_deck_sort_wrote(tmp_path, capsys, small_pieces, fmt, seed):
    rng = random.Random(seed)
    plain = seed % 3 == 0  # a third of the decks copy whole; the others mostly fall back somewhere
    data = (text_deck if fmt == "text" else cbn_deck)(rng, rng.randrange(0, 400), plain)
    deck = tmp_path / f"deck.{'txt' if fmt == 'text' else 'cbn'}"
    deck.write_bytes(data)
    first = rng.randrange(1, 78)
    by = [f"{first}-{min(80, first + rng.randrange(8))}", "73-80"][: rng.choice([1, 2])]
    descending = rng.random() < 0.3
    keys = [SortKey(Field.parse(f), descending=descending) for f in by]
    out = tmp_path / f"out.{deck.suffix[1:]}"
    argv = ["cards", "sort", str(deck), "-o", str(out), *sum((["--by", f] for f in by), []),
            *(["--descending"] if descending else [])]
    try:
        expected = reference(data, fmt, keys)
    except Exception as err:  # the deck is refused: the sort refuses it in the same words
        assert main(argv) != 0
        assert str(err).split(": ", 1)[-1] in capsys.readouterr().err
        assert not out.exists()
        return
    assert main(argv) == 0, capsys.readouterr().err
    assert out.read_bytes() == expected


def test_a_plain_deck_is_copied_and_the_others_held_as_words(tmp_path):
    """The copy is taken where it is exact, and only there (else the test above would prove little)."""
    rng = random.Random(7)
    cases = {"plain.txt": (text_deck(rng, 300, True), True), "odd.txt": (b"AB  \nCD\n", False),
             "tab.txt": (b"A\tB\nCD\n", False), "eof.txt": (b"AB\n~\nCD\n", False),
             "full.cbn": (cbn_deck(rng, 50, True), True),
             "eof.cbn": (cbn_deck(rng, 5, True) + b"\x8f", False)}
    for name, (data, copies) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        with open(path, "rb") as stream:
            _, scan = filesort.scan(stream, "auto", span=Field(1, 2), path=str(path))
        assert scan.copies == copies, name


def test_a_numeric_key_error_names_the_card_and_column_as_before(tmp_path, capsys):
    deck = tmp_path / "d.txt"
    deck.write_bytes(b"A 12\nB 3X\n")
    assert main(["cards", "sort", str(deck), "-o", str(tmp_path / "o.txt"), "--by", "3-4", "--numeric"]) != 0
    err = capsys.readouterr().err
    assert "card 2" in err and "column 4" in err and "3-4" in err
    assert not (tmp_path / "o.txt").exists()
