"""Kill-and-resume runs of remote job entry on Hercules 3.13, counted at the guest's printer.

    python3 -m tools.rje_kills [--runs 20] [--cards 8] [--seed 1961] [--json]      (in a checkout)

Each run starts a fresh Hercules (3505 reader and 1403 printer on sockets), ``ibm1013 line`` and both
ends (``rje-host``, ``rje``; 9600 bit/s, ``--column-binary``), sending the shipped LIST job with
``--cards`` numbered data cards.  A seeded choice picks the end to kill (SIGKILL) and when: in the job
phase after a random number of the job's cards are in the host's journal, or in the output phase
after a random number of lines are in ``rje``'s.  The other end is left to stop by itself (its peer
gone, after ``--timeout``); both run again with ``--resume`` (after an output-phase kill the host
runs the job again: the operator's ``sysreset``, ``devinit`` while Hercules still counts the old
printer client, and the IPL are given as docs/machine-room.md says).  The guest's printer is then
counted: what ``rje`` wrote must be each data card exactly once, in order (the LIST program numbers
its lines, so a card lost or read twice shows).

A run the harness itself could not carry out (Hercules not answering, an end gone before its kill)
is counted "not run", its reason printed and its folder of logs kept; the series goes on.  Exit
status 1 if any card or line was lost or repeated, else 2 if any run was not run, else 0.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

from ibm1013.line.journal import cards_in
from tools.measure_rje import CONFIG, job_deck
from tools.measure_sockdev import free_port, stop, wait_for

IBM1013 = [sys.executable, "-m", "ibm1013"]
ENDS = ("--bit-rate", "9600", "--timeout", "3", "--column-binary")
RUN_LIMIT_S = 120.0


def until(condition, limit: float, what: str) -> None:  # noqa: ANN001 - a callable returning a bool
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"rje_kills: still waiting after {limit:g} s for {what}")
        time.sleep(0.02)


def release_printer(log: Path, console: str, printer: int, host: subprocess.Popen) -> bool:
    """What the operator does for a restarted ``rje-host`` (docs/machine-room.md): ``sysreset``, and
    ``devinit`` the 1403 while Hercules still counts the client that went (HHCSD016E); whether the
    job was fed again (else the host ended first)."""
    def command(text: str) -> None:
        with urllib.request.urlopen(f"{console}/cgi-bin/tasks/cmd?cmd={urllib.parse.quote(text)}",
                                    timeout=30) as page:
            page.read()

    def fed() -> bool:
        return log.read_text(errors="replace").count("connected to device 000C") >= 2

    command("sysreset")
    until(lambda: fed() or "HHCSD016E" in log.read_text(errors="replace") or host.poll() is not None, 60,
          "the job fed again")
    if not fed() and host.poll() is None:
        command(f"devinit 000e 127.0.0.1:{printer} sockdev")
        command("sysreset")
        until(lambda: fed() or host.poll() is not None, 60, "the job fed again")
    return fed()


def said_by_ends(work: Path) -> str:
    """The last of what both ends wrote to their ``.err`` logs in ``work`` (all of it stays there)."""
    said = "".join(path.read_text(errors="replace") for path in sorted(work.glob("*.err")))
    return said.strip()[-300:]


def one_run(work: Path, cards: int, rng: random.Random) -> dict:
    """One round trip with one end killed once and both resumed; what came back, counted."""
    deck = job_deck(cards, work)
    job_cards = deck.stat().st_size // 80
    reader, printer, http = free_port(), free_port(), free_port()
    (work / "rje.cnf").write_text(CONFIG.format(reader=reader, printer=printer, http=http))
    log = work / "hercules.log"
    victim = rng.choice(("rje", "rje-host"))
    phase = rng.choice(("job", "output"))
    at = rng.randint(1, job_cards - 1) if phase == "job" else rng.randint(1, cards - 1)
    listing = work / "listing.txt"
    with open(log, "wb") as log_file:
        hercules = subprocess.Popen([shutil.which("hercules") or "hercules", "-f", "rje.cnf", "-d"], cwd=work,
                                    stdin=subprocess.DEVNULL, stdout=log_file, stderr=subprocess.STDOUT)
        line = subprocess.Popen([*IBM1013, "line", "--bit-rate", "0", "--json"], stdout=subprocess.PIPE,
                                text=True)
        procs: dict[str, subprocess.Popen] = {}
        try:
            wait_for(log, f"Waiting for HTTP requests on port {http}", hercules)
            ends = json.loads(line.stdout.readline())  # type: ignore[union-attr]
            host_args = [*IBM1013, "rje-host", ends["b"], "--reader", f"sockdev://127.0.0.1:{reader}",
                         "--printer", f"sockdev://127.0.0.1:{printer}", "--idle", "2", *ENDS]
            site_args = [*IBM1013, "rje", ends["a"], str(deck), "--format", "ebcdic", "-o", str(listing),
                         *ENDS]

            def start(args: list[str]) -> subprocess.Popen:  # what each end says goes to the run's logs
                with open(work / f"{args[len(IBM1013)]}.err", "a") as said:
                    return subprocess.Popen(args, cwd=work, stdout=subprocess.DEVNULL, stderr=said)

            ipl = f"http://127.0.0.1:{http}/cgi-bin/tasks/cmd?cmd=ipl%2000c"
            fed = "connected to device 000C"
            host, site = start(host_args), start(site_args)
            procs.update({"rje-host": host, "rje": site})
            if phase == "job":
                journal = work / f"sockdev-127.0.0.1-{reader}.1013job.1013part"
                until(lambda: cards_in(str(journal)) >= at or host.poll() is not None, 60, f"card {at} in")
            else:
                wait_for(log, fed, hercules)
                urllib.request.urlopen(ipl, timeout=30).read()
                journal = Path(str(listing) + ".1013part")
                until(lambda: cards_in(str(journal)) >= at or site.poll() is not None, 60, f"line {at} back")
            killed = procs[victim]
            if killed.poll() is not None:
                raise SystemExit(f"rje_kills: {victim} ended before it could be killed")
            killed.kill()
            killed.wait()
            other = procs["rje" if victim == "rje-host" else "rje-host"]
            other.wait(60)
            host, site = start([*host_args, "--resume"]), start([*site_args, "--resume"])
            procs.update({"rje-host": host, "rje": site})
            if phase == "job":
                wait_for(log, fed, hercules)
                urllib.request.urlopen(ipl, timeout=30).read()
            elif release_printer(log, f"http://127.0.0.1:{http}", printer, host):  # the job runs again
                urllib.request.urlopen(ipl, timeout=30).read()
            site.wait(RUN_LIMIT_S)
            host.wait(RUN_LIMIT_S)
        finally:
            stop(*procs.values(), line, hercules)
    lines = listing.read_text().splitlines() if listing.exists() else []
    numbers = [int(printed[:6]) for printed in lines if printed[:6].strip().isdigit()]
    return {"killed": victim, "phase": phase, "at": at, "rje_status": site.returncode,
            "host_status": host.returncode, "lines": len(lines),
            "lost": len(set(range(1, cards + 1)) - set(numbers)),
            "repeated": len(numbers) - len(set(numbers)),
            "in_order": numbers == sorted(numbers), "errors": said_by_ends(work)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tools.rje_kills", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="kill-and-resume runs (default 20)")
    parser.add_argument("--cards", type=int, default=8, help="data cards in the job (default 8)")
    parser.add_argument("--seed", type=int, default=1961, help="picks each run's victim and moment")
    parser.add_argument("--json", action="store_true", help="each run's figures as a JSON line")
    args = parser.parse_args(argv)
    if not 1 <= args.runs <= 1000 or not 2 <= args.cards <= 999:
        parser.error("--runs from 1 to 1000, --cards from 2 to 999")
    if shutil.which("hercules") is None:
        raise SystemExit("rje_kills: hercules not found: install it with `apt-get install hercules`")
    rng = random.Random(args.seed)
    bad = not_run = 0
    for number in range(1, args.runs + 1):
        work = Path(tempfile.mkdtemp(prefix="rje-kills-"))
        try:
            result = one_run(work, args.cards, rng)
        except (SystemExit, subprocess.SubprocessError, OSError, ValueError) as err:  # the harness's
            not_run += 1                                         # own trouble: said, logs kept, go on
            why = str(err.code if isinstance(err, SystemExit) else err).removeprefix("rje_kills: ")
            if args.json:
                print(json.dumps({"run": number, "not_run": why, "logs": str(work)}), flush=True)
            else:
                print(f"run {number:2d}: not run ({why}); its logs are kept in {work}", flush=True)
            continue
        shutil.rmtree(work, ignore_errors=True)
        ok = (result["rje_status"] == result["host_status"] == 0 and result["lines"] == args.cards
              and not result["lost"] and not result["repeated"] and result["in_order"])
        bad += not ok
        if args.json:
            print(json.dumps({"run": number, "ok": ok, **result}), flush=True)
        else:
            print(f"run {number:2d}: {result['killed']:8s} killed in the {result['phase']:6s} phase at "
                  f"{'card' if result['phase'] == 'job' else 'line'} {result['at']:2d}: {result['lines']} "
                  f"lines, {result['lost']} lost, {result['repeated']} repeated{'' if ok else '  FAILED'}",
                  flush=True)
            if not ok:
                print(f"        {result['errors']}")
    ran = args.runs - not_run
    print(f"{ran - bad} of {ran} runs with every card and line once"
          + (f"; {not_run} not run (the harness's trouble, above)" if not_run else ""))
    return 1 if bad else 2 if not_run else 0


if __name__ == "__main__":
    sys.exit(main())
