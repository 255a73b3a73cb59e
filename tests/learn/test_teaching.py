"""What a newcomer is taught agrees with the game: the guided matches' words with what the
board and the log do at that step, and the help pages' numbers with the rules' own data
(QA pass 17, findings 1, 2, 4, 7, 8, 9 and 12)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import Any

from soccerdesk.learn.coach import Coach, load_script
from soccerdesk.resources import resource_path
from soccerdesk.rules import State, get_game
from soccerdesk.ui.help import help_markdown


@dataclass(frozen=True)
class Taught:
    """One action the learner played in a lesson: the step it finished (numbered from 1),
    what the coach said, the position before it, and the log of everything until the
    learner's next decision."""

    step: int
    say: str
    action: str
    before: State
    after: State
    log: tuple[str, ...]


def _lesson(game_id: str) -> tuple[list[Taught], list[str]]:
    """Play a guided match as pointed; every learner's action, and the log before the first."""
    coach = Coach(load_script(game_id))
    log: list[str] = []

    def others(state: State) -> State:
        while (found := coach.next_other(state)) is not None:
            seat, action = found
            state = state.apply(seat, action)
            coach.after(seat, action)
            log.extend(e.text for e in state.events if e.visible_to(coach.script.learner))
        return state

    state = others(coach.new_match())
    opening, log = log, []
    taught = []
    while not coach.finished:
        step, pointed = coach.step, coach.pointed(state)
        assert step is not None and pointed is not None
        number = coach.index + 1
        after = coach.play(state, pointed)
        log.extend(e.text for e in after.events if e.visible_to(coach.script.learner))
        after = others(after)
        taught.append(Taught(number, step.say, pointed, state, after, tuple(log)))
        state, log = after, []
    return taught, opening


def _data(game_id: str) -> dict[str, Any]:
    with resource_path("games", f"{game_id}.toml").open("rb") as fh:
        return tomllib.load(fh)


def _words(text: str) -> str:
    """Help Markdown as read: emphasis and line breaks gone."""
    return re.sub(r"\s+", " ", text.replace("*", ""))


# --- Soccero: the extended rules said plainly, a shot at goal (findings 1, 2, 12) ----------


def test_soccero_lesson_says_early_that_it_plays_the_optional_extended_rules() -> None:
    """soccero.txt: the first session should follow the basic rules. The lesson plays the
    extended ones: its first words say so and how to have them in a match (the home screen's
    option, by its own label), the first step of each extended feature says so again, and the
    finish says how to switch them on or off."""
    script = load_script("soccero")
    assert script.options.get("extended") is True
    option = next(o for o in get_game("soccero").options if o.name == "extended")
    assert "extended rules" in script.intro and "optional" in script.intro
    assert f"tick {option.label}" in script.intro and "basic rules" in script.intro
    assert f"tick {option.label}" in script.finish
    taught, _ = _lesson("soccero")
    first: dict[str, Taught] = {}
    for move in taught:
        phase = move.before.view(0)["state"]["phase"]
        first.setdefault(phase, move)
    # The header offered, the free kick's taker, the free moves: each first met with its words.
    for phase in ("header", "sp-taker", "free"):
        assert first[phase].say.startswith("Extended rules") or "Extended rules:" in first[phase].say, phase


def test_soccero_lesson_ends_with_a_declared_shot_that_beats_the_keeper() -> None:
    """QA: the other lessons each end with a shot; Soccero's never showed one. The learner
    declares it, rolls, kicks past the keeper (who dives on the square beside him) and scores."""
    taught, _ = _lesson("soccero")
    shoot = next(m for m in taught if m.action.startswith("shoot "))
    assert "declared" in shoot.say and "Shoot" in shoot.say
    aim = taught[-1]
    assert aim.action.endswith(" goal") and aim.step == len(load_script("soccero").steps)  # the last step
    assert "dives" in aim.say and "5 or 6" in aim.say
    assert any("dives" in line for line in aim.log) and any(line.startswith("GOAL") for line in aim.log)
    assert aim.after.score[0] == aim.before.score[0] + 1
    assert "Goal!" in load_script("soccero").finish


def test_soccero_free_kick_words_match_the_log() -> None:
    """QA: step 12 said "Away has used its free moves: the player beside the ball had to step
    back" while the log said "makes room" (he stood on the ball's square) and "Away makes no
    free moves". The coach says what the log says."""
    taught, _ = _lesson("soccero")
    taker = next(m for m in taught if m.action.startswith("pick "))
    assert any("makes room" in line for line in taker.log) and any("builds no wall" in line for line in taker.log)
    free = next(m for m in taught if m.before.view(0)["state"]["phase"] == "free")
    assert "made room" in free.say and "on the ball's square" in free.say and "no wall" in free.say
    assert sum("makes no free moves" in line for line in free.log) == 2
    after_free = taught[taught.index(free) + 1]
    assert "Neither side made a free move" in after_free.say
    assert "used its free moves" not in " ".join(m.say for m in taught)


def test_soccero_coach_claims_nothing_the_board_contradicts() -> None:
    """QA pass 17, finding 12: the header went to a square two from an Away player ("far from
    any Away player"), and player 10 was to head it on "again" though he had never headed it."""
    taught, _ = _lesson("soccero")
    assert "far from any" not in " ".join(m.say for m in taught)
    headed = next(m for m in taught if m.action == "header").before.view(0)["state"]["ball"]
    offered = next(m for m in taught if m.action == "no-header")
    assert offered.before.view(0)["state"]["ball"] != headed  # another player: he never headed it
    assert "again" not in offered.say


# --- Big Time Soccer: the first decisions of a real match (findings 4, 12) ----------------------


def test_bts_lesson_teaches_the_decisions_a_match_begins_with() -> None:
    """QA: the five-step lesson never held, cleared, passed back or took a goal kick, the first
    decisions of a real match. It does each once, says the odds the data gives, and stays a
    first lesson (no longer than the others)."""
    data = _data("big-time-soccer")
    taught, _ = _lesson("big-time-soccer")
    by_verb = {m.action.split()[0]: m for m in taught}
    for verb in ("play", "shoot", "reply", "passback", "goal-kick", "hold", "discard", "clear-in"):
        assert verb in by_verb, verb
    hold = by_verb["hold"]
    assert f"1 to {data['hold']['keep_control']}" in hold.say and "Challenge" in hold.say
    assert "Keep all cards" in by_verb["discard"].say  # the discard is optional
    assert any(f"hold: 1-{data['hold']['keep_control']} keeps" in line for line in by_verb["discard"].log)
    clear = by_verb["clear-in"]
    assert f"on 1 or {data['clear']['keep_in_play_control']}" in clear.say and "out of play" in clear.say
    goal_kick = by_verb["goal-kick"]
    aimed = data["charts"]["aimed_goal_kick"]["kicker_control"]
    assert "1 to 8" in goal_kick.say and f"1 to {aimed}" in goal_kick.say and "D2" in goal_kick.say
    assert "whatever its arrow" in by_verb["passback"].say
    others = [len(load_script(g).steps) for g in ("pawn-soccer", "soccer-go", "soccero")]
    assert len(taught) <= max(others)


def test_bts_lesson_shows_the_small_icon_lifted_after_a_failed_answer() -> None:
    """QA: "the next card must be" icon after a failed defence was never taught. The lesson's
    first pass asks for a pass next; Away's Intercept fails, the move starts afresh and the
    learner plays a dribble, which the icon would have barred."""
    taught, _ = _lesson("big-time-soccer")
    first, second = taught[0], taught[1]
    assert "the smaller one on the right" in first.say and "second icon" not in first.say
    assert any("keeps the ball" in line for line in first.log)
    assert first.after.view(0)["state"]["next"] is None  # the move starts afresh
    cards = {card["code"]: card for card in _data("big-time-soccer")["cards"]}
    assert cards[first.action.split()[1]]["next"] == "pass"
    assert cards[second.action.split()[1]]["kind"] == "dribble" and "afresh" in second.say


def test_bts_lesson_names_cards_as_their_faces_do() -> None:
    """QA pass 17, finding 12: "Play Pass Ahead 1, then Pass" read as two moves; "its second
    icon" for what the key calls the small icon."""
    script = load_script("big-time-soccer")
    said = " ".join(step.say for step in script.steps)
    assert ", then Pass" not in said and ", then Dribble" not in said and "second icon" not in said


# --- Pawn Soccer: the kick-off and the sprint as the rules have them (findings 8, 9, 12) -------


def test_pawn_lesson_kick_off_words_match_the_rule() -> None:
    """docs/rulings.md: the kick-off turn is a pass or a kick to an empty square."""
    taught, _ = _lesson("pawn-soccer")
    kick_off = taught[1]
    legal = [str(a) for a in kick_off.before.legal_actions(0)]
    assert any(a.startswith("kick ") for a in legal) and any(a.startswith("pass ") for a in legal)
    assert "must be a pass, or a kick to an empty square" in kick_off.say


def test_pawn_lesson_sprint_words_match_the_longest_sprint() -> None:
    """A sprint zone is three squares long and the run stays inside it: two squares at most,
    which the coach says; and any side may use any lane (the arrows show the lane's team)."""
    taught, _ = _lesson("pawn-soccer")
    sprint = next(m for m in taught if m.action == "move G7-G9")
    start = sprint.action.split()[1].split("-")[0]
    runs = [a for a in map(str, sprint.before.legal_actions(0)) if a.startswith(f"move {start}-")]
    longest = max(abs(int(a.split("-")[1][1:]) - int(start[1:])) for a in runs)
    assert longest == 2 and "two squares" in sprint.say and "three" not in sprint.say
    lane = taught[taught.index(sprint) - 1]
    assert "either side may use any lane" in lane.say


def test_pawn_lesson_penalty_words_match_the_board() -> None:
    """QA: "Away took the ball with a diagonal steal": the pawns did not swap, the fouled pawn
    took the ball to the penalty spot."""
    taught, _ = _lesson("pawn-soccer")
    penalty = next(m for m in taught if m.action.startswith("penalty "))
    spot = _data("pawn-soccer")["ends"][1]["penalty_spot"]  # Away's (Orange's) end
    assert "took the ball" not in penalty.say and "do not swap" in penalty.say
    assert f"penalty spot, {spot}" in penalty.say
    before = penalty.before.view(0)["state"]
    assert before["ball"] == spot


# --- the help pages' numbers (finding 7) --------------------------------------------------------


def test_bts_help_gives_the_odds_a_newcomer_needs(qapp) -> None:
    """The chart sheet's numbers, as the game's data has them: hold, both clears, the shots,
    the goal kicks, the Any Direction card and the Pass+O/S free shot."""
    data = _data("big-time-soccer")
    markdown = help_markdown(get_game("big-time-soccer"))  # the rulings part names actions by the board's words
    page = _words(markdown)
    goal_from = data["charts"]["shot"]["goal_from"]
    assert f"on 1–{data['hold']['keep_control']} you keep the ball" in page
    assert f"on 1 or {data['clear']['keep_in_play_control']} you keep the ball" in page
    assert f"on 1–{data['clear']['free_kick_control']} you keep the ball" in page  # a free kick's clear
    assert f"{goal_from['inside']}, 19 or 20 scores" in page and f"only a {goal_from['outside']}" in page
    assert "he wins the ball at once" in page  # a Challenge against a hold
    assert "Any Direction 1" in page and "either kind may follow" in page and "no defensive card" in page
    assert "Free Outside shot" in page and "successful Intercept cancels" in page
    rows = data["charts"]["shot"]["rows"]
    save = next(r["rolls"] for r in rows if r["result"] == "defense-goal-kick")
    assert f"| {save[0]}–{save[1]} | saved: a goal kick for him |" in markdown
    for table, first_column in (("normal", 2), ("own-third", 3), ("star", 4)):
        won = next(r["rolls"] for r in data["defense"][table]["rows"] if r["result"] == "success")
        line = next(r for r in markdown.splitlines() if r.startswith("| you win"))
        assert line.split("|")[first_column].strip() == f"{won[0]}–{won[1]}", table


def test_soccero_help_says_how_the_keeper_saves_under_the_basic_rules(qapp) -> None:
    """RULINGS Soccero 2: through his square stopped, beside him saved on 5-6, air shots not."""
    save = _data("soccero")["dice"]["save_beside_basic"]
    page = _words(help_markdown(get_game("soccero")))
    basic = page[page.index("The goalkeeper, basic rules") : page.index("## Shape of the team")]
    assert "runs into his square is stopped" in basic
    assert f"saves on {save[0]} or {save[1]}" in basic and "beside him" in basic
    assert "cannot save a shot through the air" in basic
    assert "declare the shot" in page and "one square more than the distance" in page


def test_pawn_help_gives_the_longest_sprint(qapp) -> None:
    page = _words(help_markdown(get_game("pawn-soccer")))
    assert "two squares at most" in page and "Either side may use any sprint zone" in page
