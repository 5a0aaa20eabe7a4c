"""The whole ``ibm1013`` parser, walked: help everywhere, defaults shown, every value checked when parsed.

These tests know no command by name: they cover whatever the parser holds, so a command or option
added later is checked too.  A failure lists every offender.
"""

import argparse
import math
from importlib.metadata import version

import pytest

from ibm1013.cli import argtypes, options
from ibm1013.cli.main import build_parser, main
from ibm1013.cli.shell import walk

CHOICE_TYPES = (argtypes.deck_format, argtypes.deck_format_or_auto, argtypes.card_code, argtypes.game)


PARSER = build_parser()


def parse(argv) -> int:
    """Parse ``argv`` with the one parser built for these tests; the exit status if it stops."""
    try:
        PARSER.parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    return 0


def arguments():
    """(command words, parser, action) for every argument of every command, help and version left out."""
    for parser, action in walk(PARSER):
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction)):
            continue
        yield parser.prog.split()[1:], parser, action


def name(parser, action) -> str:
    return f"{parser.prog} {'/'.join(action.option_strings) or action.metavar or action.dest}"


def argv_for(words, parser, action, value: str) -> list[str]:
    """A command line giving ``value`` to ``action`` (positionals before it filled with valid values)."""
    if action.option_strings:
        option = max(action.option_strings, key=len)
        return [*words, f"{option}={value}"]
    before = []
    for other in parser._actions:
        if other is action:
            break
        if not other.option_strings and not isinstance(other, argparse._SubParsersAction):
            before.append(str(next(iter(other.choices))) if other.choices else "x")
    return [*words, *before, value]


def refused(capsys, argv, run=main) -> str:
    """Run ``ibm1013 ARGV``; assert exit status 2 and one ``ibm1013: …`` line; return the line."""
    status = run(argv)
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("ibm1013: "), (argv, status, err)
    return lines[0]


def item_type(kind):
    """The type of one value: sweep's comma lists (ListOf) and "none or …" unwrapped."""
    while hasattr(kind, "item"):
        kind = kind.item
    return kind


def is_numeric(action) -> bool:
    return action.type in (int, float) or isinstance(item_type(action.type), argtypes.Number)


def test_every_command_has_a_description_and_every_argument_help():
    missing = []
    for parser, action in walk(PARSER):
        if isinstance(action, argparse._SubParsersAction):
            helped = {a.dest for a in action._choices_actions if a.help}
            missing += [f"{parser.prog} {command}: no help= in the command list"
                        for command in action.choices if command not in helped]
            missing += [f"{p.prog}: no description" for p in action.choices.values() if not p.description]
        elif not action.help:
            missing.append(f"{name(parser, action)}: no help")
    assert not missing, "\n".join(["missing help:", *missing])


def test_help_shows_every_default():
    """Every option with a default worth telling shows it, in its parser's own help formatter."""
    hidden = []
    for _, parser, action in arguments():
        default = action.default
        if default in (None, [], argparse.SUPPRESS) or isinstance(default, bool):
            continue
        text = parser._get_formatter()._expand_help(action)
        if "default" not in text.lower():
            hidden.append(f"{name(parser, action)} (default {default!r}): {text!r}")
    assert not hidden, "\n".join(["help that does not show the default:", *hidden])


def test_every_help_page_renders(capsys):
    """No help text breaks ``-h`` (a stray ``%`` would: argparse expands ``%(default)s`` and friends)."""
    for parser, _ in walk(PARSER):
        assert parser.prog in parser.format_help()


def test_numeric_options_refuse_nan_infinity_and_values_below_their_range(capsys):
    """Every numeric option (by its type) refuses nan, inf, -inf and -1 (or its lower bound minus 1)
    with one line naming it."""
    accepted, checked = [], 0
    for words, parser, action in arguments():
        if not is_numeric(action):
            continue
        low = getattr(item_type(action.type), "low", 0)
        below = -1 if low is None or low >= 0 else low - 1
        for value in ("nan", "inf", "-inf", "NaN", str(below), "1e999"):
            argv = argv_for(words, parser, action, value)
            status = parse(argv)
            err = capsys.readouterr().err
            lines = err.strip().splitlines()
            shown = "/".join(action.option_strings) or action.metavar or action.dest
            if not (status == 2 and len(lines) == 1 and lines[0].startswith("ibm1013: ")
                    and shown in lines[0]):
                accepted.append(f"{' '.join(argv)}: status {status}, stderr {err!r}")
        checked += 1
    assert checked >= 20, f"only {checked} numeric options found: has the parser changed?"
    assert not accepted, "\n".join(["numeric values not refused as one line naming the option "
                                    "(give it a type from ibm1013.cli.argtypes):", *accepted])


def test_numeric_types_are_finite_and_in_range():
    """No bare ``float`` (it takes nan and inf) and no unbounded ``int`` without choices."""
    bare = [name(parser, action) for _, parser, action in arguments()
            if action.type in (int, float) and not action.choices]
    assert not bare, "use a type from ibm1013.cli.argtypes for: " + ", ".join(bare)


def test_every_choice_refuses_a_bad_value_in_one_line(capsys):
    """Choices given as ``choices=`` and as a name type (format, code, game) fail the same way."""
    wrong = []
    for words, parser, action in arguments():
        if not (action.choices or action.type in CHOICE_TYPES or hasattr(item_type(action.type), "names")):
            continue
        numbers = action.type in (int, float)  # a number not among them; a word is not a number
        value = str(max(action.choices) + 1) if numbers else "no-such-thing"
        argv = argv_for(words, parser, action, value)
        line = refused(capsys, argv, parse)
        if "invalid choice: " + ("" if numbers else repr(value)) not in line or "(choose from " not in line:
            wrong.append(f"{' '.join(argv)}: {line}")
    assert not wrong, "\n".join(["a bad choice told differently:", *wrong])


@pytest.mark.parametrize("argv, option", [
    (["simulate", "d.cbn", "--turnaround", "-1"], "--turnaround"),
    (["simulate", "d.cbn", "--turnaround", "nan"], "--turnaround"),
    (["simulate", "d.cbn", "--cut-at", "-1"], "--cut-at"),
    (["simulate", "d.cbn", "--ber", "nan"], "--ber"),
    (["simulate", "d.cbn", "--ber", "1.5"], "--ber"),
    (["line", "--duration", "-1"], "--duration"),
    (["line", "--bits-per-char", "0"], "--bits-per-char"),
    (["line", "--ber", "nan"], "--ber"),
    (["line", "--bit-rate", "nan"], "--bit-rate"),
    (["line", "--bit-rate", "inf"], "--bit-rate"),
    (["line", "--propagation", "-1"], "--propagation"),
    (["send", "loop://", "d.cbn", "--bit-rate", "inf"], "--bit-rate"),
    (["send", "loop://", "d.cbn", "--propagation", "-1"], "--propagation"),
    (["receive", "loop://", "-o", "x.cbn", "--timeout", "0"], "--timeout"),
    (["line", "--burst", "0.1,nan,0.5"], "--burst"),
    (["simulate", "d.cbn", "--columns", "0"], "--columns"),
    (["demo", "--moves", "-1"], "--moves"),
    (["solve", "klondike", "--max-nodes", "0"], "--max-nodes"),
    (["deal", "klondike", "--deal", "0"], "--deal"),
])
def test_issue_examples_are_refused_naming_the_option(capsys, argv, option):
    line = refused(capsys, argv, parse)  # when parsed: nothing runs, so a regression cannot hang here
    assert f"argument {option}" in line or f"/{option}" in line, line


@pytest.mark.parametrize("argv, needle", [
    (["cards", "decode", "x", "--format", "foo"], "cards decode: argument --format: invalid choice: 'foo'"),
    (["simulate", "x", "--format", "foo"], "simulate: argument --format: invalid choice: 'foo'"),
    (["nosuchcommand"], "argument COMMAND: invalid choice: 'nosuchcommand'"),
    (["cards"], "cards: the following arguments are required: ACTION"),
    (["simulate", "--no-such-option"], "unrecognized arguments: --no-such-option"),
    (["play", "klondike", "--format", "foo"], "play: argument --format: invalid choice: 'foo'"),
])
def test_parse_errors_are_one_line_not_a_usage_dump(capsys, argv, needle):
    line = refused(capsys, argv)
    assert needle in line and "usage:" not in line, line


def test_ibm1013_alone_prints_the_usage_and_the_commands(capsys, monkeypatch):
    monkeypatch.setattr("sys.argv", ["ibm1013"])
    for argv in ([], None):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("usage: ibm1013 ")
        assert all(command in err for command in ("simulate", "send", "receive", "play", "sweep"))


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"ibm1013 {version('ibm1013')}"


def test_number_type_bounds():
    assert argtypes.NON_NEGATIVE("0") == 0.0 and argtypes.POSITIVE_INT("3") == 3
    assert argtypes.PROBABILITY("1") == 1.0 and argtypes.SEED(str(2**63 - 1)) == 2**63 - 1
    for kind, text in ((argtypes.POSITIVE, "0"), (argtypes.PROBABILITY, "1.0001"), (argtypes.SEED, "1.5"),
                       (argtypes.SEED, str(2**63)), (argtypes.NON_NEGATIVE, "-0.001"),
                       (argtypes.NON_NEGATIVE, "-inf"), (argtypes.COUNT, "nan"),
                       (argtypes.integer(1, 16), "17")):
        with pytest.raises(argparse.ArgumentTypeError, match="must be"):
            kind(text)
    assert math.isfinite(argtypes.NON_NEGATIVE("1e308"))


def test_bit_rate_is_one_type_with_one_help_on_every_command(capsys):
    """--bit-rate took any integer in send/play/watch, floats (0 too) in line and only the SCA's four
    rates in simulate, demo and simulate-play: now one checked type and one help on every command
    (line alone adds 0 = unpaced, and says so)."""
    sub = next(a for a in build_parser()._actions if a.dest == "command")

    def option(command: str) -> argparse.Action:
        return next(a for a in sub.choices[command]._actions if "--bit-rate" in a.option_strings)

    for command in ("send", "receive", "watch", "play", "simulate", "demo", "simulate-play"):
        assert option(command).type is argtypes.BIT_RATE and option(command).help == options.BIT_RATE.help
    assert "0 = unpaced" in option("line").help and option("line").type("0") == 0
    for argv in (["send", "p", "d", "--bit-rate", "1200.5"], ["line", "--bit-rate", "1200.5"],
                 ["receive", "p", "-o", "x.cbn", "--bit-rate", "100000"],
                 ["simulate-play", "klondike", "--bit-rate", "100000"], ["simulate", "d", "--bit-rate", "0"]):
        assert "--bit-rate" in refused(capsys, argv)


SHARED = {shared.flag: shared for shared in vars(options).values() if isinstance(shared, options.Shared)}
DIFFERENT_MEANINGS = {
    "--output": "each command writes its own kind of file, and its help names it",
    "--json": "each command prints its own report, and its help names it",
    "--format": "a deck format, of the input or of what is written, as each help says",
    "--to": "the format of what is written, as each help says",
    "--resume": "what is continued (a transfer, a stream, a sweep's rows) is said in each help",
    "--trace": "the endpoints log records, replies and timers; line logs characters and noise",
    "--cards": "card numbers in the card room, a count of synthetic cards in sweep",
    "--moves": "a move script in play and simulate-play, a count of the solver's moves in demo",
    "--name": "a file name stem in cards split-decks, the directions' names in monitor",
}
"""Option names several commands use for things that differ; each help says what it is here."""
WIDER = {("line", "--bit-rate"): "0 = unpaced"}
"""A command whose type takes more than the shared one, and the note that says so."""


def by_option_name():
    """{option name: [(command, action)]} for every option (not positional) of every command."""
    found: dict[str, list] = {}
    for words, _, action in arguments():
        if action.option_strings:
            found.setdefault(max(action.option_strings, key=len), []).append((" ".join(words), action))
    return found


def test_an_option_shared_by_commands_has_one_type_and_one_help():
    """--ber, --seed, --columns, --timeout … read the same wherever they are: one type and one help.
    An option that differs at all is defined once, in ibm1013.cli.options; a command may add a note
    after "; " saying what it adds, and sweep takes a comma list of the very same type (its note
    after options.SWEEP_NOTE says how)."""
    unlike = []
    for flag, uses in sorted(by_option_name().items()):
        commands = {command for command, _ in uses}
        if len(commands) < 2 or flag in DIFFERENT_MEANINGS:
            continue
        shared = SHARED.get(flag)
        if shared is None:
            if len({(action.type, action.help, action.choices) for _, action in uses}) > 1:
                unlike.append(f"{flag} ({', '.join(sorted(commands))}): differs, and is not in "
                              "ibm1013.cli.options")
            continue
        for command, action in uses:
            help_text = action.help or ""
            if help_text != shared.help and not help_text.startswith(shared.help + "; "):
                unlike.append(f"{command} {flag}: help {help_text!r} is not the shared {shared.help!r}")
            if not takes_the_shared_type(command, flag, action, shared):
                unlike.append(f"{command} {flag}: type {action.type!r} is not the shared {shared.type!r}")
    assert not unlike, "\n".join(["options that differ between commands:", *unlike])


def takes_the_shared_type(command, flag, action, shared) -> bool:
    if action.type is shared.type:
        return True
    if (command, flag) in WIDER:
        return WIDER[command, flag] in action.help and all(
            action.type(str(v)) == v for v in (1, 600, 99_999))
    if command != "sweep" or options.SWEEP_NOTE not in action.help:
        return False
    item = getattr(action.type, "item", None)  # a ListOf, or column_layouts (built from columns)
    return item is shared.type or (shared.type is None and isinstance(action.type, argtypes.ListOf))


def test_options_of_different_meanings_say_what_they_are():
    """The names left out above are really different: their help texts differ, and each has a type
    from argtypes when it takes a value (--format and --to: a deck format)."""
    found = by_option_name()
    from emulator.formats import FORMAT_NAMES

    for flag in DIFFERENT_MEANINGS:
        uses = found[flag]
        assert len({command for command, _ in uses}) >= 2, flag
        assert len({action.help for _, action in uses}) > 1, flag
    for flag in ("--format", "--to"):
        for command, action in found[flag]:
            named = action.type in (argtypes.deck_format, argtypes.deck_format_or_auto)
            assert named or set(action.choices) <= {"auto", *FORMAT_NAMES}, (command, flag)


def test_a_command_module_that_fails_to_import_is_an_error(monkeypatch):
    """build_parser once skipped a command module it could not import ("not built yet"), so a broken
    module showed as a missing command; now the import error stops the build."""
    from ibm1013.cli import main as cli_main

    broken = (*cli_main.COMMAND_MODULES, "ibm1013.cli.no_such_command")
    monkeypatch.setattr(cli_main, "COMMAND_MODULES", broken)
    with pytest.raises(ModuleNotFoundError, match="no_such_command"):
        cli_main.build_parser()


def test_help_says_only_what_concerns_its_command():
    """send -h and receive -h explained --timeout with "a watcher's must be longer than the player's
    --keepalive", and every command's --propagation explained line's case: each note now sits on
    the command it concerns."""
    sub = next(a for a in PARSER._actions if a.dest == "command")

    def help_of(command: str, flag: str) -> str:
        return next(a.help for a in sub.choices[command]._actions if flag in a.option_strings)

    for command in ("send", "receive", "play"):
        assert "watcher" not in help_of(command, "--timeout"), command
    assert "--keepalive" in help_of("watch", "--timeout")
    for command in ("send", "receive", "play", "watch"):
        assert "`line`" not in help_of(command, "--propagation") and "line adds" not in help_of(
            command, "--propagation"), command
    assert "0.01" in help_of("line", "--propagation")


def test_a_whole_number_range_is_told_in_whole_numbers(capsys):
    """`--deal 0` was refused as "a whole number from 1 to 9.22337e+18"."""
    assert refused(capsys, ["deal", "klondike", "--deal", "0"]).endswith(
        "argument --deal: must be a whole number from 1 to 9223372036854775807, not '0'")
    assert argtypes.integer(1, 16).describe() == "a whole number from 1 to 16"
    assert argtypes.PROBABILITY.describe() == "a number from 0 to 1"
