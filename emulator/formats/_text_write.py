"""Writing SIMH 4.x ``TEXT`` decks, whole chunks at a time (the rules: :mod:`emulator.formats.text`).

A row of plain ASCII becomes its line by a table look-up and a trim of the trailing blanks; a chunk
holding any other row (an EOF card, a card the code cannot print, one that would read back as a ``~``
line) is laid out whole in a table of fixed-width slots and written with one masked copy.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING, BinaryIO

import numpy as np

from emulator.card import COLUMNS, punches_to_word, word_to_punches
from emulator.codes import Substitutions, get_code
from emulator.deck import WORD_MASK, ascii_decoder, eof_rows, lookup
from emulator.errors import CodeError

if TYPE_CHECKING:
    from numpy.typing import NDArray

WIDTH = COLUMNS + 1
"""Row width while laying out lines: 80 columns and a slot for the newline."""

SPECIAL_CARDS: dict[str, int] = {
    "eor": punches_to_word("7-8-9"),
    "eof": punches_to_word("6-7-9"),
    "eoi": punches_to_word("6-7-8-9"),
}
"""Column-1 word of the ``~eor``/``~eof``/``~eoi`` control cards (the rest of the card is blank)."""

_NL, _TILDE = 10, ord("~")

EOF_LINE = b"~\r\n"
"""How the end-of-file card is written.  SIMH 4.x's reader, after ``~`` and blanks, steps past the
LF before it looks for the end of the line, so with a bare LF it swallows the card that follows;
after a CR it stops at the LF.  We (and SIMH) ignore the CR everywhere else."""

_PREFIX = 4
"""Layout of a line while writing: a 4-byte prefix (``~raw``, ``~eor`` …), then 4 bytes per column
(an octal column word, or a character's UTF-8 bytes), then CR and LF."""
_COLUMN_INDEX = np.arange(COLUMNS)
_BYTE_INDEX = np.arange(4)


@functools.cache
def _glyphs(code: str) -> tuple[np.ndarray, np.ndarray]:
    """For writing: each column word's character as UTF-8 bytes (``uint8[4096, 4]``, zero-padded) and
    their count (``uint8[4096]``, 0 where the word prints no character)."""
    glyphs = np.zeros((4096, 4), dtype=np.uint8)
    sizes = np.zeros(4096, dtype=np.uint8)
    chars = get_code(code)
    for word in chars.printing:
        data = chars.decoding[word].encode("utf-8")
        glyphs[word, : len(data)] = list(data)
        sizes[word] = len(data)
    return glyphs, sizes


def _reads_as_special(words: np.ndarray, code: str) -> NDArray[np.bool_]:
    """Rows whose text a reader would take for a ``~`` control line rather than a card: ``~`` then
    only blanks, or ``~`` then ``raw``/``eor``/``eof``/``eoi`` in any case."""
    ascii_of = ascii_decoder(code)
    tilde: NDArray[np.bool_] = lookup(ascii_of, words[:, 0]) == _TILDE
    if not tilde.any():
        return tilde
    rest = words[tilde]
    blank = ~rest[:, 1:].any(axis=1)  # in every code only the unpunched column prints as a blank
    letters = lookup(ascii_of, rest[:, 1:4]) | 0x20  # lower case (only letters can match)
    keyword = np.zeros(len(rest), dtype=bool)
    for name in ("raw", *SPECIAL_CARDS):
        keyword |= (letters == np.frombuffer(name.encode(), dtype=np.uint8)).all(axis=1)
    tilde[tilde] = blank | keyword
    return tilde


def _substitute(words: np.ndarray, bad: np.ndarray, code: str, *, first_card: int, lenient: bool,
                substitutions: Substitutions | None) -> np.ndarray:
    """Plain text (``raw=False``): a column that prints no character is an error naming card and
    column, or with ``lenient`` the code's substitute character, counted."""
    chars = get_code(code)
    where = np.argwhere(bad)
    if not lenient:
        card, col = (int(i) for i in where[0])
        word = int(words[card, col])
        what = "print no character" if word in chars.decoding else "are not a character"
        raise CodeError(f"punches {word_to_punches(word) or 'none'} {what} in code {code}",
                        card=first_card + card, column=col + 1)
    if substitutions is not None:
        shown = where[: substitutions.keep].tolist()
        for card, col in shown:
            substitutions.add(col + 1, first_card + card)
        substitutions.count += len(where) - len(shown)
    return np.frombuffer(chars.substitute_char.encode("utf-8").ljust(4, b"\0"), dtype=np.uint8)


def encode_array(words: np.ndarray, code: str, *, first_card: int = 1, raw: bool = True,
                 lenient: bool = False, substitutions: Substitutions | None = None) -> bytes | memoryview:
    """The lines of a deck array.

    Rows of plain ASCII (nearly every deck) go through :func:`_plain_lines`.  A chunk with any other
    row is laid out whole in a table — a 4-byte prefix, four bytes per column up to the last column
    any line needs, CR, LF — with a mask of the bytes each line keeps; one masked copy writes every
    line, so a million ``~raw`` or EOF cards cost about what as many lines of text do.
    """
    chars = lookup(ascii_decoder(code), words)
    eof = eof_rows(words)
    if chars.all() and not ((chars[:, 0] == _TILDE).any() or eof.any()):
        return _plain_lines(chars)
    words = words & WORD_MASK
    # Each line shows the columns up to its last punched one (text: trailing blanks trimmed, a blank
    # card is one space; ~raw: SIMH reads missing columns as blank); nothing past the widest counts.
    special = _reads_as_special(words, code)
    used = np.flatnonzero(words.any(axis=0))  # the widest line first: a deck of short cards is narrow
    width = int(used[-1]) + 1 if len(used) else 1
    words = words[:, :width]
    punched = words != 0
    last = np.where(punched.any(axis=1), width - np.argmax(punched[:, ::-1], axis=1), 0)
    glyphs, sizes = _glyphs(code)
    size = lookup(sizes, words)
    bad = (size == 0) & ~eof[:, None]
    control = (bad.any(axis=1) | special) & ~eof if raw else np.zeros_like(eof)
    text = ~(control | eof)
    last[text] = np.maximum(last[text], 1)
    if not raw and bad.any():
        substitute = _substitute(words, bad, code, first_card=first_card, lenient=lenient,
                                 substitutions=substitutions)
    table = np.zeros((len(words), _PREFIX + 4 * width + 2), dtype=np.uint8)
    keep = np.zeros(table.shape, dtype=bool)
    table[:, -1], keep[:, -1] = _NL, True
    body = table[:, _PREFIX:-2].reshape(-1, width, 4)
    body_keep = keep[:, _PREFIX:-2].reshape(-1, width, 4)
    columns = _COLUMN_INDEX[:width] < last[:, None]
    cells = lookup(glyphs.view("<u4").ravel(), words[text]).view(np.uint8).reshape(-1, width, 4)
    if not raw and bad.any():
        cells[bad[text]], size[bad] = substitute, np.count_nonzero(substitute)
    body[text] = cells
    body_keep[text] = (_BYTE_INDEX < size[text][..., None]) & columns[text][..., None]
    table[eof, 0], table[eof, -2] = _TILDE, 13
    keep[eof, 0] = keep[eof, -2] = True
    if control.any():
        table[control], keep[control] = _control_lines(words[control], columns[control],
                                                       table[control], keep[control])
    return table[keep].data


def _control_lines(words: np.ndarray, columns: np.ndarray, table: np.ndarray,
                   keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``~eor``/``~eof``/``~eoi`` for those exact cards, else ``~raw`` and the column words in octal
    up to the last punched column (``columns``; SIMH reads the missing columns as blank)."""
    table[:, :_PREFIX], keep[:, :_PREFIX] = np.frombuffer(b"~raw", dtype=np.uint8), True
    digits = ((words[..., None] >> (9 - 3 * _BYTE_INDEX).astype(np.uint16)) & 7).astype(np.uint8) + 48
    table[:, _PREFIX:-2] = digits.reshape(len(words), -1)
    keep[:, _PREFIX:-2] = np.repeat(columns, 4, axis=1)
    named_only = columns.sum(axis=1) == 1
    for name, word in SPECIAL_CARDS.items():
        named = named_only & (words[:, 0] == word)
        table[named, :_PREFIX] = np.frombuffer(f"~{name}".encode(), dtype=np.uint8)
        keep[named, _PREFIX:-2] = False
    return table, keep


_OUTPUT_COLUMNS = np.arange(WIDTH, dtype=np.uint8)
_BLANK_GROUP = np.uint64(int.from_bytes(b" " * 8, "little"))
_GROUP_BITS = (1 << np.arange(COLUMNS // 8)).astype(np.float64)
_BYTE_STEPS = [np.uint64(1 << (8 * k)) for k in range(1, 8)]


def _text_lengths(chars: np.ndarray) -> NDArray[np.uint8]:
    """``uint8``: the number of each row's last non-blank column (0 for a blank row).

    A row is taken as ten little-endian 64-bit numbers of eight columns each, XORed with eight
    blanks.  The non-zero ones make a 10-bit number whose highest bit (read off its float exponent)
    is the last group holding a non-blank column; that column is the group's highest non-zero byte.
    About half the cost of comparing the 80 columns one by one (numpy's reductions along short rows
    are slow, so there are none here).
    """
    groups = np.ascontiguousarray(chars).view("<u8") ^ _BLANK_GROUP
    punched = (groups != 0) @ _GROUP_BITS
    last = np.frexp(punched)[1] - 1  # -1 for a blank row
    top = groups[np.arange(len(groups)), last]
    length: NDArray[np.uint8] = 8 * last.astype(np.uint8) + 1
    for step in _BYTE_STEPS:
        length += top >= step
    length[punched == 0] = 0
    return length


def _plain_lines(chars: np.ndarray) -> bytes | memoryview:
    """Lines of rows of printable ASCII: trailing blanks trimmed, a blank card as one space."""
    n = len(chars)
    if not n:
        return b""
    length = np.maximum(_text_lengths(chars), 1)  # a blank card is one space
    rows = np.empty((n, WIDTH), dtype=np.uint8)
    rows[:, :COLUMNS] = chars
    rows[np.arange(n), length] = _NL
    return rows[_OUTPUT_COLUMNS <= length[:, None]].data


def write_arrays(arrays: Iterable[np.ndarray], stream: BinaryIO, *, code: str | None = "029",
                 raw: bool = True, lenient: bool = False, substitutions: Substitutions | None = None,
                 **_: object) -> None:
    """Write deck arrays as text lines."""
    code = code or "029"
    get_code(code)
    card = 1
    for words in arrays:
        stream.write(encode_array(words, code, first_card=card, raw=raw, lenient=lenient,
                                  substitutions=substitutions))
        card += len(words)
