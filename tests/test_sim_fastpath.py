"""The shortcuts the simulator takes on clean records give exactly what the general paths give.

Three fast paths keep a simulated day of traffic cheap: the STR core's whole-record and
whole-reply paths, the noise models' clean-bits countdown, and records encoded for the whole deck at
once.  Each is checked here against the general path on noisy runs.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator.noise import BitErrors, GilbertElliott
from ibm1013.sim import transfer
from ibm1013.sim.transfer import TransferConfig, run_transfer
from ibm1013.str import CancelTimer, ColumnLayout, Receiver, Send, StartTimer, Transmitter
from ibm1013.str import fourofeight as fo

CARD_WORDS = np.array([w for w in range(4096) if fo.WORD_TO_CHAR[w]], dtype=np.uint16)


def deck(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).choice(CARD_WORDS, size=(n, 80))


def exchange(words: np.ndarray, ber: float, seed: int, *, split: bool) -> list:
    """Run a session frame by frame through bit errors; ``split`` hands every frame over as its first
    byte and the rest, which keeps both cores off their whole-frame fast paths."""
    tx, rx = Transmitter(words), Receiver()
    noise = {"rx": BitErrors(ber, seed=f"{seed}/a"), "tx": BitErrors(ber, seed=f"{seed}/b")}
    queue: list[tuple[str, bytes]] = []
    timers: dict[tuple[str, str], int] = {}
    log: list = []

    def perform(side: str, actions: list) -> None:
        for a in actions:
            if type(a) is Send:
                queue.append(("rx" if side == "tx" else "tx", a.data))
                log.append((side, a.data, a.card, a.attempt))
            elif type(a) is StartTimer:
                timers[(side, a.name)] = len(log)
            elif type(a) is CancelTimer:
                timers.pop((side, a.name), None)
            else:
                log.append((side, a))

    perform("tx", tx.start())
    perform("rx", rx.start())
    for _ in range(20_000):
        if queue:
            side, data = queue.pop(0)
            data = noise[side].corrupt(data)[0]
            core = rx if side == "rx" else tx
            chunks = [data[:1], data[1:]] if split else [data]
            for chunk in chunks:
                perform(side, core.receive_data(chunk))
        elif timers:
            side, name = min(timers, key=timers.get)
            del timers[(side, name)]
            perform(side, (tx if side == "tx" else rx).timer_expired(name))
        else:
            break
    counters = [getattr(tx, k) for k in ("retransmissions", "records_sent", "chars_sent", "error_replies",
                                       "timeouts", "garbled_replies", "delivered", "failed")]
    counters += [getattr(rx, k) for k in ("cards_accepted", "detected_errors", "duplicates",
                                       "invalid_sequences", "sequence_faults", "suspect_repeats",
                                       "chars_sent", "next_card")]
    return [log, counters, tx.ended, rx.ended]


@pytest.mark.parametrize("ber", [1e-4, 2e-3, 1e-2])
def test_core_whole_frame_fast_paths_match_the_general_path_on_noisy_runs(ber):
    for seed in range(6):
        words = deck(40, seed)
        fast = exchange(words, ber, seed, split=False)
        general = exchange(words, ber, seed, split=True)
        assert fast == general, (ber, seed)
        assert fast[2] is not None  # the session ended


def _through(model, chunks: list[bytes], *, fast: bool) -> tuple[list[bytes], int]:
    out = []
    for chunk in chunks:
        nbits = len(chunk) * 8
        if fast and nbits <= model.clean_bits:
            model.clean_bits -= nbits
            out.append(chunk)
        else:
            out.append(model.corrupt(chunk)[0])
    return out, model.flipped_bits


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 120), min_size=1, max_size=200), st.integers(0, 10_000))
def test_clean_bits_countdown_gives_the_same_errors_as_corrupt(sizes, seed):
    rng = random.Random(seed)
    chunks = [bytes(rng.randrange(256) for _ in range(n)) for n in sizes]
    makers = (
        lambda: BitErrors(3e-3, seed=seed),
        lambda: GilbertElliott(2e-3, 0.1, 0.3, 1e-3, seed=seed),
        lambda: GilbertElliott(2e-3, 0.1, 0.3, 0.0, seed=seed),
    )
    for make in makers:
        assert _through(make(), chunks, fast=True) == _through(make(), chunks, fast=False)


class AlwaysCorrupting:
    """A noise model that offers no clean bits, so the line calls ``corrupt`` on every frame."""

    clean_bits = 0

    def __init__(self, model, calls: list) -> None:
        self.model = model
        self.calls = calls

    def corrupt(self, data: bytes) -> tuple[bytes, int]:
        self.calls.append(len(data))
        return self.model.corrupt(data)

    @property
    def flipped_bits(self) -> int:
        return self.model.flipped_bits


@pytest.mark.parametrize("burst", [None, (1e-3, 0.1, 0.2)])
def test_simulation_report_is_the_same_without_the_noise_fast_path(monkeypatch, burst):
    """The clean-bits countdown against ``corrupt`` called on every frame: the same report, cards
    and timeline."""
    words = deck(300, 5)
    config = TransferConfig.build(ber=2e-4, burst=burst, seed=3, timeline=True)
    fast = run_transfer(words, config)
    calls: list = []
    make_noise = transfer.make_noise
    monkeypatch.setattr(transfer, "make_noise", lambda *a, **k: AlwaysCorrupting(make_noise(*a, **k), calls))
    general = run_transfer(words, config)
    assert len(calls) == len(general.timeline)  # every frame went through corrupt
    assert fast.report == general.report and fast.received == general.received
    assert fast.timeline == general.timeline
    assert fast.report.flipped_bits > 0 and fast.report.retransmissions > 0


@pytest.mark.parametrize("text,binary", [("80", False), ("auto", False), ("1-20,41-60", True),
                                         ("auto", True), ("7", False)])
def test_records_built_for_the_whole_deck_match_encode(text, binary):
    words = deck(200, 9)
    words[::3, 30:] = 0
    words[::7] = 0
    layout = ColumnLayout.parse(text, column_binary=binary)
    data, lrcs = layout.encode(words)
    records = layout.encode_records(words)
    assert records == [d + bytes((fo.TL, c)) for d, c in zip(data, lrcs, strict=True)]
    assert all(fo.lrc(d) == c for d, c in zip(data, lrcs, strict=True))
    tx = Transmitter(words, first_card=5) if text == "80" else None
    if tx is not None:
        assert tx.sent_data(5) == data[4] and tx.sent_data(200) == data[199]
