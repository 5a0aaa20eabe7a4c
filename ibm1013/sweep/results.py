"""Rows of a sweep on disk (CSV or JSON Lines) and the summary of each point.

A results file is a journal: each row is appended (one ``write`` of one whole line, flushed) the
moment its run returns, so a sweep stopped by Ctrl-C, a crash or a power cut keeps every run already
written, and ``--resume`` reads the file back to run only what is missing.  When the sweep ends, the
file is rewritten (atomically) with the rows in the order of the sweep's points and seeds, so the
same sweep gives the same bytes however many workers ran it and in whatever order they finished.

Columns: the configuration (:data:`~ibm1013.sweep.grid.DIMENSIONS`), ``seed_index`` and ``seed``,
the deck (``deck_cards``, ``deck_digest``), every key of
:class:`~ibm1013.report.TransferReport` except ``settings`` (those are the configuration columns),
then ``data_characters`` and ``line_efficiency``, and the theory's figures of the point
(:data:`THEORY_KINDS`, with ``sweep --theory``).
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import os
import statistics
import time
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields
from typing import Any, BinaryIO

from emulator.atomic import atomic_output
from emulator.errors import IbmError
from ibm1013.report import Row, TransferReport
from ibm1013.str.events import CARDS_GIVEN_UP, COMPLETE
from ibm1013.sweep.grid import DIMENSIONS, point_key

_CONFIG_KINDS = {"bit_rate": "int", "duplex": "str", "turnaround": "float", "columns": "str",
                 "column_binary": "bool", "mechanics": "str", "ber": "float", "burst": "str",
                 "cut_at": "float?", "on_give_up": "str"}
_RUN_KINDS = {"seed_index": "int", "seed": "int", "deck_cards": "int", "deck_digest": "str"}
_EXTRA_KINDS = {"data_characters": "int", "line_efficiency": "float"}
THEORY_KINDS = {"theory_cards_per_minute": "float?", "theory_retransmissions_per_card": "float?",
                "theory_undetected_per_million": "float?"}
"""The theory's figures of the run's point (``sweep --theory``; empty without it: with it, a point
the theory does not cover is refused before any run, ``ibm1013.cli.theory.theory_setting``)."""


def _kind(hint: Any) -> str:
    """``int``, ``float``, ``str`` or ``bool`` (``?`` appended when ``None`` is allowed), else
    ``json`` (lists, and whatever a later report may hold: the cell is its JSON text)."""
    optional = ""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        hint, optional = (args[0] if len(args) == 1 else object), "?"
    scalar = {int: "int", float: "float", str: "str", bool: "bool"}.get(hint)
    return scalar + optional if scalar else "json"


def _report_kinds() -> dict[str, str]:
    hints = typing.get_type_hints(TransferReport)
    return {f.name: _kind(hints[f.name]) for f in fields(TransferReport) if f.name != "settings"}


KINDS: dict[str, str] = {**_CONFIG_KINDS, **_RUN_KINDS, **_report_kinds(), **_EXTRA_KINDS, **THEORY_KINDS}
COLUMNS: tuple[str, ...] = tuple(KINDS)
assert tuple(_CONFIG_KINDS) == tuple(DIMENSIONS)


def run_key(row: Row) -> tuple[str, int]:
    """What identifies a run: its point and seed index."""
    return point_key({name: row[name] for name in DIMENSIONS}), typing.cast(int, row["seed_index"])


# -- cells ------------------------------------------------------------------------------------------
def _cell_of(base: str) -> Callable[[Any], str]:
    """How a cell of a scalar kind is written (``None`` as an empty cell)."""
    if base == "str":
        return lambda value: "" if value is None else str(value)
    if base == "bool":
        return lambda value: "" if value is None else ("true" if value else "false")
    if base == "float":
        return lambda value: "" if value is None else repr(float(value))
    return lambda value: "" if value is None else str(int(value))


_ENCODERS: dict[str, Callable[[Any], str]] = {
    kind: json.dumps if kind == "json" else _cell_of(kind.rstrip("?")) for kind in set(KINDS.values())}
_COLUMN_ENCODERS = tuple((name, _ENCODERS[kind]) for name, kind in KINDS.items())
"""Each column's encoder, looked up once: a row is 43 cells, and a sweep encodes every row once
a file."""
_CSV_CELLS = tuple((name, None if KINDS[name].rstrip("?") == "str" else encode)
                   for name, encode in _COLUMN_ENCODERS)
"""The same for a CSV line, less the text columns' encoder: the CSV writer itself writes ``None``
as an empty cell and anything else as its ``str``, as that encoder does."""


def _decode(text: str, kind: str) -> Any:
    if kind == "json":
        return json.loads(text)
    base = kind.rstrip("?")
    if text == "" and kind.endswith("?"):
        return None
    if base == "str":
        return text
    if base == "bool":
        if text not in ("true", "false"):
            raise ValueError(f"not true/false: {text!r}")
        return text == "true"
    if base == "float":
        return float(text)
    return int(text)


def _in_columns(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with exactly :data:`COLUMNS`, in that order (a worker's row has them all)."""
    return {name: row[name] for name in COLUMNS}


# -- files ------------------------------------------------------------------------------------------
class ResultsFile:
    """One results file, ``.csv`` or ``.jsonl`` (JSON Lines: one JSON object per run)."""

    def __init__(self, path: str) -> None:
        self.path = path
        ext = os.path.splitext(path)[1].lower()
        if ext not in (".csv", ".jsonl"):
            raise IbmError(f"{path}: results go to a .csv or .jsonl file")
        self.kind = ext[1:]
        self._stream: BinaryIO | None = None
        self._synced = 0.0
        self._written: dict[int, tuple[Row, bytes]] = {}
        """The line of each row appended, by the row's ``id`` (the row is kept with it, so the id
        stays its own): :meth:`rewrite` puts those lines in order rather than encoding every cell
        again."""

    # reading
    def read(self) -> list[Row]:
        """Every whole row of the file (a last line cut short by a crash is left out: it is run again)."""
        try:
            with open(self.path, "rb") as f:
                data = f.read()
        except OSError as err:
            raise IbmError(f"{self.path}: {err.strerror or err}") from None
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        elif lines:
            lines.pop()  # no newline: the last write did not finish
        return self._parse_csv(lines) if self.kind == "csv" else self._parse_jsonl(lines)

    def _parse_csv(self, lines: list[bytes]) -> list[dict[str, Any]]:
        if not lines:
            return []
        header = next(csv.reader([lines[0].decode()]))
        if tuple(header) != COLUMNS:
            raise IbmError(f"{self.path}: not a results file of this version of ibm1013 sweep "
                           f"(its columns differ); write to a new file")
        rows = []
        for number, line in enumerate(lines[1:], start=2):
            try:
                cells = next(csv.reader([line.decode()]))
                if len(cells) != len(COLUMNS):
                    raise ValueError(f"{len(cells)} cells, not {len(COLUMNS)}")
                rows.append({n: _decode(c, KINDS[n]) for n, c in zip(COLUMNS, cells, strict=True)})
            except (ValueError, UnicodeDecodeError) as err:
                raise IbmError(f"{self.path}: line {number}: {err}") from None
        return rows

    def _parse_jsonl(self, lines: list[bytes]) -> list[dict[str, Any]]:
        rows = []
        for number, line in enumerate(lines, start=1):
            try:
                row = json.loads(line)
                if not isinstance(row, dict) or tuple(row) != COLUMNS:
                    raise ValueError("not a row of this version of ibm1013 sweep")
            except ValueError as err:
                raise IbmError(f"{self.path}: line {number}: {err}") from None
            rows.append(row)
        return rows

    # writing
    def _line(self, row: Row) -> bytes:
        return self._lines([row])[0]

    def _lines(self, rows: Sequence[Row]) -> list[bytes]:
        """Each row's line (in a CSV, the rows of a batch go through one writer)."""
        if self.kind == "jsonl":
            return [(json.dumps(_in_columns(row)) + "\n").encode() for row in rows]
        out = io.StringIO()
        write = csv.writer(out, lineterminator="\n").writerow
        ends = []  # where each row's line ends (a cell may hold a line break of its own)
        for row in rows:
            write([row[name] if encode is None else encode(row[name]) for name, encode in _CSV_CELLS])
            ends.append(out.tell())
        text = out.getvalue()
        return [text[start:end].encode() for start, end in itertools.pairwise([0, *ends])]

    def _written_line(self, row: Row) -> bytes:
        """``row``'s line as :meth:`append` wrote it, else encoded now."""
        kept = self._written.get(id(row))
        return kept[1] if kept is not None and kept[0] is row else self._line(row)

    def _header(self) -> bytes:
        return (",".join(COLUMNS) + "\n").encode() if self.kind == "csv" else b""

    def open_append(self, *, fresh: bool) -> None:
        """Start appending: a new file (with its header), or after the whole rows of an old one."""
        try:
            if fresh:
                self._stream = open(self.path, "xb")  # noqa: SIM115 - closed by close()
                self._stream.write(self._header())
            else:
                self._stream = open(self.path, "r+b")  # noqa: SIM115
                data = self._stream.read()
                end = data.rfind(b"\n") + 1  # drop a line cut short by a crash
                self._stream.seek(end)
                self._stream.truncate()
                if end == 0:
                    self._stream.write(self._header())
            self._stream.flush()
        except FileExistsError:
            raise IbmError(f"{self.path} exists: add --resume to continue that sweep, "
                           f"or write to another file") from None
        except OSError as err:
            raise IbmError(f"{self.path}: {err.strerror or err}") from None

    def append(self, rows: Iterable[Row]) -> None:
        """Write whole rows now (flushed; synced to disk at most once a second).  A row must not
        change once appended: :meth:`rewrite` writes the line it had then."""
        assert self._stream is not None
        rows = list(rows)
        lines = self._lines(rows)
        for row, line in zip(rows, lines, strict=True):
            self._written[id(row)] = (row, line)
        try:
            self._stream.write(b"".join(lines))
            self._stream.flush()
            now = time.monotonic()
            if now - self._synced > 1.0:
                os.fsync(self._stream.fileno())
                self._synced = now
        except OSError as err:
            raise IbmError(f"{self.path}: {err.strerror or err} (the rows before are kept)") from None

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def rewrite(self, rows: Sequence[Row]) -> None:
        """Replace the file by ``rows`` (atomically: the old file stays until the new one is whole)."""
        self.close()
        try:
            with atomic_output(self.path) as out:
                out.write(self._header() + b"".join(map(self._written_line, rows)))
        except OSError as err:
            raise IbmError(f"{self.path}: {err.strerror or err} (the unsorted rows are kept)") from None
        finally:
            self._written.clear()


# -- summary ----------------------------------------------------------------------------------------
# Student's t, 97.5th percentile (two-sided 95 %), for 1-30 degrees of freedom: the standard table
# (NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.2).
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
         2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
         2.052, 2.048, 2.045, 2.042)


def t975(df: int) -> float:
    """Student's t for a two-sided 95 % interval with ``df`` degrees of freedom (beyond the table,
    the Cornish-Fisher expansion around the normal 1.95996, good to 1e-4 there)."""
    if df < 1:
        return math.nan
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


def summarize(rows: Sequence[Row]) -> list[Row]:
    """One summary per point, in the order the points first appear in ``rows``: the mean cards per
    minute over its seeds with a 95 % confidence interval (Student's t; ``None`` with one seed),
    and the counts that matter — retransmissions, detected and undetected errors, failed, lost and
    duplicated cards, runs that did not end ``complete`` (``not_complete``: the far end lacks cards or
    did not confirm) and, of those, runs that ended in order but gave cards up (``cards_given_up_runs``)."""
    groups: dict[str, list[Row]] = {}
    for row in rows:
        groups.setdefault(run_key(row)[0], []).append(row)
    return [point_summary(group) for group in groups.values()]


def point_summary(rows: Sequence[Row]) -> Row:
    """The summary of one point, given its rows (one a seed): :func:`summarize`'s items.

    One pass over the rows adds up every count (a sweep makes one summary a point after its last
    rows are back, so this is part of the time a user waits at the end); the means are
    ``math.fsum`` over the count, which is what ``statistics.fmean`` computes."""
    group = typing.cast(Sequence[dict[str, Any]], rows)  # the cells are the kinds of KINDS
    n = len(group)
    rates = [r["cards_per_minute"] for r in group]
    mean = math.fsum(rates) / n
    half = t975(n - 1) * statistics.stdev(rates) / math.sqrt(n) if n > 1 else None
    first = group[0]
    retransmissions = detected = undetected = failed = lost = duplicated = 0
    not_complete = given_up = received = data = 0
    for r in group:
        retransmissions += r["retransmissions"]
        detected += r["detected_errors"]
        undetected += r["undetected_errors"]
        failed += len(r["failed_cards"])
        lost += r["lost"]
        duplicated += r["duplicated"]
        not_complete += r["ended"] != COMPLETE
        given_up += r["ended"] == CARDS_GIVEN_UP
        received += r["cards_received"]
        data += r["data_characters"]
    per_column = 2 if first["column_binary"] else 1
    return {
        **{name: first[name] for name in DIMENSIONS},
        "runs": n,
        "cards_per_minute": round(mean, 3),
        "ci95_low": None if half is None else round(mean - half, 3),
        "ci95_high": None if half is None else round(mean + half, 3),
        "retransmissions": retransmissions,
        "detected_errors": detected,
        "undetected_errors": undetected,
        "failed_cards": failed,
        "lost": lost,
        "duplicated": duplicated,
        "not_complete": not_complete,
        "cards_given_up_runs": given_up,
        "line_efficiency": round(math.fsum([r["line_efficiency"] for r in group]) / n, 6),
        "columns_sent": round(data / received / per_column, 3) if received else None,
        **{name: first.get(name) for name in THEORY_KINDS},
    }
