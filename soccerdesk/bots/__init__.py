"""Computer players. A bot sees only its seat: it decides from ``state.determinize(seat, rng)``.

    >>> bot = make_bot("heuristic", "soccer-go")
    >>> action = bot.decide(state, seat, rng)

Names: ``random``, ``heuristic`` (one per game, in ``soccerdesk.bots.<game module>``),
and the difficulty levels in :data:`LEVELS`.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable

from soccerdesk.rules import _MODULES as _RULE_MODULES
from soccerdesk.rules import GAMES, Action, IllegalAction, State


class Bot(ABC):
    """A computer player for one game.

    :meth:`decide` is the only entry point. It hands :meth:`choose` a
    *determinized* state, so no bot can read what its seat may not see.
    """

    name: str = "bot"

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id

    def decide(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = state.legal_actions(seat)  # raises IllegalAction when seat does not decide
        if len(legal) == 1:
            return legal[0]
        action = self.choose(state.determinize(seat, rng), seat, legal, rng)
        if action not in legal:
            raise IllegalAction(f"bot {self.name} chose {action}, which is not legal")
        return action

    @abstractmethod
    def choose(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        """Pick one of ``legal`` (two or more). ``state`` is a determinization for ``seat``."""


class RandomBot(Bot):
    """Uniformly random legal actions: the floor every other bot must beat."""

    name = "random"

    def choose(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        return legal[rng.randrange(len(legal))]


BotFactory = Callable[[str], Bot]

LEVELS: dict[str, BotFactory] = {}
"""Difficulty levels (``easy``, ``normal``, ``hard``, ``expert``) registered by the search module."""


def _heuristic(game_id: str) -> Bot:
    module_name = _RULE_MODULES[game_id].replace("soccerdesk.rules.", "soccerdesk.bots.")
    module = importlib.import_module(module_name)
    bot: Bot = module.HeuristicBot(game_id)
    return bot


def bot_names() -> list[str]:
    _load_levels()
    return ["random", "heuristic", *LEVELS]


def _load_levels() -> None:
    try:
        importlib.import_module("soccerdesk.bots.levels")
    except ModuleNotFoundError as exc:  # levels arrive with the search bots
        if exc.name != "soccerdesk.bots.levels":
            raise


def make_bot(name: str, game_id: str) -> Bot:
    """A new bot of this name for this game. Unknown names raise ValueError."""
    if game_id not in GAMES:
        raise ValueError(f"no game {game_id!r}; known games: {', '.join(GAMES)}")
    if name == "random":
        return RandomBot(game_id)
    if name == "heuristic":
        return _heuristic(game_id)
    _load_levels()
    if name in LEVELS:
        return LEVELS[name](game_id)
    raise ValueError(f"no bot {name!r}; known bots: {', '.join(bot_names())}")


__all__ = ["LEVELS", "Bot", "RandomBot", "bot_names", "make_bot"]
