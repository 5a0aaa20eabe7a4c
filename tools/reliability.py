"""The long reliability run (``python -m tools.reliability``): do the reports tell the truth?

1. **Noisy simulated transfers** (``ibm1013.sim.transfer.run_transfer``): random small decks, bit error
   rates, bursts, cuts, column layouts and duplex, every one seeded.  Each report is checked card by
   card against the deck the receiving terminal punched (:func:`report_discrepancies`): the cards it
   holds are exactly the cards sent less ``failed_cards``, up to ``resume_at``; a card given up
   although it arrived is in ``unconfirmed_cards``, never in ``failed_cards``.
2. **Kill-and-resume runs over** ``ibm1013 line`` (real processes and ptys): a paced transfer, the
   sending or the receiving end killed with ``kill -9`` after a random number of cards, then both
   run again with ``--resume`` until the deck is written.  Checked: every failure is one line naming
   ``--resume``; the sending end never exits 0 unless the deck was written, never 2 when it was; the
   final deck is byte for byte the deck sent; no journal is left.

Seeded (``--seed``): the same seed draws the same cases (process timing still varies).  ``--json``
prints the figures for scripts; a progress bar shows on a terminal.  The test suite runs a short
version of both parts (``tests/test_transfer_report_truth.py``, ``tests/test_cli_serial.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from emulator import Card
from emulator.formats import write_deck
from ibm1013 import Transfer, TransferConfig
from ibm1013.line.journal import cards_in, journal_path
from ibm1013.sim.transfer import run_transfer
from ibm1013.str import fourofeight as fo
from ibm1013.str.events import COMPLETE

CARD_WORDS = np.array(sorted(w for w in range(4096) if fo.WORD_TO_CHAR[w]), dtype=np.uint16)
_BIN = os.path.join(os.path.dirname(sys.executable), "ibm1013")
IBM1013 = [_BIN] if os.path.exists(_BIN) else [sys.executable, "-m", "ibm1013"]


# --------------------------------------------------------------------------------------------------
# 1. simulated transfers, checked card by card
# --------------------------------------------------------------------------------------------------
def random_case(seed: int) -> tuple[np.ndarray, TransferConfig]:
    """A small random deck and a noisy line, both drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 25))
    deck = rng.choice(CARD_WORDS, size=(n, 80))
    if rng.random() < 0.3:
        deck[:, int(rng.integers(5, 80)):] = 0  # short cards, for --columns auto
    config = TransferConfig.build(
        ber=float(rng.choice([3e-4, 1e-3, 2e-3, 4e-3])),
        burst=(1e-3, 0.1, 0.03) if rng.random() < 0.2 else None,
        cut_at=float(rng.uniform(2, 20)) if rng.random() < 0.15 else None,
        columns=str(rng.choice(["80", "auto", "20", "1-10,30-35"])),
        duplex=str(rng.choice(["full", "half"])), seed=seed,
        on_give_up=str(rng.choice(["stop", "skip"])),  # drawn last: the draws above stay as they were
    )
    return deck, config


def report_discrepancies(deck: np.ndarray, transfer: Transfer) -> list[str]:
    """Where the report and the deck the receiving terminal punched disagree (``[]``: none).

    The report implies the received deck: every card sent, less ``failed_cards``, up to
    ``resume_at`` (unsent columns blank).  Runs whose report owns up to STR's two-bit weaknesses
    (``lost``, ``duplicated``, ``undetected_errors``) are checked by count only."""
    r = transfer.report
    got = [np.asarray(card.columns, dtype=np.uint16) for card in transfer.received_cards()]
    mask = np.zeros(80, dtype=np.uint16)
    mask[transfer.layout.indices] = 0xFFFF
    first = r.settings["first_card"]
    failed = set(r.failed_cards)
    want = [deck[n - 1] & mask for n in range(first, (r.resume_at or len(deck) + 1)) if n not in failed]
    problems = []
    if r.cards_received != len(got):
        problems.append(f"cards_received {r.cards_received} but {len(got)} cards punched")
    if failed & set(r.unconfirmed_cards):
        problems.append(f"cards both failed and unconfirmed: {sorted(failed & set(r.unconfirmed_cards))}")
    if r.lost or r.duplicated or r.undetected_errors:
        if len(got) != len(want) + r.duplicated - r.lost:
            problems.append(f"{len(got)} cards punched, report implies {len(want)} "
                            f"+ {r.duplicated} duplicated - {r.lost} lost")
        return problems
    if len(got) != len(want):
        problems.append(f"{len(got)} cards punched, the report implies {len(want)} "
                        f"(failed {r.failed_cards}, unconfirmed {r.unconfirmed_cards}, "
                        f"resume at {r.resume_at})")
    else:
        problems += [f"punched card {k} is not the card the report implies"
                     for k, (a, b) in enumerate(zip(got, want, strict=True), 1) if not np.array_equal(a, b)]
    if r.ended == COMPLETE and (failed or r.unconfirmed_cards or r.cards_received != len(deck) - first + 1):
        problems.append("complete, but the receiving end does not hold every card, confirmed")
    return problems


def simulated_runs(count: int, seed: int, tick: Any) -> dict[str, Any]:
    figures: Counter[str] = Counter()
    bad: list[dict[str, Any]] = []
    for k in range(count):
        case = seed * 1_000_003 + k
        deck, config = random_case(case)
        t = run_transfer(deck, config)
        r = t.report
        problems = report_discrepancies(deck, t)
        figures["runs"] += 1
        figures["cards_sent"] += len(deck)
        figures["cards_checked"] += r.cards_received
        figures["failed_cards"] += len(r.failed_cards)
        figures["unconfirmed_cards"] += len(r.unconfirmed_cards)
        figures["runs_with_unconfirmed_cards"] += bool(r.unconfirmed_cards)
        figures["lost"] += r.lost
        figures["duplicated"] += r.duplicated
        figures["undetected_errors"] += r.undetected_errors
        figures[f"ended {r.ended}"] += 1
        if problems:
            figures["runs_where_the_report_is_wrong"] += 1
            bad.append({"case_seed": case, "problems": problems[:3]})
        tick()
    figures.setdefault("runs_where_the_report_is_wrong", 0)
    return {**dict(sorted(figures.items())), "wrong": bad[:20]}


# --------------------------------------------------------------------------------------------------
# 2. kill -9 and resume over `ibm1013 line`
# --------------------------------------------------------------------------------------------------
def _start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([*IBM1013, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(proc: subprocess.Popen, timeout: float) -> tuple[int, str]:
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        return -999, f"did not finish in {timeout} s: {err}"
    return proc.returncode, err




@contextmanager
def _line(ber: float, seed: int) -> Iterator[tuple[str, str]]:
    proc = _start("line", "--json", "--bit-rate", "0", "--ber", str(ber), "--seed", str(seed))
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 15)
        if not ready:
            raise RuntimeError("ibm1013 line printed no paths")
        info = json.loads(proc.stdout.readline())  # type: ignore[union-attr]
        yield info["a"], info["b"]
    finally:
        proc.send_signal(signal.SIGTERM)
        _finish(proc, 10)


def _one_line(err: str) -> bool:
    lines = err.strip().splitlines()
    return len(lines) == 1 and lines[0].startswith("ibm1013: ") and "--resume" in lines[0]


def kill_and_resume(seed: int, workdir: str) -> dict[str, Any]:
    """One run: paced transfer, kill -9 one end mid-deck, resume until written; what happened."""
    rng = random.Random(seed)
    n = rng.randint(20, 80)
    deck_path, out = os.path.join(workdir, "deck.cbn"), os.path.join(workdir, "copy.cbn")
    with open(deck_path, "wb") as f:
        write_deck([Card.from_text(f"RUN {seed} CARD {i:04d} {rng.getrandbits(40):012X}") for i in range(n)],
                   f, "cbn")
    journal = journal_path(out)
    victim = rng.choice(["send", "receive"])
    kill_after = rng.randint(2, n - 2)
    ber = rng.choice([0.0, 1e-5, 3e-5])
    result: dict[str, Any] = {"seed": seed, "cards": n, "victim": victim, "kill_after": kill_after,
                              "ber": ber, "problems": []}
    problems = result["problems"]
    with _line(ber, seed) as (a, b):
        paced = ("--bit-rate", "19200", "--timeout", "5")
        rx = _start("receive", b, "-o", out, *paced)
        tx = _start("send", a, deck_path, *paced)
        deadline = time.monotonic() + 60
        while cards_in(journal) < kill_after and time.monotonic() < deadline and rx.poll() is None:
            time.sleep(0.01)
        killed, survivor = (rx, tx) if victim == "receive" else (tx, rx)
        killed.kill()
        killed.wait(5)
        code, err = _finish(survivor, 60)
        result["survivor_exit"] = code
        if code != 0 and not _one_line(err):
            problems.append(f"survivor said: {err.strip()[:200]}")
        result["held_after_kill"] = cards_in(journal)
        for attempt in range(1, 6):
            rx = _start("receive", b, "-o", out, "--fast", "--resume", "--timeout", "5")
            tx = _start("send", a, deck_path, "--fast", "--resume", "--timeout", "5")
            tcode, terr = _finish(tx, 90)
            rcode, rerr = _finish(rx, 90)
            written = os.path.exists(out)
            if tcode == 0 and not written:
                problems.append(f"attempt {attempt}: the sending end said complete, nothing was written")
            if tcode == 2 and written:
                problems.append(f"attempt {attempt}: the sending end failed although the deck was written")
            for code, err in ((tcode, terr), (rcode, rerr)):
                if code not in (0, 3) and not _one_line(err):
                    problems.append(f"attempt {attempt}: {err.strip()[:200]}")
            result.setdefault("exits", []).append([tcode, rcode])
            if written and rcode == 0:
                break
        result["attempts"] = attempt
    with open(deck_path, "rb") as f1:
        sent = f1.read()
    got = open(out, "rb").read() if os.path.exists(out) else None  # noqa: SIM115 - tiny file
    result["identical"] = got == sent
    if not result["identical"]:
        problems.append("the deck written is not the deck sent" if got is not None else "nothing written")
    if os.path.exists(journal):
        problems.append("a journal was left behind")
    for path in (out, journal, deck_path):
        if os.path.exists(path):
            os.unlink(path)
    return result


def kill_runs(count: int, seed: int, tick: Any) -> dict[str, Any]:
    runs = []
    with tempfile.TemporaryDirectory(prefix="ibm1013-reliability-") as workdir:
        for k in range(count):
            runs.append(kill_and_resume(seed * 7919 + k, workdir))
            tick()
    exits = Counter(f"{t}/{r}" for run in runs for t, r in run.get("exits", []))
    return {
        "runs": len(runs),
        "recovered_byte_for_byte": sum(run["identical"] for run in runs),
        "runs_with_problems": sum(bool(run["problems"]) for run in runs),
        "resume_attempts": sum(run["attempts"] for run in runs),
        "killed": dict(Counter(run["victim"] for run in runs)),
        "survivor_exit_statuses": dict(Counter(str(run["survivor_exit"]) for run in runs)),
        "resume_exit_statuses_send/receive": dict(exits),
        "problems": [{"seed": run["seed"], "problems": run["problems"]} for run in runs if run["problems"]],
    }


# --------------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.reliability", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--simulated", type=int, default=5000, metavar="N",
                   help="noisy simulated transfers checked card by card (default 5000)")
    p.add_argument("--kills", type=int, default=10, metavar="N",
                   help="kill -9 and resume runs over `ibm1013 line` (default 10)")
    p.add_argument("--seed", type=int, default=0, help="seed of every random choice (default 0)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args(argv)
    with _progress(not args.json, args.simulated + args.kills) as tick:
        t0 = time.monotonic()
        simulated = simulated_runs(args.simulated, args.seed, tick)
        t1 = time.monotonic()
        killed = kill_runs(args.kills, args.seed, tick)
        t2 = time.monotonic()
    figures = {"seed": args.seed, "simulated": simulated, "kill_and_resume": killed,
               "seconds": {"simulated": round(t1 - t0, 1), "kill_and_resume": round(t2 - t1, 1)}}
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        _print(figures)
    ok = simulated["runs_where_the_report_is_wrong"] == 0 and killed["runs_with_problems"] == 0
    return 0 if ok else 1


@contextmanager
def _progress(show: bool, total: int) -> Iterator[Any]:
    if not show or not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("reliability"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  transient=True, console=Console(stderr=True)) as bar:
        task = bar.add_task("runs", total=total)
        yield lambda: bar.advance(task)


def _print(figures: dict[str, Any]) -> None:
    for part in ("simulated", "kill_and_resume"):
        print(f"{part} ({figures['seconds'][part]} s):")
        for key, value in figures[part].items():
            if value or key.startswith(("runs", "recovered")):
                print(f"  {key:36s} {value}")


if __name__ == "__main__":
    sys.exit(main())
