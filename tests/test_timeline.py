"""The transfer timeline picture: its legend names only what the picture shows."""

import matplotlib.axes
import pytest
from PIL import Image

from emulator.card import Card
from ibm1013.sim.timeline import draw
from ibm1013.sim.transfer import TransferConfig, run_transfer

DECK = [Card.from_text(f"CARD {i}") for i in range(1, 9)]


def legend_of(monkeypatch, timeline, tmp_path):
    seen: list[list[str]] = []
    real = matplotlib.axes.Axes.legend

    def spy(self, *args, **kwargs):
        seen.append([h.get_label() for h in kwargs.get("handles", [])])
        return real(self, *args, **kwargs)

    monkeypatch.setattr(matplotlib.axes.Axes, "legend", spy)
    path = tmp_path / "t.png"
    draw(timeline, path)
    assert Image.open(path).size[0] > 800
    return seen[0] if seen else []


def test_clean_line_legend_has_no_errors(monkeypatch, tmp_path):
    transfer = run_transfer(DECK, TransferConfig.build(timeline=True))
    assert legend_of(monkeypatch, transfer.timeline, tmp_path) == ["record", "sync / bid / EOT", "CL ACK"]


@pytest.mark.parametrize("seed", [2, 3])
def test_noisy_line_legend_lists_retransmissions_and_errors(monkeypatch, tmp_path, seed):
    transfer = run_transfer(DECK, TransferConfig.build(timeline=True, ber=5e-4, seed=seed))
    assert transfer.report.retransmissions > 0
    labels = legend_of(monkeypatch, transfer.timeline, tmp_path)
    assert labels[:2] == ["record", "retransmission"] and "other" not in labels
