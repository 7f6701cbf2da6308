"""The GPIO matrix scanner: rows driven low one at a time, columns read with pull-ups.

Two layers, so the logic is testable without pins and the same as the firmware's C logic:

* `ContactDebouncer` (pure, clock passed in): an integrating debounce per contact, edge
  detection, a lockout after each dart, stuck (held) contacts, and two contacts at once reported
  as `MultipleContacts`, never guessed.
* `MatrixScanner`: the pins (gpiozero, any pin factory: lgpio on a Pi, MockFactory in tests)
  and the scan thread.

`MockMatrixWiring` wires a MockFactory like a real matrix (closing contact r,c pulls column c
low while row r is driven low): the simulated backend for tests, the bench and demos.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hardware.boardmap import BoardMap, load_for_board
from hardware.dialects import mapped_contact
from hardware.sink import MultipleContacts, deliver
from hardware.stuck import STUCK_SECONDS, StuckWatch
from kiosk.board import Profile
from kiosk.i18n import _
from kiosk.inputs import Connected, DartInput, Disconnected, Info, InputEvent, StuckInput
from kiosk.ports import Sink

log = logging.getLogger("dartship.matrix")

Contact = tuple[int, int]  # (row index, column index)


def contact_name(contact: Contact) -> str:
    return f"{contact[0]},{contact[1]}"


@dataclass(frozen=True)
class Press:
    """A new dart on one contact."""

    contact: Contact


@dataclass(frozen=True)
class Held:
    """A contact closed longer than the stuck window (reported once per closing)."""

    contact: Contact


@dataclass(frozen=True)
class Several:
    """Two or more contacts became closed in the same scan."""

    contacts: tuple[Contact, ...]


@dataclass(frozen=True)
class Repeat:
    """The same contact closed again within the stuck window: not a new dart. `tell` is set on
    the first repeat of a run (the owner is told once)."""

    contact: Contact
    tell: bool = True


Change = Press | Held | Several | Repeat


@dataclass
class _Contact:
    level: int = 0  # the integrator: 0 open .. debounce_scans closed
    closed: bool = False
    since: float = 0.0
    held_told: bool = False


@dataclass
class ContactDebouncer:
    """Integrating debounce + edges + lockout + stuck, one scan at a time (no pins, no clock)."""

    debounce_scans: int = 3
    lockout_seconds: float = 0.020
    stuck_seconds: float = STUCK_SECONDS
    _contacts: dict[Contact, _Contact] = field(default_factory=dict)
    _lockout_until: float = float("-inf")
    _repeats: StuckWatch = field(default_factory=StuckWatch)

    def __post_init__(self) -> None:
        self._repeats = StuckWatch(self.stuck_seconds)

    def scan(self, closed: Iterable[Contact], now: float) -> list[Change]:
        closed_now = set(closed)
        rising: list[Contact] = []
        changes: list[Change] = []
        for contact in closed_now | set(self._contacts):
            state = self._contacts.setdefault(contact, _Contact())
            if contact in closed_now:
                state.level = min(state.level + 1, self.debounce_scans)
                if state.level >= self.debounce_scans and not state.closed:
                    state.closed, state.since, state.held_told = True, now, False
                    rising.append(contact)
            else:
                state.level = max(state.level - 1, 0)
                if state.level == 0:
                    # fully open again: forget it, so the table holds only live contacts
                    del self._contacts[contact]
                    continue
            if (
                state.closed
                and not state.held_told
                and contact in closed_now
                and contact not in rising
                and now - state.since >= self.stuck_seconds
            ):
                state.held_told = True
                changes.append(Held(contact))
        if not rising or now < self._lockout_until:
            return changes  # nothing new, or swallowed by the lockout (they stay closed)
        self._lockout_until = now + self.lockout_seconds
        if len(rising) > 1:
            changes.append(Several(tuple(sorted(rising))))
            return changes
        contact = rising[0]
        repeat, tell = self._repeats.repeat(contact_name(contact), now)
        changes.append(Repeat(contact, tell) if repeat else Press(contact))
        return changes

    @property
    def closed(self) -> tuple[Contact, ...]:
        return tuple(sorted(c for c, s in self._contacts.items() if s.closed))


class MatrixScanner:
    """Scans a rows x cols contact matrix on GPIO pins and hands darts to the sink."""

    rings_told = True  # its board map (or board.profile) says what it reports
    takes_out = False  # contacts only: Next ends a visit

    def __init__(
        self,
        rows: Sequence[int],
        cols: Sequence[int],
        sink: Sink,
        *,
        board_map: BoardMap | None = None,
        debounce_scans: int = 3,
        lockout_ms: float = 20,
        scan_hz: float = 1000,
        stuck_seconds: float = STUCK_SECONDS,
        pin_factory: Any = None,
        profile: Profile = Profile.FOUR_RING,
    ) -> None:
        self.profile = board_map.profile if board_map is not None else profile
        self.row_pins = tuple(rows)
        self.col_pins = tuple(cols)
        self.sink = sink
        self.board_map = board_map
        self.period = 1.0 / scan_hz
        self.pin_factory = pin_factory
        self.debouncer = ContactDebouncer(debounce_scans, lockout_ms / 1000, stuck_seconds)
        self._rows: list[Any] = []
        self._cols: list[Any] = []
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def name(self) -> str:
        return _("GPIO matrix {rows}x{cols}").format(rows=len(self.row_pins), cols=len(self.col_pins))

    def open(self) -> bool:
        """Claim the pins; on failure say why (Disconnected) and return False."""
        from gpiozero import InputDevice

        try:
            # Rows idle as floating inputs and are driven low only while scanned: with two
            # contacts closed in one column, an idle row driven high would be shorted to the
            # scanned one (the firmware does the same; no diodes needed).
            self._rows = [
                InputDevice(p, pull_up=None, active_state=False, pin_factory=self.pin_factory)
                for p in self.row_pins
            ]
            self._cols = [InputDevice(p, pull_up=True, pin_factory=self.pin_factory) for p in self.col_pins]
        except Exception as err:  # no GPIO here, a pin in use, a bad pin number
            self.close()
            deliver(self.sink, Disconnected(_("cannot use the GPIO pins: {error}").format(error=err)))
            return False
        return True

    def close(self) -> None:
        for device in self._rows + self._cols:
            try:
                device.close()
            except Exception:
                log.debug("closing a pin failed", exc_info=True)
        self._rows, self._cols = [], []

    def read_closed(self) -> list[Contact]:
        """One full scan of the pins: the contacts that read closed right now."""
        closed: list[Contact] = []
        col_pins = [c.pin for c in self._cols]
        for r, row in enumerate(self._rows):
            pin = row.pin
            pin.function = "output"  # claimed low at once (lgpio claims outputs at level 0)
            pin.state = 0
            for c, col in enumerate(col_pins):
                if not col.state:
                    closed.append((r, c))
            pin.function = "input"
        return closed

    def scan_once(self, now: float | None = None) -> None:
        """Scan the pins once and report what changed (the thread calls this; tests too)."""
        now = time.monotonic() if now is None else now
        for change in self.debouncer.scan(self.read_closed(), now):
            self._report(change)

    def use_map(self, path: Path) -> None:
        """The board map Learn board saved, from the next contact on (`kiosk.ports.MappedBoard`):
        before, the scanner kept the map it was started with until the kiosk's next start (qa9).
        One assignment each, so a scan reads the old map or the new one."""
        board_map = load_for_board(path)
        self.profile = board_map.profile
        self.board_map = board_map

    def _event_for(self, contact: Contact) -> InputEvent:
        # the same map lookup as the serial dialects: unmapped contacts are never guessed
        return mapped_contact(contact_name(contact), contact_name(contact), self.board_map)

    def _report(self, change: Change) -> None:
        if isinstance(change, Several):
            deliver(self.sink, MultipleContacts.of(tuple(contact_name(c) for c in change.contacts)))
        elif isinstance(change, Press):
            deliver(self.sink, self._event_for(change.contact))
        elif isinstance(change, Held) or (isinstance(change, Repeat) and change.tell):
            event = self._event_for(change.contact)
            if isinstance(event, DartInput):
                deliver(self.sink, StuckInput(event.cell))
            else:
                deliver(
                    self.sink,
                    Info(_("contact {raw} is held or repeating").format(raw=contact_name(change.contact))),
                )

    def start(self) -> None:
        if self._thread is not None:
            return
        if not self._rows and not self.open():
            return
        deliver(self.sink, Connected(self.name))
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="dartship-matrix", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        next_scan = time.monotonic()
        while not self._stopping.is_set():
            try:
                self.scan_once()
            except Exception as err:  # a pin error mid-game: say so, keep scanning
                deliver(self.sink, Info(_("matrix scan failed: {error}").format(error=err)))
                self._stopping.wait(0.5)
            next_scan += self.period
            delay = next_scan - time.monotonic()
            if delay > 0:
                self._stopping.wait(delay)
            else:
                next_scan = time.monotonic()  # fell behind: do not try to catch up in a burst

    def stop(self, timeout: float = 2.0) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self.close()


class MockMatrixWiring:
    """Makes a gpiozero MockFactory behave like a wired contact matrix.

    Create it before the scanner (it claims the row pins as wired mock pins), then `press`
    and `release` contacts by (row index, column index).
    """

    def __init__(self, factory: Any, rows: Sequence[int], cols: Sequence[int]) -> None:
        from gpiozero.pins.mock import MockPin

        wiring = self

        class WiredRowPin(MockPin):
            def _change_state(self, value: Any) -> bool:
                changed = super()._change_state(value)
                if changed:
                    wiring._settle()
                return changed

            def _set_function(self, value: Any) -> None:
                super()._set_function(value)
                wiring._settle()  # a row let go (input) no longer pulls its columns low

        self._closed: set[Contact] = set()
        self._lock = threading.RLock()
        self.rows = [factory.pin(p, pin_class=WiredRowPin) for p in rows]
        self.cols = [factory.pin(p) for p in cols]

    def press(self, *contacts: Contact) -> None:
        with self._lock:
            self._closed.update(contacts)
            self._settle()

    def release(self, *contacts: Contact) -> None:
        with self._lock:
            if contacts:
                self._closed.difference_update(contacts)
            else:
                self._closed.clear()
            self._settle()

    def _settle(self) -> None:
        with self._lock:
            for c, col in enumerate(self.cols):
                if col.function != "input":
                    continue
                low = any(
                    not self.rows[r].state
                    for r, cc in self._closed
                    if cc == c and self.rows[r].function == "output"
                )
                if low:
                    col.drive_low()
                elif col.pull == "up":
                    col.drive_high()
