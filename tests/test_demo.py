"""The README's main job: a dealt game travels between two simulated 1013s and resumes."""

import json

from PIL import Image

from decks import punch
from emulator.formats import read_deck
from ibm1013.cli.main import main


def test_demo_sends_a_game_in_progress_and_resumes_it(tmp_path, capsys):
    out = tmp_path / "demo"
    status = main(["demo", "--game", "klondike", "--deal", "1", "--moves", "5", "--ber", "3e-4",
                   "--seed", "2", "--out", str(out), "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert status == 0 and summary["identical"] is True
    assert summary["moves_played"] == 5
    report = summary["report"]
    assert report["cards_received"] == report["cards_sent"] == summary["cards"]
    assert report["lost"] == report["duplicated"] == report["undetected_errors"] == 0
    with open(out / "received.cbn", "rb") as stream:
        resumed = punch.decode(read_deck(stream, "auto"))
    assert resumed.deal_number == 1 and len(resumed.history) == 5
    with open(out / "sent.cbn", "rb") as a, open(out / "received.cbn", "rb") as b:
        assert a.read() == b.read()
    for picture in ("cards.png", "timeline.png"):
        with Image.open(out / picture) as img:
            assert img.width > 300 and img.height > 100


def test_demo_tells_the_story(tmp_path, capsys):
    assert main(["demo", "--moves", "0", "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "At terminal B" in text and "identical to A's: yes" in text
    assert "cards per minute" in text


def test_the_readme_shows_what_demo_prints_at_its_defaults(tmp_path, monkeypatch, capsys):
    """Issue 25 §9: the README's "real output" of the demo (84.0 cards a minute, 16.43 s, 2579
    characters, 4 retransmissions …) is compared, line for line, with the demo run at its defaults."""
    import re
    import shlex
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^`(ibm1013 demo[^`]*)` \(real output[^\n]*\n\n```\n(.*?)```", readme, re.M | re.S)
    assert found, "the README's demo block is not where this test looks for it"
    command, shown = shlex.split(found.group(1)), found.group(2)
    assert command == ["ibm1013", "demo", "--out", "demo"]  # the defaults but for where the files go
    monkeypatch.chdir(tmp_path)
    assert main(command[1:]) == 0
    assert capsys.readouterr().out == shown
    assert (tmp_path / "demo" / "sent.cbn").is_file()
