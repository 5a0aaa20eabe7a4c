"""British Constitution (seed 000; reference row 15): 88 cards (two packs without kings and queens),
eight aces out, four rows of eight, spaces pushed down row by row to the stock."""

import pytest

from decks import engine as e
from decks.deals import deal_order
from decks.engine import IllegalMove, make_state
from tests.twopack import corruption_test, pack_counts, round_trip_test, wins

ACES = {f"f{i}": a for i, a in enumerate(["AC", "AD", "AH", "AS"] * 2, 1)}
GC = "british-constitution"


def full_rows(**cells: str) -> dict[str, str]:
    """Every cell holding a ten of clubs unless given (so no space is waiting)."""
    out = {f"t{r}{c}": "TC" for r in range(1, 5) for c in range(1, 9)}
    out.update(ACES)
    out.update(cells)
    return out


def test_layout_88_cards_eight_aces_out_four_rows_of_eight_rest_in_stock():
    s = e.deal(GC, 6)
    assert [s.piles[f].cards[0].name for f in s.names("foundation")] == ["AC", "AD", "AH", "AS"] * 2
    rest = [c for c in deal_order("double-88", 6) if c.rank != 1]
    assert [s.piles[f"t{r}{c}"].cards for r in range(1, 5) for c in range(1, 9)] == [[x] for x in rest[:32]]
    assert len(s.piles["s"]) == 88 - 8 - 32 and all(c.rank <= 11 for c in s.piles["s"].cards)
    pack_counts(s)


def test_only_row_1_plays_to_the_foundations_up_in_suit_to_the_jacks():
    s = make_state(GC, full_rows(t11="2C", t21="2D", f2="AD 2D 3D 4D 5D 6D 7D 8D 9D TD"))
    assert e.apply(s, "t11 f").piles["f1"].top.name == "2C"
    with pytest.raises(IllegalMove, match="only cards of row 1 go to the foundations"):
        e.apply(s, "t21 f6")
    done = make_state(GC, full_rows(t11="JD", f2="AD 2D 3D 4D 5D 6D 7D 8D 9D TD"))
    assert len(e.apply(done, "t11 f2").piles["f2"]) == 11


def test_row_1_builds_down_in_alternating_colours_from_row_1_and_row_2_only():
    s = make_state(GC, full_rows(t11="9H", t12="8S", t13="8D", t21="8C", t31="8S", t14="7D"))
    e.apply(s, "t12 t11")
    e.apply(s, "t21 t11")
    with pytest.raises(IllegalMove, match="alternating colours"):
        e.apply(s, "t13 t11")
    with pytest.raises(IllegalMove, match="only row 1's top cards and row 2's cards"):
        e.apply(s, "t31 t11")
    with pytest.raises(IllegalMove, match="built only on row 1"):
        e.apply(s, "t14 t21")


def test_a_space_is_pushed_down_row_by_row_and_row_4_fills_from_the_stock():
    s = make_state(GC, full_rows(t11="9H", t21="8S", t32="5D", t43="4C", t15="2D", s="-2H -3S"))
    s = e.apply(s, "t21 t11")                                # a space in row 2
    with pytest.raises(IllegalMove, match="space t21 must first be filled from row 3"):
        e.apply(s, "t15 f")
    with pytest.raises(IllegalMove, match="filled from row 3"):
        e.apply(s, "p t43 t21")
    s = e.apply(s, "p t32 t21")                              # any card of the row below
    s = e.apply(s, "p t43 t32")
    assert s.piles["t43"].top.name == "3S" and len(s.piles["s"]) == 1
    with pytest.raises(IllegalMove, match="not a space"):
        e.apply(s, "p t43 t32")


def test_a_row_1_space_takes_a_row_2_card_only_through_the_fill():
    s = make_state(GC, full_rows(t11="2C", t12="9H", t21="8S", s="-2H"))
    s = e.apply(s, "t11 f")
    with pytest.raises(IllegalMove, match="filled only from the row below"):
        e.apply(s, "t12 t11")
    s = e.apply(s, "p t21 t11")
    assert s.piles["t11"].top.name == "8S"


# Found offline with decks.solver.solve(e.deal('british-constitution', 5), 2000).
WIN_5 = """t11 t16; p t21 t11; p t31 t21; p t41 t31; t12 t18; p t21 t12; p t31 t21; p t41 t31; t17 t15
p t21 t17; p t31 t21; p t41 t31; t17 f4; p t21 t17; p t31 t21; p t41 t31; t17 t11; p t21 t17
p t31 t21; p t41 t31; t25 t13; p t31 t25; p t41 t31; t25 t11; p t31 t25; p t41 t31; t26 t12
p t31 t26; p t41 t31; t24 t12; p t31 t24; p t41 t31; t12 f2; t24 t12; p t31 t24; p t41 t31
t12 f3; t12 f4; t16 f3; t12 f3; p t21 t12; p t31 t21; p t41 t31; t24 t18; p t31 t24; p t41 t31
t23 t18; p t31 t23; p t41 t31; t18 f3; t23 t11; p t32 t23; p t41 t32; t11 f3; t23 t12; p t31 t23
p t41 t31; t24 t12; p t31 t24; p t41 t31; t13 t14; t15 t11; t18 t12; t18 f3; t18 t17; p t21 t18
p t31 t21; p t41 t31; t15 t18; p t21 t15; p t31 t21; p t41 t31; t23 t15; p t32 t23; p t41 t32
t15 f6; t23 t13; p t32 t23; p t41 t32; t23 t13; p t35 t23; p t41 t35; t23 t13; p t31 t23
p t41 t31; t11 t18; t11 t13; t11 f3; t11 t14; p t21 t11; p t31 t21; p t41 t31; t21 t16
p t31 t21; p t41 t31; t16 f2; t21 t16; p t33 t21; p t41 t33; t21 t16; p t31 t21; p t41 t31
t16 f1; t15 f1; p t21 t15; p t31 t21; p t41 t31; t16 f6; t16 f1; p t21 t16; p t36 t21; p t41 t36
t21 t18; p t31 t21; p t41 t31; t18 f1; t16 f1; p t21 t16; p t31 t21; p t41 t31; t13 f1; t17 f1
t14 f1; t17 f3; p t21 t17; p t31 t21; p t41 t31; t14 f3; t15 t16; p t21 t15; p t31 t21
p t41 t31; t15 t11; p t21 t15; p t31 t21; p t41 t31; t17 t11; p t21 t17; p t31 t21; p t41 t31
t17 f1; p t21 t17; p t31 t21; p t41 t31; t16 t14; t16 f1; p t21 t16; p t32 t21; p t41 t32
t21 t13; p t31 t21; p t41 t31; t15 t13; p t21 t15; p t31 t21; p t41 t31; t17 t15; p t21 t17
p t31 t21; p t41 t31; t17 f5; p t21 t17; p t31 t21; p t41 t31; t21 t11; p t32 t21; p t41 t32
t21 t13; p t31 t21; p t41 t31; t22 t13; p t31 t22; p t41 t31; t13 f2; t24 t13; p t31 t24
p t41 t31; t13 f6; t27 t13; p t31 t27; p t41 t31; t24 t13; p t31 t24; p t41 t31; t24 t14
p t31 t24; p t41 t31; t16 t14; p t21 t16; p t31 t21; p t41 t31; t24 t16; p t31 t24; p t41 t31
t16 f8; t13 f8; t24 t18; p t31 t24; p t42 t31; t24 t12; p t31 t24; p t43 t31; t25 t12; p t31 t25
p t44 t31; t12 f4; t18 f4; t17 f4; p t21 t17; p t31 t21; p t45 t31; t21 t18; p t31 t21
p t46 t31; t22 t17; p t31 t22; p t47 t31; t21 t17; p t31 t21; p t48 t31; t21 t15; p t31 t21
t15 f2; t21 t11; p t32 t21; t26 t12; p t33 t26; t12 f8; t26 t13; p t34 t26; t13 f5; t27 t15
p t35 t27; t15 f6; t11 t17; t12 t15; t12 t17; t12 t11; t13 t18; t13 f8; t13 f2; t13 f4; t12 f4
t17 f8; t17 f2; t14 f2; t12 f2; p t21 t12; p t36 t21; t14 f4; t12 f4; p t21 t12; p t37 t21
t12 f8; p t21 t12; p t38 t21; t17 f8; t12 f8; p t21 t12; t12 f5; p t22 t12; t12 f7; p t23 t12
t12 f3; p t24 t12; t16 f7; p t25 t16; t18 f7; t15 f7; t16 f7; p t26 t16; t11 f7; t13 f7; t18 f5
t15 f5; t18 f6; t15 f6; p t27 t15; t15 f2; p t28 t15; t16 f2; t18 f5; t11 f5; t11 f7; t11 f8
t13 f5; t14 f7; t12 f7; t14 f4; t18 f6; t17 f6; t13 f6; t11 f6; t13 f8; t17 f5; t15 f5"""


def test_deal_5_played_to_a_win():
    wins(GC, 5, WIN_5)


test_random_positions_round_trip_through_a_deck = round_trip_test(GC, examples=8)
test_corrupted_decks_are_refused_naming_the_card = corruption_test(GC)
