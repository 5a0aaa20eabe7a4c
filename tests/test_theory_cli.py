"""``ibm1013 theory`` and ``ibm1013 sweep --theory``: the figures printed, as data, and refused."""

import json
import re

import pytest

from emulator.card import Card
from emulator.formats import write_deck
from ibm1013.cli.main import main
from ibm1013.sweep import ResultsFile


def run_json(capsys, *argv) -> dict:
    assert main(["theory", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_serial_mechanics_add_the_reader_and_the_punch(capsys):
    """Serial: each card read after the last was acknowledged, each acknowledgement after its punch:
    0.6 s more each at 80 columns (0.1 s feed + 80 columns at 160 a second): 1.8 s, 33.3 a minute."""
    assert run_json(capsys, "--mechanics", "serial")["cards_per_minute"] == round(60 / 1.8, 3)


def test_a_clean_line_is_the_documented_rate(capsys):
    figures = run_json(capsys)
    assert round(figures["cards_per_minute"], 6) == 100.0
    assert figures["retransmissions_per_card"] == 0.0 and figures["undetected_per_million"] == 0.0
    assert round(run_json(capsys, "--columns", "40")["cards_per_minute"], 6) == 180.0
    assert round(run_json(capsys, "--duplex", "half", "--cards", "100")["cards_per_minute"], 2) == 60.12


def test_noise_costs_throughput_and_the_text_says_so(capsys):
    noisy = run_json(capsys, "--ber", "1e-4")
    assert 85 < noisy["cards_per_minute"] < 95 and noisy["retransmissions_per_card"] > 0.05
    assert noisy["record_clean"] + noisy["record_detected"] + noisy["record_undetected"] == pytest.approx(1)
    assert main(["theory", "--ber", "1e-4", "--burst", "1e-4,0.01,0.1"]) == 0
    text = capsys.readouterr().out
    assert "bursts 0.0001,0.01,0.1" in text and "cards per minute" in text


def test_a_deck_gives_its_length_and_characters(tmp_path, capsys):
    path = tmp_path / "deck.txt"
    with open(path, "wb") as f:
        write_deck([Card.from_text("HELLO WORLD")] * 30, f, "text")
    figures = run_json(capsys, str(path), "--ber", "1e-3", "--columns", "20")
    assert figures["settings"]["cards"] == 30
    blank_heavy = figures["record_undetected"]
    evenly = run_json(capsys, "--ber", "1e-3", "--columns", "20")["record_undetected"]
    assert blank_heavy != evenly  # the deck's characters, not every character evenly


@pytest.mark.parametrize("argv, words", [
    (["--columns", "auto"], "one record length"),
    (["--mechanics", "overlap"], "mechanics"),
    (["--cut-at", "5"], "cut"),
])
def test_what_the_theory_does_not_cover_is_one_line(capsys, argv, words):
    assert main(["theory", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("ibm1013: ") and words in err[0]


def test_sweep_theory_fills_every_row(tmp_path, capsys):
    out = tmp_path / "runs.csv"
    assert main(["sweep", "--cards", "30", "--ber", "0,1e-3", "--mechanics", "none,serial",
                 "--seeds", "2", "--workers", "1", "--theory", "-o", str(out)]) == 0
    assert "theory" in capsys.readouterr().out.splitlines()[0]
    rows = ResultsFile(str(out)).read()
    assert rows and all(r["theory_cards_per_minute"] > 0 for r in rows)
    plain = tmp_path / "plain.csv"
    assert main(["sweep", "--cards", "30", "--seeds", "1", "--workers", "1", "-o", str(plain)]) == 0
    assert all(r["theory_cards_per_minute"] is None for r in ResultsFile(str(plain)).read())


@pytest.mark.parametrize("theory, sweep", [
    (["--columns", "auto"], ["--columns", "80,auto"]),
    (["--mechanics", "overlap"], ["--mechanics", "none,overlap"]),
    (["--cut-at", "5"], ["--cut-at", "none,5"]),
    (["--bit-rate", "20"], ["--bit-rate", "1200,20"]),
])
def test_sweep_theory_refuses_what_theory_refuses_in_its_words(tmp_path, capsys, theory, sweep):
    """``sweep --columns auto --theory`` once dropped the theory of those points without a word, while
    ``theory --columns auto`` refused: now the sweep refuses, before any run, in the same line."""
    assert main(["theory", *theory]) == 2
    refusal = capsys.readouterr().err
    out = tmp_path / "runs.csv"
    assert main(["sweep", "--cards", "5", "--seeds", "1", "--workers", "1", *sweep, "--theory",
                 "-o", str(out)]) == 2
    assert capsys.readouterr().err == refusal
    assert not out.exists()  # refused before any work


@pytest.mark.parametrize("more", [["--columns", "80"], ["--columns", "40"], ["--duplex", "half"],
                                  ["--columns", "20", "--mechanics", "serial"]])
def test_a_line_too_slow_for_the_idle_timer_is_refused_where_simulate_cannot_start(tmp_path, capsys, more):
    """At 10-34 bit/s (80 columns) theory gave figures for sessions simulate shows can never start
    ("no CL ACK2 answered TL INQ after 8 bids": the receiving end's 20 s idle timer runs out while
    the first record is still on the line).  The slowest rate the theory takes is derived from the
    protocol's timings and named; simulate starts there and not one bit/s below."""
    assert main(["theory", "--bit-rate", "10", *more]) == 2
    said = capsys.readouterr().err
    assert "idle timer" in said and "punch" not in said
    slowest = int(re.search(r"give --bit-rate (\d+) or more", said).group(1))
    assert main(["theory", "--bit-rate", str(slowest - 1), *more]) == 2
    assert "idle timer" in capsys.readouterr().err
    assert main(["theory", "--bit-rate", str(slowest), *more]) == 0
    capsys.readouterr()
    deck = tmp_path / "deck.txt"
    with open(deck, "wb") as f:
        write_deck([Card.from_text("HELLO WORLD " * 6)] * 2, f, "text")
    ends = {}
    for rate in (slowest - 1, slowest):
        main(["simulate", str(deck), "--bit-rate", str(rate), *more, "--json"])
        ends[rate] = json.loads(capsys.readouterr().out)["ended"]
    assert ends == {slowest - 1: "no answer", slowest: "complete"}


def test_simulate_names_why_a_line_too_slow_cannot_start(tmp_path, capsys):
    """simulate ends ``no answer`` below the slowest rate, and says why before it runs."""
    deck = tmp_path / "deck.txt"
    with open(deck, "wb") as f:
        write_deck([Card.from_text("HELLO")] * 2, f, "text")
    assert main(["simulate", str(deck), "--bit-rate", "20", "--json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["ended"] == "no answer"
    assert err.startswith("ibm1013: warning: at 20 bit/s a record") and "idle timer" in err
    assert main(["simulate", str(deck), "--json"]) == 0
    assert capsys.readouterr().err == ""


def test_a_reply_slower_than_the_reply_timer_is_named_not_the_punch(capsys):
    """At 1-5 bit/s theory blamed "the punch" with card mechanics off: the cause is the reply."""
    for rate in ("1", "5"):
        assert main(["theory", "--bit-rate", rate, "--columns", "1"]) == 2
        said = capsys.readouterr().err
        assert "reply (2 characters)" in said and "3 s reply timer" in said and "punch" not in said


def test_a_meaningless_undetected_figure_is_flagged_and_chances_stay_within_one(capsys):
    """At BER 0.5 the undetected figure (1e-170) is nothing beside its own bound (~1): flagged; and
    ``session_end`` was 1.0000000000000002."""
    for ber in ("0.05", "0.1", "0.5"):
        figures = run_json(capsys, "--ber", ber)
        assert figures["undetected_meaningful"] is False
        assert all(0.0 <= figures[k] <= 1.0 for k in ("session_end", "record_detected", "give_up",
                                                      "reply_detected", "record_undetected_bound"))
        assert main(["theory", "--ber", ber]) == 0
        assert "no figure" in capsys.readouterr().out
    assert run_json(capsys, "--ber", "1e-4")["undetected_meaningful"] is True


def test_json_rounds_cards_per_minute_as_simulate_does(capsys):
    """``theory --json`` gave 99.99999999999999 cards a minute; simulate gives three decimals."""
    figures = run_json(capsys)
    assert figures["cards_per_minute"] == 100.0 and figures["clean_cards_per_minute"] == 100.0
    noisy = run_json(capsys, "--ber", "1e-4")
    assert noisy["cards_per_minute"] == round(noisy["cards_per_minute"], 3)
