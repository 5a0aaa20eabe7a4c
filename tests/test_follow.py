"""`send --follow`: a punch file sent card by card as it grows — the follower, Ctrl-C, real SIMH."""

import io
import json
import signal
import subprocess
import time

import external
import pytest
from processes import finish, one_line_error, start
from test_cli_serial import VirtualLineProcess, over_a_line
from test_interop_simh import COPY_1401

from emulator.card import EOF_CARD, Card
from emulator.follow import FollowError, PunchFollower, check_followable, whole_prefix
from emulator.formats import get_format
from ibm1013.line.journal import cards_in, journal_path

pytestmark = pytest.mark.timeout(120)

CARDS = [Card.from_text(f"FOLLOWED CARD {i:03d} 1401 PUNCH") for i in range(6)]


def punched(fmt: str, cards) -> bytes:
    out = io.BytesIO()
    get_format(fmt).write(cards, out)
    return out.getvalue()


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("fmt", ["text", "i1401", "cbn", "ebcdic", "bin", "rowbin", "i7094-cbn"])
def test_only_whole_cards_come_out_however_the_file_is_cut(tmp_path, fmt):
    data = punched(fmt, CARDS)
    path = tmp_path / "punch"
    path.write_bytes(b"")
    clock = Clock()
    follower = PunchFollower(str(path), fmt, idle_s=5, clock=clock)
    got = []
    with open(path, "ab") as punch:
        for i in range(0, len(data), 37):  # a punch that writes in odd pieces
            punch.write(data[i:i + 37])
            punch.flush()
            clock.now += 1
            cards = follower.poll()
            got += cards
            whole = whole_prefix(fmt, data[:i + 37])
            assert get_format(fmt).read(io.BytesIO(data[:whole])) is not None
            assert len(got) <= len(CARDS) and got == CARDS[:len(got)]
    assert not follower.finished and got == CARDS[:len(got)]
    clock.now += 5
    got += follower.poll()
    assert follower.finished and "did not grow for 5 s" in follower.why_ended
    assert got == CARDS and follower.left_over == b""


def test_the_deck_ends_at_an_eof_card_or_when_told(tmp_path):
    path = tmp_path / "punch.txt"
    path.write_bytes(punched("text", [*CARDS[:2], EOF_CARD, CARDS[2]]))
    follower = PunchFollower(str(path))
    assert follower.poll() == CARDS[:2] and follower.finished and follower.why_ended == "an end-of-file card"
    path.write_bytes(punched("text", CARDS[:2]) + b"HALF A CA")
    follower = PunchFollower(str(path))
    assert follower.poll() == CARDS[:2] and not follower.finished
    follower.end()
    assert follower.poll() == [] and follower.finished and follower.left_over == b"HALF A CA"


def test_a_file_that_appears_later_and_detection_waits_for_a_whole_card(tmp_path):
    path = tmp_path / "later.cbn"
    follower = PunchFollower(str(path))
    assert follower.poll() == []  # not made yet
    data = punched("cbn", CARDS[:2])
    path.write_bytes(data[:100])  # less than one CBN card: not yet known to be CBN
    assert follower.poll() == [] and follower.fmt == "auto"
    with open(path, "ab") as f:
        f.write(data[100:])
    assert follower.poll() == CARDS[:2] and follower.fmt == "cbn"


def test_paths_and_formats_that_cannot_be_followed_are_refused(tmp_path):
    for path, fmt, needle in [(tmp_path, "auto", "a directory"), (tmp_path / "no" / "f", "auto", "no such"),
                              (tmp_path / "f.art", "art", "cannot be followed")]:
        with pytest.raises(FollowError, match=needle):
            check_followable(str(path), fmt)


def test_send_refuses_deck_and_follow_together_and_idle_alone(tmp_path):
    for argv, needle in [(["send", "loop://", "d.cbn", "--follow", "f"], "not allowed with argument DECK"),
                         (["send", "loop://"], "give a DECK to send, or --follow FILE"),
                         (["send", "loop://", "d.cbn", "--idle", "2"],
                          "--idle: not allowed with argument DECK"),
                         (["send", "loop://", "--follow", str(tmp_path)], "directory"),
                         (["send", "loop://", "--follow", "f", "--idle", "-1"], "--idle")]:
        code, _, err = finish(start(*argv), 20)
        assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err, (argv, err)


@pytest.mark.parametrize("fmt", ["auto", "text"])
def test_a_followed_text_deck_that_simh_3_8_reads_otherwise_is_told_as_by_any_reader(tmp_path, fmt):
    """A 1401 deck followed without its format is read as text, as a deck file is, and once it has
    ended the same one line names the first column punched otherwise and ``--format i1401``; with
    the format named, nothing is said (issue 50: the follower said nothing)."""
    path = tmp_path / "amounts.txt"
    path.write_bytes(b"    1200 CASH\n     12? PLUS ZERO\n" * 3000)
    follower = PunchFollower(str(path), fmt, idle_s=5)
    cards = follower.poll()
    assert follower.notes() == []  # not before the deck has ended
    follower.end()
    cards += follower.poll()
    assert len(cards) == 6000
    told = follower.notes()
    if fmt == "text":
        assert told == []
    else:
        assert len(told) == 1 and told[0].startswith(f"{path}: read as a SIMH 4.x text deck in code 029")
        assert "card 2, column 8" in told[0] and "--format i1401" in told[0]
    assert follower.notes() == told  # said once, asked again


def test_a_format_that_cannot_be_followed_is_refused_when_parsed(tmp_path):
    """``send --follow`` refuses a deck it cannot follow when the arguments are parsed, before the
    port is opened, whether --format names the format or the file shows it (issue 50: the follower
    found a drawing only once it read the file, after the port had opened, and said nothing of it
    when the port could not be opened)."""
    drawing = tmp_path / "punch.deck"
    drawing.write_bytes(punched("art", CARDS[:1]))
    port = str(tmp_path / "no-such-port")
    for argv in (["--follow", str(tmp_path / "f.cbn"), "--format", "art"], ["--follow", str(drawing)]):
        code, _, err = finish(start("send", port, *argv), 20)
        one_line_error(code, err, "ibm1013: send: ", "art deck cannot be followed", "followed: cbn")


def test_a_punch_file_is_followed_in_the_format_its_extension_names(tmp_path):
    """``punch.ebcdic`` is followed as EBCDIC, as ``cards decode`` reads it (issue 50: the follower
    took its first bytes for text, and refused the first card)."""
    punch, out = tmp_path / "punch.ebcdic", tmp_path / "copy.txt"
    punch.write_bytes(punched("ebcdic", CARDS[:3]))
    (tc, terr), (rc, rerr) = over_a_line(["receive", "PORT", "-o", str(out), "--fast"],
                                         ["send", "PORT", "--follow", str(punch), "--idle", "1", "--fast"])
    assert tc == 0 and rc == 0, terr + rerr
    assert out.read_bytes() == punched("text", CARDS[:3])


def test_ctrl_c_ends_the_deck_with_what_was_punched_whole(tmp_path):
    punch, out = tmp_path / "punch.txt", tmp_path / "copy.txt"
    punch.write_bytes(b"")
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        rx = start("receive", line.b, "-o", str(out), "--json", "--fast")
        tx = start("send", line.a, "--follow", str(punch), "--json", "--fast")
        with open(punch, "ab") as f:
            for n, card in enumerate(CARDS[:4], 1):
                f.write(punched("text", [card]))
                f.flush()
                deadline = time.monotonic() + 30
                while cards_in(journal_path(str(out))) < n and time.monotonic() < deadline:
                    time.sleep(0.02)  # each card is through before the next is punched
                assert cards_in(journal_path(str(out))) == n
            f.write(b"FOLLOWED CARD 004 HAL")  # the punch is busy with a card: it must not go
            f.flush()
        tx.send_signal(signal.SIGINT)
        (tc, tout, terr), (rc, rout, rerr) = finish(tx), finish(rx)
    finally:
        line.stop()
    assert tc == 0 and rc == 0, terr + rerr
    sent = json.loads(tout)
    assert sent["ended"] == "complete" and sent["cards_sent"] == 4 == json.loads(rout)["cards_received"]
    assert sent["settings"]["deck_ended"] == "ended by Ctrl-C"
    assert "21 bytes at the end" in terr and "not a whole card" in terr
    assert out.read_bytes() == punched("text", CARDS[:4])




@pytest.mark.parametrize("case", ["column binary", "bit rate"])
def test_a_followed_deck_is_refused_as_send_refuses_and_the_receiving_end_told(tmp_path, case):
    """send --follow ran the handshake without comparing bit rates or telling a refusal, and died on a
    card needing column binary: the receiving end waited out its timeout, then said to --resume."""
    cards = list(CARDS[:3])
    if case == "column binary":
        cards[1] = Card([0xFFF, *cards[1].columns[1:]])  # every punch in column 1
    punch, out = tmp_path / "punch.cbn", tmp_path / "copy.cbn"
    punch.write_bytes(punched("cbn", cards))
    rate = ("--bit-rate", "600") if case == "bit rate" else ()
    (tc, terr), (rc, rerr) = over_a_line(  # the receive's 60 s not waited out: it was told
        ["receive", "PORT", "-o", str(out), "--fast", "--timeout", "60", *rate],
        ["send", "PORT", "--follow", str(punch), "--format", "cbn", "--idle", "1", "--fast",
         "--timeout", "60"])
    if case == "column binary":
        one_line_error(tc, terr, "punch.cbn: card 2, column 1", "receiving end was told")
        one_line_error(rc, rerr, "refused the transfer at once", "both ends --column-binary")
    else:
        one_line_error(tc, terr, "sends at 1200 bit/s", "--bit-rate 600")
        one_line_error(rc, rerr, "refused the transfer at once", "same --bit-rate")
    assert not out.exists()


def test_simh_i1401_punches_and_the_cards_are_followed_over_the_line(tmp_path):
    """The 1401 copies a deck we built to its punch (``attach cdp out.txt``) while `send --follow`
    watches out.txt; `receive` at the far end of a noisy line writes what SIMH punched, byte for byte."""
    i1401 = external.program("i1401", "simh")
    deck = [Card.from_text(f"CARD {i:03d} PUNCHED BY THE 1401 AT SITE A, 0123456789") for i in range(25)]
    (tmp_path / "in.txt").write_bytes(punched("i1401", deck))
    (tmp_path / "run.sim").write_text(COPY_1401.format(setup=""))
    out, copy = tmp_path / "out.txt", tmp_path / "copy.txt"
    line = VirtualLineProcess("--bit-rate", "0", "--ber", "2e-4", "--seed", "1401")
    try:
        fast = ("--bit-rate", "9600")
        rx = start("receive", line.b, "-o", str(copy), "--format", "i1401", "--json", *fast)
        tx = start("send", line.a, "--follow", str(out), "--format", "i1401", "--idle", "3", "--json",
                   *fast)
        sim = subprocess.run([i1401, "run.sim"], cwd=tmp_path, capture_output=True, text=True,
                             timeout=60, stdin=subprocess.DEVNULL)
        assert "Card reader empty" in sim.stdout, sim.stdout
        (tc, tout, terr), (rc, rout, rerr) = finish(tx, 90), finish(rx, 90)
    finally:
        line.stop()
    assert tc == 0 and rc == 0, terr + rerr
    assert out.read_bytes() == punched("i1401", deck)  # SIMH punched the deck
    assert copy.read_bytes() == out.read_bytes()        # and the far end has what it punched
    sent = json.loads(tout)
    assert sent["cards_sent"] == 25 == json.loads(rout)["cards_received"]
    assert sent["settings"]["deck_ended"] == "the file did not grow for 3 s"
