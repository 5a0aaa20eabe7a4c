"""Start-up: the parser of every command is built without the heavy modules behind the commands.

``ibm1013 --help`` (and any parse error) must not pay for numpy, SimPy, the games or the solver: each
command imports what it needs when it runs.  ``cards decode`` of a small plain deck does not import
numpy either (:mod:`emulator.small_decks`).  The speed itself is measured by
tools/bench_startup.py.
"""

import os
import subprocess
import sys

import pytest

HEAVY = ("numpy", "simpy", "rich", "decks.engine", "decks.solver", "ibm1013.str", "importlib.metadata")


SLOW = ("json", "inspect", "dataclasses", "ast", "dis", "tokenize", "copy", "datetime", "random", "tempfile",
        "shutil", "pkgutil", "importlib.metadata", "typing", "threading", "ibm1013.report",
        "ibm1013.cli.cardroom")
"""What neither listing the commands nor decoding a small deck imports: the standard library's slow
imports (``json``; ``dataclasses``, which pulls in ``inspect``, ``ast``, ``dis``, ``tokenize``;
``tempfile``, which pulls in ``random`` and ``shutil``; ``pkgutil``, which imports ``inspect``;
``typing`` and ``threading``, a tenth of ``python -c pass`` each in a wheel install, where ``site``
has not imported them already), the transfer report and the card room's commands."""
LIGHT_HEAVY = (*SLOW, "emulator.codes", "emulator.formats", "emulator.card", "decks", "ibm1013.cli.cards",
               "ibm1013.cli.argtypes")
"""What listing the commands must not import either: the card codes and formats, any command's module."""


PREPARED = {**os.environ, "COLUMNS": "80"}
"""A terminal 80 wide (what a pipe gets), for which ``ibm1013 --help`` is prepared (ibm1013.cli.start)."""
ARGPARSE = {**os.environ, "COLUMNS": "90"}
"""A width for which the help is not prepared: argparse formats it (tests/test_start.py)."""


def imported_by(*argv: str, output: list[str] | None = None, module: str = "ibm1013",
                env: dict[str, str] = PREPARED) -> set[str]:
    """The modules ``python -m MODULE ARGV`` imports, as ``-X importtime`` lists them (its standard
    output is appended to ``output`` if given; ``module=""`` runs ``python -c pass``)."""
    run_what = ["-m", module, *argv] if module else ["-c", "pass"]
    run = subprocess.run([sys.executable, "-X", "importtime", *run_what],
                         capture_output=True, text=True, timeout=120, env=env)
    lines = [line for line in run.stderr.splitlines() if line.startswith("import time:")]
    assert lines, run.stderr
    if output is not None:
        output.append(run.stdout)
    return {line.rsplit("|", 1)[1].strip() for line in lines}


def heavy(modules: set[str], names: tuple[str, ...] = HEAVY) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in names))


ANSWERING = {"ibm1013.cli.start", "ibm1013.cli.terminal", "ibm1013.cli.prepared"}
"""What every command line imports first (ibm1013.cli.start)."""


@pytest.mark.parametrize(("argv", "env"), [(["--help"], ARGPARSE), ([], ARGPARSE), (["nope"], PREPARED)])
def test_listing_the_commands_imports_no_command_and_no_slow_module(argv, env):
    """``ibm1013 --help``, when argparse formats it, lists the commands from a written-out table
    (ibm1013.cli.main.COMMANDS): it builds no command's parser, so it imports no command's module,
    and nothing slow.  Counted beyond what ``python -c pass`` imports here (a ``.pth`` file may
    import some of these at start-up)."""
    modules = imported_by(*argv, env=env) - imported_by(module="")
    assert "ibm1013.cli.main" in modules  # the listing is real
    assert heavy(modules, HEAVY + LIGHT_HEAVY) == []
    assert {m for m in modules if m.startswith("ibm1013.cli.")} == {"ibm1013.cli.main",
                                                                     "ibm1013.cli.commands", *ANSWERING}


@pytest.mark.parametrize("argv", [["--help"], ["-h"], []])
def test_the_prepared_help_imports_nothing_but_the_answer(argv):
    """At a width it is prepared for, the help is printed from ibm1013.cli.prepared: no parser."""
    output: list[str] = []
    modules = imported_by(*argv, output=output) - imported_by(module="")
    assert {m for m in modules if m.startswith("ibm1013.cli.")} == ANSWERING
    assert heavy(modules, HEAVY + LIGHT_HEAVY + ("argparse", "emulator.errors", "signal")) == []


@pytest.mark.parametrize("argv", [["--help"], ["cards", "decode", "--format", "nope", "x"],
                                  ["simulate", "--help"], ["play", "--help"]])
def test_the_parser_imports_none_of_the_heavy_modules(argv):
    modules = imported_by(*argv, env=ARGPARSE)
    assert "ibm1013.cli.main" in modules  # the listing is real
    assert not heavy(modules)


@pytest.mark.parametrize("fmt", ["cbn", "text"])
def test_decoding_a_small_deck_imports_none_of_the_heavy_modules(fmt, tmp_path):
    from emulator.card import Card
    from emulator.formats import write_deck

    lines = [f"CARD {i} OF A SMALL DECK" for i in range(1, 6)]
    deck = tmp_path / f"five.{'cbn' if fmt == 'cbn' else 'txt'}"
    with open(deck, "wb") as out:
        write_deck([Card.from_text(line) for line in lines], out, fmt)
    output: list[str] = []
    modules = imported_by("cards", "decode", str(deck), output=output)
    assert "emulator.small_decks" in modules  # the listing is real, and the small path read the deck
    assert output == ["".join(line + "\n" for line in lines)]
    assert not heavy(modules)
    assert heavy(modules - imported_by(module=""), (*SLOW, "argparse", "ibm1013.cli.main", "signal")) == []


def test_the_defaults_written_out_for_the_parser_are_the_libraries():
    from decks.deals import MAX_DEAL
    from decks.solver import DEFAULT_MAX_NODES
    from ibm1013.cli import argtypes, games

    assert games.DEFAULT_MAX_NODES == DEFAULT_MAX_NODES
    assert argtypes.DEAL_NUMBER.high == MAX_DEAL


def test_decoding_a_small_deck_loads_the_keypunch_codes_alone(tmp_path):
    """Decoding a deck in the 029 code imports the code tables the advice needs, not every code's
    (:data:`emulator.codes.CODE_HOMES`): of a deck whose punches read alike on every keypunch, the
    029's alone (the 026's, on the 1401's BCD, load when a punch might read otherwise there).
    Counted from ``sys.modules``: the registry imports by name, which ``-X importtime`` does not list."""
    from emulator.card import Card
    from emulator.formats import write_deck

    deck = tmp_path / "five.cbn"
    with open(deck, "wb") as out:
        write_deck([Card.from_text(f"CARD {i} OF A SMALL DECK") for i in range(1, 6)], out, "cbn")
    program = ("import atexit, runpy, sys\n"
               "atexit.register(lambda: print(*sorted(sys.modules), file=sys.stderr))\n"
               f"sys.argv = ['ibm1013', 'cards', 'decode', {str(deck)!r}]\n"
               "runpy.run_module('ibm1013', run_name='__main__')\n")
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("CARD 1 OF A SMALL DECK\n"), run.stderr
    codes = {m for m in run.stderr.split() if m.startswith("emulator.codes.") and "._" not in m}
    assert codes == {"emulator.codes.ibm029", "emulator.codes.detect"}  # the 026's tables too, unless
    # every punch prints alike on every keypunch (emulator.codes.detect.ALIKE), as in this deck


ASKED = """\
import atexit, runpy, sys
names = {forget!r}
for name in names:  # as in a wheel install, where site imports none of them
    sys.modules.pop(name, None)
asked = set()
class Recorder:
    @staticmethod
    def find_spec(name, path=None, target=None):
        asked.add(name)
sys.meta_path.insert(0, Recorder)
atexit.register(lambda: print("ASKED", *sorted(asked & set(names)), file=sys.stderr))
sys.argv = ["ibm1013", *{argv!r}]
runpy.run_module("ibm1013", run_name="__main__")
"""


@pytest.mark.parametrize("argv", [["--help"], ["cards", "decode", "{deck}"]])
def test_start_up_imports_neither_typing_nor_threading_even_where_site_has(argv, tmp_path):
    """Where ``site`` has imported them already (an editable install's finder imports ``typing``),
    ``-X importtime`` cannot tell whether a command would: here they are forgotten first, and the
    imports asked for are recorded."""
    from emulator.card import Card
    from emulator.formats import write_deck

    deck = tmp_path / "five.cbn"
    with open(deck, "wb") as out:
        write_deck([Card.from_text(f"CARD {i}") for i in range(1, 6)], out, "cbn")
    argv = [arg.format(deck=deck) for arg in argv]
    program = ASKED.format(forget=("typing", "threading"), argv=argv)
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout, run.stderr
    assert run.stderr.split("ASKED", 1)[1].split() == []


ARGPARSE_ITS_OWN = ("argparse", "re", "textwrap", "gettext", "locale", "typing", "threading", "signal")
"""What argparse, and formatting its help, import: none of it where the answer was prepared."""


@pytest.mark.parametrize(("argv", "forget"), [(["--help"], (*ARGPARSE_ITS_OWN, "enum")),
                                              ([], (*ARGPARSE_ITS_OWN, "enum")),
                                              (["cards", "decode", "{deck}"], (*ARGPARSE_ITS_OWN, "enum"))])
def test_the_prepared_answers_import_no_argparse_even_where_site_has(argv, forget, tmp_path):
    """``ibm1013 --help`` at a width prepared for and ``cards decode DECK`` import neither argparse
    nor ``re`` or ``textwrap``, even where ``site`` imported them (forgotten first, the imports asked
    for recorded), nor :mod:`enum`: the exit statuses are an enum, which decoding names without
    importing it."""
    from emulator.card import Card
    from emulator.formats import write_deck

    deck = tmp_path / "five.cbn"
    with open(deck, "wb") as out:
        write_deck([Card.from_text(f"CARD {i}") for i in range(1, 6)], out, "cbn")
    program = ASKED.format(forget=forget, argv=[arg.format(deck=deck) for arg in argv])
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120,
                         env=PREPARED)
    assert run.returncode == (2 if argv == [] else 0) and (run.stdout or argv == []), run.stderr
    assert run.stderr.split("ASKED", 1)[1].split() == []


def test_the_exit_status_decoding_names_is_the_enums():
    """``cards decode`` ends with a plain 0, not :class:`~emulator.errors.ExitStatus` (an enum, loaded
    when first asked for: :mod:`emulator.exit_status`); the public names are the one enum."""
    import enum

    import ibm1013
    from emulator import errors
    from emulator.exit_status import ExitStatus
    from ibm1013.cli import decode

    assert decode.OK == ExitStatus.OK and type(decode.OK) is int
    assert errors.ExitStatus is ExitStatus is ibm1013.ExitStatus and issubclass(ExitStatus, enum.IntEnum)
    with pytest.raises(AttributeError, match="no attribute 'Exit'"):
        errors.Exit  # noqa: B018  # any other name is missing, as in a module without __getattr__


OFF_THE_DECODING_PATH = ("enum", "emulator.exit_status", "emulator.card", "ibm1013.cli.cards",
                         "emulator.codes.ibm026", "emulator.codes.bcd1401", "encodings.cp037",
                         "emulator.words", "contextlib", "errno", "collections.abc", "emulator.punches",
                         "emulator.formats._streams", "ibm1013.cli.deckfiles",
                         "emulator.formats")
"""What ``cards decode`` of a small plain deck does without (issue 52: a wheel install's start-up):
the exit statuses' enum (it ends with a plain 0), the :class:`~emulator.card.Card` (it decodes column
words), the other ``cards`` actions (:mod:`ibm1013.cli.decode` is apart), the 026's tables (every
punch reads alike on every keypunch: :data:`emulator.codes.detect.ALIKE`), the cp037 codec (the 029's
characters are written out), the counting of words, :mod:`contextlib` (the deck files' contexts are
made with :func:`emulator.lazy.contextmanager`; the two it enters, classes), :mod:`errno` (asked
only when a command fails), :mod:`collections.abc` (named in annotations alone), the punch notation
(:mod:`emulator.punches`: only an error or an advice names punches) and the raw streams a deck is
read through in bulk (:mod:`emulator.formats._streams`), nor every way a deck file is read and
written (:mod:`ibm1013.cli.deckfiles`: what it needs of those is in :mod:`ibm1013.cli.deckpaths`),
nor the deck formats' package (the small deck is read by :mod:`emulator.small_decks`).  Each of these
modules costs the command about a hundredth of ``python -c pass`` in a wheel install."""


def test_decoding_a_small_plain_deck_leaves_these_alone(tmp_path):
    """Of a CBN deck (a text deck is also read in the other text formats, the 1401's among them:
    :mod:`emulator.formats.ambiguity`).  Counted from the imports asked for (forgotten first, where
    ``site`` imported one): the registry imports by name, which ``-X importtime`` does not list."""
    from emulator.card import Card
    from emulator.formats import write_deck

    deck = tmp_path / "five.cbn"
    with open(deck, "wb") as out:
        write_deck([Card.from_text(f"CARD {i} OF A SMALL DECK, 1-2/3.") for i in range(1, 6)], out, "cbn")
    program = ASKED.format(forget=OFF_THE_DECODING_PATH, argv=["cards", "decode", str(deck)])
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120,
                         env=PREPARED)
    assert run.returncode == 0 and run.stdout.startswith("CARD 1 OF A SMALL DECK, 1-2/3.\n"), run.stderr
    assert run.stderr.split("ASKED", 1)[1].split() == []
