"""The real `ibm1013 send/receive/line` commands as separate processes: ptys, socat, kill -9, errors."""

import json
import os
import select
import signal
import subprocess
import time

import external
import pytest
from processes import finish, one_line_error, read_cbn, start, write_cbn

from emulator.card import Card
from emulator.serial import Link, PortSettings, wait_for_paths
from ibm1013.line.journal import Journal, cards_in, journal_path

pytestmark = pytest.mark.timeout(180)  # a guard against a hang: processes start slowly on a busy machine

def make_deck(path, n: int, tag: str = "DECK") -> list[Card]:
    cards = [Card.from_text(f"{tag} CARD {i:04d} PUNCHED {i * 37 % 997:03d}") for i in range(n)]
    write_cbn(path, cards)
    return cards


class VirtualLineProcess:
    """`ibm1013 line --json` in the background; its two paths."""

    def __init__(self, *args: str) -> None:
        self.proc = start("line", "--json", *args)
        ready, _, _ = select.select([self.proc.stdout], [], [], 15)
        assert ready, "ibm1013 line printed no paths"
        self.info = json.loads(self.proc.stdout.readline())
        self.a, self.b = self.info["a"], self.info["b"]

    def stop(self) -> dict:
        self.proc.send_signal(signal.SIGTERM)
        code, out, err = finish(self.proc, 10)
        assert code == 0, err
        return json.loads(out.strip().splitlines()[-1])


def over_a_line(far: list[str], near: list[str], guard: float = 50, **kw) -> tuple[tuple, tuple]:
    """``ibm1013 FAR…`` then ``ibm1013 NEAR…`` at the two ends of a fresh unpaced `ibm1013 line`
    (``PORT`` in each stands for its end): ``(status, stderr)`` of the near end, then of the far.
    ``guard`` only fails a hang; keep it below the ends' own --timeout (60 s), with room for the
    start-up of two processes on a busy machine (30 s was too little at a load of 15)."""
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        rx = start(*[line.b if a == "PORT" else a for a in far], **kw)
        tx = start(*[line.a if a == "PORT" else a for a in near], **kw)
        tc, _, terr = finish(tx, guard)
        rc, _, rerr = finish(rx, guard)
    finally:
        line.stop()
    return (tc, terr), (rc, rerr)


def transfer(port_a: str, port_b: str, src, dst, *extra: str, send_extra=(), recv_extra=()):
    rx = start("receive", port_b, "-o", str(dst), "--json", *extra, *recv_extra)
    tx = start("send", port_a, str(src), "--json", *extra, *send_extra)
    return finish(tx), finish(rx)


def test_send_and_receive_over_the_virtual_line(tmp_path):
    deck = make_deck(tmp_path / "deck.cbn", 25)
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        logs = tmp_path / "logs"
        logs.mkdir()
        (tc, tout, terr), (rc, rout, rerr) = transfer(
            line.a, line.b, tmp_path / "deck.cbn", tmp_path / "copy.cbn", "--fast", "--timeout", "5",
            send_extra=("--trace", str(logs / "tx.trace"), "--timeline", str(logs / "tx.png")),
            recv_extra=("--trace", str(logs / "rx.trace")))
    finally:
        stats = line.stop()
    assert tc == 0 and rc == 0, terr + rerr
    sent, got = json.loads(tout), json.loads(rout)
    assert sent["cards_sent"] == 25 and got["cards_received"] == 25
    assert sent["lost"] == 0 and sent["duplicated"] == 0 and sent["ended"] == "complete"
    assert read_cbn(tmp_path / "copy.cbn") == deck
    assert stats["stats"]["a->b"]["bytes_out"] > 25 * 80
    assert sorted(os.listdir(tmp_path)) == ["copy.cbn", "deck.cbn", "logs"]
    assert (logs / "tx.trace").read_text().count("try 1]") == 26  # 25 cards and the trailer
    rx_trace = (logs / "rx.trace").read_text()
    assert rx_trace.count("CardAccepted") == 26 and rx_trace.count("CardDelivered") == 2  # resume, verdict
    assert (logs / "tx.png").read_bytes()[:4] == b"\x89PNG"


def test_socat_pty_pair(tmp_path):
    external.program("socat", "socat")  # skips without socat; under CI a failure
    deck = make_deck(tmp_path / "deck.cbn", 15)
    a, b = str(tmp_path / "ttyA"), str(tmp_path / "ttyB")
    socat = subprocess.Popen(["socat", "-d", "-d", f"pty,raw,echo=0,link={a}", f"pty,raw,echo=0,link={b}"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_paths((a, b), 10, alive=lambda: socat.poll() is None)
        (tc, _, terr), (rc, rout, rerr) = transfer(
            a, b, tmp_path / "deck.cbn", tmp_path / "copy.cbn", "--fast", "--timeout", "5")
    finally:
        socat.terminate()
        socat.wait(5)
    assert tc == 0 and rc == 0, terr + rerr
    assert json.loads(rout)["cards_received"] == 15
    assert read_cbn(tmp_path / "copy.cbn") == deck


@pytest.mark.timeout(300)  # processes started on a busy machine: a guard against a hang
@pytest.mark.parametrize("victim", ["receive", "send"])
def test_kill_9_mid_deck_then_resume(tmp_path, victim):
    deck = make_deck(tmp_path / "deck.cbn", 60)
    out = tmp_path / "copy.cbn"
    journal = journal_path(str(out))
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        # paced at 19200 bit/s: 2400 characters a second, about 28 cards a second
        # --timeout 20, so the end started first outwaits the other's start-up on a busy machine (with 2 s,
        # the transfer never started at load 12-18; 5 s was the margin at load 25)
        paced = ("--bit-rate", "19200", "--timeout", "20")
        rx = start("receive", line.b, "-o", str(out), *paced)
        tx = start("send", line.a, str(tmp_path / "deck.cbn"), *paced, "--json")
        deadline = time.monotonic() + 120  # a guard: how soon it starts depends on the machine's load
        while cards_in(journal) < 8 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert cards_in(journal) >= 8, "the transfer never started"
        killed, survivor = (rx, tx) if victim == "receive" else (tx, rx)
        killed.send_signal(signal.SIGKILL)
        killed.wait(5)
        code, out_text, err = finish(survivor)
        assert code == 2 and "--resume" in err and "Traceback" not in err
        held = cards_in(journal)
        assert 8 <= held < 60 and not out.exists()
        if victim == "receive":  # send --json: the report of a failed transfer, for scripts
            report = json.loads(out_text)
            assert report["ended"] == "failed" and report["message"] in err
            acknowledged = report["resume_at"] - 1
            assert acknowledged == report["cards_sent"] and held - 1 <= acknowledged <= held
        (tc, tout, terr), (rc, rout, rerr) = transfer(
            line.a, line.b, tmp_path / "deck.cbn", out, "--fast", "--resume", "--timeout", "20")
    finally:
        line.stop()
    assert tc == 0 and rc == 0, terr + rerr
    assert json.loads(tout)["settings"]["resumed_from"] >= held  # a torn last card is sent again
    assert json.loads(tout)["settings"]["verdict"] == "PUBLISHED"
    assert read_cbn(out) == deck
    assert out.read_bytes() == (tmp_path / "deck.cbn").read_bytes()  # byte for byte
    assert not os.path.exists(journal)


def wait_for_cards(journal: str, n: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while cards_in(journal) < n and time.monotonic() < deadline:
        time.sleep(0.02)
    assert cards_in(journal) >= n, "the transfer never started"


def test_ctrl_c_tells_the_peer_and_both_resume(tmp_path):
    """SIGINT on send, then (resumed) on receive: the far end stops at once, not after its 30 s
    timeout; each end says what is safe and to run both with --resume; the third run finishes."""
    src = tmp_path / "deck.cbn"
    deck = make_deck(src, 120)
    out = tmp_path / "copy.cbn"
    journal = journal_path(str(out))
    paced = ("--bit-rate", "19200", "--timeout", "60")
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        # Ctrl-C, SIGTERM (kill, a service manager) and SIGHUP (the terminal closed) alike
        for victim, resume, cards, sig in (("send", (), 10, signal.SIGINT),
                                           ("send", ("--resume",), 25, signal.SIGTERM),
                                           ("receive", ("--resume",), 40, signal.SIGHUP)):
            rx = start("receive", line.b, "-o", str(out), *paced, *resume)
            tx = start("send", line.a, str(src), *paced, *resume, "--json")
            wait_for_cards(journal, cards)
            stopped, peer = (tx, rx) if victim == "send" else (rx, tx)
            t0 = time.monotonic()
            stopped.send_signal(sig)
            code, out_text, err = finish(stopped, 40)
            if victim == "send":  # send --json: the report, with where to go on
                report = json.loads(out_text)
                assert report["ended"] == "interrupted" and report["message"] in err
                assert f"{report['resume_at'] - 1} of 120 cards were acknowledged" in err
            peer_code, _, peer_err = finish(peer, 40)
            assert time.monotonic() - t0 < 50  # inside the peer's 60 s timeout: it was told, not timed out
            assert code == 130 and err.count("\n") == 1 and "Traceback" not in err, err
            assert err.startswith("ibm1013: interrupted") and "--resume" in err
            assert ("cards were acknowledged" if victim == "send" else "cards are safe in") in err
            one_line_error(peer_code, peer_err, "--resume")
            assert not out.exists()
        held = cards_in(journal)
        assert 40 <= held < 121
        (tc, tout, terr), (rc, _, rerr) = transfer(line.a, line.b, src, out, "--fast", "--resume",
                                                   "--timeout", "5")
    finally:
        line.stop()
    assert tc == 0 and rc == 0, terr + rerr
    assert json.loads(tout)["ended"] == "complete"
    assert read_cbn(out) == deck and out.read_bytes() == src.read_bytes()


def test_a_second_receive_on_one_output_is_refused(tmp_path, capsys):
    from ibm1013.cli.main import main

    out = tmp_path / "copy.cbn"
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        first = start("receive", line.b, "-o", str(out), "--resume", "--timeout", "5")
        deadline = time.monotonic() + 10
        while not os.path.exists(journal_path(str(out))) and time.monotonic() < deadline:
            time.sleep(0.02)
        code = main(["receive", line.a, "-o", str(out), "--resume", "--timeout", "5"])
        one_line_error(code, capsys.readouterr().err, "in use", "another receive")
        first.kill()
        finish(first)
    finally:
        line.stop()


def test_receive_into_a_directory_is_refused_before_the_port_is_opened(tmp_path, capsys):
    from ibm1013.cli.main import main

    code = main(["receive", "/dev/ttyNOPE", "-o", str(tmp_path)])
    one_line_error(code, capsys.readouterr().err, "is a directory")


def test_receive_into_an_existing_file_is_refused_without_force_or_resume(tmp_path, capsys):
    """Issue 25 §6: ``receive -o EXISTING`` replaced the user's file without a word."""
    from ibm1013.cli.main import main

    out = tmp_path / "mine.cbn"
    out.write_bytes(b"the user's own deck")
    code = main(["receive", "/dev/ttyNOPE", "-o", str(out)])
    one_line_error(code, capsys.readouterr().err, f"{out} exists", "--force", "--resume")
    for flag in ("--force", "--resume"):  # given either, receive goes on: here to the missing port
        code = main(["receive", "/dev/ttyNOPE", "-o", str(out), flag, "--timeout", "1"])
        err = capsys.readouterr().err
        assert code == 2 and "exists" not in err and "/dev/ttyNOPE" in err, err
    assert out.read_bytes() == b"the user's own deck"


@pytest.mark.parametrize("kind", ["file", "directory", "symlink elsewhere"])
def test_line_refuses_a_link_path_that_is_not_an_old_link_to_a_pty(tmp_path, kind):
    """Issue 25 §6: ``line --link PATH`` replaced the user's file, then deleted it at exit."""
    mine, other = tmp_path / "mine", tmp_path / "ttyB"
    if kind == "file":
        mine.write_text("keep me")
    elif kind == "directory":
        mine.mkdir()
    else:
        mine.symlink_to(tmp_path / "notes.txt")
    code, out, err = finish(start("line", "--link", str(mine), "--link", str(other), "--duration", "0"))
    one_line_error(code, err, f"--link {mine} exists and is a", "not a link to a pty")
    assert out == "" and os.path.lexists(mine) and not os.path.lexists(other)
    if kind == "file":
        assert mine.read_text() == "keep me"


def test_send_help_lists_the_exit_statuses():
    code, out, _ = finish(start("send", "--help"))
    assert code == 0 and "delivered, not confirmed" in out and "130" in out and "--resume" in out


def test_a_lost_verdict_exits_3_with_the_report(tmp_path, monkeypatch, capsys):
    """cmd_send's own handling of NotConfirmed: the report on stdout, one line, exit status 3."""
    from ibm1013.cli.main import main
    from ibm1013.line import endpoint
    from ibm1013.report import TransferReport

    make_deck(tmp_path / "deck.cbn", 3)

    def lost(*_args, **_kw):
        raise endpoint.NotConfirmed("delivered, not confirmed: the verdict did not arrive",
                                    TransferReport(ended="delivered, not confirmed"))

    monkeypatch.setattr(endpoint, "send_deck", lost)
    assert main(["send", "loop://", str(tmp_path / "deck.cbn"), "--json"]) == 3
    out, err = capsys.readouterr()
    assert json.loads(out)["ended"] == "delivered, not confirmed"
    assert err == "ibm1013: delivered, not confirmed: the verdict did not arrive\n"


def test_errors_are_one_line(tmp_path):
    make_deck(tmp_path / "deck.cbn", 2)
    code, _, err = finish(start("send", "/dev/ttyNOPE", str(tmp_path / "deck.cbn")))
    one_line_error(code, err, "/dev/ttyNOPE", "no such port")
    code, _, err = finish(start("send", "loop://", str(tmp_path / "missing.cbn")))
    one_line_error(code, err, "missing.cbn")
    code, _, err = finish(start("receive", "bogus://x", "-o", str(tmp_path / "out.cbn")))
    one_line_error(code, err, "bogus://x")
    code, _, err = finish(start("receive", "loop://", "-o", str(tmp_path / "nodir" / "out.cbn")))
    one_line_error(code, err, "no such directory")
    code, _, err = finish(start("line", "--burst", "1,2"))
    one_line_error(code, err, "burst")


def test_port_in_use_and_silent_peer(tmp_path):
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        with Link.open(line.a, PortSettings()):
            code, _, err = finish(start("receive", line.a, "-o", str(tmp_path / "out.cbn")))
            one_line_error(code, err, "in use")
        # nobody at the far end: a clear timeout, not a hang
        t0 = time.monotonic()
        code, _, err = finish(start("receive", line.a, "-o", str(tmp_path / "out.cbn"), "--fast",
                                    "--timeout", "1"))
        one_line_error(code, err)
        assert time.monotonic() - t0 < 60  # a guard against a hang (a loaded machine starts Python slowly)
        assert not (tmp_path / "out.cbn").exists()
    finally:
        line.stop()


def test_ports_lists_what_pyserial_finds(monkeypatch, capsys):
    from serial.tools import list_ports
    from serial.tools.list_ports_common import ListPortInfo

    from ibm1013.cli.main import main

    code, out, err = finish(start("ports", "--json"))
    assert code == 0 and all("device" in p for p in json.loads(out)), err
    usb = ListPortInfo("/dev/ttyUSB0")
    usb.description, usb.hwid, usb.vid, usb.pid = "FT232R USB UART", "USB VID:PID=0403:6001", 0x403, 0x6001
    monkeypatch.setattr(list_ports, "comports", lambda: [ListPortInfo("/dev/ttyS0"), usb])
    assert main(["ports"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["/dev/ttyS0", "/dev/ttyUSB0  FT232R USB UART  [USB VID:PID=0403:6001]"]
    assert main(["ports", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [p["device"] for p in listed] == ["/dev/ttyS0", "/dev/ttyUSB0"] and listed[1]["vid"] == 0x403
    monkeypatch.setattr(list_ports, "comports", lambda: [])
    assert main(["ports"]) == 0 and "no serial ports found" in capsys.readouterr().out


def test_trace_and_timeline_paths_are_checked_before_the_transfer(tmp_path, capsys):
    from ibm1013.cli.main import main

    make_deck(tmp_path / "deck.cbn", 2)
    nope = tmp_path / "nope"
    for argv, needle in (
        (["send", "loop://", str(tmp_path / "deck.cbn"), "--timeline", str(nope / "t.png")],
         "no such directory"),
        (["receive", "loop://", "-o", str(tmp_path / "out.cbn"), "--trace", str(nope / "t.log")],
         "argument --trace: " + str(nope / "t.log") + ": no such directory"),
        (["line", "--duration", "1", "--trace", str(tmp_path)],
         f"argument --trace: {tmp_path} is a directory"),
        (["line", "--duration", "1", "--trace", "-"], "argument --trace: a file name, not '-'"),
    ):
        code = main([*argv, "--timeout", "1"] if argv[0] != "line" else argv)
        one_line_error(code, capsys.readouterr().err, needle)
    assert sorted(os.listdir(tmp_path)) == ["deck.cbn"]


def test_a_bit_rate_mismatch_is_refused_by_both_ends_naming_both_values(tmp_path):
    """docs/serial.md: the handshake checks --bit-rate.  The sending end refuses and tells the
    receiving end at once, which stops well inside its 60 s timeout."""
    make_deck(tmp_path / "deck.cbn", 5)
    out = tmp_path / "copy.cbn"
    (tc, terr), (rc, rerr) = over_a_line(  # the receive's 60 s not waited out: it was told
        ["receive", "PORT", "-o", str(out), "--fast", "--bit-rate", "600", "--timeout", "60"],
        ["send", "PORT", str(tmp_path / "deck.cbn"), "--fast", "--bit-rate", "2400", "--timeout", "60"])
    one_line_error(tc, terr, "this end sends at 2400 bit/s", "--bit-rate 600", "same --bit-rate")
    one_line_error(rc, rerr, "refused", "sends at 2400 bit/s", "--bit-rate 600", "same --bit-rate")
    assert not out.exists()


def test_a_receiving_end_told_of_a_refusal_stops_at_once_with_the_right_advice(tmp_path):
    """The receiving end holds cards of an earlier transfer and the sending end was not given
    --resume: it used to wait out its whole timeout and then say to run again with --resume."""
    deck = make_deck(tmp_path / "deck.cbn", 5)
    out = tmp_path / "copy.cbn"
    journal = Journal.open(str(out), resume=False)
    journal.append(deck[0])
    journal.close()
    (tc, terr), (rc, rerr) = over_a_line(
        ["receive", "PORT", "-o", str(out), "--fast", "--resume", "--timeout", "60"],
        ["send", "PORT", str(tmp_path / "deck.cbn"), "--fast", "--timeout", "60"])
    one_line_error(tc, terr, "already holds 1 card of", "send with --resume")
    one_line_error(rc, rerr, "refused the transfer at once", "holds 1 card of",
                   "run send with --resume")


def test_a_deck_that_needs_column_binary_is_refused_and_the_receiving_end_told(tmp_path):
    """A card whose punches no BCD character has, sent without --column-binary: the sending end
    refused it before opening the port, so the receiving end waited out its timeout and then said
    to run again with --resume.  Now the sending end refuses after the handshake and tells it."""
    cards = make_deck(tmp_path / "deck.cbn", 4)
    cards[2] = Card([*cards[2].columns[:6], 0xFFF, *cards[2].columns[7:]])  # every punch in column 7
    write_cbn(tmp_path / "deck.cbn", cards)
    out = tmp_path / "copy.cbn"
    (tc, terr), (rc, rerr) = over_a_line(  # the receive's 60 s not waited out: it was told
        ["receive", "PORT", "-o", str(out), "--fast", "--timeout", "60"],
        ["send", "PORT", str(tmp_path / "deck.cbn"), "--fast", "--timeout", "60"])
    one_line_error(tc, terr, "deck.cbn: card 3, column 7", "--column-binary", "receiving end was told")
    line_rx = one_line_error(rc, rerr, "refused the transfer at once", "both ends --column-binary")
    assert "--resume" not in line_rx and not out.exists() and cards_in(journal_path(str(out))) == 0


@pytest.mark.parametrize("columns", [("--columns", "1-20"), ("--columns", "40"), ("--column-binary",),
                                     ("--columns", "auto", "--column-binary")])
def test_a_refusal_reaches_a_receiving_end_whatever_its_columns(tmp_path, columns):
    """The refusal goes as a whole BCD card, the handshake's form: a receiving end with a narrower
    mask or in column binary refused it for its length, or in column binary 'auto' took it for
    deck card 1, and then said to run both ends again with --resume.  Now each reads it."""
    make_deck(tmp_path / "deck.cbn", 3)
    out = tmp_path / "copy.cbn"
    (tc, terr), (rc, rerr) = over_a_line(
        ["receive", "PORT", "-o", str(out), "--fast", "--timeout", "60", *columns],
        ["send", "PORT", str(tmp_path / "deck.cbn"), "--fast", "--timeout", "60"])
    one_line_error(tc, terr, "set differently", "same --columns and --column-binary")
    one_line_error(rc, rerr, "refused the transfer at once", "same --columns and --column-binary")
    assert not out.exists() and cards_in(journal_path(str(out))) == 0


def test_receive_json_prints_its_report_when_it_fails(tmp_path, capsys):
    """Issue 47, item 15: as send --json does, on every exit after its arguments were accepted."""
    from ibm1013.cli.main import main

    code = main(["receive", str(tmp_path / "no-such-port"), "-o", str(tmp_path / "copy.cbn"), "--json"])
    out, err = capsys.readouterr()
    assert code == 2 and err.startswith("ibm1013: ") and "no such port" in err
    report = json.loads(out)
    assert report["ended"] == "failed" and "no such port" in report["message"]
    assert report["settings"]["role"] == "receive" and report["flipped_bits"] is None


def test_a_second_line_refuses_the_links_of_a_line_still_running(tmp_path, capsys):
    """Issue 47, item 4: it names the process holding the pty and leaves the links alone."""
    from ibm1013.cli.main import main

    a, b = str(tmp_path / "A"), str(tmp_path / "B")
    line = VirtualLineProcess("--bit-rate", "0", "--link", a, "--link", b)
    try:
        code = main(["line", "--link", a, "--link", b, "--duration", "0.1"])
        _out, err = capsys.readouterr()
        assert code == 2 and f"process {line.proc.pid} (" in err and "still holds" in err
        assert os.path.islink(a) and os.path.islink(b)  # the running line's links are left alone
    finally:
        line.stop()


def test_an_unpaced_line_says_so(tmp_path):
    """Issue 47, item 11: not "line ready at 0 bit/s"."""
    code, out, err = finish(start("line", "--bit-rate", "0", "--duration", "0.2"), 15)
    assert code == 0, err
    assert out.startswith("line ready unpaced: ") and "0 bit/s" not in out
