"""The live game stream without real ports: the mirror layer, the open-ended STR session, SimPy runs."""

from __future__ import annotations

import random

import pytest

from decks import engine
from decks.stream import Diverged, Event, GameFeed, Watcher, decode_event, encode_event, position_check
from ibm1013.sim.stream import simulate_stream
from ibm1013.sim.transfer import TransferConfig
from ibm1013.str import CardAccepted, Send, SessionConfig, SessionEnded
from ibm1013.str.layout import ColumnLayout
from ibm1013.str.stream import StreamReceiver, StreamTransmitter

AUTO = SessionConfig(columns=ColumnLayout.parse("auto"))


def game(moves: int, seed: int = 0, deal: int = 617) -> tuple[GameFeed, list, engine.GameState]:
    """A feed and the timed moves of a random Klondike game (one every 2 s after 3 s)."""
    state = engine.deal("klondike", deal, {})
    feed = GameFeed(state)
    rng = random.Random(seed)
    timed = []
    s = state
    for i in range(moves):
        legal = engine.legal_moves(s)
        if not legal:
            break
        new = engine.apply(s, rng.choice(legal))
        timed.append((3.0 + 2.0 * i, (lambda n=new: feed.change(feed.state, n, "move"))))
        s = new
    timed.append((3.0 + 2.0 * len(timed), lambda: [feed.event("end", feed.state)]))
    return feed, timed, s


def run(feed: GameFeed, timed: list, **line) -> tuple[Watcher, object]:
    mirror = Watcher()
    cfg = TransferConfig.build(bit_rate=1200, columns="auto", **line)
    result = simulate_stream(feed.cards, timed, cfg, on_card=lambda n, c, t: mirror.take(n, c))
    return mirror, result


def test_a_clean_line_mirrors_every_move_within_one_record_time() -> None:
    feed, timed, final = game(30)
    mirror, r = run(feed, timed)
    assert mirror.finished and mirror.state.to_dict() == final.to_dict()
    assert {e.outcome for e in r.ended.values()} == {"complete"}
    lat = [r.accepted[n] - r.made[n] for n in r.made if n > len(feed.cards)]
    assert len(lat) == 31 and r.retransmissions == 0
    # a move card is under 12 characters + 5 of framing at 150 characters/s, + 0.01 s propagation
    assert max(lat) < 17 / 150 + 0.011


def test_long_thinking_holds_the_line_with_bids_not_new_sessions() -> None:
    feed, timed, final = game(3)
    slow = [(20.0 * (i + 1), make) for i, (_, make) in enumerate(timed)]
    mirror, r = run(feed, slow)
    assert mirror.state.to_dict() == final.to_dict()
    assert r.keepalives >= 4 * 3 - 1  # one bid every 5 s of 20 s pauses
    assert r.ended["watcher"].outcome == "complete"  # the one session ran through


def test_noise_is_retransmitted_and_the_mirror_stays_exact() -> None:
    feed, timed, final = game(40, seed=3)
    mirror, r = run(feed, timed, ber=1e-3, seed=4)
    assert r.retransmissions > 0
    assert mirror.finished and mirror.state.to_dict() == final.to_dict()


def test_a_cut_line_ends_both_ends_and_says_so() -> None:
    feed, timed, _ = game(30)
    mirror, r = run(feed, timed, cut_at=20.0)
    assert r.ended["player"].outcome == "no answer"
    assert r.ended["watcher"].outcome == "no data"
    assert not mirror.finished and 0 < mirror.events < 30


def test_event_cards_round_trip_and_are_short() -> None:
    state = game_state(10)
    move = engine.legal_moves(state)[0]
    after = engine.apply(state, move)
    event = Event(11, "move", move, position_check(after))
    card = encode_event(event, state)
    assert decode_event(card, state, 12) == event
    assert card.last_nonblank() <= 8
    undo = Event(12, "undo", None, position_check(state))
    assert decode_event(encode_event(undo, after), after, 13) == undo



# -- the mirror's checks -----------------------------------------------------------------------
def game_state(n: int) -> engine.GameState:
    return game(n)[2]


def stream(n: int) -> tuple[list, engine.GameState, GameFeed]:
    feed, timed, _ = game(n)
    cards = list(feed.cards)
    for _, make in timed[:-1]:
        cards += make()
    return cards, feed.state, feed


def take_all(cards: list) -> Watcher:
    mirror = Watcher()
    for n, card in enumerate(cards, 1):
        mirror.take(n, card)
    return mirror


def test_a_lost_event_is_refused() -> None:
    cards, _, _ = stream(5)
    with pytest.raises(Diverged, match="event 3 was due"):
        take_all(cards[:3] + cards[4:])


def test_a_move_that_does_not_apply_is_refused() -> None:
    cards, state, feed = stream(5)
    # a transfer from an empty foundation: it applies nowhere
    card = encode_event(Event(feed.events + 1, "move", engine.Move("move", ("f1", "t1")),
                                              0), state)
    with pytest.raises(Diverged, match=r"event 6 \(f1 t1, stream card 7\) does not apply"):
        take_all([*cards, card])


def test_a_diverged_position_is_refused() -> None:
    cards, state, feed = stream(5)
    move = engine.legal_moves(state)[0]
    card = encode_event(Event(feed.events + 1, "move", move, 12345), state)
    with pytest.raises(Diverged, match="another position"):
        take_all([*cards, card])


# -- the open-ended session, core against core -----------------------------------------------------
def exchange(tx: StreamTransmitter, rx: StreamReceiver, actions_tx: list, actions_rx: list,
             refuse_at: int | None = None) -> list:
    """Pass bytes between two cores until both fall quiet (timers never fire here)."""
    events = []
    while actions_tx or actions_rx:
        nxt_rx, nxt_tx = [], []
        for a in actions_tx:
            if isinstance(a, Send):
                nxt_rx += rx.receive_data(a.data)
            elif not hasattr(a, "name"):
                events.append(a)
        out = []
        for a in nxt_rx:
            if isinstance(a, CardAccepted) and a.number == refuse_at:
                out = rx.refuse("no")
                break
            out.append(a)
        for a in actions_rx + out:
            if isinstance(a, Send):
                nxt_tx += tx.receive_data(a.data)
            elif not hasattr(a, "name"):
                events.append(a)
        actions_tx, actions_rx = nxt_tx, []
    return events


def test_cards_appended_later_go_in_the_same_session_and_a_refusal_ends_it() -> None:
    cards, _, _ = stream(4)
    tx, rx = StreamTransmitter(cards[:2], AUTO), StreamReceiver(AUTO)
    exchange(tx, rx, tx.start(), rx.start())
    assert tx.waiting and rx.next_card == 3
    bid = tx.timer_expired("keepalive")  # a bid holds the line …
    assert any(isinstance(a, Send) for a in bid)
    exchange(tx, rx, bid, [])
    assert tx.waiting and tx.keepalives == 1
    exchange(tx, rx, tx.append(cards[2:4]), [])
    assert rx.next_card == 5 and tx.waiting
    events = exchange(tx, rx, tx.append(cards[4:5]), [], refuse_at=5)
    ended = [e for e in events if isinstance(e, SessionEnded)]
    assert ended[0].outcome in ("aborted by receiver", "refused")
    assert tx.ended is not None and tx.ended.outcome == "aborted by receiver"
    assert rx.ended is not None and rx.ended.outcome == "refused" and rx.next_card == 5


def test_simulate_play_reports_latency_cards_and_retransmissions(capsys) -> None:
    from ibm1013.cli.main import main

    # the player is the solver (Auld Lang Syne's exact search: quick)
    assert main(["simulate-play", "auld-lang-syne", "--deal", "12", "--max-moves", "20", "--think", "3",
                 "--ber", "1e-3", "--seed", "2", "--json"]) == 0
    import json

    r = json.loads(capsys.readouterr().out)
    assert r["mirrored"] and r["moves"] == 20 and r["deck_cards"] == 1
    assert r["cards_sent"] == 22 and r["latency_s"]["count"] == 20  # the deck, 20 moves, the end
    assert r["records_sent"] == r["cards_sent"] + r["retransmissions"] + len(r["failed_cards"])
    assert 0.08 < r["latency_s"]["p50"] <= r["latency_s"]["p99"] <= r["latency_s"]["max"]
    assert main(["simulate-play", "klondike", "--ber", "2"]) == 2
