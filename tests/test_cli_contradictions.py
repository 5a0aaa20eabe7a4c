"""Option pairs that contradict each other are refused when the arguments are parsed, before any
port is opened, in one line with exit status 2, by every command that has both (issue 50, item 8:
``receive --force --resume`` was accepted and then waited out its 30 s).  One rule,
:data:`ibm1013.cli.options.CONTRADICTIONS`, applied to every parser the command line builds."""

import argparse

import pytest
from test_cli_parser import PARSER, refused

from emulator.serial import Link
from ibm1013.cli import options, rje
from ibm1013.cli.shell import walk

VALUES = {"--propagation": "0.01", "--follow": "punch.txt", "--idle": "2", "--hopper": "hopper",
          "--printer": "sockdev://127.0.0.1:1403", "--punch-format": "ebcdic", "DECK": "deck.cbn"}
"""A valid value for each option of a pair that takes one (flags take none)."""


def parsers():
    """(command words, parser) for every command and action, once each."""
    return {parser.prog: (parser.prog.split()[1:], parser) for parser, _action in walk(PARSER)}.values()


def cases():
    """(argv giving both options of a pair, the pair) for each pair each parser has."""
    for words, parser in parsers():
        named = {n: a for a in parser._actions for n in (*a.option_strings, a.metavar) if isinstance(n, str)}
        for pair in options.CONTRADICTIONS:
            if not all(n in named for n in pair):
                continue
            argv = []
            for action in parser._actions:  # the positionals in their order, the pair's where they go
                if action.option_strings or isinstance(action, argparse._SubParsersAction):
                    continue
                if action.metavar in pair:
                    argv.append(VALUES[action.metavar])
                elif action.nargs is None:
                    argv.append("/nonexistent/port")
            for flag in pair:  # before the positionals: refused before their values are looked at
                if named[flag].option_strings:
                    argv[:0] = [flag] if named[flag].nargs == 0 else [flag, VALUES[flag]]
            yield [*words, *argv], pair


CASES = list(cases())


def test_every_pair_is_one_some_command_has():
    assert {pair for _argv, pair in CASES} == set(options.CONTRADICTIONS)


@pytest.mark.parametrize(("argv", "pair"), CASES, ids=[" ".join(argv) for argv, _pair in CASES])
def test_a_contradictory_pair_is_refused_when_parsed_before_the_port_is_opened(
        capsys, monkeypatch, argv, pair):
    def never(*_args, **_kwargs):
        raise AssertionError("the port was opened")

    monkeypatch.setattr(Link, "open", never)
    line = refused(capsys, argv)
    assert "not allowed with" in line and all(name in line for name in pair), line


def test_receive_force_resume_is_refused_at_once(tmp_path, capsys):
    out = tmp_path / "copy.cbn"
    out.write_bytes(b"")
    line = refused(capsys, ["receive", "/nonexistent/port", "-o", str(out), "--force", "--resume"])
    assert line == "ibm1013: receive: argument --resume: not allowed with argument --force"


def test_rje_fast_passes_no_propagation_to_its_phases():
    args = PARSER.parse_args(["rje", "PORT", "job.ebcdic", "-o", "out.txt", "--fast"])
    line = rje._line_options(args)
    assert "--fast" in line and "--propagation" not in line
    PARSER.parse_args(["send", "PORT", "job.ebcdic", *line])  # each phase parses as its command
    PARSER.parse_args(["receive", "PORT", "-o", "out.txt", *line])
