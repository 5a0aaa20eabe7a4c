"""What ``ibm1013`` (and ``python -m ibm1013``) runs first: the commonest answers, without argparse.

Importing argparse (with ``re``, ``enum`` and ``gettext``) costs more, in a wheel install, than the
interpreter's own start-up, and formatting a help imports ``textwrap`` and ``locale`` besides.  Two
commands are asked most and answered often in scripts, so they are answered from what argparse
answered before (:mod:`ibm1013.cli.prepared`, written by ``python -m ibm1013.cli.prepare``; the
tests hold it to the parser):

* ``ibm1013``, ``ibm1013 -h``, ``ibm1013 --help``: the help text, byte for byte argparse's, when the
  terminal is one of the widths kept (80, which pipes and files get; a few more; and every width from
  the one at which no line wraps);
* ``ibm1013 cards decode DECK`` (DECK not ``-`` nor an option): the arguments argparse would parse,
  handed to the very function argparse's parse hands them to.

Anything else (another width, another option, an error, ``--version``; any command under another
version of Python than the one the answers were prepared in) is argparse's, in
:mod:`ibm1013.cli.main`; its answers are the only ones written by hand.
"""

from __future__ import annotations

import sys

from ibm1013.cli import prepared
from ibm1013.cli.terminal import answer, stop_signals_interrupt, terminal_columns

TYPE_CHECKING = False  # typing is not imported at run time: this is on the path of every command
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence


class Namespace:
    """The parsed arguments, as :class:`argparse.Namespace` holds them (attributes, compared by
    value), without importing argparse."""

    func: Callable[[Namespace], int]
    """The command's function (``set_defaults(func=…)`` where the command is registered)."""

    def __init__(self, **values: object) -> None:
        self.__dict__.update(values)

    def __eq__(self, other: object) -> bool:
        return vars(self) == vars(other) if hasattr(other, "__dict__") else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # as argparse's: mutable, compared by value

    def __repr__(self) -> str:
        return f"Namespace({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


def prepared_help(columns: int) -> str | None:
    """The help of ``ibm1013`` at a terminal ``columns`` wide, if it was prepared for that width."""
    if prepared.WIDE_FROM <= columns <= prepared.WIDEST:
        return prepared.HELP[prepared.WIDE_FROM]
    return prepared.HELP.get(columns) if columns < prepared.WIDE_FROM else None


def decode_arguments(argv: Sequence[str]) -> Namespace | None:
    """The arguments of ``cards decode DECK`` as argparse parses them, or None for any other
    command line (argparse's, then): only a DECK that argparse can read as nothing but a path."""
    if len(argv) != 3 or tuple(argv[:2]) != prepared.DECODE_ARGV or argv[2][:1] in ("", "-"):
        return None
    from emulator.lazy import imported

    module, name = prepared.DECODE_FUNC  # the module that registers the command
    return Namespace(**prepared.DECODE_DEFAULTS, **{prepared.DECODE_DECK: argv[2]},
                     func=getattr(imported(module), name))


def main(argv: Sequence[str] | None = None) -> int:
    """``ibm1013 ARGV``: the exit status (``sys.argv[1:]`` when ``argv`` is None)."""
    args = tuple(sys.argv[1:] if argv is None else argv)
    if sys.version_info[:2] != prepared.PYTHON:  # argparse may answer otherwise there
        return _with_argparse(argv)
    if args in prepared.HELP_ANSWERS:
        text = prepared_help(terminal_columns())
        if text is not None:
            stream, status = prepared.HELP_ANSWERS[args]
            return answer(lambda: _write(text, stream, status))
    decode = decode_arguments(args)
    if decode is not None:
        with stop_signals_interrupt():
            return answer(lambda: decode.func(decode))
    return _with_argparse(argv)


def _with_argparse(argv: Sequence[str] | None) -> int:
    from ibm1013.cli.main import main as answer_with_argparse

    return answer_with_argparse(argv)


def _write(text: str, stream: str, status: int) -> int:
    """Print the help as argparse does (``print_help``, then ``_print_message``): a closed stream
    (``>&-``) is replaced by standard output, then standard error; nothing said if none can be written."""
    out = (sys.stderr if stream == "stderr" else None) or sys.stdout or sys.stderr
    try:
        out.write(text)
    except (AttributeError, OSError):
        pass
    return status

