"""A command's own parser, fed Python keywords: how the library functions take their settings.

``ibm1013.simulate(deck, ber=1e-4, seed=7)`` is ``ibm1013 simulate DECK --ber 0.0001 --seed 7``:
:func:`parse` writes the keywords as the command's words and parses them with the command's parser
(its ``register``), so each value is checked by the very type that checks the option at the command
line, takes the same default and is refused in the same words — raised as an
:class:`~emulator.errors.IbmError` (``simulate: argument --ber: must be a number from 0 to 1, not
'2'``) instead of printed.  One mechanism: the library has no second set of checks to drift.

How a value becomes words: ``True`` is the bare flag and ``False`` leaves it out (a flag option);
``None`` is ``none``; a float is written as Python writes it (so it reads back exactly); a tuple is
its items joined by commas (``burst=(0.01, 0.5, 0.1)``); a list is a comma list, or the option given
once per item where the option is given several times (``--columns``, ``--burst`` of ``sweep``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import Any, NoReturn

from emulator.errors import IbmError


class SettingError(IbmError, ValueError):
    """A setting the command would refuse, in the command's words."""


class _Refusing(argparse.ArgumentParser):
    """A parser that raises :class:`SettingError` where the command line's prints one line and exits."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.partition(" ")[2]
        raise SettingError(f"{command + ': ' if command else ''}{' '.join(message.split())}")


Register = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]
"""A command module's ``register(subparsers)``, which adds its command's parser."""


def parser_of(register: Register, command: str) -> argparse.ArgumentParser:
    """The parser of ``command`` as its module's ``register`` builds it, errors raised."""
    top: argparse.ArgumentParser = _Refusing(prog="ibm1013", add_help=False)
    commands = top.add_subparsers(dest="command")
    register(commands)
    parser: argparse.ArgumentParser = commands.choices[command]
    return parser


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, tuple):
        return ",".join(_text(v) for v in value)
    return str(value)


def words(parser: argparse.ArgumentParser, values: Mapping[str, object],
          positionals: tuple[str, ...] = ()) -> list[str]:
    """The command line that gives ``values`` (by their destinations) to ``parser``."""
    by_dest = {a.dest: a for a in parser._actions if a.option_strings}
    argv: list[str] = []
    for name, value in values.items():
        action = by_dest.get(name)
        if action is None:
            raise TypeError(f"{parser.prog.partition(' ')[2]}: no setting {name!r}")
        flag = max(action.option_strings, key=len)
        if value is None and action.default is None:
            continue  # not given: the option's default
        if action.nargs == 0:  # a flag: store_true
            if not isinstance(value, bool):
                raise SettingError(f"{parser.prog.partition(' ')[2]}: argument {flag}: must be True or "
                                   f"False, not {value!r}")
            argv += [flag] if value else []
        elif isinstance(value, list) and isinstance(action, argparse._AppendAction):
            for item in value:
                argv += [flag, _text(item)]
        elif isinstance(value, list):
            argv += [flag, ",".join(_text(v) for v in value)]
        else:
            argv += [flag, _text(value)]
    return [*argv, "--", *positionals] if positionals else argv


def parse(register: Register, command: str, values: Mapping[str, object],
          positionals: tuple[str, ...] = ()) -> argparse.Namespace:
    """``values`` checked and completed with the defaults, as ``command``'s parser takes them."""
    parser = parser_of(register, command)
    return parser.parse_args(words(parser, values, positionals))
