"""Help audit 4.2-4.3: what a guided lesson says matches what the learner sees. Pawn Soccer's
penalty step said "Pick 2" while the board's goal squares carry no numbers; Soccero's finish
said the learner "met" walls though the lesson builds none."""

from __future__ import annotations

import re

from soccerdesk.learn.coach import Coach, check_script, load_script
from soccerdesk.rules import Event
from soccerdesk.ui.boards import BoardConfig, make_board


def test_the_pawn_penalty_step_names_the_goal_square_to_click(qapp) -> None:
    script = load_script("pawn-soccer")
    coach = Coach(script)
    state = coach.play_others(coach.new_match())
    while not coach.finished:
        pointed = coach.pointed(state)
        assert pointed is not None
        if pointed.startswith("penalty "):
            break
        state = coach.play_others(coach.play(state, pointed))
    else:
        raise AssertionError("the lesson has no penalty step")
    step = coach.step
    assert step is not None
    board = make_board(BoardConfig("pawn-soccer", script.learner))
    board.set_view(state.view(script.learner))
    square = board.describe(pointed).removeprefix("Shoot the penalty at ")
    assert re.fullmatch(r"[A-G]\d+", square), square  # a goal square the board draws and the learner clicks
    assert square in step.say
    assert not re.search(r"\bPick \d\b|\b1, 2 or 3\b", step.say)


def test_the_soccero_finish_names_only_what_the_learner_met(qapp) -> None:
    script = load_script("soccero")
    final = check_script(script)
    state = Coach(script).new_match()
    events: list[Event] = []
    for seat, action in final.history():
        state = state.apply(seat, action)
        events.extend(state.events)
    walls = [event for event in events if event.kind == "wall-done" and event.data["players"]]
    met = re.search(r"From the extended rules you met (.*?)(?:, and learned|;)", script.finish)
    assert met is not None
    assert walls or "wall" not in met.group(1), met.group(1)
    assert "what a wall is" in script.finish  # step 11 explains it while Away builds none


def test_a_said_line_is_one_whole_sentence_whatever_it_ended_with() -> None:
    from soccerdesk.learn.words import said

    assert said("alice's pass to d4") == "Alice's pass to d4."
    assert said("that square is taken.") == "That square is taken."
    assert said("goal!") == "Goal!"
    assert said("") == ""
