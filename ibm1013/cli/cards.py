"""``ibm1013 cards …``: punch text into decks, read decks back, convert, look at and count cards.

::

    ibm1013 cards encode TEXTFILE -o DECK [--code 029] [--format cbn] [--truncate] [--listing]
    ibm1013 cards decode DECK [-o TEXTFILE] [--code 029] [--format auto] [--lenient]
    ibm1013 cards convert IN OUT [--from auto] --to FORMAT
    ibm1013 cards show DECK [--card N] [--png FILE | --svg FILE]
    ibm1013 cards info DECK [--json]

``-`` is standard input or output.  ``--format auto`` detects the format from the first card as SIMH
does (CBN, BIN, else text; see :mod:`emulator.formats`); a file whose name ends in the extension
of a format that cannot be detected (``.ebcdic``/``.ebc``, ``.rbn``) is read in that format.  A
text file is read as a SIMH text deck (one line per card, ``~`` lines for raw and end-of-file
cards; see :mod:`emulator.formats.text`).  Decks stream through in chunks, so size does not
matter; output goes to a temporary file that replaces the target only when all went well; the
output may not be the input file itself.  A text line longer than 80 columns is refused by
``encode`` (``--truncate`` cuts it and says how many were cut), and so is a character no text shows
(a control character: the card would not decode); ``decode`` and ``info`` read a long line's first 80
columns, as SIMH does, and say so.  Bad input is one line on stderr naming the file, card (or line)
and column, exit status 2.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

from emulator.card import Card
from emulator.codes import get_code
from emulator.errors import CardError, IbmError
from emulator.formats import FORMAT_NAMES
from ibm1013.cli.deckfiles import (
    counting_long_lines,
    display_name,
    listing,
    located,
    open_deck,
    output,
    pipe,
    reading,
    refuse_same_file,
    say_cut,
    writing,
)
from ibm1013.cli.decode import OK, advise, decode, fit_code

TYPE_CHECKING = False  # typing is not imported at run time: every command reading a deck comes here
if TYPE_CHECKING:  # numpy is imported when a command needs it
    import argparse
    from typing import Any

    from ibm1013.cli.commands import Listing

CODE_NOTE = ("not given, a binary deck whose punches fit only another code is read in that code, and one "
             "an 026 may have punched is told (docs/cards.md §2)")

MAX_SHEET = 1000
"""Most cards a contact sheet will hold (pick one card with ``--card`` for bigger decks)."""

FIRST_FEW = 5


ACTIONS: Listing = (
    ("encode", "cards:register_text", "punch a text file into a deck"),
    ("decode", "cards:register_text", "read a deck back as text"),
    ("convert", "cards:register_text", "convert a deck between formats"),
    ("show", "cards:register_looking", "draw cards in the terminal, or as PNG/SVG"),
    ("info", "cards:register_looking", "format, card count, invalid columns, EOF cards"),
    ("select", "cardroom", "pull cards out of a deck by number, content or holes"),
    ("sort", "cardroom", "sort a deck on one or more fields (stable)"),
    ("merge", "cardroom", "collate two sorted decks into one, as the 085/088 did"),
    ("sequence", "cardroom", "check sequence numbers, or punch new ones"),
    ("reproduce", "cardroom", "copy fields and gang-punch constants, as the 514 did"),
    ("cat", "cardroom", "join decks into one file"),
    ("split-decks", "cardroom", "write each deck of a stacked file to its own file"),
)
"""The actions of ``ibm1013 cards``, each parser built when its action is chosen
(:class:`~ibm1013.cli.commands.Commands`; ``tests/test_cli_commands.py`` checks the list)."""


# The parsers are built (and argparse imported) only when argparse parses a command line: ``ibm1013
# cards decode DECK`` is parsed without it (ibm1013.cli.start) and comes here for decode alone.

def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from emulator.codes import CODE_NAMES
    from ibm1013.cli.commands import Commands

    cards = subparsers.add_parser(
        "cards", help="punched-card decks: encode, decode, convert, show, info; sort, select, merge …",
        description="Punched-card decks. Codes: " + ", ".join(CODE_NAMES) + ". Formats: "
        + ", ".join(FORMAT_NAMES) + ". '-' is standard input or output.",
    )
    sub = cards.add_subparsers(dest="cards_command", metavar="ACTION", required=True, action=Commands)
    assert isinstance(sub, Commands)  # (argparse makes the action of the class it is given)
    sub.listing(ACTIONS)


def register_text(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``encode``, ``decode`` and ``convert``: text to deck, deck to text, deck to deck."""
    from ibm1013.cli import argtypes, options

    formats = list(FORMAT_NAMES)
    p = sub.add_parser("encode", help="punch a text file into a deck",
                       description="Punch each line of TEXTFILE into one card, as a keypunch in the "
                                   "given code would, and write the deck in the given format.")
    p.add_argument("text", metavar="TEXTFILE", help="text to punch, one card per line ('-' = standard input)")
    p.add_argument("-o", "--output", metavar="DECK", required=True, type=argtypes.output_file,
                   help="deck file to write ('-' = standard output)")
    options.CODE.add(p, default="029")
    p.add_argument("--format", default="cbn", choices=formats, metavar="FORMAT",
                   help="deck format: %(choices)s (default cbn)")
    p.add_argument("--truncate", action="store_true",
                   help="cut lines longer than 80 columns at column 80 and say how many (default: refuse)")
    p.add_argument("--listing", action="store_true",
                   help="TEXTFILE is a card listing, not one card a line: 'card' starts a card, then "
                        "'hex BYTES' (EBCDIC) and 'text |CHARS|' lines fill it; '#' comments")
    p.set_defaults(func=encode)

    p = sub.add_parser("decode", help="read a deck back as text",
                       description="Read DECK and print each card as a line of text in the given code; "
                                   "a punch the code does not know is an error naming card and column "
                                   "(or, with --lenient, the code's substitute character).")
    options.add_deck(p, help="deck file to read ('-' = standard input)")
    p.add_argument("-o", "--output", metavar="TEXTFILE", default="-", type=argtypes.output_file,
                   help="text file to write ('-' = standard output)")
    options.CODE.add(p, default="029", action=options.Given, note=CODE_NOTE)
    options.DECK_FORMAT.add(p, default="auto")
    p.add_argument("--lenient", action="store_true",
                   help="print the code's substitute for unknown punches (count on stderr)")
    p.set_defaults(func=decode)

    p = sub.add_parser("convert", help="convert a deck between formats",
                       description="Copy the deck IN to OUT in another format, card for card (the "
                                   "punches are kept, whatever they mean).")
    options.add_deck(p, "input", metavar="IN", help="deck file to read ('-' = standard input)")
    p.add_argument("output", metavar="OUT", type=argtypes.output_file,
                   help="deck file to write ('-' = standard output)")
    p.add_argument("--from", dest="source_format", default="auto", type=argtypes.deck_format_or_auto,
                   metavar="FORMAT", help="format of IN, as --format of the other commands: "
                   + options.DECK_FORMAT.help)
    p.add_argument("--to", dest="target_format", required=True, choices=formats, metavar="FORMAT",
                   help="format of OUT: %(choices)s")
    options.CODE.add(p, default="029")
    p.set_defaults(func=convert)


def register_looking(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``show`` and ``info``: a deck looked at, drawn or counted."""
    from ibm1013.cli import argtypes, options

    p = sub.add_parser("show", help="draw cards in the terminal, or as PNG/SVG",
                       description="Draw the cards of DECK with their holes and printed line: in the "
                                   "terminal, or as a picture of one card (--card N) or a contact sheet "
                                   f"of the whole deck (at most {MAX_SHEET} cards).")
    options.add_deck(p, help="deck file to read ('-' = standard input)")
    p.add_argument("--card", type=argtypes.POSITIVE_INT, metavar="N", help="only card N (1 = first)")
    pictures = p.add_mutually_exclusive_group()
    pictures.add_argument("--png", metavar="FILE", type=argtypes.output_file, help="write a PNG picture")
    pictures.add_argument("--svg", metavar="FILE", type=argtypes.output_file, help="write an SVG picture")
    options.CODE.add(p, default="029", note="and in the printed line")
    options.DECK_FORMAT.add(p, default="auto")
    p.set_defaults(func=show)

    p = sub.add_parser("info", help="format, card count, invalid columns, EOF cards",
                       description="Tell DECK's format, how many cards and end-of-file cards it holds, "
                                   "and which columns are not valid in the given code.")
    options.add_deck(p, help="deck file to read ('-' = standard input)")
    options.CODE.add(p, default="029", action=options.Given,
                     note=f"the columns are checked against it; {CODE_NOTE}")
    options.DECK_FORMAT.add(p, default="auto")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=info)


# -- commands -----------------------------------------------------------------------------------------

def encode(args: argparse.Namespace) -> int:
    from emulator.formats.text import LongLines

    if args.listing:
        return _encode_listing(args)
    long_lines = LongLines(truncate=args.truncate, hint=" (--truncate cuts such lines at column 80)")
    pipe(args.text, args.output, source_format="text", target_format=args.format, code=args.code,
          long_lines=long_lines, read_options={"text_only": True})
    say_cut(long_lines)
    return OK


def _encode_listing(args: argparse.Namespace) -> int:
    """Punch a card listing (:mod:`emulator.listing`): small by nature, read whole."""
    from emulator.formats import get_format
    from emulator.listing import read_listing

    if args.truncate:
        raise IbmError("--truncate is for text; a card listing longer than 80 columns is an error")
    refuse_same_file(args.text, args.output)
    with open_deck(args.text) as stream:
        try:
            lines = stream.read().decode("utf-8").splitlines()
        except UnicodeDecodeError as err:
            raise IbmError(f"{display_name(args.text)}: not UTF-8 text (byte {err.start + 1})") from None
    cards = read_listing(lines, code=args.code, source=display_name(args.text))
    with output(args.output) as out:
        try:
            get_format(args.format).write(cards, out, code=args.code)
        except CardError as err:
            raise located(err, args.text) from None
    return OK


def convert(args: argparse.Namespace) -> int:
    pipe(args.input, args.output, source_format=args.source_format, target_format=args.target_format,
          code=args.code)
    return OK




def show(args: argparse.Namespace) -> int:
    try:
        from emulator import render
    except ImportError as err:
        raise IbmError(f"card pictures are not available: {err}") from None
    if args.png or args.svg:
        refuse_same_file(args.deck, args.png or args.svg)
    from emulator.deck import iter_cards

    with reading(args.deck, args.format, code=args.code) as (_, arrays):
        cards = iter_cards(arrays)
        if args.card is not None:
            return _show_one(args, render, cards)
        if args.png or args.svg:
            deck = _sheet_cards(args, cards)
            if args.png:
                with writing(args.png):
                    pages = render.contact_sheet_png(deck, args.png, code=args.code,
                                                     title=os.path.basename(display_name(args.deck)))
                if len(pages) > 1:
                    print(f"{len(pages)} pages: {' '.join(pages)}", file=sys.stderr)
            else:
                with output(args.svg) as out:
                    out.write(render.contact_sheet_svg(deck, code=args.code,
                                                       title=os.path.basename(display_name(args.deck))).encode())
            return OK
        for number, card in enumerate(cards, 1):
            sys.stdout.write(f"card {number}" + (": end-of-file card\n" if card.is_eof else "\n"))
            if not card.is_eof:
                sys.stdout.write(render.card_terminal(card, code=args.code))
    return OK


def _show_one(args: argparse.Namespace, render: Any, cards: Iterator[Card]) -> int:
    number = 0
    for number, candidate in enumerate(cards, 1):
        if number == args.card:
            card = candidate
            break
    else:
        raise IbmError(f"{display_name(args.deck)}: no card {args.card} (the deck has {number})")
    if card.is_eof:
        raise IbmError(f"{display_name(args.deck)}: card {args.card} is an end-of-file card, "
                       "not a punched card")
    if args.png:
        with writing(args.png):
            render.card_png(card, args.png, code=args.code)
    elif args.svg:
        with output(args.svg) as out:
            out.write(render.card_svg(card, code=args.code).encode())
    else:
        sys.stdout.write(render.card_terminal(card, code=args.code))
    return OK


def _sheet_cards(args: argparse.Namespace, cards: Iterator[Card]) -> list[Card]:
    deck: list[Card] = []
    for card in cards:
        if len(deck) >= MAX_SHEET:
            raise IbmError(f"{display_name(args.deck)}: more than {MAX_SHEET} cards for a contact sheet; "
                           "pick one with --card N")
        deck.append(card)
    punched = [c for c in deck if not c.is_eof]
    if len(punched) < len(deck):
        print(f"ibm1013: {len(deck) - len(punched)} end-of-file card(s) left out of the sheet "
              "(its numbers count punched cards only)", file=sys.stderr)
    return punched


def info(args: argparse.Namespace) -> int:
    import numpy as np

    from emulator.deck import eof_rows, lookup
    from emulator.deckops.stacked import DeckCounter

    code = get_code(args.code)
    valid = np.zeros(4096, dtype=bool)
    valid[list(code.printing)] = True  # what decode prints: the columns it would refuse are invalid
    cards = eof = invalid = 0
    eof_at: list[int] = []
    invalid_at: list[tuple[int, int]] = []
    long_lines = counting_long_lines()
    decks = DeckCounter()
    seen = np.zeros(4096, dtype=bool)  # the patterns punched, for the codes they fit
    with reading(args.deck, args.format, code=args.code, long_lines=long_lines) as (fmt, arrays):
        for words in arrays:
            flags = eof_rows(words)
            decks.feed(flags)
            seen[words[~flags]] = True
            bad = ~lookup(valid, words)
            bad[flags] = False
            eof_at += [cards + eof + int(i) + 1 for i in np.flatnonzero(flags)[:FIRST_FEW - len(eof_at)]]
            if len(invalid_at) < FIRST_FEW:
                invalid_at += [(cards + eof + int(r) + 1, int(c) + 1)
                               for r, c in np.argwhere(bad)[: FIRST_FEW - len(invalid_at)]]
            invalid += int(np.count_nonzero(bad))
            n_eof = int(np.count_nonzero(flags))
            eof += n_eof
            cards += len(words) - n_eof
    found = fit_code(args, not fmt.textual, np.flatnonzero(seen).tolist(), every=True)
    if found is not None and found.detected:  # it fits every column
        code, invalid, invalid_at = get_code(found.detected), 0, []
    advise(args, found)
    stack = decks.decks()
    report = {
        "file": display_name(args.deck), "format": fmt.name, "cards": cards, "eof_cards": eof,
        "first_eof_cards": eof_at, "code": code.name, "invalid_columns": invalid,
        "first_invalid_columns": [list(p) for p in invalid_at],
        "long_lines": long_lines.count, "first_long_lines": long_lines.first,
        "decks": stack,
        "codes_that_fit": list(found.fits) if found is not None else None,
    }
    if args.json:
        import json  # here: only --json pays for it

        print(json.dumps(report))
        return OK
    print(f"{report['file']}: format {fmt.name} ({fmt.description})")
    print(f"cards: {cards}"
          + (f", plus {eof} end-of-file card{'s' if eof != 1 else ''} (at {listing(eof_at)})"
                               if eof else ""))
    if eof:
        from emulator.words import counted

        print(f"decks: {len(stack)} (" + ", ".join(
            f"{counted(d['cards'], 'card')} from card {d['first_card']}"
            for d in stack[:FIRST_FEW]) + (", …" if len(stack) > FIRST_FEW else "") + ")")
    where = ", ".join(f"card {c} column {col}" for c, col in invalid_at)
    print(f"columns not valid in code {code.name}: {invalid}" + (f" (first: {where})" if invalid else ""))
    if long_lines.count:
        first = "line" if len(long_lines.first) == 1 else "lines"
        print(f"lines longer than 80 columns, read as their first 80: {long_lines.count} "
              f"(first: {first} {listing(long_lines.first)})")
    return OK
