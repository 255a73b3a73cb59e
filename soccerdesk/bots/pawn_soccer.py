"""A heuristic Pawn Soccer player: one look ahead, judged by a hand-made evaluation.

Every candidate action is applied to the (determinized) state and the position that
follows is scored from the bot's side. The score rewards what the issue asks of the
bot: a ball that is far up the board and can travel further by a chain of passes to
team-mates within reach, a shot (worth a goal when the other side can neither steal
the ball nor block every open line in its one move), team-mates up the board while its
side attacks, a goalkeeper in place, pressure on an opposing ball-carrier; it charges
for cards, lost pawns, penalties given away and opposing pawns that could steal the
ball. A steal is judged after the other side's best steal back, so the two sides do not
take the ball from each other on one square for ever. The attack is judged by how far up
the board the team and a chain pass could take the ball, not by the holder's own square
(worth little: the holder then ran on alone and lost the ball), and an opponent beside the
holder costs little (with more the holder retreated or passed back from every marker and
matches ran into the turn limit); but taking the ball itself onto a square beside its own
goal, where a steal would leave the other side a shot, costs what that shot is worth. A ball
in a corner nobody can score from counts less, and a steal in the corner of the goal it
attacks is judged after the robbed pawn's steal back too (both sides once stole it back and
forth there all match). A goal that can be scored at once is always scored. Set-up follows a
fixed formation, penalties are a uniformly random 1-3 (the choice that cannot be read), and
the substitute replaces a pawn carrying a yellow card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from soccerdesk.bots import Bot, next_best
from soccerdesk.rules import Action, State
from soccerdesk.rules.pawn_soccer import (
    AFTER,
    CHAIN,
    END,
    KEEPER,
    OVER,
    PENALTY,
    PENALTY_KEEPER,
    SETUP,
    TURN,
    YELLOW,
    Board,
    PawnAction,
    PawnState,
)

# Where the bot sets up, best first, written for Blue (Orange mirrors the rows):
# a goalkeeper, a wall of three in front of the centre to receive the kick-off, and two
# covering the penalty area.
FORMATION = ("D1", "D4", "C5", "E5", "C3", "E3", "D2", "B2", "F2", "D5", "C2", "E2", "C4", "E4", "D3")

# Weights of the evaluation (in "points"; a goal is worth GOAL).
GOAL = 10_000.0
PENALTY_AGAINST = 0.66 * GOAL  # a penalty goes in two times in three
POSSESSION = 400.0
PROGRESS = 5.0  # per row the ball is up the board (more made the holder run on alone)
REACH = 70.0  # per row up the board the ball could be carried to by a chain pass next turn
SHOT_CERTAIN = 0.95 * GOAL  # the holder shoots now
SHOT_UNSTOPPABLE = 0.8 * GOAL  # the holder can score next turn whatever the other side does
SHOT_NOW = 700.0  # the holder could score next turn unless the other side answers
SHOT_REACHABLE = 2_500.0  # a team-mate reachable by a chain pass could shoot
STEAL_THREAT_ORTHOGONAL = 60.0
STEAL_THREAT_DIAGONAL = 35.0
STEAL_THREAT_CARDED = 60.0  # a diagonal steal by a pawn already on a yellow card expels it
PAWN = 1_500.0  # a pawn on the board (a red card costs one for the rest of the match)
YELLOW_CARD = 90.0
KEEPER_IN_PLACE = 300.0
PRESSURE = 30.0  # per square the nearest pawn is from an opposing ball-carrier
LOOSE_BALL = 40.0  # per square closer to a loose ball than the nearest opponent
SUPPORT = 40.0  # per row up the board of each attacking pawn (not the keeper or the last defender)
NEAR_MISS = 120.0  # easy's slips: the next best moves at most this much worse (1.2% of a goal)
NEAR_MISS_CHOICES = 3
DEAD_CORNER = 2  # rows the ball counts less on an X square beside the goal it attacks


class HeuristicBot(Bot):
    """Greedy one-ply Pawn Soccer bot; see the module docstring for what it weighs."""

    name = "heuristic"

    def choose(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        assert isinstance(state, PawnState)
        phase = state.phase
        if phase == PENALTY:
            return legal[rng.randrange(len(legal))]
        if phase == SETUP:
            return self._placement(state, seat, legal)
        if phase in (KEEPER, PENALTY_KEEPER):
            return self._goalkeeper(state, seat, legal)
        substitution = self._substitution(state, seat, legal)
        if substitution is not None:
            return substitution
        if phase == AFTER:
            # End the turn, unless the list offered (repetition avoidance may shorten it) has not
            # got it: then a substitution the list still holds.
            return END if any(str(a) == str(END) for a in legal) else legal[rng.randrange(len(legal))]
        goals = scoring_actions(state, legal)
        if goals:
            # Rulebook, Scoring: a goal on offer is scored now. The evaluation cannot be left to
            # see it: the ball at a shooter's feet with team-mates up the board is worth a little
            # more than a goal, after which the board is set up again and only the score counts,
            # so the bot stepped sideways beside an open goal (QA pass 18, finding 6).
            return goals[rng.randrange(len(goals))]
        candidates = [a for a in legal if isinstance(a, PawnAction) and a.verb != "sub"]
        best: list[Action] = []
        best_value = float("-inf")
        for action in candidates:
            value = _action_value(state, seat, action)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return best[rng.randrange(len(best))]

    def near_misses(self, state: State, seat: int, legal: list[Action]) -> list[Action]:
        """The moves a beginner might make instead of this bot's (``easy``'s slips): in open
        play the next best few, each within :data:`NEAR_MISS` points of the best. None at a
        goal on offer, the set-up, a penalty, the keeper's place or the substitution, which
        it decides by rule: random slips there kicked the ball back from the kick-off and
        brought the substitute on in midfield for no reason (QA pass 18)."""
        assert isinstance(state, PawnState)
        if state.phase not in (TURN, CHAIN) or scoring_actions(state, legal):
            return []
        candidates = [a for a in legal if isinstance(a, PawnAction) and a.verb != "sub"]
        if not candidates:
            return []
        return next_best(candidates, lambda a: _action_value(state, seat, a), NEAR_MISS_CHOICES, NEAR_MISS)

    # --- decisions that need no look-ahead

    def _placement(self, state: PawnState, seat: int, legal: Sequence[Action]) -> Action:
        by_text = {str(a): a for a in legal}
        # Pawns without a card go forward first; a carded pawn fills the last (deeper) places.
        clean_left = state.reserve[2 * seat] > 0
        for name in FORMATION:
            square = _mirror(name) if seat == 1 else name
            text = f"place {square}" if clean_left else f"place {square} yellow"
            if text in by_text:
                return by_text[text]
        board = state.rules.board
        forward = board.ends[seat].forward

        def rank(action: Action) -> tuple[int, int, int]:
            assert isinstance(action, PawnAction)
            sq = board.index[action.a]
            return (bool(action.b) == clean_left, forward * board.row(sq), -abs(board.col(sq) - board.width // 2))

        return max(legal, key=rank)

    def _goalkeeper(self, state: PawnState, seat: int, legal: Sequence[Action]) -> Action:
        """Send the pawn nearest to the goal-kick area, never the ball-carrier if avoidable."""
        board = state.rules.board

        def cost(action: Action) -> tuple[int, int]:
            assert isinstance(action, PawnAction)
            if action.b == "":
                return (99, 99)  # "keeper none": only when nothing else is legal
            frm, to = board.index[action.a], board.index[action.b]
            return (frm == state.ball, board.distance(frm, to))

        return min(legal, key=cost)

    def _substitution(self, state: PawnState, seat: int, legal: Sequence[Action]) -> Action | None:
        """Replace a pawn on a yellow card (a fresh pawn can steal diagonally again)."""
        cells = state.cells
        board = state.rules.board
        carded = [
            a for a in legal if isinstance(a, PawnAction) and a.verb == "sub" and cells[board.index[a.a]] & YELLOW
        ]
        if not carded:
            return None
        # The carded pawn nearest the ball is the one most likely to need a steal.
        ball = state.ball if state.ball >= 0 else board.kickoff_square
        return min(carded, key=lambda a: board.distance(board.index[a.a], ball))


def _mirror(name: str) -> str:
    """The same place seen from the other end (rows 1..11 flipped)."""
    return f"{name[0]}{12 - int(name[1:])}"


def _action_value(state: PawnState, seat: int, action: PawnAction) -> float:
    """The position after ``action`` for ``seat``; after a steal, the other side's best steal back."""
    after = state.apply_unchecked(seat, action)
    value = evaluate(after, seat)  # type: ignore[arg-type]
    if action.verb == "steal":
        value = _steal_back(after, seat, value)  # type: ignore[arg-type]
    elif _moves_the_ball(state, action):
        value -= _steal_danger(after, seat)  # type: ignore[arg-type]
    return value


def scoring_actions(state: PawnState, legal: Sequence[Action]) -> list[Action]:
    """The actions of ``legal`` that score at once: a kick into the goal or a walk into it."""
    board = state.rules.board
    return [
        a
        for a in legal
        if isinstance(a, PawnAction) and a.verb in ("kick", "move") and board.index[a.b] not in board.pitch_set
    ]


def goal_on_offer(state: State) -> bool:
    """Whether the side deciding ``state`` can score with its next action (open play only)."""
    assert isinstance(state, PawnState)
    if state.phase != TURN or state.ball < 0 or state.holder() != state.side:
        return False
    return bool(scoring_actions(state, state.legal_actions(state.side)))


def evaluate(state: PawnState, seat: int) -> float:
    """How good ``state`` is for ``seat`` (higher is better), in goal-sized points."""
    if state.phase == OVER:
        winner = state.winner
        return 1e9 if winner == seat else -1e9 if winner == 1 - seat else 0.0
    other = 1 - seat
    value = GOAL * (state.goals[seat] - state.goals[other])
    if state.phase in (PENALTY, PENALTY_KEEPER):
        return value + (PENALTY_AGAINST if state.taker == seat else -PENALTY_AGAINST)
    if state.phase == SETUP or state.ball < 0:
        return value  # a goal was just scored: the board is being reset
    board = state.rules.board
    cells = state.cells
    teams = state.pawn_squares()
    mine, theirs = teams[seat], teams[other]
    value += PAWN * (len(mine) - len(theirs))
    value -= YELLOW_CARD * sum(1 for sq in mine if cells[sq] & YELLOW)
    value += YELLOW_CARD * 0.5 * sum(1 for sq in theirs if cells[sq] & YELLOW)
    ball = state.ball
    to_ball = board.distances[ball]
    holder = state.holder()
    if holder == seat:
        value += _attack(state, seat, mine, theirs)
    elif holder == other:
        value -= _attack(state, other, theirs, mine)
        value -= PRESSURE * min((to_ball[sq] for sq in mine), default=0)
    else:
        near_me = min((to_ball[sq] for sq in mine if sq != state.barred), default=20)
        near_them = min((to_ball[sq] for sq in theirs if sq != state.barred), default=20)
        value += LOOSE_BALL * (near_them - near_me)
    value += _defence(state, seat, mine, holder) - _defence(state, other, theirs, holder)
    return value


def _can_shoot(state: PawnState, seat: int, sq: int) -> bool:
    cells = state.cells
    return any(not any(cells[t] for t in between) for _, between in state.rules.board.shots[seat][sq]) or bool(
        state.rules.board.goal_steps[seat][sq]
    )


def _to_move(state: PawnState) -> int:
    """The side whose turn comes next (a chain pass can only pass on: the other side's)."""
    if state.phase == TURN:
        return state.side
    return 1 - state.side


def _shot_threat(state: PawnState, seat: int, ball: int) -> float:
    """What the holder's chance to score next turn is worth.

    A shot the holder may take now is all but a goal. Otherwise the other side moves first:
    the threat is a goal only if it can neither steal the ball (a diagonal steal in its own
    penalty area is no answer: it gives a penalty away) nor put one pawn in the way of every
    open shot (a walk into the goal cannot be blocked); a threat it can answer still ties one
    of its pawns down.
    """
    board = state.rules.board
    cells = state.cells
    walks = bool(board.goal_steps[seat][ball])
    open_shots = [set(between) for _, between in board.shots[seat][ball] if not any(cells[t] for t in between)]
    if not walks and not open_shots:
        return 0.0
    if state.phase == TURN and state.side == seat:
        return SHOT_CERTAIN
    other_code = 2 - seat
    own_box = board.own_penalty_area[1 - seat]
    for sq in board.neighbours[ball]:
        if cells[sq] & 3 == other_code and sq != state.barred:
            if board.diagonal[sq][ball] and ball in own_box:
                continue  # a diagonal steal in its own penalty area gives a penalty away
            return SHOT_NOW  # it can steal the ball
    if walks:
        return SHOT_UNSTOPPABLE
    if _can_block(state, seat, ball, set.intersection(*open_shots)):
        return SHOT_NOW
    return SHOT_UNSTOPPABLE


def _can_block(state: PawnState, seat: int, ball: int, common: set[int]) -> bool:
    """Whether the other side can step one pawn into ``common`` (squares on every open line
    of ``seat``'s shots from ``ball``) and leave no line open. A pawn that steps aside may open
    the line it stood on: a keeper on D1 who steps to C1 against a shooter on C2 opens the
    kick at E0 (Rulings, Pawn Soccer: the kick path). Its own goal-kick area takes one pawn.
    """
    board = state.rules.board
    cells = state.cells
    other_code = 2 - seat
    area = board.own_area[1 - seat]
    keeper = any(cells[sq] & 3 == other_code for sq in area)
    shots = board.shots[seat][ball]
    for sq in common:
        if cells[sq]:
            continue
        for pawn in board.neighbours[sq]:
            if cells[pawn] & 3 != other_code or (sq in area and pawn not in area and keeper):
                continue
            moved = list(cells)
            moved[sq], moved[pawn] = cells[pawn], 0
            if all(any(moved[t] for t in between) for _, between in shots):
                return True
    return False


def _attack(state: PawnState, seat: int, mine: list[int], theirs: list[int]) -> float:
    """The value of holding the ball for ``seat`` (its pawn stands on the ball)."""
    board = state.rules.board
    cells = state.cells
    ball = state.ball
    value = POSSESSION + PROGRESS * _ball_rows(board, seat, ball) + _shot_threat(state, seat, ball)
    # Team-mates a chain pass could reach next turn (each within pass range of the last).
    reached = {ball}
    frontier = [ball]
    reach = board.pass_reach
    team = set(mine)
    while frontier:
        sq = frontier.pop()
        for t in reach[sq]:
            if t in team and t not in reached:
                reached.add(t)
                frontier.append(t)
    value += REACH * max(_ball_rows(board, seat, sq) for sq in reached)
    if any(sq != ball and _can_shoot(state, seat, sq) for sq in reached):
        value += SHOT_REACHABLE
    # Opposing pawns that could steal next turn.
    diagonal = board.diagonal[ball]
    for sq in board.neighbours[ball]:
        cell = cells[sq]
        if cell and (cell & 3) - 1 != seat and sq != state.barred:
            if not diagonal[sq]:
                value -= STEAL_THREAT_ORTHOGONAL
            elif cell & YELLOW:
                value -= STEAL_THREAT_CARDED
            else:
                value -= STEAL_THREAT_DIAGONAL
    return value


def _ball_rows(board: Board, seat: int, sq: int) -> int:
    """How far up the board the ball on ``sq`` is for ``seat``, where the X squares beside the
    goal it attacks count ``DEAD_CORNER`` rows less: nobody can score from them (Rulebook,
    Blocked spaces). Counted by its row alone, a ball in the corner was worth more than one in
    front of the goal; both sides carried it there and stole it back and forth."""
    rows = board.progress[seat][sq]
    return rows - DEAD_CORNER if sq in board.ends[1 - seat].blocked else rows


def _moves_the_ball(state: PawnState, action: PawnAction) -> bool:
    """Whether ``action`` takes the ball to another square: a carry, pass, kick or long pass,
    or the end of a chain pass (which has done so)."""
    verb = action.verb
    if verb == "move":
        return state.rules.board.index[action.a] == state.ball
    return verb in ("pass", "long", "kick", "stop")


def _steal_danger(state: PawnState, seat: int) -> float:
    """What the other side's best steal of ``seat``'s ball would leave it, the other side to
    play: the shot it would then hold (:func:`_shot_threat`), or nothing.

    A steal threat costs little in :func:`_attack` (fearing it more made the holder run from
    every marker), and that is wrong beside the holder's own goal: there the stealer walks the
    ball in unless the holder's side takes it straight back. The keeper who had won the ball
    outside his goal-kick area carried it back in, beside the striker he had robbed (whose bar
    on stealing back had run out: the rules lift it after one turn, and the bot read that
    right), and lost it there: 24 of 78 goals in 20 normal-vs-normal matches (QA pass 18,
    finding 2, seed 1815). The heuristic saw only ``STEAL_THREAT_ORTHOGONAL`` against the
    keeper's ``KEEPER_IN_PLACE``.

    It is charged only to an action that takes the ball to its square (:func:`_moves_the_ball`).
    Charging every position where the ball stands so (a keeper with the ball and a striker who
    walks up beside him) took away most of the goals of matches between two heuristics: 1.5-2.0
    a match instead of 3.75, 87-95% of them at the turn limit (60 matches a variant). The other
    side seldom wins the ball anywhere else.
    """
    if state.ball < 0 or state.holder() != seat or _to_move(state) == seat:
        return 0.0
    other = 1 - seat
    board = state.rules.board
    ball = state.ball
    if not board.goal_steps[other][ball] and not board.shots[other][ball]:
        return 0.0  # the other side could not score from the ball's square
    cells = state.cells
    other_code = other + 1
    if not any(cells[sq] & 3 == other_code and sq != state.barred for sq in board.neighbours[ball]):
        return 0.0
    # The other side's steals as the rules allow them on its turn (the goal-kick area's limits).
    probe = state.evolve(phase=TURN, side=other, received=0, kickoff_turn=False)
    worst = 0.0
    for action in probe.legal_actions(other):
        if not isinstance(action, PawnAction) or action.verb != "steal":
            continue
        after = _stolen(state, board.index[action.a], seat)
        if after is not None:
            worst = max(worst, _shot_threat(after, other, ball))
    return worst


def _defence(state: PawnState, seat: int, mine: list[int], holder: int) -> float:
    """A goalkeeper in place; while ``seat`` has the ball, its other pawns up the board.

    No pawns are held back between the ball and the own goal: one move a turn and a pass
    of two squares mean that a pawn held back is one nobody can pass to, and self-play with
    three held back ran into the turn limit (about one goal a match).
    """
    value = KEEPER_IN_PLACE if state.keeper_square(seat) >= 0 else 0.0
    if holder != seat:
        return value
    progress = state.rules.board.progress[seat]
    keeper = 1 if value else 0
    ahead = sum(progress[sq] for sq in mine) - sum(sorted(progress[sq] for sq in mine)[: keeper + 1])
    return value + SUPPORT * ahead


def _steal_back(state: PawnState, seat: int, value: float) -> float:
    """The value of a steal once the opponent has answered it with its best steal back.

    A one-ply bot counts a ball it just won as its own even when the other side takes it
    back at once; then both sides steal it back and forth on one square for ever. The
    other side's steals (at most eight) are looked at, and the worst one for us counts.
    On an X square beside the goal we attack (a corner we cannot score from) the robbed
    pawn's own steal back, once its bar has run out, counts too: the ball is seldom got out of
    the corner in the turn between, and both sides stole it back and forth there for the rest
    of the match (21 steals onto A11 in match 7 of QA pass 18's normal-vs-normal run, seed
    1815). Not in our own corners: a side that may not win the ball there leaves the other
    side to keep it there all match (hard held it on B11 for 166 turns of a 0-0 draw).
    """
    other = 1 - seat
    if state.phase == AFTER and state.side == seat:
        state = state.apply_unchecked(seat, END)  # type: ignore[assignment]
    if state.phase != TURN or state.side != other:
        return value
    for action in state.legal_actions(other):
        if isinstance(action, PawnAction) and action.verb == "steal":
            value = min(value, evaluate(state.apply_unchecked(other, action), seat))  # type: ignore[arg-type]
    if state.ball in state.rules.board.ends[other].blocked and state.barred >= 0:
        back = _stolen(state, state.barred, seat)
        if back is not None:
            value = min(value, evaluate(back, seat))
    return value


def _stolen(state: PawnState, stealer: int, victim_side: int) -> PawnState | None:
    """The position after the pawn on ``stealer`` steals the ball from ``victim_side``, the
    victim's side to play next, or ``None`` when the steal would cost the stealer a red card
    (the ball stays loose) or give a penalty away (a diagonal steal in its own penalty area)."""
    board = state.rules.board
    cells = state.cells
    ball = state.ball
    diagonal = board.diagonal[stealer][ball]
    if diagonal and (cells[stealer] & YELLOW or ball in board.own_penalty_area[1 - victim_side]):
        return None
    swapped = list(cells)
    swapped[ball], swapped[stealer] = cells[stealer] | (YELLOW if diagonal else 0), cells[ball]
    return state.evolve(cells=tuple(swapped), phase=TURN, side=victim_side, barred=stealer)
