"""Compact game cards: a game state packed bit by bit, 72 columns of 63 characters per card.

The readable deck (:mod:`decks.punch`) spells every pile out in words a person can read — about 21
cards for a Klondike game 100 moves in.  The piles need not travel at all: the deal number and the
moves rebuild them, and the decoder replays and verifies anyway.  A *compact* deck therefore
carries only the game, its options, the deal number, the move history and the redo list, packed
with :mod:`bitarray` into fields of a few bits each:

==========================  ===================================================================
``MAGIC``                   8 bits ``10110011``; then the format ``VERSION`` in 4 bits
cards                       the number of cards in the deck (Elias gamma)
game                        the registry name as text: gamma(length + 1), 6 bits a character
options                     1 bit "all at their defaults"; else gamma(count + 1) and each option
                            in the rules record's order (bool 1 bit; int gamma(v + 1); count 1 bit
                            "unlimited" or gamma(v + 1); choice gamma(index + 1))
deal number                 gamma
history                     gamma(count + 1), then each move (below)
position check              32 bits of a digest of the position the history leads to
redo list                   gamma(count + 1), then each move in the order ``redo`` makes them
digest                      the first 32 bits of SHA-256 over the deck label and every bit before
==========================  ===================================================================

A move is coded against the position it is made in, so any game of the registry — including ones
added later — is covered without a table: it is its index among the position's legal moves
(:func:`decks.engine.legal_moves`), in just enough bits for their number plus one — about 4 bits
in Klondike.  The index one past the end escapes to the move spelt out (:class:`MoveCode`).
Because the index depends on the engine's order of legal moves, the deck also carries a digest of
the position the moves lead to: a deck replayed by another version of the rules that lists moves
differently is refused, never silently turned into another game.

**On the card.**  The bit stream is cut into chunks of at most 429 bits, one a card, each
written as 72 base-63 digits — the 63 punch patterns of the BCD characters a card can hold — with
the readable deck's sequence field in columns 73–80 (:mod:`decks.bitcards`).

A single move of a game being streamed travels on a line-only *event card*, built from the same
parts (:mod:`decks.stream`).

Decoding checks the sequence field, the card count, the digest, the game and its options, replays
the moves and the redo list, and raises :class:`~decks.records.DeckStateError` naming the card (and the
column, for a punch pattern no 1013 sends) of every fault — the same errors as the readable decoder.
:func:`decode_any` tells the two encodings apart by the first card.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bitarray import bitarray
from bitarray.util import ba2int

from decks.bitcards import CHUNK_BITS, BitReader, BitWriter, columns_chunk, punch_chunks, read_chunks
from decks.deals import check_deal_number
from decks.engine import GameState, IllegalMove, Move, Rules, apply_in_place, deal, get_game, legal_moves
from decks.engine.rules import resolve_options
from decks.engine.state import OptionValue
from decks.records import CODE, DeckStateError, deck_label
from emulator.card import Card
from emulator.errors import IbmError

MAGIC = bitarray("10110011")
VERSION = 1
VERSION_BITS = 4

DIGEST_BITS = 32
FINAL_CHECK_BITS = 32
"""Bits of the digest of the position the recorded moves lead to, on a deck."""

def _width(n: int) -> int:
    """Bits for an index 0 … n (n itself being the escape)."""
    return n.bit_length()


# ---------------------------------------------------------------------------------------------
# moves, options
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MoveCode:
    """How the moves of one game are coded: first as an index into the legal moves of the position
    (:func:`decks.engine.legal_moves`, in just enough bits for their number + 1); the index one
    past the end escapes to the move spelt out — its kind an index into ``move`` plus the game's
    action names, each pile an index into the dealt game's piles (a name not there escapes once
    more to text), the count as gamma."""

    kinds: tuple[str, ...]
    piles: tuple[str, ...]

    @classmethod
    def of(cls, rules: Rules, piles: Iterable[str]) -> MoveCode:
        return cls(("move", *sorted(rules.actions)), tuple(piles))

    def write(self, w: BitWriter, move: Move, state: GameState) -> None:
        legal = legal_moves(state)
        width = _width(len(legal))
        if move in legal:
            w.fixed(legal.index(move), width)
            return
        w.fixed(len(legal), width)
        self._name(w, move.kind, self.kinds)
        if move.kind == "move":
            if len(move.piles) != 2:
                raise ValueError(f"transfer {move} needs a source and a destination")
        else:
            w.gamma(len(move.piles) + 1)
        for name in move.piles:
            self._name(w, name, self.piles)
        if move.count < 1:
            raise ValueError(f"move {move} has a count below 1")
        w.gamma(move.count)

    def read(self, r: BitReader, state: GameState) -> Move:
        legal = legal_moves(state)
        i = r.fixed(_width(len(legal)), "move")
        if i < len(legal):
            return legal[i]
        if i > len(legal):
            raise r.fail(f"move code {i} is not one of the {len(legal)} legal moves")
        kind = self._read_name(r, self.kinds, "move kind")
        n = 2 if kind == "move" else r.gamma("pile count") - 1
        piles = tuple(self._read_name(r, self.piles, "pile") for _ in range(n))
        return Move(kind, piles, r.gamma("move count"))

    @staticmethod
    def _name(w: BitWriter, name: str, names: tuple[str, ...]) -> None:
        width = _width(len(names))
        if name in names:
            w.fixed(names.index(name), width)
        else:
            w.fixed(len(names), width)
            w.text(name)

    @staticmethod
    def _read_name(r: BitReader, names: tuple[str, ...], what: str) -> str:
        i = r.fixed(_width(len(names)), what)
        if i == len(names):
            return r.text(what)
        if i > len(names):
            raise r.fail(f"{what} code {i} is not one of the game's {len(names)}")
        return names[i]


def _write_options(w: BitWriter, rules: Rules, options: Mapping[str, OptionValue]) -> None:
    if all(options.get(o.name) == o.default for o in rules.options):
        w.fixed(1, 1)
        return
    w.fixed(0, 1)
    w.gamma(len(rules.options) + 1)
    for o in rules.options:
        v = options[o.name]
        if o.kind == "bool":
            w.fixed(int(bool(v)), 1)
        elif o.kind == "count":
            w.fixed(int(v == "unlimited"), 1)
            if v != "unlimited":
                w.gamma(int(v) + 1)
        elif o.kind == "choice":
            w.gamma(o.choices.index(str(v)) + 1)
        else:
            w.gamma(int(v) + 1)


def _read_options(r: BitReader, rules: Rules) -> dict[str, OptionValue]:
    card = r.card
    if r.fixed(1, "options"):
        given: dict[str, object] = {}
    else:
        count = r.gamma("option count") - 1
        if count != len(rules.options):
            raise r.fail(f"the deck gives {count} options, {rules.name} has {len(rules.options)} "
                         "(a deck of another version of the game)", card)
        given = {}
        for o in rules.options:
            if o.kind == "bool":
                given[o.name] = bool(r.fixed(1, "options"))
            elif o.kind == "count":
                given[o.name] = "unlimited" if r.fixed(1, "options") else r.gamma("options") - 1
            elif o.kind == "choice":
                i = r.gamma("options") - 1
                if i >= len(o.choices):
                    raise r.fail(f"option {o.name}: choice {i} is not one of {len(o.choices)}", card)
                given[o.name] = o.choices[i]
            else:
                given[o.name] = r.gamma("options") - 1
    try:
        values = resolve_options(rules, given)
        if rules.configure is not None:
            rules.configure(rules, values)
    except IbmError as err:
        raise r.fail(str(err), card) from None
    return values


# ---------------------------------------------------------------------------------------------
# game state ⇄ deck
# ---------------------------------------------------------------------------------------------
def _digest(bits: bitarray, label: str) -> bitarray:
    h = hashlib.sha256(label.encode("ascii") + len(bits).to_bytes(8, "big") + bits.tobytes())
    out = bitarray(endian="big")
    out.frombytes(h.digest()[:DIGEST_BITS // 8])
    return out


def _body(state: GameState) -> bitarray:
    """Game, options, deal, history, redo list and position check (all after the card count)."""
    rules = get_game(state.game)
    w = BitWriter()
    w.text(rules.name)
    _write_options(w, rules, state.options)
    w.gamma(state.deal_number)
    position = deal(rules.name, state.deal_number, state.options)
    code = MoveCode.of(rules, position.piles)
    for moves in (state.history, state.future[::-1]):
        w.gamma(len(moves) + 1)
        for i, move in enumerate(moves, 1):
            code.write(w, move, position)
            try:
                apply_in_place(position, move, record=moves is state.history)
            except IbmError as err:
                raise IbmError(f"move {i} {str(move)!r} does not replay from deal "
                               f"{state.deal_number} ({err}): a compact deck needs a game reached "
                               "by its moves") from None
        if moves is state.history:
            w.fixed(position_check(position, FINAL_CHECK_BITS), FINAL_CHECK_BITS)
    return w.bits


def pack_bits(body: bitarray, label: str, version: int = VERSION) -> list[bitarray]:
    """Magic, version, card count, ``body`` and digest, cut into chunks (one a card)."""
    cards = 1
    while True:
        w = BitWriter()
        w.bits.extend(MAGIC)
        w.fixed(version, VERSION_BITS)
        w.gamma(cards)
        w.bits.extend(body)
        w.bits.extend(_digest(w.bits, label))
        need = -(-len(w.bits) // CHUNK_BITS)
        if need == cards:
            return [w.bits[i:i + CHUNK_BITS] for i in range(0, len(w.bits), CHUNK_BITS)]
        cards = need


def encode(state: GameState, label: str | None = None) -> list[Card]:
    """``state`` as a compact deck (see the module docstring)."""
    label = (label or deck_label(state.game)).upper()
    return punch_chunks(pack_bits(_body(state), label), label)


def decode(cards: Iterable[Card]) -> GameState:
    """The game state on a compact deck, checked and replayed (:class:`DeckStateError` otherwise)."""
    chunks, label = read_chunks(cards)
    bits = bitarray(endian="big")
    card_of: list[int] = []
    for n, chunk in enumerate(chunks, start=1):
        bits.extend(chunk)
        card_of += [n] * len(chunk)
    r = BitReader(bits, card_of)
    if r.fixed(len(MAGIC), "magic") != ba2int(MAGIC):
        raise r.fail("not a compact game deck (its first bits are not the compact magic)", 1)
    version = r.fixed(VERSION_BITS, "version")
    if version != VERSION:
        raise r.fail(f"compact format version {version} is not known (this program reads version "
                     f"{VERSION})", 1)
    count = r.gamma("card count")
    if count != len(chunks):
        raise r.fail(f"card 1 says the deck has {count} cards, it has {len(chunks)} (cards missing "
                     "or added)", len(chunks))
    if len(bits) < r.pos + DIGEST_BITS or _digest(bits[:-DIGEST_BITS], label) != bits[-DIGEST_BITS:]:
        raise r.fail("digest does not match the cards: a card was changed", len(chunks))
    r.bits = bits[:-DIGEST_BITS]
    return _read_body(r)


def _read_body(r: BitReader) -> GameState:
    card = r.card
    name = r.text("game name")
    try:
        rules = get_game(name)
    except IbmError as err:
        raise r.fail(str(err), card) from None
    options = _read_options(r, rules)
    card = r.card
    try:
        deal_number = check_deal_number(r.gamma("deal number"))
        dealt = deal(rules.name, deal_number, options)
    except DeckStateError:
        raise
    except IbmError as err:
        raise r.fail(str(err), card) from None
    code = MoveCode.of(rules, dealt.piles)
    state = dealt
    _read_moves(r, code, state, "recorded move", record=True)
    card = r.card
    if r.fixed(FINAL_CHECK_BITS, "position check") != position_check(state, FINAL_CHECK_BITS):
        raise r.fail(f"deal {deal_number} with the recorded moves does not give the position the deck "
                     "was made from (a deck of another version of the rules?)", card)
    probe = state.copy()
    state.future = _read_moves(r, code, probe, "redo move", record=False)[::-1]
    if r.pos != len(r.bits):
        raise r.fail(f"{len(r.bits) - r.pos} bits left over after the redo list")
    return state


def _read_moves(r: BitReader, code: MoveCode, state: GameState, what: str, *, record: bool) -> list[Move]:
    """Read a move list, making each move on ``state`` (an illegal one names its card)."""
    count = r.gamma(f"{what} count") - 1
    out = []
    for i in range(1, count + 1):
        where = r.card
        move = code.read(r, state)
        try:
            apply_in_place(state, move, record=record)
        except IbmError as err:
            rule = err.rule if isinstance(err, IllegalMove) else str(err)
            raise r.fail(f"{what} {i} {str(move)!r} is illegal: {rule}", where) from None
        out.append(move)
    return out


# ---------------------------------------------------------------------------------------------
# telling the encodings apart
# ---------------------------------------------------------------------------------------------
def is_compact(cards: Sequence[Card]) -> bool:
    """True unless the first card reads as the header of a readable deck (``IBM1013 SOLITAIRE``)."""
    if not cards:
        return False
    try:
        return not cards[0].text(CODE).startswith("IBM1013 SOLITAIRE")
    except IbmError:
        return True


def decode_any(cards: Iterable[Card]) -> GameState:
    """A game state from a readable or a compact deck, whichever ``cards`` is.  The cards are read as
    they are checked, so a deck that is no game stops at its first bad card, however long the file."""
    from decks import punch

    cards = iter(cards)
    first = next(cards, None)
    deck = itertools.chain([first] if first is not None else [], cards)
    return decode(deck) if first is not None and is_compact([first]) else punch.decode(deck)


def position_check(state: GameState, bits: int) -> int:
    """The first ``bits`` bits of SHA-256 over the position: piles, redeals, counters and generator
    (not the history)."""
    d = state.to_dict()
    key = json.dumps([d["piles"], d["redeals"], d["counters"], d["rng_state"]], sort_keys=True)
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") >> (64 - bits)


def move_code(state: GameState) -> MoveCode:
    """How moves are coded in ``state``'s game."""
    return MoveCode.of(get_game(state.game), state.piles)


def deck_cards(card: Card) -> int:
    """The number of cards a compact deck has, read from its first card (DeckStateError if it is
    not one): a receiver knows from it when the deck is complete."""
    r = BitReader(columns_chunk(list(card), 1), [1])
    if r.fixed(len(MAGIC), "magic") != ba2int(MAGIC):
        raise r.fail("not the first card of a compact game deck")
    version = r.fixed(VERSION_BITS, "version")
    if version != VERSION:
        raise r.fail(f"compact format version {version} is not known (this program reads version "
                     f"{VERSION})")
    return r.gamma("card count")
