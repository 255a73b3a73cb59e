"""The rules of the four games behind one contract (see :mod:`soccerdesk.rules.api`).

Pure Python, standard library only: no Qt, no asyncio, no network or file I/O here
except the one-time load of each game's content data from ``resources/games``.

    >>> from soccerdesk.rules import get_game
    >>> game = get_game("soccer-go")
    >>> state = game.new_match(seed=7)
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Mapping
from typing import Any

from soccerdesk.resources import load_game_data
from soccerdesk.rules.api import (
    CHANCE,
    HIDDEN,
    SEATS,
    Action,
    BadOption,
    CorruptRecord,
    Event,
    Game,
    IllegalAction,
    MatchInfo,
    NoEnd,
    Option,
    RulesError,
    State,
    UnknownGame,
    decided_words,
    play_out,
    random_action,
    result_words,
    sample_chance,
)

# id -> module that defines ``make_game(data: dict) -> Game``. Order is the order
# games are shown to players.
_MODULES: dict[str, str] = {
    "big-time-soccer": "soccerdesk.rules.big_time_soccer",
    "pawn-soccer": "soccerdesk.rules.pawn_soccer",
    "soccero": "soccerdesk.rules.soccero",
    "soccer-go": "soccerdesk.rules.soccer_go",
}

GAMES: tuple[str, ...] = tuple(_MODULES)
"""Ids of every registered game."""

_loaded: dict[str, Game] = {}
_loading = threading.RLock()


def get_game(game_id: str) -> Game:
    """The game with this id. Unknown ids raise UnknownGame listing the known ones.

    One :class:`Game` per id for the whole process, whichever thread asks first: the app loads
    every game in the background while opening a match file loads its game at once, and a
    second copy would not know the first one's actions (Soccero's are told apart by identity),
    so a file opened at that moment refused every move."""
    game = _loaded.get(game_id)
    if game is not None:
        return game
    if game_id not in _MODULES:
        raise UnknownGame(f"no game {game_id!r}; known games: {', '.join(GAMES)}")
    with _loading:
        game = _loaded.get(game_id)
        if game is None:
            module = importlib.import_module(_MODULES[game_id])
            data: Mapping[str, Any] = load_game_data(game_id)
            game = _loaded[game_id] = module.make_game(data)
    return game


def all_games() -> list[Game]:
    return [get_game(g) for g in GAMES]


__all__ = [
    "CHANCE",
    "GAMES",
    "HIDDEN",
    "SEATS",
    "Action",
    "BadOption",
    "CorruptRecord",
    "Event",
    "Game",
    "IllegalAction",
    "MatchInfo",
    "NoEnd",
    "Option",
    "RulesError",
    "State",
    "UnknownGame",
    "all_games",
    "decided_words",
    "get_game",
    "play_out",
    "random_action",
    "result_words",
    "sample_chance",
]
