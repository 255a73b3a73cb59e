"""End-of-match audit 1: the app loads every game on a worker thread while opening a match file
loads its game on the UI thread. Two threads loading one game at once made two Game objects,
and a Soccero file opened then refused every move (its actions are told apart by identity)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

# A fresh interpreter (nothing loaded yet); building the game is slowed so that the two
# threads surely ask while the first is still building it.
RACE = textwrap.dedent(
    """
    import threading, time
    import soccerdesk.rules.soccero as module
    from soccerdesk.rules import CHANCE, get_game

    build = module.make_game
    def slow(data):
        time.sleep(0.3)
        return build(data)
    module.make_game = slow

    got = []
    start = threading.Barrier(2)
    def load():
        start.wait()
        got.append(get_game("soccero"))
    threads = [threading.Thread(target=load) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    game = got[0]
    state = game.new_match(seed=3)
    while CHANCE in state.current_players():
        state = state.apply(CHANCE, state.chance_outcomes()[0][0])
    seat = state.current_players()[0]
    state.apply(seat, got[1].parse_action(str(state.legal_actions(seat)[0])))
    print(got[0] is got[1], got[1] is get_game("soccero"))
    """
)


def test_two_threads_asking_for_a_game_at_once_get_the_same_one() -> None:
    out = subprocess.run([sys.executable, "-c", RACE], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]
