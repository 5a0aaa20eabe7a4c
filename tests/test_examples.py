"""The examples run, and the sample decks are exactly what the scripts and commands produce."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from decks import compact, engine, punch
from emulator.formats import read_deck
from ibm1013.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
DECKS = EXAMPLES / "decks"
STALE = "the sample decks are out of date: run python examples/make_decks.py"


def run_script(name: str, *args: str | os.PathLike[str]) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, str(EXAMPLES / name), *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


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
