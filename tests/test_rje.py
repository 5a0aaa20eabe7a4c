"""``rje`` and ``rje-host`` run two phases, each an existing command: what they run, and how
``--resume`` picks the phase by the marker left when the job phase completed."""

from __future__ import annotations

import pytest

from emulator import printer
from ibm1013.cli import rje
from ibm1013.cli.main import build_parser


@pytest.fixture
def ran(monkeypatch):
    calls: list[list[str]] = []
    results: list[int] = []

    def fake_run(argv: list[str], **settings: object) -> int:
        calls.append(argv)
        assert callable(settings.pop("in_words_of"))  # every phase speaks of rje and rje-host
        settings_given.append(settings)
        if argv[0] == "receive" and argv[3].endswith(rje.JOB):  # rje-host's job phase publishes the job
            with open(argv[3], "wb") as job:
                job.write(b"\x40" * 160)
        return results.pop(0) if results else 0

    settings_given: list[dict] = []
    monkeypatch.setattr(rje, "_run", fake_run)
    monkeypatch.setattr(rje, "_feed", lambda job_file, host, port, marker, again=False: fed.append(job_file)
                        or rje._job_done(marker) or 2)
    monkeypatch.setattr(printer, "PrinterSpool", FakeSpool)
    fed: list[str] = []
    return Ran(calls, results, settings_given, fed)


class Ran(tuple):
    """What the phases were: ``calls, results = ran``; ``ran.settings`` (each phase's settings beyond
    its command line) and ``ran.fed`` (the jobs fed to the reader)."""

    def __new__(cls, calls: list, results: list, settings: list, fed: list) -> Ran:
        ran = super().__new__(cls, (calls, results))
        ran.settings, ran.fed = settings, fed
        return ran


class FakeSpool:
    """Stands in for the printer's client: connected when made, closed at the end."""

    made: list = []

    def __init__(self, host: str, port: int, *, code: str = "029", **settings: object) -> None:
        self.address, self.closed, self.settings = (host, port), False, settings
        FakeSpool.made.append(self)

    def close(self) -> None:
        self.closed = True


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
    FakeSpool.made.clear()
    reader, printer = "sockdev://127.0.0.1:3505", "sockdev://127.0.0.1:1403"
    assert run("rje-host", "siteB", "--reader", reader, "--printer", printer) == 0
    job = "sockdev-127.0.0.1-3505" + rje.JOB  # the job is held whole, then fed
    assert calls[0][:6] == ["receive", "siteB", "-o", job, "--format", "ebcdic"]
    assert ran.fed == [job]
    assert calls[1][:6] == ["send", "siteB", "--follow", printer, "--idle", "3.0"]
    [spool] = FakeSpool.made  # the printer's client was there before the job phase, and handed on
    assert spool.address == ("127.0.0.1", 1403) and spool.closed
    assert ran.settings[1] == {"printer_spool": spool, "rerun": None} and ran.settings[0] == {}
    assert spool.settings["fresh"]  # a spool of this job's lines only
    assert not list(tmp_path.glob("sockdev-*"))  # complete: the job deck and the marker are gone
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


def test_rje_waits_output_timeout_for_the_first_line_of_output(ran, tmp_path):
    calls, _ = ran
    out = str(tmp_path / "out.txt")
    assert run("rje", "siteA", "job.cbn", "-o", out) == 0
    assert ran.settings == [{}, {"first_card_s": rje.OUTPUT_TIMEOUT_S}]
    assert run("rje", "siteA", "job.cbn", "-o", out, "--output-timeout", "90") == 0
    assert ran.settings[-1] == {"first_card_s": 90.0}


@pytest.mark.parametrize("bad", ["0", "-1", "nan", "inf"])
def test_a_bad_output_timeout_is_refused_when_parsed(bad, capsys, tmp_path):
    from ibm1013.cli.main import main

    assert main(["rje", "siteA", "job.cbn", "-o", str(tmp_path / "o"), "--output-timeout", bad]) == 2
    assert "--output-timeout" in capsys.readouterr().err


def test_rje_host_resumed_with_the_job_held_feeds_it_without_receiving_it_again(ran, tmp_path, monkeypatch):
    calls, results = ran
    monkeypatch.chdir(tmp_path)
    reader = "sockdev://127.0.0.1:3505"
    job = tmp_path / ("sockdev-127.0.0.1-3505" + rje.JOB)
    job.write_bytes(b"\x40" * 80)  # the job came whole; the host was killed before it fed it
    assert run("rje-host", "siteB", "--reader", reader, "--punch", "p.ebcdic", "--resume") == 0
    assert [c[0] for c in calls] == ["send"] and "--resume" not in calls[0]
    assert ran.fed == [str(job.name)]


def test_the_job_goes_into_the_reader_whole_in_one_connection(tmp_path, monkeypatch):
    """The real feed, into a local socket standing in for Hercules' 3505: every byte of the job in one
    connection, closed at its end; the marker written and the held job gone."""
    import socket
    import threading

    monkeypatch.chdir(tmp_path)
    data = bytes(range(256)) * 5  # 16 cards of 80 bytes
    (tmp_path / "job").write_bytes(data)
    got = bytearray()
    with socket.create_server(("127.0.0.1", 0)) as server:
        def take() -> None:
            conn, _ = server.accept()
            with conn:
                while chunk := conn.recv(4096):
                    got.extend(chunk)

        reader = threading.Thread(target=take)
        reader.start()
        assert rje._feed("job", "127.0.0.1", server.getsockname()[1], "marker") == 16
        reader.join(10)
    assert bytes(got) == data and (tmp_path / "marker").exists()
    assert (tmp_path / "job").exists()  # held until the output phase completes: a restart runs it again


def test_a_reader_not_there_keeps_the_job_and_takes_the_marker_back(tmp_path, monkeypatch):
    from emulator.errors import IbmError
    from emulator.sockdev import parse_address

    monkeypatch.chdir(tmp_path)
    (tmp_path / "job").write_bytes(b"\x40" * 80)
    with pytest.raises(IbmError, match="cannot be reached"):
        rje._feed("job", *parse_address("sockdev://127.0.0.1:1"), "marker")
    assert (tmp_path / "job").exists() and not (tmp_path / "marker").exists()


def test_a_reader_that_fails_a_feed_again_leaves_the_marker(tmp_path, monkeypatch):
    """A restart in the output phase feeds the job again; a reader that fails it leaves the marker, so
    the next --resume runs the job again too (not the output of a job fed once, taken as new)."""
    from emulator.errors import IbmError
    from emulator.sockdev import parse_address

    monkeypatch.chdir(tmp_path)
    (tmp_path / "job").write_bytes(b"\x40" * 80)
    with pytest.raises(IbmError, match="cannot be reached"):
        rje._feed("job", *parse_address("sockdev://127.0.0.1:1"), "marker", again=True)
    assert (tmp_path / "job").exists() and (tmp_path / "marker").exists()


READER, PRINTER = "sockdev://127.0.0.1:3505", "sockdev://127.0.0.1:1403"
HOST_MARKER, HOST_JOB = "sockdev-127.0.0.1-3505" + rje.MARKER, "sockdev-127.0.0.1-3505" + rje.JOB


def test_rje_host_restarted_in_the_output_phase_runs_the_job_again_and_sends_the_output_anew(
        ran, tmp_path, monkeypatch):
    """The lines Hercules wrote into the killed host's connection died with it, and no resumed host
    can know how many: it feeds the job it still holds again, to a new printer client with an empty
    spool, and its output goes out in place of the old one (``rerun="ANEW"``), not as a resume."""
    calls, _ = ran
    monkeypatch.chdir(tmp_path)
    FakeSpool.made.clear()
    (tmp_path / HOST_MARKER).write_text("the job phase is complete\n")
    (tmp_path / HOST_JOB).write_bytes(b"\x40" * 160)
    (tmp_path / "sockdev-127.0.0.1-1403.1013print").write_text("     1  CARD\n")  # the first run's
    assert run("rje-host", "siteB", "--reader", READER, "--printer", PRINTER, "--resume") == 0
    assert ran.fed == [HOST_JOB]
    [spool] = FakeSpool.made
    assert spool.settings["fresh"] and calls[0][:4] == ["send", "siteB", "--follow", PRINTER]
    assert "--resume" not in calls[0] and ran.settings == [{"printer_spool": spool, "rerun": "ANEW"}]
    assert not list(tmp_path.glob("sockdev-*"))


def test_rje_host_restarted_without_its_job_deck_says_the_output_may_be_short(ran, tmp_path, monkeypatch,
                                                                                capsys):
    calls, results = ran
    monkeypatch.chdir(tmp_path)
    (tmp_path / HOST_MARKER).write_text("the job phase is complete\n")
    (tmp_path / "sockdev-127.0.0.1-1403.1013print").write_text("     1  CARD\n     2  CARD\n")
    results += [0]  # even a send that said nothing wrong: the output phase is no success
    assert run("rje-host", "siteB", "--reader", READER, "--printer", PRINTER, "--resume") == 2
    assert ran.fed == [] and ran.settings == [{"rerun": "SHORT"}]
    assert calls[0][2:4] == ["--follow", "sockdev-127.0.0.1-1403.1013print"]
    assert "holds the 2 lines the printer gave before the restart" in capsys.readouterr().err
    assert (tmp_path / HOST_MARKER).exists()


def test_rje_host_restarted_in_the_output_phase_of_a_punch_goes_on_with_the_punch_file(ran, tmp_path,
                                                                                       monkeypatch):
    """A 3525's punch file keeps every card on disk whatever happens to the host: resumed, not rerun."""
    calls, _ = ran
    monkeypatch.chdir(tmp_path)
    (tmp_path / HOST_MARKER).write_text("the job phase is complete\n")
    (tmp_path / HOST_JOB).write_bytes(b"\x40" * 80)
    assert run("rje-host", "siteB", "--reader", READER, "--punch", "p.ebcdic", "--resume") == 0
    assert ran.fed == [] and "--resume" in calls[0] and ran.settings == [{}]
    assert not list(tmp_path.glob("sockdev-*"))


def test_a_phase_speaks_of_rje_and_rje_host_not_of_send_and_receive():
    """The advice of a real resumable error, and the handshake's failure, as each end of a remote job
    entry says them (issue 50: both ends advised "Run send and receive again with --resume")."""
    from ibm1013.line.station import TransferError

    said = str(TransferError("the line went dead", resumable=True))
    assert "send and receive" in said  # what send and receive say, unchanged
    for this, far in (("rje", "rje-host"), ("rje-host", "rje")):
        ours = rje.in_words_of(this, far, "output")(said)
        assert "Run rje and rje-host again with --resume" in ours and "send" not in ours
    handshake = "handshake failed (in it the receiving end transmits): no answer"
    ours = rje.in_words_of("rje", "rje-host", "output")(handshake)
    assert ours.startswith("rje-host did not answer the handshake that begins the output")


def test_rje_whose_host_cannot_reach_its_reader_names_rje_host_and_says_no_resume(tmp_path):
    """rje run without --resume, its host unable to feed the job (no reader there): rje says rje-host
    did not answer (no "resume handshake"), and the host that the job is kept and to resume both."""
    from processes import finish, start
    from test_cli_serial import VirtualLineProcess
    from test_interop_hercules import free_port

    (tmp_path / "job.txt").write_text("HELLO\n")
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        host = start("rje-host", line.b, "--reader", f"sockdev://127.0.0.1:{free_port()}", "--punch",
                     "p.ebcdic", "--fast", "--timeout", "3", cwd=tmp_path)
        site = start("rje", line.a, "job.txt", "-o", "out.txt", "--fast", "--timeout", "3", cwd=tmp_path)
        (sc, _, serr), (hc, _, herr) = finish(site, 60), finish(host, 60)
    finally:
        line.stop()
    assert sc == 2 and "rje-host did not answer the handshake that begins the output" in serr, serr
    assert "resume" not in serr.lower() and "send" not in serr and "receive" not in serr, serr
    assert hc == 2 and "run rje-host and rje again with --resume once the reader is there" in herr, herr
