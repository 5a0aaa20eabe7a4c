"""Shared pieces of the simh 3.8 text decks (``i1401``, ``i7094``): BCD tables and line handling.

simh 3.8 (the version Debian packages) has no generic card layer: its IBM 1401 and 7094 simulators
read and punch plain ASCII text, one line per card, and convert each character through a 64-entry
BCD table (``docs/cards.md`` §3).  The same six-bit table also encodes
*column binary*: two printable characters per column, the first for rows 12, 11, 0, 1, 2, 3 and the
second for rows 4–9, each half read as a raw six-bit number.

The character sets.  IBM printed the same holes as different characters on *business* (A) and
*FORTRAN* (H) print chains; they differ in four places only (§2): ``#``/``=`` (8-3), ``@``/``'``
(8-4), ``%``/``(`` (0-4-8) and ``&``/``+`` (12).  simh 3.8 reads either spelling and punches the set
chosen with ``SET CDP BUSINESS|FORTRAN``.

The 7094 tables below are in *card order*: the high two bits of the six-bit code are the zone
(00 none, 01 row 0, 10 row 11, 11 row 12) and the low four the digit (1–9 one row, 10–15 row 8 plus
row 2–7) — SIMH's ``bcd_to_colbin``.  The 1401 keeps its BCD with ``0`` as 012 and the lone A bit
(020) for what the 7094 calls 8-2, so its character table is the 7094 one with those two entries
exchanged; its tables and holes are those of :mod:`emulator.codes.bcd1401` (the 1401 card code).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import BinaryIO

from emulator.card import COLUMNS, ROW_BIT, Card, word_to_punches
from emulator.codes import Substitutions
from emulator.codes.bcd1401 import BUSINESS, FORTRAN
from emulator.errors import CardError, FormatError
from emulator.formats import DeckFormat

H_SET_7094 = " 123456789^=':>{0/STUVWXYZ|,(~\\\"-JKLMNOPQR!$*];_+ABCDEFGHI?.)[<}"
"""FORTRAN (H) print set of simh 3.8 ``i7094``, indexed by six-bit card-order code (§2)."""

_A_DIFFERENCES = {0o13: "#", 0o14: "@", 0o34: "%", 0o60: "&"}
"""Where the business (A) set prints differently from the H set (§2, 026 commercial vs FORTRAN)."""

A_SET_7094 = "".join(_A_DIFFERENCES.get(i, ch) for i, ch in enumerate(H_SET_7094))
"""Business (A) print set of simh 3.8 ``i7094``."""

H_SET_1401 = FORTRAN
"""FORTRAN set of simh 3.8 ``i1401`` (``bcd_to_ascii_h``): ``0`` is code 012."""
A_SET_1401 = BUSINESS
"""Business set of simh 3.8 ``i1401`` (``bcd_to_ascii_a``)."""

_ZONE_BITS = (0, ROW_BIT[0], ROW_BIT[11], ROW_BIT[12])


def card_order_word(code: int) -> int:
    """Column word of a six-bit card-order code (SIMH ``bcd_to_colbin``)."""
    zone, digit = code >> 4, code & 0o17
    word = _ZONE_BITS[zone]
    if 1 <= digit <= 9:
        word |= ROW_BIT[digit]
    elif digit >= 10:
        word |= ROW_BIT[8] | ROW_BIT[digit - 8]
    return word


CARD_ORDER_WORDS: tuple[int, ...] = tuple(card_order_word(c) for c in range(64))
"""The 64 punch patterns a 6-bit BCD character can have, in card order."""

SETS = {"fortran": "H", "h": "H", "026-fortran": "H", "business": "A", "a": "A", "026-commercial": "A"}
"""Names accepted for the ``code`` option of the simh 3.8 formats."""


def character_set(code: str | None, default: str) -> str:
    """``"A"`` or ``"H"`` for a ``code`` option; ``None``/``"029"``/``"default"`` give ``default``."""
    if code is None or code in ("029", "default"):
        return default
    try:
        return SETS[code.lower()]
    except KeyError:
        raise CardError(
            f"simh 3.8 decks use the business or FORTRAN set, not code {code!r} "
            f"(use one of: {', '.join(SETS)})"
        ) from None


def reading_table(h_set: str, a_set: str) -> dict[str, int]:
    """Character → six-bit code, accepting both spellings and lower case (as SIMH does)."""
    table = {ch: i for i, ch in enumerate(a_set)}
    table.update({ch: i for i, ch in enumerate(h_set)})
    table.update({ch.lower(): i for ch, i in table.items() if ch.isalpha()})
    return table


def card_lines(stream: BinaryIO, *, max_chars: int, source: str | None) -> Iterator[tuple[int, str]]:
    """Numbered lines of a text deck, without line ends, one per card.

    A line longer than ``max_chars`` or not in ASCII is a :class:`FormatError` naming the card.
    """
    for number, raw in enumerate(stream, start=1):
        line = raw.rstrip(b"\n")
        if line.endswith(b"\r"):
            line = line[:-1]
        try:
            text = line.decode("ascii")
        except UnicodeDecodeError as err:
            raise FormatError(
                f"byte 0x{line[err.start]:02x} is not ASCII", card=number, column=err.start + 1,
                source=source,
            ) from None
        if len(text) > max_chars:
            raise FormatError(
                f"line of {len(text)} characters; a card holds {max_chars}", card=number, source=source
            )
        yield number, text


def unknown_character(ch: str, what: str, *, card: int, column: int, source: str | None) -> CardError:
    return CardError(f"character {ch!r} is not in the {what}", card=card, column=column, source=source)


def write_lines(lines: Iterable[str], stream: BinaryIO) -> None:
    """Write card lines, trailing blanks trimmed, each ended by a newline (as SIMH punches)."""
    for line in lines:
        stream.write(line.rstrip(" ").encode("ascii") + b"\n")


def check_columns(card: Card, last: int, *, number: int, lenient: bool, what: str) -> None:
    """Refuse an end-of-file marker, and a card punched beyond column ``last`` unless ``lenient``.

    (With ``lenient`` the columns past ``last`` are lost.)
    """
    refuse_eof(card, number=number, what=what)
    if lenient or last >= COLUMNS:
        return
    for col in range(last, COLUMNS):
        if card[col]:
            raise CardError(
                f"{what} holds columns 1-{last} only; this card is punched there",
                card=number, column=col + 1,
            )


# -- text decks: one character per column -----------------------------------------------------------

_OR_ROWS = {12: 0o60, 11: 0o40, 0: 0o20, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 0o10, 9: 0o11}
"""What SIMH's ``colbin_to_bcd`` ORs in for each punched row (used only for ``lenient`` writing)."""


def simh_or_code(word: int) -> int:
    """The six-bit code SIMH 3.8 makes of any punch pattern: the OR of per-row values.

    Both simulators use it (the 7094 when punching text, the 1401 when reading column binary); for
    the 64 card-order patterns it is exact, for others it is SIMH's guess.
    """
    code = 0
    for row, value in _OR_ROWS.items():
        if word & ROW_BIT[row]:
            code |= value
    return code


def read_text(
    stream: BinaryIO, *, words: tuple[int, ...], h_set: str, a_set: str, lenient: bool,
    source: str | None, what: str, substitutions: Substitutions | None = None,
) -> Iterator[Card]:
    """Cards of a simh 3.8 text deck: each character → six-bit code → ``words[code]``.

    Lines hold at most 80 columns; both the A and H spellings are accepted, as SIMH does.  With
    ``lenient`` an unknown character is a blank column (as SIMH reads it), counted in ``substitutions``.
    """
    table = reading_table(h_set, a_set)
    for number, line in card_lines(stream, max_chars=COLUMNS, source=source):
        out = []
        for col, ch in enumerate(line, start=1):
            code = table.get(ch)
            if code is None:
                if not lenient:
                    raise unknown_character(ch, what, card=number, column=col, source=source)
                code = 0  # SIMH reads an unknown character as a blank column
                if substitutions is not None:
                    substitutions.add(col, number)
            out.append(words[code])
        yield Card(out)


def write_text(
    cards: Iterable[Card], stream: BinaryIO, *, words: tuple[int, ...], charset: str, lenient: bool,
    what: str, substitutions: Substitutions | None = None,
) -> None:
    """One line per card, each column spelt ``charset[code]`` for the code with ``words[code]``.

    A pattern that is none of the 64 is an error unless ``lenient`` (then SIMH's OR rule decides,
    counted in ``substitutions``).
    """
    code_of = {word: code for code, word in enumerate(words)}

    def lines() -> Iterator[str]:
        for number, card in enumerate(cards, start=1):
            refuse_eof(card, number=number, what=what)
            out = []
            for col, word in enumerate(card.columns, start=1):
                code = code_of.get(word)
                if code is None:
                    if not lenient:
                        raise CardError(
                            f"punches {word_to_punches(word)} are not a {what} character",
                            card=number, column=col,
                        )
                    code = simh_or_code(word)
                    if substitutions is not None:
                        substitutions.add(col, number)
                out.append(charset[code])
            yield "".join(out)

    write_lines(lines(), stream)


# -- text column binary: two characters per column -----------------------------------------------


def read_column_binary(
    stream: BinaryIO, *, h_set: str, a_set: str, lenient: bool, source: str | None, what: str,
    substitutions: Substitutions | None = None,
) -> Iterator[Card]:
    """Cards of a 2-characters-per-column deck: rows 12–3 then rows 4–9, each six raw bits.

    With ``lenient`` an unknown character is a blank half-column, counted in ``substitutions``.
    """
    table = reading_table(h_set, a_set)
    for number, line in card_lines(stream, max_chars=2 * COLUMNS, source=source):
        halves = []
        for pos, ch in enumerate(line):
            bits = table.get(ch)
            if bits is None:
                if not lenient:
                    raise unknown_character(ch, what, card=number, column=pos // 2 + 1, source=source)
                bits = 0
                if substitutions is not None:
                    substitutions.add(pos // 2 + 1, number)
            halves.append(bits)
        if len(halves) % 2:
            halves.append(0)  # a trimmed line: the missing half is blank
        yield Card((halves[i] << 6) | halves[i + 1] for i in range(0, len(halves), 2))


def write_column_binary(
    cards: Iterable[Card], stream: BinaryIO, *, table: str, what: str,
) -> None:
    """Two characters per column (every pattern has a spelling), trailing blanks trimmed."""

    def lines() -> Iterator[str]:
        for number, card in enumerate(cards, start=1):
            refuse_eof(card, number=number, what=what)
            yield "".join(table[w >> 6] + table[w & 0o77] for w in card.columns)

    write_lines(lines(), stream)


def refuse_eof(card: Card, *, number: int, what: str) -> None:
    """A deck without end-of-file cards cannot hold :data:`~emulator.card.EOF_CARD`: say so."""
    if getattr(card, "is_eof", False):
        raise CardError(f"a {what} file has no end-of-file card (end of file ends the deck)", card=number)


# -- the two decks of one simulator ----------------------------------------------------------------


def machine_formats(
    machine: str, *, words: tuple[int, ...], h_set: str, a_set: str, default_set: str,
    text_description: str, cbn_description: str,
) -> tuple[DeckFormat, DeckFormat]:
    """The text deck ``i<machine>`` and the column-binary deck ``i<machine>-cbn`` of simh 3.8.

    ``words`` are the holes of each six-bit code in a text deck and ``h_set``/``a_set`` its two
    spellings.  Readers accept both spellings; writers spell with ``default_set`` (``"A"`` or
    ``"H"``) unless ``code`` names the other set.
    """

    def charset(code: str | None) -> str:
        return a_set if character_set(code, default_set) == "A" else h_set

    def read(
        stream: BinaryIO, *, code: str | None = None, lenient: bool = False, source: str | None = None,
        substitutions: Substitutions | None = None, **_: object,
    ) -> Iterator[Card]:
        charset(code)  # reject a meaningless code early
        return read_text(
            stream, words=words, h_set=h_set, a_set=a_set, lenient=lenient, source=source,
            what=f"{machine} BCD character set", substitutions=substitutions,
        )

    def write(
        cards: Iterable[Card], stream: BinaryIO, *, code: str | None = None, lenient: bool = False,
        substitutions: Substitutions | None = None, **_: object,
    ) -> None:
        write_text(
            cards, stream, words=words, charset=charset(code), lenient=lenient, what=f"{machine} BCD",
            substitutions=substitutions,
        )

    def read_cbn(
        stream: BinaryIO, *, code: str | None = None, lenient: bool = False, source: str | None = None,
        substitutions: Substitutions | None = None, **_: object,
    ) -> Iterator[Card]:
        charset(code)
        return read_column_binary(
            stream, h_set=h_set, a_set=a_set, lenient=lenient, source=source,
            what=f"{machine} column-binary character set", substitutions=substitutions,
        )

    def write_cbn(
        cards: Iterable[Card], stream: BinaryIO, *, code: str | None = None, **_: object,
    ) -> None:  # lenient changes nothing: every punch pattern has a spelling
        write_column_binary(cards, stream, table=charset(code), what=f"{machine} deck")

    text = DeckFormat(
        name=f"i{machine}", description=text_description, extensions=(), read=read, write=write,
        textual=True, characters={ch: words[code] for ch, code in reading_table(h_set, a_set).items()},
    )
    cbn = DeckFormat(
        name=f"i{machine}-cbn", description=cbn_description, extensions=(), read=read_cbn, write=write_cbn,
    )
    return text, cbn
