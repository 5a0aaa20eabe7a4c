"""The five pack kinds: sizes, names, order, colours (docs/games.md, "Other packs")."""

import re
from collections import Counter

import pytest

from decks.packs import PACK_KINDS, card, cards, describe, pack
from emulator.errors import IbmError


def test_pack_sizes():
    sizes = {k: len(pack(k)) for k in PACK_KINDS}
    assert sizes == {"standard": 52, "double": 104, "double-88": 88, "compucards": 54, "spelling-bee": 30,
                     "tarot": 78}


@pytest.mark.parametrize("kind", PACK_KINDS)
def test_names_are_letters_and_digits(kind):
    for c in pack(kind):
        assert re.fullmatch(r"[A-Z0-9]+", c.name), c.name
        assert card(c.name, kind) == c


def test_standard_order_is_the_microsoft_order():
    names = [c.name for c in pack("standard")]
    assert names[:8] == ["AC", "AD", "AH", "AS", "2C", "2D", "2H", "2S"]
    assert names[-4:] == ["KC", "KD", "KH", "KS"]
    assert len(set(names)) == 52


def test_card_fields():
    td = card("TD")
    assert (td.rank, td.suit, td.colour) == (10, "D", "red")
    assert card("qs").colour == "black" and card("QS").rank == 12
    assert describe(td) == "ten of diamonds"
    assert cards("AC KH") == [card("AC"), card("KH")]


def test_double_pack_has_every_card_twice():
    counts = Counter(c.name for c in pack("double"))
    assert set(counts.values()) == {2} and len(counts) == 52
    assert pack("double")[0] == pack("double")[52]


def test_double_88_is_two_packs_without_kings_and_queens():
    counts = Counter(c.name for c in pack("double-88"))
    assert len(pack("double-88")) == 88 and set(counts.values()) == {2} and len(counts) == 44
    assert max(c.rank for c in pack("double-88")) == 11
    assert [c.name for c in pack("double-88")[:5]] == ["AC", "AD", "AH", "AS", "2C"]
    assert pack("double-88")[43].name == "JS" and pack("double-88")[44].name == "AC"


def test_compucards_powers_of_two_programmer_and_bugs():
    names = {c.name for c in pack("compucards")}
    assert {"1C", "2C", "4C", "8C", "512S", "JH", "QD", "PS", "BUG1", "BUG2"} <= names
    assert "KS" not in names
    assert card("512H", "compucards").value == 512 and card("512H", "compucards").rank == 10
    assert card("PC", "compucards").rank == 13


def test_spelling_bee_board():
    assert Counter(c.name for c in pack("spelling-bee")) == {"C": 11, "A": 11, "R": 6, "CAR": 2}


def test_tarot_pack():
    p = pack("tarot")
    assert sum(1 for c in p if c.suit == "M") == 22
    assert Counter(c.suit for c in p if c.suit != "M") == {"W": 14, "P": 14, "S": 14, "N": 14}
    assert card("M21", "tarot").rank == 21


def test_unknown_pack_and_card():
    with pytest.raises(IbmError, match="unknown pack"):
        pack("pinochle")
    with pytest.raises(IbmError, match="no card named"):
        card("ZZ")
