"""Noise models: seeded, chunking-independent, and at the rates asked for."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator.noise import (
    BitErrors,
    GilbertElliott,
    LineCut,
    NoNoise,
    make_noise,
    parse_burst,
)


def flipped(a: bytes, b: bytes) -> int:
    return sum((x ^ y).bit_count() for x, y in zip(a, b, strict=True))


def run(model, chunks):
    out, total = [], 0
    for c in chunks:
        data, n = model.corrupt(c)
        assert flipped(c, data) == n
        out.append(data)
        total += n
    return b"".join(out), total


def test_clean_line_changes_nothing():
    assert NoNoise().corrupt(b"abc") == (b"abc", 0)
    assert isinstance(make_noise(0.0), NoNoise)


def test_bit_error_rate_is_about_right():
    model = BitErrors(1e-3, seed=1)
    data = bytes(100_000)
    _, n = run(model, [data[i : i + 85] for i in range(0, len(data), 85)])
    assert 650 < n < 950  # 800 expected, sd about 28
    assert model.flipped_bits == n


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 300), min_size=1, max_size=30), st.integers(0, 1000))
def test_errors_do_not_depend_on_chunking(sizes, seed):
    data = bytes(range(256)) * 40
    total = sum(sizes)
    data = data[:total]
    chunks, pos = [], 0
    for s in sizes:
        chunks.append(data[pos : pos + s])
        pos += s
    makers = (lambda: BitErrors(0.01, seed=seed), lambda: GilbertElliott(0.01, 0.2, 0.3, 0.001, seed=seed))
    for make in makers:
        whole, n1 = run(make(), [data])
        parts, n2 = run(make(), chunks)
        assert whole == parts and n1 == n2


def test_same_seed_same_errors_other_seed_other_errors():
    data = bytes(5000)
    a = BitErrors(0.01, seed=7).corrupt(data)
    assert a == BitErrors(0.01, seed=7).corrupt(data)
    assert a != BitErrors(0.01, seed=8).corrupt(data)


def test_bursts_cluster_errors():
    p_gb, p_bg, ber_bad = 1e-4, 1e-2, 0.2
    model = GilbertElliott(p_gb, p_bg, ber_bad, seed=3)
    data = bytes(200_000)
    out, n = run(model, [data[i : i + 100] for i in range(0, len(data), 100)])
    expected = 8 * len(data) * p_gb / (p_gb + p_bg) * ber_bad
    assert 0.5 * expected < n < 1.5 * expected
    # errors come in bursts: far fewer damaged 100-byte blocks than with independent errors
    damaged = sum(1 for i in range(0, len(out), 100) if out[i : i + 100] != data[i : i + 100])
    assert damaged < n / 5


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError):
        BitErrors(1.5)
    with pytest.raises(ValueError):
        GilbertElliott(0.1, 0.0, 0.5)
    with pytest.raises(ValueError, match="three"):
        parse_burst("0.1,0.2")
    assert parse_burst("0.001,0.1,0.5") == (0.001, 0.1, 0.5)


def test_line_cut():
    assert not LineCut().is_cut(1e9)
    cut = LineCut(5.0)
    assert not cut.is_cut(4.99) and cut.is_cut(5.0)


def test_transfer_report_renders():
    import json

    from ibm1013.report import TransferReport

    r = TransferReport(cards_sent=3, cards_received=2, failed_cards=[2], ended="complete")
    d = json.loads(r.to_json())
    for key in ("cards_sent", "cards_received", "cards_per_minute", "simulated_seconds",
                "characters_on_line", "retransmissions", "detected_errors", "undetected_errors",
                "failed_cards", "lost", "duplicated"):
        assert key in d
    assert d["failed_cards"] == [2]
    assert "failed cards      2" in r.to_text()
