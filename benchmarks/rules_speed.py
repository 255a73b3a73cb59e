#!/usr/bin/env python3
"""Random-playout speed of every game's rules, with python-chess beside them in the same run.

An "action" is one legal-move generation + one apply (a chance draw counts too).
Prints actions per second for each game and its ratio to python-chess. Machines are
shared and noisy: read the ratios, which are measured in one run, not the raw figures.

    python benchmarks/rules_speed.py [--seconds 3] [--game soccer-go]
"""

from __future__ import annotations

import argparse
import random
import time

from soccerdesk.rules import CHANCE, GAMES, get_game, sample_chance

VARIANTS = {"soccero": [{}, {"extended": True}], "big-time-soccer": [{}, {"mode": "cup"}]}


def game_rate(game_id: str, options: dict, seconds: float) -> float:
    game = get_game(game_id)
    rng = random.Random(1)
    actions = 0
    seed = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        state = game.new_match(seed=seed, **options)
        seed += 1
        while True:
            players = state.current_players()
            if not players:
                break
            seat = players[0]
            if seat == CHANCE:
                action = sample_chance(state, rng)
            else:
                legal = state.legal_actions(seat)
                action = legal[rng.randrange(len(legal))]
            state = state.apply(seat, action)
            actions += 1
    return actions / (time.perf_counter() - start)


def chess_rate(seconds: float) -> float:
    import chess

    rng = random.Random(1)
    actions = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False) and board.ply() < 400:
            moves = list(board.legal_moves)
            board.push(moves[rng.randrange(len(moves))])
            actions += 1
    return actions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", choices=GAMES, action="append")
    args = parser.parse_args()
    reference = chess_rate(args.seconds)
    print(f"{'python-chess (reference)':40s} {reference:12,.0f} actions/s   ratio 1.00")
    for game_id in args.game or GAMES:
        for options in VARIANTS.get(game_id, [{}]):
            label = game_id + "".join(f" {k}={v}" for k, v in options.items())
            rate = game_rate(game_id, options, args.seconds)
            print(f"{label:40s} {rate:12,.0f} actions/s   ratio {rate / reference:.2f}")
    again = chess_rate(args.seconds)
    print(f"{'python-chess (again, for drift)':40s} {again:12,.0f} actions/s   ratio {again / reference:.2f}")


if __name__ == "__main__":
    main()
