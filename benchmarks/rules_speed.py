#!/usr/bin/env python3
"""Random-playout speed of every game's rules, with python-chess beside them in the same run.

An "action" is one legal-move generation + one apply (a chance draw counts too).
Prints actions per second for each game and its ratio to python-chess. Machines are
shared and noisy, so each game is timed in short slices taking turns with python-chess
(load that comes and goes weighs on both alike), and on this process's CPU time rather
than the wall clock (time spent waiting for a core does not count). Read the ratios.

    python benchmarks/rules_speed.py [--seconds 3] [--game soccer-go]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from soccerdesk.rules import GAMES, get_game
from soccerdesk.rules.api import random_action

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "soccero": [{}, {"extended": True}],
    "big-time-soccer": [{}, {"mode": "cup"}],
}
SLICES = 6  # turns each side takes per measurement


def game_player(game_id: str, options: dict) -> Callable[[], int]:
    """A function that plays random matches of the game for one action at a time (the count)."""
    game = get_game(game_id)
    rng = random.Random(1)
    seed = 0
    state = game.new_match(seed=seed, **options)

    def step() -> int:
        nonlocal state, seed
        players = state.current_players()
        if not players:
            seed += 1
            state = game.new_match(seed=seed, **options)
            return 0
        state = state.apply(players[0], random_action(state, players[0], rng))
        return 1

    return step


def chess_player() -> Callable[[], int]:
    import chess

    rng = random.Random(1)
    board = chess.Board()

    def step() -> int:
        nonlocal board
        if board.is_game_over(claim_draw=False) or board.ply() >= 400:
            board = chess.Board()
            return 0
        moves = list(board.legal_moves)
        board.push(moves[rng.randrange(len(moves))])
        return 1

    return step


def timed(step: Callable[[], int], seconds: float) -> tuple[int, float]:
    """(actions, CPU seconds) of ``step`` run for about ``seconds`` of this process's CPU time."""
    clock = time.process_time
    actions = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        for _ in range(50):
            actions += step()
    return actions, clock() - start


def paired_rates(game: Callable[[], int], chess: Callable[[], int], seconds: float) -> tuple[float, float]:
    """Rates (actions per CPU second) of a game and of python-chess, timed in alternating slices."""
    totals = [0, 0.0, 0, 0.0]
    for _ in range(SLICES):
        for i, step in ((0, chess), (2, game)):
            n, t = timed(step, seconds / SLICES)
            totals[i] += n
            totals[i + 1] += t
    return totals[2] / totals[3], totals[0] / totals[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", choices=GAMES, action="append")
    args = parser.parse_args()
    chess = chess_player()
    references = []
    rows = []
    for game_id in args.game or GAMES:
        for options in VARIANTS.get(game_id, [{}]):
            label = game_id + "".join(f" {k}={v}" for k, v in options.items())
            rate, reference = paired_rates(game_player(game_id, options), chess, args.seconds)
            references.append(reference)
            rows.append((label, rate, reference))
    mean = sum(references) / len(references)
    print(f"{'python-chess (reference, mean)':40s} {mean:12,.0f} actions/s   ratio 1.00")
    for label, rate, reference in rows:
        print(
            f"{label:40s} {rate:12,.0f} actions/s   ratio {rate / reference:.2f}   (python-chess beside it {reference:,.0f})"
        )
    print(f"{'python-chess spread (lowest / highest)':40s} {min(references) / max(references):12.2f}")


if __name__ == "__main__":
    main()
