"""Interoperability with the real simh 3.8.1 ``i7094`` and ``i1401`` (Debian's ``simh`` package).

Recipes (``docs/cards.md`` §4 lists the attach lines): tiny machine-code programs deposited
with ``d``, run non-interactively.  The 7094 one reads a card and dumps its 24 row-binary words,
which checks our text and column-binary writers *and* our row-binary layout bit for bit; the copy
programs read a deck and punch it again, so SIMH's punch output must equal what our writers wrote.

A missing simulator skips these tests with a line saying what to install; under CI it is a failure
(``tests/external.py``).
"""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import external
import pytest

from emulator.card import Card, punches_to_word
from emulator.codes import bcd1401
from emulator.formats import get_format
from emulator.formats._simh38 import A_SET_1401, CARD_ORDER_WORDS, H_SET_1401
from emulator.formats.rowbin import card_to_row_words

pytestmark = pytest.mark.interop

TIMEOUT = 30


def require(program: str) -> str:
    return external.program(program, "simh")


def run_sim(program: str, script: str, cwd: Path) -> str:
    """Run ``program script.sim`` in ``cwd`` and return its console output."""
    (cwd / "run.sim").write_text(script)
    proc = subprocess.run(
        [require(program), "run.sim"], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
    )
    assert "Goodbye" in proc.stdout, f"{program} did not finish its script:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def write(fmt: str, cards: list[Card], path: Path, **kw) -> bytes:
    with open(path, "wb") as out:
        get_format(fmt).write(cards, out, **kw)
    return path.read_bytes()


def read(fmt: str, path: Path, **kw) -> list[Card]:
    with open(path, "rb") as stream:
        return list(get_format(fmt).read(stream, **kw))


def random_cards(words: tuple[int, ...] | range, n: int, seed: int, width: int) -> list[Card]:
    """``n`` cards of random patterns from ``words`` over ``width`` columns, one of them blank."""
    rng = random.Random(seed)
    cards = [Card(rng.choice(words) for _ in range(rng.randint(1, width))) for _ in range(n)]
    cards.insert(n // 2, Card.blank())
    return cards


# -- i7094: row dump ------------------------------------------------------------------------------

DUMP_7094 = """set cpu 7094
attach {switch} cdr {deck}
d 1000 076200001321
d 1001 054000001010
d 1002 006000001002
d 1003 000000001003
d 1010 000030000100
go 1000
ex 100-127
quit
"""


def dump_row_words(tmp_path: Path, deck: str, switch: str = "") -> list[int]:
    out = run_sim("i7094", DUMP_7094.format(deck=deck, switch=switch), tmp_path)
    words = dict(re.findall(r"^(1[0-2][0-7]):\s+([0-7]{12})$", out, re.M))
    assert len(words) == 24, out
    return [int(words[f"{0o100 + i:o}"], 8) for i in range(24)]  # addresses 100–127 octal


def every_bcd_character() -> Card:
    """Columns 1–64 hold the 64 six-bit characters in card order (``0`` in column 17, ``H`` in 57)."""
    return Card(CARD_ORDER_WORDS)


def test_i7094_reads_our_text_deck_into_the_same_row_words(tmp_path):
    card = every_bcd_character()
    write("i7094", [card], tmp_path / "deck.txt")
    assert dump_row_words(tmp_path, "deck.txt") == list(card_to_row_words(card))


def test_i7094_reads_the_business_set_except_its_percent_bug(tmp_path):
    card = every_bcd_character()
    text = write("i7094", [card], tmp_path / "deck.txt", code="business")
    assert b"%" in text and b"(" not in text
    # simh 3.8 reads '%' as 12-4-8 although its A set prints 0-4-8 as '%' (cardformats.md §2.2)
    expected = list(card.columns)
    expected[0o34] = punches_to_word("12-4-8")
    assert dump_row_words(tmp_path, "deck.txt") == list(card_to_row_words(Card(expected)))


def test_i7094_reads_our_column_binary_deck_bit_for_bit(tmp_path):
    rng = random.Random(7094)
    card = Card([punches_to_word("12-8"), 0xFFF, 0] + [rng.randrange(0x1000) for _ in range(69)])
    deck = write("i7094-cbn", [card], tmp_path / "deck.cbn")
    assert deck.startswith(b"-2")  # H = 12-8 spelt "-2" (cardformats.md §3.2)
    words = dump_row_words(tmp_path, "deck.cbn", switch="-c")
    assert words == list(card_to_row_words(card))
    # and our row-binary reader turns SIMH's words back into the card
    blob = b"".join(w.to_bytes(5, "big") for w in words)
    (tmp_path / "deck.rbn").write_bytes(blob)
    assert read("rowbin", tmp_path / "deck.rbn") == [card]
    assert write("rowbin", [card], tmp_path / "ours.rbn") == blob


# -- i7094: copy a deck to the punch -----------------------------------------------------------------

COPY_7094 = """set cpu 7094
{setup}
attach {switch} cdr {deck}
attach -n {switch} cdp {out}
d 1000 076200001321
d 1001 054000001020
d 1002 006000001002
d 1003 003000001011
d 1004 076600001341
d 1005 054000001020
d 1006 006000001006
d 1007 002000001000
d 1011 000000001011
d 1020 000030000100
go 1000
quit
"""


def copy_7094(tmp_path: Path, deck: str, out: str, *, switch: str = "", setup: str = "") -> bytes:
    text = run_sim("i7094", COPY_7094.format(deck=deck, out=out, switch=switch, setup=setup), tmp_path)
    assert "HALT instruction, PC: 01012" in text, text  # the TEFA test saw the end of the deck
    return (tmp_path / out).read_bytes()


def test_i7094_punches_our_text_deck_back_unchanged(tmp_path):
    cards = random_cards(CARD_ORDER_WORDS, 6, seed=1, width=72)
    ours = write("i7094", cards, tmp_path / "in.txt")
    assert copy_7094(tmp_path, "in.txt", "out.txt") == ours
    assert read("i7094", tmp_path / "out.txt") == cards


def test_i7094_punches_the_business_set(tmp_path):
    words = tuple(w for code, w in enumerate(CARD_ORDER_WORDS) if code != 0o34)  # avoid the % bug
    cards = random_cards(words, 6, seed=2, width=72)
    ours = write("i7094", cards, tmp_path / "in.txt", code="business")
    assert copy_7094(tmp_path, "in.txt", "out.txt", setup="set cdp business") == ours


def test_i7094_punches_our_column_binary_deck_back_unchanged(tmp_path):
    cards = random_cards(range(0x1000), 5, seed=3, width=72)
    ours = write("i7094-cbn", cards, tmp_path / "in.cbn")
    assert copy_7094(tmp_path, "in.cbn", "out.cbn", switch="-c") == ours
    assert read("i7094-cbn", tmp_path / "out.cbn") == cards


# -- i1401 -------------------------------------------------------------------------------------------

COPY_1401 = """{setup}
attach cdr in.txt
attach -n cdp out.txt
d -m 500 SWM 1
d -m 504 R
d -m 505 MCW 80 180
d -m 512 P
d -m 513 B 504
go 500
quit
"""


def copy_1401(tmp_path: Path, setup: str = "") -> bytes:
    text = run_sim("i1401", COPY_1401.format(setup=setup), tmp_path)
    assert "Card reader empty" in text, text
    return (tmp_path / "out.txt").read_bytes()


@pytest.mark.parametrize("charset,setup", [("business", ""), ("fortran", "set cdp fortran")])
def test_i1401_punches_our_deck_back_unchanged(tmp_path, charset, setup):
    cards = random_cards(bcd1401.WORDS, 6, seed=1401, width=80)
    ours = write("i1401", cards, tmp_path / "in.txt", code=charset)
    assert copy_1401(tmp_path, setup) == ours
    assert read("i1401", tmp_path / "out.txt") == cards


@pytest.mark.parametrize("charset", [A_SET_1401, H_SET_1401])
def test_i1401_stores_each_character_as_our_bcd_code(tmp_path, charset):
    """After ``R`` the 1401's memory 1–64 holds the BCD code of each column (cardformats.md §4.2)."""
    card = Card(bcd1401.WORDS)  # codes 00–77 in columns 1–64
    code = "business" if charset == A_SET_1401 else "fortran"
    text = write("i1401", [card], tmp_path / "in.txt", code=code)
    assert text.rstrip(b"\n") == charset.rstrip(" ").encode()
    # R at 500, then a halt (whose missing address stops the run with "Address register wrap")
    out = run_sim("i1401", "attach cdr in.txt\nd -m 500 R\nd -m 501 H\ngo 500\nex 1-64\nquit\n", tmp_path)
    memory = {int(a): int(v, 8) for a, v in re.findall(r"^(\d+):\s+([0-7]{3})$", out, re.M)}
    assert [memory[a] & 0o77 for a in range(1, 65)] == list(range(64))


def test_i1401_column_binary_copy(tmp_path):
    """``R``/``P`` with the ``C`` modifier (deposited as raw characters) copy a column-binary deck."""
    cards = random_cards(range(0x1000), 5, seed=14, width=80)
    ours = write("i1401-cbn", cards, tmp_path / "in.txt")
    script = (
        "attach cdr in.txt\nattach -n cdp out.txt\n"
        "d 704 101\nd 705 063\nd 706 104\nd 707 063\nd -m 708 B 704\ngo 704\nquit\n"
    )  # 704: R (read, word mark) modifier C; 706: P modifier C; B 704
    assert "Card reader empty" in run_sim("i1401", script, tmp_path)
    assert (tmp_path / "out.txt").read_bytes() == ours
    assert read("i1401-cbn", tmp_path / "out.txt") == cards
