"""The card room's jobs (emulator.deckops) against plain-Python models, on random decks of every format.

Each model works card by card with lists and tuples — no numpy, no packed keys — from the rules in
the modules' docstrings; the decks go through a file of each format and back first.
"""

from __future__ import annotations

import functools
import io
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator.card import COLUMNS, EOF_CARD, ROW_BIT, ROWS, Card, punches_to_word
from emulator.codes.bcd1401 import WORDS as BCD_WORDS
from emulator.codes.ibm029 import EBCDIC_TO_WORD
from emulator.deck import array_to_cards, cards_to_array
from emulator.deckops import collate, merge, reproduce, select, sequence, sort, stacked
from emulator.deckops.fields import CardRanges, Field, SpecError, copy_spec, field_value, parse_punched
from emulator.deckops.keys import SortKey
from emulator.errors import CardError
from emulator.formats import format_names, read_deck, read_deck_arrays, write_deck

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _holds(fmt: str, word: int) -> bool:
    card = Card([word] * 72)
    out = io.BytesIO()
    try:
        write_deck([card], out, fmt)
        return list(read_deck(io.BytesIO(out.getvalue()), fmt)) == [card]
    except CardError:
        return False


ALPHABETS = {fmt: [w for w in (BCD_WORDS if fmt in ("i1401", "i7094") else EBCDIC_TO_WORD) if _holds(fmt, w)]
             for fmt in format_names()}
"""Column words each format holds (from the EBCDIC card code, or BCD for the 1401/7094 text decks)."""
EOF_FORMATS = ("text", "cbn")
LAST_COLUMN = {"rowbin": 72}
"""rowbin holds columns 1-72 only."""


@st.composite
def decks(draw, eof: bool = False, min_size: int = 0):
    """(format, cards): a few patterns from the format's alphabet, so that keys tie."""
    fmt = draw(st.sampled_from(EOF_FORMATS if eof else format_names()))
    patterns = draw(st.lists(st.sampled_from(ALPHABETS[fmt]), min_size=1, max_size=4, unique=True))
    width = LAST_COLUMN.get(fmt, COLUMNS)
    card = st.lists(st.sampled_from(patterns), min_size=width, max_size=width).map(Card)
    items = st.one_of(card, st.just(EOF_CARD)) if eof else card
    return fmt, draw(st.lists(items, min_size=min_size, max_size=25))


def through_file(fmt: str, cards: list[Card]) -> np.ndarray:
    """The deck written in ``fmt`` and read back as one deck array."""
    out = io.BytesIO()
    write_deck(cards, out, fmt)
    _, arrays = read_deck_arrays(io.BytesIO(out.getvalue()), fmt)
    words = np.concatenate(list(arrays) or [cards_to_array([])])
    assert array_to_cards(words) == cards
    return words


@st.composite
def fields(draw, fmt: str = "text", max_width: int = 12):
    last_column = LAST_COLUMN.get(fmt, COLUMNS)
    first = draw(st.integers(1, last_column))
    last = draw(st.integers(first, min(last_column, first + max_width - 1)))
    return Field(first, last)


# -- the models -------------------------------------------------------------------------------------

@functools.cache
def model_order(family: str) -> dict[int, int]:
    """Place of each pattern of the family's sequence, from the tables as lists."""
    if family == "bcd":
        return {punches_to_word(p): i for i, p in enumerate(collate.BCD_SEQUENCE)}
    return {word: byte for byte, word in enumerate(EBCDIC_TO_WORD)}


def model_rank(word: int, code: str) -> tuple[int, int]:
    order = model_order(collate.family(code))
    return (0, order[word]) if word in order else (1, word)


def model_key(card: Card, keys: list[SortKey], code: str) -> tuple:
    out: list = []
    for key in keys:
        cols = card.columns[key.field.first - 1:key.field.last]
        if key.numeric:
            value = model_number(cols)
            out.append(-value if key.descending else value)
        else:
            ranks = tuple(model_rank(w, code) for w in cols)
            out.append(tuple((-a, -b) for a, b in ranks) if key.descending else ranks)
    return tuple(out)


def model_number(cols) -> int:
    digits, negative = "", False
    for w in cols:
        punched = [r for r in ROWS if w & ROW_BIT[r]]
        negative |= 11 in punched
        rest = [r for r in punched if r not in (11, 12)]
        assert len(rest) <= 1 and len(punched) - len(rest) <= 1
        digits += str(rest[0]) if rest else ""
    return -int(digits or 0) if negative else int(digits or 0)


def model_sort(cards: list[Card], keys: list[SortKey], code: str) -> list[Card]:
    """Each deck of the file sorted on its own by Python's stable sort; EOF cards where they were."""
    out: list[Card] = []
    deck: list[Card] = []
    for card in [*cards, None]:
        if card is None or card.is_eof:
            out += sorted(deck, key=lambda c: model_key(c, keys, code))
            deck = []
            if card is not None:
                out.append(card)
        else:
            deck.append(card)
    return out


def model_083(cards: list[Card], keys: list[SortKey]) -> tuple[list[Card], int]:
    """Pockets as lists, one pass per column (two where zones are punched), right to left; then
    each deck of the file gathered back behind its end-of-file card."""
    passes = 0
    deck = list(range(len(cards)))  # card indexes, in the order the hopper holds them
    for key in reversed(keys):
        for col in range(key.field.last, key.field.first - 1, -1):
            words = [c.column(col) for c in cards if not c.is_eof]
            zoned = any(w & 0xC00 or (w & ROW_BIT[0] and w & 0x1FF) for w in words)
            for sensed, gather in ((sort.DIGIT_ROWS, sort.DIGIT_GATHER), (sort.ZONE_ROWS, sort.ZONE_GATHER)):
                if sensed is sort.ZONE_ROWS and not zoned:
                    continue
                pockets: dict = {p: [] for p in gather}
                for i in deck:
                    w = cards[i].column(col)
                    pockets[next((r for r in sensed if w & ROW_BIT[r]), "R")].append(i)
                order = reversed(gather) if key.descending else gather
                deck = [i for p in order for i in pockets[p]]
                passes += 1
    deck_of = [sum(c.is_eof for c in cards[:i + 1]) for i in range(len(cards))]
    deck.sort(key=lambda i: (deck_of[i], not cards[i].is_eof))
    return [cards[i] for i in deck], passes


def model_merge(a: list[Card], b: list[Card], keys: list[SortKey], code: str) -> list[Card]:
    out, i, j = [], 0, 0
    while i < len(a) or j < len(b):
        if j == len(b) or (i < len(a) and model_key(a[i], keys, code) <= model_key(b[j], keys, code)):
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    return out


# -- collating sequence -----------------------------------------------------------------------------

def test_bcd_sequence_is_the_64_bcd_patterns_letters_before_digits():
    words = [punches_to_word(p) for p in collate.BCD_SEQUENCE]
    assert sorted(words) == sorted(BCD_WORDS) and len(set(words)) == 64
    r = collate.ranks("026-commercial")
    placed = [int(r[Card.from_text(ch, "026-commercial").columns[0]]) for ch in " &-/AIJRSZ019"]
    assert placed == sorted(placed) and placed[0] == 0


@pytest.mark.parametrize("code", ["029", "026-fortran", "simh029", "ge635"])
def test_ranks_are_a_permutation_and_follow_the_model(code):
    r = collate.ranks(code)
    assert sorted(r.tolist()) == list(range(4096))
    sample = [0, 0x800, 0x900, 0x200, 0x600, 0xFFF, 0x123, ROW_BIT[9]]
    assert sorted(sample, key=lambda w: r[w]) == sorted(sample, key=lambda w: model_rank(w, code))


def test_029_collates_as_ebcdic():
    line = sorted(" .<(+&$*-/,%A0JZ9az", key=lambda ch: collate.ranks("029")[Card.from_text(ch).columns[0]])
    assert "".join(line) == "".join(sorted(" .<(+&$*-/,%A0JZ9az", key=lambda ch: ch.encode("cp037")))


# -- sort -------------------------------------------------------------------------------------------

@SETTINGS
@given(data=st.data())
def test_sort_is_the_stable_model_sort_in_every_format(data):
    fmt, cards = data.draw(decks())
    keys = [SortKey(data.draw(fields(fmt)), descending=data.draw(st.booleans()))
            for _ in range(data.draw(st.integers(1, 3)))]
    code = data.draw(st.sampled_from(["029", "026-commercial"]))
    words = through_file(fmt, cards)
    assert array_to_cards(sort.sort(words, keys, code)) == model_sort(cards, keys, code)


@SETTINGS
@given(data=st.data())
def test_sort_of_stacked_decks_keeps_each_deck_and_its_eof_cards(data):
    fmt, cards = data.draw(decks(eof=True))
    keys = [SortKey(data.draw(fields(fmt)))]
    words = through_file(fmt, cards)
    got = array_to_cards(sort.sort(words, keys))
    assert got == model_sort(cards, keys, "029")
    assert [c.is_eof for c in got] == [c.is_eof for c in cards]


def test_sort_is_stable_on_equal_keys():
    cards = [Card.from_text(f"{tag}".ljust(72) + key) for tag, key in
             [("A", "0002"), ("B", "0001"), ("C", "0002"), ("D", "0001"), ("E", "0002")]]
    got = array_to_cards(sort.sort(cards_to_array(cards), [SortKey(Field(73, 76))]))
    assert [c.text()[0] for c in got] == list("BDACE")
    down = array_to_cards(sort.sort(cards_to_array(cards), [SortKey(Field(73, 76), descending=True)]))
    assert [c.text()[0] for c in down] == list("ACEBD")


@SETTINGS
@given(st.lists(st.tuples(st.integers(-10**6, 10**6), st.sampled_from(["right", "left", "zeros"])),
                max_size=30))
def test_numeric_keys_sort_by_value(values):
    def punch(v: int, how: str) -> str:
        sign, digits = "-" if v < 0 else "", str(abs(v))
        return {"right": (sign + digits).rjust(8), "left": (sign + digits).ljust(8),
                "zeros": sign + digits.zfill(8 - len(sign))}[how]
    cards = [Card.from_text(f"{i:<72}" + punch(v, how)) for i, (v, how) in enumerate(values)]
    got = array_to_cards(sort.sort(cards_to_array(cards), [SortKey(Field(73, 80), numeric=True)]))
    want = [c for _, c in sorted(zip([v for v, _ in values], cards, strict=True), key=lambda p: p[0])]
    assert got == want


def test_numeric_key_refuses_letters_naming_card_and_column():
    cards = cards_to_array([Card.from_text(" " * 72 + "00000010"), Card.from_text(" " * 72 + "0000X010")])
    with pytest.raises(CardError, match=r"card 2, column 77: punches 0-7 are not a digit"):
        sort.sort(cards, [SortKey(Field(73, 80), numeric=True)])
    with pytest.raises(SpecError, match="at most 18 digits"):
        SortKey(Field(1, 19), numeric=True)


@SETTINGS
@given(data=st.data())
def test_083_does_the_models_passes(data):
    fmt, cards = data.draw(decks(eof=data.draw(st.booleans())))
    keys = [SortKey(data.draw(fields(fmt, max_width=4)), descending=data.draw(st.booleans()))
            for _ in range(data.draw(st.integers(1, 2)))]
    job = sort.sort_083(through_file(fmt, cards), keys)
    want, passes = model_083(cards, keys)
    assert array_to_cards(job.words) == want and job.passes == passes


def test_083_pass_count_is_the_arithmetic():
    """One pass per column of numbers, two per column of letters; 1,000 cards a minute."""
    cards = [Card.from_text(f"{'AB'[i % 2]}{i % 10}".ljust(72) + f"{(37 * i) % 1000:08d}")
             for i in range(500)]
    keys = [SortKey(Field(1, 2)), SortKey(Field(73, 80))]
    job = sort.sort_083(cards_to_array(cards), keys)
    assert job.passes == 2 + 1 + 8  # column 1 letters (2 passes), column 2 digits, 8 digit columns
    assert job.minutes == pytest.approx(11 * 500 / 1000)
    assert array_to_cards(job.words) == model_sort(cards, keys, "029")


def test_083_agrees_with_the_code_on_digits_and_blanks():
    rng = np.random.default_rng(3)
    cards = [Card.from_text("".join(rng.choice(list(" 0123456789"), 6))) for _ in range(300)]
    keys = [SortKey(Field(1, 6))]
    assert array_to_cards(sort.sort_083(cards_to_array(cards), keys).words) == model_sort(cards, keys, "029")


# -- merge ------------------------------------------------------------------------------------------

@SETTINGS
@given(data=st.data())
def test_merge_of_two_sorted_decks_is_the_collators_and_the_sort_of_both(data):
    fmt, a = data.draw(decks())
    _, b = data.draw(decks())
    width = LAST_COLUMN.get(fmt, 80)
    b = [Card(c.columns[:width]) for c in b if all(w in ALPHABETS[fmt] or not w for w in c)]
    keys = [SortKey(data.draw(fields(fmt)))]
    a, b = model_sort(a, keys, "029"), model_sort(b, keys, "029")
    got = merge.merge(through_file(fmt, a), through_file(fmt, b), keys)
    cards = array_to_cards(got.words)
    assert cards == model_merge(a, b, keys, "029") == model_sort(a + b, keys, "029")
    key_a = Counter(model_key(c, keys, "029") for c in a)
    key_b = Counter(model_key(c, keys, "029") for c in b)
    both = set(key_a) & set(key_b)
    assert got.counts["matched_a"] == sum(key_a[k] for k in both)
    assert got.counts["unmatched_b"] == sum(n for k, n in key_b.items() if k not in both)
    assert [m for m in got.matched.tolist()] == [model_key(c, keys, "029") in both for c in cards]


def test_merge_refuses_an_unsorted_deck_naming_the_card():
    a = cards_to_array([Card.from_text(f"{n:04d}") for n in (10, 20, 30)])
    b = cards_to_array([Card.from_text(f"{n:04d}") for n in (15, 40, 25)])
    with pytest.raises(CardError, match=r"^b.cbn: card 3: out of order on 1-4 \(lower than card 2\)"):
        merge.merge(a, b, [SortKey(Field(1, 4))], sources=("a.cbn", "b.cbn"))
    with pytest.raises(CardError, match="card 2: is an end-of-file card"):
        merge.merge(cards_to_array([Card(), EOF_CARD]), a, [SortKey(Field(1, 4))])


# -- select -----------------------------------------------------------------------------------------

@SETTINGS
@given(data=st.data())
def test_select_and_its_inverse_split_the_file_as_the_model(data):
    fmt, cards = data.draw(decks(eof=data.draw(st.booleans())))
    ranges = data.draw(st.none() | st.lists(st.tuples(st.integers(1, 30), st.none() | st.integers(0, 10)),
                                            min_size=1, max_size=3))
    spec = CardRanges(tuple((lo, None if n is None else lo + n) for lo, n in ranges)) if ranges else None
    where = []
    if cards and data.draw(st.booleans()):
        sample = data.draw(st.sampled_from(cards))
        f = data.draw(fields(fmt, max_width=3))
        where = [(f, sample.columns[f.first - 1:f.last])]
    punched = []
    if data.draw(st.booleans()):
        col = data.draw(st.integers(1, LAST_COLUMN.get(fmt, 80)))
        punched = [(col, data.draw(st.sampled_from([ROW_BIT[12], ROW_BIT[0], ROW_BIT[9] | ROW_BIT[0]])))]
    sel = select.Selection(spec, where, punched)

    def wanted(number: int, card: Card) -> bool:
        ok = spec is None or any(lo <= number and (hi is None or number <= hi) for lo, hi in spec.ranges)
        if where or punched:
            ok &= not card.is_eof
        ok &= all(card.columns[f.first - 1:f.last] == tuple(w) for f, w in where)
        ok &= all(card.column(c) & h == h for c, h in punched)
        return ok

    words = through_file(fmt, cards)
    chunks = [words[i:i + 7] for i in range(0, len(words), 7)]  # chunked, as a big file is read
    got = np.concatenate([*select.select(chunks, sel), cards_to_array([])])
    rest = np.concatenate([*select.select(chunks, select.Selection(spec, where, punched, invert=True)),
                           cards_to_array([])])
    assert array_to_cards(got) == [c for i, c in enumerate(cards, 1) if wanted(i, c)]
    assert array_to_cards(rest) == [c for i, c in enumerate(cards, 1) if not wanted(i, c)]


def test_card_ranges_and_specs_are_checked():
    assert CardRanges.parse("10-20,40-").ranges == ((10, 20), (40, None))
    assert CardRanges.parse("-3,7").ranges == ((1, 3), (7, 7))
    for bad, message in [("0-3", "count from 1"), ("5-2", "ends before"), ("x", "is not N"),
                         ("", "is not N")]:
        with pytest.raises(SpecError, match=message):
            CardRanges.parse(bad)
    for bad, message in [("0", "outside 1-80"), ("75-81", "column 81 is outside"), ("9-3", "ends before"),
                         ("a-b", "not a column field")]:
        with pytest.raises(SpecError, match=message):
            Field.parse(bad)
    with pytest.raises(SpecError, match="3 characters for the 4 columns 73-76"):
        field_value("73-76=ABC")
    with pytest.raises(SpecError, match="1-10 is 10 columns wide, 71-79 is 9"):
        copy_spec("1-10:71-79")
    assert parse_punched("80:12-1") == (80, 0x900)
    with pytest.raises(SpecError, match="not a card row"):
        parse_punched("80:13")


# -- reproduce --------------------------------------------------------------------------------------

@SETTINGS
@given(data=st.data())
def test_reproduce_is_the_plugboard_model(data):
    fmt, cards = data.draw(decks(eof=data.draw(st.booleans())))
    width = LAST_COLUMN.get(fmt, 80)
    a = data.draw(fields(fmt, max_width=6))
    t = data.draw(st.integers(1, width - a.width + 1))
    target = Field(t, t + a.width - 1)
    gang_col = data.draw(st.integers(1, width).filter(lambda c: not target.first <= c <= target.last))
    holes = data.draw(st.sampled_from(ALPHABETS[fmt]))
    only = data.draw(st.booleans())
    board = reproduce.Plugboard([(a, target)], [(Field(gang_col, gang_col), [holes])], only=only)
    got = array_to_cards(np.concatenate([*reproduce.reproduce([through_file(fmt, cards)], board),
                                         cards_to_array([])]))
    want = []
    for card in cards:
        if card.is_eof:
            want.append(card)
            continue
        new = [0] * 80 if only else list(card.columns)
        new[target.first - 1:target.last] = card.columns[a.first - 1:a.last]
        new[gang_col - 1] = holes
        want.append(Card(new))
    assert got == want


def test_plugboard_refuses_overlapping_punch_fields():
    with pytest.raises(SpecError, match="punch fields 71-80 and 75-78 overlap"):
        reproduce.Plugboard([(Field(1, 10), Field(71, 80))], [(Field(75, 78), [0, 0, 0, 0])])
    with pytest.raises(SpecError, match="nothing wired"):
        reproduce.Plugboard()


# -- sequence numbers -------------------------------------------------------------------------------

def model_check(cards: list[Card], seq: Field, step: int | None) -> dict:
    numbered = []
    unnumbered = []
    for i, card in enumerate(cards, 1):
        if card.is_eof:
            continue
        digit_of = {ROW_BIT[r]: str(r) for r in range(10)}
        text = "".join(digit_of.get(w, "x") for w in card.columns[seq.first - 1:seq.last])
        digits = len(text) - len(text.rstrip("0123456789"))
        if not digits:
            unnumbered.append(i)
            continue
        label = tuple(model_rank(w, "029") for w in card.columns[seq.first - 1:seq.last - digits])
        numbered.append((i, (len(label), label), int(text[len(text) - digits:])))
    out_of_order = [numbered[k][0] for k in range(1, len(numbered))
                    if (numbered[k][1], numbered[k][2]) < (numbered[k - 1][1], numbered[k - 1][2])]
    seen, dups = set(), []
    for i, label, number in sorted(numbered, key=lambda t: (t[1], t[2])):
        (dups.append(i) if (label, number) in seen else seen.add((label, number)))
    by_label: dict = {}
    for _, label, number in numbered:
        by_label.setdefault(label, set()).add(number)
    gaps = [b - a for ns in by_label.values() for a, b in zip(sorted(ns), sorted(ns)[1:], strict=False)]
    if step is None and gaps:
        counts = Counter(gaps)
        step = min(g for g in counts if counts[g] == max(counts.values()))
    missing = sum(max((g - 1) // step, 0) for g in gaps) if step else 0
    return {"unnumbered": len(unnumbered), "out_of_order": len(out_of_order), "duplicates": len(dups),
            "missing": missing, "first_out_of_order": out_of_order[:10],
            "first_duplicates": sorted(dups)[:10], "first_unnumbered": unnumbered[:10]}


@st.composite
def numbered_decks(draw):
    """Cards numbered in 73-80 (label, then digits), shuffled, some dropped or repeated or blank."""
    numbers = draw(st.lists(st.integers(0, 60), max_size=30))
    n = len(numbers)
    labels = draw(st.lists(st.sampled_from(["PROG", "PRO", "AB", ""]), min_size=n, max_size=n))
    cards = [Card.from_text(" " * 72 + (label + str(n * 10).zfill(8 - len(label))))
             for label, n in zip(labels, numbers, strict=True)]
    cards += [Card(), Card.from_text(" " * 72 + "ABCDEFG ")] * draw(st.integers(0, 1))
    if draw(st.booleans()):
        cards.insert(draw(st.integers(0, len(cards))), EOF_CARD)
    return draw(st.permutations(cards))


@SETTINGS
@given(cards=numbered_decks(), step=st.none() | st.sampled_from([5, 10, 20]))
def test_check_counts_what_the_model_counts(cards, step):
    report = sequence.check(through_file("text", cards), Field(73, 80), step=step)
    got = report.as_dict()
    want = model_check(cards, Field(73, 80), step)
    assert {k: got[k] for k in want} == want


@SETTINGS
@given(cards=numbered_decks(), start=st.integers(0, 1000), step=st.integers(1, 50),
       label=st.sampled_from(["", "PRG", "X1"]), fmt=st.sampled_from(["cbn", "text", "ebcdic"]))
def test_after_a_renumber_the_check_reports_the_deck_in_order(cards, start, step, label, fmt):
    cards = [c for c in cards if not (c.is_eof and fmt == "ebcdic")]
    numbering = sequence.Numbering(Field(73, 80), start, step, Card.from_text(label).columns[:len(label)])
    words = through_file(fmt, cards)
    chunks = [words[i:i + 4] for i in range(0, len(words), 4)]
    new = np.concatenate([*sequence.renumber(chunks, numbering), cards_to_array([])])
    report = sequence.check(new, Field(73, 80))
    assert report.in_order and report.cards == sum(not c.is_eof for c in cards)
    texts = [c.text()[72:] for c in array_to_cards(new) if not c.is_eof]
    assert texts == [label + str(start + step * i).zfill(8 - len(label)) for i in range(len(texts))]
    assert [c.columns[:72] for c in array_to_cards(new)] == [c.columns[:72] for c in cards]


def test_check_of_a_dropped_deck():
    cards = [Card.from_text(" " * 72 + f"PROG{n:04d}") for n in (10, 20, 40, 30, 30, 70)]
    report = sequence.check(cards_to_array(cards), Field(73, 80))
    assert (report.out_of_order, report.first_out_of_order) == (1, [4])
    assert (report.duplicates, report.first_duplicates) == (1, [5])
    assert (report.step, report.missing, report.first_missing) == (10, 2, [50, 60])


def test_renumber_refuses_a_number_that_does_not_fit():
    numbering = sequence.Numbering(Field(77, 80), 9990, 10)
    with pytest.raises(CardError, match="card 2: number 10000 does not fit in the 4 columns"):
        list(sequence.renumber([cards_to_array([Card()] * 3)], numbering))
    with pytest.raises(SpecError, match="leaves no room"):
        sequence.Numbering(Field(77, 80), label=[0] * 4)


# -- stacked decks ----------------------------------------------------------------------------------

@SETTINGS
@given(data=st.data())
def test_split_and_stack_and_the_counter_agree(data):
    fmt, cards = data.draw(decks(eof=True))
    words = through_file(fmt, cards)
    parts = stacked.split(words)
    model, deck = [], []
    for card in cards:
        if card.is_eof:
            model.append(deck)
            deck = []
        else:
            deck.append(card)
    if deck or not cards or not cards[-1].is_eof:
        model.append(deck)
    assert [array_to_cards(p) for p in parts] == model
    counter = stacked.DeckCounter()
    for i in range(0, len(words), 3):
        counter.feed(words[i:i + 3, 0] >= 0x8000)
    assert [d["cards"] for d in counter.decks()] == [len(d) for d in model]
    restacked = array_to_cards(stacked.stack(parts))
    assert restacked == (cards[:-1] if cards and cards[-1].is_eof else cards)
