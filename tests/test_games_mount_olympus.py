"""Mount Olympus (seed 000; reference row 13): two packs, all aces and twos out, building by twos."""

import pytest

from decks import engine as e
from decks.deals import deal_order
from decks.engine import IllegalMove, make_state
from tests.twopack import corruption_test, pack_counts, round_trip_test, wins

BASES = {f"f{i}": n for i, n in enumerate(["AC", "AD", "AH", "AS"] * 2 + ["2C", "2D", "2H", "2S"] * 2, 1)}


def test_layout_sixteen_aces_and_twos_out_nine_piles_of_one():
    s = e.deal("mount-olympus", 4)
    assert {f: s.piles[f].cards[0].name for f in s.names("foundation")} == BASES
    rest = [c for c in deal_order("double", 4) if c.rank > 2]
    assert [s.piles[f"t{i}"].cards for i in range(1, 10)] == [[c] for c in rest[:9]]
    assert len(s.piles["s"]) == 104 - 16 - 9
    pack_counts(s)


def test_foundations_build_up_in_suit_by_twos_to_king_and_queen():
    s = make_state("mount-olympus", {**BASES, "t1": "3C", "t2": "4C", "t3": "2C", "t4": "3D"})
    assert e.apply(s, "t1 f").piles["f1"].top.name == "3C"
    assert e.apply(s, "t2 f").piles["f9"].top.name == "4C"
    with pytest.raises(IllegalMove, match="f1 takes the 3C next .foundations build up by twos") as refused:
        e.apply(make_state("mount-olympus", {**BASES, "t1": "4C"}), "t1 f1")
    assert "suit" not in str(refused.value)  # a rank error, not the suit rule
    with pytest.raises(IllegalMove, match="takes only C"):
        e.apply(s, "t4 f1")
    done = make_state("mount-olympus", {**BASES, "f9": "2C 4C 6C 8C TC QC", "t1": "AC"})
    with pytest.raises(IllegalMove, match="complete|takes only"):
        e.apply(done, "t1 f9")


def test_tableau_down_in_suit_by_twos_and_runs_move_as_a_unit():
    s = make_state("mount-olympus", {"t1": "9S", "t2": "7S", "t3": "8S", "t4": "TC 8C 6C", "t5": "QC",
                                     "s": "-KD -KD"})
    e.apply(s, "t2 t1")
    with pytest.raises(IllegalMove, match="by twos"):
        e.apply(s, "t3 t1")
    moved = e.apply(s, "t4 t5 3")
    assert [c.name for c in moved.piles["t5"].cards] == ["QC", "TC", "8C", "6C"]
    assert moved.piles["t4"].top.name == "KD"                # the gap filled from the stock at once


def test_spaces_stay_empty_once_the_stock_is_out():
    s = make_state("mount-olympus", {"t1": "9S", "t2": "7S"})
    s = e.apply(s, "t2 t1")
    assert not s.piles["t2"].cards
    with pytest.raises(IllegalMove, match="space is never filled"):
        e.apply(s, "t1 t2")


def test_deal_nine_one_on_each_pile_at_will_or_only_when_stuck():
    s = e.deal("mount-olympus", 4)
    top = s.piles["s"].cards[-1]
    after = e.apply(s, "s")
    assert [len(after.piles[f"t{i}"]) for i in range(1, 10)] == [2] * 9 and after.piles["t1"].top == top
    strict = e.deal("mount-olympus", 4, {"deal_when_stuck": True})
    assert e.legal_moves(strict)[0].kind == "move"
    with pytest.raises(IllegalMove, match="only when no move is left"):
        e.apply(strict, "s")


# Found offline with a beam search over the engine's legal moves (width 30).
WIN_1 = """t3 f3; t7 f9; t7 f10; t8 f13; t8 f2; t5 f2; t1 t3; t1 f4; t2 t4; t4 t8 2; t5 t7; s
t1 f9; t5 f13; t7 f10; t1 f10; t4 t1; s; t4 f11; t5 f12; t6 f1; t8 f1; t1 t5; t4 t3
s; t2 f7; t5 f1; t4 f1; t6 f8; t7 f16; t8 f10; t7 f10; t7 f12; t2 f12; t2 t4; t9 t3
t5 f1; t5 f1; t5 f15; t3 t5 2; t5 t6 3; s; t2 f2; t5 f5; t1 f5; t9 f12; t6 f12; t9 f2
t5 f14; t6 f14; t6 f14; t6 f14; t6 f14; t7 f16; t7 f16; t7 f3; t1 f3; t5 t3; t5 f6; t5 t1
t5 f5; t5 f3; t8 f3; t5 f9; t3 f9; t3 f9; t5 f4; t3 f4; t3 f4; t3 f16; t8 t3; t5 f16
t5 t3; t5 f4; t2 f4; t2 f3; t2 f8; t9 t2; t5 f11; t5 f15; t6 f11; t8 f15; t8 f11; t8 f11
t8 f5; t8 f2; t7 f2; t8 f15; t8 f13; t8 f5; t4 f5; t2 f13; t2 f13; t2 f7; t1 f7; t1 f7
t1 f7; t4 f8; t4 f8; t6 f7; t7 f8; t5 f8; t8 f6; t3 f6; t3 f6; t3 f6; t3 f6; t9 f15"""


def test_deal_1_played_to_a_win():
    end = wins("mount-olympus", 1, WIN_1)
    assert sorted(end.piles[f].top.rank for f in end.names("foundation")) == [12] * 8 + [13] * 8


test_random_positions_round_trip_through_a_deck = round_trip_test("mount-olympus")
test_corrupted_decks_are_refused_naming_the_card = corruption_test("mount-olympus")
