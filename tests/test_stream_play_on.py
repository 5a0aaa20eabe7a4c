"""Streaming never takes the game hostage: ``play --stream`` with no watcher plays on, a watcher that
comes late catches up, a player that gives up saves the game, and a restarted player
(``play --load DECK --stream``) carries on the stream a watcher holds part of.  Every step waits on
what the ends said (a line they printed), never on the clock."""

from __future__ import annotations

import json
import signal

import pytest

from decks import compact, engine
from decks.session import load_deck
from decks.stream import Diverged, GameFeed, Watcher
from ibm1013.line.journal import Journal
from tests.processes import finish, one_line_error, start
from tests.test_cli_serial import VirtualLineProcess

pytestmark = pytest.mark.timeout(120)


def script(tmp_path, text: str, name: str = "moves.txt") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def game_of(report_line: str) -> engine.GameState:
    return engine.GameState.from_dict(json.loads(report_line)["game"])


def test_with_no_watcher_play_goes_on_and_a_watcher_that_comes_later_catches_up(tmp_path):
    moves = script(tmp_path, "s\ns\nundo\ns\ns\n")
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        player = start("play", "klondike", "--deal", "617", "--stream", line.a, "--moves", moves,
                       "--think", "0", "--fast", "--timeout", "30", "--keepalive", "1", cwd=str(tmp_path))
        notice = player.stdout.readline()  # the first handshake found no watcher: play went on
        watcher = start("watch", line.b, "--json", "--fast", "--timeout", "30", cwd=str(tmp_path))
        pc, pout, perr = finish(player, 90)
        wc, wout, werr = finish(watcher, 90)
    finally:
        line.stop()
    assert "no watcher on" in notice
    assert pc == 0 and wc == 0, perr + werr
    shown = wout.splitlines()
    assert [json.loads(x)["what"] for x in shown[:-1]] == ["deal", "s", "s", "undo", "s", "s", "end"]
    want = engine.replay("klondike", 617, {}, ["s", "s", "s"])
    assert game_of(shown[-1]).to_dict()["piles"] == want.to_dict()["piles"]
    assert not list(tmp_path.glob("klondike-617*"))  # delivered: nothing to keep


def test_a_player_who_gives_up_on_the_watcher_keeps_the_game_and_is_told_how_to_go_on(tmp_path):
    moves = script(tmp_path, "s\ns\n")
    (tmp_path / "klondike-617.cbn").write_bytes(b"someone else's deck")
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        player = start("play", "klondike", "--deal", "617", "--stream", line.a, "--moves", moves,
                       "--think", "0", "--fast", "--timeout", "1", "--keepalive", "0.5", cwd=str(tmp_path))
        code, out, err = finish(player, 60)
    finally:
        line.stop()
    said = one_line_error(code, err, "no watcher answered", "the game is saved in klondike-617-2.cbn",
                          f"ibm1013 play klondike --load klondike-617-2.cbn --stream {line.a}")
    assert "waiting up to 1 s more" in out
    assert (tmp_path / "klondike-617.cbn").read_bytes() == b"someone else's deck"  # never overwritten
    assert [str(m) for m in load_deck(str(tmp_path / "klondike-617-2.cbn")).history] == ["s", "s"], said


def test_a_restarted_player_carries_on_the_stream_the_watcher_holds_part_of(tmp_path):
    saved = tmp_path / "left.cbn"
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        # 1. three moves reach the watcher; it is killed while the player thinks about the fourth;
        #    the player plays on, gives up on the watcher and saves the game
        first = start("watch", line.b, "--json", "--fast", "--timeout", "30", cwd=str(tmp_path))
        player = start("play", "klondike", "--deal", "617", "--stream", line.a, "--moves",
                       script(tmp_path, "s\ns\ns\n+1 s\n"), "--think", "0", "--save", str(saved),
                       "--fast", "--timeout", "2", "--keepalive", "0.5", cwd=str(tmp_path))
        held = [json.loads(first.stdout.readline())["what"] for _ in range(4)]
        first.send_signal(signal.SIGKILL)
        finish(first, 10)
        code, _, err = finish(player, 60)
        one_line_error(code, err, "watcher did not come back", f"--load {saved}")
        assert len(load_deck(str(saved)).history) == 4
        # 2. the watcher's advice (watch --resume) and the player's (play --load … --stream)
        again = start("watch", line.b, "--json", "--fast", "--timeout", "30", "--resume",
                      cwd=str(tmp_path))
        player = start("play", "klondike", "--load", str(saved), "--stream", line.a, "--moves",
                       script(tmp_path, "s\nundo\ns\n", "more.txt"), "--think", "0", "--fast",
                       "--timeout", "30", "--keepalive", "1", cwd=str(tmp_path))
        pc, pout, perr = finish(player, 60)
        wc, wout, werr = finish(again, 60)
    finally:
        line.stop()
    assert held == ["deal", "s", "s", "s"]
    assert pc == 0 and wc == 0, perr + werr
    shown = wout.splitlines()
    assert [json.loads(x)["what"] for x in shown[:-1]] == ["restart", "s", "undo", "s", "end"]
    assert [str(m) for m in game_of(shown[-1]).history] == ["s"] * 5
    assert not (tmp_path / "watch.deck.1013part").exists()


def stream(state: engine.GameState, *moves: str) -> tuple[GameFeed, list]:
    feed = GameFeed(state)
    cards = list(feed.cards)
    for move in moves:
        cards += feed.change(feed.state, engine.apply(feed.state, move), move)
    return feed, cards


def test_the_watcher_takes_a_restarted_players_deck_of_the_same_game_only():
    old_feed, old = stream(engine.deal("klondike", 617), "s", "s")
    watcher = Watcher()
    for n, card in enumerate(old, 1):
        watcher.take(n, card)
    later = engine.replay("klondike", 617, {}, ["s", "s", "s"])
    _, new = stream(later, "s")
    watcher.take(len(old) + 1, new[0])
    assert watcher.restarted and watcher.events == 0 and watcher.state.to_dict() == later.to_dict()
    watcher.take(len(old) + 2, new[1])
    assert not watcher.restarted and watcher.events == 1 and len(watcher.state.history) == 4
    other = Watcher()
    for n, card in enumerate(old, 1):
        other.take(n, card)
    _, spider = stream(engine.deal("klondike", 618))
    with pytest.raises(Diverged, match="another game .klondike deal 618.*klondike deal 617"):
        other.take(len(old) + 1, spider[0])


def test_a_journal_starts_over_durably(tmp_path):
    _, cards = stream(engine.deal("klondike", 617), "s", "s")
    journal = Journal.open(str(tmp_path / "seen.cbn"), resume=False)
    for card in cards:
        journal.append(card)
    journal.start_over(cards[:1])
    journal.close()
    again = Journal.open(str(tmp_path / "seen.cbn"), resume=True)
    assert again.count == 1 and list(again.cards()) == cards[:1]
    assert compact.decode(list(again.cards())).to_dict() == engine.deal("klondike", 617).to_dict()
    again.close()


def test_a_timer_cancelled_by_another_due_at_the_same_moment_does_not_run():
    """The live feed sending a card cancels the keepalive bid due with it (it used to end the player
    with a KeyError traceback)."""
    import os

    from emulator.serial import Link
    from ibm1013.line.endpoint import EndpointConfig, Station
    from ibm1013.str import SessionConfig
    from ibm1013.str.events import CancelTimer, SessionEnded, StartTimer

    class Machine:
        state, synchronized, config = "wait", True, SessionConfig()

        def __init__(self) -> None:
            self.ran: list[str] = []

        def start(self) -> list:
            return [StartTimer("feed", 0.0), StartTimer("keepalive", 0.0)]

        def timer_expired(self, name: str) -> list:
            self.ran.append(name)
            if name == "feed":
                return [CancelTimer("keepalive"), StartTimer("end", 0.0)]
            return [SessionEnded("complete", "done")]

        def receive_data(self, data: bytes) -> list:
            return []

    controller, device = os.openpty()
    link = Link.open(os.ttyname(device))
    try:
        machine = Machine()
        ended, _ = Station(link, EndpointConfig(SessionConfig(), paced=False, timeout_s=5)).run(
            machine, lambda event, now: None)
    finally:
        link.close()
        os.close(controller)
        os.close(device)
    assert ended.outcome == "complete" and machine.ran == ["feed", "end"]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_player_stopped_with_no_watcher_keeps_the_game_in_one_line(tmp_path, sig):

    line = VirtualLineProcess("--bit-rate", "0")
    try:
        player = start("play", "klondike", "--deal", "617", "--stream", line.a, "--moves",
                       script(tmp_path, "s\ns\n+600 s\n"), "--think", "0", "--fast", "--timeout", "30",
                       "--keepalive", "1", cwd=str(tmp_path))
        assert "no watcher on" in player.stdout.readline()
        player.send_signal(sig)
        code, _, err = finish(player, 60)
    finally:
        line.stop()
    assert code == 130 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("ibm1013: interrupted; the game is saved in klondike-617.cbn"), err
    assert [str(m) for m in load_deck(str(tmp_path / "klondike-617.cbn")).history] == ["s", "s"]
