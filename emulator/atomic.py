"""Write output files so that nothing half-written is ever left behind.

:func:`atomic_output` opens a temporary file next to the target; only when the ``with`` block ends
without an exception is the file flushed, ``fsync``-ed and renamed over the target.  On any error the
temporary file is removed and the target is untouched.  ``-`` means standard output.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing is not imported at run time: every command reading a deck comes here
if TYPE_CHECKING:
    from types import TracebackType
    from typing import BinaryIO


class atomic_output:  # lower case: used as a function, ``with atomic_output(path) as stream: ...``
    """A binary stream, entered, whose contents replace ``path`` atomically when the block ends
    without an exception: a temporary file next to ``path``, flushed, ``fsync``-ed and renamed over
    it; on any error the temporary file is removed and ``path`` is untouched.  ``-`` is standard
    output (flushed at the end).  A class, not a :func:`contextlib.contextmanager`: ``contextlib``
    would cost every command that writes a file (``cards decode`` of a few cards among them) more
    start-up than the rest of this module."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = path
        self._stream: BinaryIO | None = None
        self._tmp = ""

    def __enter__(self) -> BinaryIO:
        if str(self.path) == "-":
            return sys.stdout.buffer
        import tempfile  # here, not at the top: writing to standard output need not import it (nor random)

        target = os.fspath(self.path)
        directory = os.path.dirname(os.path.abspath(target))
        fd, self._tmp = tempfile.mkstemp(prefix=".~" + os.path.basename(target) + ".", dir=directory)
        try:
            os.fchmod(fd, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the usual mode of a new file
            self._stream = os.fdopen(fd, "wb")
        except BaseException:
            _remove(self._tmp)
            raise
        return self._stream

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        """Keep the file if the block ended without an exception (else remove it: the exception goes on)."""
        stream = self._stream
        if stream is None:  # standard output
            if kind is None:
                sys.stdout.buffer.flush()
            return
        try:
            try:
                if kind is None:
                    stream.flush()
                    os.fsync(stream.fileno())
            finally:
                stream.close()
            if kind is None:
                os.replace(self._tmp, os.fspath(self.path))
                return
        except BaseException:
            _remove(self._tmp)
            raise
        _remove(self._tmp)


def _remove(path: str) -> None:
    """Remove the file ``path``; one gone already is nothing to do."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _umask() -> int:
    """The process umask (read by setting and restoring it: do this before threads start)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _umask()


def open_input(path: str | os.PathLike[str]) -> BinaryIO:
    """Open ``path`` for binary reading; ``-`` is standard input."""
    if str(path) == "-":
        return sys.stdin.buffer
    return open(path, "rb")  # noqa: SIM115 - the caller closes it


class NewFiles:
    """Files a command writes into a folder, kept only if all of them are written.

    ``with NewFiles(folder) as files:`` makes the folder if it is missing; call ``files.add(path)``
    before writing each file.  If the block fails (a full disk at the third file, say), the files
    that were not there before it are removed, and the folder too if the block made it: nothing is
    left of a run that did not finish.  (A file that was there before is replaced only by a whole
    new one, as :func:`atomic_output` writes it, and kept.)
    """

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = os.fspath(folder)
        self._made = False
        self._new: list[str] = []

    def __enter__(self) -> NewFiles:
        self._made = not os.path.isdir(self.folder)
        os.makedirs(self.folder, exist_ok=True)
        return self

    def add(self, path: str | os.PathLike[str]) -> str:
        """``path``, to be written now (removed if the block fails and it was not there before)."""
        path = os.fspath(path)
        if not os.path.lexists(path):
            self._new.append(path)
        return path

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is None:
            return
        for path in self._new:
            _remove(path)
        if self._made:
            try:
                os.rmdir(self.folder)
            except OSError:  # not empty: something else is in it now
                pass
