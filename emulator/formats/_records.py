"""Reading fixed-size records from a stream in chunks (shared by the binary deck formats)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

CHUNK_BYTES = 1 << 20
"""About 1 MB per read: large enough for numpy to pay off, small enough to bound memory (a chunk of
the smallest records, one-byte EOF cards or empty lines, still gives a million cards)."""


def read_exact(stream: BinaryIO, size: int) -> bytes:
    """Up to ``size`` bytes: fewer only at end of file (pipes may deliver less per ``read``)."""
    parts = []
    got = 0
    while got < size:
        data = stream.read(size - got)
        if not data:
            break
        parts.append(data)
        got += len(data)
    return b"".join(parts)


def record_chunks(stream: BinaryIO, record: int) -> Iterator[bytes]:
    """Chunks of whole ``record``-byte records; only the last chunk may end in a partial record."""
    size = max(record, CHUNK_BYTES // record * record)
    while True:
        chunk = read_exact(stream, size)
        if chunk:
            yield chunk
        if len(chunk) < size:
            return
