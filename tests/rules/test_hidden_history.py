"""A determinized state's history shows only what its seat saw (ARCHITECTURE.md, Bots).

A bot is handed ``state.determinize(seat, rng)``: its hidden things are resampled, and its
history must not tell the real ones either (the opponent's draws, the card it put aside, a
face-down pick not shown yet). Which actions a seat did not see is worked out here from the
positions themselves (whose hand grew, who holds the drawn card), not from the rules' own
:meth:`_secret`."""

from __future__ import annotations

import gc
import pickle
import random
import types
from collections.abc import Callable

import pytest

from soccerdesk.bots import Bot
from soccerdesk.rules import CHANCE, HIDDEN, Action, MatchInfo, State, get_game, random_action, sample_chance
from soccerdesk.rules.pawn_soccer import PENALTY
from soccerdesk.rules.soccer_go import SIMULTANEOUS, SWAP, Play

Oracle = Callable[[State, int, Action, State], "int | None"]
"""(before, seat, action, after) -> the seat that did not see the action, or None."""


def _big_time_soccer_hidden(before: State, seat: int, action: Action, after: State) -> int | None:
    if seat != CHANCE:
        return None
    grew = [q for q in (0, 1) if len(after.hands[q]) > len(before.hands[q])]  # type: ignore[attr-defined]
    return 1 - grew[0] if grew else None  # a card drawn: only its drawer sees it


def _soccer_go_hidden(before: State, seat: int, action: Action, after: State) -> int | None:
    if seat == CHANCE:
        grew = [q for q in (0, 1) if len(after.hands[q]) > len(before.hands[q])]  # type: ignore[attr-defined]
        if grew:
            return 1 - grew[0]  # dealt
        if after.drawn is not None:  # type: ignore[attr-defined]
            return 1 - after.current_players()[0]  # drawn: the drawer holds it while it swaps
        return None
    if before.phase == SWAP:  # type: ignore[attr-defined]
        return 1 - seat  # the card put aside (or the one drawn) goes face down
    return None


def _play(game_id: str, seed: int, plies: int, match_seed: int | None = None) -> list[tuple[State, int, Action, State]]:
    """A random match (actions drawn from ``random.Random(seed)``), step by step."""
    state = get_game(game_id).new_match(seed=seed if match_seed is None else match_seed)
    rng = random.Random(seed)
    steps = []
    while state.current_players() and len(steps) < plies:
        seat = state.current_players()[0]
        action = sample_chance(state, rng) if seat == CHANCE else random_action(state, seat, rng)
        after = state.apply(seat, action)
        steps.append((state, seat, action, after))
        state = after
    return steps


def _unshown_pick(steps: list[tuple[State, int, Action, State]], index: int, seat: int) -> bool:
    """Whether entry ``index`` is the other seat's face-down pick that ``seat`` has not seen by the
    last step's position: laid first and still face down (it is shown when the second one is laid),
    or taken back by a card ``seat`` played instead of laying its own, and so never shown."""
    before, who, action, after = steps[index]
    if who != 1 - seat or isinstance(action, Play):
        return False
    if before.game.id == "soccer-go":
        laid_first = before.phase in SIMULTANEOUS and after.choice[who] is not None  # type: ignore[attr-defined]
    else:
        laid_first = before.phase == PENALTY and after.phase == PENALTY and bool(after.picks[who])  # type: ignore[attr-defined]
    if not laid_first:
        return False
    return index == len(steps) - 1 or isinstance(steps[index + 1][2], Play)


@pytest.mark.parametrize(
    ("game_id", "oracle", "seed"),
    [
        ("big-time-soccer", _big_time_soccer_hidden, 5),
        ("soccer-go", _soccer_go_hidden, 5),
        ("pawn-soccer", lambda *_: None, 22),  # a penalty in this match
        ("soccero", lambda *_: None, 5),
    ],
)
def test_a_world_shows_its_seat_only_what_it_saw(game_id: str, oracle: Oracle, seed: int) -> None:
    steps = _play(game_id, seed, 1500)
    hidden_from = [oracle(*step) for step in steps]
    checked = masked = 0
    for end in range(1, len(steps)):
        state = steps[end - 1][3]
        players = state.current_players()
        if not players or players[0] == CHANCE:
            continue
        seat = players[0]
        world = state.determinize(seat, random.Random(end))
        assert world.view(seat) == state.view(seat)
        seen, real = world.history(), state.history()
        assert len(seen) == len(real) == world.ply == end
        for i, ((who, shown), (who_real, action)) in enumerate(zip(seen, real, strict=True)):
            assert who == who_real
            secret = hidden_from[i] == seat or _unshown_pick(steps[:end], i, seat)
            assert shown is (HIDDEN if secret else action) or (not secret and shown == action), (i, end)
            masked += secret
        checked += 1
    assert checked > 20
    if game_id != "soccero":
        assert masked > 0  # the oracle found hidden actions to check (Soccero has none)


def test_a_face_down_pick_is_hidden_until_both_are_laid() -> None:
    # Soccer-Go: at the second pick of a round, the first is hidden from the seat about to pick;
    # once both are laid, both seats see both.
    steps = _play("soccer-go", 7, 400)
    found = 0
    for index, (before, seat, action, after) in enumerate(steps):
        if seat == CHANCE or before.phase not in SIMULTANEOUS or isinstance(action, Play):  # type: ignore[attr-defined]
            continue
        if after.current_players() != (1 - seat,) or after.phase != before.phase:  # type: ignore[attr-defined]
            continue  # not laid first, or the round went on without a second pick
        other = 1 - seat
        assert after.determinize(other, random.Random(1)).history()[index] == (seat, HIDDEN)
        assert after.determinize(seat, random.Random(1)).history()[index] == (seat, action)
        if isinstance(steps[index + 1][2], Play):
            continue  # taken back by a card instead of the second pick: never shown (next test)
        shown = steps[index + 1][3]  # the second pick laid: the round is shown
        assert shown.determinize(other, random.Random(1)).history()[index] == (seat, action)
        found += 1
    assert found > 3


def test_a_face_down_pick_taken_back_by_a_card_is_never_shown() -> None:
    # Soccer-Go (docs/rulings.md): a card played instead of the second pick takes the first one
    # back unseen; the seat that played the card must not see it then or at any later position.
    steps = _play("soccer-go", 7, 1500)
    found = 0
    for index, (before, seat, action, after) in enumerate(steps[:-1]):
        if seat == CHANCE or before.phase not in SIMULTANEOUS or isinstance(action, Play):  # type: ignore[attr-defined]
            continue
        if after.current_players() != (1 - seat,) or not isinstance(steps[index + 1][2], Play):
            continue  # not laid first, or answered by the second pick (then both are shown)
        other = 1 - seat
        for later in (steps[index + 1][3], steps[-1][3]):
            assert later.determinize(other, random.Random(1)).history()[index] == (seat, HIDDEN)
            assert later.determinize(seat, random.Random(1)).history()[index] == (seat, action)
        found += 1
    assert found > 0


def test_a_world_of_a_world_and_its_continuations_keep_the_mask() -> None:
    steps = _play("big-time-soccer", 9, 300)
    state = steps[-1][3]
    seat = state.current_players()[0] if state.current_players()[0] != CHANCE else 0
    world = state.determinize(seat, random.Random(1))
    again = world.determinize(seat, random.Random(2))
    assert again.history() == world.history()
    assert HIDDEN in [a for _, a in world.history()]
    players = world.current_players()
    mover = players[0]
    action = sample_chance(world, random.Random(3)) if mover == CHANCE else world.legal_actions(mover)[0]
    after = world.apply(mover, action)
    assert after.history() == [*world.history(), (mover, action)]
    # Pickled (a bot's world sent to a worker process) it comes back the same, and still a world.
    back = pickle.loads(pickle.dumps(after))
    assert back.history() == after.history()
    assert back.determinize(seat, random.Random(4)).history() == after.history()


def test_a_bot_is_handed_the_masked_history() -> None:
    class Spy(Bot):
        name = "spy"

        def __init__(self) -> None:
            super().__init__("big-time-soccer")
            self.seen: list[list[tuple[int, Action]]] = []

        def choose(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
            self.seen.append(state.history())
            return legal[0]

    steps = _play("big-time-soccer", 11, 400)
    spy = Spy()
    for before, seat, _, _ in steps:
        if seat != CHANCE and len(before.legal_actions(seat)) > 1:
            spy.decide(before, seat, random.Random(0))
    opponent_draws = sum(1 for history in spy.seen for _, a in history if a is HIDDEN)
    assert spy.seen and opponent_draws > 0


REAL_SEED = 918_273_645
"""A seed no world may carry: with it, a bot could replay the match's chance draws (a local
match rolls its dice from the seed, ``ui/session.py``) or read the opponent's real draws."""


def _positions(game_id: str, plies: int, every: int, play: int = 3) -> list[State]:
    """Positions of a random match started from :data:`REAL_SEED`, where a seat decides (every
    ``every``-th ply; actions drawn from ``random.Random(play)``)."""
    steps = _play(game_id, play, plies, match_seed=REAL_SEED)
    return [before for before, seat, _, _ in steps if seat != CHANCE and before.ply % every == 0]


def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through its attributes and containers (not through
    classes, modules or functions: those lead to the whole program)."""
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType, property)
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return list(seen.values())


@pytest.mark.parametrize("game_id", ["big-time-soccer", "soccer-go", "pawn-soccer", "soccero"])
def test_a_world_carries_no_seed_of_the_real_match(game_id: str) -> None:
    positions = _positions(game_id, 300, 7)
    assert len(positions) > 5
    infos = set()
    for state in positions:
        seat = state.current_players()[0]
        world = state.determinize(seat, random.Random(state.ply))
        info = world.info
        assert info.seed != REAL_SEED
        assert (info.game_id, dict(info.options)) == (state.info.game_id, dict(state.options))
        # One info for every world of the match (a bot tells its matches apart by it), worlds of
        # worlds included, and it leads to no other.
        assert world.determinize(seat, random.Random(1)).info is info
        assert not [o for o in _reachable(world) if isinstance(o, MatchInfo) and o is not info]
        infos.add(id(info))
    assert len(infos) == 1
    # Worlds of two matches have equal infos when the matches' own are equal (a bot keeps what
    # it learnt about an opponent through a reload of the match), and only then.
    first = positions[0].determinize(0, random.Random(1)).info
    for seed, same in ((REAL_SEED, True), (REAL_SEED + 1, False)):
        other = get_game(game_id).new_match(seed=seed)
        assert (other.determinize(0, random.Random(1)).info == first) is same, seed


@pytest.mark.parametrize(
    ("game_id", "plies", "every", "play"),
    [("big-time-soccer", 400, 3, 3), ("soccer-go", 400, 3, 3), ("pawn-soccer", 1500, 1, 22)],  # 22: a penalty
)
def test_a_used_world_reaches_nothing_of_the_real_history(game_id: str, plies: int, every: int, play: int) -> None:
    # A world's history, once read, holds only its seat's copy: not a node of the real one,
    # whose entries hold the opponent's real draws and its picks not shown yet.
    checked = 0
    for state in _positions(game_id, plies, every, play):
        seat = state.current_players()[0]
        world = state.determinize(seat, random.Random(state.ply))
        seen = world.history()
        if HIDDEN not in [a for _, a in seen]:
            continue
        real: set[int] = set()
        node = state._history
        while node is not None:
            real.add(id(node))
            node = node.previous
        later = world.apply(*next((s, a) for s in world.current_players() for a in world.legal_actions(s)))
        for used in (world, later):
            leaks = [o for o in _reachable(used) if id(o) in real]
            assert not leaks, f"ply {state.ply}: the world reaches {len(leaks)} nodes of the real history"
        assert world.history() == seen and later.history()[:-1] == seen
        checked += 1
    assert checked > 0
