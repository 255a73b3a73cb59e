"""The Soccer-Go board: every legal action is reachable by clicks, wrong clicks say why,
and every position of whole random matches draws (player, spectator and replay views)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from soccerdesk.rules import CHANCE, State, get_game, play_out
from soccerdesk.ui.boards import make_board
from soccerdesk.ui.boards.base import BoardConfig
from soccerdesk.ui.boards.soccer_go import SoccerGoBoard, path_of

GAME = "soccer-go"


def match_states(seed: int, **options: Any) -> list[State]:
    game = get_game(GAME)
    rng = random.Random(seed)
    final = play_out(game.new_match(seed=seed, **options), lambda s, seat: rng.choice(s.legal_actions(seat)), rng)
    return game.replay(game.dump(final))


@pytest.fixture(scope="module")
def states() -> list[State]:
    return [s for seed in (1, 2, 3) for s in match_states(seed)]


def test_the_registry_makes_this_board(qtbot) -> None:
    assert isinstance(make_board(BoardConfig(GAME, 0)), SoccerGoBoard)


def test_every_legal_action_is_played_by_its_clicks(qtbot, states: list[State]) -> None:
    """Rulebook: passes, marks, shots, saves, power cards (Joker's copy too), swaps, replies."""
    boards = {0: SoccerGoBoard(BoardConfig(GAME, 0)), 1: SoccerGoBoard(BoardConfig(GAME, 1))}
    verbs: set[str] = set()
    for state in states:
        for seat in state.current_players():
            if seat == CHANCE:
                continue
            view = state.view(seat)
            board = boards[seat]
            board.set_view(view)
            for text in view["legal"]:
                emitted: list[str] = []
                board.action_chosen.connect(emitted.append)
                assert board.play(text), f"{text}: a step of its click path is not drawn"
                board.action_chosen.disconnect(emitted.append)
                assert emitted == [text]
                verbs.add(text.split()[0])
    assert {"pass", "mark", "shoot", "save", "play", "no", "swap", "keep"} <= verbs


def test_a_retired_number_explains_itself(qtbot, states: list[State]) -> None:
    for state in states:
        players = state.current_players()
        view = state.view(players[0]) if players and players[0] != CHANCE else None
        if view and view["state"]["phase"] == "pass" and view["state"]["retired"] and view["legal"]:
            break
    else:
        pytest.fail("no pass with a retired number in these matches")
    board = SoccerGoBoard(BoardConfig(GAME, view["seat"]))
    board.set_view(view)
    hints: list[str] = []
    board.hint.connect(hints.append)
    board.click(("num", view["state"]["retired"][0]))
    assert hints and "retired" in hints[-1]


def test_spectator_and_replay_views_draw(qtbot, states: list[State]) -> None:
    spectator = SoccerGoBoard(BoardConfig(GAME, None))
    replay = SoccerGoBoard(BoardConfig(GAME, 0, reveal_all=True))
    for state in states[::7]:
        spectator.set_view(state.view(None))
        assert len(spectator.items()) > 10  # the table, cards and goal are drawn
        replay.set_view({**state.view(1), "legal": []})
        assert replay.targets == set()


def test_click_paths_of_the_action_texts() -> None:
    assert path_of("pass 2+5+9") == (("num", 2), ("num", 5), ("num", 9))
    assert path_of("play att-joker as shoot") == (("power", "att-joker"), ("as", "shoot"))
    assert path_of("save left") == (("dir", "left"),)
    assert path_of("no card") == (("action", "no card"),)
