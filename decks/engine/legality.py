"""What the rules allow: whether a transfer of cards from one pile to another is legal, and why not.

A transfer is judged in steps, each a small table or function keyed by a field of the rules
record: may the source's role play to the destination's role at all; may that many cards move as
a unit (``unit``: :data:`UNIT_RULES`, :func:`movable_tail`); does the bottom moving card build on
the destination's top card (``build`` + ``wrap``: :data:`BUILD_RULES`), fill a space (``space``:
:data:`SPACE_RULES`) or go on the foundation (``foundation_*`` fields); and finally the game's own
``check`` hook.  Each refusal is a sentence naming the rule, which :class:`IllegalMove` carries to
the player.  :func:`check_move` also judges the game's other move kinds through their
:class:`~decks.engine.rules.Action` hooks, and :func:`is_won` applies the game's win test.
"""

from __future__ import annotations

from collections.abc import Callable

from decks.engine.rules import Rules, rules_of
from decks.engine.state import KIND_LETTER, ROLE_OF_PREFIX, GameState, IllegalMove, Move, Pile, role_of
from decks.packs import PlayingCard
from emulator.errors import IbmError

# ---- building rules: can card ``on`` go onto card ``under`` in the tableau? ----


def _adjacent(under: PlayingCard, on: PlayingCard, step: int, wrap: bool) -> bool:
    diff = (under.rank - on.rank) * step    # step +1: 'on' one below 'under'
    if diff == 1:
        return True
    return wrap and diff == -12


def _down(under: PlayingCard, on: PlayingCard, wrap: bool) -> bool:
    return _adjacent(under, on, 1, wrap)


def _updown(under: PlayingCard, on: PlayingCard, wrap: bool) -> bool:
    return _adjacent(under, on, 1, wrap) or _adjacent(under, on, -1, wrap)


BuildRule = Callable[[PlayingCard, PlayingCard, bool], bool]
BUILD_RULES: dict[str, tuple[BuildRule, str]] = {
    "none": (lambda u, o, w: False, "no building on the tableau"),
    "alt-down": (lambda u, o, w: u.colour != o.colour and _down(u, o, w),
                 "the tableau builds down in alternating colours"),
    "suit-down": (lambda u, o, w: u.suit == o.suit and _down(u, o, w), "the tableau builds down in suit"),
    "any-down": (lambda u, o, w: _down(u, o, w), "the tableau builds down regardless of suit"),
    "suit-updown": (lambda u, o, w: u.suit == o.suit and _updown(u, o, w),
                    "the tableau builds up or down in suit"),
    "any-updown": (lambda u, o, w: _updown(u, o, w), "the tableau builds up or down regardless of suit"),
    "other-suit-down": (lambda u, o, w: u.suit != o.suit and _down(u, o, w),
                        "the tableau builds down in any suit but its own"),
    "suit-down-2": (lambda u, o, w: u.suit == o.suit and u.rank - o.rank == 2,
                    "the tableau builds down in suit by twos (a 5 on the 7 of its suit)"),
    "any-card": (lambda u, o, w: True, "any card goes on any card"),
}


SUIT_PARTS: dict[str, tuple[str, Callable[[PlayingCard, PlayingCard], bool]]] = {
    "alt-down": ("colour", lambda u, o: u.colour != o.colour),
    "suit-down": ("suit", lambda u, o: u.suit == o.suit),
    "suit-updown": ("suit", lambda u, o: u.suit == o.suit),
    "other-suit-down": ("suit", lambda u, o: u.suit != o.suit),
    "suit-down-2": ("suit", lambda u, o: u.suit == o.suit),
}
"""The suit or colour half of the building rules that have one (to say which half a card broke)."""


def build_refusal(rules: Rules, under: PlayingCard, on: PlayingCard) -> str:
    """Why ``on`` may not go on ``under``: the building rule, and whether only its rank half failed."""
    why = f"{on} cannot go on {under}: {BUILD_RULES[rules.build][1]}"
    part = SUIT_PARTS.get(rules.build)
    if part is not None and part[1](under, on):
        return f"{why} (the {part[0]} is right, the rank is not)"
    return why


def builds_on(rules: Rules, under: PlayingCard, on: PlayingCard) -> bool:
    """True if ``on`` may be placed on ``under`` by the game's tableau building rule."""
    return BUILD_RULES[rules.build][0](under, on, rules.wrap)


# ---- move units: the longest tail of a tableau pile that may move at once ----


def _run_length(cards: list[PlayingCard], hidden: int, ok: Callable[[PlayingCard, PlayingCard], bool]) -> int:
    n = 1 if len(cards) > hidden else 0
    i = len(cards) - 1
    while i - 1 >= hidden and ok(cards[i - 1], cards[i]):
        n += 1
        i -= 1
    return n


def movable_tail(rules: Rules, pile: Pile) -> int:
    """How many top cards of a tableau pile may move as a unit at most (0 if none)."""
    if not pile.cards or pile.hidden >= len(pile.cards):
        return 0
    unit = rules.unit
    if unit == "one":
        return 1
    if unit in ("face-up", "tail"):
        return len(pile.cards) - pile.hidden
    if unit == "suit-run":
        return _run_length(pile.cards, pile.hidden, lambda u, o: u.suit == o.suit and _down(u, o, False))
    if unit == "built-run":
        return _run_length(pile.cards, pile.hidden, lambda u, o: builds_on(rules, u, o))
    raise IbmError(f"unknown move unit {unit!r}")


UNIT_RULES = {
    "one": "only one card moves at a time",
    "face-up": "all face-up cards of a pile move as a unit (or the top card alone to a foundation)",
    "tail": "any number of face-up cards may move",
    "suit-run": "only a descending run in one suit moves as a unit",
    "built-run": "only a built group (in sequence by the building rule) moves as a unit",
}


def unit_allows(rules: Rules, pile: Pile, n: int, to_foundation: bool) -> str | None:
    """None if ``n`` top cards of this tableau pile may move together, else the rule that forbids it."""
    longest = movable_tail(rules, pile)
    if n > len(pile.cards) - pile.hidden:
        return "face-down cards cannot be moved"
    if to_foundation:
        return None if n == 1 else "cards go to a foundation one at a time"
    if rules.unit == "face-up":
        return None if n == longest else UNIT_RULES["face-up"]
    if n <= longest:
        return None
    return UNIT_RULES[rules.unit]


# ---- spaces ----

SPACE_RULES = {
    "any": "a space may be filled by any card",
    "king": "a space may be filled only by a king or a build headed by a king",
    "king-only": "a space may be filled only by a lone king",
    "none": "a space is never filled",
}


def space_allows(rules: Rules, state: GameState, moving: list[PlayingCard]) -> str | None:
    if rules.space_accepts is not None:
        return rules.space_accepts(state, moving[0])
    if rules.space == "any":
        return None
    if rules.space == "king":
        return None if moving[0].rank == 13 else SPACE_RULES["king"]
    if rules.space == "king-only":
        return None if moving[0].rank == 13 and len(moving) == 1 else SPACE_RULES["king-only"]
    return SPACE_RULES.get(rules.space, f"space rule {rules.space}")


# ---- foundations ----


def foundation_base_rank(rules: Rules, state: GameState) -> int:
    return rules.foundation_base or state.counters.get("base", 1)


def default_foundation_accepts(rules: Rules, state: GameState, name: str, c: PlayingCard) -> str | None:
    """The record's foundation rule: base rank on an empty foundation, then in steps (in suit)."""
    pile = state.piles[name]
    if not pile.cards:
        base = foundation_base_rank(rules, state)
        if c.rank != base:
            return f"a foundation starts with a card of rank {base}"
        return None
    top = pile.cards[-1]
    if len(pile.cards) >= rules.foundation_size:
        return "that foundation is complete"
    if rules.foundation_suit and top.suit != c.suit:
        return "foundations are built in suit"
    if rules.foundation_alternate and top.colour == c.colour:
        return "foundations are built in alternating colours"
    if not _adjacent(c, top, rules.foundation_step, rules.foundation_wrap):
        way = "up" if rules.foundation_step > 0 else "down"
        wrap = " (king and ace adjacent)" if rules.foundation_wrap else ""
        return f"foundations build {way} by one rank{wrap}"
    return None


def foundation_allows(rules: Rules, state: GameState, name: str, c: PlayingCard) -> str | None:
    if rules.foundation_accepts is not None:
        return rules.foundation_accepts(state, name, c)
    return default_foundation_accepts(rules, state, name, c)


# ---------------------------------------------------------------------------------------------
# Checking a move

_ROLE = ROLE_OF_PREFIX.get    # role_of without its checks, for the hot path below


def check_transfer(rules: Rules, state: GameState, move: Move) -> str | None:
    """None if the transfer ``move`` is legal, else the rule that forbids it."""
    src, dst = move.piles
    piles = state.piles
    sp, dp = piles.get(src), piles.get(dst)
    if sp is None or dp is None:
        return f"there is no pile {src if sp is None else dst!r} in {rules.name}"
    if src == dst:
        return "a pile cannot move onto itself"
    n = move.count
    if n > len(sp.cards) or n < 1:
        return f"{src} holds only {len(sp.cards)} card(s)" if n > 0 else "at least one card must move"
    srole, drole = _ROLE(src[0], "other"), _ROLE(dst[0], "other")
    moving = sp.cards[-n:]
    if drole == "foundation":
        if srole not in rules.to_foundation:
            return f"cards do not go from the {srole} to a foundation"
    elif drole == "tableau":
        if srole not in rules.to_tableau:
            return f"cards do not go from the {srole} to the tableau"
    else:
        return f"no cards may be placed on the {drole} ({dst})"
    if srole == "tableau":
        why = unit_allows(rules, sp, n, drole == "foundation")
        if why:
            return why
    else:
        if n != 1:
            return f"only the top card of the {srole} may be moved"
        if sp.hidden >= len(sp.cards):
            return f"the top card of {src} is face down"
        if srole == "foundation" and len(sp.cards) == 1:
            return "a foundation's base card stays on the foundation"
    if drole == "foundation":
        why = foundation_allows(rules, state, dst, moving[0])
    elif not dp.cards:
        why = space_allows(rules, state, moving)
    else:
        why = None if builds_on(rules, dp.cards[-1], moving[0]) else build_refusal(
            rules, dp.cards[-1], moving[0])
    if why is None and rules.check is not None:
        why = rules.check(state, move, moving)
    return why


def _resolve(rules: Rules, state: GameState, move: Move) -> Move:
    """'t3 f' → the first foundation that takes the card (or the move unchanged)."""
    if move.kind != "move" or move.dst != "f":
        return move
    reasons: list[tuple[int, int, str]] = []
    src = state.piles.get(move.src)
    moving = src.cards[-1] if src is not None and src.cards else None
    for name in state.names(ROLE_OF_PREFIX[move.dst]):
        candidate = Move("move", (move.src, name), move.count)
        why = check_transfer(rules, state, candidate)
        if why is None:
            return candidate
        top = state.piles[name].top
        # the most telling reason: from a foundation of the card's suit, else from an empty one
        weight = 0 if (top and moving and top.suit == moving.suit) else (1 if top is None else 2)
        reasons.append((weight, len(reasons), why))
    raise IllegalMove(move, min(reasons)[2] if reasons else f"no {ROLE_OF_PREFIX[move.dst]} pile takes it")


def check_move(state: GameState, move: Move) -> Move:
    """The move resolved to concrete piles if legal; otherwise :class:`IllegalMove`."""
    rules = rules_of(state)
    if is_won(state):
        raise IllegalMove(move, "the game is already won")
    move = _resolve(rules, state, move)
    if move.kind == "move":
        why = check_transfer(rules, state, move)
    elif move.kind in rules.actions:
        why = rules.actions[move.kind].check(state, move)
    else:
        why = f"{rules.title} has no '{KIND_LETTER.get(move.kind, move.kind)}' move"
    if why is not None:
        raise IllegalMove(move, why)
    return move


def is_won(state: GameState) -> bool:
    """True when the game's goal is reached (default: every card on a foundation or discarded)."""
    rules = rules_of(state)
    if rules.won is not None:
        return rules.won(state)
    return all(not p.cards for n, p in state.piles.items() if role_of(n) not in ("foundation", "discard"))
