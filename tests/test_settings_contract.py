"""Contract tests of the settings, generated from the parser itself (issue 50, "so that the seams
stay closed").

Nothing here names a command or an option by hand where the parser can name it: a command added
later, or an option added to one of the transfer commands, is covered without anyone remembering
to add it.

* Every ``--help`` of every command the parser registers states its defaults truly: a ``default X``
  is the value the parser really gives.
* Every option that ``simulate``, ``theory``, ``sweep``, ``send`` and ``receive`` share has one
  meaning and one default: the same help, the same setting built from it (the sweep's comma list
  of one value included), the same value in ``--parameters`` and in ``--json``'s settings, and the
  same refusal, in the same words, of a bad value.
* Every setting ``theory`` refuses is refused by ``sweep --theory``, in the same words, before any
  run; and ``theory --help`` says so of each option it refuses a value of.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import tempfile
from typing import Any

import pytest

from ibm1013.cli import options
from ibm1013.cli.main import build_parser, main

TRANSFER_COMMANDS = ("simulate", "theory", "sweep", "send", "receive")
"""The commands that move (or work out) a deck over a line: their shared options must agree."""

ROLES = {
    "--format": "the deck read (simulate, theory, sweep, send) or written (receive: from its name)",
    "--output": "what each writes: received cards (simulate, receive) or a sweep's rows",
    "--cards": "theory: the deck's length for its figure; sweep: synthetic cards to send",
    "--resume": "sweep: rows already written; send, receive: the cards the far end holds",
    "--json": "what each command prints as JSON: a report, figures, a summary",
    "--help": "argparse's",
}
"""Options of the same name whose value means something of each command's own role (each says so
in its help); every other shared option must agree in full."""

POSITIONALS = {"send": ["PORT", "DECK"],
               "receive": ["PORT", "-o", os.path.join(tempfile.gettempdir(), "x.cbn")]}
"""What a command needs before its options can be parsed (none of it is opened when parsing)."""


def _subparsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """Every (path, parser) the parser registers, nested groups (``cards decode``) too."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _subparsers(sub, (*path, name))


PARSER = build_parser()
COMMANDS = dict(_subparsers(PARSER))


def _options(command: str) -> dict[str, argparse.Action]:
    return {o: a for a in COMMANDS[(command,)]._actions for o in a.option_strings if o.startswith("--")}


def _shared() -> dict[str, dict[str, argparse.Action]]:
    """option -> {command: action} for every option two or more transfer commands have."""
    by_option: dict[str, dict[str, argparse.Action]] = {}
    for command in TRANSFER_COMMANDS:
        for option, action in _options(command).items():
            by_option.setdefault(option, {})[command] = action
    return {o: acts for o, acts in by_option.items() if len(acts) > 1 and o not in ROLES}


SHARED = _shared()


def _parse(argv: list[str]) -> tuple[argparse.Namespace | None, str]:
    """The namespace of ``argv``, or None and what the parser said on standard error."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            return PARSER.parse_args(argv), ""
        except SystemExit:
            return None, err.getvalue()


def _argv(command: str, *more: str) -> list[str]:
    return [command, *POSITIONALS.get(command, []), *more]


# -- every --help default ---------------------------------------------------------------------------
_DEFAULT = re.compile(r"(?<!its )(?<!the )\bdefault (?!:)(\S+?)[;,):.]*(?=\s|$)(?!\s+(?:unless|if|when)\b)")
"""``default X`` (not ``default: words``, ``its default``, nor ``default X unless …``): a value."""


def _real_default(action: argparse.Action) -> Any:
    """What the parser gives when the option is not given (argparse runs a string default through
    the option's type, as it would the same text typed)."""
    if isinstance(action.default, str) and callable(action.type):
        return action.type(action.default)
    return action.default


def _help_defaults():
    for path, parser in COMMANDS.items():
        for action in parser._actions:
            if not action.help or action.help == argparse.SUPPRESS or action.default == argparse.SUPPRESS:
                continue
            text = " ".join(parser._get_formatter()._expand_help(action).split())
            for match in _DEFAULT.finditer(text):
                yield " ".join(path), action, match.group(1)


HELP_DEFAULTS = list(_help_defaults())


def test_the_walk_finds_every_command_and_defaults_in_them():
    registered = next(a for a in PARSER._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert set(registered) <= {path[0] for path in COMMANDS if path}
    assert len(HELP_DEFAULTS) > 100  # the pattern reads the helps as they are written


@pytest.mark.parametrize("command, action, said", HELP_DEFAULTS,
                         ids=[f"{c} {a.dest}" for c, a, _ in HELP_DEFAULTS])
def test_every_help_default_is_the_parsers(command, action, said):
    """``sweep --help`` said ``default None`` for ``--columns`` (it starts from None, and the sweep puts
    80 in): a ``default X`` in a help is the value the command gets without the option."""
    real = _real_default(action)
    if command == "sweep" and action.dest == "columns":  # each --columns adds to a list
        from ibm1013.cli.sweep import sweep_values

        real = sweep_values(PARSER.parse_args(["sweep"]))["columns"]
    if real is None:  # only an option whose type reads "none" as None may say so
        assert said == "none" and callable(action.type) and action.type("none") is None, \
            f"{command} {action.option_strings}: help says default {said}, the parser gives None"
        return
    typed = action.type(said) if callable(action.type) else said
    assert typed == real or [typed] == real or typed == [real], \
        f"{command} {action.option_strings}: help says default {said}, the parser gives {real!r}"


# -- the options the transfer commands share -------------------------------------------------------
def test_the_shared_options_are_found():
    assert {"--bit-rate", "--columns", "--column-binary", "--on-give-up", "--code"} <= set(SHARED)


@pytest.mark.parametrize("option", sorted(SHARED))
def test_a_shared_option_has_one_help(option):
    """One definition (:mod:`ibm1013.cli.options`): the help up to its default is the same in every
    command (``theory`` may add what it refuses, ``sweep`` how it takes a list)."""
    helps = {c: a.help.split("%(default)s")[0].split(" (default")[0].split("; default")[0]
             for c, a in SHARED[option].items()}
    first = min(helps.values(), key=len)
    assert all(h.startswith(first) for h in helps.values()), helps


def _transfer(command: str, *more: str) -> Any:
    """The setting a command builds from ``more``: a TransferConfig (simulate, theory, and the sweep's
    one point) or the session of a real end (send, receive)."""
    args = PARSER.parse_args(_argv(command, *more))
    if command in ("simulate", "theory"):
        from ibm1013.cli.simulate import transfer_config

        return transfer_config(args)
    if command == "sweep":
        from ibm1013.cli.sweep import sweep_values
        from ibm1013.sweep import grid
        from ibm1013.sweep.grid import config_of

        (point,) = grid(sweep_values(args))
        return config_of(point, 0)
    from ibm1013.cli.serial import _endpoint_config

    return _endpoint_config(args).session


def _same(a: Any, b: Any) -> bool:
    """Two settings alike on what both hold (a real end's session holds no line noise)."""
    session_a, session_b = getattr(a, "session", a), getattr(b, "session", b)
    if hasattr(a, "session") and hasattr(b, "session"):
        return a == b
    return (session_a.bit_rate, session_a.columns) == (session_b.bit_rate, session_b.columns)


VALUES = {"--bit-rate": "2400", "--columns": "40", "--duplex": "half", "--turnaround": "0.5",
          "--mechanics": "serial", "--ber": "1e-4", "--burst": "1e-4,0.01,0.1", "--cut-at": "7",
          "--on-give-up": "skip", "--column-binary": None}
"""A value other than the default for each option that shapes a transfer (None: a flag; the sweep
takes ``on``)."""


def test_every_option_shaping_a_transfer_has_a_value_here():
    from ibm1013.sweep import DIMENSIONS

    shaping = {"--" + name.replace("_", "-") for name in DIMENSIONS}
    assert shaping == set(VALUES)


@pytest.mark.parametrize("option", [None, *sorted(VALUES)])
def test_a_shared_option_means_the_same_everywhere(option):
    """The same setting from every command, by default (``option`` None) and with the option given:
    simulate, theory and the sweep's one point build equal transfers; a real end the same session."""
    commands = [c for c in TRANSFER_COMMANDS if option is None or option in _options(c)]
    built = {}
    for command in commands:
        more = [] if option is None else [option] if VALUES[option] is None else [option, VALUES[option]]
        if command == "sweep" and option == "--column-binary":
            more = [option, "on"]
        built[command] = _transfer(command, *more)
    first = built["simulate"]
    assert all(_same(first, other) for other in built.values()), built
    if option is not None:
        assert not _same(first, _transfer("simulate")), f"{option} {VALUES[option]} changed nothing"


def test_parameters_list_the_defaults_the_commands_use(capsys):
    """``simulate --parameters`` lists the library's settings: the defaults of every command."""
    from ibm1013.sim.transfer import CircuitConfig, MechanicsConfig, TransferConfig
    from ibm1013.str import SessionConfig, parameter_sources

    assert main(["simulate", "--parameters"]) == 0
    listed = dict(re.findall(r"^\s+(\w+)\s+(.+?)\s{2,}", capsys.readouterr().out, re.M))
    built = _transfer("simulate")
    assert built == TransferConfig(seed=built.seed)
    for obj, used in ((SessionConfig(), built.session), (CircuitConfig(), built.line),
                      (MechanicsConfig(), built.mechanics)):
        for name, value, _source in parameter_sources(obj):
            shown = value.describe() if hasattr(value, "describe") else value
            assert listed[name] == str(shown) and getattr(used, name) == value, name


def test_json_settings_agree(tmp_path, capsys):
    """``simulate --json`` and ``theory --json`` give the same settings for the same options (they
    gave ``columns`` as ``columns 1-80`` and ``80``), and a real end the same bit rate and columns."""
    from emulator.card import Card
    from emulator.formats import write_deck
    from ibm1013.cli.serial import _endpoint_config
    from ibm1013.line.endpoint import new_report

    deck = tmp_path / "deck.txt"
    with open(deck, "wb") as f:
        write_deck([Card.from_text("HELLO")] * 3, f, "text")
    given = ["--bit-rate", "2400", "--columns", "40", "--on-give-up", "skip", "--ber", "1e-5"]
    settings = {}
    for command in ("simulate", "theory"):
        assert main([command, str(deck), *given, "--json"]) in (0, 1)
        settings[command] = json.loads(capsys.readouterr().out)["settings"]
    common = set(settings["simulate"]) & set(settings["theory"])
    assert {"bit_rate", "columns", "on_give_up", "ber", "duplex", "mechanics"} <= common
    assert {k: settings["simulate"][k] for k in common} == {k: settings["theory"][k] for k in common}
    for command in ("send", "receive"):
        args = PARSER.parse_args(_argv(command, "--bit-rate", "2400", "--columns", "40"))
        real = new_report(_endpoint_config(args), command, "PORT").settings
        assert {k: real[k] for k in ("bit_rate", "columns")} == \
            {k: settings["simulate"][k] for k in ("bit_rate", "columns")}


BAD = ("nan", "-1", "0", "bogus", "1e9", "20-10", "1.5", "none", "81", "1e-9", "/", "-")
"""Values to offer every shared option: each command must refuse the same ones, in the same words."""


@pytest.mark.parametrize("option", sorted(o for o, acts in SHARED.items()
                                          if any(callable(a.type) for a in acts.values())))
def test_a_shared_option_refuses_alike(option):
    commands = [c for c, a in SHARED[option].items() if callable(a.type)]
    refused = 0
    for value in BAD:
        said = {}
        for command in commands:
            _args, err = _parse(_argv(command, option, value))
            said[command] = err.strip().splitlines()[-1].split(f"argument {option}: ", 1)[-1] if err else ""
        assert len(set(said.values())) == 1, (value, said)
        refused += bool(said[commands[0]])
    assert refused  # some bad value was offered


# -- what theory refuses ---------------------------------------------------------------------------
TRIED = {"--bit-rate": ["20", "34", "35"], "--columns": ["auto", "10"], "--mechanics": ["overlap", "serial"],
         "--cut-at": ["5", "none"], "--duplex": ["half"], "--ber": ["0.5"], "--on-give-up": ["skip"],
         "--burst": ["1e-4,0.01,0.1"], "--turnaround": ["2.5"]}
"""Values of every option theory and sweep share, some of which the theory refuses."""


def test_every_shared_option_is_tried():
    theory, sweep = set(_options("theory")), set(_options("sweep"))
    shaping = {o for o in theory & sweep if o in VALUES and VALUES[o] is not None}
    assert shaping <= set(TRIED)


@pytest.mark.parametrize("option, value", [(o, v) for o, vs in sorted(TRIED.items()) for v in vs])
def test_sweep_theory_refuses_what_theory_refuses(tmp_path, capsys, option, value):
    """``sweep --columns auto --theory`` dropped the theory without a word where ``theory`` refused."""
    theory = main(["theory", option, value])
    theory_said = capsys.readouterr().err
    out = tmp_path / "runs.jsonl"
    sweep = main(["sweep", "--cards", "2", "--seeds", "1", "--workers", "1", option, value, "--theory",
                  "-o", str(out)])
    sweep_said = capsys.readouterr().err
    if theory == 2:
        assert (sweep, sweep_said) == (2, theory_said) and not out.exists()
    else:
        assert theory == 0 and sweep in (0, 1)
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        assert rows and all(r["theory_cards_per_minute"] is not None for r in rows)


def test_theory_refuses_when_the_arguments_are_parsed(capsys):
    """Before any work: a refused setting is named even when the deck does not exist."""
    assert main(["theory", "no-such-deck.cbn", "--columns", "auto"]) == 2
    assert "not auto" in capsys.readouterr().err


@pytest.mark.parametrize("option", sorted(__import__("ibm1013.cli.simulate", fromlist=["x"]).THEORY_REFUSES))
def test_theory_help_says_what_it_refuses(option, capsys):
    """``theory --help`` offered auto, overlap and --cut-at without a word: each option the theory
    refuses a value of says so in its help, and the theory does refuse a value of it."""
    from ibm1013.cli.simulate import THEORY_REFUSES

    help_text = " ".join(COMMANDS[("theory",)].format_help().split())
    assert " ".join(THEORY_REFUSES[option].split()) in help_text
    refused = [v for v in TRIED[option] if main(["theory", option, v]) == 2]
    capsys.readouterr()
    assert refused


def test_the_parser_defaults_written_as_constants_are_the_librarys():
    """Defaults the parser must give without importing the protocol code, held to the library's."""
    from decks.solver.search import HINT_SECONDS
    from ibm1013.cli.games import DEFAULT_HINT_SECONDS
    from ibm1013.str.config import GIVE_UP_STOP
    from ibm1013.str.stream import KEEPALIVE_S

    assert options.DEFAULT_ON_GIVE_UP == GIVE_UP_STOP
    assert options.DEFAULT_KEEPALIVE_S == KEEPALIVE_S
    assert DEFAULT_HINT_SECONDS == HINT_SECONDS
