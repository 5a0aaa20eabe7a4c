"""The verdicts a solver search had proved before it changed (``tests/data/*-verdicts-*.json``), and
the records of docs/ that decide a deal, for the tests that no proved verdict changes (issue 24):
``test_spider_verdicts``, ``test_stuck_verdicts``, ``test_king_albert_verdicts``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def old_verdicts(name: str) -> list[dict]:
    """The verdicts kept in ``tests/data/NAME`` (each with ``game``, ``deal``, ``verdict``, ``nodes``)."""
    return json.loads((ROOT / "tests" / "data" / name).read_text(encoding="utf-8"))["verdicts"]


def decided_records() -> Iterator[tuple[str, dict, str]]:
    """``(file name, record, "won" or "lost")`` for every record of docs/*.jsonl that decides its deal
    (records call it ``outcome``, or ``verdict`` in solver-bench.jsonl)."""
    for path in sorted((ROOT / "docs").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            decided = record.get("outcome", record.get("verdict"))
            if decided in ("won", "lost"):
                yield path.name, record, decided
