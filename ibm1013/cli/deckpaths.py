"""A deck file's path at the command line: the name it is shown by, the one file that may not be
both input and output, the output written atomically, and a small plain deck read without numpy.

These are the deck files' (:mod:`ibm1013.cli.deckfiles`, which gives them to every command) that
``cards decode`` of a few cards needs, apart so that it loads only them: the rest of the deck files'
module (every other way a deck is read and written) costs that command's start-up, in a wheel
install, more than the decoding.
"""

from __future__ import annotations

import os
import stat

from emulator.atomic import atomic_output, open_input
from emulator.errors import IbmError

TYPE_CHECKING = False  # typing is not imported at run time: this is the fastest command's path
if TYPE_CHECKING:
    from types import TracebackType
    from typing import BinaryIO


def read_small(path: str, fmt: str = "auto", *, code: str = "029") -> tuple[str, list[list[int]]] | None:
    """:func:`~ibm1013.cli.deckfiles.reading`'s fast path, for a command that would rather not
    import numpy (``cards decode`` of a few cards starts three times faster): a small plain CBN or
    text deck, read in plain Python (:mod:`emulator.small_decks`), as its format's name and each
    card's column words; None for any other deck, which :func:`~ibm1013.cli.deckfiles.reading` then
    reads (and words any error)."""
    from emulator import small_decks
    from emulator.codes import get_code

    if path == "-" or not small_decks.may_read(path, fmt):
        return None
    try:  # a pipe must not be opened here: reading could not read it again
        about = os.stat(path)
    except OSError:
        return None  # reading says what is wrong
    if not stat.S_ISREG(about.st_mode) or about.st_size > small_decks.SMALL_BYTES:
        return None
    try:  # a small regular file, opened as deckfiles.open_deck opens one (which imports contextlib)
        stream = open_input(path)
    except OSError as err:
        raise file_error(path, err) from None
    with stream:
        data = stream.read(small_decks.SMALL_BYTES + 1)
    cards = small_decks.columns(data, fmt, get_code(code))
    return None if cards is None else ("cbn" if small_decks.binary(data) else "text", cards)


class output:  # lower case: used as a function, ``with output(path) as stream: ...``
    """:func:`~emulator.atomic.atomic_output` of ``path``, an OS error while opening, writing or
    replacing it an :class:`~emulator.errors.IbmError` in one line naming ``path``.  A class, not a
    :func:`contextlib.contextmanager`: ``cards decode`` of a few cards writes through it, and need
    not import ``contextlib``."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._output = atomic_output(path)

    def __enter__(self) -> BinaryIO:
        try:
            return self._output.__enter__()
        except OSError as err:
            raise file_error(self.path, err) from None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        try:
            self._output.__exit__(kind, error, trace)
        except OSError as err:
            raise file_error(self.path, err) from None
        if isinstance(error, OSError):
            raise file_error(self.path, error) from None


def file_error(path: str, err: OSError) -> IbmError:
    """An OS error on the file ``path`` (opening, reading or writing it) as one line."""
    return IbmError(f"{path}: {err.strerror or err}")


def display_name(path: str) -> str:
    """``path`` as messages name it (standard input is ``<stdin>``)."""
    return "<stdin>" if path == "-" else path


def refuse_same_file(source: str, target: str) -> None:
    """One file cannot be both input and output (also through another path or a hard link): the
    input deck would be lost, replaced by the output."""
    if "-" in (source, target):
        return
    try:
        same = os.path.samefile(source, target)
    except OSError:  # one of them does not exist (yet): not the same file
        return
    if same:
        raise IbmError(f"{target}: output and input ({source}) are the same file; "
                       "write the output to another file")
