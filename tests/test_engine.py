"""The rules engine: notation, state, options, registry, undo/redo, errors."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks import engine as e
from decks.engine import IllegalMove, Move, Pile, parse_move
from decks.packs import cards, pack
from emulator.errors import IbmError


@pytest.mark.parametrize("text, kind, piles, count", [
    ("t3 f", "move", ("t3", "f"), 1),
    ("t1 t4 3", "move", ("t1", "t4"), 3),
    ("w t2", "move", ("w", "t2"), 1),
    ("s", "stock", (), 1),
    ("r", "redeal", (), 1),
    ("x t3 t5", "remove", ("t3", "t5"), 1),
    ("x t2", "remove", ("t2",), 1),
    ("p c4 2", "pick", ("c4",), 2),
])
def test_notation_round_trip(text, kind, piles, count):
    m = parse_move(text)
    assert (m.kind, m.piles, m.count) == (kind, piles, count)
    assert str(m) == text and parse_move(str(m)) == m


@pytest.mark.parametrize("bad", ["", "t1", "t1 t2 t3", "t1 t2 0", "t1 -t2", "s s s"])
def test_bad_notation(bad):
    with pytest.raises(IbmError):
        parse_move(bad)


def test_parse_moves_with_comments():
    assert e.parse_moves("s  # turn\nt1 t2; w f\n") == [Move("stock"), Move("move", ("t1", "t2")),
                                                         Move("move", ("w", "f"))]


def test_pile_faces_round_trip():
    p = Pile(cards("AC 2D 3H"), 2)
    assert [up for _, up in p.faces()] == [False, False, True]
    assert Pile.from_faces(p.faces()) == p
    with pytest.raises(IbmError):
        Pile.from_faces([(cards("AC")[0], True), (cards("2C")[0], False)])


def test_registry_and_options():
    assert "klondike" in e.game_names()
    with pytest.raises(IbmError, match="unknown game"):
        e.get_game("freecell")
    with pytest.raises(IbmError, match="no option"):
        e.deal("klondike", 1, {"bogus": 1})
    with pytest.raises(IbmError, match="expected"):
        e.deal("klondike", 1, {"partial_moves": "maybe"})
    s = e.deal("klondike", 1, {"redeals": "unlimited", "partial_moves": "yes"})
    assert s.options["redeals"] == "unlimited" and s.options["partial_moves"] is True


def test_apply_returns_new_state_and_illegal_names_rule():
    s = e.deal("klondike", 1)
    before = s.to_dict()
    s2 = e.apply(s, "t5 f")
    assert s.to_dict() == before and s2.history == [Move("move", ("t5", "f1"))]
    with pytest.raises(IllegalMove, match="foundation starts with"):
        e.apply(s, "t1 f")
    with pytest.raises(IllegalMove, match="no pile"):
        e.apply(s, "t9 t1")


def test_undo_redo_and_replay_are_exact():
    s = e.deal("klondike", 3, {"draw": 3, "redeals": "unlimited"})
    for _ in range(6):
        s = e.apply(s, e.legal_moves(s)[-1])
    u = e.undo(e.undo(s))
    assert len(u.history) == 4 and len(u.future) == 2
    r = e.redo(e.redo(u))
    assert r.to_dict() == s.to_dict()
    with pytest.raises(IbmError, match="nothing to redo"):
        e.redo(r)


def test_state_dict_round_trip():
    s = e.apply(e.deal("klondike", 5), "s")
    assert e.GameState.from_dict(s.to_dict()) == s


# ---- properties over random play in every game of this module's families ----

MY_GAMES = ["klondike", "klondike-flip3", "klondike-online", "spiderette", "will-o-the-wisp", "king-albert",
            "la-belle-lucie", "little-spider", "agnes"]


def random_game(game, number, picks):
    s = e.deal(game, number)
    for p in picks:
        moves = e.legal_moves(s)
        if not moves:
            break
        s = e.apply(s, moves[p % len(moves)])
    return s


def all_transfers(s):
    names = list(s.piles)
    return [Move("move", (a, b), n) for a in names for b in names if a != b for n in (1, 2, 3)]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(MY_GAMES), st.integers(1, 2**40), st.lists(st.integers(0, 99), max_size=60))
def test_random_play_keeps_the_pack_and_replays_exactly(game, number, picks):
    s = random_game(game, number, picks)
    held = Counter(c.name for p in s.piles.values() for c in p.cards)
    assert held == Counter(c.name for c in pack("standard"))
    assert e.GameState.from_dict(s.to_dict()) == s
    assert e.replay(game, number, s.options, s.history).to_dict() == s.to_dict()
    if s.history:
        assert e.redo(e.undo(s)).to_dict() == s.to_dict()


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(MY_GAMES), st.integers(1, 10_000), st.lists(st.integers(0, 99), max_size=40))
def test_legal_moves_agree_with_the_move_checker(game, number, picks):
    s = random_game(game, number, picks)
    listed = set(e.legal_moves(s))
    for m in listed:
        assert e.check_move(s, m) == m
    for m in all_transfers(s):
        try:
            resolved = e.check_move(s, m)
        except IllegalMove as err:
            assert m not in listed and err.rule
            continue
        # the lister offers only the first of several empty foundations
        assert resolved in listed or (m.dst[0] == "f" and not s.piles[m.dst].cards)


def test_undo_refuses_a_position_that_its_history_does_not_explain():
    s = e.make_state("klondike", {"t1": "-9D 8S", "t2": "9H"})
    s = e.apply(s, "t1 t2")
    with pytest.raises(IbmError, match="cannot be undone"):
        e.undo(s)


@pytest.mark.parametrize("damage", [lambda d: d.pop("piles"), lambda d: d.update(deal="x"),
                                    lambda d: d["piles"].update(t1=["ZZ"]), lambda d: d.update(game="nim")])
def test_malformed_state_dicts_give_clear_errors(damage):
    d = e.deal("klondike", 2).to_dict()
    damage(d)
    with pytest.raises(IbmError):
        e.GameState.from_dict(d)


STUCK_DEALS = [("parallels", {}, {"deal_when_stuck": False}, "only when play is at a standstill"),
               ("labyrinth", {}, {"deal_when_stuck": False}, "only when no more moves can be made"),
               ("mount-olympus", {"deal_when_stuck": True}, {}, "only when no move is left"),
               ("auld-lang-syne", {}, {"deal_any_time": True}, "only when no card can be built")]


@pytest.mark.parametrize("game, stuck, free, why", STUCK_DEALS)
def test_games_dealing_only_when_stuck_refuse_s_naming_their_rule(game, stuck, free, why):
    """The four games whose stock deals "only when no move is left" share engine.stock_deal_check:
    while a play is left 's' is refused with the game's own rule, and allowed with the option off."""
    number = next(n for n in range(1, 50)
                  if any(m.kind != "stock" for m in e.legal_moves(e.deal(game, n, stuck))))
    with pytest.raises(IllegalMove, match=why):
        e.apply(e.deal(game, number, stuck), "s")
    dealt = e.deal(game, number, free)
    assert len(e.apply(dealt, "s").piles["s"]) < len(dealt.piles["s"])
    with pytest.raises(IllegalMove, match="'s' takes no piles or count"):
        e.apply(e.deal(game, number, free), "s 2")


def test_stock_deal_check_refuses_an_empty_stock_and_allows_when_stuck():
    check = e.stock_deal_check(lambda s: s.piles["t1"].cards, "play t1 first", used_up="no stock")

    def judged(piles: dict, stuck: bool = True) -> str | None:
        return check(e.make_state("mount-olympus", piles, {"deal_when_stuck": stuck}), Move("stock"))

    assert judged({"t1": "9S"}) == "no stock"
    assert judged({"s": "-9S"}) is None
    assert judged({"t1": "9S", "s": "-9S"}) == "play t1 first"
    assert judged({"t1": "9S", "s": "-9S"}, stuck=False) is None
