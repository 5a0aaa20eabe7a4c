"""Output paths are checked before any work, and a failed write is one line with nothing left behind.

A read-only directory cannot be made with permission bits when the tests run as root (root writes
anyway), so those tests mount a real read-only tmpfs, and a tiny one to fill up; they are skipped,
saying why, where mounting is not allowed.
"""

import os
import subprocess

import external
import pytest

from decks.session import load_deck
from emulator.card import EOF_CARD, Card
from emulator.formats import read_deck, write_deck
from ibm1013.cli.main import main


def one_line(capsys, *argv: str) -> str:
    """Run ``ibm1013 ARGV``: exit status 2, one ``ibm1013: …`` line on stderr, nothing on stdout."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("ibm1013: "), (argv, status, err)
    assert "Traceback" not in err and not out, out
    return lines[0]


@pytest.fixture
def deck(tmp_path):
    path = tmp_path / "deck.cbn"
    with open(path, "wb") as f:
        write_deck([Card.from_text(f"CARD {i:04d}") for i in range(600)], f, "cbn")
    return path


@pytest.fixture
def tmpfs(tmp_path):
    """``make(name, options)``: a fresh tmpfs mounted at ``tmp_path/name`` (unmounted afterwards)."""
    mounted = []

    def make(name: str, options: str):
        path = tmp_path / name
        path.mkdir()
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)],
                              capture_output=True, text=True, timeout=10)
        if done.returncode:
            external.unavailable(f"cannot mount a tmpfs here: run the tests as root "
                                 f"(mount said: {done.stderr.strip()})")
        mounted.append(path)
        return path

    yield make
    for path in mounted:
        subprocess.run(["umount", str(path)], capture_output=True, timeout=10)


def fill(directory) -> None:
    """Write into ``directory`` until its file system is full."""
    fd = os.open(os.path.join(directory, "filler"), os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(fd, bytes(4096)):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    assert os.statvfs(directory).f_bfree == 0


@pytest.mark.parametrize("option", ["-o", "--timeline"])
def test_simulate_output_into_a_missing_directory_or_onto_one_is_refused_first(capsys, tmp_path, option):
    missing = tmp_path / "nowhere" / "out.x"
    # the deck does not exist either: the output is checked first, so that is not what is reported
    line = one_line(capsys, "simulate", str(tmp_path / "no-deck.cbn"), option, str(missing))
    assert f"argument {option}" in line or f"{option}/" in line
    assert "no such directory" in line
    line = one_line(capsys, "simulate", str(tmp_path / "no-deck.cbn"), option, str(tmp_path))
    assert f"{tmp_path} is a directory" in line
    assert sorted(os.listdir(tmp_path)) == []


def test_an_existing_device_or_pipe_is_not_replaced(capsys, tmp_path, deck):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    line = one_line(capsys, "simulate", str(deck), "-o", str(fifo))
    assert "is not a regular file" in line and fifo.is_fifo()


def test_read_only_directory(capsys, tmpfs, deck):
    ro = tmpfs("ro", "ro,size=1m")
    line = one_line(capsys, "simulate", str(deck), "-o", str(ro / "copy.cbn"))
    assert "cannot create files in" in line and "Read-only file system" in line
    line = one_line(capsys, "simulate", str(deck), "--timeline", str(ro / "t.png"))
    assert "Read-only file system" in line
    line = one_line(capsys, "demo", "--out", str(ro / "demo"))
    assert "argument --out" in line and "Read-only file system" in line
    line = one_line(capsys, "deal", "klondike", "-o", str(ro / "k.cbn"))
    assert "argument -o/--output" in line
    assert os.listdir(ro) == []


def test_full_directory_is_refused_before_the_work(capsys, tmpfs, deck):
    full = tmpfs("full", "size=64k")
    fill(full)
    line = one_line(capsys, "simulate", str(deck), "-o", str(full / "copy.cbn"))
    assert "no space left" in line
    assert os.listdir(full) == ["filler"]


def test_disk_filling_during_the_write_is_one_line_and_leaves_nothing(capsys, tmpfs, deck):
    small = tmpfs("small", "size=64k")  # 600 cards are 96,000 bytes of CBN
    line = one_line(capsys, "simulate", str(deck), "-o", str(small / "copy.cbn"), "--json")
    assert line == f"ibm1013: {small / 'copy.cbn'}: No space left on device"
    assert os.listdir(small) == []


def test_demo_out_onto_a_file_or_under_one_is_refused(capsys, tmp_path):
    existing = tmp_path / "a-file"
    existing.write_text("keep me")
    line = one_line(capsys, "demo", "--out", str(existing))
    assert f"{existing} exists and is not a directory" in line
    line = one_line(capsys, "demo", "--out", str(existing / "sub"))
    assert f"{existing} is not a directory" in line
    assert existing.read_text() == "keep me" and os.listdir(tmp_path) == ["a-file"]


@pytest.mark.parametrize("label, why", [("TOOLONG", "must be 4 characters, not 7"),
                                        ("ab", "must be 4 characters, not 2"),
                                        ("a!b?", "cannot be punched")])
def test_deal_label_is_checked_when_parsed(capsys, tmp_path, label, why):
    line = one_line(capsys, "deal", "klondike", "-o", str(tmp_path / "k.cbn"), "--label", label)
    assert "argument --label" in line and why in line
    assert os.listdir(tmp_path) == []


def test_deal_label_is_punched(capsys, tmp_path):
    assert main(["deal", "klondike", "-o", str(tmp_path / "k.cbn"), "--label", "solo"]) == 0
    assert load_deck(str(tmp_path / "k.cbn")).game == "klondike"
    with open(tmp_path / "k.cbn", "rb") as f:
        assert next(iter(read_deck(f))).text("029")[72:80] == "SOLO0001"


def test_play_save_format_is_checked_before_the_game(capsys, tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_text("s\n")
    line = one_line(capsys, "play", "klondike", "--moves", str(moves), "--save", str(tmp_path / "g.x"),
                    "--format", "foo")
    assert "argument --format: invalid choice: 'foo'" in line
    line = one_line(capsys, "play", "klondike", "--moves", str(moves),
                    "--save", str(tmp_path / "nodir" / "g.cbn"))
    assert "argument --save" in line and "no such directory" in line
    assert sorted(os.listdir(tmp_path)) == ["moves.txt"]


def test_demo_on_a_disk_that_fills_leaves_nothing(capsys, tmpfs):
    """sent.cbn was left behind when the disk filled at cards.png."""
    small = tmpfs("small", "size=64k")  # sent.cbn fits, the contact sheet does not
    line = one_line(capsys, "demo", "--out", str(small / "demo"))
    assert "No space left on device" in line
    assert os.listdir(small) == []


def test_split_decks_on_a_disk_that_fills_leaves_no_folder_and_no_deck(capsys, tmpfs, tmp_path):
    """split-decks left the folder it made (and the decks it had written) when the disk filled."""
    small = tmpfs("small", "size=64k")
    stacked = tmp_path / "stacked.cbn"
    with open(stacked, "wb") as f:  # a small deck that fits, then one of 96,000 bytes that does not
        cards = [Card.from_text("FIRST"), EOF_CARD, *(Card.from_text(f"CARD {i:04d}") for i in range(600))]
        write_deck(cards, f, "cbn")
    line = one_line(capsys, "cards", "split-decks", str(stacked), str(small / "split"))
    assert "No space left on device" in line and "stacked-2.cbn" in line
    assert os.listdir(small) == []
