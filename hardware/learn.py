"""The learn wizard: walks a person through every cell and writes the board map.

`LearnWizard` is only the logic (a state machine: no print, no input, no clock), so the terminal
front end below and later the touchscreen drive the same thing. Feed it contacts (`contact`)
and the person's choices (`skip`, `back`, `redo`); read `current`, `progress` and the answers.
"""

from __future__ import annotations

import enum
import queue
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TextIO

from hardware.boardmap import BoardMap, Target, contact_key, from_pairs
from kiosk.board import BULL, Profile, board_for
from kiosk.i18n import _
from kiosk.inputs import DartInput, Disconnected, Info, UnmappedInput


@dataclass(frozen=True)
class Step(Target):
    """One thing to hit: the map entry it will become (SB/DB for the two bull parts)."""

    @property
    def prompt(self) -> str:
        if self.spelling == "SB":
            return _("throw or press the OUTER bull (25) now")
        if self.spelling == "DB":
            return _("throw or press the INNER bull (50) now (skip if your bull is one contact)")
        return _("throw or press {cell} now").format(cell=self.spelling)


class Outcome(enum.Enum):
    LEARNED = "learned"
    TAKEN = "taken"  # the contact already belongs to another cell: nothing changed
    SKIPPED = "skipped"
    BACK = "back"
    REDO = "redo"
    IGNORED = "ignored"  # a contact after the last cell
    DONE = "done"


@dataclass(frozen=True)
class Answer:
    outcome: Outcome
    message: str


def steps_for(profile: Profile) -> tuple[Step, ...]:
    cells = board_for(profile).cells
    steps = [Step(c, c.code) for c in cells if c != BULL]
    return (*steps, Step(BULL, "SB"), Step(BULL, "DB"))


class LearnWizard:
    def __init__(self, profile: Profile = Profile.FOUR_RING, start: BoardMap | None = None) -> None:
        self.profile = profile
        self.steps = steps_for(profile)
        self.index = 0
        self.contacts: dict[str, str] = {}  # raw contact -> spelling
        if start is not None:
            self.contacts = {raw: t.spelling for raw, t in start.contacts.items()}

    @property
    def current(self) -> Step | None:
        return self.steps[self.index] if self.index < len(self.steps) else None

    @property
    def prompt(self) -> str | None:
        step = self.current
        return step.prompt if step is not None else None

    @property
    def done(self) -> bool:
        return self.current is None

    @property
    def progress(self) -> tuple[int, int]:
        return self.index, len(self.steps)

    def contacts_of(self, step: Step) -> list[str]:
        return [raw for raw, spelling in self.contacts.items() if spelling == step.spelling]

    def _advance(self) -> None:
        self.index += 1

    def contact(self, raw: str) -> Answer:
        step = self.current
        key = contact_key(raw)
        if step is None:
            return Answer(Outcome.IGNORED, _("all cells are done: contact {raw} ignored").format(raw=key))
        owner = self.contacts.get(key)
        if owner is not None and self._one_single(owner, step):
            return self._three_rings(key, step)
        if owner is not None and owner != step.spelling:
            return Answer(
                Outcome.TAKEN,
                _("contact {raw} is already {cell}: hit {want} again, or skip").format(
                    raw=key, cell=owner, want=step.spelling
                ),
            )
        for old in self.contacts_of(step):
            del self.contacts[old]  # learning a cell again replaces its contact
        self.contacts[key] = step.spelling
        self._advance()
        return Answer(Outcome.LEARNED, _("{cell} = contact {raw}").format(cell=step.spelling, raw=key))

    def _one_single(self, owner: str, step: Step) -> bool:
        """The contact of the outer single is hit for the inner single of the same number (or
        the other way round): the board has one contact for both (a soft-tip board's 7 x 10
        matrix has 70 contacts, fewer than the four-ring board's 82 cells)."""
        if self.profile is not Profile.FOUR_RING:
            return False
        pair = {owner[:1], step.spelling[:1]}
        return pair == {"L", "S"} and owner[1:] == step.spelling[1:]

    def _three_rings(self, key: str, step: Step) -> Answer:
        """Go on as a three-ring board: its singles are one cell each (S), every outer single
        learned so far becomes that single, and the wizard carries on after this one."""
        self.profile = Profile.THREE_RING
        self.steps = steps_for(Profile.THREE_RING)
        self.contacts = {
            raw: "S" + cell[1:] if cell[:1] == "L" else cell for raw, cell in self.contacts.items()
        }
        merged = "S" + step.spelling[1:]
        self.contacts[key] = merged
        self.index = next(i for i, s in enumerate(self.steps) if s.spelling == merged) + 1
        return Answer(
            Outcome.LEARNED,
            _(
                "contact {raw} is both singles of {number}: this board has one contact for the two "
                "singles, so the map is three-ring (the two singles of a number are one cell)"
            ).format(raw=key, number=step.spelling[1:]),
        )

    def skip(self) -> Answer:
        step = self.current
        if step is None:
            return Answer(Outcome.DONE, _("all cells are done"))
        self._advance()
        return Answer(Outcome.SKIPPED, _("{cell} skipped").format(cell=step.spelling))

    def back(self) -> Answer:
        if self.index == 0:
            return Answer(Outcome.BACK, _("already at the first cell"))
        self.index -= 1
        step = self.steps[self.index]
        for old in self.contacts_of(step):
            del self.contacts[old]
        return Answer(Outcome.BACK, _("back to {cell}").format(cell=step.spelling))

    def redo(self) -> Answer:
        step = self.current
        if step is None:
            return self.back()
        for old in self.contacts_of(step):
            del self.contacts[old]
        return Answer(Outcome.REDO, _("{cell} forgotten: hit it again").format(cell=step.spelling))

    def board_map(self) -> BoardMap:
        return from_pairs(self.contacts.items(), self.profile, "learn")

    def problems(self) -> list[str]:
        return self.board_map().check()

    def map_text(self) -> str:
        return self.board_map().to_toml()


# --- the terminal front end ------------------------------------------------------------------


def keys_help() -> str:
    """In the language of the moment (the command sets it from the config after import)."""
    return _("keys: Enter or s = skip, b = back, r = redo, q = save and quit, c RAW = type a contact by hand")


def run_terminal(
    wizard: LearnWizard,
    start_input: Callable[[Callable[[Any], None]], Any],
    lines: Iterable[str],
    out: TextIO,
) -> BoardMap:
    """Drive the wizard from a board input (contacts) and typed lines (commands) until the last
    cell, `q` or the end of the typed lines. Returns the map learned so far."""
    inbox: queue.Queue[tuple[str, Any]] = queue.Queue()

    def typed() -> None:
        for line in lines:
            inbox.put(("line", line))
        inbox.put(("eof", None))

    device = start_input(lambda event: inbox.put(("event", event)))
    threading.Thread(target=typed, name="learn-stdin", daemon=True).start()
    say = lambda text: (out.write(text + "\n"), out.flush())  # noqa: E731
    say(keys_help())
    try:
        while not wizard.done:
            step = wizard.current
            assert step is not None
            done, total = wizard.progress
            say(f"[{done + 1}/{total}] {step.prompt}")
            answer = _next_answer(wizard, inbox, say)
            if answer is None:
                break
            say("  " + answer.message)
    finally:
        if device is not None:
            device.stop()
    return wizard.board_map()


def _next_answer(wizard: LearnWizard, inbox: queue.Queue, say: Callable[[str], Any]) -> Answer | None:
    """Wait for the next thing that changes the wizard; None means stop."""
    while True:
        kind, item = inbox.get()
        if kind == "eof":
            return None
        if kind == "line":
            text = item.strip()
            word = text.lower()
            if word in ("", "s", "skip"):
                return wizard.skip()
            if word in ("b", "back"):
                return wizard.back()
            if word in ("r", "redo"):
                return wizard.redo()
            if word in ("q", "quit"):
                return None
            if word.startswith("c "):
                return wizard.contact(text[2:].strip())
            say(keys_help())
            continue
        if isinstance(item, UnmappedInput):
            return wizard.contact(item.raw)
        if isinstance(item, DartInput):
            say(
                "  "
                + _(
                    "the board sent a cell ({raw}), not a raw contact: a board that names "
                    "its cells needs no map"
                ).format(raw=item.raw)
            )
        elif isinstance(item, Disconnected | Info):
            say("  " + item.to_json().get("reason", item.to_json().get("message", "")))
