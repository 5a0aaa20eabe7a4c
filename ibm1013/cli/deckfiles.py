"""Deck files at the command line: reading a deck (:func:`reading`, the one way every command reads
one, with a progress bar for big files), writing one atomically, the format a file's name implies,
and the one-line messages about what was read.

Every command that reads or writes deck files (``cards``, the card room, ``simulate``, ``theory``,
``sweep``, ``send``, ``rje``) uses these, so a file is read, refused, named and replaced the same
way everywhere.  A deck argument is added with :func:`ibm1013.cli.options.add_deck`;
tests/test_deck_readers.py finds every such argument in the parser and checks that its command
reads every format as ``cards decode`` does.  The few of these that ``cards decode`` of a small deck
needs (the output, the small deck read without numpy, a path's name, the refusal of one file as
both input and output) live in :mod:`ibm1013.cli.deckpaths`, which this module gives on.
"""

from __future__ import annotations

import os
import sys

from emulator.atomic import open_input
from emulator.codes import Substitutions
from emulator.errors import CardError, IbmError
from emulator.formats import DeckFormat, format_names, get_format
from emulator.lazy import contextmanager

# What ``cards decode`` of a few cards needs is apart (ibm1013.cli.deckpaths), so that it loads that
# alone; every command finds it here too.
from ibm1013.cli.deckpaths import display_name as display_name
from ibm1013.cli.deckpaths import file_error
from ibm1013.cli.deckpaths import output as output
from ibm1013.cli.deckpaths import read_small as read_small
from ibm1013.cli.deckpaths import refuse_same_file as refuse_same_file

TYPE_CHECKING = False  # typing is not imported at run time: every command reading a deck comes here
if TYPE_CHECKING:  # numpy is imported when a deck is read
    from collections.abc import Callable, Iterator
    from typing import Any, BinaryIO

    import numpy as np

    from decks.engine import GameState
    from emulator.deckops.fields import Field
    from emulator.deckops.filesort import Scan
    from emulator.follow import PunchFollower
    from emulator.formats.text import LongLines
    from emulator.printer import PrinterSpool


def require_cards(count: int, source: str) -> None:
    """A deck to send (``simulate``, ``theory``, ``sweep``, ``send``) must hold a card: an empty one is
    refused, in these words everywhere, before any work (a transfer of nothing would end ``complete``
    and say nothing true)."""
    if count == 0:
        raise IbmError(f"{source}: the deck has no cards")


@contextmanager
def open_deck(path: str) -> Iterator[BinaryIO]:
    """The input stream, with a progress bar on stderr for big files read on a terminal."""
    try:
        stream = open_input(path)
        size = os.fstat(stream.fileno()).st_size if path != "-" else 0
    except OSError as err:
        raise file_error(path, err) from None
    try:
        if size < (32 << 20) or not sys.stderr.isatty():
            yield stream
            return
        from rich.console import Console
        from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

        with Progress("{task.description}", BarColumn(), DownloadColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task(os.path.basename(path), total=size)
            yield _Counting(stream, lambda n: progress.advance(task, n))  # type: ignore[misc]
    finally:
        if path != "-":
            stream.close()


@contextmanager
def reading(path: str, fmt: str = "auto", *, code: str = "029", long_lines: LongLines | None = None,
            **read_options: object) -> Iterator[tuple[DeckFormat, Iterator[np.ndarray]]]:
    """The one way every command reads a deck file: the format named, or for ``auto`` the one its
    extension names (:func:`resolve_format`) or else the one its first bytes show (of a text deck
    that another text format reads otherwise, one line on standard error names ``--format``:
    :mod:`emulator.formats.ambiguity`); its cards in chunks of column words, each error one line
    naming the file, card and column.

    ``long_lines``: a :class:`~emulator.formats.text.LongLines` the caller reports; without one, text
    lines past column 80 are read as SIMH does (cut) and counted on standard error at the end.
    ``read_options`` go to the format's reader."""
    with _reading(path, fmt, code, long_lines, None, read_options) as read:
        yield read


@contextmanager
def scanning(path: str, fmt: str = "auto", *, code: str = "029", span: Field,
             copy_to: str | None) -> Iterator[tuple[DeckFormat, Scan]]:
    """:func:`reading` for a sort: the deck is read by :func:`emulator.deckops.filesort.scan` (its
    ``span`` and ``copy_to``), with the same checks and errors, and the context gives its
    :class:`~emulator.deckops.filesort.Scan` (the key columns, and what writing the cards again
    needs) in place of the chunks."""
    with _reading(path, fmt, code, None, {"span": span, "copy_to": copy_to}, {}) as read:
        yield read


@contextmanager
def _reading(path: str, fmt: str, code: str, long_lines: LongLines | None, scan: dict[str, Any] | None,
             read_options: dict[str, object]) -> Iterator[tuple[DeckFormat, Any]]:
    """:func:`reading` and :func:`scanning`: the cards' chunks, or a sort's scan."""
    cut = {"long_lines": counting_long_lines() if long_lines is None else long_lines}
    with open_deck(path) as stream:
        try:
            found, cards, deck = _read(stream, path, resolve_format(path, fmt), scan, code=code,
                                       source=display_name(path), other_reading=_say(path), **cut,
                                       **read_options)
            yield found, cards
        except CardError as err:
            raise located(err, path) from None
        if deck is not None:  # a command that stopped early (cards show --card 3) warns as any other
            from emulator.formats import read_to_end

            read_to_end(deck)
    if long_lines is None:
        say_cut(cut["long_lines"])


def _read(stream: BinaryIO, path: str, fmt: str, scan: Any, **options: Any
          ) -> tuple[DeckFormat, Any, BinaryIO | None]:
    """The format, the chunks of column words (or a sort's scan) and the deck's stream, if the
    caller may stop before its end."""
    if scan is not None:
        from emulator.deckops import filesort

        again = path if path != "-" and os.path.isfile(path) else None  # the records are read again
        return (*filesort.scan(stream, fmt, path=again, **scan, **options), None)
    from emulator import formats

    found, deck = formats.open_deck(stream, fmt, code=options["code"],
                                    other_reading=options.pop("other_reading"))
    return found, locating(formats.arrays_of(found, deck, **options), path), deck


def _say(path: str) -> Any:
    """What to do when a text deck reads otherwise in another text format: say so, on one line."""
    def told(line: str) -> None:
        print(f"ibm1013: {display_name(path)}: {line}", file=sys.stderr)

    return told


def locating(arrays: Iterator[np.ndarray], path: str) -> Iterator[np.ndarray]:
    """``arrays``, any card error met on the way named as ``path``'s."""
    try:
        yield from arrays
    except CardError as err:
        raise located(err, path) from None


def load_deck(path: str, fmt: str = "auto", *, code: str = "029") -> tuple[DeckFormat, np.ndarray]:
    """The whole deck file ``path`` (:func:`reading`) as one ``(n, 80)`` array of column words."""
    import numpy as np

    from emulator.deck import empty

    with reading(path, fmt, code=code) as (found, arrays):
        return found, np.concatenate([empty(), *arrays])


def start_game(game: str, deal: int | None, options: list[str], load: str | None, fmt: str = "auto", *,
               code: str = "029") -> GameState:
    """The game ``play``, ``solve`` and ``play --stream`` begin with (:func:`decks.session.start`):
    deal ``deal`` of ``game``, or the game punched in the deck file ``load`` (``--load``), read by
    :func:`reading` like any deck (in any format ``cards decode`` reads, ``--format`` and ``--code``
    as theirs, each error one line naming the file and card), its cards handed to the game's reader
    as they come (a file that is no game's deck stops at its first card)."""
    from decks.session import start

    if load is None:
        return start(game, deal, options)
    from emulator.deck import iter_cards

    with reading(load, fmt, code=code) as (_, arrays):
        return start(game, deal, options, load, iter_cards(arrays))


def follow_format(source: str, fmt: str = "auto") -> str:
    """The format ``send --follow SOURCE`` reads a deck in as the punch writes it, resolved as
    :func:`reading` resolves a deck file's: ``fmt``, or for ``auto`` the format the file's extension
    names (:func:`resolve_format`: ``punch.ebcdic``), else ``auto``, which the follower detects from
    the first card punched as ``cards info`` does.  What cannot be followed is an
    :class:`~emulator.errors.IbmError` in one line, told when the arguments are parsed: a directory,
    a missing directory, a format whose cards have no boundary (``art``) — named, by its extension,
    or shown by what the file holds already — or a printer's lines in any format but text."""
    from emulator.printer import check_source
    from emulator.sockdev import SCHEME

    if source.startswith(SCHEME):
        check_source(source, fmt)
        return fmt
    resolved = resolve_format(source, fmt)
    check_source(source, resolved)
    if resolved == "auto" and os.path.isfile(source):  # what is punched already shows the format
        from emulator.formats import HEAD_BYTES, detect

        with open_deck(source) as stream:
            head = stream.read(HEAD_BYTES)
        if head:
            check_source(source, detect(head).name)
    return resolved


def following(source: str, fmt: str = "auto", *, code: str = "029", idle_s: float | None = None,
              spool: PrinterSpool | None = None) -> PunchFollower:
    """The follower of ``send --follow SOURCE`` (:func:`emulator.printer.open_follower`) in the
    format :func:`follow_format` resolves: a deck read as the punch writes it, card by card, as
    :func:`reading` would read the finished file."""
    from emulator.printer import open_follower

    return open_follower(source, follow_format(source, fmt), code=code, idle_s=idle_s, spool=spool)


@contextmanager
def writing(path: str) -> Iterator[None]:
    """Turn an OS error while writing ``path`` into a one-line error."""
    try:
        yield
    except OSError as err:
        raise file_error(path, err) from None


class _Counting:
    """A read-only stream that reports how many bytes went by."""

    def __init__(self, stream: BinaryIO, advance: Any) -> None:
        self._stream, self._advance = stream, advance

    def read(self, n: int = -1) -> bytes:
        data = self._stream.read(n)
        self._advance(len(data))
        return data


def refuse_binary_to_terminal(path: str, fmt: str) -> None:
    """A binary deck (``cbn``, ``ebcdic`` …) written to standard output on a terminal would only
    garble it: refuse, before anything is read, as ``gzip`` does.  Text formats print fine."""
    if path == "-" and not get_format(fmt).textual and sys.stdout is not None and sys.stdout.isatty():
        raise IbmError(f"will not write a {fmt} deck (binary) to a terminal: give -o FILE, or send "
                       "standard output to a file or a pipe")


def resolve_format(path: str, fmt: str) -> str:
    """``fmt``, or for ``auto`` the undetectable format the file's extension names, if any."""
    if fmt != "auto" or path == "-":
        return fmt
    ext = os.path.splitext(path)[1].lower()
    named = [name for name in format_names()
             if ext in get_format(name).extensions and get_format(name).sniff is None and name != "text"]
    return named[0] if len(named) == 1 else fmt


def located(err: CardError, source: str) -> CardError:
    return err.located(source=source if source != "-" else "<stdin>")


def report_substitutions(subs: Substitutions) -> None:
    if subs.count:
        where = ", ".join(f"card {card} column {col}" for card, col in subs.first)
        print(f"ibm1013: {subs.count} substitution{'s' if subs.count != 1 else ''} (first: {where})",
              file=sys.stderr)


def counting_long_lines() -> LongLines:
    """The read option ``long_lines`` that counts the lines of a text deck longer than a card (read
    as SIMH does: the columns past 80 dropped) so that the command can say so; other formats ignore it."""
    from emulator.formats.text import LongLines

    return LongLines(truncate=True)


def say_cut(long_lines: LongLines) -> None:
    if long_lines.count:
        lines = "line" if long_lines.count == 1 else "lines"
        first = "line" if len(long_lines.first) == 1 else "lines"
        print(f"ibm1013: {long_lines.count} {lines} longer than 80 columns cut at column 80 "
              f"(first: {first} {listing(long_lines.first)})", file=sys.stderr)


def listing(positions: list[int]) -> str:
    return ", ".join(map(str, positions))


def pipe(source: str, target: str, *, source_format: str, target_format: str, code: str,
         long_lines: LongLines | None = None, read_options: dict[str, object] | None = None,
         write_options: dict[str, object] | None = None,
         code_for: Callable[[DeckFormat, np.ndarray], str] | None = None) -> None:
    """Stream the deck ``source`` into ``target``: arrays in, arrays out, chunk by chunk (``code_for``:
    the code to write in, chosen from the format read and the first chunk; ``long_lines`` and
    ``read_options`` go to :func:`reading`)."""
    import itertools

    from emulator.deck import keep_freed_memory
    from emulator.formats import write_deck_arrays

    refuse_same_file(source, target)
    refuse_binary_to_terminal(target, target_format)
    keep_freed_memory()
    read = reading(source, source_format, code=code, long_lines=long_lines, **(read_options or {}))
    with read as (fmt, arrays), output(target) as out:
        if code_for is not None:
            first = next(arrays, None)
            if first is not None:
                code = code_for(fmt, first)
                arrays = itertools.chain([first], arrays)
        write_deck_arrays(arrays, out, target_format, code=code, **(write_options or {}))
