"""The command line in a shell: completion scripts, the manual page, and pipes closed early."""

import argparse
import errno
import os
import subprocess

import external
import pytest
from processes import IBM1013, finish

from emulator.card import Card
from emulator.errors import ExitStatus
from emulator.formats import write_deck
from ibm1013.cli.main import build_parser, main
from ibm1013.cli.shell import completion_script, manual_page, walk

COMMANDS = [parser.prog.partition(" ")[2] for parser, _ in walk(build_parser())
            if parser.prog != "ibm1013" and not parser._subparsers]
"""Every command that runs (``cards decode``, ``simulate`` …), from the parser itself."""

BASH_COMPLETE = r"""
source "$1"
comp() {
  COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
  COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
  _shtab_ibm1013 ibm1013 "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
  echo "${COMPREPLY[*]}"
}
shift
while IFS= read -r line; do eval "comp $line"; done
"""


def bash_completions(tmp_path, *lines: str) -> list[str]:
    """What bash offers for each command line (the last word is the one being completed)."""
    script = tmp_path / "ibm1013.bash"
    script.write_text(completion_script("bash"))
    done = subprocess.run(["bash", "-c", BASH_COMPLETE, "bash", str(script)], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return done.stdout.splitlines()


def test_bash_completes_commands_options_choices_and_files(tmp_path):
    (tmp_path / "deck.cbn").write_bytes(b"")
    got = bash_completions(
        tmp_path, "ibm1013 sw", "ibm1013 cards ''", "ibm1013 simulate --dup", "ibm1013 simulate --duplex ''",
        "ibm1013 cards decode --format ''", "ibm1013 simulate --code 02", "ibm1013 deal kl",
        "ibm1013 simulate de", "ibm1013 completion ''")
    assert got[0] == "sweep"
    assert got[1].split() == ["encode", "decode", "convert", "show", "info", "select", "sort", "merge",
                              "sequence", "reproduce", "cat", "split-decks"]
    assert got[2] == "--duplex" and got[3].split() == ["full", "half"]
    assert {"auto", "cbn", "text", "i1401-cbn"} <= set(got[4].split())
    assert set(got[5].split()) == {"026-commercial", "026-fortran", "029"}
    assert {"klondike", "klondike-flip3"} <= set(got[6].split())
    assert got[7] == "deck.cbn"  # DECK completes file names
    assert got[8].split() == ["bash", "zsh"]


def test_bash_script_knows_every_command_and_option():
    script = completion_script("bash")
    missing = [f"{parser.prog} {option}" for parser, action in walk(build_parser())
               for option in action.option_strings if option not in script]
    missing += [command for command in COMMANDS if command.split()[-1] not in script]
    assert not missing, "not in the bash completion: " + ", ".join(missing)


def test_zsh_script_loads_as_the_completion_of_ibm1013(tmp_path):
    zsh = external.program("zsh", "zsh")
    script = completion_script("zsh")
    assert script.startswith("#compdef ibm1013")
    (tmp_path / "_ibm1013").write_text(script)
    subprocess.run([zsh, "-n", str(tmp_path / "_ibm1013")], check=True, timeout=30)
    done = subprocess.run(
        [zsh, "-f", "-c", f"fpath=({tmp_path} $fpath); autoload -U compinit; "
                            f"compinit -u -d {tmp_path}/.zcompdump; print -r -- $_comps[ibm1013]"],
        capture_output=True, text=True, timeout=30)
    assert done.stdout.strip() == "_ibm1013", done.stderr
    for option in ("--turnaround", "--bits-per-char", "--max-nodes", "--label"):
        assert option in script


def test_completion_and_manpage_refuse_bad_arguments(capsys, tmp_path):
    assert main(["completion", "fish"]) == 2
    assert "invalid choice: 'fish'" in capsys.readouterr().err
    assert main(["manpage", "-o", str(tmp_path / "no" / "ibm1013.1")]) == 2
    assert "no such directory" in capsys.readouterr().err


def test_manual_page_lists_every_command_and_renders(tmp_path, capsys):
    page = tmp_path / "ibm1013.1"
    assert main(["manpage", "-o", str(page)]) == 0
    roff = page.read_text()
    assert roff == manual_page() and roff.startswith(".TH IBM1013 \"1\"")
    for command in COMMANDS:
        roff_name = command.replace("-", "\\-")  # roff escapes a hyphen
        assert f".SH COMMAND \\fI\\,'ibm1013 {roff_name}'" in roff, command
    man = external.program("man", "man-db")  # the roff was checked above; here it is rendered
    done = subprocess.run([man, "--nh", "--nj", "-l", str(page)], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "MANWIDTH": "80", "MANPAGER": "cat"})
    assert done.returncode == 0 and not done.stderr, done.stderr
    text = done.stdout
    assert "ibm1013 - punched cards, card decks and the IBM 1013" in text
    assert "--turnaround SECONDS" in text and "half-duplex turnaround delay in seconds (default 0.2)" in text
    assert max(len(line) for line in text.splitlines()) <= 80


def test_version_of_the_console_script():
    from importlib.metadata import version

    code, out, err = finish(subprocess.Popen([*IBM1013, "--version"], stdout=subprocess.PIPE,
                                             stderr=subprocess.PIPE, text=True))
    assert code == 0 and out.strip() == f"ibm1013 {version('ibm1013')}" and not err


# ---------------------------------------------------------------------------------------------------
# a reader that goes away: `ibm1013 cards decode X | head -1`
# ---------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def big_deck(tmp_path_factory):
    """20,000 cards: far more text than a pipe holds, so the writer meets the closed pipe."""
    path = tmp_path_factory.mktemp("pipe") / "big.cbn"
    with open(path, "wb") as f:
        write_deck([Card.from_text(f"CARD {i:05d} OF A LONG DECK") for i in range(20_000)], f, "cbn")
    return path


def reader_leaves(argv: list[str], *, after_lines: int, stdin=os.devnull) -> tuple[int, bytes, str]:
    """Run ``ibm1013 ARGV`` with a reader that takes ``after_lines`` lines and closes the pipe, as
    ``| head -N`` does; return the exit status, the lines read and stderr."""
    with open(stdin, "rb") as source:
        proc = subprocess.Popen([*IBM1013, *argv], stdin=source, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        lines = b"".join(proc.stdout.readline() for _ in range(after_lines))
        proc.stdout.close()
        try:
            err = proc.stderr.read().decode()
            code = proc.wait(timeout=60)
        finally:
            proc.kill()
    return code, lines, err


@pytest.mark.parametrize("argv", [["cards", "decode", "{deck}"], ["cards", "show", "{deck}"],
                                  ["cards", "convert", "-", "-", "--to", "text"]])
def test_reader_closing_the_pipe_early_stops_us_quietly(big_deck, argv):
    argv = [a.format(deck=big_deck) for a in argv]
    code, first, err = reader_leaves(argv, after_lines=1, stdin=big_deck if argv[2] == "-" else os.devnull)
    assert first.strip() and code == ExitStatus.BROKEN_PIPE and err == "", (code, err)


@pytest.mark.parametrize("argv", [["games"], ["cards", "info", "{deck}"], ["deal", "klondike"]])
def test_reader_gone_before_we_write_stops_us_quietly(big_deck, argv):
    """print() and the final flush meet the closed pipe too (the reader left before we said a word)."""
    code, _, err = reader_leaves([a.format(deck=big_deck) for a in argv], after_lines=0)
    assert code == ExitStatus.BROKEN_PIPE and err == "", (code, err)


def test_a_broken_pipe_elsewhere_is_still_an_error(capsys, monkeypatch):
    """EPIPE on a socket or a port (not our standard output) is a dead peer: one line, exit 2."""
    import ibm1013.cli.games

    def dead_peer(args: argparse.Namespace) -> int:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    monkeypatch.setattr(ibm1013.cli.games, "list_games", dead_peer)
    assert main(["games"]) == 2
    assert capsys.readouterr().err == "ibm1013: Broken pipe\n"
