"""The examples run as a user runs them (``python examples/X.py`` from the repository root, no
``PYTHONPATH``: ``tests/as_user.py``), and the sample decks are exactly what the scripts and commands
produce."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import as_user
import pytest

from decks import compact, engine, punch
from emulator.formats import read_deck
from ibm1013.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
DECKS = EXAMPLES / "sample-decks"
STALE = "the sample decks are out of date: run python examples/make_decks.py"
PACKAGES = ("emulator", "ibm1013", "decks", "tools", "tests")


def run_script(name: str, *args: str | os.PathLike[str]) -> str:
    proc = as_user.run(EXAMPLES / name, *args)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def readme_commands() -> list[str]:
    """The lines of the shell block in examples/README.md."""
    text = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block is not None
    return block.group(1).splitlines()


def test_nothing_beside_the_examples_is_named_like_a_package():
    """A script's folder comes first on sys.path: ``examples/decks/`` hid the ``decks`` package."""
    clash = [p.name for p in EXAMPLES.iterdir() if p.stem.replace("-", "_") in PACKAGES]
    assert not clash, f"examples/{clash[0]} hides the package of that name from the example scripts"


def test_the_user_harness_sees_a_folder_that_hides_a_package(tmp_path):
    """What made ``send_a_game.py`` fail for a user fails under ``as_user.run`` too (and only that)."""
    script = tmp_path / "list_games.py"
    script.write_text("from decks import engine\nprint(len(engine.game_names()))\n")
    good = as_user.run(script, cwd=tmp_path)
    assert good.returncode == 0 and int(good.stdout) > 20, good.stderr
    (tmp_path / "decks" / "games").mkdir(parents=True)
    (tmp_path / "decks" / "games" / "klondike.txt").write_text("a sample deck\n")
    bad = as_user.run(script, cwd=tmp_path)
    assert bad.returncode != 0 and "Traceback" in bad.stderr, bad.stdout


@pytest.mark.parametrize("line", readme_commands())
def test_every_command_of_the_examples_readme_runs(line, tmp_path):
    words = [str(tmp_path) if w == "/tmp/out" else w for w in shlex.split(line)]
    if words[0] == "ibm1013":
        words = [sys.executable, "-m", "ibm1013", *words[1:]]
    else:
        assert words[0] == "python" and words[1].startswith("examples/")
        words = [sys.executable, *words[1:]]
    proc = subprocess.run(words, cwd=ROOT, env=as_user.env(), input="quit\n", capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout.strip(), line


def files(top: Path) -> dict[str, bytes]:
    return {str(p.relative_to(top)): p.read_bytes() for p in sorted(top.rglob("*")) if p.is_file()}


def test_encode_deck_script_writes_the_sample_decks(tmp_path):
    out = run_script("encode_deck.py", DECKS / "hello.f", tmp_path)
    assert out.startswith("5 cards -> hello.cbn (800 bytes), hello.ebcdic (400 bytes)")
    assert "punched 0-4-8 on the 026 (029: 12-5-8)" in out
    for name in ("hello.cbn", "hello.ebcdic"):
        assert (tmp_path / name).read_bytes() == (DECKS / name).read_bytes(), STALE


def test_the_command_line_punches_the_same_decks(tmp_path, capsys):
    src = str(DECKS / "hello.f")
    assert main(["cards", "encode", src, "-o", str(tmp_path / "h.cbn"), "--code", "026-fortran"]) == 0
    assert main(["cards", "encode", src, "-o", str(tmp_path / "h.ebcdic"), "--format", "ebcdic"]) == 0
    assert (tmp_path / "h.cbn").read_bytes() == (DECKS / "hello.cbn").read_bytes()
    assert (tmp_path / "h.ebcdic").read_bytes() == (DECKS / "hello.ebcdic").read_bytes()


def test_simulate_transfer_script():
    lines = run_script("simulate_transfer.py", DECKS / "hello.cbn").splitlines()
    assert lines[0] == f"{DECKS / 'hello.cbn'}: 5 cards"
    assert lines[2].split()[-4:] == ["100.0", "0", "0", "yes"]  # the documented 100 cards/min
    assert len(lines) == 6 and all(line.endswith("yes") for line in lines[2:])
    assert int(lines[5].split()[-3]) > 0  # the noisy line made the terminals send again


def test_send_a_game_script():
    out = run_script("send_a_game.py", "klondike", "617").splitlines()
    assert out[0] == "klondike deal 617, moves t2 f1 t2 f2 s: 21 cards"
    assert out[-1] == "far end: klondike deal 617, move 3, same game: yes"


def test_sweep_script_is_seeded_and_noise_costs_speed():
    first = run_script("sweep_ber.py", DECKS / "hello.cbn", 3)
    assert first == run_script("sweep_ber.py", DECKS / "hello.cbn", 3)  # same seeds, same table
    rows = [line.split() for line in first.splitlines()[1:]]
    assert [r[0] for r in rows] == ["0", "0.0001", "0.0003", "0.001"]
    assert rows[0][1:] == ["100.0", "0.0", "3"]
    speeds = [float(r[1]) for r in rows]
    assert speeds == sorted(speeds, reverse=True) and speeds[-1] < 80


def test_make_decks_reproduces_every_sample(tmp_path):
    (tmp_path / "hello.f").write_bytes((DECKS / "hello.f").read_bytes())
    run_script("make_decks.py", tmp_path)
    assert files(tmp_path) == files(DECKS), STALE
    stems = sorted(p.stem for p in (DECKS / "games").iterdir())
    assert stems == sorted([*engine.game_names(), *(f"{g}-compact" for g in engine.game_names())]), STALE


@pytest.mark.parametrize("game", engine.game_names())
def test_game_samples_are_what_deal_punches(game, tmp_path, capsys):
    out = tmp_path / f"{game}.txt"
    assert main(["deal", game, "--deal", "1", "-o", str(out), "--format", "text"]) == 0
    sample = DECKS / "games" / f"{game}.txt"
    assert sample.exists() and out.read_bytes() == sample.read_bytes(), STALE
    with open(sample, "rb") as stream:
        state = punch.decode(list(read_deck(stream, code=punch.CODE)))
    assert state.game == game and state.deal_number == 1 and not state.history


@pytest.mark.parametrize("game", engine.game_names())
def test_compact_game_samples_are_what_deal_punches(game, tmp_path, capsys):
    out = tmp_path / f"{game}-compact.txt"
    assert main(["deal", game, "--deal", "1", "--compact", "-o", str(out), "--format", "text"]) == 0
    sample = DECKS / "games" / f"{game}-compact.txt"
    assert sample.exists() and out.read_bytes() == sample.read_bytes(), STALE
    with open(sample, "rb") as stream:
        cards = list(read_deck(stream, code=punch.CODE))
    state = compact.decode(cards)
    assert len(cards) == 1 and state == engine.deal(game, 1)


def _our_names(source: str) -> list[str]:
    """What ``source`` takes from our packages: ``pkg.name`` for each name imported from a package
    or used as an attribute of one imported whole, and the module itself for any deeper import."""
    import ast

    tree = ast.parse(source)
    taken, whole = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ("emulator", "decks", "ibm1013"):
                    taken += [alias.name] if "." in alias.name else []
                    whole.add(alias.asname or alias.name)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("emulator", "decks",
                                                                                         "ibm1013"):
            taken += [f"{node.module}.{alias.name}" for alias in node.names]
    taken += [f"{node.value.id}.{node.attr}" for node in ast.walk(tree) if isinstance(node, ast.Attribute)
              and isinstance(node.value, ast.Name) and node.value.id in whole]
    return taken


def public_names() -> set[str]:
    import importlib

    return {f"{p}.{n}" for p in ("emulator", "decks", "ibm1013") for n in importlib.import_module(p).__all__}


def test_the_examples_use_only_public_names():
    """The scripts and the notebook take from ``emulator``, ``decks`` and ``ibm1013`` only what their
    ``__all__`` names (``CHANGELOG.md``: the public API, versioned)."""
    import json

    sources = {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.py")}
    notebook = json.loads((EXAMPLES / "throughput.ipynb").read_text(encoding="utf-8"))
    code = "\n".join("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code")
    # IPython's magics (``%matplotlib inline``) are not Python: they take nothing from our packages.
    sources["throughput.ipynb"] = "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                                            for line in code.splitlines())
    public = public_names()
    private = {name: sorted(set(_our_names(text)) - public) for name, text in sources.items()}
    assert {name: used for name, used in private.items() if used} == {}
    caught = _our_names("from ibm1013.sim.transfer import run_transfer\nimport ibm1013\nibm1013.sim\n")
    assert caught == ["ibm1013.sim.transfer.run_transfer", "ibm1013.sim"]
