"""A record's data becomes the same card by the per-card decode (to a card, or to its words) as by the
array decode, in every layout."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from emulator.card import Card
from emulator.errors import CardError
from ibm1013.str import fourofeight as fo
from ibm1013.str.layout import ColumnLayout, deck_words
from ibm1013.str.trailer import card_bytes, card_of_bytes

SPECS = ("80", "1", "37", "auto", "1-3,44-44", "5-9,1-2")


@given(spec=st.sampled_from(SPECS), binary=st.booleans(), chars=st.data())
def test_decode_is_the_array_decode(spec, binary, chars):
    layout = ColumnLayout.parse(spec, column_binary=binary)
    length = chars.draw(st.sampled_from(sorted(layout.record_lengths())))
    data = bytes(chars.draw(st.lists(st.sampled_from(layout.valid_chars), min_size=length,
                                     max_size=length)))
    card = Card.from_array(layout.decode_words(data))
    assert layout.decode(data) == card
    assert layout.decode_bytes(data) == card_bytes(card)  # what the receiving end journals
    assert card_of_bytes(layout.decode_bytes(data)) == card


BCD_WORDS = sorted(int(fo.CHAR_TO_WORD[c]) for c in fo.CARD_CHARS)


@given(spec=st.sampled_from(SPECS), binary=st.booleans(), picks=st.lists(st.integers(0, 62),
                                                                         min_size=80, max_size=80))
def test_a_sent_card_comes_back_with_its_sent_columns(spec, binary, picks):
    """Encode then decode: the columns sent come back, every other column blank ("auto" sends up to
    the last punched column, so everything)."""
    layout = ColumnLayout.parse(spec, column_binary=binary)
    card = Card([BCD_WORDS[p] for p in picks])
    data = layout.encode(deck_words([card]))[0][0]
    sent = set(layout.indices.tolist())
    assert layout.decode(data).columns == tuple(w if i in sent else 0 for i, w in enumerate(card.columns))


def test_every_word_of_the_line_code_table_is_a_column_word():
    """The per-card decode trusts the table (:meth:`Card.from_table` checks no word), so check it."""
    assert all(0 <= int(w) <= 0xFFF for w in fo.CHAR_TO_WORD)


@given(words=st.lists(st.integers(0, 0xFFF), max_size=80))
def test_a_card_from_the_table_is_the_card_from_its_words(words):
    card = Card.from_table(tuple(words))
    assert card == Card(words) and hash(card) == hash(Card(words)) and len(card.columns) == 80


def test_a_card_from_the_table_still_has_80_columns_at_most():
    with pytest.raises(CardError, match="80 columns, not 81"):
        Card.from_table((0,) * 81)


@pytest.mark.parametrize("columns", ["80", "auto", "1-20"])
@pytest.mark.parametrize("column_binary", [False, True])
def test_no_cards_make_no_records(columns, column_binary):
    """A deck followed from a punch (or a printer) that has given nothing yet: `send --follow
    --column-binary` crashed here (numpy cannot reshape no cards to (0, -1))."""
    import numpy as np

    layout = ColumnLayout.parse(columns, column_binary=column_binary)
    assert layout.encode_records(np.zeros((0, 80), dtype=np.uint16)) == []
