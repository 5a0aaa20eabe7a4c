"""Write :mod:`ibm1013.cli.prepared` from the parser itself: ``python -m ibm1013.cli.prepare``.

The commonest answers of ``ibm1013`` are given without argparse (:mod:`ibm1013.cli.start`), from
what argparse answered when this ran: the help of ``ibm1013`` (``-h``, ``--help``, nothing at all)
at the terminal widths kept, and the arguments of ``cards decode DECK``.  Run this after changing
what ``ibm1013 --help`` lists or what ``cards decode`` takes; ``tests/test_start.py`` fails, and
says to run it, when the prepared module differs from what this writes.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys

from emulator.atomic import atomic_output
from ibm1013.cli.main import command_parser
from ibm1013.cli.main import main as answer_with_argparse

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

HELP_ARGV: tuple[tuple[str, ...], ...] = ((), ("-h",), ("--help",))
"""The command lines answered with the help of ``ibm1013``."""
HELP_COLUMNS = (80, 100)
"""Terminal widths whose help is kept: 80 is also what a pipe or a file gets.  Every width from the
narrowest at which no line of the help wraps up to :data:`WIDEST` gets one text too."""
WIDEST = 1000
"""The widest terminal the wide help is kept for (the test compares up to here)."""
DECODE_ARGV = ("cards", "decode")
"""``ibm1013 cards decode DECK``: the one command whose arguments are prepared."""
DECK_SAMPLE = "\0deck\0"
"""The DECK parsed to find where it goes (no path holds a NUL)."""
HEADER = '''"""What ``ibm1013`` answers without argparse (:mod:`ibm1013.cli.start`), as argparse answered it.

Written by ``python -m ibm1013.cli.prepare`` from the parser itself: do not edit (``tests/test_start.py``
fails when this differs from what the parser answers now).
"""

'''


def with_argparse(argv: tuple[str, ...], columns: int) -> tuple[str, str, int]:
    """What ``ibm1013 ARGV`` prints, and on which stream, and its exit status, at a terminal
    ``columns`` wide (``COLUMNS``, which the help's width is taken from first)."""
    out, err = io.StringIO(), io.StringIO()
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(columns)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = answer_with_argparse(list(argv))
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before
    stream, text = ("stderr", err.getvalue()) if err.getvalue() else ("stdout", out.getvalue())
    assert not (out.getvalue() and err.getvalue()), f"ibm1013 {argv}: wrote to both streams"
    return stream, text, int(status)


def help_texts() -> tuple[dict[tuple[str, ...], tuple[str, int]], dict[int, str], int]:
    """For each of :data:`HELP_ARGV`, the stream and exit status; the help at each width of
    :data:`HELP_COLUMNS`; and the narrowest width from which the help is :data:`WIDEST`'s."""
    streams = {}
    for argv in HELP_ARGV:
        stream, text, status = with_argparse(argv, 80)
        streams[argv] = (stream, status)
        assert text == with_argparse(HELP_ARGV[-1], 80)[1], f"ibm1013 {argv}: not the help"
    wide = with_argparse(HELP_ARGV[-1], WIDEST)[1]
    wide_from = WIDEST
    while with_argparse(HELP_ARGV[-1], wide_from - 1)[1] == wide:
        wide_from -= 1
    texts = {columns: with_argparse(HELP_ARGV[-1], columns)[1] for columns in HELP_COLUMNS
             if columns < wide_from}
    texts[wide_from] = wide
    return streams, texts, wide_from


def decode_arguments() -> tuple[str, dict[str, Any], tuple[str, str]]:
    """``cards decode DECK`` as argparse parses it: where DECK goes, every other value, and the
    command's function (its module and name)."""
    parsed = vars(command_parser()[0].parse_args([*DECODE_ARGV, DECK_SAMPLE]))
    func = parsed.pop("func")
    (deck,) = (name for name, value in parsed.items() if value == DECK_SAMPLE)
    del parsed[deck]
    for name, value in parsed.items():
        assert type(value) in (str, bool, int, float, type(None)), f"--{name}: {value!r} is not a literal"
    return deck, parsed, (func.__module__, func.__qualname__)


def _literal(text: str, indent: str) -> str:
    """``text`` as string literals, one a line of the help (long ones cut), for the module's source."""
    pieces = [line[i:i + 90] for line in text.splitlines(keepends=True) for i in range(0, len(line), 90)]
    return "\n".join(f"{indent}{piece!r}" for piece in pieces) or f"{indent}''"


def render() -> str:
    """The source of :mod:`ibm1013.cli.prepared`, from the parser as it is now."""
    streams, texts, wide_from = help_texts()
    deck, defaults, func = decode_arguments()
    lines = [HEADER, f"PYTHON = {tuple(sys.version_info[:2])!r}",
             '"""The Python that argparse ran in: its help reads differently from one version to another, so '
             'these\nanswers are given there alone."""',
             f"HELP_ANSWERS = {streams!r}",
             '"""The command lines answered with the help: the stream it goes to, the exit status."""',
             "HELP = {"]
    for columns, text in texts.items():
        lines += [f"    {columns}: (", _literal(text, "        "), "    ),"]
    lines += ["}", '"""The help at a terminal of each width kept (the widest, at this width and up to '
              'WIDEST)."""', f"WIDE_FROM = {wide_from!r}", f"WIDEST = {WIDEST!r}", "",
              f"DECODE_ARGV = {DECODE_ARGV!r}", f"DECODE_DECK = {deck!r}",
              "DECODE_DEFAULTS = {", *(f"    {k!r}: {v!r}," for k, v in defaults.items()), "}",
              f"DECODE_FUNC = {func!r}",
              '"""``cards decode DECK``: where DECK goes, every other value, and the function run."""', ""]
    return "\n".join(lines)


def main() -> None:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "prepared.py")
    with atomic_output(path) as out:
        out.write(render().encode())
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
