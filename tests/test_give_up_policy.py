"""What a card given up does: one default (``stop``) everywhere, stated one way (issue 50 §5).

The library, ``simulate``, ``theory`` and ``sweep`` stop at a card given up unless told to skip it
(``--on-give-up skip``, the one shared option), and ``--help``, ``--parameters``, ``--json`` and the
docs say so.  With ``skip`` the receiving end's count of cards runs behind the deck (it never sees
the cards skipped), so a sequence fault is reported in the deck's numbers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from sim_cases import deck

from ibm1013.cli.main import build_parser, main
from ibm1013.sim.transfer import TransferConfig, run_transfer
from ibm1013.str import SessionConfig
from ibm1013.str.config import GIVE_UP_STOP

ROOT = Path(__file__).parent.parent


def _sub(name: str):
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    return sub.choices[name]


def test_the_library_stops_at_a_card_given_up():
    assert SessionConfig().on_give_up == GIVE_UP_STOP == TransferConfig().session.on_give_up
    r = run_transfer(deck(40, 3), TransferConfig.build(ber=1e-2, seed=3)).report
    assert r.failed_cards and r.resume_at == min(r.failed_cards)  # nothing after it was sent
    assert r.cards_sent == r.cards_received + len(r.failed_cards) + len(r.unconfirmed_cards)


@pytest.mark.parametrize("command", ["simulate", "theory", "sweep"])
def test_every_transfer_command_has_the_option_with_the_default(command):
    parser = _sub(command)
    action = next(a for a in parser._actions if "--on-give-up" in a.option_strings)
    default = action.type(action.default) if command == "sweep" else action.default  # a list there
    assert default == ([GIVE_UP_STOP] if command == "sweep" else GIVE_UP_STOP)
    assert f"(default {GIVE_UP_STOP})" in " ".join(parser.format_help().split())


def test_parameters_json_and_docs_say_stop(capsys):
    assert main(["simulate", "--parameters"]) == 0
    assert re.search(r"^\s*on_give_up\s+stop\s", capsys.readouterr().out, re.M)
    assert main(["theory", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["settings"]["on_give_up"] == "stop"
    docs = " ".join((ROOT / "docs" / name).read_text() for name in ("ibm1013.md", "serial.md",
                                                                      "throughput.md"))
    assert "library's default is `skip`" not in docs and "Only `simulate --on-give-up skip`" not in docs


def test_sweep_skips_only_when_told(tmp_path, capsys):
    """``sweep --ber 1e-2`` skipped cards given up (the library's old default) and had no option."""
    out = tmp_path / "runs.jsonl"
    assert main(["sweep", "--cards", "25", "--ber", "1e-2", "--seeds", "2", "--workers", "1",
                 "--on-give-up", "stop,skip", "-o", str(out)]) in (0, 1)
    capsys.readouterr()
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    stop = [r for r in rows if r["on_give_up"] == "stop"]
    skip = [r for r in rows if r["on_give_up"] == "skip"]
    assert len(stop) == len(skip) == 2
    assert all(len(r["failed_cards"]) <= 1 for r in stop)  # the session ends at the first
    assert any(len(r["failed_cards"]) > 1 for r in skip)


@pytest.mark.parametrize("seed, ber", [(2, 3e-3), (9, 3e-3), (12, 5e-3), (4, 5e-3)])
def test_a_sequence_fault_names_the_deck_card_to_resume_from(seed, ber):
    """With cards given up and skipped, the message said "resume at card 16" where ``resume_at`` was
    17 (one card early for each card given up), and at TL EOT a card past the deck's end."""
    cards = deck(30, seed)
    r = run_transfer(cards, TransferConfig.build(ber=ber, seed=seed, columns="20",
                                                 on_give_up="skip")).report
    assert r.ended == "sequence fault" and r.failed_cards
    named = [int(n) for n in re.findall(r"card (\d+)", r.message)]
    assert all(n <= len(cards) for n in named)
    resume = re.search(r"resume at card (\d+)", r.message)
    if r.resume_at is None:
        assert resume is None and "send them again" in r.message
    else:
        assert resume is not None and int(resume.group(1)) == r.resume_at
