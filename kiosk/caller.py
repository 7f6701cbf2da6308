"""The caller: a voice that says what the screen shows (HIT, SUNK, whose turn), in the kiosk's
language, for any game whose kind has a phrasebook (`GameKind.phrasebook`).

It hears the service like the buzzer does: after the commit, on the loop. There it only asks
the game's phrasebook what to say (pure, from the events and the public view) and puts the
calls in its queue; a thread of its own plays them (`Speaker`, which blocks), and another
renders ahead what a game will need (`Voice.render`: espeak-ng, a subprocess). The loop never
waits for either.

The queue's rules:

* at most one call plays and one waits: a new call replaces the one waiting, so calls never
  pile up behind a fast thrower;
* a call that `keep`s (SUNK, the win, who starts) is never replaced or cut: what comes after
  waits for it ("Sunk" is never cut by the next visit's "Jets to throw");
* an undo or a correction cancels the calls about the dart it took back (`Call.about`): one
  still waiting is dropped, one playing is stopped;
* a call waits for its moment: an update the screen plays out over a few seconds (the dice of
  Battleship Express) gives the same `delay` the buzzer waits, so voice and buzzer go together;
* a call `aside` from the kiosk's own game (a phone room's duel, `hear_table`) comes second: it
  is dropped while a call of the kiosk's own game waits, and any later call replaces it while
  it waits (the game at the kiosk's board is never kept waiting by a duel of two phones).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from kiosk.i18n import _, language
from kiosk.ports import Speaker, Voice
from kiosk.service import GameService, GameStarted, MatchUpdate, ServiceEvent
from kiosk.speech import Call, CallOptions, Phrasebook, TableCalls, Words

log = logging.getLogger("dartship.caller")

MAX_KEPT = 4  # calls that keep, waiting at once: more means the room is far behind anyway


def test_call() -> Call:
    """What `dartship doctor --sound` and Settings' Test voice say."""
    return Call((Words("test", _("This is the Dartship caller. Hit. Miss. Sunk!")),))


@dataclass
class _Queued:
    call: Call
    language: str
    due: float  # when it may start (monotonic seconds)
    heard: float  # when its announcement was heard


class Caller:
    """The voice of the kiosk (see the module's docstring). `attach()` starts it, `close()`
    stops it; `apply()` takes the owner's settings at once."""

    def __init__(
        self,
        service: GameService,
        voice: Voice,
        speaker: Speaker,
        *,
        enabled: bool = True,
        volume: float = 0.8,
        say_cell: bool = False,
        phone_duels: bool = True,
        delay: Callable[[Sequence[Any]], float] | None = None,
        clock: Callable[[], float] = time.monotonic,
        wait_for_face: bool = False,
    ) -> None:
        self.service = service
        self.voice = voice
        self.speaker = speaker
        self.enabled = enabled
        self.volume = volume
        self.say_cell = say_cell
        self.phone_duels = phone_duels  # call the phone rooms' duels (`hear_table`)
        self.delay = delay
        self.clock = clock
        self.silent: str | None = None  # why nothing can be heard (no audio device)
        self._opened = False
        self._opening_due = False  # a new game whose first turn is not yet called
        # Whether every side the game gives a phone link holds it (`phones_changed` says when
        # that may have changed): a classic duel's first turn waits for its hand-over.
        self.handed_over: Callable[[], bool] = lambda: True
        self._cond = threading.Condition()
        self._pending: list[_Queued] = []
        self._playing: _Queued | None = None
        self._cancelled: _Queued | None = None
        self._closing = False
        self._thread: threading.Thread | None = None
        self._renderer = ThreadPoolExecutor(1, thread_name_prefix="dartship-voice")
        self._unsubscribe: Callable[[], None] | None = None
        # The speaker opens once the face is up (`face_up`): the screen's Kivy and SDL are then
        # set up on the main thread, and the audio is opened after them, never beside them.
        self._face = threading.Event()
        if not wait_for_face:
            self._face.set()

    # -- life --

    def attach(self) -> Caller:
        if self._unsubscribe is None:
            self._unsubscribe = self.service.subscribe(self.heard)
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="dartship-caller", daemon=True)
            self._thread.start()
        if self.service.match is not None:
            self._prepare_game()
        return self

    def face_up(self) -> None:
        """The screen's first frame is drawn (headless: the phone page is up): the caller may
        open the audio device and speak. Calls made before wait for it (newer ones replacing
        older, as always)."""
        self._face.set()

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        with self._cond:
            self._closing = True
            self._pending.clear()
            self._cond.notify_all()
        self._face.set()
        self.speaker.stop()
        if self._thread is not None:
            self._thread.join(2.0)
        self._renderer.shutdown(wait=False, cancel_futures=True)
        with contextlib.suppress(Exception):
            self.speaker.close()

    def apply(
        self,
        enabled: bool,
        volume: float,
        say_cell: bool,
        voices: dict[str, str] | None = None,
        phone_duels: bool | None = None,
    ) -> None:
        """The owner's settings, at once (a voice changes at its next rendering)."""
        self.enabled, self.volume, self.say_cell = enabled, volume, say_cell
        if phone_duels is not None:
            self.phone_duels = phone_duels
        if voices is not None:
            self.voice.voices = dict(voices)
        if not enabled:
            self.cancel_all()

    # -- hearing the service (on the loop: never blocks) --

    def heard(self, event: ServiceEvent) -> None:
        if isinstance(event, GameStarted):
            self.cancel_all()
            self._prepare_game()
            # A new game's first turn is called once its play begins (at once in Express; in
            # classic once both fleets stand): a resumed or rebuilt game has had its call.
            self._opening_due = not event.resumed
            self._open_play()
            return
        if not isinstance(event, MatchUpdate):
            return
        book = self._phrasebook()
        match = self.service.match
        if book is None or match is None:
            return
        calls = book.calls(event.events, match.public_view(), CallOptions(self.say_cell))
        if calls.cancel_from is not None:
            self.cancel(calls.cancel_from)
        if self.enabled and calls.say:
            wait = self.delay(event.events) if self.delay is not None else 0.0
            for call in calls.say:
                self.say(call, wait)
        self._open_play()

    def hear_table(self, service: GameService, calls: TableCalls) -> Callable[[], None]:
        """Call what `calls` makes of another table's game (a phone room's, on its own
        service): said `aside` (see the module's docstring) while `phone_duels` is on. Returns
        the unsubscribe (a table let go takes its listener with it)."""

        def heard(event: ServiceEvent) -> None:
            if not (self.enabled and self.phone_duels) or self._closing:
                return
            if not isinstance(event, MatchUpdate) or service.match is None:
                return
            call = calls(event.events, service.match.public_view())
            if call is not None:
                self.say(replace(call, aside=True))

        return service.subscribe(heard)

    def phones_changed(self) -> None:
        """A phone took a link or a link changed (the phone server's `subscribe`, on the
        loop): a first turn waiting for its hand-over may be due now."""
        self._open_play()

    def _open_play(self) -> None:
        """Say who plays first, if a new game's play has just begun (`Phrasebook.opening`):
        never cut by the next call."""
        book, match = self._phrasebook(), self.service.match
        if not self._opening_due or book is None or match is None:
            return
        words = book.opening(match.public_view(), self.handed_over())
        if words:
            self._opening_due = False
            if self.enabled:
                self.say(Call(words, None, keep=True))

    def _phrasebook(self) -> Phrasebook | None:
        kind = self.service.kind
        return kind.phrasebook() if kind is not None else None

    # -- the queue --

    def say(self, call: Call, wait: float = 0.0) -> None:
        """Queue a call (from any thread): it replaces a waiting one that does not keep."""
        if not call.words:
            return
        with self._cond:
            now = self.clock()
            if call.aside and any(not q.call.aside for q in self._pending):
                return  # the kiosk's own game has a call waiting: it comes first
            kept = [q for q in self._pending if q.call.keep and not q.call.aside][-MAX_KEPT:]
            self._pending = [*kept, _Queued(call, language(), now + max(0.0, wait), now)]
            self._cond.notify_all()

    def cancel(self, about: int) -> None:
        """Drop the calls about dart `about` and later ones; stop the one playing if it is."""

        def taken_back(item: _Queued) -> bool:
            return item.call.about is not None and item.call.about >= about

        with self._cond:
            self._pending = [q for q in self._pending if not taken_back(q)]
            playing = self._playing
            if playing is not None and taken_back(playing):
                self._cancelled = playing
                self.speaker.stop()

    def cancel_all(self) -> None:
        with self._cond:
            self._pending.clear()
            if self._playing is not None:
                self._cancelled = self._playing
                self.speaker.stop()

    @property
    def pending(self) -> list[Call]:
        """The calls waiting, in order (tests and the bench)."""
        with self._cond:
            return [q.call for q in self._pending]

    def idle(self) -> bool:
        with self._cond:
            return not self._pending and self._playing is None

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until nothing waits or plays (tests, the bench, doctor)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.idle():
                return True
            time.sleep(0.005)
        return self.idle()

    # -- the thread that plays --

    def _open(self) -> None:
        """Ready the audio device once (on this thread: it may take a moment), saying once in
        the journal if there is none or no synthetic voice."""
        self._opened = True
        reason = self.speaker.open()
        if reason:
            self.silent = reason
            log.warning(_("caller: no audio device (%s); the kiosk plays on silently"), reason)
        problem = self.voice.problem()
        if problem:
            log.warning(_("caller: no synthetic voice (%s); only recorded phrases are said"), problem)

    def _run(self) -> None:
        self._face.wait()
        if self.enabled and not self._closing:
            self._open()  # at start, so the journal says at once if nothing can be heard
        while True:
            with self._cond:
                item = self._next_due()
                if item is None:
                    return
                self._playing = item
            try:
                self._play(item)
            except Exception:  # a broken file or device must not end the caller for good
                log.exception(_("caller: could not say %r"), item.call.text)
            finally:
                with self._cond:
                    self._playing = None
                    if self._cancelled is item:
                        self._cancelled = None
                    self._cond.notify_all()

    def _next_due(self) -> _Queued | None:
        """The first waiting call once its moment has come (None: closing). Holds the lock."""
        while not self._closing:
            if self._pending:
                wait = self._pending[0].due - self.clock()
                if wait <= 0:
                    return self._pending.pop(0)
                self._cond.wait(wait)
            else:
                self._cond.wait()
        return None

    def _play(self, item: _Queued) -> None:
        if not self._opened:
            self._open()
        log.info(_("caller: %s"), item.call.text)
        for words in item.call.words:
            if self._cancelled is item or self._closing:
                return
            path = self.voice.find(words, item.language) or self.voice.render(words, item.language)
            if path is not None and self.silent is None:
                self.speaker.play(path, self.volume)

    # -- rendering ahead --

    def _prepare_game(self) -> None:
        """The game's names first, then its phrases, rendered in the background."""
        book = self._phrasebook()
        match = self.service.match
        if book is None or match is None:
            return
        words = [*book.names(match.public_view()), *book.phrases(CallOptions(self.say_cell))]
        self.prepare(words)

    def prepare(self, words: Iterable[Words], languages: Iterable[str] | None = None) -> None:
        """Render these words ahead (in the background) where neither a recording nor the
        cache has them."""
        wanted = [(w, lang) for lang in (languages or (language(),)) for w in words]
        if not wanted or self._closing:
            return

        def render() -> None:
            for w, lang in wanted:
                if self._closing:
                    return
                if self.voice.find(w, lang) is None:
                    self.voice.render(w, lang)

        with contextlib.suppress(RuntimeError):  # shut down: nothing more to render
            self._renderer.submit(render)
