"""``ibm1013 completion`` and ``ibm1013 manpage``: shell completion and a manual page, both generated
from the command line's own parser, so they always match the commands and options there are.

::

    ibm1013 completion bash > ~/.local/share/bash-completion/completions/ibm1013
    ibm1013 completion zsh > ~/.zfunc/_ibm1013          # with fpath+=(~/.zfunc) in ~/.zshrc
    ibm1013 manpage -o ibm1013.1 && man -l ibm1013.1

Completion scripts come from the ``shtab`` package (PyPI); they offer the commands, options, choices
(formats, codes and games too), file names for arguments that take a file (``DECK``, ``FILE``, ``-o``
…) and directories for ``DIR``.  The manual page is written in roff by the ``argparse-manpage``
package (PyPI).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from typing import Any

from emulator.errors import ExitStatus
from ibm1013.cli import argtypes

SHELLS = ("bash", "zsh")
FILE_WORDS = ("IN", "OUT", "PATH", "PORT")
"""Metavar words that name a file (a port is a device file, a pty path or a URL), besides any word
ending in DECK or FILE (``RECEIVED_DECK``, ``TEXTFILE``, ``FILE.png``)."""


def takes_a_file(metavar: str) -> bool:
    return any(word in FILE_WORDS or word.endswith(("DECK", "FILE"))
               for word in re.split(r"[^A-Z]+", metavar.upper()))


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "completion", help="print a shell completion script (bash or zsh)",
        description="Print a script that lets SHELL complete ibm1013's commands, options, choices and "
                    "file names.  bash: save it as ~/.local/share/bash-completion/completions/ibm1013 "
                    "(or 'source' it).  zsh: save it as _ibm1013 in a directory on $fpath.",
    )
    p.add_argument("shell", metavar="SHELL", choices=SHELLS, help="bash or zsh")
    p.set_defaults(func=completion)

    p = sub.add_parser(
        "manpage", help="write the manual page (roff), generated from these commands' help",
        description="Write ibm1013's manual page, every command and option with its help, in roff: "
                    "read it with 'man -l FILE' or install it as ibm1013.1 in a man directory.",
    )
    p.add_argument("-o", "--output", metavar="FILE", default="-", type=argtypes.output_file,
                   help="where to write it ('-' = standard output)")
    p.set_defaults(func=manpage)


def walk(parser: argparse.ArgumentParser) -> Iterator[tuple[argparse.ArgumentParser, argparse.Action]]:
    """Every (parser, action) pair of ``parser`` and all its subparsers, depth first."""
    for action in parser._actions:
        yield parser, action
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):  # aliases map to the same parser
                yield from walk(child)


def mark_completions(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Tell shtab what to offer: the names a choice type knows (formats, codes, games), and files or
    directories for arguments that take them.  ``parser`` is changed: use one built for this alone."""
    import shtab

    for _parser, action in walk(parser):
        if isinstance(action, argparse._SubParsersAction):
            for listed in action._choices_actions:  # zsh lists commands by their short help, not the
                action.choices[listed.dest].description = listed.help  # whole description
            continue
        metavar = str(action.metavar or "").upper()
        names = getattr(action.type, "names", None)
        if names is not None and not action.choices:
            action.choices = names()  # only shtab reads them: this parser never parses
        if action.choices or action.nargs == 0:
            continue
        if action.type is argtypes.output_directory or metavar == "DIR":
            action.complete = shtab.DIRECTORY  # type: ignore[attr-defined]
        elif action.type is argtypes.output_file or takes_a_file(metavar):
            action.complete = shtab.FILE  # type: ignore[attr-defined]
    return parser


def completion_script(shell: str) -> str:
    """The completion script for ``shell``, made from the whole parser."""
    import shtab

    from ibm1013.cli.main import build_parser

    return shtab.complete(mark_completions(build_parser()), shell=shell)


def manual_page() -> str:
    """The manual page in roff, made from the whole parser."""
    from argparse_manpage.manpage import Manpage

    from ibm1013.cli.main import build_parser, help_with_default, version

    parser = build_parser()
    for owner, action in walk(parser):
        owner.formatter_class = _unwrapped  # man fills the lines itself
        if action.help and action.help is not argparse.SUPPRESS:  # argparse-manpage shows help as it is
            action.help = help_with_default(action)
    data: dict[str, Any] = {
        "prog": "ibm1013", "project_name": "ibm1013", "version": version(), "manual_section": 1,
        "manual_title": "ibm1013 manual",
        "description": "punched cards, card decks and the IBM 1013 Card Transmission Terminal",
    }
    return str(Manpage(parser, data))


def _unwrapped(prog: str) -> argparse.HelpFormatter:
    from ibm1013.cli.main import HelpFormatter

    return HelpFormatter(prog, width=10_000)


def completion(args: argparse.Namespace) -> int:
    print(completion_script(args.shell), end="")
    return ExitStatus.OK


def manpage(args: argparse.Namespace) -> int:
    from emulator.atomic import atomic_output

    with atomic_output(args.output) as out:
        out.write(manual_page().encode())
    return ExitStatus.OK
