"""``ibm1013 play`` in a real terminal: tmux runs it on a pty, keys go in with send-keys, and what the
screen shows is read back with capture-pane."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from decks import engine
from tests.external import program

pytestmark = pytest.mark.timeout(120)


class Tmux:
    """A detached tmux session on its own server socket, ``width`` × ``height``."""

    def __init__(self, tmp_path, command: str, width: int = 110, height: int = 36) -> None:
        self.tmux = program("tmux", "tmux")
        self.socket = str(tmp_path / "tmux.sock")
        self.run("new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height), command)

    def run(self, *args: str) -> str:
        return subprocess.run([self.tmux, "-S", self.socket, *args], check=True, capture_output=True,
                              text=True, timeout=20).stdout

    def keys(self, *keys: str, literal: bool = False) -> None:
        self.run("send-keys", "-t", "t", *(["-l"] if literal else []), *keys)

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "t")

    def wait_for(self, text: str, limit: float = 60) -> str:
        """The screen once it shows ``text`` (polled; the test fails after ``limit`` s)."""
        deadline = time.monotonic() + limit
        while True:
            shown = self.screen()
            if text in shown:
                return shown
            assert time.monotonic() < deadline, f"never shown: {text!r}; the screen:\n{shown}"
            time.sleep(0.1)

    def close(self) -> None:
        subprocess.run([self.tmux, "-S", self.socket, "kill-server"], capture_output=True, timeout=20)


def test_play_in_a_real_terminal(tmp_path):
    state = engine.deal("klondike", 1)
    move = next(m for m in engine.legal_moves(state) if m.kind == "move" and m.dst.startswith("f"))
    after = engine.apply(state, move)
    done = tmp_path / "done"
    # pytest sets COLUMNS and LINES, which Textual would take for the terminal's size
    command = (f"cd {tmp_path} && unset COLUMNS LINES && IBM1013_DATA_DIR={tmp_path} TERM=xterm-256color "
               f"{sys.executable} -m ibm1013 play klondike --deal 1; echo $? > {done}; sleep 60")
    term = Tmux(tmp_path, command)
    try:
        first = term.wait_for("Quit")  # the footer comes last
        assert "Klondike, deal 1, move 0" in first and "Undo" in first and "Hint" in first
        assert "#24" in first  # the stock, face down
        term.keys(str(move), literal=True)  # in one burst: its first key opens the command line
        term.keys("Enter")
        shown = term.wait_for("move 1")
        card = after.piles[move.dst].cards[-1].name
        foundations = next(line for line in shown.splitlines() if "#24" in line)
        assert card in foundations and f"played {move}" in shown
        term.keys("q")
        term.wait_for("q again quits")
        term.keys("q")
        deadline = time.monotonic() + 30
        while not done.exists() or not done.read_text().strip():
            assert time.monotonic() < deadline, term.screen()
            time.sleep(0.1)
        last = term.screen()
    finally:
        term.close()
    assert done.read_text().strip() == "0"
    assert "not won" in last and "Undo" not in last  # the board is gone, the terminal given back
    stats = json.loads((tmp_path / "stats.json").read_text())
    (record,) = stats.values()
    assert (record["played"], record["won"]) == (1, 0)
