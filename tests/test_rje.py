"""``rje`` and ``rje-host`` run two phases, each an existing command: what they run, and how
``--resume`` picks the phase by the marker left when the job phase completed."""

from __future__ import annotations

import pytest

from ibm1013.cli import rje
from ibm1013.cli.main import build_parser


@pytest.fixture
def ran(monkeypatch):
    calls: list[list[str]] = []
    results: list[int] = []

    def fake_run(argv: list[str]) -> int:
        calls.append(argv)
        return results.pop(0) if results else 0

    monkeypatch.setattr(rje, "_run", fake_run)
    return calls, results


def run(*argv: str) -> int:
    args = build_parser().parse_args(list(argv))
    return args.func(args)


def test_rje_sends_the_job_then_receives_the_output(ran, tmp_path):
    calls, _ = ran
    out = str(tmp_path / "out.txt")
    assert run("rje", "siteA", "job.ebcdic", "--format", "ebcdic", "-o", out, "--column-binary") == 0
    assert [c[:2] for c in calls] == [["send", "siteA"], ["receive", "siteA"]]
    assert calls[0][2:5] == ["job.ebcdic", "--format", "ebcdic"] and "--column-binary" in calls[0]
    assert calls[1][2:6] == ["-o", out, "--format", "text"] and "--column-binary" in calls[1]
    assert not (tmp_path / "out.txt.1013rje").exists()  # both phases done: no marker


def test_rje_host_feeds_the_reader_then_follows_the_printer_or_the_punch(ran, tmp_path, monkeypatch):
    calls, _ = ran
    monkeypatch.chdir(tmp_path)
    reader, printer = "sockdev://127.0.0.1:3505", "sockdev://127.0.0.1:1403"
    assert run("rje-host", "siteB", "--reader", reader, "--printer", printer) == 0
    assert calls[0][:6] == ["receive", "siteB", "-o", reader, "--format", "ebcdic"]
    assert calls[1][:6] == ["send", "siteB", "--follow", printer, "--idle", "3.0"]
    calls.clear()
    assert run("rje-host", "siteB", "--reader", reader, "--punch", "punch.ebcdic", "--idle", "2") == 0
    follow = ["--follow", "punch.ebcdic", "--format", "ebcdic", "--idle", "2.0"]
    assert calls[1][:8] == ["send", "siteB", *follow]


def test_a_failed_job_phase_ends_the_session_and_resume_starts_there(ran, tmp_path):
    calls, results = ran
    out = str(tmp_path / "out.txt")
    results += [2]
    assert run("rje", "siteA", "job.cbn", "-o", out) == 2 and len(calls) == 1
    calls.clear()
    assert run("rje", "siteA", "job.cbn", "-o", out, "--resume") == 0
    assert calls[0][0] == "send" and "--resume" in calls[0]
    assert calls[1][0] == "receive" and "--resume" not in calls[1]


def test_a_failed_output_phase_leaves_the_marker_and_resume_goes_on_with_the_output(ran, tmp_path):
    calls, results = ran
    out = str(tmp_path / "out.txt")
    results += [0, 2]
    assert run("rje", "siteA", "job.cbn", "-o", out) == 2
    assert (tmp_path / "out.txt.1013rje").exists()
    calls.clear()
    assert run("rje", "siteA", "job.cbn", "-o", out, "--resume") == 0
    assert [c[0] for c in calls] == ["receive"] and "--resume" in calls[0]
    assert not (tmp_path / "out.txt.1013rje").exists()


def test_one_trace_file_for_two_phases_is_refused(ran, tmp_path, capsys):
    from ibm1013.cli.main import main

    assert main(["rje", "siteA", "job.cbn", "-o", str(tmp_path / "o"), "--trace", str(tmp_path / "t")]) == 2
    assert "--trace and --timeline name one file" in capsys.readouterr().err
