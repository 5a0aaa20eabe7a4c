"""The instruction-count guard (tools/instruction_guard.py): start-up, 5,000 simulated cards and a
fixed solver search, counted under valgrind, each within 5 % of tests/data/instruction_counts.json.

The counts are exact on a loaded machine, so this is the one speed check that can run in the test
suite.  Where valgrind is missing, or the baseline was recorded with another interpreter, platform,
build or SimPy/NumPy, the guard skips with one line saying so — and under CI fails instead
(tests/external.py), since CI runs on the machine the baseline is recorded on.
"""

from __future__ import annotations

import json

import pytest

from tests import external
from tools import instruction_guard as guard


def test_a_count_over_five_percent_fails_and_says_how_to_record() -> None:
    baseline = {"workloads": {"startup": {"instructions": 1000}, "simulate": {"instructions": 1000}}}
    verdicts = guard.compare(baseline, {"startup": 1050, "simulate": 1051})
    assert [v.regressed for v in verdicts] == [False, True]
    message = guard.failure_message(verdicts)
    assert message is not None
    assert "python -m tools.instruction_guard --record simulate" in message
    assert "startup" not in message
    assert guard.failure_message(guard.compare(baseline, {"startup": 900})) is None
    assert "record the gain" in guard.compare(baseline, {"startup": 900})[0].line()


def test_another_environment_is_named_not_compared() -> None:
    here = {"python": "CPython 3.11.7", "simulation build": "compiled"}
    assert guard.mismatch(here, dict(here)) is None
    line = guard.mismatch(here, {**here, "simulation build": "python"})
    assert line is not None and "simulation build 'compiled' there, 'python' here" in line
    assert "--record" in line


def test_recording_one_workload_keeps_the_others(tmp_path, monkeypatch) -> None:
    env = {"python": "CPython 3.11.7"}
    monkeypatch.setattr(guard, "environment", lambda root=None: env)
    monkeypatch.setattr(guard, "measure", lambda w, root=None: {"instructions": len(w.name)})
    path = str(tmp_path / "counts.json")
    guard.record(guard.NAMES, path=path)
    data = json.loads(open(path).read())
    data["workloads"]["solver"]["instructions"] = 123
    open(path, "w").write(json.dumps(data))
    guard.record(["startup"], path=path)
    assert json.loads(open(path).read())["workloads"]["solver"]["instructions"] == 123
    env = {"python": "CPython 3.12.0"}          # another interpreter: every workload, or none
    with pytest.raises(SystemExit, match="record every workload"):
        guard.record(["startup"], path=path)
    assert json.loads(open(path).read())["environment"] == {"python": "CPython 3.11.7"}


def test_the_committed_baseline_covers_every_workload() -> None:
    data = guard.load()
    assert set(data["workloads"]) == set(guard.NAMES)
    assert {"python", "platform", "simulation build", "solver build"} <= set(data["environment"])


@pytest.mark.timeout(900)  # a hang guard: valgrind runs each workload three times, slowly on a busy machine
@pytest.mark.parametrize("name", guard.NAMES)
def test_instructions_within_five_percent_of_the_baseline(name: str) -> None:
    external.program("valgrind", "valgrind")
    baseline = guard.load()
    wrong = guard.mismatch(baseline["environment"], guard.environment())
    if wrong:
        external.unavailable(wrong)
    workload = next(w for w in guard.WORKLOADS if w.name == name)
    verdicts = guard.compare(baseline, {name: guard.measure(workload)["instructions"]})
    print(verdicts[0].line())
    assert guard.failure_message(verdicts) is None, guard.failure_message(verdicts)
