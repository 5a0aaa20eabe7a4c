"""Commands whose parsers are built only when chosen (as pip and git do).

Building the parser of every command costs more than running a small one: hundreds of
``add_argument`` calls, a translation looked up on disk for each help message, the modules behind
every command.  So ``ibm1013`` lists its commands from a written-out table (the name, where it is
registered, the line of help) and builds a command's parser when that command is parsed.  The help
and the errors read as when every parser was built up front: the choices keep the table's order.
"""

from __future__ import annotations

import argparse
import importlib

TYPE_CHECKING = False  # typing is not imported at run time: this is on the path of every command
if TYPE_CHECKING:
    from typing import Any

    _Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]  # generic to the type checker only
else:
    _Subparsers = argparse._SubParsersAction

Listing = tuple[tuple[str, str, str], ...]
"""``(name, where, help)`` for each command: ``where`` is a module under ``ibm1013.cli`` whose
``register(subparsers)`` adds the command's parser, or ``module:function`` for another function
of that module taking the subparsers."""


class Commands(_Subparsers):
    """Subcommands, each parser built when its command is first parsed (:meth:`build`).

    :meth:`listing` puts every command of a :data:`Listing` in the choices and in the help, with
    no parser yet; building a command has its module register its parsers here, taking the places
    kept for them (a module may register several commands at once)."""

    def listing(self, commands: Listing) -> None:
        self._where: dict[str, str] = {}
        for name, where, summary in commands:
            self._where[name] = where
            self._choices_actions.append(self._ChoicesPseudoAction(name, (), summary))
            self._name_parser_map[name] = None  # type: ignore[assignment]  # a place kept: its parser not built yet

    def add_parser(self, name: str, **kwargs: object) -> argparse.ArgumentParser:
        """argparse's, or for a command listed already, its parser built in the place kept for it.
        ``kwargs`` are argparse's (its ``add_parser`` takes any keyword, for a parser class of one's
        own: ``object`` here, handed on as they are)."""
        given: dict[str, Any] = kwargs  # argparse's own types for them: Any (typeshed)
        if name in self._name_parser_map and self._name_parser_map[name] is None:
            given.pop("help", None)  # listed already
            given.setdefault("prog", f"{self._prog_prefix} {name}")
            parser: argparse.ArgumentParser = self._parser_class(**given)
            self._name_parser_map[name] = parser
            return parser
        return super().add_parser(name, **given)

    def pending(self) -> list[str]:
        """The commands listed whose parsers are not built yet."""
        return [name for name, parser in self._name_parser_map.items() if parser is None]

    def build(self, name: str) -> None:
        """Build the parser of command ``name`` (and those of the other commands registered with it)."""
        if name in self._name_parser_map and self._name_parser_map[name] is None:
            module, _, function = self._where[name].partition(":")
            register = getattr(importlib.import_module(f"ibm1013.cli.{module}"), function or "register")
            register(self)
            if self._name_parser_map[name] is None:
                raise LookupError(f"ibm1013.cli.{self._where[name]} did not register command {name!r}")
            from ibm1013.cli.options import refuse_contradictions_under

            for parser in dict.fromkeys(self._name_parser_map.values()):  # what register built
                if parser is not None:
                    refuse_contradictions_under(parser)

    def __call__(self, parser, namespace, values, option_string=None) -> None:  # type: ignore[no-untyped-def]
        self.build(values[0])
        super().__call__(parser, namespace, values, option_string)


def build_every(parser: argparse.ArgumentParser) -> None:
    """Build every command's parser under ``parser``, subcommands of subcommands too."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            if isinstance(action, Commands):
                for name in action.pending():
                    action.build(name)
            for child in dict.fromkeys(action.choices.values()):
                build_every(child)
