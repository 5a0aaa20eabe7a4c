"""``play --stream`` and ``watch`` as real processes over ``ibm1013 line`` ptys."""

from __future__ import annotations

import json
import signal
import subprocess
import threading

import pytest

from decks import compact, engine
from decks.stream import Event, GameFeed, encode_event
from emulator.serial import LineConfig, Link, VirtualLine
from ibm1013.line.endpoint import EndpointConfig, TransferError
from ibm1013.line.stream import stream_cards
from ibm1013.str import SessionConfig
from ibm1013.str.layout import ColumnLayout
from tests.endpoints import until
from tests.processes import finish, one_line_error, read_cbn, start
from tests.test_cli_serial import VirtualLineProcess, over_a_line

pytestmark = pytest.mark.timeout(90)

MOVES = "s\n+0.2 s\nundo\nredo\ns\ns\ns\ns\ns\ns\n"
FAST = ("--fast", "--timeout", "4")
PLAYER = (*FAST, "--keepalive", "1")


def script(tmp_path, text: str = MOVES):
    path = tmp_path / "moves.txt"
    path.write_text(text)
    return str(path)


def final_state(text: str = MOVES) -> engine.GameState:
    from decks.session import timed_script
    from ibm1013.cli.stream import play_commands

    return play_commands(engine.deal("klondike", 617, {}), timed_script(text, 0.2))[-1][1]


def test_play_streams_to_watch_over_a_noisy_line(tmp_path):
    line = VirtualLineProcess("--bit-rate", "0", "--ber", "3e-4", "--seed", "5")
    try:
        watcher = start("watch", line.b, "--save", str(tmp_path / "seen.cbn"), "--compact", "--json",
                        *FAST)
        player = start("play", "klondike", "--deal", "617", "--stream", line.a, "--moves",
                       script(tmp_path), "--think", "0.2", "--stream-json", *PLAYER)
        pc, pout, perr = finish(player, 60)
        wc, wout, werr = finish(watcher, 60)
    finally:
        line.stop()
    assert pc == 0 and wc == 0, perr + werr
    shown = [json.loads(x) for x in wout.splitlines()]
    assert [e["what"] for e in shown[:-1]] == ["deal", "s", "s", "undo", "redo", "s", "s", "s", "s",
                                               "s", "s", "end"]
    report = json.loads(pout.splitlines()[-2])
    assert report["events"] == 11 and report["cards_confirmed"] == 12
    saved = compact.decode(read_cbn(tmp_path / "seen.cbn"))
    assert saved.to_dict() == final_state().to_dict() == shown[-1]["game"]


def test_a_cut_mid_game_and_watch_resume(tmp_path):
    """The line is cut once the first watcher shows two moves, and mended once it has given up
    (after its 4 s --timeout): every step waits on what the ends did, not on the wall clock."""
    moves = script(tmp_path, "\n".join(["+0.45 s"] * 22) + "\n")
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        player = start("play", "klondike", "--deal", "617", "--stream", line.paths[0], "--moves", moves,
                       "--stream-json", "--fast", "--timeout", "30", "--keepalive", "1")
        until(lambda: line.stats()["a->b"]["bytes_in"], 60, "the player to bid for the line")
        first = start("watch", line.paths[1], "--save", str(tmp_path / "seen.cbn"), "--json", "--fast",
                      "--timeout", "4")
        shown = [first.stdout.readline() for _ in range(3)]  # the game and two moves
        line.cut()
        code, out, err = finish(first, 30)
        one_line_error(code, err, "--resume")
        held = len(shown) + len(out.splitlines())
        line.mend()
        again = start("watch", line.paths[1], "--save", str(tmp_path / "seen.cbn"), "--json", "--fast",
                      "--timeout", "30", "--resume")
        wc, wout, werr = finish(again, 60)
        pc, pout, perr = finish(player, 60)
    assert wc == 0 and pc == 0, werr + perr
    events = [json.loads(x)["event"] for x in wout.splitlines()[:-1]]
    assert 1 < held < 23 and events == list(range(held, 24))  # B went on right after what it held
    assert json.loads(pout.splitlines()[-2])["sessions"] >= 2
    want = final_state("\n".join(["+0.45 s"] * 22))
    assert engine.GameState.from_dict(json.loads(wout.splitlines()[-1])["game"]).to_dict() == want.to_dict()


def test_a_watcher_that_vanishes_ends_the_player_with_one_line(tmp_path):
    moves = script(tmp_path, "s\ns\ns\n+2 s\n")  # the player plays on, then gives up and saves
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        watcher = start("watch", line.b, "--json", *FAST, cwd=str(tmp_path))
        player = start("play", "klondike", "--deal", "617", "--stream", line.a, "--moves", moves,
                       "--think", "0.1", "--fast", "--timeout", "2", "--keepalive", "1", cwd=str(tmp_path))
        shown = [watcher.stdout.readline() for _ in range(4)]  # the game and three moves
        watcher.send_signal(signal.SIGKILL)  # while the player thinks: the line is held by bids
        finish(watcher, 10)
        code, _, err = finish(player, 60)
    finally:
        line.stop()
    assert json.loads(shown[-1])["event"] == 3
    one_line_error(code, err, "watcher did not come back", "cards confirmed", "saved in klondike-617.cbn")


def test_a_player_that_vanishes_ends_the_watcher_with_one_line(tmp_path):
    moves = script(tmp_path, "\n".join(["+0.3 s"] * 20) + "\n")
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        watcher = start("watch", line.b, "--json", "--fast", "--timeout", "3", cwd=str(tmp_path))
        player = start("play", "klondike", "--deal", "617", "--stream", line.a, "--moves", moves, *PLAYER)
        first = watcher.stdout.readline()  # the game has arrived: the player is mid-game
        player.send_signal(signal.SIGKILL)
        finish(player, 10)
        code, _, err = finish(watcher, 30)
    finally:
        line.stop()
    assert json.loads(first)["what"] == "deal"
    one_line_error(code, err, "no data", "watch.deck.1013part", "--resume")
    assert (tmp_path / "watch.deck.1013part").exists()


def test_a_diverging_stream_ends_both_ends_with_one_clear_line(tmp_path):
    state = engine.deal("klondike", 617, {})
    feed = GameFeed(state)
    bad = encode_event(Event(1, "move", engine.Move("move", ("f1", "t1")), 0), state)

    class Source:
        sent = False
        finished = False

        def next_due(self):
            return None

        def play_on(self, now):  # a watcher slow to start: the player's end tries again
            pass

        def poll(self, now):
            if self.sent:
                return []
            self.sent = True
            return [bad]

    line = VirtualLineProcess("--bit-rate", "0")
    result: list = []
    try:
        # both ends stop on the divergence; their 30 s timeouts only guard against a hang, and
        # give the watcher time to start on a busy machine
        watcher = start("watch", line.b, "--quiet", "--fast", "--timeout", "30", cwd=str(tmp_path))
        link = Link.open(line.a)
        config = EndpointConfig(SessionConfig(columns=ColumnLayout.parse("auto")), paced=False,
                                timeout_s=30)

        def run() -> None:
            try:
                stream_cards(link, feed.cards, Source(), config, keepalive_s=1)
            except TransferError as err:
                result.append(str(err))

        thread = threading.Thread(target=run)
        thread.start()
        code, _, err = finish(watcher, 30)
        thread.join(30)
        link.close()
    finally:
        line.stop()
    one_line_error(code, err, "does not apply", "f1 t1")
    assert result and "refused card 2" in result[0]


def test_moves_typed_at_the_keyboard_are_streamed(tmp_path):
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        watcher = start("watch", line.b, "--json", *FAST, cwd=str(tmp_path))
        player = start("play", "spiderette", "--deal", "5", "--stream", line.a, *PLAYER,
                       stdin=subprocess.PIPE)
        player.stdin.write("s\nundo\nredo\nt9 t1\nquit\n")
        player.stdin.close()
        player.stdin = None
        pc, pout, perr = finish(player, 60)
        wc, wout, werr = finish(watcher, 60)
    finally:
        line.stop()
    assert pc == 0 and wc == 0, perr + werr
    assert "refused:" in pout  # t9 names no pile of Spiderette: refused at A, nothing sent
    assert [json.loads(x)["what"] for x in wout.splitlines()[:-1]] == ["deal", "s", "undo", "redo", "end"]


def test_sigterm_stops_watch_and_play_stream_with_one_line_each(tmp_path):
    """kill (SIGTERM) mid-game: the watcher keeps its journal and says to resume; the player keeps
    the game in a deck and says how to go on; both exit 130, neither dies silently."""
    from decks.session import load_deck

    moves = script(tmp_path, "\n".join(["+0.4 s"] * 22) + "\n")
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        player = start("play", "klondike", "--deal", "617", "--stream", line.paths[0], "--moves", moves,
                       "--fast", "--timeout", "30", "--keepalive", "1", cwd=str(tmp_path))
        watcher = start("watch", line.paths[1], "--json", "--fast", "--timeout", "30", cwd=str(tmp_path))
        shown = [watcher.stdout.readline() for _ in range(3)]  # the game and two moves
        assert all(shown), (finish(watcher, 30), finish(player, 30))
        watcher.send_signal(signal.SIGTERM)
        wc, wout, werr = finish(watcher, 30)
        player.send_signal(signal.SIGTERM)
        pc, _, perr = finish(player, 30)
    assert json.loads(shown[-1])["event"] == 2
    assert wc == 130 and werr.count("\n") == 1 and "Traceback" not in werr, werr
    assert werr.startswith("ibm1013: interrupted (") and "cards safe in watch.deck.1013part" in werr
    assert "run watch again with --resume" in werr and (tmp_path / "watch.deck.1013part").exists()
    assert pc == 130 and perr.strip().count("\n") == 0 and "Traceback" not in perr, perr
    assert perr.strip().startswith("ibm1013: interrupted; the game is saved in klondike-617.cbn: carry "
                                   "on with `ibm1013 play klondike --load klondike-617.cbn --stream")
    assert len(load_deck(str(tmp_path / "klondike-617.cbn")).history) >= 2


def test_send_into_a_watch_says_what_each_end_is_for(tmp_path):
    """`send` to an `ibm1013 watch`: not "give both the same --columns" alone, but that the far end
    is a watcher (or a sender), and where a deck (or a game) goes."""
    from decks import punch
    from tests.processes import write_cbn

    write_cbn(tmp_path / "deck.cbn", punch.encode(engine.deal("klondike", 617, {})))
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        watcher = start("watch", line.b, "--fast", "--timeout", "30", "--plain", cwd=str(tmp_path))
        sender = start("send", line.a, str(tmp_path / "deck.cbn"), "--fast", "--timeout", "30")
        sc, _, serr = finish(sender, 60)
        wc, _, werr = finish(watcher, 60)  # told at once, not after its 30 s
    finally:
        line.stop()
    one_line_error(sc, serr, "as an `ibm1013 watch` does", "a deck goes to an `ibm1013 receive`")
    one_line_error(wc, werr, "the far end is an `ibm1013 send`", "`ibm1013 play --stream`")


def test_a_bit_rate_mismatch_is_refused_by_player_and_watcher_naming_both_values(tmp_path):
    """The stream's handshake compares --bit-rate as send/receive do: both ends stop with one line
    naming both values (the watcher told at once, well inside its 60 s), and the player's game is
    saved, with how to carry on.  Before, the stream went ahead at two bit rates."""
    from decks.session import load_deck, timed_script
    from ibm1013.cli.stream import play_commands

    (pc, perr), (wc, werr) = over_a_line(
        ["watch", "PORT", "--fast", "--timeout", "60", "--plain", "--bit-rate", "600"],
        ["play", "klondike", "--deal", "617", "--stream", "PORT", "--moves", script(tmp_path),
         "--fast", "--timeout", "60", "--bit-rate", "2400"], 45, cwd=str(tmp_path))
    one_line_error(pc, perr, "this end sends at 2400 bit/s", "--bit-rate 600", "same --bit-rate",
                   "saved in klondike-617.cbn", "--load klondike-617.cbn")
    one_line_error(wc, werr, "refused the stream at once", "sends at 2400 bit/s", "--bit-rate 600")
    dealt = engine.deal("klondike", 617, {})  # no watcher yet at the first try: play went on
    played = [dealt] + [state for _, state, _ in play_commands(dealt, timed_script(MOVES, 0.2))]
    saved = load_deck(str(tmp_path / "klondike-617.cbn")).to_dict()
    assert any(saved == state.to_dict() for state in played)


def test_a_player_streaming_into_a_receive_is_refused_at_once(tmp_path):
    """`play --stream` to an `ibm1013 receive`: the player's end used to take the refusal of other
    columns for no watcher yet and wait; now it says what the far end is and keeps the game, and
    the receive stops at once (its 60 s timeout is a guard)."""
    (pc, perr), (rc, rerr) = over_a_line(
        ["receive", "PORT", "-o", str(tmp_path / "copy.cbn"), "--fast", "--timeout", "60"],
        ["play", "klondike", "--deal", "617", "--stream", "PORT", "--moves", script(tmp_path),
         "--fast", "--timeout", "60"], 45, cwd=str(tmp_path))
    one_line_error(pc, perr, "not an `ibm1013 watch`", "saved in klondike-617.cbn")
    one_line_error(rc, rerr, "refused the transfer at once", "it is an `ibm1013 play --stream`",
                   "goes to an `ibm1013 watch`")
    assert (tmp_path / "klondike-617.cbn").exists() and not (tmp_path / "copy.cbn").exists()
