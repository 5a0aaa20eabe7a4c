"""``ibm1013 simulate`` end to end: report, received deck, timeline, clear errors."""

import json

import pytest

from emulator.card import Card
from emulator.formats import read_deck, write_deck
from ibm1013.cli.main import main

KEYS = ("cards_sent", "cards_received", "cards_per_minute", "simulated_seconds", "characters_on_line",
        "retransmissions", "detected_errors", "undetected_errors", "failed_cards", "lost", "duplicated")


@pytest.fixture
def deck_file(tmp_path):
    cards = [Card.from_text(f"CARD {i:03d} OF THE TEST DECK") for i in range(30)]
    path = tmp_path / "deck.cbn"
    with open(path, "wb") as f:
        write_deck(cards, f, "cbn")
    return path, cards


def test_json_report_and_received_deck(deck_file, tmp_path, capsys):
    path, cards = deck_file
    out = tmp_path / "copy.cbn"
    assert main(["simulate", str(path), "--json", "-o", str(out), "--seed", "3"]) == 0
    report = json.loads(capsys.readouterr().out)
    for key in KEYS:
        assert key in report
    assert report["cards_received"] == 30 and report["cards_per_minute"] == pytest.approx(100, rel=0.01)
    with open(out, "rb") as f:
        assert list(read_deck(f)) == cards


def test_text_report_partial_cards_and_timeline(deck_file, tmp_path, capsys):
    path, _ = deck_file
    png = tmp_path / "run.png"
    status = main(["simulate", str(path), "--columns", "auto", "--ber", "1e-4", "--timeline", str(png)])
    text = capsys.readouterr().out
    assert status == 0 and "cards per minute" in text
    rate = float(next(line for line in text.splitlines() if line.startswith("cards per minute")).split()[-1])
    assert rate > 150  # 26 columns per card instead of 80
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cut_line_exits_1_with_resume_point(deck_file, capsys):
    path, _ = deck_file
    assert main(["simulate", str(path), "--cut-at", "5", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ended"] == "line cut" and report["resume_at"] == report["cards_received"] + 1


def test_errors_are_one_line_exit_2(deck_file, tmp_path, capsys):
    path, _ = deck_file
    bad = tmp_path / "bad.cbn"
    with open(bad, "wb") as f:
        write_deck([Card.from_text("OK"), Card([0, 0, 0xC00])], f, "cbn")
    assert main(["simulate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.cbn: card 2, column 3" in err and "column-binary" in err and len(err.splitlines()) == 1
    assert main(["simulate", str(bad), "--column-binary", "--json"]) == 0
    capsys.readouterr()
    assert main(["simulate", str(path), "--burst", "0.1,x,0.2"]) == 2
    assert "burst" in capsys.readouterr().err
    assert main(["simulate", str(path), "--columns", "70-90"]) == 2
    assert "70-90" in capsys.readouterr().err
    assert main(["simulate", str(tmp_path / "missing.cbn")]) == 2
    assert "missing.cbn" in capsys.readouterr().err


def test_parameters_are_listed_with_sources(capsys):
    assert main(["simulate", "--parameters"]) == 0
    out = capsys.readouterr().out
    assert "ack_timeout_s" in out and "docs/str.md" in out and "shared" not in out and "our estimate" in out
    assert main(["simulate"]) == 2


def test_mechanics_option(deck_file, capsys):
    path, _ = deck_file
    assert main(["simulate", str(path), "--mechanics", "serial", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cards_per_minute"] == pytest.approx(33.3, rel=0.03)


def test_a_session_that_gave_every_card_up_is_not_complete(capsys):
    """Issue 25 §2: the 5-card deck at a bit error rate of 1 % (seed 3) ends in order with every card
    given up: the far end holds none, and neither the text nor the JSON says "complete"."""
    deck = "examples/sample-decks/hello.cbn"
    assert main(["simulate", deck, "--ber", "0.01", "--seed", "3", "--on-give-up", "skip"]) == 1
    text = capsys.readouterr().out
    first = text.splitlines()[0]
    assert first.startswith("session           cards given up: end of transmission confirmed, but the "
                            "far end lacks 5 cards (1, 2, 3, 4, 5)"), first
    assert "complete" not in text and "cards received    0" in text
    assert main(["simulate", deck, "--ber", "0.01", "--seed", "3", "--on-give-up", "skip", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ended"] == "cards given up" and report["cards_received"] == 0
    assert report["failed_cards"] == [1, 2, 3, 4, 5]


def test_the_settings_table_of_docs_str_gives_the_defaults_parameters_prints(capsys):
    """docs/str.md §2 lists each setting's default; `simulate --parameters` prints the model's: the
    numbers must be the same (babble_limit was "8 records" in the doc and 0 in the model)."""
    import pathlib
    import re

    doc = (pathlib.Path(__file__).parent.parent / "docs" / "str.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| `(\w+)` \| ([\d.]+)(?: [\w/]+)? \|", doc, re.M))
    assert main(["simulate", "--parameters"]) == 0
    out = capsys.readouterr().out
    session = out.split("line:")[0]
    printed = dict(re.findall(r"^  (\w+) +([\d.]+) ", session, re.M))
    assert {"bit_rate", "ack_timeout_s", "babble_limit"} <= set(table)
    for name, value in table.items():
        assert float(printed[name]) == float(value), name


def test_a_card_only_column_binary_can_send_names_the_option(tmp_path, capsys):
    words = [0] * 80
    words[5] = 0xFFF  # every punch: no BCD character
    deck = tmp_path / "odd.cbn"
    with open(deck, "wb") as f:
        write_deck([Card(words)], f, "cbn")
    assert main(["simulate", str(deck)]) == 2
    err = capsys.readouterr().err
    assert "card 1, column 6" in err and "send the deck with --column-binary" in err
    assert main(["simulate", str(deck), "--column-binary", "--json"]) == 0


def test_the_simulated_rates_in_the_docs_are_what_simulate_gives(tmp_path, capsys):
    """docs/ibm1013.md's table of ``ibm1013 simulate`` runs (100 cards of 80 columns), run again."""
    import re
    import shlex
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "ibm1013.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(ibm1013 simulate deck\.cbn[^`]*)` \| ([\d.]+)", text, re.M)
    assert len(rows) == 6, rows
    deck = tmp_path / "deck.cbn"
    with open(deck, "wb") as f:
        write_deck([Card.from_text(f"CARD {i:03d} " + "X" * 70) for i in range(100)], f, "cbn")
    for command, rate in rows:
        argv = [str(deck) if word == "deck.cbn" else word for word in shlex.split(command)[1:]]
        assert main([*argv, "--json"]) == 0
        assert f"{json.loads(capsys.readouterr().out)['cards_per_minute']:.1f}" == rate, command


@pytest.mark.parametrize("bit_rate", [300, 1800, 9600])
def test_any_bit_rate_gives_the_cards_a_minute_of_the_timing_formula(deck_file, capsys, bit_rate):
    """simulate took only the SCA's four rates; the model's timing is arithmetic on the rate, so any
    whole rate is taken and gives docs/ibm1013.md's T = (N + 4 + i + a) / cps + t_fix, cps = bit/s / 8
    (N = 80 columns, i = 1 idle, a = 2 reply characters, t_fix = 0.02 s)."""
    path, _ = deck_file
    assert main(["simulate", str(path), "--bit-rate", str(bit_rate), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    per_card = (80 + 4 + 1 + 2) / (bit_rate / 8) + 0.02
    assert report["cards_received"] == 30
    assert report["cards_per_minute"] == pytest.approx(60 / per_card, rel=0.005)


def test_a_line_too_slow_for_the_three_second_timers_says_no_answer(deck_file, capsys):
    """Below about 35 bit/s no reply fits in the SCA's 3 s timers (docs/ibm1013.md): no answer, exit 1."""
    path, _ = deck_file
    assert main(["simulate", str(path), "--bit-rate", "20", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["ended"] == "no answer"


def test_simulate_stops_at_a_card_given_up_as_send_does(capsys):
    """Issue 47 item 17: simulate skipped a card given up and went on, send stops at it; by default
    both stop there now (the core's ``on_give_up``), with where to start again."""
    deck = "examples/sample-decks/hello.cbn"
    assert main(["simulate", deck, "--ber", "0.01", "--seed", "3", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ended"] == "aborted" and report["failed_cards"] == [1] and report["resume_at"] == 1
    assert "card 1 given up" in report["message"] and report["cards_sent"] == 1
