"""A record's data becomes the same card by the per-card decode as by the array decode, in every layout."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from emulator.card import Card
from ibm1013 import fourofeight as fo
from ibm1013.str.layout import ColumnLayout, deck_words

SPECS = ("80", "1", "37", "auto", "1-3,44-44", "5-9,1-2")


@given(spec=st.sampled_from(SPECS), binary=st.booleans(), chars=st.data())
def test_decode_is_the_array_decode(spec, binary, chars):
    layout = ColumnLayout.parse(spec, column_binary=binary)
    length = chars.draw(st.sampled_from(sorted(layout.record_lengths())))
    data = bytes(chars.draw(st.lists(st.sampled_from(layout.valid_chars), min_size=length,
                                     max_size=length)))
    assert layout.decode(data) == Card.from_array(layout.decode_words(data))


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
