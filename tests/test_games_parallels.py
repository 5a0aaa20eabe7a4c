"""Parallels (seed 000; reference row 8): two packs, an ace and a king of each suit out, rows of ten,
free narrow edges from the third row on, gaps filled at a standstill, reversals between foundations."""

import pytest

from decks import engine as e
from decks import solver
from decks.deals import deal_order
from decks.engine import IllegalMove, make_state
from decks.games.two_pack import take_out
from tests.twopack import corruption_test, pack_counts, round_trip_test, wins

BASES = {f"f{i}": n for i, n in enumerate(["AC", "AD", "AH", "AS", "KC", "KD", "KH", "KS"], 1)}


def grid(rows: int, **cells: str) -> dict[str, str]:
    """The foundations' bases and ``rows`` full rows of fives of hearts (no foundation takes one),
    unless a cell is given (an empty string leaves it empty)."""
    out = dict(BASES)
    out.update({f"t{r}{c}": "5H" for r in range(1, rows + 1) for c in "abcdefghij"})
    out.update(cells)
    return {k: v for k, v in out.items() if v}


def test_layout_bases_set_out_and_a_first_row_of_ten():
    s = e.deal("parallels", 2)
    assert all(len(s.piles[f]) == 1 for f in BASES)
    assert [s.piles[f].cards[0].name for f in BASES] == list(BASES.values())
    rest = deal_order("double", 2)
    take_out(rest, BASES.values())
    assert [s.piles[f"t1{c}"].cards for c in "abcdefghij"] == [[x] for x in rest[:10]]
    assert all(not s.piles[f"t2{c}"].cards for c in "abcdefghij") and len(s.piles["s"]) == 86
    assert s.counters["rows"] == 1
    pack_counts(s)


def test_foundations_ace_up_king_down_and_no_building_in_the_tableau():
    s = make_state("parallels", grid(1, t1a="2C", t1b="QC", t1c="3C"), counters={"rows": 1})
    assert e.apply(s, "t1a f").piles["f1"].top.name == "2C"
    assert e.apply(s, "t1b f").piles["f5"].top.name == "QC"
    with pytest.raises(IllegalMove, match=r"f1 takes the 2C next \(ace foundations build up by one rank\)"):
        e.apply(s, "t1c f1")
    with pytest.raises(IllegalMove, match="cards do not go from the tableau to the tableau"):
        e.apply(s, "t1c t1a")


def test_a_second_card_of_a_rank_is_refused_by_the_rank_rule_not_the_suit_rule():
    s = make_state("parallels", grid(1, t1a="2S", t1c="2S"), counters={"rows": 1})
    s = e.apply(s, "t1a f")
    with pytest.raises(IllegalMove) as refused:
        e.apply(s, "t1c f")
    assert "f4 takes the 3S next" in str(refused.value) and "by one rank" in str(refused.value)
    assert "suit" not in str(refused.value)


def test_first_two_rows_all_available_and_gaps_filled_at_once():
    s = make_state("parallels", grid(2, t1a="2C", t2c="2H", s="-5D -9S"), counters={"rows": 2})
    s = e.apply(s, "t2c f")                                  # a second-row card under a full first row
    assert s.piles["t2c"].top.name == "9S"
    s = e.apply(s, "t1a f")
    assert s.piles["t1a"].top.name == "5D" and not s.piles["s"].cards


def test_stock_only_at_a_standstill_and_new_rows_of_ten():
    s = e.deal("parallels", 2)
    home = [m for m in e.legal_moves(s) if m.kind == "move"]
    if home:
        with pytest.raises(IllegalMove, match="only when play is at a standstill"):
            e.apply(s, "s")
    free = e.deal("parallels", 2, {"deal_when_stuck": False})
    free = e.apply(free, "s")
    assert free.counters["rows"] == 2 and all(free.piles[f"t2{c}"].cards for c in "abcdefghij")


def test_from_the_third_row_a_card_needs_a_free_narrow_edge():
    s = make_state("parallels", grid(3, t2b="2C", t2c="2D", t3c=""), counters={"rows": 3})
    with pytest.raises(IllegalMove, match="narrow edge free"):
        e.apply(s, "t2b f")                                  # cards above and below it
    after = e.apply(s, "t2c f")                              # the cell below it is empty
    assert after.piles["f2"].top.name == "2D" and not after.piles["t2c"].cards   # gap stays open
    top_row = make_state("parallels", grid(3, t1e="2S"), counters={"rows": 3})
    e.apply(top_row, "t1e f")


def test_gaps_filled_left_to_right_top_to_bottom_before_a_new_row():
    s = make_state("parallels", grid(3, t1c="", t2a="", s="-7H -8H -9H"), counters={"rows": 3})
    s = e.apply(s, "s")
    assert s.piles["t1c"].top.name == "9H" and s.piles["t2a"].top.name == "8H"
    assert s.counters["rows"] == 3
    s = e.apply(s, "s")
    assert s.counters["rows"] == 4 and s.piles["t4a"].top.name == "7H"


def test_reversals_between_a_suits_two_foundations_but_never_a_base_card():
    s = make_state("parallels", grid(1, f1="AC 2C 3C 4C 5C", f5="KC QC JC TC 9C 8C 7C 6C"),
                   counters={"rows": 1})
    s = e.apply(s, "f1 f5")
    assert s.piles["f5"].top.name == "5C" and s.piles["f1"].top.name == "4C"
    base = make_state("parallels", grid(1, f1="AC", f5="KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"),
                      counters={"rows": 1})
    with pytest.raises(IllegalMove, match="base card stays"):
        e.apply(base, "f1 f5")
    assert "f1 f5" not in [str(m) for seq in solver.ordered_moves(base) for m in seq]


# Found offline with decks.solver.solve(e.deal('parallels', 1), 5000).
WIN_1 = """t1i f7; t1i f4; t1i f2; s; t2a f2; t1j f2; t1e f2; t1e f6; t1a f6; t1e f2; t2d f4; t2d f7
t1d f7; t2a f7; t1b f7; t2h f3; t1c f3; t1c f4; t2h f3; s; t3d f7; s; s; t4a f6; t1a f6; t4g f2
t4h f5; s; t1a f8; t4h f1; t1c f1; t1g f1; t4f f1; t1j f1; t3f f2; t3h f1; s; t1j f3; s; s
t5b f1; t5c f4; t5g f8; t1c f8; t2c f4; t3c f8; t1d f8; t2d f5; t1e f5; t2e f6; t5f f6; t4b f6
t3b f2; t5h f3; t4h f3; t1f f3; t2f f4; t5a f3; f8 f4; f8 f4; s; t1c f7; t1f f1; t4h f6; t5a f7
t4c f7; f1 f5; f1 f5; t1j f5; t2j f4; t2f f4; t5e f4; t1d f4; t4e f6; t3e f7; t2e f3; t3j f7
t3f f7; t4f f6; t1a f6; t2a f8; t1i f8; t2d f6; t2i f8; t4a f8; t4g f3; t5i f8; t3d f8; t3i f8
t1b f8; t2b f3; t1e f3; t3b f1; t3g f1; t1g f1; t2g f5; t3a f5; t1h f5; t3c f1; t4b f8; t4d f2
t2c f2; t2h f2; t3h f2; t4j f5; t5d f5; t5b f5; t5j f1; t4i f1"""


def test_deal_1_played_to_a_win():
    wins("parallels", 1, WIN_1)


test_random_positions_round_trip_through_a_deck = round_trip_test("parallels", examples=8)
test_corrupted_decks_are_refused_naming_the_card = corruption_test("parallels")
