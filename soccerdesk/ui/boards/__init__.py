"""The game boards, one module per game, found by game id and imported only when needed.

    >>> board = make_board(BoardConfig("soccer-go", perspective=0))

A board module defines one :class:`~soccerdesk.ui.boards.base.BoardScene` subclass (the
last one defined in the module is used, so helper classes may come first) or a function ``make_board(config)``.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from soccerdesk.ui.boards.base import BoardConfig, BoardScene, TeamColours

# The home screen asks only whether a board exists; the board classes and Qt's graphics
# scene they build on are loaded with the first match (a faster start).
_FROM_BASE = ("BoardConfig", "BoardScene", "TeamColours")


def __getattr__(name: str) -> Any:
    if name in _FROM_BASE:
        from soccerdesk.ui.boards import base

        return getattr(base, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


BOARD_MODULES: dict[str, str] = {
    "big-time-soccer": "soccerdesk.ui.boards.big_time_soccer",
    "pawn-soccer": "soccerdesk.ui.boards.pawn_soccer",
    "soccero": "soccerdesk.ui.boards.soccero",
    "soccer-go": "soccerdesk.ui.boards.soccer_go",
}


class BoardMissing(LookupError):
    """No board is drawn for this game yet (or its module is broken): the match cannot be shown."""


def board_available(game_id: str) -> bool:
    """Whether a board module exists for ``game_id`` (without importing it)."""
    module = BOARD_MODULES.get(game_id)
    return module is not None and importlib.util.find_spec(module) is not None


def board_class(game_id: str) -> type[BoardScene]:
    """The board class of a game. Raises :class:`BoardMissing` saying why there is none."""
    name = BOARD_MODULES.get(game_id)
    if name is None:
        raise BoardMissing(f"no board is registered for the game {game_id!r}")
    if importlib.util.find_spec(name) is None:
        raise BoardMissing(f"the board of {game_id!r} is not written yet ({name})")
    from soccerdesk.ui.boards.base import BoardScene

    module = importlib.import_module(name)
    found = [
        value
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, BoardScene) and value.__module__ == name
    ]
    if not found:
        raise BoardMissing(f"{name} defines no BoardScene subclass")
    return found[-1]


def make_board(config: BoardConfig) -> BoardScene:
    """A new board for ``config.game_id``. Raises :class:`BoardMissing` when there is none."""
    name = BOARD_MODULES.get(config.game_id)
    if name is not None and importlib.util.find_spec(name) is not None:
        factory = getattr(importlib.import_module(name), "make_board", None)
        if callable(factory):
            board: BoardScene = factory(config)
            return board
    return board_class(config.game_id)(config)


__all__ = [
    "BOARD_MODULES",
    "BoardConfig",
    "BoardMissing",
    "BoardScene",
    "TeamColours",
    "board_available",
    "make_board",
]
