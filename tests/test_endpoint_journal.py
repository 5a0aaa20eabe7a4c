"""Trailer card, resume record and the durable receiving journal."""

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator.card import Card
from ibm1013.line.journal import AHEAD, MAGIC, RECORD_SIZE, Journal, JournalError, cards_in, journal_path
from ibm1013.str.trailer import (
    DeckCheckError,
    DeckDigest,
    check_trailer,
    marks_needed,
    parse_mark,
    resume_cards,
    sent_view,
    trailer_cards,
)

cards_st = st.lists(st.lists(st.integers(0, 0xFFF), min_size=80, max_size=80).map(Card), max_size=8)


def test_trailer_letters_punch_as_in_the_029_code():
    from emulator.codes import get_code

    digest = DeckDigest([Card.from_text("HELLO")])
    (card,) = trailer_cards(digest)
    text = get_code("029").decode(card.columns)
    assert text.rstrip() == f"1013 TRAILER 00000001 CARDS DIGEST {digest.hexdigest()}"


@given(cards_st)
@settings(max_examples=30, deadline=None)
def test_trailer_round_trip_and_check(cards):
    digest = DeckDigest(cards)
    mark = parse_mark(trailer_cards(digest))
    assert mark is not None and mark.kind == "TRAILER" and mark.count == len(cards)
    check_trailer(trailer_cards(digest), DeckDigest(cards))
    back = parse_mark(resume_cards(digest))
    assert back is not None and back.kind == "RESUME" and back.digest == digest.hexdigest()


def test_trailer_detects_lost_repeated_and_altered_cards():
    deck = [Card.from_text(f"CARD {i}") for i in range(5)]
    trailer = trailer_cards(DeckDigest(deck))
    with pytest.raises(DeckCheckError, match="5 cards but 4"):
        check_trailer(trailer, DeckDigest(deck[:4]))
    with pytest.raises(DeckCheckError, match="5 cards but 6"):
        check_trailer(trailer, DeckDigest([*deck, deck[-1]]))
    altered = [*deck[:2], Card.from_text("CARD X"), *deck[3:]]
    with pytest.raises(DeckCheckError, match="digest mismatch"):
        check_trailer(trailer, DeckDigest(altered))
    with pytest.raises(DeckCheckError, match="without a trailer"):
        check_trailer(deck[-1:], DeckDigest(deck))
    assert parse_mark([Card.blank()]) is None


@pytest.mark.parametrize("columns", [list(range(10)), [c - 1 for c in (*range(1, 21), *range(41, 61))],
                                     list(range(66)), [5]])
def test_trailer_spreads_over_the_columns_sent(columns):
    deck = [Card([0o4400] * 80), Card([0o1000] * 80)]
    digest = DeckDigest(sent_view(c, columns) for c in deck)
    cards = trailer_cards(digest, columns)
    assert len(cards) == marks_needed(columns)
    # the receiver only ever sees the columns sent
    seen = [sent_view(c, columns) for c in cards]
    assert seen == cards
    check_trailer(seen, digest, columns)
    assert sent_view(deck[0], columns).columns[columns[0]] == 0o4400


def test_journal_appends_and_resumes(tmp_path):
    out = str(tmp_path / "deck.cbn")
    deck = [Card([i, i + 1]) for i in range(10)]
    j = Journal.open(out, resume=False)
    for c in deck[:6]:
        j.append(c)
    j.close()
    with pytest.raises(JournalError, match="--resume"):
        Journal.open(out, resume=False)
    j = Journal.open(out, resume=True)
    assert j.count == 6 and j.last_card == deck[5]
    assert j.digest.hexdigest() == DeckDigest(deck[:6]).hexdigest()
    for c in deck[6:]:
        j.append(c)
    assert list(j.cards()) == deck
    j.close()


@pytest.mark.parametrize("tear", [4, 50, RECORD_SIZE - 1])
def test_journal_drops_a_torn_tail(tmp_path, tear):
    out = str(tmp_path / "deck.cbn")
    deck = [Card([i] * 80) for i in range(4)]
    j = Journal.open(out, resume=False)
    for c in deck:
        j.append(c)
    j.close()
    path = journal_path(out)
    end = len(MAGIC) + 4 * RECORD_SIZE
    with open(path, "r+b") as f:  # a kill -9 in the middle of writing card 4
        f.truncate(end - RECORD_SIZE + tear)
    j = Journal.open(out, resume=True)
    assert j.count == 3 and j.torn_bytes == tear  # the first 4 bytes: card 4's number, 00 00 00 04
    assert os.path.getsize(path) == end - RECORD_SIZE
    j.close()


def test_the_journal_is_grown_ahead_of_the_cards_and_the_zeros_are_no_torn_card(tmp_path):
    """A card's synchronous write lands in space already written, so it changes no file length: the
    journal grows by AHEAD records of zeros at a time.  Reopened, the zeros are dropped, reported as
    nothing torn, and counting the cards from the file skips them."""
    out = str(tmp_path / "deck.cbn")
    path = journal_path(out)
    j = Journal.open(out, resume=False)
    assert os.path.getsize(path) == len(MAGIC)
    sizes = []
    for i in range(AHEAD + 1):
        j.append(Card([i % 4096] * 80))
        sizes.append(os.path.getsize(path))
    assert sizes[0] == sizes[AHEAD - 1] == len(MAGIC) + AHEAD * RECORD_SIZE
    assert sizes[AHEAD] == len(MAGIC) + 2 * AHEAD * RECORD_SIZE
    assert cards_in(path) == AHEAD + 1
    j.close()
    j = Journal.open(out, resume=True)
    assert (j.count, j.torn_bytes) == (AHEAD + 1, 0)
    assert os.path.getsize(path) == len(MAGIC) + (AHEAD + 1) * RECORD_SIZE
    j.append(Card.blank())  # grows again from the end of the cards
    assert cards_in(path) == AHEAD + 2 and list(j.cards())[-1] == Card.blank()
    j.close()


def test_cards_in_counts_whole_numbered_records_only(tmp_path):
    out = str(tmp_path / "deck.cbn")
    path = journal_path(out)
    assert cards_in(path) == 0  # no journal
    j = Journal.open(out, resume=False)
    for i in range(3):
        j.append(Card([i + 1] * 80))
    j.close()
    assert cards_in(path) == 3
    with open(path, "r+b") as f:  # card 3's CRC garbled
        f.seek(len(MAGIC) + 3 * RECORD_SIZE - 1)
        f.write(b"\xff")
    assert cards_in(path) == 2


def test_journal_drops_a_garbled_tail(tmp_path):
    out = str(tmp_path / "deck.cbn")
    j = Journal.open(out, resume=False)
    for i in range(3):
        j.append(Card([i]))
    j.close()
    with open(journal_path(out), "r+b") as f:  # the end of card 3
        f.seek(len(MAGIC) + 3 * RECORD_SIZE - 10)
        f.write(b"\xff" * 10)
    j = Journal.open(out, resume=True)
    assert j.count == 2 and j.torn_bytes == RECORD_SIZE
    j.close()


def test_not_a_journal(tmp_path):
    out = str(tmp_path / "deck.cbn")
    with open(journal_path(out), "wb") as f:
        f.write(b"something else entirely")
    with pytest.raises(JournalError, match="not an ibm1013 journal"):
        Journal.open(out, resume=True)


@given(st.integers(0, 6), st.integers(0, RECORD_SIZE * 6 + 16))
@settings(max_examples=40, deadline=None)
def test_journal_recovers_the_longest_valid_prefix_after_any_tear(tmp_path_factory, cards, cut):
    out = str(tmp_path_factory.mktemp("j") / "deck.cbn")
    j = Journal.open(out, resume=False)
    for i in range(cards):
        j.append(Card([i + 1] * 80))
    j.close()
    path = journal_path(out)
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.truncate(min(size, cut))
    j = Journal.open(out, resume=True)  # a torn header (crash at creation) is an empty journal
    expected = min(cards, max(0, min(size, cut) - 16) // RECORD_SIZE)
    assert j.count == expected
    assert list(j.cards()) == [Card([i + 1] * 80) for i in range(expected)]
    j.append(Card.blank())  # and appending goes on right after the valid prefix
    j.close()
    assert Journal.open(out, resume=True).count == expected + 1


@given(cards_st, st.integers(0, 3), st.integers(0, 8))
@settings(max_examples=40, deadline=None)
def test_journal_keeps_the_trailer_apart_as_cards_arrive(tmp_path_factory, deck, held_back, resume_at):
    """``tail`` and ``deck_digest`` are what reading the journal back would give, before and after a
    resume, and ``arrays`` reads back exactly the cards appended."""
    from emulator.deck import iter_cards

    out = str(tmp_path_factory.mktemp("j") / "deck.cbn")
    j = Journal.open(out, resume=False, held_back=held_back)
    for card in deck[:resume_at]:
        j.append(card)
    j.close()
    j = Journal.open(out, resume=True, held_back=held_back)
    for card in deck[resume_at:]:
        j.append(card)
    split = max(0, len(deck) - held_back)
    assert list(j.tail) == deck[split:] and list(j.cards()) == deck
    assert (j.deck_digest.count, j.deck_digest.hexdigest()) == (split, DeckDigest(deck[:split]).hexdigest())
    assert j.digest.hexdigest() == DeckDigest(deck).hexdigest()
    assert list(iter_cards(j.arrays(split))) == deck[:split]
    j.close()


def test_publishing_refuses_a_journal_changed_under_it(tmp_path):
    out = str(tmp_path / "deck.txt")
    j = Journal.open(out, resume=False)
    for i in range(3):
        j.append(Card([i + 1] * 80))
    with open(journal_path(out), "r+b") as f:  # card 2's words altered on disk, its CRC not
        f.seek(16 + RECORD_SIZE + 10)
        f.write(b"\x00\x07")
    with pytest.raises(JournalError, match="cards 1 to 3 no longer check"):
        j.publish(out, "text")
    assert not os.path.exists(out) and os.path.exists(journal_path(out))
    j.close()
