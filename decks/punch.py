"""A game state as a deck of punched cards, and back.

A solitaire position travels down a 1013 line as an ordinary deck of 80-column cards. Every column
is a character of the 1401 BCD set that the 029 and both 026 keypunches punch alike — upper-case
letters, digits, blank and ``- / . , $ *`` (``docs/cards.md`` §2; ``docs/ibm1013.md`` §3 lists the
BCD set; the deck: ``docs/game-decks.md``) — so the deck needs neither the column-binary extension
nor a particular keypunch, and a person reads it from the print along the top edge. Columns 73–80
hold the classic sequence field: a 4-character deck label and a 4-digit card number, so a dropped
deck can be put back in order.

The deck, card by card (columns 1–72)::

    IBM1013 SOLITAIRE 1 GAME KLONDIKE-FLIP3 DEAL 617      header: format version, game, deal number
    OPTION DRAW 3 REDEALS UNLIMITED PARTIAL.MOVES NO …    the game's options, name value …
    STATE REDEALS 0 RNG 617                               redeals used, the game generator's state
    COUNTERS                                              the game's own counters, name value …
    PILE T1 1 JD                                          one record per pile: name, count, cards
    PILE T2 2 /5H 4C
    PILE S 24 /7D /AD /5C …                               (``/`` = face down)
    CONT PILE S /2D …                                     … continued on as many cards as needed
    MOVES 3 T5-F1 W-T3 S                                  the move history, oldest first
    REDO 0                                                moves undone that ``redo`` would replay
    END CARDS 0014 DIGEST 0123456789ABCDEF                trailer: number of cards, digest

A *record* (header, option, pile, moves …) starts on a fresh card with its keyword; when its
tokens do not fit in 72 columns it continues on ``CONT`` cards that repeat the keyword and, for a
pile, its name.  Tokens are separated by blanks.  A playing card is its short name (``AS``,
``TD``); a ``/`` before it means it lies face down.  Names and free text are written with a small
escape (:func:`escape`) so that any string survives: ``_`` → ``.``, a letter of the unexpected
case → ``*`` + letter, any other character → ``$`` + hex.

The trailer carries the number of cards in the deck and the first 16 hex digits of the SHA-256
of every earlier card's 80 columns; decoding checks the sequence field, the digest, that every
card of the game's pack is present exactly as often as the pack holds it (once in a one-pack game,
twice in a two-pack game: the piles are compared as multisets of card names), and that the deal
replayed with the recorded moves gives exactly the piles on the cards.  Every failure is a
:class:`DeckStateError` naming the card (1-based) and what is wrong.

The card layer — records on cards, the escape, the sequence field and the trailer — is
:mod:`decks.records`; this module says what the records mean: a game state, checked and replayed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from decks.deals import check_deal_number
from decks.engine import (
    GameState,
    IllegalMove,
    Move,
    Pile,
    Rules,
    apply_in_place,
    get_game,
    parse_move,
    replay,
)
from decks.engine.rules import configured, resolve_options
from decks.engine.state import OptionValue
from decks.packs import PlayingCard, pack
from decks.packs import card as playing_card
from decks.records import (
    CODE,
    DeckStateError,
    Record,
    deck_label,
    escape,
    format_value,
    parse_value,
    punch_records,
    read_records,
    unescape,
)
from emulator.card import Card
from emulator.errors import IbmError

FORMAT_VERSION = 1
"""Version written on the header card; decoding refuses any other."""

MAGIC = ("IBM1013", "SOLITAIRE")
FACE_DOWN = "/"
"""Prefix of a playing card that lies face down."""

# ---------------------------------------------------------------------------------------------
# game state ⇄ records
# ---------------------------------------------------------------------------------------------
def move_token(move: Move) -> str:
    """A move in the engine's notation as one token: ``t3 f2`` → ``T3-F2``."""
    return "-".join(str(move).upper().split())


def parse_move_token(token: str) -> Move:
    return parse_move(token.replace("-", " ").lower())


def card_token(c: PlayingCard, face_up: bool) -> str:
    return ("" if face_up else FACE_DOWN) + escape(c.name, natural_upper=True)


def _pairs(mapping: Mapping[str, object]) -> list[str]:
    out = []
    for key, value in mapping.items():
        out += [escape(key), format_value(value)]
    return out


def state_records(state: GameState) -> list[Record]:
    """The records that describe ``state`` completely (see the module docstring)."""
    records = [
        Record(MAGIC[0], [MAGIC[1], str(FORMAT_VERSION), "GAME", escape(state.game), "DEAL",
                          str(state.deal_number)]),
        Record("OPTION", _pairs(state.options)),
        Record("STATE", ["REDEALS", str(state.redeals), "RNG", str(state.rng_state)]),
        Record("COUNTERS", _pairs(state.counters)),
    ]
    for name, pile in state.piles.items():
        records.append(Record("PILE", [escape(name), str(len(pile.cards)),
                                       *(card_token(c, up) for c, up in pile.faces())]))
    records.append(Record("MOVES", [str(len(state.history)), *map(move_token, state.history)]))
    records.append(Record("REDO", [str(len(state.future)), *map(move_token, state.future)]))
    return records


def encode(state: GameState, label: str | None = None) -> list[Card]:
    """``state`` as a deck of punched cards (header, options, state, piles, moves, trailer)."""
    return punch_records(state_records(state), label or deck_label(state.game))


def encode_text(state: GameState, label: str | None = None) -> list[str]:
    """The 80-column lines of the deck, as a keypunch prints them along the cards' top edges."""
    return [c.text(CODE) for c in encode(state, label)]


def decode(cards: Iterable[Card]) -> GameState:
    """The game state on a punched deck, checked card by card (:class:`DeckStateError` otherwise)."""
    records, _label = read_records(cards)
    return StateReader(records).read()


class StateReader:
    """Turns the records of a deck into a :class:`GameState`, naming the card of every fault."""

    def __init__(self, records: list[Record]) -> None:
        self.records = records
        self.pos = 0
        self.move_cards: dict[str, int] = {}

    def fail(self, record: Record | None, reason: str) -> DeckStateError:
        return DeckStateError(reason, card=record.card if record else None)

    def next(self, keyword: str) -> Record:
        if self.pos >= len(self.records):
            last = self.records[-1] if self.records else None
            raise self.fail(last, f"{keyword} record missing after this card")
        record = self.records[self.pos]
        if record.keyword != keyword:
            raise self.fail(record, f"{keyword} record expected here, found {record.keyword}")
        self.pos += 1
        return record

    def number(self, record: Record, token: str, what: str, low: int = 0) -> int:
        if not token.isdigit() or int(token) < low:
            raise self.fail(record, f"{what} {token!r} is not a number")
        return int(token)

    def pairs(self, record: Record) -> dict[str, object]:
        if len(record.tokens) % 2:
            raise self.fail(record, f"{record.keyword} needs name value pairs")
        try:
            return {unescape(k): parse_value(v) for k, v in zip(record.tokens[::2], record.tokens[1::2],
                                                                  strict=True)}
        except ValueError as err:
            raise self.fail(record, str(err)) from None

    # -- the sections --------------------------------------------------------------------------
    def read(self) -> GameState:
        rules, deal_number = self.header()
        options = self.options(rules)
        redeals, rng_state = self.state_line()
        counters = self.counters()
        piles, pile_cards = self.piles(configured(rules, options))
        history = self.moves("MOVES")
        future = self.moves("REDO")
        if self.pos < len(self.records):
            extra = self.records[self.pos]
            raise self.fail(extra, f"unexpected {extra.keyword} record after REDO")
        state = GameState(rules.name, options, deal_number, piles, redeals, counters, history, future,
                          rng_state)
        self.check_pack(rules, state, pile_cards)
        self.check_replay(state, pile_cards)
        return state

    def header(self) -> tuple[Rules, int]:
        record = self.next(MAGIC[0])
        t = record.tokens
        if len(t) != 6 or t[0] != MAGIC[1] or t[2] != "GAME" or t[4] != "DEAL":
            raise self.fail(record, "not a solitaire header (want IBM1013 SOLITAIRE v GAME name DEAL n)")
        if t[1] != str(FORMAT_VERSION):
            raise self.fail(record, f"format version {t[1]} is not known (this program reads "
                                    f"version {FORMAT_VERSION})")
        try:
            rules = get_game(unescape(t[3]))
            deal_number = check_deal_number(self.number(record, t[5], "deal number", 1))
        except DeckStateError:
            raise
        except (IbmError, ValueError) as err:
            raise self.fail(record, str(err)) from None
        return rules, deal_number

    def options(self, rules: Rules) -> dict[str, OptionValue]:
        record = self.next("OPTION")
        given = self.pairs(record)
        try:
            values = resolve_options(rules, given)
            if rules.configure is not None:
                rules.configure(rules, values)
        except IbmError as err:
            raise self.fail(record, str(err)) from None
        missing = [o.name for o in rules.options if o.name not in given]
        if missing:
            raise self.fail(record, f"option(s) {', '.join(missing)} missing")
        return values

    def state_line(self) -> tuple[int, int]:
        record = self.next("STATE")
        t = record.tokens
        if len(t) != 4 or t[0] != "REDEALS" or t[2] != "RNG":
            raise self.fail(record, "malformed STATE record (want STATE REDEALS n RNG n)")
        return self.number(record, t[1], "redeal count"), self.number(record, t[3], "generator state")

    def counters(self) -> dict[str, int]:
        record = self.next("COUNTERS")
        values = self.pairs(record)
        for key, value in values.items():
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.fail(record, f"counter {key} has no number")
        return {k: int(v) for k, v in values.items()}  # type: ignore[call-overload]

    def piles(self, rules: Rules) -> tuple[dict[str, Pile], dict[str, int]]:
        piles: dict[str, Pile] = {}
        where: dict[str, int] = {}
        expected = rules.pile_names()
        while self.pos < len(self.records) and self.records[self.pos].keyword == "PILE":
            record = self.next("PILE")
            if len(record.tokens) < 2:
                raise self.fail(record, "a PILE record needs a name and a count")
            try:
                name = unescape(record.tokens[0])
            except ValueError as err:
                raise self.fail(record, str(err)) from None
            if name not in expected:
                raise self.fail(record, f"{rules.name} has no pile {name!r}")
            if name in piles:
                raise self.fail(record, f"pile {name} given twice (first on card {where[name]})")
            count = self.number(record, record.tokens[1], "pile size")
            tokens = record.tokens[2:]
            if len(tokens) != count:
                raise self.fail(record, f"pile {name} should hold {count} cards, the cards give "
                                        f"{len(tokens)} (a continuation card missing?)")
            faces = []
            for tok in tokens:
                up = not tok.startswith(FACE_DOWN)
                try:
                    name_text = unescape(tok.removeprefix(FACE_DOWN), natural_upper=True)
                    faces.append((playing_card(name_text, rules.pack), up))
                except (IbmError, ValueError):
                    raise self.fail(record, f"{tok!r} in pile {name} is not a card of the "
                                            f"{rules.pack} pack") from None
            try:
                piles[name] = Pile.from_faces(faces)
            except IbmError as err:
                raise self.fail(record, f"pile {name}: {err}") from None
            where[name] = record.card
        missing = [n for n in expected if n not in piles]
        if missing:
            at = self.records[self.pos] if self.pos < len(self.records) else self.records[-1]
            raise self.fail(at, f"pile(s) {' '.join(missing)} of {rules.name} missing before this card")
        return {n: piles[n] for n in expected}, where

    def moves(self, keyword: str) -> list[Move]:
        record = self.next(keyword)
        if not record.tokens:
            raise self.fail(record, f"{keyword} needs the number of moves")
        count = self.number(record, record.tokens[0], "move count")
        tokens = record.tokens[1:]
        if len(tokens) != count:
            raise self.fail(record, f"{keyword} says {count} moves, the cards give {len(tokens)} "
                                    "(a continuation card missing?)")
        out = []
        for i, tok in enumerate(tokens, 1):
            try:
                out.append(parse_move_token(tok))
            except IbmError as err:
                raise self.fail(record, f"move {i} {tok!r}: {err}") from None
        self.move_cards[keyword] = record.card
        return out

    # -- whole-state checks ----------------------------------------------------------------------
    def check_pack(self, rules: Rules, state: GameState, where: dict[str, int]) -> None:
        """Every card of the game's pack as often as the pack holds it: the piles, taken together, are
        the pack as a multiset (once each in a one-pack game, twice each in ``double`` and
        ``double-88``)."""
        want = Counter(c.name for c in pack(rules.pack))
        seen: Counter[str] = Counter()
        first_pile: dict[str, str] = {}
        for name, pile in state.piles.items():
            for c in pile.cards:
                seen[c.name] += 1
                first_pile.setdefault(c.name, name)
                if seen[c.name] > want[c.name]:
                    earlier = first_pile[c.name]
                    raise DeckStateError(
                        f"{c.name} in pile {name} appears more often than the {rules.pack} pack has it "
                        f"(also in pile {earlier}, card {where[earlier]})", card=where[name])
        lacking = sorted(want - seen)
        if lacking:
            first = min(where.values())
            raise DeckStateError(f"the piles lack {' '.join(lacking)} of the {rules.pack} pack",
                                 card=first)

    def check_replay(self, state: GameState, where: dict[str, int]) -> None:
        """The deal replayed with the recorded moves must give exactly the piles on the cards."""
        cards = self.move_cards
        try:
            replayed = replay(state.game, state.deal_number, state.options, state.history)
        except IllegalMove as err:
            raise DeckStateError(f"recorded move {err.move!r} is illegal: {err.rule}",
                                 card=cards.get("MOVES")) from None
        except IbmError as err:
            raise DeckStateError(f"the recorded moves cannot be replayed: {err}",
                                 card=cards.get("MOVES")) from None
        for name, pile in state.piles.items():
            other = replayed.piles[name]
            if pile.cards != other.cards or pile.hidden != other.hidden:
                raise DeckStateError(
                    f"pile {name} cannot arise: deal {state.deal_number} with the recorded moves "
                    f"gives {' '.join(card_token(c, up) for c, up in other.faces()) or 'nothing'}",
                    card=where[name])
        if (replayed.redeals, replayed.rng_state, replayed.counters) != (
                state.redeals, state.rng_state, state.counters):
            raise DeckStateError("redeal count, generator state or counters differ from what the "
                                 "recorded moves give", card=self.records[2].card)
        probe = replayed
        for i, move in enumerate(reversed(state.future), 1):
            try:
                apply_in_place(probe, move, record=False)
            except IllegalMove as err:
                raise DeckStateError(f"redo move {len(state.future) - i + 1} {str(move)!r} is illegal: "
                                     f"{err.rule}", card=cards.get("REDO")) from None
