"""``ibm1013 cards`` end to end: encode, decode, convert, show, info, and clean failures."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from emulator.card import EOF_CARD, Card
from emulator.formats import read_deck, write_deck
from ibm1013.cli.main import main

TEXT = "HELLO WORLD\n\tTABBED\n~\nlower case ¢\n"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["cards", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def text_file(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path


def deck_of(path, fmt="auto"):
    with open(path, "rb") as f:
        return list(read_deck(f, fmt))


def test_encode_decode_round_trip(capsys, tmp_path, text_file):
    deck = tmp_path / "deck.cbn"
    assert run(capsys, "encode", str(text_file), "-o", str(deck)) == (0, "", "")
    cards = deck_of(deck, "cbn")
    assert cards[0] == Card.from_text("HELLO WORLD") and cards[1] == Card.from_text("        TABBED")
    assert cards[2] == EOF_CARD and len(cards) == 4
    assert len(deck.read_bytes()) == 3 * 160 + 1
    status, out, err = run(capsys, "decode", str(deck))
    assert status == 0 and err == ""
    assert out == "HELLO WORLD\n        TABBED\n~\r\nlower case ¢\n"  # EOF card: ~ CR LF, as SIMH 4.x needs


@pytest.mark.parametrize("fmt", ["cbn", "bin", "ebcdic", "text"])
def test_encode_each_format_and_convert_back(capsys, tmp_path, fmt):
    source = tmp_path / "in.txt"
    source.write_text("CARD ONE\nCARD TWO\n")
    deck = tmp_path / f"deck.{fmt}"
    assert run(capsys, "encode", str(source), "-o", str(deck), "--format", fmt)[0] == 0
    back = tmp_path / "back.txt"
    assert run(capsys, "convert", str(deck), str(back), "--from", fmt, "--to", "text")[0] == 0
    assert back.read_text() == "CARD ONE\nCARD TWO\n"


def test_convert_auto_detects(capsys, tmp_path):
    cards = [Card.from_text("456789"), Card.from_text("ABC")]
    with open(tmp_path / "d.bin", "wb") as f:
        write_deck(cards, f, "bin")
    assert run(capsys, "convert", str(tmp_path / "d.bin"), str(tmp_path / "d.cbn"), "--to", "cbn")[0] == 0
    assert run(capsys, "convert", str(tmp_path / "d.cbn"), str(tmp_path / "d2.bin"), "--to", "bin")[0] == 0
    assert (tmp_path / "d2.bin").read_bytes() == (tmp_path / "d.bin").read_bytes()
    assert deck_of(tmp_path / "d.cbn") == cards


def test_info_text_and_json(capsys, tmp_path):
    with open(tmp_path / "d.cbn", "wb") as f:
        write_deck([Card.from_text("OK"), EOF_CARD, Card.from_punches(["", "1-2", "", "3-4"])], f, "cbn")
    status, out, _ = run(capsys, "info", str(tmp_path / "d.cbn"))
    assert status == 0
    assert "format cbn" in out and "cards: 2, plus 1 end-of-file card (at 2)" in out
    assert "columns not valid in code 029: 2 (first: card 3 column 2, card 3 column 4)" in out
    status, out, _ = run(capsys, "info", str(tmp_path / "d.cbn"), "--json", "--code", "026-fortran")
    report = json.loads(out)
    assert report["cards"] == 2 and report["eof_cards"] == 1 and report["format"] == "cbn"
    assert report["invalid_columns"] == 2 and report["first_invalid_columns"] == [[3, 2], [3, 4]]


def test_decode_lenient_reports_substitutions(capsys, tmp_path):
    with open(tmp_path / "d.cbn", "wb") as f:
        write_deck([Card.from_text("OK"), Card.from_punches(["", "1-2", "", "3-4"])], f, "cbn")
    status, out, err = run(capsys, "decode", str(tmp_path / "d.cbn"), "--lenient", "-o", str(tmp_path / "o"))
    assert status == 0 and out == ""
    assert (tmp_path / "o").read_text() == "OK\n ? ?\n"
    assert err.strip() == "ibm1013: 2 substitutions (first: card 2 column 2, card 2 column 4)"


def test_show_terminal_png_svg(capsys, tmp_path):
    with open(tmp_path / "d.cbn", "wb") as f:
        write_deck([Card.from_text("HELLO"), EOF_CARD, Card.from_text("WORLD")], f, "cbn")
    status, out, _ = run(capsys, "show", str(tmp_path / "d.cbn"), "--card", "3")
    assert status == 0 and "WORLD" in out and out.count("\n") >= 13
    status, out, _ = run(capsys, "show", str(tmp_path / "d.cbn"))
    assert "card 2: end-of-file card" in out and "HELLO" in out
    assert run(capsys, "show", str(tmp_path / "d.cbn"), "--png", str(tmp_path / "s.png"))[0] == 0
    assert (tmp_path / "s.png").read_bytes().startswith(b"\x89PNG")
    svg = tmp_path / "c.svg"
    assert run(capsys, "show", str(tmp_path / "d.cbn"), "--card", "1", "--svg", str(svg))[0] == 0
    assert "<svg" in (tmp_path / "c.svg").read_text()


def _one_line_error(capsys, *argv: str) -> str:
    status, out, err = run(capsys, *argv)
    assert status == 2 and "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("ibm1013: ")
    return err


def test_errors_are_one_line_and_leave_no_file(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("GOOD\n" * 3 + "BAD €\n" + "MORE\n" * 3)
    target = tmp_path / "out.cbn"
    err = _one_line_error(capsys, "encode", str(bad), "-o", str(target))
    assert f"{bad}: card 4, column 5" in err
    assert sorted(os.listdir(tmp_path)) == ["bad.txt"]  # no output, no temporary file

    short = tmp_path / "short.bin"
    short.write_bytes(bytes(160 + 100))
    err = _one_line_error(capsys, "convert", str(short), str(target), "--from", "bin", "--to", "cbn")
    assert "short.bin: card 2: short last card" in err and not target.exists()

    invalid = tmp_path / "inv.cbn"
    with open(invalid, "wb") as f:
        write_deck([Card.from_text("A"), Card.from_punches(["1-2"])], f, "cbn")
    err = _one_line_error(capsys, "decode", str(invalid), "-o", str(tmp_path / "inv.txt"))
    assert "inv.cbn: card 2, column 1: punches 1-2" in err and not (tmp_path / "inv.txt").exists()

    assert "no such" in _one_line_error(capsys, "info", str(tmp_path / "none.cbn")).lower()
    err = _one_line_error(capsys, "encode", str(bad), "-o", str(target), "--code", "x")
    assert "argument --code: invalid choice: 'x'" in err
    assert "no card 9" in _one_line_error(capsys, "show", str(invalid), "--card", "9")
    with_eof = tmp_path / "e.txt"
    with_eof.write_text("A\n~\n")
    assert "end-of-file" in _one_line_error(capsys, "convert", str(with_eof), str(target), "--to", "bin")
    assert not target.exists()


def test_console_script_pipes_stdin_to_stdout(tmp_path):
    exe = shutil.which("ibm1013") or os.path.join(os.path.dirname(sys.executable), "ibm1013")
    encoded = subprocess.run([exe, "cards", "encode", "-", "-o", "-", "--format", "ebcdic"],
                             input=b"HELLO\n", capture_output=True, timeout=60, check=True)
    assert encoded.stdout == "HELLO".encode("cp037") + b"\x40" * 75
    decoded = subprocess.run([exe, "cards", "decode", "-", "--format", "ebcdic"], input=encoded.stdout,
                             capture_output=True, timeout=60, check=True)
    assert decoded.stdout == b"HELLO\n"
    failed = subprocess.run([exe, "cards", "decode", "-", "--format", "bin"], input=b"\x00" * 100,
                            capture_output=True, timeout=60)
    assert failed.returncode == 2 and failed.stderr.decode().count("\n") == 1
    assert b"Traceback" not in failed.stderr and b"<stdin>: card 1: short last card" in failed.stderr


def test_benchmark_runs_and_both_paths_agree(capsys):
    from tools import bench_cards

    assert bench_cards.main(["--cards", "3000", "--plain-cards", "500", "--repeat", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["outputs_match"] and report["cards"] == 3000 and report["plain_cards"] == 500
    assert report["encode_cards_per_s"] > 0 and report["decode_ratio"] > 0


def test_auto_uses_the_extension_of_formats_that_cannot_be_detected(capsys, tmp_path):
    with open(tmp_path / "d.ebcdic", "wb") as f:
        write_deck([Card.from_text("HELLO")], f, "ebcdic")
    status, out, _ = run(capsys, "decode", str(tmp_path / "d.ebcdic"))
    assert status == 0 and out == "HELLO\n"
    status, out, _ = run(capsys, "info", str(tmp_path / "d.ebcdic"), "--json")
    assert json.loads(out)["format"] == "ebcdic"


@pytest.mark.parametrize(("text", "where", "char"), [
    (b"A\x01B\x7fC\n", "line 1, column 2", "U+0001"),
    (b"HELLO\nAB\x7fC\n", "line 2, column 3", "U+007F"),
    (b"OK\n\tX\xc2\x85\n", "line 2, column 10", "U+0085"),  # a C1 control after a TAB (to column 9)
    (b"A\xc2\xa0B\n", "line 1, column 2", "U+00A0"),  # no-break space: 029 punches it, text cannot show it
])
def test_encode_refuses_what_decode_would_refuse(capsys, tmp_path, text, where, char):
    """Issue 25 §6: ``cards encode`` punched control characters that ``cards decode`` then refused."""
    source, deck = tmp_path / "ctl.txt", tmp_path / "ctl.cbn"
    source.write_bytes(text)
    status, out, err = run(capsys, "encode", str(source), "-o", str(deck))
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert f"{source}: {where}: " in err and char in err and "~raw" in err
    assert not deck.exists()


def test_every_line_encode_accepts_decodes_back(capsys, tmp_path):
    source, deck = tmp_path / "ok.txt", tmp_path / "ok.cbn"
    source.write_bytes(b"".join(bytes([b]) + b"\n" for b in range(32, 127)) + b"\tTAB\r\n~raw4400\n")
    assert run(capsys, "encode", str(source), "-o", str(deck))[0] == 0
    status, out, err = run(capsys, "decode", str(deck))
    assert status == 0 and err == "" and out.splitlines()[33] == "A" and out.splitlines()[-1] == "A"


@pytest.mark.parametrize("length", [80 + 1, (1 << 16) + 1, (1 << 20) + 1, 2_000_000])
def test_a_long_line_is_reported_at_its_length(capsys, tmp_path, length):
    """Issue 25 §6: a line over 1 MiB was reported as "65536 columns"."""
    source = tmp_path / "long.txt"
    source.write_bytes(b"CARD ONE\n" + b"x" * length + b"\nCARD THREE\n")
    status, _, err = run(capsys, "encode", str(source), "-o", str(tmp_path / "d.cbn"))
    assert status == 2 and f"{source}: line 2 has {length} columns; a card holds 80" in err, err


def test_decode_and_info_say_a_long_line_was_cut(capsys, tmp_path):
    """Issue 25 §6: a 2,000,000-character line kept its first 80 columns without a word."""
    source = tmp_path / "long.txt"
    source.write_bytes(b"CARD ONE\n" + "é".encode() * 2_000_000 + b"\nCARD THREE\n" + b"y" * 81 + b"\n")
    status, out, err = run(capsys, "decode", str(source))
    assert status == 0 and out.splitlines() == ["CARD ONE", "é" * 80, "CARD THREE", "y" * 80]
    assert err == "ibm1013: 2 lines longer than 80 columns cut at column 80 (first: lines 2, 4)\n"
    status, out, err = run(capsys, "info", str(source))
    assert status == 0 and "longer than 80 columns, read as their first 80: 2 (first: lines 2, 4)" in out
    status, out, _ = run(capsys, "info", str(source), "--json")
    report = json.loads(out)
    assert report["cards"] == 4 and report["long_lines"] == 2 and report["first_long_lines"] == [2, 4]


def test_decode_of_a_deck_through_a_named_pipe_reads_every_card(capsys, tmp_path):
    """A pipe is read once: the small-deck path (which takes regular files only) must not eat the
    first 16 KiB of a big deck and leave the rest to the bulk path."""
    import threading

    lines = [f"CARD {i:03d}" for i in range(200)]  # 32,000 bytes of CBN: over the small path's size
    fifo = tmp_path / "deck.cbn"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "wb") as out:
            write_deck([Card.from_text(line) for line in lines], out, "cbn")

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    status, _, err = run(capsys, "decode", str(fifo), "-o", str(tmp_path / "o.txt"))
    writer.join(timeout=60)
    assert (status, err) == (0, "")
    assert (tmp_path / "o.txt").read_text().splitlines() == lines


def test_decode_and_info_tell_a_deck_an_026_punched(capsys, tmp_path):
    """Issue 47: an 026-FORTRAN deck decoded as 029 (`10 FORMAT %13H HELLO, WORLD<`) unless told.
    Unnamed, the code stays 029 (the punches fit it) and one line names the --code to try; named, it
    is read as asked, without a word; a code the punches do not fit names the one they do."""
    deck = tmp_path / "hello.cbn"
    with open(deck, "wb") as f:
        write_deck([Card.from_text("   10 FORMAT (13H HELLO, WORLD)", code="026-fortran")], f, "cbn")
    for lenient in ((), ("--lenient",)):  # the small path and the bulk path
        status, out, err = run(capsys, "decode", str(deck), *lenient)
        assert (status, out) == (0, "   10 FORMAT %13H HELLO, WORLD<\n")
        assert err.count("\n") == 1
        assert err.strip().endswith("try --code 026-fortran or --code 026-commercial")
        status, out, err = run(capsys, "decode", str(deck), "--code", "026-fortran", *lenient)
        assert (status, out, err) == (0, "   10 FORMAT (13H HELLO, WORLD)\n", "")
    status, out, err = run(capsys, "info", str(deck), "--json")
    assert status == 0 and json.loads(out)["codes_that_fit"][:3] == ["029", "026-fortran", "026-commercial"]
    assert "try --code 026-fortran" in err
    lower = tmp_path / "lower.cbn"
    with open(lower, "wb") as f:
        write_deck([Card.from_text("hello")], f, "cbn")
    status, _, err = run(capsys, "decode", str(lower), "--code", "026-fortran")
    assert status == 2 and "try --code 029" in err and "(see above: --code 029)" in err
