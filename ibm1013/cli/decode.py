"""``ibm1013 cards decode DECK``: a deck read back as text, the commonest command of all.

It is the one command :mod:`ibm1013.cli.start` answers without argparse, so it lives apart from the
other ``cards`` actions (:mod:`ibm1013.cli.cards` registers it): decoding a few cards imports this
module and the few deck files' functions it needs (:mod:`ibm1013.cli.deckpaths`), not the code of
every action nor every way a deck is read (:mod:`ibm1013.cli.deckfiles`).  A small
plain deck is decoded without numpy (:mod:`emulator.small_decks`); any other streams through the
bulk path, chunk by chunk, as ``cards convert`` does.  When the punches fit only another code, or an
026 may have punched them, the deck is read in that code or the code to try is named
(:mod:`emulator.codes.detect`).
"""

from __future__ import annotations

import sys

from emulator.codes import Substitutions, get_code
from emulator.errors import CodeError, IbmError
from ibm1013.cli.deckpaths import display_name, output, read_small, refuse_same_file

TYPE_CHECKING = False  # typing is not imported at run time: this is the fastest command's path
if TYPE_CHECKING:  # numpy is imported when a deck is read in bulk
    import argparse
    from collections.abc import Iterable

    import numpy as np

    from emulator.codes.detect import CodeFit
    from emulator.formats import DeckFormat

OK = 0
"""The exit status of a command that did all it was asked (:attr:`~emulator.errors.ExitStatus.OK`),
named without importing :mod:`enum`: every command reading a deck comes here, ``cards decode`` of a
few cards the fastest of them (:mod:`emulator.exit_status`; tests/test_startup.py checks the two agree)."""


def fit_code(args: argparse.Namespace, binary: bool, patterns: Iterable[int],
             every: bool = False) -> CodeFit | None:
    """How a binary deck's punched ``patterns`` fit ``--code`` (None for a text deck, whose characters
    are what was typed); ``every``: try every code even where ``--code`` fits (``cards info`` lists
    them; decoding needs only the advice, :func:`~emulator.codes.detect.fit`)."""
    from emulator.codes.detect import fit

    if not binary:
        return None
    return fit(patterns, args.code, chosen=getattr(args, "code_given", False), every=every)


def advise(args: argparse.Namespace, found: CodeFit | None) -> None:
    """Print ``found``'s advice, if any, as one line on stderr naming the deck."""
    if found is not None and found.advice():
        print(f"ibm1013: {display_name(args.deck)}: {found.advice()}", file=sys.stderr)


def decode(args: argparse.Namespace) -> int:
    """``ibm1013 cards decode``: a small plain deck here, without numpy; any other deck streamed
    through the bulk path (:func:`ibm1013.cli.deckfiles.pipe`, imported then), chunk by chunk."""
    if not args.lenient and _decode_small(args):
        return OK
    from ibm1013.cli.deckfiles import counting_long_lines, pipe, report_substitutions, say_cut

    subs = Substitutions()
    lenient = {"lenient": True, "substitutions": subs} if args.lenient else {}
    long_lines = counting_long_lines()
    fits: list[CodeFit | None] = []

    def code_for(fmt: DeckFormat, first: np.ndarray) -> str:
        """The code to print in: ``--code``, or the only one the first chunk's punches fit."""
        import numpy as np

        from emulator.deck import eof_rows

        fits.append(fit_code(args, not fmt.textual, np.unique(first[~eof_rows(first)]).tolist()))
        advise(args, fits[0])
        return (fits[0] and fits[0].detected) or args.code

    try:
        pipe(args.deck, args.output, source_format=args.format, target_format="text", code=args.code,
             long_lines=long_lines, read_options=lenient, write_options={"raw": False, **lenient},
             code_for=code_for)
    except CodeError as err:  # the advice, if any, is on the line above: say it is the cause
        tries = fits and fits[0] and fits[0].alternatives
        raise (err if not tries else IbmError(f"{err} (see above: --code {tries[0]})")) from None
    report_substitutions(subs)
    say_cut(long_lines)
    return OK


def _decode_small(args: argparse.Namespace) -> bool:
    """Decode a small plain deck without numpy (:func:`~ibm1013.cli.deckfiles.read_small`); False if
    it is not one, and then the bulk path reads it (and words any error)."""
    from emulator import small_decks

    small = read_small(args.deck, args.format, code=args.code)
    if small is None:
        return False
    fmt, cards = small
    found = fit_code(args, fmt != "text", set().union(*cards))
    text = small_decks.lines(cards, get_code((found and found.detected) or args.code))
    if text is None:
        return False
    advise(args, found)
    refuse_same_file(args.deck, args.output)
    with output(args.output) as out:
        out.write(text)
    return True
