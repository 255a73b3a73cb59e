"""The coach of the guided matches: scripts load and play through, only taught actions are
accepted, the other side follows the script (a gentle bot where it does not), resuming
replays to the same place, and a broken script is refused saying where."""

from __future__ import annotations

from typing import Any

import pytest

from soccerdesk.learn.coach import Coach, ScriptError, check_script, has_script, load_script, parse_script
from soccerdesk.rules import GAMES, IllegalAction, get_game

SCRIPTED = [game for game in GAMES if has_script(game)]


def _data(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "title": "Test",
        "seed": 3,
        "learner": 0,
        "intro": "Hello.",
        "finish": "Bye.",
        "options": {"quick_setup": True},
        "chance": ["toss blue"],
        "auto": ["end"],
        "step": [
            {"say": "Kick off from D5.", "allow": ["kickoff D5"]},
            {"say": "Pass.", "allow": ["pass D6-*"], "point": "pass D6-E5"},
        ],
    }
    data.update(changes)
    return data


def test_every_game_has_a_guided_match() -> None:
    assert sorted(SCRIPTED) == sorted(GAMES)


@pytest.mark.parametrize("game_id", SCRIPTED)
def test_every_script_plays_through_to_its_last_step(game_id: str) -> None:
    script = load_script(game_id)
    state = check_script(script)
    assert not state.is_terminal() or state.winner == script.learner
    assert len(state.history()) > len(script.steps)


@pytest.mark.parametrize("game_id", SCRIPTED)
def test_every_action_a_step_accepts_keeps_the_lesson_on_its_path(game_id: str) -> None:
    """QA: Soccero's lesson accepted player 10 on L17 (the rules allow J17 or L17; the coach
    pointed at J17), and steps later the lesson was stuck, said "All 14 steps done" and could
    not be started again. From every step, each action it accepts must let the rest of the
    lesson be played as pointed."""
    script = load_script(game_id)
    coach = Coach(script)
    state = coach.play_others(coach.new_match())
    strays = []
    while not coach.finished and not state.is_terminal():
        pointed = coach.pointed(state)
        assert pointed is not None
        for other in coach.taught(state):
            if other == pointed:
                continue
            branch, _ = Coach.resume(coach.record(state))  # an independent coach at this point
            after = branch.play_others(branch.play(state, other))
            while not branch.finished and not after.is_terminal():
                going = branch.pointed(after)
                if going is None:
                    strays.append((coach.index + 1, other))
                    break
                after = branch.play_others(branch.play(after, going))
        state = coach.play_others(coach.play(state, pointed))
    assert not strays, strays


def test_only_the_taught_actions_are_accepted() -> None:
    coach = Coach(parse_script("pawn-soccer", _data()))
    state = coach.play_others(coach.new_match())  # the stacked toss: Blue kicks off
    assert coach.learner_decides(state)
    legal = [str(a) for a in state.legal_actions(0)]
    assert len(legal) > 1 and coach.taught(state) == ["kickoff D5"]
    assert coach.pointed(state) == "kickoff D5"
    with pytest.raises(IllegalAction, match="not what this step teaches"):
        coach.play(state, next(a for a in legal if a != "kickoff D5"))
    assert coach.index == 0
    state = coach.play(state, "kickoff D5")
    assert coach.index == 1
    assert sorted(coach.taught(state)) == ["pass D6-C5", "pass D6-E5"]  # a pattern teaches a kind of action
    assert coach.pointed(state) == "pass D6-E5"
    state = coach.play(state, "pass D6-C5")  # any taught action finishes the step
    assert coach.finished and coach.taught(state) == [str(a) for a in state.legal_actions(0)]


def test_the_other_side_follows_the_script_then_a_gentle_bot() -> None:
    data = _data()
    data["step"] += [
        {"say": "Stop.", "allow": ["stop"], "replies": ["move C7-C6", "end", "move Z9-Z9"]},
        {"say": "Move.", "allow": ["move *"], "point": "move E5-F6"},
    ]

    def run() -> tuple[Any, Any]:
        coach = Coach(parse_script("pawn-soccer", data))
        state = coach.play_others(coach.new_match())
        for _ in range(4):
            state = coach.play_others(coach.play(state, coach.pointed(state) or ""))
        assert coach.finished  # free play: the learner ends the turn
        return coach, coach.play_others(coach.play(state, "end"))

    coach, state = run()
    history = [(seat, str(a)) for seat, a in state.history()]
    stop = history.index((0, "stop"))
    # The coach declined the substitution for the learner ('auto'), Orange played its scripted
    # answer; at its next turn the script's reply is not legal, so the gentle bot answered.
    assert history[stop + 1 : stop + 4] == [(0, "end"), (1, "move C7-C6"), (1, "end")]
    assert history[stop + 4 : stop + 6] == [(0, "move E5-F6"), (0, "end")]
    assert history[stop + 6][0] == 1 and history[stop + 6][1] != "move Z9-Z9"
    assert coach.learner_decides(state)
    assert run()[1].history() == state.history()  # the same answers every time


def test_a_step_of_several_actions_and_its_pointed_list() -> None:
    """Soccero's formation: eleven placements make one step, each pointed at in turn."""
    script = load_script("soccero")
    step = script.steps[0]
    assert step.repeat == 11 and len(step.point) == 11
    coach = Coach(script)
    state = coach.play_others(coach.new_match())
    for n, square in enumerate(step.point):
        assert coach.index == 0 and coach.done_in_step == n
        assert coach.pointed(state) == square
        if n == 5:  # left halfway through the line-up: resumed at the sixth player
            again, _ = Coach.resume(coach.record(state))
            assert (again.index, again.done_in_step) == (0, 5)
        state = coach.play(state, square)
    assert coach.index == 1 and coach.done_in_step == 0
    state = coach.play_others(state)  # Away's line-up from the script, then the kick-off pass
    quick = get_game("soccero").new_match(seed=script.seed, extended=True, quick_setup=True)
    quick = quick.apply(-1, quick.game.parse_action("toss 0")).apply(1, quick.game.parse_action("defend 1"))
    assert state.view(0)["state"]["players"] == quick.view(0)["state"]["players"]  # the standard formation
    half, _ = Coach.resume(coach.record(state))
    assert half.index == 1


def test_resume_reaches_the_same_step_and_position() -> None:
    script = load_script("pawn-soccer")
    coach = Coach(script)
    state = coach.play_others(coach.new_match())
    for _ in range(5):
        state = coach.play_others(coach.play(state, coach.pointed(state) or ""))
    record = coach.record(state)
    again, resumed = Coach.resume(record)
    assert again.index == coach.index == 5
    assert resumed == state and resumed.history() == state.history()
    assert again.pointed(resumed) == coach.pointed(state)


def test_a_match_that_leaves_the_script_is_let_go() -> None:
    data = _data()
    data["step"].append({"say": "Never possible.", "allow": ["kick D6-D12"]})
    coach = Coach(parse_script("pawn-soccer", data))
    state = coach.play_others(coach.new_match())
    state = coach.play_others(coach.play(state, "kickoff D5"))
    state = coach.play_others(coach.play(state, "pass D6-E5"))
    assert coach.stuck(state)
    with pytest.raises(ScriptError, match="step 3 teaches nothing"):
        check_script(parse_script("pawn-soccer", data))
    coach.let_go()
    assert coach.finished and not coach.stuck(state)
    assert coach.taught(state) == [str(a) for a in state.legal_actions(0)]


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"seed": "x"}, "seed"),
        ({"learner": 2}, "learner"),
        ({"step": []}, r"\[\[step\]\]"),
        ({"step": [{"say": "x", "allow": []}]}, "allow"),
        ({"step": [{"say": "x", "allow": ["a"], "point": "b"}]}, "point"),
        ({"step": [{"say": "x", "allow": ["a"], "colour": "red"}]}, "unknown keys"),
        ({"step": [{"allow": ["a"]}]}, "say"),
        ({"title": ""}, "title"),
        ({"options": "fast"}, "options"),
        ({"step": [{"say": "x", "allow": ["a"], "repeat": 0}]}, "repeat"),
        ({"step": [{"say": "x", "allow": ["a"], "point": ["a", "b"]}]}, "point"),
    ],
)
def test_a_broken_script_is_refused_saying_where(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ScriptError, match=message):
        parse_script("pawn-soccer", _data(**changes))


def test_a_game_without_a_script_says_so() -> None:
    assert not has_script("table-football")
    with pytest.raises(ScriptError, match="no guided match for table-football"):
        load_script("table-football")


def test_bad_options_in_a_script_are_a_script_error() -> None:
    with pytest.raises(ScriptError, match="learn/pawn-soccer.toml"):
        Coach(parse_script("pawn-soccer", _data(options={"no_such_option": 1}))).new_match()
