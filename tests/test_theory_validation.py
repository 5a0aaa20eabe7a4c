"""The theory against the simulation over 256 settings (``tools/validate_theory.py``'s CI grid):
bit rates 600-2400, 80 and 20 columns and a mask, column binary, half duplex, BER 1e-6 to 3e-3, two
burst models and serial card mechanics.  Each point's cards per minute and retransmissions per
card, simulated, must fall where the theory puts them as often as a correct theory would: about
95 % inside the 95 % interval, none beyond four standard errors.  A disagreement is a bug in one of
the two, not a tolerance to widen."""

from tools import validate_theory


def test_simulated_points_fall_where_the_theory_puts_them():
    points = validate_theory.grid(ci=True)
    assert len(points) >= 200
    comparisons = validate_theory.validate(points, workers=2)
    result = validate_theory.summary(comparisons)
    assert result["max_abs_z"] < 4.0, result["worst"]
    assert 0.90 <= result["inside_95"] <= 0.99, result


def test_a_clean_line_is_the_timing_arithmetic_exactly():
    """No noise, no spread: the simulation gives the theory's figure to the rounding of its report,
    and the theory the documented 100 / 180 / 60.1 cards per minute (full duplex 80 and 40 columns;
    half duplex 80, a deck of 100 cards: the last card has no turnaround after it)."""
    from ibm1013.sim.transfer import TransferConfig
    from ibm1013.theory import Setting, figures

    for point, expected in ((dict(columns="80"), 100.0), (dict(columns="40"), 180.0),
                            (dict(columns="80", duplex="half"), 60.12)):
        point = {**point, "ber": 0.0}
        result = validate_theory.simulate_point(point)
        rate, retransmissions = validate_theory.compare(result)
        assert rate.z == 0.0 and abs(rate.simulated - rate.theory) < 1e-3
        assert retransmissions.simulated == retransmissions.theory == 0.0
        f = figures(Setting.of(TransferConfig.build(**point)), cards=100)
        assert round(f.cards_per_minute, 2) == expected
