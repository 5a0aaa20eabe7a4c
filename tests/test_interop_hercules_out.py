"""The way back from Hercules 3.13: what its 1403 prints on a socket device, and what its 3525
punches into a file, sent down a noisy line by ``send --follow`` as the guest produces it.

The guest runs the shipped jobs (``examples/hercules``: the loader, LIST or COPY, data cards); the
far end's deck is checked against what the program must produce, computed from the data alone
(``tests/test_interop_jobs.py``), with the stated rule for a printed line longer than a card: cut at
column 80.  A missing Hercules skips (under CI fails)."""

from __future__ import annotations

import subprocess
import urllib.parse
import urllib.request
from pathlib import Path

import external
import pytest
from endpoints import until
from processes import finish, start
from test_cli_serial import VirtualLineProcess
from test_interop_hercules import free_port
from test_interop_jobs import job, listing_lines, text_cards

from tools.measure_rje import CONFIG as RJE_CONFIG  # the configuration the measurement runs

pytestmark = [pytest.mark.interop, pytest.mark.timeout(120)]

CONFIG = """ARCHMODE S/370
MAINSIZE 16
NUMCPU 1
CPUMODEL 3090
HTTPPORT {http} NOAUTH
000C 3505 job.deck ebcdic eof
000D 3525 punch.ebcdic ebcdic
000E 1403 127.0.0.1:{printer} sockdev
"""
ENDS = ("--bit-rate", "9600", "--timeout", "20")




READER_FED = "HHCSD018I Client localhost (127.0.0.1) connected to device 000C"
"""``rje-host`` feeds the job, whole, in one connection: the reader's client is the job in."""


class Hercules:
    """Hercules in daemon mode with the printer on a socket, and the job on a file reader (or on a
    socket too, with ``config=RJE_CONFIG``)."""

    def __init__(self, tmp_path: Path, config: str = CONFIG) -> None:
        exe = external.program("hercules", "hercules")
        self.printer, self.http, self.reader = free_port(), free_port(), free_port()
        ports = {"http": self.http, "printer": self.printer, "reader": self.reader}
        (tmp_path / "job.cnf").write_text(config.format(**ports))
        self.log_path = tmp_path / "hercules.log"
        self.log_file = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen([exe, "-f", "job.cnf", "-d"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                                     stdout=self.log_file, stderr=subprocess.STDOUT)
        self.wait_for(f"Waiting for HTTP requests on port {self.http}")
        self.wait_for("HHCSD004I Device 000E bound")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for(self, text: str, times: int = 1) -> None:
        """Until the log holds ``text`` (``times`` times)."""
        # a guard against a hang: a guest emulated on a loaded machine can take a minute to print
        until(lambda: self.log().count(text) >= times or self.proc.poll() is not None, 180, text)
        assert self.log().count(text) >= times, self.log()[-3000:]

    def ipl(self) -> None:
        self.command("ipl 00c")

    def command(self, text: str) -> None:
        """A command at the console, through the HTTP server's ``cmd`` page (daemon mode)."""
        url = f"http://127.0.0.1:{self.http}/cgi-bin/tasks/cmd?cmd={urllib.parse.quote(text)}"
        with urllib.request.urlopen(url, timeout=30) as page:
            page.read()

    def release_printer(self, *, reader_fed: int, host: subprocess.Popen) -> bool:
        """What the operator does when a printer client went away, told by ``rje-host`` (it tries again
        for ``--timeout``): ``sysreset`` for the interrupt the guest left pending (HHCSD015E); and when
        Hercules still counts the client that went (HHCSD016E), ``devinit`` the 1403 too.  Whether the
        job was fed (``reader_fed``: the reader's clients by then) before ``host`` ended."""
        def fed() -> bool:
            return self.log().count(READER_FED) >= reader_fed

        self.command("sysreset")
        until(lambda: fed() or "HHCSD016E" in self.log() or host.poll() is not None, 40,
              "the job fed, or the printer still holding the client that went")
        if not fed() and host.poll() is None:
            self.command(f"devinit 000e 127.0.0.1:{self.printer} sockdev")
            self.command("sysreset")
            until(lambda: fed() or host.poll() is not None, 60, "the job fed")
        return fed()

    def stop(self) -> None:
        self.proc.kill()  # a Hercules with a socket client may sit out SIGTERM; nothing of it is kept
        self.proc.wait()
        self.log_file.close()


def test_a_sockdev_printer_is_sent_line_by_line_as_cards_cut_at_column_80(tmp_path):
    data = text_cards(11, 12)
    job(tmp_path, "list", "ebcdic", data)
    hercules = Hercules(tmp_path)
    line = VirtualLineProcess("--bit-rate", "0", "--ber", "2e-4", "--seed", "1403")
    try:
        rx = start("receive", line.b, "-o", str(tmp_path / "listing.txt"), "--format", "text", *ENDS)
        printer = f"sockdev://127.0.0.1:{hercules.printer}"
        tx = start("send", line.a, "--follow", printer, "--idle", "2", *ENDS, cwd=tmp_path)
        hercules.wait_for("HHCSD018I")  # send is the printer's client before the guest prints
        hercules.ipl()
        hercules.wait_for("Disabled wait state")
        (tc, tout, terr), (rc, _, rerr) = finish(tx, 90), finish(rx, 90)
    finally:
        line.stop()
        hercules.stop()
    assert tc == 0 and rc == 0, terr + rerr
    assert "session           complete" in tout
    expected = [printed[:80].rstrip() for printed in listing_lines(data)]
    assert (tmp_path / "listing.txt").read_text().splitlines() == expected
    cut = sum(len(printed) > 80 for printed in listing_lines(data))
    lines = "line" if cut == 1 else "lines"
    assert cut and f"{cut} printed {lines} longer than 80 columns cut at column 80" in terr


def test_a_3525_punch_file_is_followed_card_by_card(tmp_path):
    data = text_cards(12, 15)
    job(tmp_path, "copy", "ebcdic", data)
    hercules = Hercules(tmp_path)
    line = VirtualLineProcess("--bit-rate", "0", "--ber", "2e-4", "--seed", "3525")
    try:
        rx = start("receive", line.b, "-o", str(tmp_path / "copy.ebcdic"), "--format", "ebcdic", *ENDS)
        tx = start("send", line.a, "--follow", str(tmp_path / "punch.ebcdic"), "--format", "ebcdic",
                   "--idle", "2", *ENDS)
        hercules.ipl()
        hercules.wait_for("Disabled wait state")
        (tc, _, terr), (rc, _, rerr) = finish(tx, 90), finish(rx, 90)
    finally:
        line.stop()
        hercules.stop()
    assert tc == 0 and rc == 0, terr + rerr
    assert (tmp_path / "copy.ebcdic").read_bytes() == "".join(c.ljust(80) for c in data).encode("cp037")


def test_a_printer_nobody_listens_on_is_one_line(tmp_path):
    code, _, err = finish(start("send", "/nonexistent-port", "--follow", f"sockdev://127.0.0.1:{free_port()}",
                                cwd=tmp_path))
    assert code == 2 and "nothing listens there" in err and len(err.strip().splitlines()) == 1, err


def test_rje_and_rje_host_send_a_job_in_and_its_listing_back(tmp_path):
    """The two commands of a remote job entry site, over one noisy line: the LIST job into the
    running 370's socket reader, its printer's lines back into OUTPUT."""
    data = text_cards(13, 10)
    job(tmp_path, "list", "ebcdic", data)
    hercules = Hercules(tmp_path, RJE_CONFIG)
    line = VirtualLineProcess("--bit-rate", "0", "--ber", "2e-4", "--seed", "1961")
    both = (*ENDS, "--column-binary")
    try:
        reader, printer = f"sockdev://127.0.0.1:{hercules.reader}", f"sockdev://127.0.0.1:{hercules.printer}"
        host = start("rje-host", line.b, "--reader", reader, "--printer", printer, "--idle", "2", *both,
                     cwd=tmp_path)
        site = start("rje", line.a, str(tmp_path / "job.deck"), "--format", "ebcdic",
                     "-o", str(tmp_path / "listing.txt"), *both)
        hercules.wait_for(READER_FED)
        hercules.ipl()  # the operator at the computer: the job is in the reader, the printer followed
        (sc, sout, serr), (hc, hout, herr) = finish(site, 100), finish(host, 100)
    finally:
        line.stop()
        hercules.stop()
    assert sc == 0 and hc == 0, serr + herr
    assert sout.count("session           complete") == 2 and hout.count("session           complete") == 2
    expected = [printed[:80].rstrip() for printed in listing_lines(data)]
    assert (tmp_path / "listing.txt").read_text().splitlines() == expected
    assert not list(tmp_path.glob("*.1013rje"))  # both phases done: no marker left


def test_rje_killed_while_the_listing_comes_back_resumes_with_each_line_once(tmp_path):
    """`rje` is killed (SIGKILL) in the output phase.  The host's send stops (its peer is gone), and
    with it its printer client: lines printed from then on are lost to it.  Both ends run again with
    --resume: their markers send them to the output phase, the host runs the job again (the operator
    lets Hercules take its new printer client, and IPLs), and its whole output replaces the lines
    `rje` held: the listing holds each line once, in order."""
    from ibm1013.line.journal import cards_in

    data = text_cards(14, 24)
    job(tmp_path, "list", "ebcdic", data)
    hercules = Hercules(tmp_path, RJE_CONFIG)
    line = VirtualLineProcess("--bit-rate", "0")  # noise has its test above; here the kill alone
    both = ("--bit-rate", "9600", "--timeout", "20", "--column-binary")  # 20: the guest's first line comes
    # after the IPL, and the output phase's receive waits --timeout for a card
    reader, printer = f"sockdev://127.0.0.1:{hercules.reader}", f"sockdev://127.0.0.1:{hercules.printer}"
    host_args = ("rje-host", line.b, "--reader", reader, "--printer", printer, "--idle", "2", *both)
    listing = tmp_path / "listing.txt"
    site_args = ("rje", line.a, str(tmp_path / "job.deck"), "--format", "ebcdic", "-o", str(listing), *both)
    try:
        host, site = start(*host_args, cwd=tmp_path), start(*site_args)
        hercules.wait_for(READER_FED)
        hercules.ipl()
        journal = str(listing) + ".1013part"
        until(lambda: cards_in(journal) >= 5 or site.poll() is not None, 60, "5 lines back")
        assert site.poll() is None, "rje ended before it could be killed"
        site.kill()
        finish(site)
        hc, _, herr = finish(host, 60)
        assert hc == 2, herr  # the output phase stopped with its peer gone
        assert (tmp_path / f"sockdev-127.0.0.1-{hercules.reader}.1013rje").exists()
        assert (tmp_path / "listing.txt.1013rje").exists()
        host, site = start(*host_args, "--resume", cwd=tmp_path), start(*site_args, "--resume")
        if hercules.release_printer(reader_fed=2, host=host):
            hercules.ipl()
        (sc, sout, serr), (hc, hout, herr) = finish(site, 100), finish(host, 100)
    finally:
        line.stop()
        hercules.stop()
    assert sc == 0 and hc == 0, serr + herr
    assert sout.count("session           complete") == 1  # only the output phase ran again
    assert "again: the output of its first run was cut" in hout
    expected = [printed[:80].rstrip() for printed in listing_lines(data)]
    assert listing.read_text().splitlines() == expected
    assert not list(tmp_path.glob("*.1013rje"))
