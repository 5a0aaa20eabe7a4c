"""The card value and the shared plumbing everything else stands on."""

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from emulator.atomic import atomic_output
from emulator.card import ROW_BIT, Card, punches_to_word, word_to_punches
from emulator.errors import CardError


def test_row_bits_follow_the_reference_order():
    assert ROW_BIT[12] == 0x800 and ROW_BIT[11] == 0x400 and ROW_BIT[0] == 0x200
    assert ROW_BIT[1] == 0x100 and ROW_BIT[9] == 0x001
    assert punches_to_word("12-1") == 0o4400
    assert punches_to_word("0-8-3") == punches_to_word("0-3-8")


@given(st.integers(0, 0xFFF))
def test_punch_strings_round_trip(word):
    assert punches_to_word(word_to_punches(word)) == word


@given(st.lists(st.integers(0, 0xFFF), max_size=80))
def test_card_is_a_value(words):
    a, b = Card(words), Card.from_columns(list(words))
    assert a == b and hash(a) == hash(b)
    assert a.columns[: len(words)] == tuple(words) and len(a.columns) == 80


def test_card_rejects_bad_input_naming_the_column():
    with pytest.raises(CardError, match="column 3"):
        Card([0, 0, 0x1000])
    with pytest.raises(CardError, match="column 2"):
        Card.from_punches(["12", "13"])
    with pytest.raises(CardError):
        Card([0] * 81)


def test_last_nonblank():
    assert Card.blank().last_nonblank() == 0
    assert Card([0, 5, 0]).last_nonblank() == 2


def test_atomic_output_leaves_nothing_on_error(tmp_path):
    target = tmp_path / "deck.cbn"
    with pytest.raises(RuntimeError), atomic_output(target) as out:
        out.write(b"half")
        raise RuntimeError("boom")
    assert not target.exists() and os.listdir(tmp_path) == []
    with atomic_output(target) as out:
        out.write(b"whole")
    assert target.read_bytes() == b"whole"


def test_atomic_output_keeps_the_old_file_when_the_block_fails(tmp_path):
    """An error in the block (here an interruption, which is no ``Exception``) leaves the file as it
    was, and no temporary file beside it; the error goes on unchanged."""
    target = tmp_path / "deck.txt"
    target.write_bytes(b"old")
    stop = KeyboardInterrupt()
    with pytest.raises(KeyboardInterrupt) as raised, atomic_output(target) as out:
        out.write(b"new")
        raise stop
    assert raised.value is stop
    assert target.read_bytes() == b"old" and os.listdir(tmp_path) == ["deck.txt"]


def test_a_lazy_context_is_contextlibs_made_when_first_called():
    """:func:`emulator.lazy.contextmanager`: the generator's name, docstring and ``__wrapped__``; in
    use, ``contextlib.contextmanager``'s context (an error in the block is thrown into the
    generator at its ``yield``)."""
    from emulator.lazy import contextmanager

    seen = []

    def held(name):
        """Hold ``name``."""
        seen.append(f"enter {name}")
        try:
            yield name.upper()
        except ValueError as err:
            seen.append(f"caught {err}")
            raise
        finally:
            seen.append(f"exit {name}")

    made = contextmanager(held)
    assert (made.__name__, made.__doc__, made.__wrapped__) == ("held", "Hold ``name``.", held)
    with made("a") as value:
        assert value == "A"
    with pytest.raises(ValueError, match="boom"), made("b"):
        raise ValueError("boom")
    assert seen == ["enter a", "exit a", "enter b", "caught boom", "exit b"]


def test_atomic_output_gives_a_new_file_the_usual_mode(tmp_path):
    from emulator import atomic

    with atomic_output(tmp_path / "deck.txt") as out:
        out.write(b"x")
    assert (tmp_path / "deck.txt").stat().st_mode & 0o777 == 0o666 & ~atomic._UMASK
