"""The toy game of ``tests/rules/test_api.py`` ("odds and evens"), loaded for the UI tests.

Loaded from its file so the UI tests share the one copy of the toy game.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

from soccerdesk.bots import Bot, RandomBot
from soccerdesk.rules import Action, Game, State

_spec = importlib.util.spec_from_file_location("_toy_odds", Path(__file__).parent.parent / "rules" / "test_api.py")
assert _spec is not None and _spec.loader is not None
_module = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _module  # dataclasses look their module up while the class is made
_spec.loader.exec_module(_module)

GAME: Game = _module.GAME


class FirstBot(Bot):
    """Always the first legal action: predictable for tests."""

    name = "first"

    def choose(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        return legal[0]


def toy_bots(name: str, game_id: str) -> Bot:
    """A bot factory for the toy game (``make_bot`` knows only registered games)."""
    return FirstBot(game_id) if name == "first" else RandomBot(game_id)
