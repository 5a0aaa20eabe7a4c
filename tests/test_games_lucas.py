"""Lucas (seed 004; reference row 23): two packs, the eight aces out, 13 piles of 3, down in suit."""

import pytest

from decks import compact, punch, solver
from decks import engine as e
from decks.deals import deal_order
from decks.engine import IllegalMove, make_state
from emulator.formats import read_deck
from tests.twopack import corruption_test, pack_counts, round_trip_test, wins


def test_layout_eight_aces_out_thirteen_piles_of_three_face_up_rest_in_hand():
    s = e.deal("lucas", 8)
    assert [c.name for f in s.names("foundation") for c in s.piles[f].cards] == \
        ["AC", "AD", "AH", "AS"] * 2
    assert [len(s.piles[f"t{i}"]) for i in range(1, 14)] == [3] * 13
    assert all(s.piles[f"t{i}"].hidden == 0 for i in range(1, 14))
    assert len(s.piles["s"]) == 104 - 8 - 39 and not s.piles["w"].cards
    order = [c for c in deal_order("double", 8) if c.rank != 1]
    assert [s.piles[f"t{i}"].cards[0] for i in range(1, 14)] == order[:13]
    pack_counts(s)


def test_build_down_in_suit_one_card_and_either_copy_will_do():
    s = make_state("lucas", {"t1": "9H", "t2": "8H", "t3": "8H", "t4": "8S", "t5": "7H 6H"})
    e.apply(s, "t2 t1")
    e.apply(s, "t3 t1")                                  # the other eight of hearts goes as well
    with pytest.raises(IllegalMove, match="builds down in suit"):
        e.apply(s, "t4 t1")
    with pytest.raises(IllegalMove, match="one card moves at a time"):
        e.apply(s, "t5 t2 2")


def test_any_available_card_fills_a_space_from_tableau_waste_or_hand_card():
    s = make_state("lucas", {"t1": "5C", "t2": "QD", "w": "JS", "h": "7H", "s": "-2C"})
    e.apply(s, "t2 t3")
    e.apply(s, "w t3")
    e.apply(s, "h t3")


def test_two_foundations_of_a_suit_both_build_to_the_king():
    s = make_state("lucas", {"f1": "AC", "f5": "AC 2C", "t1": "2C", "t2": "3C"})
    s = e.apply(s, "t1 f")
    assert s.piles["f1"].top.name == "2C"
    with pytest.raises(IllegalMove, match="build up by one rank"):
        e.apply(make_state("lucas", {"f1": "AC", "t1": "3C"}), "t1 f1")


def test_hand_turns_one_card_into_the_hand_card_and_one_redeal():
    s = e.deal("lucas", 8)
    hand = s.piles["s"].cards[:]
    s = e.apply(s, "s")
    assert s.piles["h"].cards == hand[-1:] and not s.piles["w"].cards
    s = e.apply(s, "s")
    assert s.piles["w"].cards == hand[-1:] and s.piles["h"].cards == hand[-2:-1]
    with pytest.raises(IllegalMove, match="redeal only when the hand is used up"):
        e.apply(s, "r")
    for _ in range(len(s.piles["s"])):
        s = e.apply(s, "s")
    with pytest.raises(IllegalMove, match="the hand is empty: redeal with 'r'"):
        e.apply(s, "s")
    s = e.apply(s, "r")                     # the waste and the hand card, in the order turned
    assert s.piles["s"].cards == hand and s.redeals == 1 and not s.piles["w"].cards + s.piles["h"].cards
    for _ in range(len(s.piles["s"])):
        s = e.apply(s, "s")
    with pytest.raises(IllegalMove, match="only 1 redeal"):
        e.apply(s, "r")


def test_redeal_gathers_the_hand_card_too_when_the_waste_is_empty():
    s = make_state("lucas", {"h": "9D", "t1": "TD"})
    s = e.apply(s, "r")
    assert [c.name for c in s.piles["s"].cards] == ["9D"] and not s.piles["h"].cards
    assert e.apply(s, "s").piles["h"].top.name == "9D"


def test_solver_plays_the_hand_card_and_the_waste_top():
    """Two kings of clubs to go home: one on the waste, one still in the hand."""
    run = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"
    s = make_state("lucas", {"f1": run, "f5": run, "w": "KC", "s": "-KC"})
    result = solver.solve(s, 1000)
    assert result.status == solver.WON
    assert [str(m).split()[0] for m in result.moves] == ["w", "s", "h"]
    for move in result.moves:
        s = e.apply(s, move)
    assert e.is_won(s)


def test_option_hand_card_off_redeals_the_waste_alone():
    s = e.deal("lucas", 8, {"hand_card": False})
    hand = s.piles["s"].cards[:]
    assert "h" not in s.piles
    for _ in range(len(hand)):
        s = e.apply(s, "s")
    assert s.piles["w"].cards == hand[::-1]
    assert e.apply(s, "r").piles["s"].cards == hand


def test_play_takes_h_t2_as_a_move_and_h_alone_as_help(tmp_path, capsys):
    from ibm1013.cli.main import main

    script = tmp_path / "moves.txt"
    script.write_text("s\nh\nh f3\n")                  # deal 2: the first card turned is a two
    saved = tmp_path / "game.cbn"
    assert main(["play", "lucas", "--deal", "2", "--moves", str(script), "--save", str(saved),
                 "--option", "hand_card=true"]) == 0
    out = capsys.readouterr().out
    assert "h t2   the hand card" in out and "hand card   h --" in out
    with open(saved, "rb") as stream:
        state = punch.decode(read_deck(stream, "auto"))
    assert [str(m) for m in state.history] == ["s", "h f3"] and len(state.piles["f3"]) == 2


@pytest.mark.parametrize("options", [{}, {"hand_card": False}])
def test_positions_with_and_without_the_hand_card_round_trip_both_deck_forms(options):
    s = e.deal("lucas", 7, options)
    for _ in range(5):
        s = e.apply(s, "s")
    assert ("h" in s.piles) == (options == {}) and len(s.piles["w"]) == 5 - ("h" in s.piles)
    for codec in (punch, compact):
        assert codec.decode(codec.encode(s)).to_dict() == s.to_dict()


def test_a_hand_card_pile_in_a_deck_without_the_option_is_refused():
    records = punch.state_records(e.apply(e.deal("lucas", 7), "s"))
    option = next(r for r in records if r.keyword == "OPTION")
    option.tokens[option.tokens.index("HAND.CARD") + 1] = "NO"
    with pytest.raises(punch.DeckStateError, match="lucas has no pile 'h'"):
        punch.decode(punch.punch_records(records, punch.deck_label("lucas")))


# Found offline with decks.solver.solve(e.deal('lucas', 5), 50000): 237 moves and the redeal, the
# hand card played 22 times and the waste's top 34 times.
WIN_5 = """t1 f1; t1 t10; t1 f4; t4 f4; t2 t1; t2 t10; t11 t6; t2 f4; t3 t2; s; h f4; s; h f3; s; s; s; s
s; s; s; s; s; s; s; s; s; s; h f7; t3 f3; t3 f8; t11 f7; s; s; s; s; s; s; s; s; s; s; h t3
t3 f8; w f2; s; h f6; t1 f2; t11 f6; t4 t1; t5 t3; t5 t11; t4 f1; t7 t4; t2 f1; t7 t2; s; s
h f3; s; s; s; s; s; s; s; s; s; s; s; s; s; s; s; h f2; w f2; s; s; s; s; s; s; s; h f4; s
h f2; s; s; h f8; s; s; s; r; s; s; s; s; s; h f1; s; s; s; s; s; s; s; s; s; h f2; s; s; s; s
h f4; t10 f4; t10 f4; t10 f4; t10 f3; t4 f3; t8 t4; s; s; s; s; s; s; h f8; t8 f8; s; h f8; s; s
s; s; s; s; s; h f1; t1 f1; t9 t1; t9 f4; t5 f4; t12 t5; t12 t8; t12 f5; t13 t12; w f1; s; s
h f4; s; s; s; s; s; s; h f3; t1 t9; t13 t1; t13 f7; t1 f7; s; h f7; w t3; w f3; t4 f3; w t1
w t10; t11 t10; w t4; w t11; w t4; w t4; t1 t4; w t1; w f1; w t13; w t1; w f5; t8 f5; t8 f5
t3 f5; t3 f5; w t12; w f6; t11 f6; s; h f5; t5 t12; t7 t1; w t3; w f3; w t9; w f7; t9 f7; t9 f7
t9 f7; t12 f3; w f7; t12 f3; t12 f3; w t10; w f2; w t5; w f8; w f5; s; h f8; t6 f8; t6 f8; t6 f1
w f1; w f6; t13 f6; w f7; t5 f7; w f8; w f6; t2 f2; t4 f6; t4 f2; t10 f6; t4 f2; t10 f6; t4 f2
t10 f6; t6 f2; t10 f6; w f5; t1 f5; t1 f1; s; s; h t2; t2 f8; w f5; t1 f1; t3 f5"""


def test_deal_5_played_to_a_win():
    wins("lucas", 5, WIN_5)


test_random_positions_round_trip_through_a_deck = round_trip_test("lucas")
test_corrupted_decks_are_refused_naming_the_card = corruption_test("lucas")
