"""``ibm1013 cards select|sort|merge|sequence|reproduce|cat|split-decks`` end to end.

The walkthrough of docs/cards.md §7 is run as written and its printed output compared; bad specs
are one line before any work; summaries (--json) are checked against the decks written.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from emulator.card import EOF_CARD, Card
from emulator.formats import read_deck, write_deck
from ibm1013.cli.main import main

ROOT = Path(__file__).resolve().parents[1]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["cards", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def deck(path, fmt="auto") -> list[Card]:
    with open(path, "rb") as f:
        return list(read_deck(f, fmt))


def make(path, cards, fmt) -> str:
    with open(path, "wb") as f:
        write_deck(cards, f, fmt)
    return str(path)


def numbered(n: int, order=None) -> list[Card]:
    order = order if order is not None else range(n)
    return [Card.from_text(f"CARD {i:<67}PROG{(i + 1) * 10:04d}") for i in order]


# -- the walkthrough in docs/cards.md ---------------------------------------------------------------

def walkthrough() -> list[tuple[str, str | None]]:
    """(shell block, the text block printed after it or None) of the dropped-deck walkthrough."""
    page = (ROOT / "docs" / "cards.md").read_text(encoding="utf-8")
    part = page[page.index("### Recovering a dropped deck"):page.index("## 8. Sources")]
    blocks = re.findall(r"```(sh|text)\n(.*?)```", part, flags=re.S)
    steps: list[tuple[str, str | None]] = []
    for kind, body in blocks:
        if kind == "sh":
            steps.append((body, None))
        else:
            assert steps and steps[-1][1] is None, "a text block follows a sh block"
            steps[-1] = (steps[-1][0], body)
    return steps


def test_the_dropped_deck_walkthrough_prints_what_the_page_says(tmp_path):
    steps = walkthrough()
    assert len(steps) >= 6
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    prelude = f'ibm1013() {{ "{sys.executable}" -m ibm1013 "$@"; }}\n'
    for script, shown in steps:
        done = subprocess.run(["bash", "-c", prelude + script], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=300)
        if shown is None:
            assert done.returncode == 0, (script, done.stderr)
        assert done.stdout + done.stderr == (shown or ""), script
    assert deck(tmp_path / "recovered.cbn") == deck(tmp_path / "program.cbn")


# -- bad specs: one line, nothing written -----------------------------------------------------------

@pytest.mark.parametrize("argv, says", [
    (["sort", "D", "-o", "O", "--by", "73-81"], "argument --by: field 73-81: column 81 is outside 1-80"),
    (["sort", "D", "-o", "O", "--by", "0"], "column 0 is outside 1-80"),
    (["sort", "D", "-o", "O", "--by", "9-3"], "ends before it starts"),
    (["sort", "D", "-o", "O", "--by", "1-19", "--numeric"], "numeric key 1-19 is 19 columns wide"),
    (["sort", "D", "-o", "O", "--by", "1-3", "--numeric", "--pockets"], "--pockets sorts columns"),
    (["select", "D", "-o", "O", "--cards", "5-2"], "argument --cards: 5-2: 5-2 ends before it starts"),
    (["select", "D", "-o", "O"], "select what?"),
    (["select", "D", "-o", "O", "--where", "1-3=AB"], "2 characters for the 3 columns 1-3"),
    (["select", "D", "-o", "O", "--where", "1-2=¢A", "--code", "026-fortran"], "'¢' has no punch"),
    (["select", "D", "-o", "O", "--punched", "81:12"], "column 81 is outside"),
    (["select", "D", "-o", "O", "--punched", "8:13"], "not a card row"),
    (["reproduce", "D", "-o", "O", "--copy", "1-10:71-79"], "1-10 is 10 columns wide, 71-79 is 9"),
    (["reproduce", "D", "-o", "O", "--copy", "1-10:71-80", "--gang", "75-76=AB"],
     "punch fields 71-80 and 75-76 overlap"),
    (["reproduce", "D", "-o", "O", "--copy", "1-4:71-74", "--copy", "5-8:73-76"], "overlap"),
    (["reproduce", "D", "-o", "O"], "nothing wired"),
    (["sequence", "D", "--renumber", "77-80", "--prefix", "ABCD", "-o", "O"], "leaves no room"),
    (["sequence", "D", "--renumber"], "give -o OUT"),
    (["sequence", "D", "--check", "-o", "O"], "leave out -o"),
    (["sequence", "D", "--check", "1-19"], "at most 18"),
    (["sequence", "D"], "one of the arguments --check --renumber is required"),
    (["merge", "D", "E", "-o", "O", "--by", "1-4", "--match", "O", "R"], "a file of its own"),
])
def test_bad_specs_are_one_line_and_write_nothing(capsys, tmp_path, monkeypatch, argv, says):
    make(tmp_path / "D", numbered(3), "cbn")
    make(tmp_path / "E", numbered(3), "cbn")
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, *argv)
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("ibm1013: ") and says in lines[0], err
    assert sorted(os.listdir(tmp_path)) == ["D", "E"]


def test_an_unsorted_merge_input_names_the_card_and_writes_nothing(capsys, tmp_path):
    a = make(tmp_path / "a.cbn", numbered(4), "cbn")
    b = make(tmp_path / "b.txt", numbered(4, [0, 2, 1, 3]), "text")
    status, _, err = run(capsys, "merge", a, b, "--by", "73-80", "-o", str(tmp_path / "m.cbn"))
    assert status == 2 and err.strip().endswith(
        "b.txt: card 3: out of order on 73-80 (lower than card 2); sort the deck first")
    assert not (tmp_path / "m.cbn").exists()


def test_a_renumber_that_overflows_leaves_no_output(capsys, tmp_path):
    d = make(tmp_path / "d.cbn", numbered(3), "cbn")
    status, _, err = run(capsys, "sequence", d, "--renumber", "79-80", "--start", "90", "--step", "5",
                         "-o", str(tmp_path / "o.cbn"))
    assert status == 2 and "card 3: number 100 does not fit in the 2 columns left in 79-80" in err
    assert sorted(os.listdir(tmp_path)) == ["d.cbn"]


# -- the actions, with their summaries ----------------------------------------------------------------

def test_sort_any_format_to_any_format_with_json(capsys, tmp_path):
    shuffled = numbered(30, [(7 * i) % 30 for i in range(30)])
    src = make(tmp_path / "in.bin", shuffled, "bin")
    status, out, _ = run(capsys, "sort", src, "--by", "73-80", "-o", str(tmp_path / "out.txt"), "--json")
    report = json.loads(out)
    assert status == 0 and report["format"] == "bin" and report["output_format"] == "text"
    assert report["cards"] == 30 and report["decks"] == 1
    assert deck(tmp_path / "out.txt", "text") == numbered(30)
    status, out, _ = run(capsys, "sort", src, "--by", "73-80", "--pockets", "-o", str(tmp_path / "p.ebc"),
                         "--json")
    report = json.loads(out)
    assert report["passes"] == 4 * 2 + 4 and report["minutes_083"] == pytest.approx(12 * 30 / 1000)
    assert deck(tmp_path / "p.ebc", "ebcdic") == numbered(30)


def test_select_and_invert_split_the_deck(capsys, tmp_path):
    src = make(tmp_path / "d.cbn", numbered(10), "cbn")
    assert run(capsys, "select", src, "--cards", "2-4,9-", "-o", str(tmp_path / "a.cbn"))[0] == 0
    assert run(capsys, "select", src, "--cards", "2-4,9-", "--invert", "-o", str(tmp_path / "b.cbn"),
               "--json")[0] == 0
    cards = numbered(10)
    assert deck(tmp_path / "a.cbn") == [cards[i] for i in (1, 2, 3, 8, 9)]
    assert deck(tmp_path / "b.cbn") == [cards[i] for i in (0, 4, 5, 6, 7)]
    status, out, err = run(capsys, "select", src, "--where", "73-80=PROG0050", "--punched", "1:12-3",
                           "-o", "-", "--to", "text", "--json")
    assert status == 0 and out == cards[4].text().rstrip() + "\n"  # the deck alone on standard output
    assert json.loads(err) == {"file": src, "format": "cbn", "output": "<stdout>", "output_format": "text",
                               "cards_in": 10, "cards_out": 1}
    status, out, _ = run(capsys, "select", src, "--cards", "1", "-o", str(tmp_path / "one"), "--json")
    assert json.loads(out)["output_format"] == "cbn" and json.loads(out)["cards_out"] == 1


def test_merge_with_match_writes_the_collators_pockets(capsys, tmp_path):
    cards = numbered(6)
    a = make(tmp_path / "a.cbn", [cards[i] for i in (0, 1, 3, 5)], "cbn")
    b = make(tmp_path / "b.cbn", [cards[i] for i in (1, 2, 3)], "cbn")
    status, out, _ = run(capsys, "merge", a, b, "--by", "73-80", "-o", str(tmp_path / "m.cbn"),
                         "--match", str(tmp_path / "ra.cbn"), str(tmp_path / "rb.cbn"), "--json")
    report = json.loads(out)
    assert status == 0 and (report["matched_a"], report["unmatched_a"], report["unmatched_b"]) == (2, 2, 1)
    assert deck(tmp_path / "m.cbn") == [cards[1], cards[1], cards[3], cards[3]]
    assert deck(tmp_path / "ra.cbn") == [cards[0], cards[5]] and deck(tmp_path / "rb.cbn") == [cards[2]]


def test_stacked_decks_cat_info_sort_and_split(capsys, tmp_path):
    one, two = numbered(3, [2, 0, 1]), numbered(2, [1, 0])
    a, b = make(tmp_path / "a.cbn", one, "cbn"), make(tmp_path / "b.txt", two, "text")
    job = str(tmp_path / "job.txt")
    status, out, _ = run(capsys, "cat", a, b, "--eof", "-o", job, "--json")
    assert status == 0 and json.loads(out)["eof_cards"] == 1 and deck(job) == [*one, EOF_CARD, *two]
    status, out, _ = run(capsys, "info", job, "--json")
    assert json.loads(out)["decks"] == [{"deck": 1, "first_card": 1, "cards": 3},
                                        {"deck": 2, "first_card": 5, "cards": 2}]
    assert run(capsys, "sort", job, "--by", "73-80", "-o", str(tmp_path / "s.txt"))[0] == 0
    assert deck(tmp_path / "s.txt") == [*numbered(3), EOF_CARD, *numbered(2)]
    status, out, _ = run(capsys, "split-decks", str(tmp_path / "s.txt"), str(tmp_path / "parts"),
                         "--to", "bin", "--json")
    files = [d["file"] for d in json.loads(out)["decks"]]
    assert [os.path.basename(f) for f in files] == ["s-1.bin", "s-2.bin"]
    assert deck(files[0], "bin") == numbered(3) and deck(files[1], "bin") == numbered(2)


def test_an_eof_card_into_a_format_without_one_is_one_line(capsys, tmp_path):
    job = make(tmp_path / "job.cbn", [*numbered(2), EOF_CARD, *numbered(1)], "cbn")
    status, _, err = run(capsys, "sort", job, "--by", "73-80", "-o", str(tmp_path / "out.ebcdic"))
    assert status == 2 and len(err.strip().splitlines()) == 1 and "out.ebcdic" in err
    assert not (tmp_path / "out.ebcdic").exists()


def test_reproduce_and_renumber_stream_and_check_in_order(capsys, tmp_path):
    src = make(tmp_path / "d.cbn", numbered(5, [4, 0, 3, 1, 2]), "cbn")
    assert run(capsys, "sequence", src, "--renumber", "--start", "100", "--step", "5", "--prefix", "NEW",
               "-o", str(tmp_path / "r.cbn"))[0] == 0
    status, out, _ = run(capsys, "sequence", str(tmp_path / "r.cbn"), "--check", "--json")
    report = json.loads(out)
    assert status == 0 and report["in_order"] and report["cards"] == 5 and report["step"] == 5
    assert [c.text()[72:] for c in deck(tmp_path / "r.cbn")] == [f"NEW{n:05d}" for n in range(100, 125, 5)]
    assert run(capsys, "reproduce", str(tmp_path / "r.cbn"), "--copy", "73-80:1-8", "--gang", "10-12=XYZ",
               "--only", "-o", str(tmp_path / "p.txt"))[0] == 0
    assert (tmp_path / "p.txt").read_text().splitlines()[0] == "NEW00100 XYZ"
    status, out, _ = run(capsys, "sequence", src, "--check")
    assert status == 1 and out.splitlines()[1] == "2 out of order (card 2, 4)"


def test_every_action_that_writes_a_deck_says_what_it_wrote_in_good_english(capsys, tmp_path):
    """select printed a summary while sort and merge printed nothing, and a one-card deck came out
    as "1 of 1 cards", "1 cards, sequence in …", "passes of 1 cards": each action that writes a
    deck now says what it wrote, and one card is "1 card"."""
    one = make(tmp_path / "one.cbn", numbered(1), "cbn")
    two = make(tmp_path / "two.cbn", numbered(2, [1, 0]), "cbn")
    out = str(tmp_path / "o.cbn")
    said = {
        ("select", one, "--cards", "1"): f"1 of 1 card to {out}",
        ("sort", two, "--by", "73-80"): f"2 cards sorted on 73-80 to {out}",
        ("sort", one, "--by", "80", "--pockets"): f"1 card sorted on 80 to {out}\n"
                                                  "083: 1 pass of 1 card, 1 card fed, 0.1 seconds at 1000 "
                                                  "cards a minute",
        ("merge", one, one, "--by", "73-80"): f"2 cards (1 from A, 1 from B) to {out}",
        ("sequence", one, "--renumber"): f"1 card renumbered in 73-80 to {out}",
        ("reproduce", one, "--gang", "1-2=AB"): f"1 card reproduced to {out}",
        ("cat", one, one, "--eof"): f"2 cards and 1 end-of-file card to {out}",
    }
    for argv, line in said.items():
        status, printed, err = run(capsys, *argv, "-o", out)
        assert (status, printed, err) == (0, line + "\n", ""), argv
    twice = make(tmp_path / "d.cbn", numbered(2, [0, 0]), "cbn")
    _, printed, _ = run(capsys, "sequence", twice, "--check")
    assert printed.splitlines()[:3] == ["2 cards, sequence in 73-80: NOT in order", "0 out of order",
                                        "1 duplicate (card 2)"]
    _, printed, _ = run(capsys, "sequence", one, "--check")
    assert printed.startswith("1 card, sequence in 73-80")


@pytest.mark.parametrize("argv", [["cards", "select", "D", "--cards", "1", "-o", "-"],
                                  ["cards", "convert", "D", "-", "--to", "ebcdic"],
                                  ["cards", "sort", "D", "--by", "1-4", "-o", "-"]])
def test_a_binary_deck_is_not_written_to_a_terminal(tmp_path, argv):
    """`cards select … -o -` wrote CBN bytes to a terminal: a binary deck to a terminal is refused in
    one line, before anything is written; text still prints there."""
    import pty

    make(tmp_path / "D", numbered(2), "cbn")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "ibm1013", *argv], cwd=tmp_path, env=env,
                              stdout=terminal, stderr=subprocess.PIPE, text=True, timeout=120)
        os.close(terminal)
        shown = b""
        try:
            while chunk := os.read(controller, 4096):
                shown += chunk
        except OSError:  # EIO: the terminal's other end is closed and all is read
            pass
    finally:
        os.close(controller)
    assert done.returncode == 2 and shown == b"", (done.stderr, shown)
    assert done.stderr.startswith("ibm1013: will not write a ") and "to a terminal" in done.stderr
    assert len(done.stderr.splitlines()) == 1
    controller, terminal = pty.openpty()
    with os.fdopen(controller, "rb", buffering=0):
        text = subprocess.run([sys.executable, "-m", "ibm1013", *argv, "--to", "text"], cwd=tmp_path, env=env,
                              stdout=terminal, stderr=subprocess.PIPE, text=True, timeout=120)
        os.close(terminal)
    assert text.returncode == 0, text.stderr
