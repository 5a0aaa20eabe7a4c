"""The simulator says today exactly what it said when the expectations were recorded.

Each case of ``tests/sim_cases.py`` (clean, noisy, bursts, half duplex, partial and column-binary
layouts, a cut line, mechanics, a resume, cards given up) is run and its whole report, its timeline
and the cards accepted are compared with ``tests/data/sim_expectations.json``, recorded from the
simulator before its speed work (``python tests/sim_cases.py`` records them).
"""

from __future__ import annotations

import json

import pytest
from sim_cases import CASES, EXPECTATIONS, outcome

EXPECTED = json.loads(EXPECTATIONS.read_text())


def test_every_case_is_recorded():
    assert sorted(EXPECTED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_report_and_timeline_are_as_recorded(name):
    got, want = outcome(name), EXPECTED[name]
    assert got["report"] == want["report"]
    assert got["first_frames"] == want["first_frames"]
    assert (got["frames"], got["timeline_sha256"]) == (want["frames"], want["timeline_sha256"])
    assert (got["accepted"], got["accepted_sha256"]) == (want["accepted"], want["accepted_sha256"])


def test_the_cases_cover_what_they_claim():
    """The recorded runs really include retransmissions, cards given up, a cut and partial cards."""
    reports = {name: case["report"] for name, case in EXPECTED.items()}
    assert all(reports[f"clean-{s}"]["ended"] == "complete" for s in (1, 2))
    assert all(reports[f"ber3e-4-{s}"]["retransmissions"] > 0 for s in (1, 2, 3, 4, 5))
    assert any(r["ended"] != "complete" for n, r in reports.items() if n.startswith("ber1e-2"))
    assert reports["cut"]["ended"] == "line cut" and reports["cut-early"]["ended"] == "line cut"
    assert reports["auto-partial"]["settings"]["columns"] != reports["clean-1"]["settings"]["columns"]
    assert reports["first-card"]["cards_received"] == 20
    assert reports["half-duplex"]["settings"]["duplex"] == "half"
