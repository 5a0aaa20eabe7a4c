"""The public API: what ``__all__`` names at the top of ``emulator``, ``decks`` and ``ibm1013``.

* Its surface (names and signatures) is pinned in ``tests/data/public_api.txt``: a change fails
  here until it is written there on purpose (``python tests/test_public_api.py``) and recorded in
  ``CHANGELOG.md`` (semantic versioning: the public API is what ``__all__`` names).
* The package tops are lazy (PEP 562): importing them loads nothing of ours behind them.
* The library functions are the commands: the same settings give the same results, a bad value is
  refused in the command's words, and their defaults are the command's.
* The docstring examples of the public modules run (doctest).
"""

from __future__ import annotations

import doctest
import enum
import importlib
import inspect
import json
import os
import subprocess
import sys
import typing
from pathlib import Path

import pytest

import emulator
import ibm1013
from ibm1013.cli import keywords, library
from ibm1013.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
SURFACE = ROOT / "tests" / "data" / "public_api.txt"
PACKAGES = ("emulator", "decks", "ibm1013")
HELLO = ROOT / "examples" / "sample-decks" / "hello.cbn"
DOCTESTED = ("emulator", "emulator.card", "emulator.deckfile", "decks", "ibm1013", "ibm1013.cli.library",
             "ibm1013.report", "ibm1013.theory.figures")
"""The modules whose docstring examples run: the package tops and the modules of public names that
carry examples."""


def _signature(obj: object) -> str:
    try:
        return str(inspect.signature(obj))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "(...)"


def _describe(package: str, name: str, obj: object) -> list[str]:
    """One line for a public name, and one for each public method of a public class."""
    where = f"{package}.{name}"
    if typing.get_origin(obj) is not None:  # a type alias: what it stands for
        return [f"{where}: alias of {obj}"]
    if isinstance(obj, type) and issubclass(obj, enum.Enum):
        return [f"{where}: enum " + ", ".join(f"{m.name}={m.value!r}" for m in obj)]
    if inspect.isclass(obj):
        lines = [f"{where}: class{_signature(obj)}"]
        for attr, member in sorted(vars(obj).items()):
            if attr.startswith("_") and not (attr.startswith("_repr_") or attr == "__init__"):
                continue
            if attr == "__init__":
                continue
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            if inspect.isfunction(member):
                lines.append(f"{where}.{attr}{_signature(member)}")
            elif isinstance(member, property):
                lines.append(f"{where}.{attr}: property")
        return lines
    if callable(obj):
        return [f"{where}{_signature(obj)}"]
    if name == "__version__":
        return [f"{where}: str"]
    return [f"{where}: {type(obj).__name__}"]


def surface() -> list[str]:
    """Every public name of the three packages with its signature."""
    lines = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in sorted(module.__all__):
            lines += _describe(package, name, getattr(module, name))
    return lines


def source_surface() -> list[str]:
    """:func:`surface` of the Python source, whichever build this process runs: functions and
    classes that mypyc compiled carry no signature of their own, and the API is the source's."""
    run = subprocess.run([sys.executable, __file__, "--print"], capture_output=True, text=True, timeout=300,
                         cwd=ROOT, env={**os.environ, "IBM1013_PURE_PYTHON": "1"})
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


def test_the_public_surface_is_the_one_written_down():
    written = SURFACE.read_text(encoding="utf-8").splitlines()
    assert source_surface() == written, (
        "the public API changed: if that is meant, run python tests/test_public_api.py to write it "
        "down, and say so in CHANGELOG.md")


def test_the_changelog_names_every_public_name():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    for package in PACKAGES:
        for name in importlib.import_module(package).__all__:
            assert f"`{package}.{name}" in text, f"CHANGELOG.md does not name {package}.{name}"


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_is_there_and_listed(package):
    module = importlib.import_module(package)
    for name in module.__all__:
        assert getattr(module, name) is not None
        assert name in dir(module)
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        module.nothing_here  # noqa: B018


def test_importing_the_packages_loads_nothing_behind_them():
    """``ibm1013 --help`` imports ``ibm1013``: its top must stay as cheap as it was (its build
    choice, ``emulator.compiled``, the lazy loader, ``emulator.lazy``, and nothing more of ours; no
    numpy, no pandas, no renderer)."""
    code = ("import sys, json; import ibm1013, emulator, decks; "
            "print(json.dumps(sorted(sys.modules)))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    loaded = set(json.loads(run.stdout))
    ours = {m for m in loaded if m.split(".")[0] in PACKAGES}
    assert ours == {"ibm1013", "emulator", "emulator.compiled", "emulator.lazy", "decks"}
    assert not loaded & {"numpy", "pandas", "matplotlib", "PIL", "simpy", "importlib.metadata"}


def test_the_version_is_the_installed_packages_and_the_commands():
    from importlib.metadata import version

    run = subprocess.run([sys.executable, "-m", "ibm1013", "--version"], capture_output=True, text=True,
                         timeout=120)
    assert run.stdout.split() == ["ibm1013", ibm1013.__version__]
    assert ibm1013.__version__ == version("ibm1013")


# -- the functions are the commands ----------------------------------------------------------------
def test_simulate_gives_the_report_the_command_prints(capsys):
    assert main(["simulate", str(HELLO), "--ber", "0.001", "--seed", "7", "--columns", "auto",
                 "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    report = ibm1013.simulate(HELLO, ber=1e-3, seed=7, columns="auto")
    assert report.to_dict() == printed
    assert report.retransmissions > 0  # the noise did something
    cards = emulator.read_deck(HELLO)
    assert ibm1013.simulate(cards, ber=1e-3, seed=7, columns="auto") == report  # cards, not a file


def test_transfer_gives_what_the_far_end_punched(tmp_path, capsys):
    received = tmp_path / "copy.cbn"
    assert main(["simulate", str(HELLO), "--ber", "0.001", "--seed", "3", "-o", str(received)]) == 0
    run = ibm1013.transfer(HELLO, ber=1e-3, seed=3)
    assert run.received_cards() == emulator.read_deck(received) == emulator.read_deck(HELLO)


def test_work_out_gives_the_figures_the_command_prints(capsys):
    assert main(["theory", str(HELLO), "--ber", "0.0001", "--columns", "20", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    printed.pop("settings")
    meaningful = printed.pop("undetected_meaningful")  # a yes or no beside the figures
    assert ibm1013.work_out(HELLO, ber=1e-4, columns=20).undetected_meaningful is meaningful
    assert ibm1013.work_out(HELLO, ber=1e-4, columns=20).to_dict() == printed
    assert ibm1013.work_out(emulator.read_deck(HELLO), ber=1e-4, columns=20).to_dict() == printed


def test_sweep_grid_gives_the_summary_the_command_prints(capsys):
    argv = ["sweep", "--cards", "5", "--ber", "0,0.001", "--columns", "80,40", "--seeds", "2",
            "--workers", "1", "--json"]
    assert main(argv) == 0
    printed = json.loads(capsys.readouterr().out)
    result = ibm1013.sweep_grid(cards=5, ber=[0, 1e-3], columns=[80, 40], seeds=2, workers=1)
    assert json.loads(json.dumps(result.summary)) == printed["points"]
    assert len(result.rows) == 8


@pytest.mark.parametrize(("keyword", "value", "option"), [
    ("ber", 2, "--ber"), ("bit_rate", 0, "--bit-rate"), ("bit_rate", 1200.5, "--bit-rate"),
    ("duplex", "quarter", "--duplex"), ("columns", "0", "--columns"), ("turnaround", -1, "--turnaround"),
    ("burst", (2, 0, 0), "--burst"), ("seed", -1, "--seed"), ("start_at", 0, "--start-at"),
    ("on_give_up", "never", "--on-give-up"), ("code", "031", "--code"), ("cut_at", "soon", "--cut-at"),
])
def test_simulate_refuses_what_the_command_refuses_in_its_words(keyword, value, option, capsys):
    text = keywords._text(value)
    assert main(["simulate", str(HELLO), option, text]) == 2
    said = capsys.readouterr().err.strip()
    assert said.startswith("ibm1013: simulate: argument " + option)
    with pytest.raises(keywords.SettingError) as refused:
        ibm1013.simulate(HELLO, **{keyword: value})
    assert f"ibm1013: {refused.value}" == said


def test_a_flag_takes_true_or_false_only():
    with pytest.raises(keywords.SettingError, match="--column-binary: must be True or False, not 1"):
        ibm1013.simulate(HELLO, column_binary=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="unexpected keyword argument 'bitrate'"):
        ibm1013.simulate(HELLO, bitrate=1200)  # type: ignore[call-arg]


def _defaults(function: object) -> dict[str, object]:
    params = inspect.signature(function).parameters.values()  # type: ignore[arg-type]
    return {p.name: p.default for p in params
            if p.default is not inspect.Parameter.empty and p.name != "deck"}


@pytest.mark.parametrize(("function", "command"), [
    (ibm1013.simulate, "simulate"), (ibm1013.transfer, "simulate"), (ibm1013.work_out, "theory"),
    (ibm1013.sweep_grid, "sweep"),
])
def test_the_functions_defaults_are_the_commands(function, command):
    register = importlib.import_module(f"ibm1013.cli.{command}").register
    given = _defaults(function)
    if command == "sweep":
        given = library._sweep_words(given)
    ours, theirs = keywords.parse(register, command, given), keywords.parse(register, command, {})
    if command == "sweep":  # the lists of values of every dimension, as the sweep reads them
        from ibm1013.cli.sweep import sweep_values

        assert sweep_values(ours) == sweep_values(theirs)
        for args in (ours, theirs):
            args.columns = args.burst = None
    assert ours == theirs


def test_simulate_and_transfer_take_the_same_settings():
    assert inspect.signature(ibm1013.simulate).parameters == inspect.signature(ibm1013.transfer).parameters


def test_the_readme_example_runs_as_a_script(tmp_path):
    """The README's Python block, run as a user would (in a script, under the guard it names)."""
    import re
    import textwrap

    block = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    assert block is not None
    code = block.group(1).replace("seeds=5)", "seeds=1, workers=1)")  # quicker, on a shared machine
    script = tmp_path / "readme.py"
    script.write_text('if __name__ == "__main__":\n' + textwrap.indent(code, "    ")
                      + "    print(report.ended, len(runs.rows))\n")
    run = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["complete", "3"]


# -- docstring examples ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", DOCTESTED)
def test_the_docstring_examples_run(name, monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples read examples/sample-decks/
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, raise_on_error=False, report=True)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0


def test_every_function_of_the_faces_has_an_example():
    """The functions the API added (the commands as functions, decks and games in files) teach by
    example; the rest are the library's own, taught in their modules."""
    faces = {"ibm1013.cli.library", "decks", "emulator.deckfile"}
    missing = [f"{package}.{name}" for package in PACKAGES
               for name in importlib.import_module(package).__all__
               if inspect.isfunction(obj := getattr(importlib.import_module(package), name))
               and obj.__module__ in faces and ">>>" not in (obj.__doc__ or "")]
    assert missing == []


if __name__ == "__main__":
    if sys.argv[1:] == ["--print"]:
        print("\n".join(surface()))
    else:
        lines = source_surface()
        SURFACE.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{SURFACE}: {len(lines)} lines")
