"""The points of a sweep and the run of one point.

A *point* is one setting of every option of ``ibm1013 simulate`` that shapes the line (bit rate,
duplex, turnaround, columns sent, column binary, mechanics, bit error rate, bursts, a cut) and of
what a card given up does (``on_give_up``: stop there, the default, or skip it).  A sweep is the
cross product of a list of values for each, and every point is run with ``seeds`` different
seeds, because a noisy line gives a different figure each time and the spread is part of the answer.

Each run's seed is derived from its point and its seed index alone (a SHA-256 of both), never from
the order runs are handed out, so a sweep gives the same rows whether it runs on one core, sixteen,
or a Dask cluster, and in whatever order the runs finish.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ibm1013.report import JsonValue, Row, TransferReport
from ibm1013.sim.transfer import TransferConfig, run_transfer

# name -> the keyword of TransferConfig.build it sets (the order is the order of the CSV columns)
DIMENSIONS: dict[str, str] = {
    "bit_rate": "bit_rate",
    "duplex": "duplex",
    "turnaround": "turnaround_s",
    "columns": "columns",
    "column_binary": "column_binary",
    "mechanics": "mechanics",
    "ber": "ber",
    "burst": "burst",
    "cut_at": "cut_at",
    "on_give_up": "on_give_up",
}
DEFAULTS: Row = {
    "bit_rate": 1200, "duplex": "full", "turnaround": 0.2, "columns": "80", "column_binary": False,
    "mechanics": "none", "ber": 0.0, "burst": "none", "cut_at": None,
    "on_give_up": "stop",
}
"""One value per dimension: ``ibm1013 simulate``'s defaults.  ``burst`` is ``"none"`` or the text
``"P_GB,P_BG,BER_BAD"``; ``columns`` is ``N``, ``auto`` or a mask whose ranges are joined by ``+``
(``1-20+41-60``) so that a list of them can be written with commas."""

Point = Row
"""One setting of every dimension (a JSON object: the configuration columns of a results row)."""


def burst_text(burst: tuple[float, float, float] | None) -> str:
    """``"none"`` or ``"P_GB,P_BG,BER_BAD"`` (each number as Python writes it)."""
    return "none" if burst is None else ",".join(repr(float(v)) for v in burst)


def config_of(point: Point, seed: int) -> TransferConfig:
    """The :class:`TransferConfig` of one run (the same one ``ibm1013 simulate`` builds)."""
    # the values are the build's keywords, as the point's JSON holds them (build takes them as they are)
    kwargs: dict[str, Any] = {DIMENSIONS[name]: value for name, value in point.items()}
    burst = str(point["burst"])
    kwargs["burst"] = None if burst == "none" else tuple(float(v) for v in burst.split(","))
    kwargs["columns"] = str(point["columns"]).replace("+", ",")
    return TransferConfig.build(seed=seed, **kwargs)


_KEY_ENCODER = json.JSONEncoder(separators=(",", ":"))
"""``json.dumps(..., separators=(",", ":"))``'s encoder, made once: ``json.dumps`` with any option
makes a new one each call, and a sweep makes a key for every row that comes back and every point
it puts in order (the same text either way)."""


def point_key(point: Point) -> str:
    """Canonical text of a point (the same point always gives the same text)."""
    return _KEY_ENCODER.encode([[name, point[name]] for name in DIMENSIONS])


def derive_seed(point: Point, seed_index: int) -> int:
    """The seed of run ``seed_index`` of ``point``: 63 bits of SHA-256 of both."""
    digest = hashlib.sha256(f"{point_key(point)}#{seed_index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def grid(values: Mapping[str, Sequence[JsonValue]]) -> list[Point]:
    """Every point of the cross product of ``values`` (dimensions not given take their default),
    the last dimension varying fastest."""
    unknown = set(values) - set(DIMENSIONS)
    if unknown:
        raise ValueError(f"unknown sweep dimension(s): {', '.join(sorted(unknown))}")
    lists = [list(values.get(name, [DEFAULTS[name]])) for name in DIMENSIONS]
    for name, items in zip(DIMENSIONS, lists, strict=True):
        if not items:
            raise ValueError(f"{name}: empty list")
    return [dict(zip(DIMENSIONS, combo, strict=True)) for combo in itertools.product(*lists)]


@dataclass(frozen=True)
class Run:
    """One simulated transfer of a sweep: a point, its seed index and the seed derived from both."""

    point: Point
    seed_index: int

    @property
    def seed(self) -> int:
        return derive_seed(self.point, self.seed_index)

    @property
    def key(self) -> tuple[str, int]:
        return point_key(self.point), self.seed_index


def deck_digest(deck: np.ndarray) -> str:
    """A short fingerprint of a deck (so a resumed sweep can tell it is sending the same cards)."""
    words = np.ascontiguousarray(deck, dtype=np.uint16)
    return hashlib.sha256(words.tobytes()).hexdigest()[:16]


_REPORT_FIELDS = tuple(f.name for f in fields(TransferReport) if f.name != "settings")
"""The report's keys a row holds (``settings`` are the configuration columns)."""


def run_one(deck: np.ndarray, run: Run, digest: str | None = None) -> Row:
    """Simulate one run: a row with the whole configuration and every key of the report (its
    ``settings`` are the configuration columns), plus the data characters delivered and the line
    efficiency (data characters over all characters on the line).  ``digest`` is
    :func:`deck_digest` of ``deck`` when the caller has it already (hashing a 10,000-card deck
    costs a twentieth of simulating it).

    The report's values are read field by field (its lists copied), not through ``to_dict``, which
    deep-copies ``settings`` only for the row to drop it: with the seed derived once, a twelfth of
    the machinery a worker adds to each compiled 1000-card run (docs/speed.md)."""
    seed = run.seed
    transfer = run_transfer(deck, config_of(run.point, seed))
    report = transfer.report
    data_chars = sum(map(len, transfer.accepted_data))
    line_chars = report.characters_on_line
    row: Row = {**run.point, "seed_index": run.seed_index, "seed": seed,
                "deck_cards": len(deck), "deck_digest": digest or deck_digest(deck)}
    for name in _REPORT_FIELDS:
        value = getattr(report, name)
        row[name] = list(value) if isinstance(value, list) else value
    row.update({
        "data_characters": data_chars,
        "line_efficiency": round(data_chars / line_chars, 6) if line_chars else 0.0,
        "theory_cards_per_minute": None, "theory_retransmissions_per_card": None,
        "theory_undetected_per_million": None,
    })
    return row


def run_many(deck: np.ndarray, runs: Iterable[Run]) -> list[Row]:
    """:func:`run_one` for each run: the batch a worker is handed (the missing seeds of one or a
    few points).  An error carries the point of the run that raised it (``sweep_point``)."""
    rows, digest = [], deck_digest(deck)
    for run in runs:
        try:
            rows.append(run_one(deck, run, digest))
        except Exception as err:
            err.sweep_point = run.point  # type: ignore[attr-defined]  # for the error line
            raise
    return rows


def synthetic_deck(cards: int, seed: int = 0) -> np.ndarray:
    """``cards`` cards with every column punched with a random character the 1013 can send (so
    ``--columns auto`` sends all 80), the same cards for the same seed."""
    from ibm1013.str import fourofeight as fo

    words = np.flatnonzero(fo.WORD_TO_CHAR[1:]).astype(np.uint16) + 1
    return np.random.default_rng(seed).choice(words, size=(cards, 80))
