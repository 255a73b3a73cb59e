"""The Pawn Soccer heuristic bot: what the issue asks of it, each on a small position."""

from __future__ import annotations

import random
from collections import Counter

from soccerdesk.bots import make_bot
from soccerdesk.bots.levels import EXPERT_ITERATIONS, HARD_ITERATIONS, PAWN_LOOKAHEAD, search_bot
from soccerdesk.bots.pawn_soccer import HeuristicBot
from soccerdesk.bots.search import SearchBot, TurnLookahead
from soccerdesk.rules import CHANCE, State, get_game, sample_chance
from soccerdesk.rules.pawn_soccer import AFTER, PawnSoccer, PawnState

_game = get_game("pawn-soccer")
assert isinstance(_game, PawnSoccer)
GAME: PawnSoccer = _game
BLUE, ORANGE = 0, 1
BOT = HeuristicBot("pawn-soccer")


def decide(state: State, seat: int, seed: int = 0) -> str:
    return str(BOT.decide(state, seat, random.Random(seed)))


def pos(blue: list[str], orange: list[str], ball: str | None, side: int = BLUE, **kw: object) -> PawnState:
    kw.setdefault("substitute", (False, False))
    return GAME.position(blue, orange, ball, side, **kw)  # type: ignore[arg-type]


def test_make_bot_finds_the_heuristic_bot() -> None:
    assert isinstance(make_bot("heuristic", "pawn-soccer"), HeuristicBot)


def test_shoots_when_the_path_is_clear() -> None:
    s = pos(["D10", "C8"], ["C11", "A5"], "D10")
    assert decide(s, BLUE) in {"kick D10-D12", "kick D10-E12"}


def test_walks_the_ball_into_the_goal() -> None:
    s = pos(["D1", "C4"], ["C1", "D11"], "C1", ORANGE)
    assert decide(s, ORANGE) in {"move C1-C0", "move C1-D0"}


def test_steals_from_beside_the_ball_preferring_no_card() -> None:
    s = pos(["D4", "C4", "D1"], ["D5", "D11"], "D5")
    assert decide(s, BLUE) == "steal D4-D5"


def test_weighs_card_risk_a_carded_pawn_does_not_steal_diagonally() -> None:
    # Only the pawn on a yellow card could steal, diagonally: a red card loses a pawn and the ball.
    s = pos(["C4", "D1", "B2"], ["D5", "D11", "F9"], "D5", yellow=["C4"])
    assert not decide(s, BLUE).startswith("steal")
    # Without the card the diagonal steal is worth its yellow.
    assert decide(pos(["C4", "D1", "B2"], ["D5", "D11", "F9"], "D5"), BLUE) == "steal C4-D5"


def test_avoids_a_diagonal_steal_in_its_own_penalty_area() -> None:
    s = pos(["D2", "E1"], ["C3", "D11"], "C3")
    assert decide(s, BLUE) != "steal D2-C3"


def test_advances_the_ball_with_a_chain_of_passes() -> None:
    s = pos(["C4", "C6", "D8", "D1"], ["A1", "G11", "D11"], "C4")
    first = decide(s, BLUE)
    assert first == "pass C4-C6"
    assert decide(s.apply(BLUE, GAME.parse_action(first)), BLUE) == "pass C6-D8"


def test_sprints_up_the_wing_with_the_ball() -> None:
    s = pos(["A7", "D1"], ["D11", "E10"], "A7")
    assert decide(s, BLUE) == "move A7-A9"


def test_keeps_a_goalkeeper_and_defends_goal_side() -> None:
    # Orange has the ball deep in Blue's half: the Blue goalkeeper does not leave the area.
    s = pos(["D1", "C2", "E5"], ["D3", "D11"], "D3")
    action = decide(s, BLUE)
    assert not action.startswith("move D1-D2") and not action.startswith("move D1-C2")


def test_substitutes_a_pawn_on_a_yellow_card() -> None:
    s = pos(["C4", "D1"], ["D11"], "C4", yellow=["C4"], substitute=(True, True))
    assert decide(s, BLUE) == "sub C4"
    s = pos(["C4", "D1"], ["D11"], "C4", substitute=(True, True))
    assert not decide(s, BLUE).startswith("sub")


def test_penalty_pick_is_random() -> None:
    s = pos(["D2", "D1"], ["C3", "D11"], "C3").apply(BLUE, GAME.parse_action("steal D2-C3"))
    picks = {decide(s, ORANGE, seed) for seed in range(20)}
    assert picks == {"penalty 1", "penalty 2", "penalty 3"}


def test_sends_the_nearest_pawn_into_goal() -> None:
    s = pos(["D2", "B3", "F5"], ["C3", "D11"], "C3", yellow=["D2"]).apply(BLUE, GAME.parse_action("steal D2-C3"))
    assert decide(s, BLUE).startswith("keeper B3-")


def test_sets_up_its_formation() -> None:
    s = GAME.new_match(seed=1)
    assert decide(s, BLUE) == "place D1"
    s = s.apply(BLUE, GAME.parse_action("place D1"))
    assert decide(s, ORANGE) == "place D11"


def test_beats_random() -> None:
    """A short check of the acceptance run (the simulator measures hundreds of matches;
    benchmarks/match_shape.py prints the decision time)."""
    heuristic, opponent = BOT, make_bot("random", "pawn-soccer")
    wins = 0
    for seed in range(4):
        state: State = GAME.new_match(seed=seed)
        rng = random.Random(seed)
        bots = {seed % 2: heuristic, 1 - seed % 2: opponent}
        while not state.is_terminal():
            seat = state.current_players()[0]
            action = sample_chance(state, rng) if seat == CHANCE else bots[seat].decide(state, seat, rng)
            state = state.apply(seat, action)
        wins += state.winner == seed % 2
    assert wins >= 3


def _steals(state: State, plies: int) -> int:
    """The most steals onto any one square in ``plies`` actions of the heuristic's own choices
    (without the repetition memory every bot's decide() has) from ``state``. A loop takes the
    ball back and forth on one square; steals spread over the match after goals are play."""
    rng = random.Random(0)
    onto: Counter[str] = Counter()
    for _ in range(plies):
        if state.is_terminal():
            break
        seat = state.current_players()[0]
        if seat == CHANCE:
            state = state.apply(seat, sample_chance(state, rng))
            continue
        legal = state.legal_actions(seat)
        action = legal[0] if len(legal) == 1 else BOT.choose(state, seat, legal, rng)
        if str(action).startswith("steal"):
            onto[str(action).split("-")[-1]] += 1
        state = state.apply(seat, action)
    return max(onto.values(), default=0)


def test_no_endless_steal_back_in_front_of_goal() -> None:
    """A position from a recorded match where both sides used to steal the ball back and forth
    on C2 for the rest of the match (118 steals in 120 actions before the fix)."""
    s = pos(
        ["C1", "A2", "C3", "E3", "D6", "B9"], ["B2", "C2", "A6", "A7", "E9", "D11"], "B2", ORANGE, yellow=["B2", "C2"]
    )
    assert _steals(s, 120) < 5


def test_a_steal_is_judged_after_the_steal_back() -> None:
    """Winning the ball beside two opponents who can take it straight back is worth no more than
    what they leave us after doing so."""
    from soccerdesk.bots.pawn_soccer import _steal_back, evaluate

    s = pos(["D4", "D1"], ["D5", "C6", "E6", "D11"], "D5")
    after = s.apply(BLUE, GAME.parse_action("steal D4-D5"))
    plain = evaluate(after, BLUE)  # type: ignore[arg-type]
    assert _steal_back(after, BLUE, plain) < plain  # type: ignore[arg-type]


def test_after_its_move_the_heuristic_chooses_from_the_list_it_is_offered() -> None:
    """Repetition avoidance may offer a shorter list than the rules': the heuristic never plays
    an action outside it (here, ending the turn when only substitutions are offered)."""
    import random

    from soccerdesk.bots.pawn_soccer import HeuristicBot
    from soccerdesk.rules import get_game
    from soccerdesk.rules.pawn_soccer import AFTER

    game = get_game("pawn-soccer")
    rng = random.Random(3)
    state = game.new_match(seed=3)
    bot = HeuristicBot("pawn-soccer")
    checked = 0
    while not state.is_terminal() and checked < 5 and state.ply < 3000:
        seat = state.current_players()[0]
        if seat < 0:
            outcomes = state.chance_outcomes()
            state = state.apply(seat, rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        legal = state.legal_actions(seat)
        subs = [a for a in legal if str(a).startswith("sub")]
        if state.phase == AFTER and subs:
            chosen = bot.choose(state, seat, subs, random.Random(0))
            assert str(chosen) in {str(a) for a in subs}
            checked += 1
        state = state.apply(seat, rng.choice(legal))
    assert checked > 0


# --- expert: the look-ahead over whole turns -----------------------------------------------


def _expert() -> SearchBot:
    bot = search_bot("pawn-soccer", None, "expert", max_iterations=EXPERT_ITERATIONS["pawn-soccer"])
    assert isinstance(bot.mixer, TurnLookahead)
    return bot


def test_expert_looks_whole_turns_ahead_and_hard_does_not() -> None:
    assert _expert().mixer.turns == PAWN_LOOKAHEAD["expert"][0] >= 2  # type: ignore[union-attr]
    assert "hard" not in PAWN_LOOKAHEAD
    assert search_bot("pawn-soccer", None, "hard", max_iterations=HARD_ITERATIONS["pawn-soccer"]).mixer is None


def test_expert_shoots_when_the_path_is_clear() -> None:
    s = pos(["D10", "C8"], ["C11", "A5"], "D10")
    assert str(_expert().decide(s, BLUE, random.Random(0))) in {"kick D10-D12", "kick D10-E12"}


def test_expert_leaves_the_substitute_after_a_turn_to_the_heuristic() -> None:
    s = pos(["C4", "D1"], ["D11"], "C4", yellow=["C4"], substitute=(True, True))
    after = s.apply(BLUE, GAME.parse_action("move D1-E1"))
    assert isinstance(after, PawnState) and after.phase == AFTER and after.current_players() == (BLUE,)
    assert str(_expert().decide(after, BLUE, random.Random(1))) == "sub C4"  # the heuristic's choice


# --- QA pass 18: goals on offer, the keeper's give-away, the corner ---------------------------


def _hard() -> SearchBot:
    return search_bot("pawn-soccer", None, "hard", max_iterations=HARD_ITERATIONS["pawn-soccer"])


def _beside_the_open_goal() -> PawnState:
    """QA pass 18, finding 1 (seed 1814, match 4, step 243): Orange holds the ball on C1 beside
    the goal with ``move C1-C0`` and ``kick C1-D0`` open; hard shuffled A2-B2 for 80 turns."""
    return pos(
        ["D1", "C2", "D2", "D5", "D9", "F11"],
        ["A1", "B1", "C1", "E1", "A2", "C10"],
        "C1",
        ORANGE,
        substitute=(True, True),
    )


def _scores(state: State, seat: int, action: str) -> bool:
    return state.apply(seat, GAME.parse_action(action)).score[seat] > state.score[seat]


def test_normal_walks_the_ball_in_instead_of_stepping_aside() -> None:
    """Rulebook, Scoring: "When a team successfully moves or kicks the ball inside the opponent's
    goal". QA pass 18, finding 6 (seed 1815, match 19, step 244): on D1 with every walk and kick
    into the goal open, normal played ``move D1-C1``."""
    s = pos(
        ["E1", "E2", "D4", "E6", "C8"],
        ["D1", "D5", "C7", "D8", "C9", "D11"],
        "D1",
        ORANGE,
        yellow=["D5"],
        goals=(2, 0),
    )
    for seed in range(5):
        assert _scores(s, ORANGE, decide(s, ORANGE, seed))


def test_every_level_scores_a_goal_on_offer() -> None:
    """Hard and expert leave a goal on offer to the heuristic, which always scores it."""
    s = _beside_the_open_goal()
    assert _scores(s, ORANGE, decide(s, ORANGE))
    for bot in (_hard(), _expert(), make_bot("hard", "pawn-soccer"), make_bot("expert", "pawn-soccer")):
        assert _scores(s, ORANGE, str(bot.decide(s, ORANGE, random.Random(0))))


def test_hard_kicks_at_the_open_goal_from_two_squares() -> None:
    s = pos(["D10", "C8"], ["C11", "A5"], "D10")
    assert str(_hard().decide(s, BLUE, random.Random(0))) in {"kick D10-D12", "kick D10-E12"}


def test_hard_counts_a_goal_in_its_rollouts_above_a_shot_kept_for_later() -> None:
    """A rollout that scores is judged above one that ends with the shot still to take (the
    heuristic values the ball at a shooter's feet a little above a goal)."""
    from soccerdesk.bots.levels import PAWN_GOAL_BONUS

    judge = _hard().evaluation
    s = _beside_the_open_goal()
    after_goal = s.apply(ORANGE, GAME.parse_action("move C1-C0"))
    keeping = -judge(s, ORANGE)
    scored = -judge(after_goal, ORANGE)
    assert PAWN_GOAL_BONUS > 0
    assert scored > keeping


def _robbed_striker_beside_the_keeper() -> PawnState:
    """QA pass 18, finding 2 (seed 1815, match 15, step 69): Blue's keeper won the ball on E2 from
    the striker now on E1, whose bar on stealing back has run out; passes to C3, E3 and D4 are
    open. The keeper carried the ball to D1, beside the striker, who stole it and walked it in."""
    return pos(["E2", "C3", "E3", "D4", "F5", "C8"], ["E1", "B6", "C7", "D8", "C9", "D11"], "E2", BLUE)


def _a_steal_walks_in(state: State, seat: int) -> bool:
    """Whether the other side, to play, has a steal that leaves it beside the goal with the ball
    (Rulings, Pawn Soccer: scoring by moving, from a goal-kick-area square)."""
    assert isinstance(state, PawnState)
    other = 1 - seat
    if state.current_players() != (other,):
        return False
    for action in state.legal_actions(other):
        if str(action).startswith("steal"):
            after = state.apply(other, action)
            assert isinstance(after, PawnState)
            if after.holder() == other and state.rules.board.goal_steps[other][after.ball]:
                return True
    return False


def test_the_keeper_does_not_carry_the_ball_beside_the_striker_he_robbed() -> None:
    """Nor onto any square where a steal would leave the striker beside the goal with the ball."""
    s = _robbed_striker_beside_the_keeper()
    assert s.barred < 0  # the striker may steal again next turn
    for seed in range(5):
        action = decide(s, BLUE, seed)
        assert action != "move E2-D1"
        assert not _a_steal_walks_in(s.apply(BLUE, GAME.parse_action(action)), BLUE), action


def test_the_orange_keeper_does_not_carry_the_ball_beside_the_striker_he_robbed() -> None:
    """The same at the other end (seed 1815, match 9, step 70): Orange's keeper on C10, Blue's
    striker on C11. ``move C10-D11`` puts the keeper back in place, and the ball where the
    striker steals it and walks it in."""
    s = pos(["D1", "E3", "D4", "E5", "D9", "C11"], ["E4", "B7", "D8", "C9", "E9", "C10"], "C10", ORANGE)
    for seed in range(5):
        action = decide(s, ORANGE, seed)
        assert action != "move C10-D11"
        assert not _a_steal_walks_in(s.apply(ORANGE, GAME.parse_action(action)), ORANGE), action


def test_no_endless_steal_back_in_the_corner() -> None:
    """A position from QA pass 18's seed 1815, match 7 (step 100): Blue has just stolen the ball
    on A11, in Orange's corner, where nobody can score; the two sides then stole it back and
    forth there for the rest of the match (21 steals onto A11)."""
    s = pos(["D1", "F2", "E5", "B6", "B10", "A11"], ["B4", "D6", "E7", "D9", "B11", "C11"], "A11", ORANGE, barred="B11")
    assert _steals(s, 120) < 5
