"""Contract: every command that reads a deck reads it as ``cards decode`` does, whatever its format.

The commands are found in the parser itself, not listed here: every argument typed
:func:`ibm1013.cli.argtypes.deck_file` (what :func:`ibm1013.cli.options.add_deck` adds: a positional
DECK, or an option such as ``play --load DECK``) is a deck the command reads, so a command added
later is covered without anyone adding it here.  For a sample deck of each format, under each of the
format's extensions and under a neutral one, each command is run on it (in process) until it reads
the deck; the one reader,
:func:`ibm1013.cli.deckfiles.reading` (for a sort, :func:`~ibm1013.cli.deckfiles.scanning`, the same
code), is watched and the command stopped there.  Each must have read
through it (or its numpy-free fast path for small decks, :func:`ibm1013.cli.deckfiles.read_small`),
in the format ``cards info`` detects, the very cards ``cards decode`` read; and with
``--format`` named, that format.

What a command needs besides its deck to get as far as reading it is filled in from the parser
(positionals: a port URL, a game, an output file or folder; required options and groups); the few values
argparse cannot tell are in :data:`VALUES` and :data:`EXTRA`.  A command that needs more fails here,
saying what to add.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from emulator.card import Card
from emulator.deck import empty
from emulator.errors import IbmError
from emulator.formats import FORMAT_NAMES, get_format, write_deck
from ibm1013.cli import argtypes, deckfiles
from ibm1013.cli.main import build_parser
from ibm1013.cli.shell import walk

TEXT = ["HELLO, WORLD 1.5", "PAY $12.00 - 3 * 4 / 2", "", "END"]
"""Characters every format can hold (the simh 3.8 decks hold only the 1401's 64)."""

VALUES = {"--to": "cbn", "--by": "1-5", "-o": None, "--output": None}
"""Values for required options whose type argparse cannot fill (None: a fresh output file)."""
EXTRA = {"cards select": ["--cards", "1-"], "cards reproduce": ["--copy", "1-5:6-10"]}
"""What a command checks after parsing, before it reads (``select`` needs a test to select by,
``reproduce`` a wire)."""


class Read(Exception):
    """Raised by the watched reader once it has read the deck: the command stops there."""


PARSER = build_parser()


def run(argv: list[str]) -> int:
    """``ibm1013 ARGV`` on the parser built once (as :func:`ibm1013.cli.main.main` runs it, without
    building the parser each time): its exit status, 2 for an error."""
    args = PARSER.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except IbmError:
        return 2


def deck_commands() -> dict[str, argparse.ArgumentParser]:
    """{command words: its parser} for every command with a deck argument."""
    found = {}
    for parser, action in walk(PARSER):
        if action.type is argtypes.deck_file:
            found[" ".join(parser.prog.split()[1:])] = parser
    return found


COMMANDS = deck_commands()


def test_the_commands_that_read_decks_are_found_in_the_parser():
    """The marker is on every deck argument we know of (a command that lost it would go unchecked)."""
    known = {"simulate", "theory", "sweep", "send", "rje", "play", "solve", "cards decode", "cards info",
             "cards show",
             "cards convert", "cards select", "cards sort", "cards merge", "cards sequence",
             "cards reproduce", "cards cat", "cards split-decks"}
    assert known <= set(COMMANDS), known - set(COMMANDS)


def argv_for(command: str, parser: argparse.ArgumentParser, deck: Path, tmp: Path,
             fmt: str | None) -> list[str]:
    """A command line on which ``command`` gets as far as reading ``deck`` (in ``fmt``, if given)."""
    argv = command.split()
    outputs = iter(tmp / f"out-{i}" for i in range(100))
    for action in parser._actions:
        if action.option_strings:
            if action.type is argtypes.deck_file:  # play --load DECK, solve --load DECK
                argv += [max(action.option_strings, key=len), str(deck)]
            continue
        if action.type is argtypes.deck_file:
            argv.append(str(deck))
        elif action.type is argtypes.game:
            argv.append("klondike")
        elif action.type is argtypes.output_directory:
            argv.append(str(next(outputs)))
        elif action.type is argtypes.output_file:
            argv.append(str(next(outputs)) + ".txt")
        else:  # a port: nothing opens it before the deck is read
            argv.append("loop://")
    required = [a for a in parser._actions if a.option_strings and a.required]
    required += [g._group_actions[0] for g in parser._mutually_exclusive_groups if g.required]
    for action in required:
        flag = max(action.option_strings, key=len)
        if action.nargs in ("?", 0) or isinstance(action, argparse._StoreTrueAction):
            argv.append(flag)
            continue
        known = [VALUES[f] for f in action.option_strings if f in VALUES]
        assert known, f"{command}: say in VALUES what {flag} takes, so this test can run it"
        argv += [flag, known[0] if known[0] is not None else str(next(outputs)) + ".txt"]
    argv += EXTRA.get(command, [])
    if fmt is not None:
        flag = next(max(a.option_strings, key=len) for a in parser._actions
                    if a.type is argtypes.deck_format_or_auto)
        argv += [flag, fmt]
    return argv


class Reads(list):
    """The reads seen; none while ``paused`` (the commands then run as they do)."""

    paused = False


@pytest.fixture
def watched(monkeypatch):
    """The reads through :func:`deckfiles.reading` (or, for a sort, :func:`deckfiles.scanning`): (path,
    format, words) each; the command stops."""
    reads = Reads()
    original = deckfiles.reading

    @contextmanager
    def reading(path, fmt="auto", **kwargs):
        if reads.paused:
            with original(path, fmt, **kwargs) as read:
                yield read
            return
        with original(path, fmt, **kwargs) as (found, got):
            reads.append((path, found.name, np.concatenate([empty(), *got]), slice(None)))
        raise Read

    original_scanning = deckfiles.scanning

    @contextmanager
    def scanning(path, fmt="auto", **kwargs):
        """A sort's read (:func:`deckfiles.scanning`): the key columns of every card (filesort)."""
        if reads.paused:
            with original_scanning(path, fmt, **kwargs) as read:
                yield read
            return
        with original_scanning(path, fmt, **kwargs) as (found, got):
            reads.append((path, found.name, got.columns, kwargs["span"].columns))
        raise Read

    original_small = deckfiles.read_small

    def read_small(path, fmt="auto", **kwargs):
        small = original_small(path, fmt, **kwargs)
        if small is None or reads.paused:
            return small
        reads.append((path, small[0], np.array(small[1], dtype=np.uint16).reshape(-1, 80), slice(None)))
        raise Read

    for module in list(sys.modules.values()):  # wherever a command module took the names
        if getattr(module, "__name__", "").startswith("ibm1013.cli"):
            for name, spy, real in (("reading", reading, original), ("scanning", scanning, original_scanning),
                                    ("read_small", read_small, original_small)):
                if getattr(module, name, None) is real:
                    monkeypatch.setattr(module, name, spy)
    return reads


def samples(tmp: Path) -> list[tuple[str, Path]]:
    """(format, file) for each format under each of its extensions, and under ``.deck``."""
    cards = [Card.from_text(line) for line in TEXT]
    made = []
    for fmt in FORMAT_NAMES:
        for ext in (*get_format(fmt).extensions, ".deck"):
            path = tmp / f"sample-{fmt}{ext}"
            with open(path, "wb") as out:
                write_deck(cards, out, fmt)
            made.append((fmt, path))
    return made


def decoded(capsys, deck: Path, watched, fmt: str | None) -> tuple[str, np.ndarray] | None:
    """What ``cards info`` says the format is and the cards ``cards decode`` reads; None if it
    refuses the deck."""
    named = ["--format", fmt] if fmt else []
    watched.paused = True
    try:
        if run(["cards", "info", str(deck), "--json", *named]) != 0:
            capsys.readouterr()
            return None
    finally:
        watched.paused = False
    detected = json.loads(capsys.readouterr().out)["format"]
    watched.clear()
    with pytest.raises(Read):
        run(["cards", "decode", "--lenient", str(deck), *named])
    assert len(watched) == 1
    return detected, watched[0][2]


@pytest.mark.parametrize("named", [False, True], ids=["auto", "named"])
def test_every_deck_command_reads_every_format_as_cards_decode_does(capsys, tmp_path, watched, named):
    wrong = []
    for fmt, deck in samples(tmp_path):
        expected = decoded(capsys, deck, watched, fmt if named else None)
        if expected is None:  # info refuses it (an undetectable format under a neutral name)
            assert not named, f"cards info --format {fmt} refuses {deck.name}"
            continue
        detected, words = expected
        for command, parser in COMMANDS.items():
            watched.clear()
            argv = argv_for(command, parser, deck, tmp_path, fmt if named else None)
            try:
                status = run(argv)
            except Read:
                status = None
            capsys.readouterr()
            if status is not None or not watched:
                wrong.append(f"{' '.join(argv)}: exit {status}, the deck not read through "
                             "deckfiles.reading")
                continue
            _, read_as, read, columns = watched[0]
            if read_as != detected or not np.array_equal(read, words[:, columns]):
                wrong.append(f"{' '.join(argv)}: read {deck.name} as {read_as}, cards info says "
                             f"{detected}" + ("" if np.array_equal(read, words[:, columns]) else
                                             ", and not the cards cards decode reads"))
    assert not wrong, "\n".join(wrong)


def test_every_deck_command_takes_the_shared_format_and_code_options():
    """One --format (``cards convert``: --from, beside its --to) and one --code for every command that
    reads a deck, defined once in ibm1013.cli.options."""
    from ibm1013.cli import options

    wrong = []
    for command, parser in COMMANDS.items():
        formats = [a for a in parser._actions if a.type is argtypes.deck_format_or_auto]
        codes = [a for a in parser._actions if "--code" in a.option_strings]
        if len(formats) != 1 or options.DECK_FORMAT.help not in (formats[0].help or ""):
            wrong.append(f"{command}: its deck's format is not the shared --format")
        elif formats[0].default != "auto":
            wrong.append(f"{command}: {formats[0].option_strings} defaults to {formats[0].default!r}")
        if len(codes) != 1 or codes[0].type is not options.CODE.type:
            wrong.append(f"{command}: no shared --code")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("named", [False, True], ids=["auto", "named"])
def test_send_follow_reads_every_format_as_cards_decode_does_or_refuses_it_when_parsed(
        capsys, tmp_path, watched, monkeypatch, named):
    """``send --follow FILE`` reads a deck as a punch writes it (:func:`deckfiles.following`), not
    through :func:`deckfiles.reading`, but in the same format: the one ``cards info`` detects, or
    ``--format`` names, each card as ``cards decode`` reads it once the punch has finished; a format
    it cannot follow is refused when the arguments are parsed, in one line."""
    from emulator.follow import FOLLOWABLE

    followed = []
    original = deckfiles.following

    def following(source, fmt="auto", **kwargs):
        follower = original(source, fmt, **kwargs)
        follower.end("the punch has finished")
        cards = follower.poll()
        followed.append((follower.fmt, np.array([c.columns for c in cards], dtype=np.uint16).reshape(-1, 80),
                         follower.left_over))
        raise Read

    monkeypatch.setattr(deckfiles, "following", following)
    wrong = []
    for fmt, deck in samples(tmp_path):
        expected = decoded(capsys, deck, watched, fmt if named else None)
        if expected is None:
            continue
        detected, words = expected
        argv = ["send", "loop://", "--follow", str(deck), *(["--format", fmt] if named else [])]
        followed.clear()
        if detected not in FOLLOWABLE:
            with pytest.raises(SystemExit) as refused:
                run(argv)
            err = capsys.readouterr().err
            if refused.value.code != 2 or err.count("\n") != 1 or "cannot be followed" not in err:
                wrong.append(f"{' '.join(argv)}: a {detected} deck not refused when parsed: {err!r}")
            continue
        try:
            status = run(argv)
        except Read:
            status = None
        err = capsys.readouterr().err
        if status is not None:
            wrong.append(f"{' '.join(argv)}: exit {status} before a card was followed: {err!r}")
            continue
        read_as, read, left_over = followed[0]
        if read_as != detected or not np.array_equal(read, words) or left_over:
            wrong.append(f"{' '.join(argv)}: followed {deck.name} as {read_as}, cards info says {detected}"
                         + ("" if np.array_equal(read, words) else ", and not the cards cards decode reads"))
    assert not wrong, "\n".join(wrong)
