"""The full-screen board, driven headless by Textual's pilot with keys and clicks; every state it
reaches is checked against the engine's."""

from __future__ import annotations

import asyncio
import json

import pytest

from decks import engine
from decks.session import Session, find_solution, worth_trying
from decks.stats import Stats
from ibm1013.cli.main import main
from ibm1013.tui.layout import layout
from ibm1013.tui.play import PlayApp

SIZE = (100, 40)


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


async def click(pilot, app, pile: str, index: int | None = None) -> None:
    """Click a pile's card ``index`` (default: its top card, or its empty slot)."""
    drawn = app.board.drawn
    cell = drawn.anchor(pile) if index is None else next(
        c for c in drawn.cells if c.pile == pile and c.index == index and c.kind == "card")
    await pilot.click("#board", offset=(cell.x + 1, cell.y))
    await pilot.pause()


def keys(text: str) -> list[str]:
    """The keys that type ``text``."""
    return ["space" if ch == " " else ch for ch in text]


def first_transfer(state):
    return next(m for m in engine.legal_moves(state) if m.kind == "move")


def test_a_move_typed_in_the_move_syntax():
    session = Session(engine.deal("klondike", 1))
    move = first_transfer(session.state)
    expected = engine.apply(session.state, move)

    async def go():
        async with PlayApp(session).run_test(size=SIZE) as pilot:
            await pilot.press(*keys(str(move)), "enter")
            await pilot.pause()
    run(go())
    assert session.state.to_dict() == expected.to_dict()


def test_click_a_card_lights_its_targets_then_click_the_target():
    session = Session(engine.deal("klondike", 1))
    move = first_transfer(session.state)
    expected = engine.apply(session.state, move)
    seen = {}

    async def go():
        app = PlayApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await click(pilot, app, move.src)
            seen["targets"] = set(app.board.targets)
            await click(pilot, app, move.dst)
    run(go())
    legal = {m.dst for m in engine.legal_moves(engine.deal("klondike", 1))
             if m.kind == "move" and m.src == move.src}
    assert seen["targets"] == legal and move.dst in legal
    assert session.state.to_dict() == expected.to_dict()


def test_tab_and_enter_pick_up_and_put_down():
    session = Session(engine.deal("klondike", 1))
    move = first_transfer(session.state)
    expected = engine.apply(session.state, move)
    order = layout(session.state, SIZE[0], SIZE[1]).piles

    async def go():
        app = PlayApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press(*["tab"] * order.index(move.src), "enter")
            assert app.board.picked == (move.src, len(session.state.piles[move.src].cards) - 1)
            steps = (order.index(move.dst) - order.index(move.src)) % len(order)
            await pilot.press(*["tab"] * steps, "enter")
            await pilot.pause()
    run(go())
    assert session.state.to_dict() == expected.to_dict()


def test_arrow_keys_move_the_cursor_along_a_row_and_between_rows():
    session = Session(engine.deal("klondike", 1))

    async def go():
        app = PlayApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            seen = [app.board.cursor]
            for key in ("right", "down", "right", "right", "up", "left"):
                await pilot.press(key)
                seen.append(app.board.cursor)
            return seen
    assert run(go()) == ["s", "w", "t2", "t3", "t4", "f2", "f1"]


def test_a_refused_move_names_the_rule():
    session = Session(engine.deal("klondike", 1))
    with pytest.raises(engine.IllegalMove) as refusal:
        engine.apply(session.state, "t1 f")

    async def go():
        app = PlayApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await click(pilot, app, "t1")
            await click(pilot, app, "f1")
            return app.message
    message = run(go())
    assert refusal.value.rule in message and message.startswith("refused:")
    assert session.state.history == []


def test_undo_redo_autoplay_new_deal_restart_keys(tmp_path, monkeypatch):
    monkeypatch.setenv("IBM1013_DATA_DIR", str(tmp_path))
    session = Session(engine.deal("klondike", 1))
    move = first_transfer(session.state)
    states = {}

    async def go():
        app = PlayApp(session, stats=Stats.load())
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await click(pilot, app, move.src)
            await click(pilot, app, move.dst)
            await pilot.press("u")
            states["undo"] = session.state
            await pilot.press("y")
            states["redo"] = session.state
            await pilot.press("a")
            states["autoplay"] = session.state
            await pilot.press("o")
            states["restart"] = session.state
            await pilot.press("n")
            states["new"] = session.state
    run(go())
    dealt = engine.deal("klondike", 1)
    assert states["undo"].piles == dealt.piles
    assert states["redo"].to_dict() == engine.apply(dealt, move).to_dict()
    assert all(engine.role_of(m.dst) == "foundation" for m in states["autoplay"].history[1:])
    assert not [m for m in engine.legal_moves(states["autoplay"]) if engine.role_of(m.dst) == "foundation"]
    assert states["restart"].to_dict() == dealt.to_dict()
    assert states["new"].to_dict() == engine.deal("klondike", 2).to_dict()
    record = Stats.load().records["klondike " + " ".join(
        f"{k}={v}" for k, v in sorted(dealt.options.items()))]
    assert (record.played, record.won, record.streak) == (1, 0, 0)  # the game left by the restart


def test_a_won_game_is_counted_and_shown_by_ibm1013_stats(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("IBM1013_DATA_DIR", str(tmp_path))
    result = find_solution(engine.deal("auld-lang-syne", 765), 1000)
    assert result.won
    *before, last = result.moves
    session = Session(engine.replay("auld-lang-syne", 765, {}, before))

    async def go():
        app = PlayApp(session, stats=Stats.load())
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press(":", *keys(str(last)), "enter")
            await pilot.pause()
            await pilot.press("g")
            await pilot.pause()
            page = str(app.screen.query_one("#page").render())
            return app.message, page
    message, page = run(go())
    assert engine.is_won(session.state) and message == f"WON in {len(result.moves)} moves"
    assert "auld-lang-syne" in page and "won 1" in page
    assert main(["stats", "auld-lang-syne", "--json"]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    (record,) = games.values()
    assert (record["played"], record["won"], record["streak"], record["best_moves"]) == (
        1, 1, 1, len(result.moves))


def test_the_rules_key_shows_the_rule_text():
    session = Session(engine.deal("klondike", 1))

    async def go():
        app = PlayApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("l")
            await pilot.pause()
            page = str(app.screen.query_one("#page").render())
            await pilot.press("escape")
            return page, app.screen is app.screen_stack[0]
    page, back = run(go())
    from decks.board import game_rules
    assert game_rules("klondike").splitlines()[2][:40] in page and back


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_the_largest_two_pack_layout_fits_and_follows_the_size(size):
    session = Session(engine.deal("parallels", 1))

    async def go():
        app = PlayApp(session)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            return app.board.drawn, app.board.size.width
    drawn, width = run(go())
    labels = {c.pile for c in drawn.cells if c.kind == "label"}
    assert labels == set(session.state.piles)
    assert max(c.x + c.width for c in drawn.cells) <= width
    # every face-up card of the deal is drawn once
    faces = sorted(c.name for p in session.state.piles.values() for c in p.face_up)
    shown = sorted(session.state.piles[c.pile].cards[c.index].name for c in drawn.cells if c.kind == "card")
    tops = sorted(p.cards[-1].name for n, p in session.state.piles.items()
                  if p.cards and engine.role_of(n) != "tableau" and p.hidden < len(p.cards))
    tableau = sorted(c.name for n, p in session.state.piles.items() if engine.role_of(n) == "tableau"
                     for c in p.face_up)
    assert shown == sorted(tops + tableau) and set(shown) <= set(faces)


def test_the_board_follows_a_resized_terminal():
    session = Session(engine.deal("parallels", 1))

    async def go():
        app = PlayApp(session)
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause()
            wide = app.board.drawn
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await pilot.pause()
            return wide, app.board.drawn, app.board.size.width
    wide, narrow, width = run(go())
    assert max(c.x + c.width for c in wide.cells) > 80  # the wide board used the room it had
    assert max(c.x + c.width for c in narrow.cells) <= width <= 80 and narrow.height > wide.height


def test_the_hint_key_lights_a_legal_move():
    session = Session(engine.deal("klondike", 1))

    async def go():
        app = PlayApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("i")
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 50
            while app.message.startswith("hint: searching"):
                assert loop.time() < deadline
                await pilot.pause(0.05)
            await pilot.pause()
            return app.message, app.board.hinted
    message, hinted = run(go())
    assert message.startswith("hint:") and session.state.history == []
    assert any(set(m.piles) == hinted for m in engine.legal_moves(session.state)), (message, hinted)


def test_keys_typed_on_the_command_line_are_not_the_footer_keys():
    session = Session(engine.deal("klondike", 1))
    move = first_transfer(session.state)

    async def go():
        app = PlayApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press(*keys(str(move)), "enter")
            await pilot.press(":", *keys("undo"), "tab", "enter")  # u, n, o and Tab are keys of the board
            await pilot.pause()
            return app.message, app.typed
    message, typed = run(go())
    assert typed is None and session.state.deal_number == 1
    assert session.state.history == [] and session.state.future == [move], message


def status_lines(app) -> list[str]:
    """The status lines above the board, as the screen shows them."""
    from textual.geometry import Region
    from textual.widgets import Static

    status = app.query_one("#status", Static)
    return [strip.text.strip() for strip in status.render_lines(Region(0, 0, *status.outer_size))]


def test_the_status_shows_the_legal_moves_and_the_syntax_as_syntax():
    """Issue 47 item 2: on klondike deal 617 the line under the title read ``moves:  t3 f  the top
    card of t3 to a foundation`` — a suggestion the game refuses.  It shows the legal moves as the
    prompt's ``moves`` does, and the notation as an example of how to write a move."""
    session = Session(engine.deal("klondike", 617))

    async def go():
        app = PlayApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            first = status_lines(app)
            for key in keys("t2 f1"):
                await pilot.press(key)
            await pilot.press("enter")
            await pilot.pause()
            return first, status_lines(app)
    first, after = run(go())
    assert "legal: t2 f1, s" in first and not any(line.startswith("moves:") for line in first), first
    assert any("e.g. t3 f" in line for line in first), first
    legal_after = worth_trying(session.state, ["moves"])[1]
    assert legal_after in after and any("played t2 f1" in line for line in after), after


def test_a_refusal_longer_than_the_screen_is_wrapped_not_cut():
    session = Session(engine.deal("klondike", 617))
    with pytest.raises(engine.IllegalMove) as refusal:
        engine.apply(session.state, "t3 f")

    async def go():
        app = PlayApp(session)
        async with app.run_test(size=(50, 30)) as pilot:
            await pilot.pause()
            for key in keys("t3 f"):
                await pilot.press(key)
            await pilot.press("enter")
            await pilot.pause()
            return status_lines(app)
    lines = run(go())
    shown = " ".join(" ".join(lines).split())
    assert f"refused: {refusal.value}" in shown, lines
