"""The difficulty levels offered to players: ``easy``, ``normal``, ``hard`` and ``expert``.

- ``easy``: the game's heuristic bot, but now and then (``EASY_SLIPS`` of its decisions)
  it takes one of the heuristic's near misses instead (:class:`EasyBot`) — it still plays
  sensibly, only less sharply.
- ``normal``: the game's heuristic bot.
- ``hard``: the search bot (:mod:`soccerdesk.bots.search`): ``HARD_ITERATIONS`` rollouts a
  decision, and never more than 1 s (the clock only binds on a slow or busy machine).
- ``expert``: the search bot with ``EXPERT_ITERATIONS`` rollouts, never more than 3 s.

In Soccer-Go both search levels mix their face-down picks by the guessing game's matrix
(:data:`GUESSING`, :class:`soccerdesk.bots.soccer_go.GuessingPlayer`) and leave the power
cards to the heuristic's exact turn planner; ``expert`` models its opponent one level deeper
(it may be the heuristic or ``hard``, learnt from the picks it shows). In Pawn Soccer, which
has no dice in open play and nothing hidden, ``expert`` plays its turns by alpha-beta three
turns deep over every reply (:data:`PAWN_LOOKAHEAD`) instead of ``hard``'s one-deep search,
which only answers the heuristic's reply; a goal that can be scored at once is scored at every
Pawn Soccer level (the search levels leave it to the heuristic). In Soccero ``hard`` weighs
only the heuristic's two best steps and ``expert`` its six best; in Big Time Soccer ``hard``
searches only the heuristic's close calls (and the last cards of a match), ``expert`` every
decision with all six candidates to the end (:data:`LEVEL_TUNING`).
Measured figures and the commands that made them: ``docs/bots.md``.

An iteration cap, not the clock, is what sets a level's strength: the bot plays the same
on a fast and a slow computer, a match replays the same, and the player does not wait a
full second on every small step when a fifth of it is enough.

Importing this module registers the four names in :data:`soccerdesk.bots.LEVELS`.
Search settings are tuned per game in :data:`GAME_TUNING`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from soccerdesk.bots import LEVELS, Bot, RandomBot
from soccerdesk.bots import _heuristic as _make_heuristic
from soccerdesk.bots.search import Belief, Evaluation, Mixer, SearchBot, SearchSettings, Stop, heuristic_policy
from soccerdesk.rules import _MODULES as _RULE_MODULES
from soccerdesk.rules import Action, State

HARD_BUDGET = 1.0
"""Seconds a ``hard`` decision may take."""

EXPERT_BUDGET = 3.0
"""Seconds an ``expert`` decision may take."""

HARD_ITERATIONS: dict[str, int] = {
    "big-time-soccer": 240,
    "pawn-soccer": 40,
    "soccero": 16,
    "soccer-go": 100,
}
"""Rollouts of a ``hard`` decision per game (a few hundredths to a fifth of a second of one core)."""

SOCCERO_FULL = 60
"""Rollouts of Soccero's full search (six candidates): ``expert``'s and a hint's. Four times as
many made it no stronger (51.5% over 110 matches, docs/bots.md)."""

EXPERT_ITERATIONS: dict[str, int] = {game: 4 * n for game, n in HARD_ITERATIONS.items()} | {"soccero": SOCCERO_FULL}
"""Rollouts of an ``expert`` decision per game."""

HINT_ITERATIONS: dict[str, int] = HARD_ITERATIONS | {"soccero": SOCCERO_FULL}
"""Rollouts of a hint per game: hard's, or in Soccero the full search's (hard's is a narrowed
step of the ladder, :data:`LEVEL_TUNING`)."""

EASY_SLIPS: dict[str, float] = {
    # Big Time Soccer's and Soccero's near misses cost little each (a card that gains a zone
    # less, a step beside the best), so easy slips there more often (docs/bots.md, "Easy's slips").
    "big-time-soccer": 0.5,
    "pawn-soccer": 0.3,
    "soccero": 0.5,
    # A random face-down pick is as good a guess as the heuristic's: only a slip with the
    # power cards costs, so Soccer-Go's easy slips more often (normal beat it in 57.5% of
    # 200 matches at 0.7 slips, 61.0% at 0.85, 68.5% at 1.0, i.e. random; docs/bots.md).
    "soccer-go": 0.85,
}
"""Share of an ``easy`` bot's decisions that are slips: a near miss instead of the heuristic's
pick (:class:`EasyBot`), in Soccer-Go a random action."""

GAME_TUNING: dict[str, SearchSettings] = {
    # Chance decides most of a Big Time Soccer sequence (d20 charts, draws), so a full tree
    # learns little in a fifth of a second: the search judges the heuristic's six most
    # promising actions by heuristic continuations to the end of the possession (to the
    # final whistle in the last cards of the match), all actions on the same dice (paired,
    # the first roll stratified over its twenty faces); after 20 rounds only the heuristic's
    # pick and its strongest rival play on, and the pick is left only for a lead of 1.5
    # standard errors.
    "big-time-soccer": SearchSettings(
        max_depth=1,
        paired=True,
        stratify_first_roll=True,
        rollout_turns=40,
        rollout_plies=400,
        rollout_random=0.0,
        goal_weight=1.0,
        action_cap=6,
        confidence=1.5,
        min_gain=0.0,
        min_visits=8,
        narrow_after=20,
    ),
    # Pawn Soccer has no dice in open play: every action is followed by the opponent's
    # greedy reply and our own next move, then judged; one round of all actions is enough.
    "pawn-soccer": SearchSettings(
        max_depth=1,
        paired=True,
        rollout_turns=2,
        rollout_random=0.0,
        goal_weight=1.0,
        action_cap=100,
        confidence=0.0,
        min_gain=0.0,
        min_visits=1,
        policy_in_tree=False,
    ),
    # A Soccero turn is a chain of small steps (kick or move, roll, one player-move at a
    # time): each step is judged by the heuristic playing on to the end of the opponent's
    # next turn (rollouts count changes of seat, not steps). The candidates are the
    # heuristic's six best by its own values (a movement decision has some 200 steps), all
    # played on the same dice; after four rounds only its pick and the strongest rival go on.
    "soccero": SearchSettings(
        max_depth=1,
        paired=True,
        rollout_turns=2,
        rollout_plies=80,
        rollout_random=0.0,
        action_cap=6,
        confidence=1.0,
        min_gain=0.0,
        min_visits=4,
        narrow_after=4,
    ),
    # Soccer-Go's rules and heuristic are fast: roll out through the next attacks.
    "soccer-go": SearchSettings(exploration=0.8, rollout_turns=10, action_cap=24),
}
"""Search settings of each game, for ``hard`` and ``expert`` alike (expert has more iterations and
time; Pawn Soccer's expert searches only its set-up, kick-off and penalties this way, see
:data:`PAWN_LOOKAHEAD`), except where :data:`LEVEL_TUNING` changes them for one level."""

LEVEL_TUNING: dict[tuple[str, str], dict[str, object]] = {
    # Soccero's full search beat the heuristic in 89.7% of decided matches, and four times its
    # rollouts made expert no stronger (51.5%): all the ladder's strength lay in one step.
    # Hard now weighs only the heuristic's two best steps (three when its pick is not among
    # them, all three to the end: no narrowing), so that the strength is shared out over two
    # steps (docs/bots.md, "Expert against hard, in parts").
    ("soccero", "hard"): {"action_cap": 2, "narrow_after": 0},
    # Big Time Soccer's expert weighs all six of the heuristic's best actions to the end, at
    # every decision (see _worth_searching): where the search's own judgement found its gain
    # over the heuristic. In matches, both drawing the opponent's hand as its declines make
    # likely, it beat hard 58.2% over 300 and normal 56.6% over 325: measurably, not by 60%
    # (docs/bots.md, "Why Big Time Soccer's steps stop near 55%"); with the particle filter,
    # normal 53.3% over 200.
    ("big-time-soccer", "expert"): {"narrow_after": 0},
}
"""Changes to :data:`GAME_TUNING` for one level of one game."""


def heuristic_or_none(game_id: str) -> Bot | None:
    """The game's heuristic bot, or ``None`` while its module is not written yet."""
    module_name = _RULE_MODULES[game_id].replace("soccerdesk.rules.", "soccerdesk.bots.")
    try:
        return _make_heuristic(game_id)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return None


class EasyBot(Bot):
    """The heuristic with slips: on a share of decisions (:data:`EASY_SLIPS`) it takes a near
    miss instead of its pick.

    A near miss is what the heuristic's ``near_misses`` offers: one of its next best choices,
    not far below the best, and none at decisions it makes by a rule (an end offer, a set-up),
    so easy misjudges a pass or a run as a beginner does but does not concede a match it is
    losing or set its keeper up in midfield (QA pass 18). A heuristic without ``near_misses``
    (Soccer-Go, whose face-down picks a random guess plays as well) slips to a random action.
    """

    name = "easy"

    def __init__(self, game_id: str, slips: float | None = None) -> None:
        super().__init__(game_id)
        self.slips = EASY_SLIPS.get(game_id, 0.3) if slips is None else slips
        self.heuristic = heuristic_or_none(game_id) or RandomBot(game_id)

    def choose(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        if self.slips and rng.random() < self.slips:
            near_misses = getattr(self.heuristic, "near_misses", None)
            if near_misses is None:
                return legal[rng.randrange(len(legal))]
            choices = near_misses(state, seat, legal)
            if choices:
                return choices[rng.randrange(len(choices))]
        return self.heuristic.choose(state, seat, legal, rng)


# --- how each game's heuristic judges a position, as seat 0's advantage in goals ----------


def _soccer_go_evaluation(heuristic: Bot) -> Evaluation:
    judge = heuristic.evaluate  # type: ignore[attr-defined]

    def advantage(state: State, seat: int) -> float:
        # HeuristicBot.evaluate is half the goal difference plus the attack under way, in [-1, 1].
        return 2.0 * judge(state, 0)

    return advantage


def _pawn_soccer_evaluation(heuristic: Bot) -> Evaluation:
    from soccerdesk.bots import pawn_soccer

    def advantage(state: State, seat: int) -> float:
        return pawn_soccer.evaluate(state, 0) / pawn_soccer.GOAL  # type: ignore[arg-type]

    return advantage


def _big_time_soccer_evaluation(heuristic: Bot, context_of: Callable[[Any, int], Any] | None = None) -> Evaluation:
    """``context_of(state, seat)``: what the judging seat knows (default: the heuristic's own
    ``_Context``, the opponent's hand by the public counts; a benchmark may hand it more)."""
    from soccerdesk.bots import big_time_soccer

    make_context = context_of or big_time_soccer._Context

    def advantage(state: State, seat: int) -> float:
        # The goal difference plus the expected goals of the possession under way, judged as
        # the heuristic judges from the searching seat's chair: its own hand as it is, the
        # opponent's only by the cards it has not seen (a sampled hand would add noise); and
        # what the two hands are worth to the rest of the half (shot cards less than movers,
        # defensive and Any cards more), so that spending or keeping a card counts.
        lead = float(state.score[0] - state.score[1])
        if state.phase == "over" or state.shootout is not None:  # type: ignore[attr-defined]
            return lead
        context = make_context(state, seat)  # type: ignore[arg-type]
        ball = state.ball  # type: ignore[attr-defined]
        mine = context.value_mine(ball) if state.control == seat else -context.value_theirs(ball)  # type: ignore[attr-defined]
        mine += context.hand_worth()
        return lead + mine if seat == 0 else lead - mine

    return advantage


SOCCERO_FIELD = 0.3
"""Goals a ball on the opponents' goal line is worth against one on the halfway line."""

SOCCERO_POSSESSION = 0.1
"""Goals the ball at one's feet is worth against a loose ball (Soccero)."""


def _soccero_evaluation(heuristic: Bot) -> Evaluation:
    # The Soccero heuristic scores actions, not positions; the search judges a position by
    # how far up the field the ball is (for seat 0) and who controls it.
    from soccerdesk.rules.soccero.state import SocceroState, team_of

    def advantage(state: State, seat: int) -> float:
        assert isinstance(state, SocceroState)
        lead = float(state.score[0] - state.score[1])
        if state.ball < 0:
            return lead
        board = state.board
        up_field = board.rows_from_goal_line(state.ball, state.defends(0)) / (board.rows - 1)
        control = 0.0 if state.holder < 0 else (1.0 if team_of(state.holder) == 0 else -1.0)
        return lead + SOCCERO_FIELD * (2.0 * up_field - 1.0) + SOCCERO_POSSESSION * control

    return advantage


EVALUATIONS: dict[str, Callable[[Bot], Evaluation]] = {
    "soccero": _soccero_evaluation,
    "soccer-go": _soccer_go_evaluation,
    "pawn-soccer": _pawn_soccer_evaluation,
    "big-time-soccer": _big_time_soccer_evaluation,
}
"""Per game: the search's evaluation built from the game's heuristic bot."""


BIG_TIME_SOCCER_LATE = 8
"""Cards left in the second half's deck from which Big Time Soccer's search plays on to the
final whistle: from there the score and the clock, not expected goals, decide what is best."""


def _big_time_soccer_late(state: State) -> bool:
    return state.half >= 2 and (state.stoppage >= 0 or state.pile_left <= BIG_TIME_SOCCER_LATE)  # type: ignore[attr-defined]


def _possession_over(start: State, now: State) -> bool:
    """Big Time Soccer: the other side has the ball, or a goal was scored (late in the match
    the rollout goes on to the end)."""
    if _big_time_soccer_late(start):
        return False
    return now.control != start.control or now.score != start.score  # type: ignore[attr-defined]


STOPS: dict[str, Stop] = {"big-time-soccer": _possession_over}

GUESSING: dict[str, tuple[int, float, int]] = {"hard": (3, 0.03, 1), "expert": (6, 0.03, 2)}
"""Soccer-Go's face-down picks per search level: determinized worlds of the guessing game's
matrix, the slack (goals a pick an opponent who knew the mix could win beyond the game's
value) the mix may give up to play on the opponent's habits, and how deep it models the
opponent (1: as the heuristic; 2: as the heuristic or as a level-1 player, learnt from the
picks it shows)."""


PAWN_LOOKAHEAD: dict[str, tuple[int, int]] = {"expert": (3, 20_000)}
"""Pawn Soccer's search levels that look whole turns ahead by alpha-beta
(:class:`soccerdesk.bots.search.TurnLookahead`): turns deep (ours, every reply, ours again)
and the most positions judged a decision. Hard's one-deep search expects the heuristic's
reply; with no dice and nothing hidden in open play more rollouts of it see nothing new."""


PAWN_GOAL_BONUS = 0.5
"""Goals a goal scored within Pawn Soccer's search counts beyond the heuristic's own judgement
(expert's look-ahead, and hard's and a hint's rollouts). The heuristic values the ball at a
shooter's feet with the shot his (0.95 goals) a little above a goal scored, after which the
board is set up again and only the score counts: without the bonus a rollout of hard's that
ends with the shot still to take is judged above one in which the goal was scored, so it
would put off a goal it could score sooner."""

PAWN_BONUS_LEVELS = ("hard", "hint")
"""Pawn Soccer's one-deep searches whose rollouts count :data:`PAWN_GOAL_BONUS` (the review of
a match judges positions as the heuristic does, without it)."""


def _with_goal_bonus(evaluation: Evaluation) -> Evaluation:
    def advantage(state: State, seat: int) -> float:
        # Every candidate starts from the same score, so counting the bonus on the whole lead
        # counts it on the goals scored (or let in) inside the rollout.
        a, b = state.score
        return evaluation(state, seat) + PAWN_GOAL_BONUS * (a - b)

    return advantage


def _pawn_soccer_lookahead(name: str, heuristic: Bot, budget: float | None) -> Mixer:
    from soccerdesk.bots import pawn_soccer
    from soccerdesk.bots.search import TurnLookahead
    from soccerdesk.rules.pawn_soccer import AFTER, CHAIN, END, TURN

    turns, leaves = PAWN_LOOKAHEAD[name]
    policy = heuristic_policy(heuristic)

    def settle(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        # A turn over, the look-ahead just ends it (a substitution a few turns ahead changes
        # little, and asking the heuristic took about a quarter of the search's time).
        if state.phase == AFTER and END in legal:  # type: ignore[attr-defined]
            return END
        return policy(state, seat, legal, rng)

    def own_chair(state: State, seat: int) -> float:
        # Judged from the searching seat's chair, as the heuristic judges its own moves (its
        # evaluation is not quite symmetric: its own yellow cards weigh twice the other's).
        value = pawn_soccer.evaluate(state, seat) / pawn_soccer.GOAL  # type: ignore[arg-type]
        return value if seat == 0 else -value

    return TurnLookahead(
        own_chair,
        settle,
        # It takes the decisions of a turn (a chain pass's next hop too). Below the root it
        # branches on the first action of each turn; a chain pass played on and ending a turn
        # are left to the heuristic, and the free substitution is never branched on (with it,
        # two turns deep judged 17,000 positions instead of 2,000: every turn twice over);
        # a goal, a penalty or a set-up is judged as it stands. A goal on offer is the
        # heuristic's (it always scores it; see _worth_searching).
        decides=lambda state: state.phase in (TURN, CHAIN) and not pawn_soccer.goal_on_offer(state),  # type: ignore[attr-defined]
        branch=lambda state: state.phase == TURN,  # type: ignore[attr-defined]
        play_through=lambda state: state.phase in (CHAIN, AFTER),  # type: ignore[attr-defined]
        extra=lambda action: getattr(action, "verb", None) == "sub",
        turns=turns,
        max_leaves=leaves,
        goal_bonus=PAWN_GOAL_BONUS,
        # Only a ceiling for a very busy machine: the search's own share of the level's clock.
        time_budget=None if budget is None else 0.8 * budget,
    )


def _mixer(game_id: str, name: str, heuristic: Bot | None, budget: float | None = None) -> Mixer | None:
    if game_id == "pawn-soccer" and name in PAWN_LOOKAHEAD and heuristic is not None:
        return _pawn_soccer_lookahead(name, heuristic, budget)
    if game_id != "soccer-go" or name not in GUESSING:
        return None
    from soccerdesk.bots.soccer_go import GuessingPlayer, HeuristicBot

    assert isinstance(heuristic, HeuristicBot)
    return GuessingPlayer(heuristic, *GUESSING[name])


"""Per game: where a rollout stops to be judged, besides its turn and ply caps."""


def search_bot(game_id: str, budget: float | None, name: str, max_iterations: int | None = None) -> SearchBot:
    """A search bot for ``game_id`` with the game's tuning and this time budget (``None``:
    no clock, ``max_iterations`` only). It rolls out with the game's heuristic bot and
    judges with its evaluation; without a heuristic bot it plays random rollouts."""
    settings = GAME_TUNING.get(game_id, SearchSettings()).with_changes(
        time_budget=budget, max_iterations=max_iterations, **LEVEL_TUNING.get((game_id, name), {})
    )
    heuristic = heuristic_or_none(game_id)
    make_evaluation = EVALUATIONS.get(game_id)
    evaluation = make_evaluation(heuristic) if heuristic is not None and make_evaluation else None
    if game_id == "pawn-soccer" and name in PAWN_BONUS_LEVELS and evaluation is not None:
        evaluation = _with_goal_bonus(evaluation)
    return SearchBot(
        game_id,
        settings,
        heuristic_policy(heuristic),
        evaluation,
        name=name,
        stop=STOPS.get(game_id),
        mixer=_mixer(game_id, name, heuristic, budget),
        shortlist=getattr(heuristic, "ranked", None),
        worth_searching=_worth_searching(game_id, name, heuristic),
        belief=_belief(game_id),
    )


def _belief(game_id: str) -> Belief | None:
    """Big Time Soccer's search levels draw the opponent's hand as its decisions in the match
    make likely, if it plays like the heuristic (:class:`soccerdesk.bots.bts_particles.ParticleBelief`);
    elsewhere every hidden thing is as likely as the public counts make it."""
    if game_id != "big-time-soccer":
        return None
    from soccerdesk.bots.bts_particles import ParticleBelief

    return ParticleBelief()


def _never(state: State) -> bool:
    return False


def _worth_searching(game_id: str, name: str, heuristic: Bot | None) -> Callable[[State], bool] | None:
    """Big Time Soccer's hard (and a hint) searches the heuristic's close calls, and every
    decision of the last cards of a match (where the score and the clock, not expected goals,
    decide); its expert searches every decision. Soccer-Go's
    search levels mix their face-down picks and leave the cards to the heuristic's exact turn
    planner (a tree search of a fifth of a second did not play them better: 49.5% over 200
    matches, issue 9). A hint still searches them: its playouts give the chance it shows.
    Pawn Soccer's search levels leave a goal on offer to the heuristic, and the look-ahead
    levels the substitute after a turn too."""
    if game_id == "soccer-go" and name in GUESSING:
        return _never
    if game_id == "pawn-soccer":
        return _pawn_soccer_searched if name in PAWN_LOOKAHEAD else _pawn_soccer_no_goal_on_offer
    close_call = getattr(heuristic, "close_call", None)
    if game_id != "big-time-soccer" or close_call is None or name == "expert":
        return None
    return lambda state: _big_time_soccer_late(state) or bool(close_call(state))


def _pawn_soccer_searched(state: State) -> bool:
    """Pawn Soccer's look-ahead levels leave the substitute after a turn to the heuristic
    (it brings on a fresh pawn for one on a yellow card): one-deep searches of that
    choice took nine tenths of the level's time and the look-ahead ends turns the same way.
    A goal on offer is the heuristic's too (:func:`_pawn_soccer_no_goal_on_offer`)."""
    from soccerdesk.rules.pawn_soccer import AFTER

    return state.phase != AFTER and _pawn_soccer_no_goal_on_offer(state)  # type: ignore[attr-defined]


def _pawn_soccer_no_goal_on_offer(state: State) -> bool:
    """A goal Pawn Soccer's searching side can score at once is left to the heuristic, which
    always scores it. The search judged the ball at a shooter's feet above a goal (it is worth
    0.95 goals, and the attack round it more): hard kept the ball beside an open goal for up to
    80 turns and scored only at the turn limit (QA pass 18, finding 1). A goal scored is never
    worse than any position kept for later: the rules have no reason to wait."""
    from soccerdesk.bots.pawn_soccer import goal_on_offer

    return not goal_on_offer(state)


def _normal(game_id: str) -> Bot:
    return heuristic_or_none(game_id) or RandomBot(game_id)


def _hard(game_id: str) -> Bot:
    return search_bot(game_id, HARD_BUDGET, "hard", HARD_ITERATIONS.get(game_id))


def _expert(game_id: str) -> Bot:
    return search_bot(game_id, EXPERT_BUDGET, "expert", EXPERT_ITERATIONS.get(game_id))


LEVELS.update({"easy": EasyBot, "normal": _normal, "hard": _hard, "expert": _expert})

__all__ = [
    "EXPERT_BUDGET",
    "EXPERT_ITERATIONS",
    "GAME_TUNING",
    "HARD_BUDGET",
    "HARD_ITERATIONS",
    "HINT_ITERATIONS",
    "LEVEL_TUNING",
    "EasyBot",
    "heuristic_or_none",
    "search_bot",
]
