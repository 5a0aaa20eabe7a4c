"""Louis (seed 004; reference row 22): two packs, an ace and a king of each suit out, 12 piles, build up
or down in suit, foundation plays during the first twelve cards, two redeals."""

import pytest

from decks import engine as e
from decks.deals import deal_order
from decks.engine import IllegalMove, make_state
from decks.games.two_pack import take_out
from tests.twopack import corruption_test, pack_counts, round_trip_test, wins

SET_OUT = [r + s for r in "AK" for s in "CDHS"]


def rest_of_pack(deal: int) -> list:
    order = deal_order("double", deal)
    take_out(order, SET_OUT)
    return order


def test_layout_aces_up_kings_down_set_out_and_first_twelve_play_home_skipping_their_pile():
    s = e.deal("louis", 1)
    assert [s.piles[f].cards[0].name for f in s.names("foundation")] == SET_OUT
    rest = rest_of_pack(1)
    # the 9th, 11th and 12th cards (QH, 2S, 2D) fit a foundation: played, their piles skipped
    assert [c.name for c in (rest[8], rest[10], rest[11])] == ["QH", "2S", "2D"]
    assert [s.piles[f].top.name for f in ("f7", "f4", "f2")] == ["QH", "2S", "2D"]
    assert [len(s.piles[f"t{i}"]) for i in range(1, 13)] == [8] * 8 + [7, 8, 7, 7]
    assert s.piles["t1"].cards[:2] == [rest[0], rest[12]]
    assert all(p.hidden == 0 for p in s.piles.values())
    pack_counts(s)


def test_option_off_deals_eight_to_every_pile():
    s = e.deal("louis", 1, {"first_deal_to_foundations": False})
    assert [len(s.piles[f"t{i}"]) for i in range(1, 13)] == [8] * 12
    assert s.piles["t9"].cards[0] == rest_of_pack(1)[8]


def test_build_up_or_down_in_suit_not_round_the_corner():
    s = make_state("louis", {"t1": "7S", "t2": "8S", "t3": "6S", "t4": "6H", "t5": "AD", "t6": "KD",
                             "t7": "2D"})
    e.apply(s, "t2 t1")
    e.apply(s, "t3 t1")
    with pytest.raises(IllegalMove, match="up or down in suit"):
        e.apply(s, "t4 t1")
    with pytest.raises(IllegalMove, match="up or down in suit"):
        e.apply(s, "t6 t5")                                  # not circular: no king on an ace
    e.apply(s, "t7 t5")


def test_foundations_ace_up_king_down_in_suit():
    s = make_state("louis", {"f1": "AC", "f5": "KC", "t1": "2C", "t2": "QC", "t3": "2H"})
    assert e.apply(s, "t1 f").piles["f1"].top.name == "2C"
    assert e.apply(s, "t2 f").piles["f5"].top.name == "QC"
    with pytest.raises(IllegalMove, match="f1 takes only C cards"):
        e.apply(s, "t3 f1")
    with pytest.raises(IllegalMove, match=r"f5 takes the QC next \(king foundations build down by one"):
        e.apply(make_state("louis", {"f5": "KC", "t1": "JC"}), "t1 f5")


def test_space_filled_only_from_the_tableau():
    s = make_state("louis", {"t1": "5C", "t2": "9D", "f1": "AC 2C 3C", "f5": "KH QH"})
    assert e.apply(s, "t1 t3").piles["t3"].top.name == "5C"  # any tableau card, whatever its rank
    for source in ("f1", "f5"):  # never a foundation's card (3C, QH), though either would fit there
        with pytest.raises(IllegalMove, match="cards do not go from the foundation to the tableau"):
            e.apply(s, f"{source} t3")
    spaces = {t for t in s.names("tableau") if not s.piles[t].cards}
    into = [m for m in e.legal_moves(s) if m.kind == "move" and m.piles[1] in spaces]
    assert into and {m.src for m in into} == {"t1", "t2"}


def test_two_redeals_gather_the_piles_in_order():
    s = e.deal("louis", 1)
    before = [c for t in s.names("tableau") for c in s.piles[t].cards]
    s = e.apply(s, "r")
    assert s.piles["t1"].cards[:2] == [before[0], before[12]] and s.redeals == 1
    assert [len(s.piles[t]) for t in s.names("tableau")] == [8] * 9 + [7] * 3
    s = e.apply(s, "r")
    with pytest.raises(IllegalMove, match="only 2 redeal"):
        e.apply(s, "r")


# Found offline with a beam search over the engine's legal moves (width 30).
WIN_2 = """t1 f2; t10 f4; t9 f4; r; t1 f8; t4 f8; t4 f4; t4 f8; t6 f8; t12 f1; t11 f1; t11 f8
t11 f6; t12 f3; t12 f5; t6 t11; t6 f2; t2 f2; t7 t6; t7 f6; t9 t1; t9 f3; t9 f6; t9 f6
t12 t2; t12 f3; t1 f3; t1 f3; r; t5 f4; t9 f3; t2 f3; t2 f4; t11 f7; t4 t3; t4 t12
t4 t3; t4 f7; t4 t5; t4 f2; t9 t4; t9 f5; t8 t7; t8 t2; t9 t11; t5 t9; t5 t3; t8 t5
t4 t8; t1 t4; t1 f5; t1 f6; t5 f5; t5 f5; t3 t9; t3 f5; t3 f5; t3 f5; t3 t9; t3 t10
t4 t3; t6 t4; t6 t11; t6 t5; t6 f4; t6 f7; t4 f7; t7 f4; t7 f4; t5 t4; t5 t4; t5 f7
t2 f7; t2 f7; t8 t6; t8 t6; t8 t2; t8 f7; t6 f7; t6 f7; t6 f7; t1 t6; t1 t8; t1 f8
t4 f8; t4 f8; t2 t1; t7 t1; t7 t4; t7 f2; t7 f2; t7 f3; t11 t7; t11 t7; t11 f2; t7 f2
t7 f2; t11 t7; t11 f1; t9 f1; t9 f1; t9 f1; t9 f1; t9 f3; t8 f3; t11 f2; t2 t7; t2 f3
t1 t8; t1 t7; t3 t1; t3 t9; t3 f1; t3 f5; t5 f1; t2 f1; t10 f5; t10 f5; t10 f3; t10 f4
t4 f4; t10 f1; t6 f1; t10 f6; t12 f4; t12 f4; t12 f2; t10 f2; t12 f5; t12 f6; t12 f8; t1 f8
t9 f8; t7 t1; t7 t1; t7 f6; t1 f6; t1 f6; t8 f6"""


def test_deal_2_played_to_a_win():
    wins("louis", 2, WIN_2)


test_random_positions_round_trip_through_a_deck = round_trip_test("louis")
test_corrupted_decks_are_refused_naming_the_card = corruption_test("louis")
