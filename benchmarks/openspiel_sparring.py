"""Our bot levels against OpenSpiel's information-set MCTS, at equal time per decision.

    .venv/bin/pip install open_spiel      # only for this benchmark; not a dependency of the app
    nice -n 19 .venv/bin/python benchmarks/openspiel_sparring.py --levels normal hard --matches 10

For every game and level it plays ``--matches`` matches of the level against OpenSpiel's
ISMCTS with random rollouts, seats alternating, and prints the level's wins, losses and draws,
its share of the decided matches with a 95% Wilson interval, and the wall-clock and CPU time
each side actually spent per decision.

**Equal time.** Before each of its decisions the ISMCTS side gets the wall-clock budget that
keeps its mean time per decision equal to the mean of the level's decisions so far in the
same match (:func:`equal_time`: the level's mean, plus what the ISMCTS side was short of
before, or less what it overran, up to three times the mean); while the level has not decided
yet in a match, its mean in the previous matches of the run counts (at the very first
decision of a run: nothing). Only real decisions count, on both sides: where one action is
legal, both sides answer at once. Both sides run in the same process, one after the other, so a busy machine
slows both alike. The budget bounds the search loop and each random rollout (a rollout still
running at the deadline is cut and judged by the score at that moment: a lead wins, a level
score draws). A decision always runs at least :data:`MIN_SIMULATIONS` simulations, the fewest
that choose an action at all; with a budget of a few milliseconds (``easy``, ``normal``) the
search cannot finish one rollout and plays an action it tried once, i.e. a random one.

**The wrapper.** :class:`SoccerdeskGame` is a Python game of ``pyspiel`` (registered as
``python_soccerdesk_<game>``) over the rules contract of ``soccerdesk.rules``:

- chance nodes are the contract's own (dice, draws, tosses, with their probabilities);
- an action is numbered by the CRC-32 of its text (stable across worlds, runs and machines;
  two texts with one number would raise);
- Soccer-Go's simultaneous face-down picks are sequential moves, seat 0 first: the rules keep a
  laid pick out of the other seat's view until both are in, so the second seat's information
  state does not show the first pick;
- a seat's information-state string is its ``view(seat)`` (everything the seat may know, its
  legal actions included), so two worlds the seat cannot tell apart share a tree node.

**Only what its seat may see.** The ISMCTS bot is handed a determinization
(``state.determinize(seat, rng)``), never the real state, and resamples its worlds with
``determinize`` again through ``ISMCTSBot.set_resampler``; ``tests/bots/test_openspiel_wrapper.py``
checks that a second world the seat cannot tell apart gives the same decision.

**Which ISMCTS.** OpenSpiel's C++ ``pyspiel.ISMCTSBot`` cannot search a Python game: it
resamples worlds with the C++ ``State::ResampleFromInfostate``, which the Python-game
trampoline (``PyState``) does not forward to Python, and the C++ bot has no resampler hook in
the Python bindings: ``resample_from_infostate`` on a Python state raises
"ResampleFromInfostate() not implemented", and ``pyspiel.ISMCTSBot.step`` on one kills the
process (a segmentation fault, with OpenSpiel's own ``python_kuhn_poker`` too). This benchmark uses OpenSpiel's Python port of the same algorithm
(``open_spiel.python.algorithms.ismcts.ISMCTSBot``: UCT over information-state nodes, one
resampled world per simulation, final choice by most visits) with :class:`TimedISMCTS` adding
the clock; the random rollouts (:class:`RandomRollouts`) step our rules directly instead of
through the trampoline, which would only make each rollout slower.

Randomness is explicit: every match seed comes from ``--seed``; chance, each of our bots and
the ISMCTS side have their own generators seeded from it. The match records replay exactly;
the ISMCTS side's choices depend on the clock and so do not repeat from run to run.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as missing:  # an optional tool: say what it needs, even for --help
    raise SystemExit(f"openspiel_sparring.py needs OpenSpiel: pip install open_spiel (and numpy) — {missing}") from None
from open_spiel.python.algorithms import ismcts
from open_spiel.python.algorithms.mcts import Evaluator

from soccerdesk.bots import Bot, make_bot
from soccerdesk.rules import CHANCE, GAMES, Action, State, get_game, play_out
from soccerdesk.sim import play_match, wilson

MIN_SIMULATIONS = 2
"""The first simulation of a search only opens the root; the second tries one action."""

UCT_C = 2.0
"""Exploration constant of the ISMCTS bot (OpenSpiel's examples use 2 for returns in [-1, 1])."""

SHORT_NAME = "python_soccerdesk_{}"


def short_name(game_id: str) -> str:
    return SHORT_NAME.format(game_id.replace("-", "_"))


# --- action numbers -----------------------------------------------------------------------


class ActionNumbers:
    """Numbers for one game's actions: the CRC-32 of the action text (31 bits), both ways."""

    def __init__(self) -> None:
        self._number: dict[Action, int] = {}
        self._action: dict[int, Action] = {}

    def number(self, action: Action) -> int:
        found = self._number.get(action)
        if found is None:
            found = zlib.crc32(str(action).encode()) & 0x7FFFFFFF
            other = self._action.setdefault(found, action)
            if str(other) != str(action):
                raise ValueError(f"actions {other} and {action} share the number {found}")
            self._number[action] = found
        return found

    def action(self, number: int) -> Action:
        return self._action[int(number)]


_NUMBERS: dict[str, ActionNumbers] = {}


def numbers_of(game_id: str) -> ActionNumbers:
    found = _NUMBERS.get(game_id)
    if found is None:
        found = _NUMBERS[game_id] = ActionNumbers()
    return found


# --- the pyspiel game ---------------------------------------------------------------------


def _game_type(game_id: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"soccerdesk {get_game(game_id).title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        # Pawn Soccer and Soccero hide nothing (determinize returns the state itself); ISMCTS
        # wants every game declared imperfect, and is then plain MCTS keyed by the views.
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"seed": 0, "options": "{}"},
    )


_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=0x7FFFFFFF,
    max_chance_outcomes=0x7FFFFFFF,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=200_000,
)


class SoccerdeskGame(pyspiel.Game):
    """One soccerdesk game (with a seed and options) as a pyspiel Python game."""

    game_id: str = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        super().__init__(_game_type(self.game_id), _GAME_INFO, params)
        options = json.loads(params.get("options", "{}"))
        self.rules = get_game(self.game_id)
        self.initial: State = self.rules.new_match(seed=int(params.get("seed", 0)), **options)
        self.numbers = numbers_of(self.game_id)

    def new_initial_state(self) -> SoccerdeskState:
        return SoccerdeskState(self, self.initial)

    def wrap(self, inner: State) -> SoccerdeskState:
        """A pyspiel state over one of our states (of this game)."""
        return SoccerdeskState(self, inner)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        return ViewObserver()


class SoccerdeskState(pyspiel.State):
    """A pyspiel state over an immutable soccerdesk state (``inner``); applying an action
    replaces ``inner``. Its ``__dict__`` holds ``inner``, which copies as itself, and the
    answers ISMCTS asks for several times a node (the last information-state string, the legal
    action numbers), so the trampoline's clone costs one new wrapper."""

    def __init__(self, game: SoccerdeskGame, inner: State) -> None:
        super().__init__(game)
        self.inner = inner
        self.told: tuple[int, str] | None = None
        self.moves: tuple[int, ...] | None = None  # the legal action numbers, once asked

    def _numbers(self) -> ActionNumbers:
        return numbers_of(self.inner.game.id)

    def current_player(self) -> int:
        players = self.inner.current_players()
        if not players:
            return int(pyspiel.PlayerId.TERMINAL)
        if players[0] == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return players[0]  # a simultaneous pick: seat 0 lays first, seat 1 does not see it

    def _legal_actions(self, player: int) -> list[int]:
        if self.moves is None:  # only the deciding seat is ever asked
            numbers = self._numbers()
            self.moves = tuple(sorted(numbers.number(a) for a in self.inner.legal_actions(player)))
        return list(self.moves)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        numbers = self._numbers()
        return sorted((numbers.number(a), p) for a, p in self.inner.chance_outcomes())

    def _apply_action(self, number: int) -> None:
        seat = self.inner.current_players()[0]
        self.inner = self.inner.apply_unchecked(seat, self._numbers().action(number))
        self.told = self.moves = None

    def _action_to_string(self, player: int, number: int) -> str:
        return str(self._numbers().action(number))

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return outcome(self.inner) if self.inner.is_terminal() else [0.0, 0.0]

    def __str__(self) -> str:
        return json.dumps(self.inner.view(None), sort_keys=True)


def outcome(state: State) -> list[float]:
    """Returns by the score as it stands: +1 for the side ahead, -1 behind, 0 level."""
    a, b = state.score
    lead = (a > b) - (a < b)
    return [float(lead), float(-lead)]


def information_state(state: State, seat: int) -> str:
    """Everything ``seat`` may know of ``state``, as text: its view."""
    return json.dumps(state.view(seat), sort_keys=True, separators=(",", ":"))


class ViewObserver:
    """The observer pyspiel asks for information-state and observation strings (no tensors)."""

    tensor = None

    def __init__(self) -> None:
        self.dict: dict[str, Any] = {}

    def set_from(self, state: SoccerdeskState, player: int) -> None:
        pass  # strings only: there is no tensor to fill

    def string_from(self, state: SoccerdeskState, player: int) -> str:
        told = state.told
        if told is None or told[0] != player:
            told = state.told = (player, information_state(state.inner, player))
        return told[1]


def register_games() -> None:
    """Register every soccerdesk game with pyspiel (once per process)."""
    known = set(pyspiel.registered_names())
    for game_id in GAMES:
        name = short_name(game_id)
        if name in known:
            continue
        cls = type(f"SoccerdeskGame_{game_id.replace('-', '_')}", (SoccerdeskGame,), {"game_id": game_id})
        pyspiel.register_game(_game_type(game_id), cls)


def load(game_id: str, seed: int, options: Mapping[str, Any]) -> SoccerdeskGame:
    register_games()
    game = pyspiel.load_game(short_name(game_id), {"seed": seed, "options": json.dumps(dict(options))})
    assert isinstance(game, SoccerdeskGame)
    return game


# --- the ISMCTS side ----------------------------------------------------------------------


class Clock:
    """The deadline of the decision under way (``None``: no clock, an iteration cap only)."""

    def __init__(self) -> None:
        self.deadline: float | None = None

    def expired(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline


class RandomRollouts(Evaluator):
    """Uniformly random actions (chance by its probabilities) to the end of the match, on our
    rules directly; cut at the deadline and judged by the score then. Uniform prior."""

    def __init__(self, clock: Clock, rng: random.Random) -> None:
        self.clock = clock
        self.rng = rng

    def evaluate(self, state: SoccerdeskState) -> np.ndarray:
        end = play_out(state.inner, None, self.rng, None, stop=lambda _: self.clock.expired(), checked=False)
        return np.array(outcome(end))

    def prior(self, state: SoccerdeskState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class TimedISMCTS(ismcts.ISMCTSBot):
    """OpenSpiel's Python ISMCTS, searching until the clock runs out (or ``cap`` simulations)."""

    def __init__(self, game: SoccerdeskGame, clock: Clock, rollouts: RandomRollouts, seed: int) -> None:
        super().__init__(
            game,
            rollouts,
            UCT_C,
            max_simulations=0,  # unused: run_search below loops on the clock
            random_state=np.random.RandomState(seed),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        self.clock = clock
        self.cap: int | None = None
        self.simulations = 0

    def run_search(self, state: SoccerdeskState) -> list[tuple[int, float]]:
        self.reset()
        self.simulations = 0
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        key = self.get_state_key(state)
        while self.simulations < MIN_SIMULATIONS or not (
            self.clock.expired() or self.cap is not None and self.simulations >= self.cap
        ):
            world = self.sample_root_state(state)
            if self.get_state_key(world) != key:
                raise AssertionError("a resampled world looks different to the searching seat")
            self.run_simulation(world)
            self.simulations += 1
        return self.get_final_policy(state, self._root_node)


class SparringBot:
    """OpenSpiel's ISMCTS with random rollouts, for one seat of one match.

    :meth:`decide` takes a wall-clock ``budget`` in seconds (``None``: search ``cap``
    simulations, for tests). It hands the search a determinization for ``seat`` and
    resamples worlds with ``determinize``: it reads nothing its seat cannot see.
    """

    name = "ismcts"

    def __init__(self, game: SoccerdeskGame, seed: int) -> None:
        self.game = game
        self.worlds = random.Random(seed)
        self.clock = Clock()
        self.search = TimedISMCTS(game, self.clock, RandomRollouts(self.clock, random.Random(seed + 1)), seed + 2)
        self.search.set_resampler(self._resample)
        self.simulations: list[int] = []

    def _resample(self, state: SoccerdeskState, player: int) -> SoccerdeskState:
        return self.game.wrap(state.inner.determinize(player, self.worlds))

    def decide(self, state: State, seat: int, budget: float | None, cap: int | None = None) -> Action:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        root = self.game.wrap(state.determinize(seat, self.worlds))
        if root.current_player() != seat:
            raise ValueError(f"seat {seat} does not decide first here (a simultaneous pick: seat 0 lays first)")
        self.clock.deadline = None if budget is None else time.perf_counter() + budget
        self.search.cap = cap
        number = self.search.step(root)
        self.simulations.append(self.search.simulations)
        return self.game.numbers.action(number)


# --- matches ------------------------------------------------------------------------------


@dataclass
class Match:
    seed: int
    level_seat: int
    score: tuple[int, int]  # goals of the level, goals of ISMCTS
    winner: str | None  # "level", "ismcts" or None
    level_s: list[float] = field(default_factory=list)  # wall-clock seconds of real decisions
    level_cpu: list[float] = field(default_factory=list)
    ismcts_s: list[float] = field(default_factory=list)
    ismcts_cpu: list[float] = field(default_factory=list)
    ismcts_budget: list[float] = field(default_factory=list)
    simulations: list[int] = field(default_factory=list)
    plies: int = 0


CATCH_UP = 3.0
"""A decision of the ISMCTS side may take up to this many times the level's mean to make up
for time it was short of before (the level's decisions can get slower as a match goes on)."""


def equal_time(level: Sequence[float], ismcts_spent: Sequence[float]) -> float:
    """Seconds for the next decision of the ISMCTS side: what keeps its mean time per decision
    equal to the level's mean so far (``level``), counting what it already spent and taking
    at most :data:`CATCH_UP` times that mean in one decision (0 while the level has no times)."""
    if not level:
        return 0.0
    mean = sum(level) / len(level)
    owed = mean * (len(ismcts_spent) + 1) - sum(ismcts_spent)
    return min(max(owed, 0.0), CATCH_UP * mean)


class _Side:
    """One side of a sparring match for :func:`soccerdesk.sim.play_match`: ``decide(state,
    seat, rng, real)`` makes its decisions, and those that are real (more than one legal
    action) have their wall-clock and CPU seconds noted in ``wall`` and ``cpu``."""

    def __init__(
        self, decide: Callable[[State, int, random.Random, bool], Action], wall: list[float], cpu: list[float]
    ) -> None:
        self._decide = decide
        self.wall = wall
        self.cpu = cpu

    def decide(self, state: State, seat: int, rng: random.Random) -> Action:
        real = len(state.legal_actions(seat)) > 1
        t0, c0 = time.perf_counter(), time.process_time()
        action = self._decide(state, seat, rng, real)
        if real:
            self.wall.append(time.perf_counter() - t0)
            self.cpu.append(time.process_time() - c0)
        return action


def play(
    game_id: str, level: str, seed: int, level_seat: int, options: Mapping[str, Any], earlier: Sequence[float]
) -> Match:
    """One match of ``level`` (at ``level_seat``) against ISMCTS at equal time per decision.
    ``earlier``: the level's decision times in the previous matches of the run."""
    game = load(game_id, seed, options)
    ours: Bot = make_bot(level, game_id)
    theirs = SparringBot(game, seed * 2 + 1 + (1 - level_seat))
    match = Match(seed, level_seat, (0, 0), None)

    def ismcts(state: State, seat: int, rng: random.Random, real: bool) -> Action:
        budget = equal_time(match.level_s or earlier, match.ismcts_s) if real else 0.0
        action = theirs.decide(state, seat, budget)
        if real:
            match.ismcts_budget.append(budget)
        return action

    sides = [
        _Side(lambda state, seat, rng, real: ours.decide(state, seat, rng), match.level_s, match.level_cpu),
        _Side(ismcts, match.ismcts_s, match.ismcts_cpu),
    ]
    # The level's generator is the simulator's for its seat: Random(seed * 2 + 1 + level_seat).
    result = play_match(game_id, sides, seed, level_seat == 1, dict(options), None)
    match.simulations = theirs.simulations
    match.plies = result.actions
    match.score = result.score
    if result.winner is not None:
        match.winner = ("level", "ismcts")[result.winner]
    return match


# --- the run ------------------------------------------------------------------------------

VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "pawn-soccer": ("pawn-soccer", {}),  # first to 3 goals, 100-turn cap (the game's defaults)
    "soccero": ("soccero", {}),
    "big-time-soccer": ("big-time-soccer", {}),
    "soccer-go": ("soccer-go", {}),
}
"""Name shown -> (game id, options): every game with its default options."""


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def summarise(game: str, level: str, matches: Sequence[Match], seconds: float) -> dict[str, Any]:
    wins = sum(m.winner == "level" for m in matches)
    losses = sum(m.winner == "ismcts" for m in matches)
    decided = wins + losses

    def pooled(name: str) -> list[float]:
        return [t for m in matches for t in getattr(m, name)]

    return {
        "game": game,
        "level": level,
        "matches": len(matches),
        "wins": wins,
        "losses": losses,
        "draws": len(matches) - decided,
        "share": wins / decided if decided else None,
        "ci95": list(wilson(wins, decided)) if decided else None,
        "goals": [sum(m.score[0] for m in matches), sum(m.score[1] for m in matches)],
        "level_ms": 1000 * _mean(pooled("level_s")),
        "level_cpu_ms": 1000 * _mean(pooled("level_cpu")),
        "ismcts_ms": 1000 * _mean(pooled("ismcts_s")),
        "ismcts_cpu_ms": 1000 * _mean(pooled("ismcts_cpu")),
        "ismcts_budget_ms": 1000 * _mean(pooled("ismcts_budget")),
        "simulations": _mean([float(n) for n in pooled("simulations")]),
        "seconds": seconds,
    }


def _row(r: dict[str, Any]) -> str:
    share = (
        "-" if r["share"] is None else f"{100 * r['share']:.0f}% ({100 * r['ci95'][0]:.0f}–{100 * r['ci95'][1]:.0f})"
    )
    return (
        f"| {r['game']} | {r['level']} | {r['matches']} | {r['wins']}-{r['losses']}-{r['draws']} | {share} "
        f"| {r['goals'][0]}:{r['goals'][1]} | {r['level_ms']:.1f} / {r['level_cpu_ms']:.1f} "
        f"| {r['ismcts_ms']:.1f} / {r['ismcts_cpu_ms']:.1f} | {r['simulations']:.1f} |"
    )


HEADER = (
    "| game | level | matches | level W-L-D | level's share of decided (95% CI) | goals level:ISMCTS "
    "| level ms/decision wall / CPU | ISMCTS ms/decision wall / CPU | ISMCTS simulations/decision |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


def run(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    parser.add_argument("--levels", nargs="+", default=["easy", "normal", "hard"])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first", type=int, default=0, help="skip this many matches (their seeds) of each series")
    parser.add_argument("--jsonl", type=Path, help="append one line per match here (as each match ends)")
    parser.add_argument("--table", type=Path, metavar="JSONL", help="only print the table of the matches in this file")
    args = parser.parse_args(argv)

    if args.table:
        return print_table(args.table)
    rows = []
    print(HEADER, flush=True)
    for game in args.games:
        game_id, options = VARIANTS[game]
        for level in args.levels:
            seeds = random.Random(f"{args.seed}/{game}")  # the same deals for every level
            matches: list[Match] = []
            start = time.perf_counter()
            for _ in range(args.first):
                seeds.randrange(2**31)
            for i in range(args.first, args.first + args.matches):
                earlier = [t for m in matches for t in m.level_s]
                match = play(game_id, level, seeds.randrange(2**31), i % 2, options, earlier)
                matches.append(match)
                if args.jsonl:
                    with args.jsonl.open("a") as out:
                        line = {"game": game, "level": level, "index": i, **match.__dict__}
                        out.write(json.dumps(line) + "\n")
                sys.stderr.write(
                    f"{game} {level} {i + 1}/{args.first + args.matches}: {match.winner or 'draw'} {match.score[0]}:{match.score[1]}"
                    f"  level {1000 * _mean(match.level_s):.1f} ms, ismcts {1000 * _mean(match.ismcts_s):.1f} ms"
                    f" ({_mean([float(n) for n in match.simulations]):.1f} simulations)\n"
                )
            row = summarise(game, level, matches, time.perf_counter() - start)
            rows.append(row)
            print(_row(row), flush=True)
    return rows


def print_table(path: Path) -> list[dict[str, Any]]:
    """The table of every (game, level) series in a ``--jsonl`` file, in the order first met
    (a match played twice, by index, counts once)."""
    series: dict[tuple[str, str], dict[int, Match]] = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        key = (record.pop("game"), record.pop("level"))
        index = record.pop("index")
        record["score"] = tuple(record["score"])
        series.setdefault(key, {})[index] = Match(**record)
    rows = [summarise(game, level, list(matches.values()), math.nan) for (game, level), matches in series.items()]
    print(HEADER)
    for row in rows:
        print(_row(row))
    return rows


if __name__ == "__main__":
    run()
