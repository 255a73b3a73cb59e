"""Guided first matches: a script per game and the coach that follows it.

A script (``resources/learn/<game>.toml``, written in our own words) fixes the match: its
seed and options, the learner's seat, and a list of steps. Each step says what to do next
(``say``), which of the legal actions it teaches (``allow``: patterns over action texts, ``*``
any characters, ``?`` one), the one the coach points at on the board (``point``; the first
taught action when not given), what the other side answers (``replies``, exact action texts)
and, where a die or a draw must come out the same for every learner, the outcomes to use
(``chance``: a stacked die or deck, used in order whenever they are possible outcomes).

The coach (:class:`Coach`) offers the learner only the taught actions of the current step;
playing one finishes the step. Between the learner's decisions the other side plays the
step's replies, and the gentle bot (``opponent``) where the script gives none (or a reply is
not legal any more); dice and draws take the stacked outcomes first, then the match's seeded
luck. Every choice depends only on the record, so a guided match left halfway resumes
exactly (:meth:`Coach.resume`). When the steps are done the learner plays on freely.

Pure logic: no Qt. :mod:`soccerdesk.ui.coach` shows it.
"""

from __future__ import annotations

import fnmatch
import random
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from soccerdesk.resources import resource_path
from soccerdesk.rules import CHANCE, Action, Game, IllegalAction, RulesError, State, get_game, sample_chance

LEARN_KEY = "learn"
"""Where a guided match's record says which script it follows: ``record["learn"] == {"script": game_id}``."""


class ScriptError(ValueError):
    """A guided-match script that cannot be used (missing, malformed, or not playable)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One thing taught: ``repeat`` taught actions finish it (placing eleven players, say);
    ``point`` lists the actions shown on the board, the first one on offer is pointed at (with
    ``repeat`` actions listed, the list is their order and only the next one is taught)."""

    say: str
    allow: tuple[str, ...]
    point: tuple[str, ...] = ()
    replies: tuple[str, ...] = ()
    chance: tuple[str, ...] = ()
    repeat: int = 1


@dataclass(frozen=True, slots=True)
class Script:
    game: str
    title: str
    seed: int
    learner: int
    opponent: str
    intro: str
    finish: str
    steps: tuple[Step, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    chance: tuple[str, ...] = ()
    """Outcomes stacked before the first step (the coin toss, the first deal)."""
    replies: tuple[str, ...] = ()
    """The other side's answers before the first step (its choice of ends, say)."""
    auto: tuple[str, ...] = ()
    """Patterns of actions the coach plays for the learner when the step teaches nothing at that
    moment (declining an offer that is not this lesson's subject)."""


def _texts(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ScriptError(f"{where} must be a text or a list of texts")
    return tuple(value)


def _text(data: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise ScriptError(f"{where}: {key} must be a text")
    return value.strip()


def parse_script(game_id: str, data: Mapping[str, Any]) -> Script:
    """A script from its parsed TOML; anything wrong raises :class:`ScriptError` saying where."""
    where = f"learn/{game_id}.toml"
    seed, learner = data.get("seed"), data.get("learner", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ScriptError(f"{where}: seed must be a whole number")
    if learner not in (0, 1):
        raise ScriptError(f"{where}: learner must be 0 or 1")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise ScriptError(f"{where}: options must be a table")
    raw_steps = data.get("step")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise ScriptError(f"{where}: a script needs [[step]] entries")
    steps = []
    for n, raw in enumerate(raw_steps, 1):
        at = f"{where} step {n}"
        if not isinstance(raw, Mapping):
            raise ScriptError(f"{at} must be a table")
        unknown = set(raw) - {"say", "allow", "point", "replies", "chance", "repeat"}
        if unknown:
            raise ScriptError(f"{at}: unknown keys {sorted(unknown)}")
        allow = _texts(raw.get("allow"), f"{at} allow")
        if not allow:
            raise ScriptError(f"{at}: allow must name the actions the step teaches")
        point = _texts(raw.get("point"), f"{at} point")
        if not all(any(fnmatch.fnmatchcase(text, p) for p in allow) for text in point):
            raise ScriptError(f"{at}: point must name allowed actions")
        repeat = raw.get("repeat", 1)
        if not isinstance(repeat, int) or isinstance(repeat, bool) or repeat < 1:
            raise ScriptError(f"{at}: repeat must be a whole number from 1")
        steps.append(
            Step(
                _text(raw, "say", at),
                allow,
                point,
                _texts(raw.get("replies"), f"{at} replies"),
                _texts(raw.get("chance"), f"{at} chance"),
                repeat,
            )
        )
    return Script(
        game=game_id,
        title=_text(data, "title", where),
        seed=seed,
        learner=learner,
        opponent=_text(data, "opponent", where, "easy"),
        intro=_text(data, "intro", where),
        finish=_text(data, "finish", where),
        steps=tuple(steps),
        options=dict(options),
        chance=_texts(data.get("chance"), f"{where} chance"),
        replies=_texts(data.get("replies"), f"{where} replies"),
        auto=_texts(data.get("auto"), f"{where} auto"),
    )


def load_script(game_id: str) -> Script:
    """The script of ``game_id`` from ``resources/learn/<game>.toml``."""
    import tomllib

    path = resource_path("learn", f"{game_id}.toml")
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ScriptError(f"there is no guided match for {game_id} yet") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScriptError(f"learn/{game_id}.toml is not valid TOML: {exc}") from None
    return parse_script(game_id, data)


def has_script(game_id: str) -> bool:
    try:
        return resource_path("learn", f"{game_id}.toml").is_file()
    except FileNotFoundError:
        return False


class Coach:
    """Follows a :class:`Script` through a match (see the module docstring)."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.game: Game = get_game(script.game)
        self.index = 0
        self.done_in_step = 0
        """Taught actions played in the current step so far (a step may ask for several)."""
        self._replies: deque[str] = deque(script.replies)
        self._chance: deque[str] = deque(script.chance)
        self._bot: Any = None
        self._chance.extend(script.steps[0].chance if script.steps else ())
        self.strayed = False
        """The match left the lesson's path (:meth:`let_go`): its steps were not all taught."""

    # --- the match --------------------------------------------------------------------

    def new_match(self) -> State:
        try:
            return self.game.new_match(seed=self.script.seed, **self.script.options)
        except RulesError as exc:
            raise ScriptError(f"learn/{self.script.game}.toml: {exc}") from None

    def record(self, state: State) -> dict[str, Any]:
        """The match record of a guided match (it says which script it follows)."""
        return {**self.game.dump(state), LEARN_KEY: {"script": self.script.game, "step": self.index}}

    @classmethod
    def resume(cls, record: Mapping[str, Any]) -> tuple[Coach, State]:
        """The coach and the position of a guided match left halfway (``record`` from :meth:`record`)."""
        coach, states = cls.follow(record)
        return coach, states[-1]

    @classmethod
    def follow(cls, record: Mapping[str, Any]) -> tuple[Coach, list[State]]:
        """As :meth:`resume`, with every position of the match from its first, so that what
        happened before the learner left can be told again."""
        learn = record.get(LEARN_KEY)
        if not isinstance(learn, Mapping) or not isinstance(learn.get("script"), str):
            raise ScriptError("this match is not a guided match")
        coach = cls(load_script(learn["script"]))
        state = coach.new_match()
        if {k: record.get(k) for k in ("seed", "options")} != {"seed": state.info.seed, "options": dict(state.options)}:
            raise ScriptError("this guided match was played from another version of its script")
        states = coach.game.replay(record)
        for entry in states[1:]:
            seat, action = entry.history()[-1]
            coach.after(seat, action)
        if coach.stuck(states[-1]):
            coach.let_go()
        return coach, states

    # --- the current step ---------------------------------------------------------------

    @property
    def step(self) -> Step | None:
        return self.script.steps[self.index] if self.index < len(self.script.steps) else None

    @property
    def finished(self) -> bool:
        return self.index >= len(self.script.steps)

    def learner_decides(self, state: State) -> bool:
        return self.script.learner in state.current_players()

    def taught(self, state: State) -> list[str]:
        """The learner's actions on offer now: the step's taught ones (every legal one once the
        steps are done); empty when the learner does not decide."""
        if not self.learner_decides(state):
            return []
        legal = [str(a) for a in state.legal_actions(self.script.learner)]
        step = self.step
        if step is None:
            return legal
        if step.repeat > 1 and len(step.point) == step.repeat:
            # The pointed list names each repeated action in turn (a formation, player by
            # player): only this one keeps the lesson on its path (a square meant for a later
            # player, taken now, left the lesson stuck steps later).
            wanted = step.point[self.done_in_step]
            return [text for text in legal if text == wanted]
        return [text for text in legal if any(fnmatch.fnmatchcase(text, p) for p in step.allow)]

    def pointed(self, state: State) -> str | None:
        """The action the coach points at on the board."""
        taught = self.taught(state)
        step = self.step
        if step is None or not taught:
            return None
        return next((text for text in step.point if text in taught), taught[0])

    def stuck(self, state: State) -> bool:
        """The learner decides but the step teaches nothing possible here (the match went
        another way than the script) nor may the coach play on for the learner (``auto``)."""
        return (
            self.learner_decides(state) and not self.finished and not self.taught(state) and self._auto(state) is None
        )

    def let_go(self) -> None:
        """Leave the script: the learner plays on freely (every legal action is on offer)."""
        self.index = len(self.script.steps)
        self.done_in_step = 0
        self._replies.clear()
        self._chance.clear()
        self.strayed = True

    # --- following the match ---------------------------------------------------------------

    def after(self, seat: int, action: Action) -> None:
        """Note an action played (by anyone): it may finish the step or use up a scripted reply or outcome."""
        text = str(action)
        if seat == CHANCE:
            if self._chance and self._chance[0] == text:
                self._chance.popleft()
            return
        if seat != self.script.learner:
            if self._replies and self._replies[0] == text:
                self._replies.popleft()
            return
        step = self.step
        if step is not None and any(fnmatch.fnmatchcase(text, p) for p in step.allow):
            self.done_in_step += 1
            if self.done_in_step < step.repeat:
                return
            self.done_in_step = 0
            self._replies.extend(step.replies)
            self.index += 1
            if self.step is not None:
                self._chance.extend(self.step.chance)

    def play(self, state: State, text: str) -> State:
        """The learner plays ``text``; only a taught action is accepted (IllegalAction otherwise)."""
        if text not in self.taught(state):
            step = self.step
            raise IllegalAction(
                "that is not what this step teaches" if step is not None else f"{text} is not a legal action now"
            )
        seat = self.script.learner
        state = state.apply(seat, self.game.parse_action(text))
        self.after(seat, self.game.parse_action(text))
        return state

    def next_other(self, state: State) -> tuple[int, Action] | None:
        """The next action of chance or of the other side at ``state``, or ``None`` when the
        learner decides (or the match is over)."""
        players = state.current_players()
        if not players:
            return None
        if self.script.learner in players:
            return self._auto(state)
        seat = players[0]
        if seat == CHANCE:
            outcomes = {str(a): a for a, _ in state.chance_outcomes()}
            if self._chance and self._chance[0] in outcomes:
                return seat, outcomes[self._chance[0]]
            return seat, sample_chance(state, random.Random(f"{self.script.seed}:chance:{state.ply}"))
        legal = {str(a): a for a in state.legal_actions(seat)}
        if self._replies and self._replies[0] in legal:
            return seat, legal[self._replies[0]]
        self._replies.clear()  # the match left the script's path: the bot plays on
        if self._bot is None:
            from soccerdesk.bots import make_bot

            self._bot = make_bot(self.script.opponent, self.script.game)
        return seat, self._bot.decide(state, seat, random.Random(f"{self.script.seed}:bot:{state.ply}"))

    def _auto(self, state: State) -> tuple[int, Action] | None:
        """The learner's action the coach plays itself: one matching ``auto`` while the step
        teaches nothing possible at this moment."""
        if self.finished or self.taught(state) or not self.script.auto:
            return None
        seat = self.script.learner
        for action in state.legal_actions(seat):
            if self.plays_itself(str(action)):
                return seat, action
        return None

    def plays_itself(self, text: str) -> bool:
        """``text`` is an action the coach plays for the learner when a step teaches nothing then (``auto``)."""
        return any(fnmatch.fnmatchcase(text, p) for p in self.script.auto)

    def play_others(self, state: State, limit: int = 10_000) -> State:
        """Play chance, the other side and the coach's own ``auto`` actions until the learner decides or the match ends."""
        for _ in range(limit):
            found = self.next_other(state)
            if found is None:
                return state
            seat, action = found
            state = state.apply(seat, action)
            self.after(seat, action)
        raise ScriptError(f"the other side did not hand the match back in {limit} actions")


def check_script(script: Script) -> State:
    """Play ``script`` through, the learner taking the pointed action at every step; return the
    position where its steps are done. A step that teaches nothing possible raises ScriptError.
    (For tests and for whoever writes a script.)"""
    coach = Coach(script)
    state = coach.play_others(coach.new_match())
    while not coach.finished:
        if state.is_terminal():
            raise ScriptError(f"the match ended before step {coach.index + 1}")
        pointed = coach.pointed(state)
        if pointed is None:
            legal = [str(a) for a in state.legal_actions(script.learner)]
            raise ScriptError(f"step {coach.index + 1} teaches nothing possible here; legal: {legal[:12]}")
        state = coach.play_others(coach.play(state, pointed))
    return state


__all__ = [
    "LEARN_KEY",
    "Coach",
    "Script",
    "ScriptError",
    "Step",
    "check_script",
    "has_script",
    "load_script",
    "parse_script",
]
