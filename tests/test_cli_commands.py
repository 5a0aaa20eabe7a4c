"""The commands listed before their parsers are built (:mod:`ibm1013.cli.commands`).

``ibm1013`` lists its commands, and ``ibm1013 cards`` its actions, from written-out tables, and builds
a parser only when its command is parsed.  These tests hold the tables to the modules that register
the parsers (names, order, the line of help), and hold the lazy parser to the full one: the same
help, the same errors, every parser built by :func:`build_parser`.
"""

import importlib

import pytest

from ibm1013.cli import cards, main
from ibm1013.cli.commands import Commands
from ibm1013.cli.shell import walk


def registered(functions) -> list[tuple[str, str]]:
    """``(name, help)`` of each parser the register ``functions`` add, on plain argparse subparsers."""
    parser = main.Parser(prog="ibm1013")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for register in functions:
        register(sub)
    assert type(sub) is not Commands
    return [(choice.dest, choice.help) for choice in sub._choices_actions]


def test_the_table_of_commands_is_what_the_modules_register():
    """A command added, renamed, moved or given a new line of help in its module, but not in the
    table, would be missing from ``ibm1013 --help`` or unreachable: the table must say the same."""
    owner = {}
    for module in main.COMMAND_MODULES:
        for name, _ in registered([importlib.import_module(module).register]):
            owner[name] = module.rpartition(".")[2]
    modules = [importlib.import_module(m).register for m in main.COMMAND_MODULES]
    assert [(name, summary) for name, _, summary in main.COMMANDS] == registered(modules)
    assert [(name, where) for name, where, _ in main.COMMANDS] == list(owner.items())


def test_the_table_of_card_actions_is_what_the_modules_register():
    from ibm1013.cli import cardroom

    functions = [cards.register_text, cards.register_looking, cardroom.register]
    assert [(name, summary) for name, _, summary in cards.ACTIONS] == registered(functions)
    for name, where, _ in cards.ACTIONS:
        module, _, function = where.partition(":")
        register = getattr(importlib.import_module(f"ibm1013.cli.{module}"), function or "register")
        assert name in [n for n, _ in registered([register])], (name, where)


def test_build_parser_builds_every_parser():
    built = [parser.prog for parser, _ in walk(main.build_parser())]
    assert "ibm1013 cards decode" in built and "ibm1013 cards split-decks" in built
    assert "ibm1013 manpage" in built and "ibm1013 deck shuffle" in built
    for parser, action in walk(main.build_parser()):
        if isinstance(action, Commands):
            assert action.pending() == [], parser.prog


def command_action(parser):
    return next(a for a in parser._actions if isinstance(a, Commands))


def test_parsing_a_command_builds_its_parser_alone():
    parser, sub = main.command_parser()
    assert len(sub.pending()) == len(main.COMMANDS)
    args = parser.parse_args(["cards", "decode", "deck.cbn"])
    assert (args.command, args.cards_command, args.deck, args.code) == ("cards", "decode", "deck.cbn", "029")
    assert "cards" not in sub.pending() and "simulate" in sub.pending()
    actions = command_action(sub.choices["cards"])
    assert "encode" not in actions.pending() and "sort" in actions.pending()  # decode's module only


def descend(parser, names):
    """The parser of the command ``names`` (``["cards", "decode"]``) under ``parser``, built."""
    for name in names:
        command_action(parser).build(name)
        parser = command_action(parser).choices[name]
    return parser


@pytest.mark.parametrize("names", [[], ["cards"], ["cards", "decode"], ["deck"]])
def test_the_lazy_help_is_the_full_help(names):
    lazy = descend(main.command_parser()[0], names)
    assert lazy.format_help() == descend(main.build_parser(), names).format_help()
    assert "-h, --help" in lazy.format_help()


@pytest.mark.parametrize("argv", [["nope"], ["cards", "nope"], ["cards", "decode", "--format", "nope", "x"],
                                  ["cards", "sort", "x", "-o", "y", "--by", "0-3"], ["plot"]])
def test_the_lazy_parser_refuses_as_the_full_one_did(argv, capsys):
    said = []
    for parser in (main.command_parser()[0], main.build_parser()):
        with pytest.raises(SystemExit) as stop:
            parser.parse_args(argv)
        said.append((stop.value.code, capsys.readouterr().err))
    assert said[0] == said[1] and said[0][0] == 2 and said[0][1].startswith("ibm1013: ")


def test_a_module_that_does_not_register_its_listed_command_is_an_error(monkeypatch):
    parser, sub = main.command_parser()
    monkeypatch.setitem(sub._where, "stats", "demo")  # demo's module registers no `stats`
    with pytest.raises(LookupError, match="did not register command 'stats'"):
        parser.parse_args(["stats"])


@pytest.mark.parametrize("columns", [None, "", "0", "-3", "wide", "57", "200"])
def test_the_help_is_as_wide_as_shutil_says(columns, monkeypatch):
    """The formatter asks the width without importing shutil; it must get shutil's answer."""
    import shutil

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert main.terminal_columns() == shutil.get_terminal_size().columns
    assert main.HelpFormatter("ibm1013")._width == shutil.get_terminal_size().columns - 2
