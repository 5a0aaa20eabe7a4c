"""The solver as it was before issue 10, frozen: only :mod:`tools.bench_decks` uses it, to print the
new solver's figures beside the old ones on the same deals.  Do not change it.

A bounded solver: depth-first search with a transposition table and a node limit.

``solve(state, max_nodes)`` looks for a sequence of moves from ``state`` to a won game.  It sees
every card, face-down ones included (a "thoughtful" solver, as in the published Klondike
figures in ``docs/games.md``), so a solution it finds is a proof that the
deal can be won, and its first move is a hint.

How it searches:

* Each position is reduced to a canonical key (:func:`decks.engine.state_key`); a position already
  seen is not searched again, so cycles (turning the stock round and round) end by themselves.
* Moves are tried best first: foundation plays and discards, moves that turn up a face-down card
  or empty a pile, other builds, then the stock and redeals.
* A foundation play that can never be regretted is made alone, without branching: in games whose
  foundations build up in suit from the ace and never give cards back, a card whose lower cards of
  the other colour are already home (alternating-colour building), or any card (in-suit building).
* Every position expanded counts as one node; at ``max_nodes`` the search stops and reports
  "none found within the limit".  If the whole tree is searched without a win it reports that no
  solution exists.  That tree leaves out the moves a game marks as never worth trying
  (``Rules.useless``: e.g. emptying a Klondike pile when no king could use the space, splitting a
  Spiderette suit run); those rules are heuristics, so "no solution exists" is exact for games
  without them and very nearly so for the others.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from decks.engine import (
    CYCLE_KINDS,
    GameState,
    IllegalMove,
    Move,
    Pile,
    Rules,
    apply_in_place,
    builds_on,
    foundation_allows,
    is_won,
    legal_moves,
    role_of,
    rules_of,
    space_allows,
    state_key,
)
from decks.packs import PlayingCard

DEFAULT_MAX_NODES = 50_000

WON, LIMIT, EXHAUSTED = "won", "none found within the limit", "no solution exists"


@dataclass
class SolveResult:
    """The outcome: ``status`` is one of "won", "none found within the limit", "no solution exists"."""

    status: str
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0

    @property
    def won(self) -> bool:
        return self.status == WON

    def notation(self) -> str:
        """The winning moves, one per line, in the engine's notation."""
        return "\n".join(str(m) for m in self.moves)


def _priority(state: GameState, m: Move) -> int:
    if m.kind == "move":
        dst = m.dst[0]
        if dst == "f":
            return 0
        src = state.piles[m.src]
        if m.src[0] == "t":
            left = len(src.cards) - m.count
            if left == 0:
                return 2
            if left == src.hidden:
                return 1
            return 4
        if role_of(m.src) == "foundation":
            return 6
        return 3
    if m.kind == "remove":
        return 0
    if m.kind == "stock":
        return 5
    if m.kind == "redeal":
        return 7
    return 3


def _foundation_tops(state: GameState) -> dict[str, int]:
    tops = {"C": 0, "D": 0, "H": 0, "S": 0}
    for name, p in state.piles.items():
        if name[0] == "f" and p.cards:
            tops[p.cards[-1].suit] = p.cards[-1].rank
    return tops


def _safe_rules(rules: Rules) -> str | None:
    """Which 'safe foundation play' test applies to these rules, if any."""
    if (rules.foundation_accepts is not None or not rules.foundation_suit or rules.foundation_base != 1
            or rules.foundation_step != 1 or rules.foundation_wrap or "foundation" in rules.to_tableau
            or rules.pack != "standard"):
        return None
    if rules.build in ("suit-down", "none"):
        return "any"
    if rules.build == "alt-down" and not rules.wrap:
        return "alt"
    return None


def safe_move(rules: Rules, state: GameState, moves: list[Move]) -> Move | None:
    """A foundation play that cannot be regretted, if there is one among ``moves``."""
    kind = _safe_rules(rules)
    if kind is None:
        return None
    tops = None
    for m in moves:
        if m.kind != "move" or m.dst[0] != "f":
            continue
        if kind == "any":
            return m
        c = state.piles[m.src].cards[-1]
        if c.rank <= 2:
            return m
        if tops is None:
            tops = _foundation_tops(state)
        other = ("D", "H") if c.colour == "black" else ("C", "S")
        if all(tops[s] >= c.rank - 1 for s in other):
            return m
    return None


def _waste_plays(rules: Rules, state: GameState, top: PlayingCard) -> list[str]:
    """Where ``top`` could go if it were the waste's top card: the first foundation that takes it
    and every tableau pile it builds on (or whose space takes it)."""
    dests = []
    for dst in state.piles:
        if dst[0] == "f":
            if foundation_allows(rules, state, dst, top) is None:
                dests.append(dst)
                break
    for dst, pile in state.piles.items():
        if dst[0] == "t":
            if pile.cards:
                if builds_on(rules, pile.cards[-1], top):
                    dests.append(dst)
            elif space_allows(rules, state, [top]) is None:
                dests.append(dst)
    return dests


def _reachable_tops(rules: Rules, state: GameState, cache: dict) -> list[tuple[list[Move], PlayingCard]]:
    """Each card that turning the stock (and redealing) k ≥ 1 times brings to the top of the waste,
    with the turns that do it, fewest first.  Depends only on the stock and waste, so it is cached."""
    hand, pile = state.piles["s"], state.piles["w"]
    unlimited = state.options.get("redeals") == "unlimited"
    key = ("".join([c.char for c in hand.cards]), "".join([c.char for c in pile.cards]),
           0 if unlimited else state.redeals)
    hit = cache.get(key)
    if hit is not None:
        return hit
    scratch = GameState(state.game, state.options, state.deal_number,
                        {"s": Pile(hand.cards[:], hand.hidden), "w": Pile(pile.cards[:], pile.hidden)},
                        state.redeals, dict(state.counters), rng_state=state.rng_state)
    out: list[tuple[list[Move], PlayingCard]] = []
    seen_cards: set[str] = set()
    prefix: list[Move] = []
    positions = set()
    while True:
        turn = Move("stock") if scratch.piles["s"].cards else Move("redeal")
        action = rules.actions.get(turn.kind)
        if action is None or action.check(scratch, turn) is not None:
            break
        action.run(scratch, turn)
        prefix.append(turn)
        position = (len(scratch.piles["s"].cards), 0 if unlimited else scratch.redeals)
        if position in positions:
            break
        positions.add(position)
        if scratch.piles["w"].cards:
            top = scratch.piles["w"].cards[-1]
            if top.name not in seen_cards:
                seen_cards.add(top.name)
                out.append((prefix[:], top))
    cache[key] = out
    return out


def _stock_walk(rules: Rules, state: GameState, cache: dict) -> list[list[Move]]:
    """Sequences 'turn the stock (and redeal) k times, then play the waste card', one per card and
    destination, fewest turns first — the stock as one macro move, so depth is spent on real play."""
    out: list[list[Move]] = []
    for prefix, top in _reachable_tops(rules, state, cache):
        for dst in _waste_plays(rules, state, top):
            out.append(prefix + [Move("move", ("w", dst))])
    return out


def ordered_moves(state: GameState, cache: dict | None = None) -> list[list[Move]]:
    """The move sequences the solver tries from ``state``, best first (one safe move if there is one).

    Usually each sequence is a single move; in games with a stock turned onto a waste, turning the
    stock until a card can be played is one sequence (see :func:`_stock_walk`)."""
    rules = rules_of(state)
    moves = legal_moves(state, prune=True)
    safe = safe_move(rules, state, moves)
    if safe is not None:
        return [[safe]]
    if "w" not in state.piles or "h" in state.piles or "stock" not in rules.actions:  # h: no stock walk
        return [[m] for m in sorted(moves, key=lambda m: _priority(state, m))]
    seqs = [[m] for m in moves if m.kind not in CYCLE_KINDS]
    seqs += _stock_walk(rules, state, {} if cache is None else cache)
    return sorted(seqs, key=lambda s: (_priority(state, s[-1]), len(s)))


def distance(state: GameState) -> int:
    """How far the position looks from a win: cards not yet home, face-down cards counted twice
    (or the game's own measure, ``Rules.distance``)."""
    rules = rules_of(state)
    if rules.distance is not None:
        return rules.distance(state)
    total = 0
    for name, p in state.piles.items():
        if name[0] not in "fd":
            total += len(p.cards) + p.hidden
    return total


def _expand(state: GameState, seen: set, cache: dict,
            width: int | None = None) -> list[tuple[GameState, list[Move]]]:
    """The unseen children of a position, most promising first (by :func:`distance`, then by kind
    of move), at most ``width`` of them."""
    scored = []
    keys = {}
    for rank, seq in enumerate(ordered_moves(state, cache)):
        child = state.copy()
        try:
            done = [apply_in_place(child, m, record=False, checked=i < len(seq) - 1 or len(seq) == 1)
                    for i, m in enumerate(seq)]
        except IllegalMove:      # a stock macro whose play an automatic move made impossible
            continue
        key = state_key(child)
        if key in seen or key in keys:
            continue
        keys[key] = rank
        scored.append((distance(child), rank, key, child, done))
    scored.sort(key=lambda t: (t[0], t[1]))
    if width is not None:
        del scored[width:]
    seen.update(t[2] for t in scored)
    return [(child, done) for _, _, _, child, done in scored]


def _depth_first(root: GameState, max_nodes: int, width: int | None, cache: dict) -> SolveResult:
    """One depth-first search trying at most ``width`` children per position (all if None)."""
    seen = {state_key(root)}
    stack: list[tuple[list[tuple[GameState, list[Move]]], int]] = [(_expand(root, seen, cache, width), 0)]
    path: list[list[Move]] = []
    nodes = 1
    while stack:
        children, i = stack[-1]
        if i >= len(children):
            stack.pop()
            if path:
                path.pop()
            continue
        stack[-1] = (children, i + 1)
        child, done = children[i]
        path.append(done)
        if is_won(child):
            return SolveResult(WON, [m for seq in path for m in seq], nodes)
        if nodes >= max_nodes:
            return SolveResult(LIMIT, [], nodes)
        nodes += 1
        stack.append((_expand(child, seen, cache, width), 0))
    return SolveResult(EXHAUSTED, [], nodes)


def solve(state: GameState, max_nodes: int = DEFAULT_MAX_NODES) -> SolveResult:
    """Search for a win from ``state`` expanding at most ``max_nodes`` positions (depth first)."""
    root = state.copy()
    root.history, root.future = [], []
    if is_won(root):
        return SolveResult(WON, [], 0)
    return _depth_first(root, max_nodes, None, {})


def hint(state: GameState, max_nodes: int = 5_000) -> Move | None:
    """A suggested next move: the first move of a win found within ``max_nodes``, else the move the
    solver would try first; None if there is no legal move."""
    result = solve(state, max_nodes)
    if result.won and result.moves:
        return result.moves[0]
    seqs = ordered_moves(state)
    return seqs[0][0] if seqs else None
