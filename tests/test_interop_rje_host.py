"""``rje`` and ``rje-host`` with Hercules 3.13, where the ends are fast or cut: unpaced ends with the
guest started the moment its job is in, and each end killed once in the middle of the job phase.

``rje-host`` is the printer's client from its start, so a guest printing at once prints to it; and
it feeds the reader only a whole job, so an end killed and resumed mid-job never hands the guest a
job in two parts.  The listing is checked against what the LIST program must print, computed from
the data alone (``tests/test_interop_jobs.py``): each data card once, numbered, in order.  A
missing Hercules skips (under CI fails)."""

from __future__ import annotations

import external
import pytest
from endpoints import until
from processes import finish, start
from test_cli_serial import VirtualLineProcess
from test_interop_hercules_out import READER_FED, RJE_CONFIG, Hercules
from test_interop_jobs import job, listing_lines, text_cards

pytestmark = [pytest.mark.interop, pytest.mark.timeout(240)]


@pytest.fixture(autouse=True)
def hercules_installed() -> None:
    """Hercules is found the one way every interop test finds its programs (tests/external.py)."""
    external.program("hercules", "hercules")


def ends(hercules: Hercules, tmp_path, *line_options: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``rje-host`` and ``rje``'s arguments, less the port."""
    reader, printer = f"sockdev://127.0.0.1:{hercules.reader}", f"sockdev://127.0.0.1:{hercules.printer}"
    # --idle 5: a guest slowed by a loaded machine can pause 2 s between lines, and the output ends
    # at the first such pause (the report says so: "deck ended", below)
    host = ("--reader", reader, "--printer", printer, "--idle", "5", "--column-binary", *line_options)
    site = (str(tmp_path / "job.deck"), "--format", "ebcdic", "-o", str(tmp_path / "listing.txt"),
            "--column-binary", *line_options)
    return host, site


def expected(data: list[str]) -> list[str]:
    return [printed[:80].rstrip() for printed in listing_lines(data)]


def test_unpaced_ends_and_a_guest_started_at_once_lose_no_line(tmp_path):
    """Both ends --fast on an unpaced line, and the IPL the moment the job reaches the reader: the
    guest prints within a second, while rje-host is still turning the line around.  Before rje-host
    connected to the printer at its start, it did so only after the job phase, and those lines were
    printed to nobody (Hercules keeps none for a client not yet there)."""
    data = text_cards(15, 12)
    job(tmp_path, "list", "ebcdic", data)
    hercules = Hercules(tmp_path, RJE_CONFIG)
    line = VirtualLineProcess("--bit-rate", "0")
    host_args, site_args = ends(hercules, tmp_path, "--fast", "--timeout", "20")
    try:
        host, site = start("rje-host", line.b, *host_args, cwd=tmp_path), start("rje", line.a, *site_args)
        hercules.wait_for(READER_FED)
        hercules.ipl()
        (sc, sout, serr), (hc, hout, herr) = finish(site, 60), finish(host, 60)
    finally:
        line.stop()
        hercules.stop()
    assert sc == 0 and hc == 0, serr + herr
    assert sout.count("session           complete") == 2 and hout.count("session           complete") == 2
    assert "deck ended        the printer printed no line for 5 s; a line the computer prints later" in hout
    assert (tmp_path / "listing.txt").read_text().splitlines() == expected(data)


def test_each_end_killed_once_mid_job_resumes_and_the_guest_gets_every_card_once(tmp_path):
    """`rje` is killed (SIGKILL) a few cards into the job; both ends run again with --resume; then
    `rje-host` is killed further on, and both run again.  The reader gets the job only once it is
    whole, in one connection, so the guest reads it as one deck: the listing holds each data card
    once, and its line numbers run without a gap."""
    from ibm1013.line.journal import cards_in

    data = text_cards(16, 14)
    job(tmp_path, "list", "ebcdic", data)
    hercules = Hercules(tmp_path, RJE_CONFIG)
    line = VirtualLineProcess("--bit-rate", "0")
    # --timeout 20: how soon the survivor notices its peer killed; 3 s, then 10, were too little for
    # a loaded machine, where an end starting (Python's imports) can take that long to answer
    host_args, site_args = ends(hercules, tmp_path, "--bit-rate", "9600", "--timeout", "20")
    journal = str(tmp_path / f"sockdev-127.0.0.1-{hercules.reader}.1013job.1013part")
    try:
        for victim, cards, resume in (("site", 4, ()), ("host", 12, ("--resume",))):
            host = start("rje-host", line.b, *host_args, *resume, cwd=tmp_path)
            site = start("rje", line.a, *site_args, *resume)
            until(lambda n=cards, h=host: cards_in(journal) >= n or h.poll() is not None, 60,
                  f"{cards} cards in")
            killed, survivor = (site, host) if victim == "site" else (host, site)
            assert killed.poll() is None, f"{victim} ended before it could be killed: {finish(killed)}"
            killed.kill()
            finish(killed)
            code, _, err = finish(survivor, 60)
            assert code == 2, err  # its peer gone, it stops with the job journaled
            assert READER_FED not in hercules.log()  # nothing of a cut job went into the reader
        host = start("rje-host", line.b, *host_args, "--resume", cwd=tmp_path)
        site = start("rje", line.a, *site_args, "--resume")
        until(lambda: READER_FED in hercules.log() or host.poll() is not None or site.poll() is not None,
              120, "the job fed")
        assert READER_FED in hercules.log(), f"an end stopped first: {finish(site)} {finish(host)}"
        hercules.ipl()
        (sc, _, serr), (hc, hout, herr) = finish(site, 120), finish(host, 60)
    finally:
        line.stop()
        hercules.stop()
    assert sc == 0 and hc == 0, serr + herr
    cards = (tmp_path / "job.deck").stat().st_size // 80
    assert hout.count(f"job               {cards} cards fed to the card reader") == 1
    assert (tmp_path / "listing.txt").read_text().splitlines() == expected(data)
    assert hercules.log().count(READER_FED) == 1
    assert not list(tmp_path.glob("*.1013rje")) and not list(tmp_path.glob("*.1013job*"))


def numbers(listing: str) -> list[int]:
    """The numbers the LIST program printed in columns 1-6, one a line."""
    return [int(printed[:6]) for printed in listing.splitlines() if printed[:6].strip().isdigit()]


@pytest.mark.timeout(300)  # two runs of the job, and a host's death noticed after --timeout
def test_rje_host_killed_after_the_guest_printed_runs_the_job_again_and_every_line_comes_once(tmp_path):
    """The forced kill of issue 50: rje-host stopped (SIGSTOP) once it has fed the job, the IPL, the
    guest prints every line into the stopped host's connection and stops, then SIGKILL: those lines
    die with the process.  Both ends run again with --resume (the operator lets Hercules take a new
    printer client: sysreset, and devinit when it still counts the dead one); the host feeds the job
    it still holds again, the operator IPLs, and the whole new output comes back.  Counted by the
    numbers the LIST job prints: each line once, or else no `complete` and a non-zero exit."""
    import signal
    import threading

    data = text_cards(50, 12)
    job(tmp_path, "list", "ebcdic", data)
    hercules = Hercules(tmp_path, RJE_CONFIG)
    line = VirtualLineProcess("--bit-rate", "0")
    host_args, site_args = ends(hercules, tmp_path, "--bit-rate", "9600", "--timeout", "15")
    site_args = (*site_args, "--output-timeout", "90")  # 15: the host waits that long for the printer
    listing = tmp_path / "listing.txt"
    try:
        host, site = start("rje-host", line.b, *host_args, cwd=tmp_path), start("rje", line.a, *site_args)
        said: list[str] = []
        reading = threading.Thread(target=lambda: said.extend(iter(host.stdout.readline, "")), daemon=True)
        reading.start()
        until(lambda: any(s.startswith("job ") for s in said) or host.poll() is not None, 60, "the job fed")
        host.send_signal(signal.SIGSTOP)  # it reads no printed line from here on
        hercules.ipl()
        hercules.wait_for("Disabled wait state")  # the guest has printed every line, into the socket
        host.kill()
        host.wait()
        code, _, err = finish(site, 120)
        assert code == 2, err  # its peer gone, it stops
        host = start("rje-host", line.b, *host_args, "--resume", cwd=tmp_path)
        site = start("rje", line.a, *site_args, "--resume")
        if hercules.release_printer(reader_fed=2, host=host):  # the job fed again, to a new client
            hercules.ipl()
        (sc, sout, serr), (hc, hout, herr) = finish(site, 150), finish(host, 60)
    finally:
        line.stop()
        hercules.stop()
    printed = numbers(listing.read_text()) if listing.exists() else []
    if sc == 0 or "session           complete" in sout:
        assert sorted(printed) == printed == list(range(1, len(data) + 1)), (printed, serr + herr)
    assert sc == 0 and hc == 0, serr + herr  # and here, with the job run again, every line came
    assert "again: the output of its first run was cut" in hout
    assert listing.read_text().splitlines() == expected(data)
    assert not list(tmp_path.glob("*.1013rje")) and not list(tmp_path.glob("sockdev-*"))
