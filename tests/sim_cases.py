"""Simulated transfers whose reports and timelines are recorded in ``tests/data/sim_expectations.json``.

The simulator's speed work must not change what it says: ``tests/test_sim_expectations.py`` runs
every case below and compares the whole report, the timeline (every frame: direction, start, end,
data, card) and the cards accepted with what the simulator gave before that work.  Clean and noisy
lines, bursts, half duplex, partial and column-binary layouts, a cut line, card mechanics, a resume
from a later card and a line so noisy that cards are given up.

To record the expectations again (only when a change of behaviour is intended, and say why in the
commit)::

    PYTHONPATH=. python tests/sim_cases.py
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from ibm1013.sim.transfer import TransferConfig, run_transfer
from ibm1013.str import fourofeight as fo

EXPECTATIONS = Path(__file__).parent / "data" / "sim_expectations.json"
_WORDS = np.array([w for w in range(4096) if fo.WORD_TO_CHAR[w]], dtype=np.uint16)


def deck(cards: int, seed: int, *, blank_tail: bool = False) -> np.ndarray:
    """Random sendable cards; ``blank_tail``: each card blank from a random column on (partial
    cards, for the ``auto`` layout)."""
    rng = np.random.default_rng(seed)
    words = rng.choice(_WORDS, size=(cards, 80))
    if blank_tail:
        ends = rng.integers(0, 81, size=cards)
        words[np.arange(80)[None, :] >= ends[:, None]] = 0
    return words


def _cases() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """name -> (deck settings, TransferConfig.build keywords)."""
    cases: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    for seed in (1, 2):
        cases[f"clean-{seed}"] = ({"cards": 30, "seed": seed}, {"seed": seed})
    for seed in (1, 2, 3, 4, 5):
        cases[f"ber3e-4-{seed}"] = ({"cards": 60, "seed": seed}, {"ber": 3e-4, "seed": seed})
    for seed in (1, 2, 3):
        cases[f"ber1e-2-{seed}"] = ({"cards": 12, "seed": seed}, {"ber": 1e-2, "seed": seed})
        cases[f"burst-{seed}"] = ({"cards": 60, "seed": seed},
                                  {"ber": 1e-5, "burst": (2e-3, 0.1, 0.2), "seed": seed})
    cases["half-duplex"] = ({"cards": 30, "seed": 7}, {"duplex": "half", "ber": 3e-4, "seed": 7})
    cases["mask"] = ({"cards": 40, "seed": 8}, {"columns": "1-20,41-60", "ber": 3e-4, "seed": 8})
    cases["fixed-40"] = ({"cards": 40, "seed": 14}, {"columns": "40", "ber": 3e-4, "seed": 14})
    cases["auto-partial"] = ({"cards": 40, "seed": 9, "blank_tail": True},
                             {"columns": "auto", "ber": 3e-4, "seed": 9})
    cases["column-binary"] = ({"cards": 30, "seed": 10},
                              {"column_binary": True, "ber": 3e-4, "seed": 10})
    cases["cut"] = ({"cards": 40, "seed": 11}, {"cut_at": 9.5, "ber": 3e-4, "seed": 11})
    cases["cut-early"] = ({"cards": 10, "seed": 12}, {"cut_at": 0.7, "seed": 12})
    for mode in ("overlap", "serial"):
        cases[f"mechanics-{mode}"] = ({"cards": 25, "seed": 13},
                                      {"mechanics": mode, "ber": 3e-4, "seed": 13})
    cases["first-card"] = ({"cards": 30, "seed": 15}, {"first_card": 11, "ber": 3e-4, "seed": 15})
    cases["fast-line"] = ({"cards": 40, "seed": 16}, {"bit_rate": 99_999, "ber": 1e-4, "seed": 16})
    cases["long"] = ({"cards": 600, "seed": 17}, {"ber": 1e-5, "seed": 17})
    return cases


CASES = {name: (deck_settings, {"on_give_up": "skip", **config})
         for name, (deck_settings, config) in _cases().items()}
"""The cases, recorded when a card given up was skipped by default (the library's default is now
``stop``, as everywhere: issue 50 §5): they keep what they were recorded with."""


def _digest(items: list[Any]) -> str:
    return hashlib.sha256(json.dumps(items).encode()).hexdigest()


def outcome(name: str) -> dict[str, Any]:
    """What the simulator says for case ``name``: the whole report, and the timeline and the cards
    accepted (their counts and a SHA-256 of every value, times as exact floats; the first frames
    without their data, readable in a failure)."""
    deck_kw, build_kw = CASES[name]
    words = deck(deck_kw["cards"], deck_kw["seed"], blank_tail=deck_kw.get("blank_tail", False))
    transfer = run_transfer(words, TransferConfig.build(timeline=True, **build_kw))
    timeline = [[d, repr(start), repr(end), data.hex(), card] for d, start, end, data, card
                in transfer.timeline]
    received = [[tag, data.hex()] for tag, data in transfer.received]
    return {
        "report": json.loads(transfer.report.to_json()),
        "frames": len(timeline), "timeline_sha256": _digest(timeline),
        "first_frames": [[d, start, end, len(data) // 2, card] for d, start, end, data, card in timeline[:4]],
        "accepted": len(received), "accepted_sha256": _digest(received),
    }


def record() -> None:
    """Write every case's outcome to :data:`EXPECTATIONS`."""
    data = {name: outcome(name) for name in CASES}
    lines = [f"{json.dumps(name)}: {json.dumps(data[name], sort_keys=True)}" for name in sorted(data)]
    EXPECTATIONS.write_text("{\n" + ",\n".join(lines) + "\n}\n")  # one case a line
    print(f"{len(data)} cases written to {EXPECTATIONS}")


if __name__ == "__main__":
    record()
