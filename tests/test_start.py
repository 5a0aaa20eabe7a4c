"""The answers ``ibm1013`` gives without argparse (:mod:`ibm1013.cli.start`) are argparse's own.

The prepared module is what ``python -m ibm1013.cli.prepare`` writes from the parser now; the help
served is argparse's byte for byte at every width kept, and every other width goes to argparse;
``cards decode DECK`` parses into argparse's arguments, and any other shape goes to argparse.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ibm1013.cli import prepare, prepared, start
from ibm1013.cli.main import command_parser

REGENERATE = "python -m ibm1013.cli.prepare"
SAME_PYTHON = pytest.mark.skipif(
    sys.version_info[:2] != prepared.PYTHON,
    reason=f"prepared under Python {prepared.PYTHON}: argparse answers here (see test_another_python_…)")


@SAME_PYTHON
def test_the_prepared_answers_are_what_the_parser_answers_now():
    stored = Path(prepared.__file__).read_text()
    assert prepare.render() == stored, f"ibm1013/cli/prepared.py is stale: run {REGENERATE}"


def test_a_changed_help_makes_the_prepared_answers_stale(monkeypatch):
    """The comparison above can fail: one command's line of help changed, and the text differs."""
    from ibm1013.cli import main

    changed = tuple((name, where, summary + " (changed)" if name == "stats" else summary)
                    for name, where, summary in main.COMMANDS)
    monkeypatch.setattr(main, "COMMANDS", changed)
    assert prepare.render() != Path(prepared.__file__).read_text()


def with_start(argv: tuple[str, ...], columns: int) -> tuple[tuple[str, str], int]:
    """What :func:`ibm1013.cli.start.main` prints (stream, text) and returns at ``columns``."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COLUMNS", str(columns))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = start.main(list(argv))
    printed = ("stderr", err.getvalue()) if err.getvalue() else ("stdout", out.getvalue())
    return printed, int(status)


KEPT = sorted({*prepare.HELP_COLUMNS, prepared.WIDE_FROM, prepared.WIDE_FROM + 1, 150, 200, prepared.WIDEST})


@SAME_PYTHON
@pytest.mark.parametrize("columns", KEPT)
@pytest.mark.parametrize("argv", prepare.HELP_ARGV)
def test_the_help_served_is_argparses_byte_for_byte(argv, columns):
    assert start.prepared_help(columns) is not None  # served from the prepared text
    (stream, text), status = with_start(argv, columns)
    assert (stream, text, status) == prepare.with_argparse(argv, columns)
    assert text.startswith("usage: ibm1013 ")


@pytest.mark.parametrize("columns", [30, 79, 81, 90, prepared.WIDE_FROM - 1, prepared.WIDEST + 1])
def test_another_width_is_argparses(columns, monkeypatch):
    from ibm1013.cli import main

    asked = []
    argparse_main = prepare.answer_with_argparse
    monkeypatch.setattr(main, "main", lambda argv=None: asked.append(argv) or argparse_main(argv))
    assert start.prepared_help(columns) is None  # not kept: argparse formats it
    (stream, text), status = with_start(("--help",), columns)
    assert asked == [["--help"]]
    assert (stream, text, status) == prepare.with_argparse(("--help",), columns)


def test_no_line_of_the_wide_help_wraps_one_column_narrower():
    """The wide help is the narrowest that wraps nothing: one column less, argparse wraps a line."""
    assert prepare.with_argparse(("--help",), prepared.WIDE_FROM - 1)[1] != prepared.HELP[prepared.WIDE_FROM]


def argparses(argv: list[str]) -> dict[str, object]:
    return vars(command_parser()[0].parse_args(argv))


DECKS = st.text(min_size=1).filter(lambda path: not path.startswith("-") and "\0" not in path)


@SAME_PYTHON
@settings(max_examples=200, deadline=None)
@given(DECKS)
def test_cards_decode_deck_parses_as_argparse_parses_it(deck):
    argv = ["cards", "decode", deck]
    fast = start.decode_arguments(argv)
    assert fast is not None
    assert vars(fast) == argparses(argv)
    assert fast.func is argparses(argv)["func"]  # the very function argparse's parse calls


@pytest.mark.parametrize("argv", [
    ["cards", "decode", "-"], ["cards", "decode", ""], ["cards", "decode", "--lenient", "x.cbn"],
    ["cards", "decode", "x.cbn", "--lenient"], ["cards", "decode", "x.cbn", "-o", "y.txt"],
    ["cards", "decode", "--code=026", "x.cbn"], ["cards", "decode", "-h"], ["cards", "decode"],
    ["cards", "decod", "x.cbn"], ["cards", "encode", "x.txt"], ["cards", "decode", "x.cbn", "y.cbn"],
    ["--version"], ["cards", "--help"], ["-h", "cards"], ["nope"],
])
def test_every_other_command_line_goes_to_argparse(argv):
    assert start.decode_arguments(argv) is None
    assert tuple(argv) not in prepared.HELP_ANSWERS


@pytest.mark.parametrize("deck", ["missing.cbn", ".", "bad.cbn", "five.cbn"])
def test_decode_answers_as_argparse_does_errors_too(tmp_path, deck):
    """Output, errors and exit status of ``cards decode DECK`` alike both ways (the command's own
    code words them)."""
    (tmp_path / "bad.cbn").write_bytes(b"garbage\x01\x02")
    from emulator.card import Card
    from emulator.formats import write_deck

    with open(tmp_path / "five.cbn", "wb") as out:
        write_deck([Card.from_text(f"CARD {i}") for i in range(1, 6)], out, "cbn")
    runs = [subprocess.run([sys.executable, "-m", module, "cards", "decode", deck], cwd=tmp_path,
                           capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "80"})
            for module in ("ibm1013", "ibm1013.cli.main")]
    fast, slow = ((run.returncode, run.stdout, run.stderr) for run in runs)
    assert fast == slow
    assert fast[0] == (0 if deck == "five.cbn" else 2), fast


@pytest.mark.parametrize("argv", [["--help"], []])
@pytest.mark.parametrize("closed", [">&-", "2>&-", ">&- 2>&-"])
def test_the_help_to_a_closed_stream_is_argparses(argv, closed):
    """Standard output or error closed: what is printed where, and the exit status, are argparse's."""
    runs = [subprocess.run(["bash", "-c", f'"$@" {closed}; echo "status $?"', "bash", sys.executable, "-m",
                            module, *argv], capture_output=True, text=True, timeout=120,
                           env={**os.environ, "COLUMNS": "80"})
            for module in ("ibm1013", "ibm1013.cli.main")]
    fast, slow = ((run.returncode, run.stdout, run.stderr) for run in runs)
    assert fast == slow
    assert "Traceback" not in fast[2]


@pytest.mark.parametrize("argv", [["--help"], ["cards", "decode", "five.cbn"]])
def test_another_python_is_argparses(argv, monkeypatch):
    """Under another Python than the one the answers were prepared in, argparse answers everything."""
    from ibm1013.cli import main

    asked = []
    monkeypatch.setattr(main, "main", lambda argv=None: asked.append(argv) or 0)
    monkeypatch.setattr(prepared, "PYTHON", (3, 0))
    assert start.main(argv) == 0 and asked == [argv]
