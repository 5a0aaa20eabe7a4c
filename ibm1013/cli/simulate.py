"""``ibm1013 simulate``: two IBM 1013s on a simulated line, sending a deck.

::

    ibm1013 simulate deck.cbn                       # 1200 bit/s, full duplex, 80 columns
    ibm1013 simulate deck.cbn --columns auto --ber 1e-4 --seed 7 -o copy.cbn --json
    ibm1013 simulate deck.cbn --duplex half --timeline run.png
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from emulator.errors import ExitStatus, IbmError
from emulator.words import cards
from ibm1013.cli import argtypes, options

if TYPE_CHECKING:
    import numpy as np

    from emulator.card import Card
    from ibm1013.sim.transfer import Transfer, TransferConfig


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "simulate", help="simulate sending a deck between two IBM 1013s (SimPy)",
        description="Send DECK from one simulated IBM 1013 to another over a simulated line and "
                    "report cards per minute, retransmissions and errors.  Defaults reproduce the "
                    "documented 100 cards/min (1200 bit/s, full duplex, 80 columns).  Exit status: 0 "
                    "when every card arrived, 1 when some did not, 2 for bad input.",
    )
    options.add_deck(p, nargs="?", help="deck file to send ('-' = standard input)")
    p.add_argument("--parameters", action="store_true",
                   help="list every model parameter with its default and source, and exit")
    options.DECK_FORMAT.add(p, default="auto", note="for -o, auto is its extension's format, else cbn")
    options.CODE.add(p, default="029")
    add_transfer_options(p)
    p.add_argument("--start-at", type=argtypes.POSITIVE_INT, default=1, metavar="CARD",
                   help="start at this card (resume after a cut)")
    options.SEED.add(p, default=0)
    p.add_argument("-o", "--output", default=None, metavar="RECEIVED_DECK", type=argtypes.output_file,
                   help="write the cards the receiver punched (format from --format or the extension)")
    options.TIMELINE.add(p, default=None)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_simulate)


def add_transfer_options(p: argparse.ArgumentParser, *, theory: bool = False) -> None:
    """The options that shape the line, the records and what a card given up does, as ``simulate``
    takes them (``theory`` takes the same, so one command line can be simulated and worked out;
    ``theory``: say in the help what the theory refuses, :func:`ibm1013.cli.theory.theory_setting`)."""
    notes = THEORY_REFUSES if theory else {}
    options.BIT_RATE.add(p, default=1200, note=notes.get("--bit-rate"))
    options.DUPLEX.add(p, default="full")
    options.TURNAROUND.add(p, default=0.2)
    options.COLUMNS.add(p, default="80", note=notes.get("--columns"))
    options.COLUMN_BINARY.add(p, action="store_true")
    options.MECHANICS.add(p, default="none", note=notes.get("--mechanics"))
    options.BER.add(p, default=0.0)
    options.BURST.add(p, default=None)
    options.CUT_AT.add(p, default=None, note=notes.get("--cut-at"))
    options.ON_GIVE_UP.add(p, default=options.DEFAULT_ON_GIVE_UP)


THEORY_REFUSES = {
    "--bit-rate": "the theory refuses a line too slow for STR's reply and idle timers (the slowest rate it "
                  "takes for a layout is named when it refuses)",
    "--columns": "the theory refuses auto (each card would have its own record length)",
    "--mechanics": "the theory refuses overlap (a pipeline's pace is a race)",
    "--cut-at": "the theory refuses a cut (it covers a line that stays up)",
}
"""What ``theory --help`` says it refuses, option by option (``tests/test_settings_contract.py``
holds each against what the theory does refuse)."""


def transfer_config(args: argparse.Namespace, *, seed: int = 0, first_card: int = 1,
                    timeline: bool = False) -> TransferConfig:
    """The :class:`~ibm1013.sim.transfer.TransferConfig` of :func:`add_transfer_options`' options
    (``seed``, ``first_card`` and ``timeline`` as :meth:`~ibm1013.sim.transfer.TransferConfig.build`
    takes them)."""
    from ibm1013.sim.transfer import TransferConfig

    return TransferConfig.build(
        bit_rate=args.bit_rate, duplex=args.duplex, columns=args.columns,
        column_binary=args.column_binary, ber=args.ber, burst=args.burst, cut_at=args.cut_at,
        mechanics=args.mechanics, turnaround_s=args.turnaround, on_give_up=args.on_give_up, seed=seed,
        first_card=first_card, timeline=timeline)


def read_deck(args: argparse.Namespace) -> np.ndarray:
    """The deck named by ``args.deck`` (``-`` = standard input), in ``--format`` and ``--code``, as
    an ``(n, 80)`` array of words: as every command reads one (:func:`~ibm1013.cli.deckfiles.reading`);
    an empty deck is refused (:func:`~ibm1013.cli.deckfiles.require_cards`)."""
    from ibm1013.cli.deckfiles import load_deck, require_cards

    words = load_deck(args.deck, args.format, code=args.code)[1]
    require_cards(len(words), "<stdin>" if args.deck == "-" else args.deck)
    return words


def cmd_simulate(args: argparse.Namespace) -> int:
    from emulator.atomic import atomic_output
    from emulator.formats import output_format, write_deck
    from ibm1013.str.events import COMPLETE

    if args.parameters:
        print(parameter_table())
        return ExitStatus.OK
    if args.deck is None:
        raise IbmError("simulate needs a DECK file (or --parameters)")
    out_fmt = output_format(args.output, args.format) if args.output else None
    warn_too_slow(transfer_config(args))
    transfer = simulated(args, progress=not args.json)
    report = transfer.report
    if out_fmt is not None:  # (--output given)
        with writing(args.output), atomic_output(args.output) as out:
            write_deck(transfer.received_cards(), out, out_fmt, code=args.code)
    if args.timeline:
        from ibm1013.sim.timeline import draw

        with writing(args.timeline):
            draw(transfer.timeline, args.timeline,
                 title=f"{os.path.basename(args.deck)}: {args.bit_rate} bit/s, {args.duplex} duplex, "
                       f"{transfer.layout.describe()}")
    print(report.to_json() if args.json else report.to_text())
    # the far end holds every card
    return ExitStatus.OK if report.ended == COMPLETE else ExitStatus.INCOMPLETE


def simulated(args: argparse.Namespace, deck: Sequence[Card] | np.ndarray | None = None, *,
              progress: bool = False) -> Transfer:
    """The transfer ``simulate`` runs (and :func:`ibm1013.simulate`): the deck of ``args.deck`` (or
    ``deck``, cards or a deck array, when given) sent with the settings of ``args``, ``--start-at``
    checked against the deck first; a progress bar for a long deck on a terminal with ``progress``."""
    from emulator.errors import CardError
    from ibm1013.cli.deckfiles import require_cards
    from ibm1013.sim.transfer import run_transfer

    words = read_deck(args) if deck is None else deck
    require_cards(len(words), "the deck")  # (read_deck refuses an empty file, naming it)
    if args.start_at > len(words) + 1:  # --start-at is a positive integer (its type)
        raise IbmError(f"--start-at {args.start_at}: the deck has {cards(len(words))}")
    config = transfer_config(args, seed=args.seed, first_card=args.start_at,
                             timeline=bool(getattr(args, "timeline", None)))
    try:
        return _run_with_progress(run_transfer, words, config, quiet=not progress)
    except CardError as err:
        if args.deck is None:
            raise
        raise err.located(source="<stdin>" if args.deck == "-" else args.deck) from None


def warn_too_slow(config: TransferConfig) -> None:
    """A line too slow for STR's timers (the theory's check, :class:`ibm1013.theory.TooSlow`), named
    on standard error before the run: the session will end ``no answer``, and this says why."""
    from ibm1013.theory import Setting, TheoryError, TooSlow

    try:
        Setting.of(config)
    except TooSlow as err:
        print(f"ibm1013: warning: {err}", file=sys.stderr)
    except TheoryError:
        pass  # a setting only the theory does not cover: the simulation does


@contextmanager
def writing(path: str) -> Iterator[None]:
    """An OS error while writing ``path`` (a full disk, say) as one line; the atomic write has already
    removed its temporary file, so nothing is left behind."""
    try:
        yield
    except OSError as err:
        raise IbmError(f"{path}: {err.strerror or err}") from None


def parameter_table() -> str:
    """Every parameter of the model: name, default, source (the docs/ page and section, or our estimate)."""
    from ibm1013.sim.transfer import CircuitConfig, MechanicsConfig
    from ibm1013.str import SessionConfig, parameter_sources

    lines = []
    for title, obj in (("session (STR line control)", SessionConfig()), ("line", CircuitConfig()),
                       ("mechanics", MechanicsConfig())):
        lines.append(f"{title}:")
        for name, value, source in parameter_sources(obj):
            shown = value.describe() if hasattr(value, "describe") else value
            lines.append(f"  {name:20s} {str(shown):28s} {source}")
    return "\n".join(lines)


def _run_with_progress(
    run: Callable[..., Transfer], words: Sequence[Card] | np.ndarray, config: TransferConfig, *, quiet: bool,
) -> Transfer:
    if quiet or len(words) < 20_000 or not sys.stderr.isatty():
        return run(words, config)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  transient=True) as progress:
        task = progress.add_task("cards", total=len(words) - config.first_card + 1)
        return run(words, config, on_progress=lambda n: progress.update(task, completed=n))
