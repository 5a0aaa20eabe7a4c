"""Fuzz the deck formats: mutated and random files through the readers and ``ibm1013 cards``.

``python -m tools.fuzz_cards [--files N] [--seed S] [--start I] [--keep DIR] [--json]``

Each file is a deck of random cards written in a format (or pure random bytes), then mutated: bytes
flipped, inserted, deleted, cut off, repeated, spliced with another format's deck, or salted with
the bytes that mean something to a reader (record marks, 0x8F, 0xFF runs, CR, LF, TAB, NUL, ``~``
lines, a UTF-8 byte-order mark, bytes beyond ASCII).  It is then

* read with :func:`~emulator.formats.read_deck` in its format, strictly and with ``lenient``: the
  only acceptable outcomes are cards or a :class:`~emulator.errors.CardError`;
* run through ``ibm1013 cards decode`` (``--lenient`` half of the time) and ``ibm1013 cards
  convert`` to a random format, in-process through :func:`ibm1013.cli.main.main`: exit status 0 with the
  output written, or status 2 with exactly one line ``ibm1013: …`` on stderr, no output file and no
  temporary file left behind.  Anything else — another exception, another status, a traceback, two
  lines, a file left over — is a *fault*.

Case ``I`` of seed ``S`` is always the same file and commands (``--start I --files 1`` repeats it);
``--keep DIR`` saves the input of every fault there.  ``tests/test_formats_fuzz.py`` runs a few
hundred cases per format in the suite; this tool runs the long version, with a progress bar on
stderr and a summary (``--json``: one object) on stdout.  Exit status 1 if there was any fault.

Work files go to a temporary directory in ``/dev/shm`` when there is one (the CLI ``fsync``\\ s every
output; on a disk that costs more than the rest of a case).  The command-line parser is built once
and reused: :func:`ibm1013.cli.main.main` is otherwise exactly what ``ibm1013`` runs (``ibm1013`` answers
``cards decode DECK`` without argparse, :mod:`ibm1013.cli.start`, in argparse's words: tests/test_start.py).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from emulator import EOF_CARD, Card, CardError, format_names
from emulator.formats import read_deck, write_deck

MAX_CARDS = 12
"""Cards in a generated deck before mutation (small decks keep each case fast)."""

SALT = (b"\x8f", b"\xff" * 7, b"\x80", b"\xc0\x40", b"\r", b"\n", b"\r\n", b"\t", b"\0", b"~\n", b"~\r\n",
        b"~raw0001\n", b"~RAW77\n", b"~eor\n", b"\xef\xbb\xbf", "é¢".encode(), b"\xc3", b" ___\n/", b"|]|\n")
"""Byte strings that mean something to one reader or another."""


@dataclass
class Case:
    """One fuzz case: a file, the format it is read as, and the commands run on it."""

    index: int
    fmt: str
    data: bytes
    lenient: bool
    target: str
    how: str


@dataclass
class Report:
    """Counts of a run; ``faults`` lists what went wrong (case, step, detail)."""

    files: int = 0
    bytes: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    formats: Counter[str] = field(default_factory=Counter)
    faults: list[dict[str, Any]] = field(default_factory=list)


def formats() -> list[str]:
    """Every format, and ``auto`` (detection)."""
    return [*format_names(), "auto"]


def random_deck(rng: random.Random, fmt: str) -> bytes:
    """A deck of random cards in ``fmt`` (written ``lenient``; EOF cards where the format has them)."""
    cards: list[Card] = []
    for _ in range(rng.randint(0, MAX_CARDS)):
        kind = rng.random()
        if kind < 0.1:
            cards.append(EOF_CARD)
        elif kind < 0.6:
            text = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,()+-*/=$") for _ in
                           range(rng.randint(0, 80)))
            cards.append(Card.from_text(text))
        else:
            cards.append(Card(rng.randrange(4096) if rng.random() < 0.3 else 0 for _ in range(80)))
    for attempt in (cards, [c for c in cards if not c.is_eof], []):
        out = io.BytesIO()
        try:
            write_deck(attempt, out, fmt if fmt != "auto" else rng.choice(["cbn", "bin", "text", "art"]),
                       lenient=True)
            return out.getvalue()
        except CardError:
            continue
    return b""


def mutate(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    """``data`` changed in one to four random ways (``other`` is another format's deck)."""
    out = bytearray(data)
    hows = []
    for _ in range(rng.randint(1, 4)):
        how = rng.choice(("flip", "insert", "delete", "cut", "repeat", "splice", "salt", "salt"))
        at = rng.randint(0, len(out))
        if how == "flip" and out:
            for _ in range(rng.randint(1, 8)):
                out[rng.randrange(len(out))] = rng.randrange(256)
        elif how == "insert":
            out[at:at] = rng.randbytes(rng.randint(1, 40))
        elif how == "delete":
            del out[at : at + rng.randint(1, 200)]
        elif how == "cut":
            del out[at:]
        elif how == "repeat":
            out[at:at] = out[at : at + rng.randint(1, 200)] * rng.randint(1, 5)
        elif how == "splice":
            out[at:] = other[rng.randint(0, len(other)) :]
        else:
            out[at:at] = rng.choice(SALT) * rng.choice((1, 1, 2, 90, 200))
        hows.append(how)
    return bytes(out), "+".join(hows)


def make_case(seed: int, index: int, fmt: str | None = None) -> Case:
    """Case ``index`` of ``seed`` (the same every time); ``fmt`` fixes the format."""
    rng = random.Random(f"{seed}:{index}:{fmt or ''}")
    names = formats()
    fmt = fmt or rng.choice(names)
    if rng.random() < 0.1:
        data, how = rng.randbytes(rng.randint(0, 700)), "random"
    else:
        data, how = mutate(rng, random_deck(rng, fmt), random_deck(rng, rng.choice(names)))
    return Case(index, fmt, data, rng.random() < 0.5, rng.choice(format_names()), how)


# -- checks -------------------------------------------------------------------------------------------

def check_read(case: Case) -> Iterator[tuple[str, str]]:
    """Read the file strictly and leniently: cards or a CardError.  Yields (outcome, fault)."""
    for lenient in (False, True):
        step = f"read_deck{' lenient' if lenient else ''}"
        try:
            for _ in read_deck(io.BytesIO(case.data), case.fmt, lenient=lenient):
                pass
            yield f"{step}: cards", ""
        except CardError:
            yield f"{step}: clean error", ""
        except Exception as err:  # noqa: BLE001 - anything else is what we are looking for
            yield f"{step}: fault", f"{step} {case.fmt}: {type(err).__name__}: {err}"


def _main() -> Callable[[list[str]], int]:
    """:func:`ibm1013.cli.main.main` (it builds only the parser of the command run, so a small case
    no longer pays for every command's)."""
    from ibm1013.cli import main as cli

    return cli.main


def run_cli(argv: list[str]) -> tuple[int | None, str, str, str]:
    """Status, stdout, stderr and any exception text of ``ibm1013 ARGV`` run in-process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status: int | None = _main()(argv)
            problem = ""
        except SystemExit as exit_:
            status, problem = int(exit_.code or 0), ""
        except Exception as error:  # noqa: BLE001 - a traceback is a fault
            status, problem = None, f"{type(error).__name__}: {error}"
    return status, out.getvalue(), err.getvalue(), problem


def check_cli(case: Case, workdir: str) -> Iterator[tuple[str, str]]:
    """``cards decode`` and ``cards convert`` on the file.  Yields (outcome, fault)."""
    source = os.path.join(workdir, "in.deck")
    with open(source, "wb") as f:
        f.write(case.data)
    decode = ["decode", source, "--format", case.fmt] + (["--lenient"] if case.lenient else [])
    convert = ["convert", source, "TARGET", "--from", case.fmt, "--to", case.target]
    for name, argv in (("decode", decode + ["-o", "TARGET"]), ("convert", convert)):
        target = os.path.join(workdir, f"out-{case.index}-{name}")
        argv = [target if a == "TARGET" else a for a in argv]
        status, out, err, problem = run_cli(["cards", *argv])
        step = f"cards {name}" + (" --lenient" if name == "decode" and case.lenient else "")
        fault = _judge(status, out, err, problem, target, workdir)
        shown = " ".join(os.path.relpath(a, workdir) if a.startswith(workdir) else a for a in argv[1:])
        yield f"{step}: {'fault' if fault else ('ok' if status == 0 else 'clean error')}", (
            f"{step} {shown}: {fault}" if fault else "")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(target)


def _judge(status: int | None, out: str, err: str, problem: str, target: str, workdir: str) -> str:
    """What is wrong with one command's outcome ('' if nothing)."""
    left = [n for n in os.listdir(workdir) if n.startswith(".~")]
    if left:
        for name in left:
            os.unlink(os.path.join(workdir, name))
        return f"temporary file left behind: {left}"
    if problem:
        return f"exception escaped: {problem}"
    if status == 0:
        if not os.path.exists(target):
            return "exit 0 but no output file"
        return "" if not out else f"unexpected stdout: {out[:200]!r}"
    if status != 2:
        return f"exit status {status} (stderr {err[:200]!r})"
    lines = err.splitlines()
    if len(lines) != 1 or not lines[0].startswith("ibm1013: ") or "Traceback" in err:
        return f"stderr is not one 'ibm1013: ' line: {err[:300]!r}"
    if os.path.exists(target):
        return "exit 2 but the output file was written"
    return ""


# -- the run ------------------------------------------------------------------------------------------

def run(files: int, seed: int, start: int = 0, keep: str | None = None,
        advance: Callable[[], None] | None = None) -> Report:
    """Fuzz ``files`` cases (``start`` … ``start + files - 1``) of ``seed``."""
    report = Report()
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="fuzz-cards-", dir=base) as workdir:
        for index in range(start, start + files):
            case = make_case(seed, index)
            report.files += 1
            report.bytes += len(case.data)
            report.formats[case.fmt] += 1
            for outcome, fault in [*check_read(case), *check_cli(case, workdir)]:
                report.outcomes[outcome] += 1
                if fault:
                    report.faults.append({"case": index, "format": case.fmt, "mutation": case.how,
                                          "fault": fault})
                    if keep:
                        os.makedirs(keep, exist_ok=True)
                        with open(os.path.join(keep, f"case-{seed}-{index}.{case.fmt}"), "wb") as f:
                            f.write(case.data)
            if advance:
                advance()
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.fuzz_cards", description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=60_000, help="cases to run (default 60000)")
    parser.add_argument("--seed", type=int, default=13, help="random seed (default 13)")
    parser.add_argument("--start", type=int, default=0, help="first case number (default 0)")
    parser.add_argument("--keep", metavar="DIR", help="save the input of every fault in DIR")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    args = parser.parse_args(argv)
    if args.files < 1 or args.start < 0:
        parser.error("--files must be at least 1 and --start at least 0")
    began = time.perf_counter()
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        with Progress("fuzzing decks", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task("files", total=args.files)
            report = run(args.files, args.seed, args.start, args.keep, lambda: progress.advance(task))
    else:
        report = run(args.files, args.seed, args.start, args.keep)
    seconds = time.perf_counter() - began
    summary = {
        "files": report.files, "bytes": report.bytes, "seed": args.seed, "start": args.start,
        "seconds": round(seconds, 1), "formats": dict(sorted(report.formats.items())),
        "outcomes": dict(sorted(report.outcomes.items())), "faults": len(report.faults),
        "first_faults": report.faults[:20],
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{report.files} files ({report.bytes} bytes), seed {args.seed}, in {seconds:.1f} s")
        for outcome, count in summary["outcomes"].items():
            print(f"  {outcome}: {count}")
        print(f"faults: {len(report.faults)}")
        for fault in report.faults[:20]:
            print(f"  case {fault['case']} ({fault['format']}, {fault['mutation']}): {fault['fault']}")
    if args.keep and not report.faults:
        shutil.rmtree(args.keep, ignore_errors=True)
    return 1 if report.faults else 0


if __name__ == "__main__":
    sys.exit(main())
