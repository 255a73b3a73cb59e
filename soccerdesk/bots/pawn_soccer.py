"""A heuristic Pawn Soccer player: each action judged by a hand-made evaluation, after the fight
for the ball that follows it.

Every candidate action is applied to the (determinized) state. A pass is worth the best place
a chain of passes from it can end, the shortest way there (a chain moves no pawn, so each end
is the same position with the ball elsewhere). The position is then played on through the fight
for the ball: the side to move may steal it (or step onto a loose ball) and the other side may
win it back, up to :data:`EXCHANGE_DEPTH` turns, each side taking the better of winning the ball
or leaving the position as it stands; at the end of that look-ahead a ball the side to move could
still win counts half. So the bot carries and passes the ball where it is not taken straight
back, wins it where it keeps it, and does not steal the ball to and fro on one square. A ball
taken off a loose square is judged as it stands: when both sides judged the steal that would
follow, nobody took a loose ball beside an opponent, and a third of the turns passed with the
ball lying loose.

The evaluation rewards: possession; a ball in a dangerous place (:func:`_danger`: up the board
and near a square a shot can start from, so the carrier heads for the goal, not for the corners
beside it); how dangerous a place a chain pass could carry it to next turn, counting only open
team-mates; a shot (all but a goal when the other side can neither steal the ball nor block every
line in its one move, and a goalkeeper who steps across to one corner opens the other);
team-mates up the board while its side attacks; a goalkeeper in place; pressure on an opposing
ball-carrier; pawns gathered round a loose ball. It charges for cards, lost pawns, penalties
given away and opposing pawns beside the ball. Set-up follows a fixed formation, penalties are
a uniformly random 1-3 (the choice that cannot be read), and the substitute replaces a pawn
carrying a yellow card.

Measured (docs/bots.md has the commands): the previous heuristic judged the position after the
action as it stood (and only a steal after the other side's steal back); this one beats it in
nearly every decided match. Two of these bots score fewer goals against each other than two of
the previous one did: those goals came from the ball given away.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from soccerdesk.bots import Bot
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
    STOP,
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
PROGRESS = 5.0  # per row of danger (_danger) of the ball's square
REACH = 45.0  # per row of danger of the most dangerous open team-mate a chain pass could reach next turn
SHOT_CERTAIN = 0.95 * GOAL  # the holder shoots now
SHOT_UNSTOPPABLE = 0.8 * GOAL  # the holder can score next turn whatever the other side does
SHOT_NOW = 700.0  # the holder could score next turn unless the other side answers
SHOT_REACHABLE = 2_500.0  # an open team-mate reachable by a chain pass could shoot
STEAL_THREAT_ORTHOGONAL = 60.0  # an opponent beside the holder after the look-ahead
STEAL_THREAT_DIAGONAL = 35.0
STEAL_THREAT_CARDED = 60.0  # a diagonal steal by a pawn already on a yellow card expels it
PAWN = 1_200.0  # a pawn on the board (a red card costs one for the rest of the match)
YELLOW_CARD = 90.0
KEEPER_IN_PLACE = 300.0
PRESSURE = 30.0  # per square the nearest pawn is from an opposing ball-carrier
LOOSE_BALL = 40.0  # per square closer to a loose ball than the nearest opponent
HOP = 1.0  # a further pass in a chain that ends no better (the chain takes the shortest way)
EXCHANGE_DEPTH = 3  # turns of steals (or loose-ball takes) and answers looked at after an action
LOOSE_CROWD = 150.0  # per pawn more than the other side's beside a loose ball (who takes it with
# fewer loses it to a steal)
SUPPORT = 40.0  # per row up the board of each attacking pawn (not the keeper or the last defender)


class HeuristicBot(Bot):
    """Greedy Pawn Soccer bot with a look-ahead over the fight for the ball; see the module docstring."""

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
        candidates = [a for a in legal if isinstance(a, PawnAction) and a.verb != "sub"]
        best: list[Action] = []
        best_value = float("-inf")
        ends: dict[int, float] = {}  # value of a turn ending with the ball on a square, by square
        loose = state.rules.board.names[state.ball] if state.ball >= 0 and not state.cells[state.ball] else None
        for action in candidates:
            after = state.apply_unchecked(seat, action)
            if loose is not None and action.b == loose and action.verb == "move":
                value = evaluate(after, seat)  # type: ignore[arg-type]
            else:
                value = _value(after, seat, ends)  # type: ignore[arg-type]
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return best[rng.randrange(len(best))]

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
        # Whoever takes a loose ball first loses it to a steal unless more team-mates stand by:
        # the sides gather round it (else both waited beside it for the rest of the match).
        beside_me = sum(1 for sq in mine if to_ball[sq] == 1 and sq != state.barred)
        beside_them = sum(1 for sq in theirs if to_ball[sq] == 1 and sq != state.barred)
        value += LOOSE_CROWD * (beside_me - beside_them)
    value += _defence(state, seat, mine, holder) - _defence(state, other, theirs, holder)
    return value


_DANGER: dict[int, tuple[list[float], list[float]]] = {}


def _danger(board: Board, seat: int) -> list[float]:
    """How dangerous the ball is on each square for ``seat`` attacking, in rows: the rows up the board,
    less two for each step to the nearest square a shot or a walk into the goal could start
    from, plus one for each goal square a kick from there could reach on an empty board.

    The rows alone sent the ball-carrier into the corners beside the goal (A11, G11), where
    the rows are as high as anywhere and no shot is allowed.
    """
    tables = _DANGER.get(id(board))
    if tables is None:
        made = []
        for side in (0, 1):
            shots, steps, progress = board.shots[side], board.goal_steps[side], board.progress[side]
            starts = [sq for sq in board.pitch if shots[sq] or steps[sq]]
            table = [0.0] * board.size
            for sq in board.pitch:
                near = min(board.distances[sq][t] for t in starts)
                table[sq] = (progress[sq] - 2.0 * near + len(shots[sq])) / 3.0
            made.append(table)
        tables = _DANGER[id(board)] = (made[0], made[1])
    return tables[seat]


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
    the threat is a goal only if it can neither steal the ball nor leave every shot blocked
    after one move (a walk into the goal cannot be blocked). A pawn that steps into one line
    may open another it stood in: a goalkeeper who leaves the middle to cover one corner
    opens the other. A diagonal steal in its own penalty area gives a penalty instead. A
    threat the other side can answer still ties one of its pawns down.
    """
    board = state.rules.board
    cells = state.cells
    walks = bool(board.goal_steps[seat][ball])
    lines = board.shots[seat][ball]
    open_shots = [set(between) for _, between in lines if not any(cells[t] for t in between)]
    if not walks and not open_shots:
        return 0.0
    if state.phase == TURN and state.side == seat:
        return SHOT_CERTAIN
    other = 1 - seat
    other_code = other + 1
    best = SHOT_UNSTOPPABLE
    diagonal = board.diagonal[ball]
    fouls = ball in board.own_penalty_area[other]
    for sq in board.neighbours[ball]:
        if cells[sq] & 3 == other_code and sq != state.barred:
            if not (fouls and diagonal[sq]):
                return SHOT_NOW  # it can steal the ball
            best = PENALTY_AGAINST  # it can only foul
    if walks:
        return best
    common = set.intersection(*open_shots)
    for to in common:
        if cells[to]:
            continue
        for frm in board.neighbours[to]:
            if cells[frm] & 3 != other_code:
                continue
            # The pawn from ``frm`` steps onto ``to``: then no line may be open.
            if not any(all(t != to and (t == frm or not cells[t]) for t in between) for _, between in lines):
                return SHOT_NOW  # one pawn can step into every line
    return best


def _attack(state: PawnState, seat: int, mine: list[int], theirs: list[int]) -> float:
    """The value of holding the ball for ``seat`` (its pawn stands on the ball)."""
    board = state.rules.board
    cells = state.cells
    ball = state.ball
    danger = _danger(board, seat)
    value = POSSESSION + PROGRESS * danger[ball] + _shot_threat(state, seat, ball)
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
    # Only an open team-mate (no opponent beside him) is worth the pass: a marked one loses the ball.
    other_code = 2 - seat
    neighbours = board.neighbours
    reached = {ball} | {sq for sq in reached if not any(cells[n] & 3 == other_code for n in neighbours[sq])}
    value += REACH * max(danger[sq] for sq in reached)
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


def _value(state: PawnState, seat: int, ends: dict[int, float]) -> float:
    """The value of the position an action of ``seat`` led to, once the other side has answered.

    A pass that may go on as a chain is worth the best place the chain can end (a chain moves
    no pawn, so each end is the same position with the ball elsewhere; ``ends`` keeps those
    already judged in this decision).
    """
    if state.phase != CHAIN or state.side != seat:
        return _answered(state, seat)
    names = state.rules.board.names
    reach = state.rules.board.pass_reach
    code = seat + 1
    best = float("-inf")
    frontier: list[State] = [state]  # states in the chain, the ball with the last receiver (breadth first)
    seen = {state.ball}
    hops = 0
    while frontier:
        following: list[State] = []
        for here in frontier:
            assert isinstance(here, PawnState)
            sq = here.ball
            if sq not in ends:
                ends[sq] = _answered(here.apply_unchecked(seat, STOP) if here.phase == CHAIN else here, seat)  # type: ignore[arg-type]
            best = max(best, ends[sq] - HOP * hops)
            if here.phase != CHAIN:
                continue
            cells, received = here.cells, here.received
            for t in reach[sq]:
                if cells[t] & 3 == code and t not in seen and not received >> t & 1:
                    seen.add(t)
                    following.append(here.apply_unchecked(seat, PawnAction("pass", names[sq], names[t])))
        frontier = following
        hops += 1
    return best


def _answered(state: PawnState, seat: int, depth: int = -1) -> float:
    """The value of ``state`` for ``seat`` once the fight for the ball beside it is over.

    The side to move may win the ball (a steal, or a pawn stepping onto a loose ball) or do
    something else (the evaluation as it stands); after a steal the other side may win it back,
    and so on for ``depth`` turns (:data:`EXCHANGE_DEPTH` unless given). Each side takes the
    better of the two for itself. A loose ball taken is judged as it stands (see the module
    docstring). A bot that judged the position as it stands carried the ball beside a marker,
    or counted a ball it had just won that the other side took straight back, and both sides
    gave the ball away in turn.
    """
    if depth < 0:
        depth = EXCHANGE_DEPTH
    value = evaluate(state, seat)
    ball = state.ball
    if ball < 0:
        return value
    # The side that moves next (the other one while a turn is still being finished).
    mover = state.side if state.phase == TURN else 1 - state.side
    code = mover + 1
    cells = state.cells
    neighbours = state.rules.board.neighbours[ball]
    if cells[ball] & 3 == code or not any(cells[sq] & 3 == code for sq in neighbours):
        return value  # nobody beside the ball can win it (the common case: no turn to finish)
    if state.phase in (AFTER, CHAIN):
        state = state.apply_unchecked(state.side, END if state.phase == AFTER else STOP)  # type: ignore[assignment]
        if state.phase == AFTER:
            state = state.apply_unchecked(state.side, END)  # type: ignore[assignment]
    if state.phase != TURN or state.side != mover or not any(
        cells[sq] & 3 == code and sq != state.barred for sq in neighbours
    ):
        return value
    target = state.rules.board.names[ball]
    best = value
    for action in state.legal_actions(mover):
        if isinstance(action, PawnAction) and action.b == target and action.verb in ("steal", "move"):
            after = state.apply_unchecked(mover, action)
            again = depth > 1 and action.verb == "steal"
            won = _answered(after, seat, depth - 1) if again else evaluate(after, seat)  # type: ignore[arg-type]
            best = max(best, won) if mover == seat else min(best, won)
    # At the end of the look-ahead the fight is not over: the last side to win the ball may
    # lose it again, so a ball the side to move could win counts half.
    return best if depth > 1 else (value + best) / 2
