"""``ibm1013 cards select|sort|merge|sequence|reproduce|cat|split-decks``: the card room's jobs.

::

    ibm1013 cards select DECK -o OUT [--cards 10-20,40-] [--where COLS=TEXT] [--punched COL:ROWS] [--invert]
    ibm1013 cards sort DECK -o OUT --by 73-80 [--by 1-6 …] [--numeric] [--descending] [--pockets]
    ibm1013 cards merge A B -o OUT --by 73-80 [--match A_REST B_REST]
    ibm1013 cards sequence DECK --check [COLS] [--step N]
    ibm1013 cards sequence DECK --renumber [COLS] -o OUT [--start N] [--step N] [--prefix TEXT]
    ibm1013 cards reproduce DECK -o OUT --copy 1-10:71-80 … [--gang 73-76=PROG …] [--only]
    ibm1013 cards cat A B … -o OUT [--eof]
    ibm1013 cards split-decks DECK DIR [--name NAME]

A thin layer over :mod:`emulator.deckops`: every spec is parsed into its value when the command
line is read (:mod:`ibm1013.cli.argtypes`), text in specs is checked against the code before any
card is read, the input's format is detected (``--format`` names it), the output's comes from its
extension (else the input's; ``--to`` names it), and output goes through a temporary file.  Select,
reproduce and renumber stream chunk by chunk; merge and check hold the deck as one array (160 bytes
a card); sort keeps only its key columns and copies the cards out of the file by their place
(:mod:`emulator.deckops.filesort`).  ``--json`` prints one JSON object of what was done.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from emulator.atomic import NewFiles
from emulator.codes import get_code
from emulator.deckops.fields import Field
from emulator.errors import CardError, ExitStatus, IbmError
from emulator.formats import DeckFormat, get_format, output_format, write_deck_arrays
from emulator.words import cards
from ibm1013.cli import argtypes, options
from ibm1013.cli.deckfiles import (
    display_name,
    load_deck,
    located,
    locating,
    output,
    reading,
    refuse_binary_to_terminal,
    refuse_same_file,
    scanning,
    writing,
)

if TYPE_CHECKING:  # numpy and the card-room modules are imported when a command runs
    import numpy as np

    from emulator.deckops.keys import SortKey
    from emulator.deckops.sequence import SequenceReport

Arrays = Iterator["np.ndarray"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the card-room actions to the ``cards`` group's subparsers."""
    for add in (_add_select_and_sort, _add_merge, _add_sequence, _add_reproduce, _add_cat_and_split):
        add(sub)


def _add_select_and_sort(sub: Any) -> None:
    p = _action(sub, "select", "pull cards out of a deck by number, content or holes",
                "Write the cards of DECK that pass every test given (card numbers count every card of "
                "the file, end-of-file cards too; content tests never take an end-of-file card). "
                "--invert writes the others, so a select and its inverse split the deck.")
    p.add_argument("--cards", type=argtypes.card_ranges, metavar="N-M,…",
                   help="card numbers, like 10-20,40- (an open end runs to the last card)")
    p.add_argument("--where", type=argtypes.field_text, action="append", default=[], metavar="COLS=TEXT",
                   help="cards with exactly TEXT punched in COLS, like 73-76=PROG (repeatable)")
    p.add_argument("--punched", type=argtypes.punched_holes, action="append", default=[], metavar="COL:ROWS",
                   help="cards with at least these holes in one column, like 80:12 or 1:11-0 (repeatable)")
    p.add_argument("--invert", action="store_true", help="write the cards that fail the tests instead")
    p.set_defaults(func=cmd_select)

    p = _action(sub, "sort", "sort a deck on one or more fields (stable)",
                "Sort each deck of DECK on the --by fields, the first the most significant, in the "
                "collating sequence of the code (EBCDIC for 029-family codes, the 1401's BCD sequence "
                "for the 026 family). Cards with equal keys keep their order.")
    _keys(p)
    p.add_argument("--pockets", action="store_true",
                   help="sort as the IBM 083 did, a column a pass into its pockets (digits one pass, "
                        "zones a second), and report the passes and the minutes at 1,000 cards a minute")
    p.set_defaults(func=cmd_sort)


def _add_merge(sub: Any) -> None:
    p = sub.add_parser("merge", help="collate two sorted decks into one, as the 085/088 did",
                       description="Merge A (primary) and B (secondary), both sorted on the --by fields, "
                                   "into OUT; on equal keys A's card comes first. An unsorted input is "
                                   "an error naming the card. --match keeps the cards whose key the other "
                                   "deck lacks out of OUT, in A_REST and B_REST.")
    options.add_deck(p, "a", metavar="A", help="primary deck ('-' = standard input)")
    options.add_deck(p, "b", metavar="B", help="secondary deck")
    _common(p)
    _keys(p)
    p.add_argument("--match", nargs=2, type=argtypes.output_file, metavar=("A_REST", "B_REST"),
                   help="write only matched cards to OUT, and the unmatched cards of A and of B to these")
    p.set_defaults(func=cmd_merge)


def _add_sequence(sub: Any) -> None:
    p = sub.add_parser("sequence", help="check sequence numbers, or punch new ones",
                       description="--check reports cards out of order, duplicate and missing sequence "
                                   "numbers (a label, then digits, in COLS; default 73-80) and exits 1 if "
                                   "there are any. --renumber punches PREFIX and START, START+STEP … "
                                   "into COLS of every card and writes the deck to OUT.")
    options.add_deck(p, help="deck file to read ('-' = standard input)")
    what = p.add_mutually_exclusive_group(required=True)
    seq_cols = Field(73, 80)
    what.add_argument("--check", nargs="?", const=seq_cols, type=argtypes.card_field, metavar="COLS",
                      help="check the sequence numbers in COLS (73-80 if not given)")
    what.add_argument("--renumber", nargs="?", const=seq_cols, type=argtypes.card_field, metavar="COLS",
                      help="punch new sequence numbers into COLS (73-80 if not given)")
    _output_options(p, "deck file to write (needed with --renumber; '-' = standard output)", required=False)
    p.add_argument("--start", type=argtypes.COUNT, default=10, help="first number when renumbering")
    p.add_argument("--step", type=argtypes.POSITIVE_INT,
                   help="step between numbers (default: 10 when renumbering; when checking, the "
                        "deck's commonest gap)")
    p.add_argument("--prefix", default="", metavar="TEXT",
                   help="label punched before the number when renumbering (default: none)")
    _common(p, output=False)
    p.set_defaults(func=cmd_sequence)


def _add_reproduce(sub: Any) -> None:
    p = _action(sub, "reproduce", "copy fields and gang-punch constants, as the 514 did",
                "Punch a new deck from DECK through a plugboard: --copy wires columns read to columns "
                "punched (copies read the old card, so fields can trade places), --gang punches the "
                "same text into every card. Other columns are copied straight unless --only.")
    p.add_argument("--copy", type=argtypes.copy_wire, action="append", default=[], metavar="FROM:TO",
                   help="copy columns FROM to columns TO of one width, like 1-10:71-80 (repeatable)")
    p.add_argument("--gang", type=argtypes.field_text, action="append", default=[], metavar="COLS=TEXT",
                   help="punch TEXT into COLS of every card, like 73-76=PROG (repeatable)")
    p.add_argument("--only", action="store_true", help="leave the columns not wired blank")
    p.set_defaults(func=cmd_reproduce)


def _add_cat_and_split(sub: Any) -> None:
    p = sub.add_parser("cat", help="join decks into one file",
                       description="Write the decks one after the other into OUT (each input's format "
                                   "detected); --eof puts an end-of-file card between them, making a "
                                   "stacked file (text and cbn hold end-of-file cards).")
    options.add_deck(p, "decks", nargs="+", help="deck files to join, in order")
    _common(p)
    p.add_argument("--eof", action="store_true", help="an end-of-file card between each two decks")
    p.set_defaults(func=cmd_cat)

    p = sub.add_parser("split-decks", help="write each deck of a stacked file to its own file",
                       description="Cut DECK at its end-of-file cards and write each deck to "
                                   "DIR/NAME-1.EXT, DIR/NAME-2.EXT … (EXT the --to format's, else the "
                                   "input's). For Hercules, give the files to one reader with multifile.")
    options.add_deck(p, help="stacked deck file to read ('-' = standard input)")
    p.add_argument("directory", metavar="DIR", type=argtypes.output_directory, help="directory for the decks")
    p.add_argument("--name", metavar="NAME", help="file name stem (default: DECK's stem)")
    _common(p, output=False)
    p.add_argument("--to", dest="target_format", type=argtypes.deck_format, metavar="FORMAT",
                   help="format of the decks written (default: the input's)")
    p.set_defaults(func=cmd_split)


def _action(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, summary: str, description: str,
) -> argparse.ArgumentParser:
    p = sub.add_parser(name, help=summary, description=description)
    options.add_deck(p, help="deck file to read ('-' = standard input)")
    _common(p)
    return p


def _common(p: argparse.ArgumentParser, *, output: bool = True) -> None:
    if output:
        _output_options(p, "deck file to write ('-' = standard output)", required=True)
    options.DECK_FORMAT.add(p, default="auto")
    options.CODE.add(p, default="029", note="and in the text of specs; its collating sequence sorts")
    p.add_argument("--json", action="store_true", help="print what was done as one JSON object")


def _output_options(p: argparse.ArgumentParser, text: str, *, required: bool) -> None:
    p.add_argument("-o", "--output", metavar="OUT", required=required, type=argtypes.output_file, help=text)
    p.add_argument("--to", dest="target_format", type=argtypes.deck_format, metavar="FORMAT",
                   help="format of OUT (default: from its extension, else the input's format)")


def _keys(p: argparse.ArgumentParser) -> None:
    p.add_argument("--by", type=argtypes.card_field, action="append", required=True, metavar="COLS",
                   help="key field, like 73-80; repeat for more keys, the first the most significant")
    p.add_argument("--numeric", action="store_true",
                   help="read the keys as numbers (digits, blanks skipped, an 11 punch for minus)")
    p.add_argument("--descending", action="store_true", help="highest key first (ties keep their order)")


# -- plumbing ------------------------------------------------------------------------------------------

def _sort_keys(args: argparse.Namespace) -> list[SortKey]:
    from emulator.deckops.keys import SortKey

    return [SortKey(f, numeric=args.numeric, descending=args.descending) for f in args.by]


def _punches(code: str, text: str, what: str) -> tuple[int, ...]:
    """Column words of ``text`` in ``code``; a character the code lacks is one line naming ``what``."""
    try:
        return get_code(code).encode(text)
    except CardError as err:
        raise IbmError(f"{what}: {err.reason}") from None


def _load(path: str, args: argparse.Namespace) -> tuple[DeckFormat, np.ndarray]:
    return load_deck(path, args.format, code=args.code)


def _write(path: str, arrays: Iterable[np.ndarray], fmt: str, code: str) -> None:
    with output(path) as out:
        try:
            write_deck_arrays(arrays, out, fmt, code=code)
        except CardError as err:
            raise err.located(source=_out_name(path)) from None


def _target(args: argparse.Namespace, path: str, source: str) -> str:
    """The format to write ``path`` in (refused on a terminal if binary)."""
    target = output_format(path if path != "-" else "", args.target_format, default=source)
    refuse_binary_to_terminal(path, target)
    return target


def _stream(args: argparse.Namespace, work: Callable[[Arrays], Arrays]) -> dict[str, Any]:
    """Read ``args.deck`` chunk by chunk through ``work`` into ``args.output``; count what went by."""
    refuse_same_file(args.deck, args.output)
    counts = {"cards_in": 0, "cards_out": 0}

    def counted(arrays: Arrays, key: str) -> Arrays:
        for words in arrays:
            counts[key] += len(words)
            yield words

    with reading(args.deck, args.format, code=args.code) as (fmt, arrays):
        target = _target(args, args.output, fmt.name)
        worked = locating(work(counted(arrays, "cards_in")), args.deck)  # its errors are the input's
        _write(args.output, counted(worked, "cards_out"), target, args.code)
    return {"file": display_name(args.deck), "format": fmt.name, "output": _out_name(args.output),
            "output_format": target, **counts}


def _out_name(path: str) -> str:
    return "<stdout>" if path == "-" else path


def _done(args: argparse.Namespace, report: dict[str, Any], line: str,
          status: ExitStatus = ExitStatus.OK) -> int:
    """Print the summary (JSON with ``--json``), on standard error when the deck went to standard
    output."""
    stream = sys.stderr if getattr(args, "output", None) == "-" else sys.stdout
    if args.json:
        print(json.dumps(report), file=stream)
    elif line:
        print(line, file=stream)
    return status


# -- commands -----------------------------------------------------------------------------------------

def cmd_select(args: argparse.Namespace) -> int:
    from emulator.deckops.select import Selection, select

    if args.cards is None and not args.where and not args.punched:
        raise IbmError("select what? give --cards, --where or --punched")
    where = [(f, _punches(args.code, text, f"--where {f}={text}")) for f, text in args.where]
    selection = Selection(args.cards, where, args.punched, args.invert)
    report = _stream(args, lambda arrays: select(arrays, selection))
    return _done(args, report, f"{report['cards_out']} of {cards(report['cards_in'])} to {report['output']}")


def cmd_sort(args: argparse.Namespace) -> int:
    from emulator.deckops import sort as sorter

    keys = _sort_keys(args)
    if args.pockets and args.numeric:
        raise IbmError("--pockets sorts columns as the 083 did, not numbers: leave out --numeric")
    refuse_same_file(args.deck, args.output)
    if args.pockets:
        from emulator.deck import eof_rows

        fmt, words = _load(args.deck, args)
        job = sorter.sort_083(words, keys)
        report = _sort_report(args, fmt, eof_rows(words), keys)
        report.update(passes=job.passes, minutes_083=round(job.minutes, 3))
        took = f"{job.minutes:.1f} minutes" if job.minutes >= 1 else f"{job.minutes * 60:.1f} seconds"
        line = (f"{cards(report['cards'])} sorted on {', '.join(report['keys'])} to {report['output']}"
                f"\n083: {job.passes} pass{'' if job.passes == 1 else 'es'} of {cards(job.cards)}, "
                f"{cards(job.passes * job.cards)} fed, {took} at {sorter.SORTER_CARDS_PER_MINUTE} cards "
                "a minute")
        target = _target(args, args.output, fmt.name)
        _write(args.output, [job.words], target, args.code)
        report["output_format"] = target
        return _done(args, report, line)
    return _sort_by_index(args, keys)


def _sort_report(args: argparse.Namespace, fmt: DeckFormat, eof: np.ndarray,
                 keys: list[SortKey]) -> dict[str, Any]:
    import numpy as np

    ends = np.flatnonzero(eof)
    decks = len(ends) + (not len(ends) or int(ends[-1]) + 1 < len(eof))  # as stacked.split cuts them
    return {"file": display_name(args.deck), "format": fmt.name, "output": _out_name(args.output),
            "cards": int(np.count_nonzero(~eof)), "decks": decks, "keys": [str(k.field) for k in keys]}


def _sort_by_index(args: argparse.Namespace, keys: list[SortKey]) -> int:
    """Sort on the key columns alone and write the cards by their place in the order: copied from
    the file as they stand where that is exactly what the writer would write
    (:mod:`emulator.deckops.filesort`), else taken from the deck held as column words."""
    import numpy as np

    from emulator.deck import CHUNK_CARDS, keep_freed_memory
    from emulator.deckops import filesort
    from emulator.deckops import sort as sorter

    keep_freed_memory()  # the blocks of the first pass come and go: no page faults for each

    given = output_format(args.output if args.output != "-" else "", args.target_format, default="")
    span = filesort.key_span([k.field for k in keys])
    with scanning(args.deck, args.format, code=args.code, span=span, copy_to=given) as (fmt, scan):
        pass  # the scan reads it whole; leaving reports any long lines, as load_deck does
    report = _sort_report(args, fmt, scan.eof, keys)
    line = f"{cards(report['cards'])} sorted on {', '.join(report['keys'])} to {report['output']}"
    try:
        order = sorter.order_of_columns(scan.columns, scan.eof, keys, args.code, span.first)
    except CardError as err:
        raise located(err, args.deck) from None
    scan.columns = np.empty((0, span.width), dtype=np.uint16)  # sorted: free them before the output
    target = _target(args, args.output, fmt.name)
    if scan.copies:
        with output(args.output) as out:
            filesort.write_sorted(scan, order, out)
    else:
        words = scan.words
        assert words is not None  # the records are not copied: the deck is held as words
        chunks = (np.take(words, order[i:i + CHUNK_CARDS], axis=0) for i in range(0, len(order), CHUNK_CARDS))
        _write(args.output, chunks, target, args.code)
    report["output_format"] = target
    return _done(args, report, line)


def cmd_merge(args: argparse.Namespace) -> int:
    import numpy as np

    from emulator.deckops import merge as collator

    keys = _sort_keys(args)
    outputs = [args.output, *(args.match or [])]
    for source in (args.a, args.b):
        for target in outputs:
            refuse_same_file(source, target)
    if len(set(outputs)) < len(outputs):
        raise IbmError(f"give each output a file of its own, not {' '.join(outputs)}")
    fmt, a = _load(args.a, args)
    _, b = _load(args.b, args)
    done = collator.merge(a, b, keys, args.code, sources=(display_name(args.a), display_name(args.b)))
    target = _target(args, args.output, fmt.name)
    if args.match:
        parts = [(args.output, done.matched), (args.match[0], done.from_a & ~done.matched),
                 (args.match[1], ~done.from_a & ~done.matched)]
        for path, chosen in parts:
            _write(path, [np.compress(chosen, done.words, axis=0)], _target(args, path, fmt.name), args.code)
    else:
        _write(args.output, [done.words], target, args.code)
    report = {"a": display_name(args.a), "b": display_name(args.b), "output": _out_name(args.output),
              "output_format": target, "keys": [str(k.field) for k in keys], **done.counts}
    c = done.counts
    line = f"{cards(c['cards'])} ({c['from_a']} from A, {c['from_b']} from B) to {report['output']}"
    line += f"; matched {c['matched_a']} of A, {c['matched_b']} of B" if args.match else ""
    return _done(args, report, line)


def cmd_sequence(args: argparse.Namespace) -> int:
    from emulator.deckops import sequence

    if args.check is not None:
        if args.output is not None:
            raise IbmError("--check writes no deck: leave out -o")
        sequence.check_field(args.check)
        _, words = _load(args.deck, args)
        checked = sequence.check(words, args.check, args.code, step=args.step)
        return _done(args, {"file": display_name(args.deck), **checked.as_dict()}, _check_text(checked),
                     ExitStatus.OK if checked.in_order else ExitStatus.INCOMPLETE)
    if args.output is None:
        raise IbmError("--renumber writes a new deck: give -o OUT")
    label = _punches(args.code, args.prefix, f"--prefix {args.prefix}")
    numbering = sequence.Numbering(args.renumber, args.start, args.step or 10, label)
    report = _stream(args, lambda arrays: sequence.renumber(arrays, numbering))
    return _done(args, {**report, "field": str(args.renumber), "start": args.start,
                        "step": numbering.step, "prefix": args.prefix},
                 f"{cards(report['cards_out'])} renumbered in {args.renumber} to {report['output']}")


def _check_text(report: SequenceReport) -> str:
    def part(count: int, what: str, first: list[int], noun: str = "card") -> str:
        shown = ", ".join(map(str, first)) + (" …" if count > len(first) else "")
        return f"{count} {what}" + (f" ({noun} {shown})" if count else "")

    lines = [f"{cards(report.cards)}, sequence in {report.field}"
             + (f", step {report.step}" if report.step else "") + ": "
             + ("in order" if report.in_order else "NOT in order"),
             part(report.out_of_order, "out of order", report.first_out_of_order),
             part(report.duplicates, "duplicate" + ("" if report.duplicates == 1 else "s"),
                  report.first_duplicates),
             part(report.missing, "missing", report.first_missing, "number"),
             part(report.unnumbered, "unnumbered", report.first_unnumbered)]
    return "\n".join(lines)


def cmd_reproduce(args: argparse.Namespace) -> int:
    from emulator.deckops.reproduce import Plugboard, reproduce

    gangs = [(f, _punches(args.code, text, f"--gang {f}={text}")) for f, text in args.gang]
    board = Plugboard(args.copy, gangs, only=args.only)
    report = _stream(args, lambda arrays: reproduce(arrays, board))
    return _done(args, report, f"{cards(report['cards_out'])} reproduced to {report['output']}")


def cmd_cat(args: argparse.Namespace) -> int:
    import numpy as np

    from emulator.deck import empty, eof_rows
    from emulator.deckops import stacked

    for source in args.decks:
        refuse_same_file(source, args.output)
    decks: list[np.ndarray] = []
    formats: list[str] = []
    for path in args.decks:
        fmt, words = _load(path, args)
        decks.append(words)
        formats.append(fmt.name)
    joined = stacked.stack(decks) if args.eof else np.concatenate([empty(), *decks])
    target = _target(args, args.output, formats[0])
    _write(args.output, [joined], target, args.code)
    report: dict[str, Any] = {"files": [display_name(p) for p in args.decks], "formats": formats,
              "output": _out_name(args.output),
              "output_format": target, "cards": len(joined),
              "eof_cards": int(np.count_nonzero(eof_rows(joined)))}
    eof = report["eof_cards"]
    between = f" and {eof} end-of-file card{'' if eof == 1 else 's'}" if eof else ""
    return _done(args, report, f"{cards(len(joined) - eof)}{between} to {report['output']}")


def cmd_split(args: argparse.Namespace) -> int:
    from emulator.deckops import stacked

    fmt, words = _load(args.deck, args)
    target = args.target_format or fmt.name
    ext = (get_format(target).extensions or ("." + target,))[0]
    stem = args.name or (os.path.splitext(os.path.basename(args.deck))[0] if args.deck != "-" else "deck")
    written: list[dict[str, Any]] = []
    with writing(args.directory), NewFiles(args.directory) as files:  # all of the decks, or none
        for i, deck in enumerate(stacked.split(words), 1):
            path = os.path.join(args.directory, f"{stem}-{i}{ext}")
            refuse_same_file(args.deck, path)
            _write(files.add(path), [deck], target, args.code)
            written.append({"deck": i, "file": path, "cards": len(deck)})
    line = "\n".join(f"{w['file']}: {cards(w['cards'])}" for w in written)
    return _done(args, {"file": display_name(args.deck), "format": target, "decks": written}, line)

