"""Every code table against the reference tables, entry by entry, plus round trips.

The reference tables are data in ``tests/data/`` (its README names their sources: SIMH, Python's
cp037 codec, simh 3.8.1, the IBM 1130 simulator, OpenBSD ``bcd``), so a typo in a table module shows
up here.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import ebcdic_card_code, h_set_7094, rows, special_characters
from reference import word as _word

from emulator.card import Card, punches_to_word
from emulator.codes import Substitutions, get_code
from emulator.codes.ibm029 import EBCDIC_TO_WORD, WORD_TO_EBCDIC
from emulator.errors import CardError


def ebcdic_reference() -> dict[int, int]:
    """EBCDIC byte → column word (``tests/data/ebcdic_card_code.csv``)."""
    return ebcdic_card_code()


def test_reference_table_2_3_is_complete_and_a_bijection():
    table = ebcdic_reference()
    assert len(table) == 256 and len(set(table.values())) == 256


def test_ebcdic_table_matches_reference_entry_by_entry():
    for byte, word in ebcdic_reference().items():
        assert EBCDIC_TO_WORD[byte] == word, f"byte {byte:02X}"
        assert WORD_TO_EBCDIC[word] == byte


def test_029_is_cp037_on_the_ebcdic_card_code():
    code = get_code("029")
    for byte, word in ebcdic_reference().items():
        ch = bytes([byte]).decode("cp037")
        assert code.encoding[ch] == word and code.decoding[word] == ch, f"byte {byte:02X}"
    expected = tuple(punches_to_word(p) for p in ("12-2-8", "11-7-8", "12-11"))
    assert code.encode("¢¬¦") == expected


def test_029_hello():
    card = Card.from_text("HELLO 123", "029")
    assert card.punches(1) == "12-8" and card.punches(6) == "" and card.punches(9) == "3"
    assert card.text("029").rstrip() == "HELLO 123"


def test_029_rejects_invalid_punch_naming_column():
    with pytest.raises(CardError, match="column 2"):
        Card.from_punches(["1", "1-2"]).text("029")
    with pytest.raises(CardError, match="column 3"):
        Card.from_text("AB€", "029")


def test_lenient_counts_substitutions():
    subs = Substitutions()
    words = get_code("029").encode("A€B€", lenient=True, substitutions=subs)
    assert subs.count == 2 and subs.first == [(None, 2), (None, 4)]
    assert words[1] == get_code("029").encoding["?"]
    subs = Substitutions()
    text = get_code("029").decode([punches_to_word("1-2"), 0], lenient=True, substitutions=subs, card=7)
    assert text == "? " and subs.count == 1 and subs.first == [(7, 1)]


@settings(deadline=None)  # timing varies with machine load; speed is benchmarked elsewhere
@given(st.text(alphabet=bytes(range(256)).decode("cp037"), max_size=80))
def test_029_round_trip(text):
    assert Card.from_text(text, "029").text("029")[: len(text)] == text


# -- §2.2: special characters of every code --------------------------------------------------------

COLUMN_CODES = {"simh029": "simh029", "dec029": "dec029", "simh026": "simh026", "bsd_bcd": "ge635"}
"""Columns of ``special_characters.csv`` checked here (``simh38_i7094`` belongs to the i7094 deck format)."""


def specials_reference() -> tuple[list[str], dict[str, list[str]]]:
    """Column names and, per special character, its cells in that order."""
    table = special_characters()
    header = list(next(iter(table.values())))
    return header, {ch: [cells[name] for name in header] for ch, cells in table.items()}


def test_reference_special_table_parses():
    header, rows = specials_reference()
    assert len(header) == 7 and len(rows) == 33
    assert set(rows) == set(" !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def test_029_specials_match_cp037_column():
    header, rows = specials_reference()
    col = header.index("cp037")
    code = get_code("029")
    for ch, cells in rows.items():
        byte, punches = cells[col].split(" ", 1)
        assert ch.encode("cp037") == bytes([int(byte, 16)]), ch
        assert code.encoding[ch] == _word(punches), ch
        assert code.decoding[_word(punches)] == ch


@pytest.mark.parametrize("column", sorted(COLUMN_CODES))
def test_special_characters_match_reference_entry_by_entry(column):
    header, rows = specials_reference()
    col = header.index(column)
    code = get_code(COLUMN_CODES[column])
    by_word: dict[int, set[str]] = {}
    for ch, cells in rows.items():
        word = _word(cells[col])
        assert code.encoding[ch] == word, f"{column} {ch!r}"
        by_word.setdefault(word, set()).add(ch)
    for word, chars in by_word.items():
        assert code.decoding[word] in chars, f"{column} {chars}"
        if len(chars) == 1:
            assert code.decoding[word] == next(iter(chars))


def test_simh029_reads_11_7_8_as_left_brace():
    assert get_code("simh029").decoding[punches_to_word("11-7-8")] == "{"


def test_026_commercial_and_fortran_differences():
    table = rows("026_commercial_fortran.csv")
    punches = [row["punches"] for row in table]
    commercial = [row["commercial"] for row in table]
    fortran = [row["fortran"] for row in table]
    assert len(punches) == len(commercial) == len(fortran) == 5
    c, f = get_code("026-commercial"), get_code("026-fortran")
    for p, cc, fc in zip(punches, commercial, fortran, strict=True):
        w = _word(p)
        assert c.decoding[w] == cc and f.decoding[w] == fc
        # Either spelling punches the same holes (simh 3.8 reads both).
        assert c.encoding[cc] == c.encoding[fc] == f.encoding[cc] == f.encoding[fc] == w
    differing = {w for w in c.decoding if c.decoding[w] != f.decoding[w]}
    assert differing == {_word(p) for p in punches}


def test_026_matches_1130_column_except_its_lozenge_stand_in():
    header, rows = specials_reference()
    col = header.index("ibm1130_026")
    checked = 0
    for ch, cells in rows.items():
        if cells[col] == "—" or ch == "<":  # the 1130 prints the lozenge (12-4-8) as "<"
            continue
        for name in ("026-commercial", "026-fortran"):
            assert get_code(name).encoding[ch] == _word(cells[col]), (name, ch)
        checked += 1
    assert checked == 13
    assert _word(rows["<"][col]) == get_code("026-commercial").encoding["⌑"]


def test_1401_bcd_values_of_section_4_2():
    from emulator.codes.bcd1401 import BCD_OF_WORD, BUSINESS, FORTRAN, WORDS

    code = get_code("026-commercial")
    assert BCD_OF_WORD[code.encoding["H"]] == 0o70
    assert BCD_OF_WORD[code.encoding["0"]] == 0o12 and BCD_OF_WORD[0] == 0
    assert len(set(WORDS)) == 64 and len(BUSINESS) == len(FORTRAN) == 64


# -- §2.1: letters, digits and lower case, common to every code ------------------------------------

ALL_CODES = ["029", "026-commercial", "026-fortran", "simh029", "dec029", "simh026", "ge635"]


@pytest.mark.parametrize("name", ALL_CODES)
def test_letters_digits_and_common_specials(name):
    code = get_code(name)
    for i, d in enumerate("0123456789"):
        assert code.encoding[d] == punches_to_word(str(i))
    for zone, letters, first in (("12", "ABCDEFGHI", 1), ("11", "JKLMNOPQR", 1), ("0", "STUVWXYZ", 2)):
        for i, ch in enumerate(letters):
            assert code.encoding[ch] == punches_to_word(f"{zone}-{first + i}")
            assert code.decoding[code.encoding[ch]] == ch
    for ch, p in {" ": "", "-": "11", "/": "0-1", "$": "11-3-8", "*": "11-4-8", ",": "0-3-8",
                  ".": "12-3-8"}.items():
        assert code.encoding[ch] == punches_to_word(p), ch
    lower = {"a": "12-0-1", "i": "12-0-9", "j": "12-11-1", "r": "12-11-9", "s": "11-0-2", "z": "11-0-9"}
    for ch, p in lower.items():
        if code.fold_case:
            assert code.encode(ch) == code.encode(ch.upper())
        else:
            assert code.encoding[ch] == punches_to_word(p)


def _printable(name: str) -> str:
    return "".join(sorted(ch for ch in get_code(name).decoding.values() if ch.isprintable()))


@pytest.mark.parametrize("name", ALL_CODES)
@settings(deadline=None)  # timing varies with machine load; speed is benchmarked elsewhere
@given(data=st.data())
def test_round_trip_text_cards_text(name, data):
    text = data.draw(st.text(alphabet=_printable(name), max_size=80))
    assert Card.from_text(text, name).text(name)[: len(text)] == text
    code = get_code(name)
    if code.fold_case:
        assert Card.from_text(text.lower(), name).text(name)[: len(text)] == text.upper()


@pytest.mark.parametrize("name", ALL_CODES)
def test_unknown_character_and_pattern(name):
    code = get_code(name)
    with pytest.raises(CardError, match="column 2"):
        code.encode("A€")
    bad = next(w for w in range(4096) if w not in code.decoding)
    with pytest.raises(CardError, match="card 4, column 1"):
        code.decode([bad], card=4)
    subs = Substitutions()
    assert code.decode([bad, 0], lenient=True, substitutions=subs) == code.substitute_char + " "
    assert subs.count == 1


def test_1401_sets_are_the_reference_7094_h_set_with_0_and_8_2_swapped():
    """§2.2 gives the 7094 H set in six-bit order; the 1401 keeps ``0`` at 012 and ``^`` (8-2) at 020
    (simh 3.8 ``i1401_dat.h``), and its business set differs only in ``# @ % &``."""
    from emulator.codes.bcd1401 import BUSINESS, FORTRAN

    h_set = h_set_7094()
    assert len(h_set) == 64
    swapped = list(h_set)
    swapped[0o12], swapped[0o20] = swapped[0o20], swapped[0o12]
    assert FORTRAN == "".join(swapped)
    differ = {i for i in range(64) if BUSINESS[i] != FORTRAN[i]}
    assert {BUSINESS[i] for i in differ} == set("#@%&")


@pytest.mark.parametrize("name", ALL_CODES)
def test_only_the_unpunched_column_prints_as_a_blank(name):
    """The text writer trims a line after its last punched column: no punched column may print blank."""
    assert [w for w, ch in get_code(name).decoding.items() if ch == " "] == [0]


@pytest.mark.parametrize("bad, column", [([1, 2, 4096], 3), ([-1], 1), ([0] * 79 + [0x1000], 80)])
def test_a_card_refuses_a_word_of_more_than_12_bits_naming_its_column(bad, column):
    import numpy as np

    with pytest.raises(CardError, match=rf"column {column}: column word -?\d+ is not 12 bits"):
        Card(bad)
    words = np.array([0o4400, 0xFFF, 0] + [1] * 77, dtype=np.uint16)
    assert Card.from_array(words).columns == tuple(int(w) for w in words)
    assert all(type(w) is int for w in Card.from_array(words).columns)


# -- which code a deck's punches fit (emulator/codes/detect.py) ------------------------------------

def test_an_026_fortran_deck_read_as_029_names_the_code_to_try():
    """An 026-FORTRAN deck decoded as 029 read `10 FORMAT %13H HELLO, WORLD<`, with no word of the
    code: its punches fit the 026's keys, and print otherwise there."""
    from emulator.codes.detect import fit

    words = get_code("026-fortran").encode("   10 FORMAT (13H HELLO, WORLD)")
    found = fit(words, "029")
    assert found.alternatives == ("026-fortran", "026-commercial") and found.detected is None
    assert "0-4-8 ('%' in 029, '(' in 026-fortran" in found.advice()
    assert found.advice().endswith("try --code 026-fortran or --code 026-commercial")
    assert fit(words, "029", chosen=True).advice() == ""  # named: the user knows


@pytest.mark.parametrize("text", ["      X = (Y) + 1", "A & B #5", "HELLO, WORLD 123"])
def test_an_029_deck_gets_no_advice(text):
    """( ) = + are not on the 026's keys, and a deck that reads the same on some other keypunch
    (A & B on the 026-commercial) is right whichever punched it."""
    from emulator.codes.detect import fit

    assert fit(get_code("029").encode(text), "029").advice() == ""


def test_punches_a_code_lacks_name_the_codes_they_fit():
    from emulator.codes.detect import fit

    lower = get_code("029").encode("hello")
    found = fit(lower, "026f", chosen=True)
    assert "029" in found.fits and "026-fortran" not in found.fits
    assert found.alternatives == ("029",) and found.detected is None
    assert found.advice() == "the punches do not all fit code 026-fortran; try --code 029"
    only = get_code("simh026").encode("~")  # 7-9: in no table but SIMH's 026 … and the 029's?
    fits = fit(only, "ge635").fits
    assert "ge635" not in fits and fits
    if len(fits) == 1:
        assert fit(only, "ge635").detected == fits[0]


def _every_printing_pattern() -> list[int]:
    from emulator.codes import code_names

    return sorted({p for name in code_names() for p in get_code(name).printing})


@settings(max_examples=200, deadline=None)
@given(code=st.sampled_from(["029", "026-commercial", "026f", "dec029", "ge635", "bcd", "simh026",
                             "simh029"]),
       chosen=st.booleans(), data=st.data())
def test_decoding_gets_the_same_advice_without_trying_every_code(code, chosen, data):
    """``fit(..., every=False)`` (what ``cards decode`` asks) skips the programs' codes when the code
    asked for fits: its detected code, alternatives and advice are those of the full fit, whatever
    the punches; where the code does not fit it is the full fit."""
    from emulator.codes.detect import fit

    punched_in = data.draw(st.sampled_from(["029", "026-fortran", "dec029", "ge635", "simh026", "simh029"]))
    patterns = data.draw(st.one_of(  # a deck of some code's characters, or of any code's
        st.lists(st.sampled_from(sorted(get_code(punched_in).printing)), max_size=12),
        st.lists(st.sampled_from(_every_printing_pattern()), max_size=12)))
    full, asked = fit(patterns, code, chosen=chosen), fit(patterns, code, chosen=chosen, every=False)
    assert (asked.detected, asked.alternatives, asked.advice()) == (full.detected, full.alternatives,
                                                                   full.advice())
    assert (asked.code in asked.fits) == (full.code in full.fits)
    assert set(asked.fits) <= set(full.fits)
    if full.code not in full.fits:
        assert asked == full


def test_the_029_characters_written_out_are_code_page_037():
    from emulator.codes.ibm029 import CHARACTERS, CODEPAGE

    assert CHARACTERS == bytes(range(256)).decode(CODEPAGE)


def test_the_characters_alike_on_every_keypunch_are_so_in_the_tables():
    """:data:`~emulator.codes.detect.ALIKE`: each character on every keypunch's keys, punched and
    printed alike by all of them; a deck of them alone gets from the shortcut the very fit the tables
    give (no advice), and a deck with one more character goes to the tables."""
    from emulator.codes.detect import ALIKE, KEYPUNCHES, _fit, _keys, fit

    for ch in ALIKE:
        (word,) = {get_code(name).encoding[ch] for name in KEYPUNCHES}
        assert all(get_code(name).decoding[word] == ch and word in _keys(name) for name in KEYPUNCHES), ch
    for name in KEYPUNCHES:
        for chosen in (False, True):
            words = get_code(name).encode(ALIKE)
            found = fit(words, name, chosen=chosen, every=False)
            assert found == _fit(set(words) - {0}, name, chosen, every=False)
            assert found.advice() == "" and found.detected is None
    plus = get_code("029").encode("A + B")  # + is no 026 key: the tables say so
    assert fit(plus, "029", every=False).differing == {}  # the 026's keys do not punch it


def test_the_026_keys_are_48_characters_on_the_026_holes():
    from emulator.codes.ibm026 import COMMERCIAL_CODE, FORTRAN_CODE, KEYBOARD_COMMERCIAL, KEYBOARD_FORTRAN

    for keys, code in ((KEYBOARD_COMMERCIAL, COMMERCIAL_CODE), (KEYBOARD_FORTRAN, FORTRAN_CODE)):
        assert len(set(keys)) == 48 and all(code.decoding[code.encoding[ch]] == ch for ch in keys)
    holes = {COMMERCIAL_CODE.encoding[ch] for ch in KEYBOARD_COMMERCIAL}
    assert holes == {FORTRAN_CODE.encoding[ch] for ch in KEYBOARD_FORTRAN}
