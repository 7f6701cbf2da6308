"""The kiosk app as a plain Kivy App: its screens (the shell's and every hosted game's, found
through the registry), the service listener that routes match events, the chrome (banner, badge,
toast), and the frame rate.

Built only once Kivy is configured (`ui.touch.app.make_app`): importing Kivy's window opens it,
so this module, like every module of ui.touch, imports it only where it is used (importing a
screen's module early, in a test or a tool, opens no window: tests/ui/test_touch_imports.py).
Service listeners are called on the one asyncio loop, which is the thread Kivy draws on: they may
touch widgets. Device threads never do (they only queue events).
"""

from __future__ import annotations

import logging
import random
import sqlite3
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import NoTransition, ScreenManager

from kiosk.config import ConfigError, Settings
from kiosk.errors import RuleError
from kiosk.i18n import _, set_language
from kiosk.rooms import in_play, start_over_question
from kiosk.service import GameService, GameStarted, MatchUpdate, Notice, NoticeKind, ServiceEvent
from kiosk.store import StoreError
from ui.touch import games, kivy_setup, theme
from ui.touch.controls import Panel, fitting_font
from ui.touch.question import Question
from ui.touch.quit import EscapeKey
from ui.touch.toast import LEAST_HEIGHT, Box, controls, place, reaching_up, widget_box

if TYPE_CHECKING:
    from kiosk.house import Kiosk
    from ui.touch.screens.base import KioskScreen

log = logging.getLogger("dartship.touch")

HEARTBEAT_SECONDS = 2.0
READING_WORDS_PER_SECOND = 3.0  # a toast stays as long as a bar's reader needs for it


def reading_seconds(message: str) -> float:
    """How long a toast of `message` stays at least: a second, and a third of one a word."""
    return 1.0 + len(message.split()) / READING_WORDS_PER_SECOND


# Frames per second: smooth while something happens, few while the screen only waits (a kiosk
# waits most of the day; every frame costs CPU even when nothing changes). A touch or any news
# from the service brings the full rate back at once; it drops again after DOZE_AFTER quiet s.
ACTIVE_FPS, IDLE_FPS, DOZE_AFTER = 60.0, 20.0, 5.0


def set_fps(fps: float) -> None:
    """The clock's frame rate from now on. Kivy reads `graphics.maxfps` once, at start; its
    clock keeps the rate in `_max_fps` and reads it again before every frame (Kivy 2.x)."""
    if hasattr(Clock, "_max_fps"):
        Clock._max_fps = fps


class DartshipApp(App):
    # A game's last dart stays on screen a moment before the result card replaces it.
    result_delay = 3.0

    def __init__(self, kiosk: Kiosk, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.kiosk = kiosk
        self.games = games.games(kiosk.rooms)  # the hosted games that have screens here
        self._results = games.results(self.games)
        self._opened_by = games.opened_by(self.games)
        self._throwing = games.throwing(self.games)
        self.rng = random.Random()
        self.title = "Dartship"
        self._unsubscribe: Callable[[], None] | None = None
        self._result_event: Any = None  # a Kivy ClockEvent while the result card waits
        self._ready_sent = False
        self.sm: ScreenManager | None = None
        # Screens that follow a running game by themselves (ui/touch/games.py); the others
        # (home, stats, settings, a game's start screen) are left alone.
        self.flow_names: tuple[str, ...] = ()
        self.asking: Question | None = None  # "Start a new game?" while it is open

    # -- handy views of the kiosk --

    @property
    def service(self) -> GameService:
        return self.kiosk.service

    @property
    def settings(self) -> Settings:
        return self.kiosk.settings

    @property
    def simulator(self) -> bool:
        return self.kiosk.simulator is not None

    # -- building --

    def build(self) -> FloatLayout:
        from kivy.core.window import Window  # here, not at the top: importing it opens the window

        theme.set_window(*Window.size)
        kivy_setup.apply_to_window(self.kiosk.settings)
        Window.clearcolor = theme.BACKGROUND
        self.root_layout = FloatLayout()
        self._build_screens()
        self.root_layout.bind(size=lambda *_a: self._sync_chrome())  # the banner's strip follows
        self._unsubscribe = self.service.subscribe(self.on_service_event)
        Clock.schedule_interval(lambda _dt: self.kiosk.heartbeat(), HEARTBEAT_SECONDS)
        Window.bind(on_flip=self._first_frame)
        self.escape = EscapeKey(lambda: self.kiosk.settings.display.kiosk_mode, self.stop)
        Window.bind(on_keyboard=self._on_key)
        for touch_event in ("on_touch_down", "on_touch_move", "on_touch_up"):
            Window.bind(**{touch_event: self.wake})
        self.wake()
        self.follow_phase(initial=True)
        return self.root_layout

    def _build_screens(self) -> None:
        from ui.touch.screens.home import HomeScreen
        from ui.touch.screens.league import LeagueScreen
        from ui.touch.screens.learn import LearnScreen
        from ui.touch.screens.pin import PinScreen
        from ui.touch.screens.settings import SettingsScreen
        from ui.touch.screens.stats import StatsScreen

        s = theme.sizes()
        self._lower_toast()  # a toast over a popup stands on the window itself
        if self.sm is not None and self.sm.current_screen is not None:
            # The screen on show is left as any screen is left, so it lets go of what it
            # follows (the phone page's changes): a screen thrown away kept refreshing unseen,
            # drawing a team's code from a step of a game long gone.
            self.sm.current_screen.dispatch("on_pre_leave")
            self.sm.current_screen.dispatch("on_leave")
        self.root_layout.clear_widgets()
        self.sm = ScreenManager(transition=NoTransition())
        # The games' screens before Home: Home offers the games whose screens are there.
        for cls, name in (
            *games.screens(self.games),
            (StatsScreen, "stats"),
            (PinScreen, "pin"),
            (SettingsScreen, "settings"),
            (LearnScreen, "learn"),
            (LeagueScreen, "league"),
            (HomeScreen, "home"),
        ):
            self.sm.add_widget(cls(self, name=name))
        self.sm.current = "home"
        self.flow_names = games.flow_screens(self.games)
        self.root_layout.add_widget(self.sm)
        # A banner nobody can miss while the board is not counting darts.
        self.banner = Panel(
            background=theme.DANGER,
            size_hint=(1, None),
            height=s(44),
            pos_hint={"x": 0, "top": 1},
            padding=(s(8), 0),
        )
        self.banner_label = Label(font_size=s(22), bold=True, color=theme.TEXT)
        self.banner.add_widget(self.banner_label)
        # No sensor: the players score each dart by tapping where it landed.
        self.badge = Label(
            text=_("MANUAL SCORING"),
            font_size=s(14),
            bold=True,
            color=theme.WARN,
            size_hint=(None, None),
            size=(s(170), s(22)),
            pos_hint={"x": 0.005, "top": 0.995},
        )
        self.toast_panel = Panel(
            background=theme.PANEL_LIGHT, size_hint=(None, None), height=s(LEAST_HEIGHT), radius=s(8)
        )
        # Never cut: a refusal says what was wrong, which rarely fits in one line (`toast`).
        self.toast_label = Label(font_size=s(20), color=theme.TEXT, halign="center", valign="middle")
        self.toast_label.bind(size=lambda w, *_: setattr(w, "text_size", w.size))
        self.toast_panel.add_widget(self.toast_label)
        # Overlays are hidden by opacity only: a disabled widget would swallow the taps
        # meant for the buttons under it.
        self.toast_panel.opacity = 0
        # Where the shown toast was placed: the anchor's box and every control's (`_follow_toast`).
        self._toast_among: tuple[Box | None, tuple[Box, ...]] | None = None
        self._roomy: KioskScreen | None = None  # the screen that made room for the toast shown
        self.root_layout.add_widget(self.badge)
        self.root_layout.add_widget(self.toast_panel)
        self.root_layout.add_widget(self.banner)
        self._sync_chrome()

    def rebuild(self, screen: str = "home") -> None:
        """Rebuild every screen (after a language change: texts are made at build time)."""
        self._build_screens()
        self.go(screen)

    def _sync_chrome(self) -> None:
        # Only where darts are thrown: there the top-left corner is the drawn board's empty
        # corner, elsewhere it is a heading (the games without darts have no SIMULATOR badge).
        throwing = self.sm is not None and self.sm.current in self._throwing
        self.badge.opacity = 1 if self.simulator and throwing else 0
        disconnected = self.service.board_connected is False
        paused = self.service.paused
        shown = bool(disconnected or paused)
        self.banner.opacity = 1 if shown else 0
        # The banner takes its own strip at the top rather than covering the screen's top row
        # (the game's Home and Phones): every screen is laid out below it while it shows.
        if self.sm is not None:
            self.sm.size_hint = (1, None) if shown else (1, 1)
            self.sm.pos_hint = {"x": 0, "y": 0}
            if shown:
                self.sm.height = max(0, self.root_layout.height - self.banner.height)
        if paused:
            # Nothing is played while nothing can be saved: say so until saving works again.
            self.banner_label.text = paused
        elif disconnected and self.service.board_camera:
            # An Autodarts board has no cable to the kiosk: its cameras stopped (calibrating, in
            # error) or its Board Manager is out of reach on the network.
            self.banner_label.text = _(
                "Camera scorer offline – darts are not counted. Check the Board Manager."
            )
        elif disconnected:
            self.banner_label.text = _("Board disconnected – darts are not counted. Check the cable.")

    def _first_frame(self, *_args: object) -> None:
        from kivy.core.window import Window

        if not self._ready_sent:
            self._ready_sent = True
            Window.unbind(on_flip=self._first_frame)
            self.kiosk.ready()

    def wake(self, *_args: object) -> bool:
        """Full frame rate for the next DOZE_AFTER seconds. Returns False: a touch goes on
        to the widgets as usual."""
        set_fps(ACTIVE_FPS)
        Clock.unschedule(self._doze)
        Clock.schedule_once(self._doze, DOZE_AFTER)
        return False

    def _doze(self, *_args: object) -> None:
        set_fps(IDLE_FPS)

    def _on_key(self, _window: object, key: int, *_args: object) -> bool:
        # Kivy's exit_on_escape is off: Escape asks first (ui/touch/quit.py), and never
        # reaches screens as "back".
        return self.escape.pressed(key)

    def on_stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    # -- navigation --

    def go(self, name: str) -> None:
        assert self.sm is not None
        if self.sm.current == name:
            self.sm.current_screen.refresh()
        else:
            self.sm.current = name
        self._sync_chrome()

    def screen(self, name: str) -> Any:
        assert self.sm is not None
        return self.sm.get_screen(name)

    def flow_screen(self) -> str | None:
        """The screen the running game (of any kind) belongs on, or None without a game."""
        return games.flow_screen(self.games, self.service)

    def follow_phase(self, initial: bool = False) -> None:
        target = self.flow_screen()
        if initial:
            # A game being set up when the kiosk stopped (a line-up, kept in the store's
            # drafts) comes back where the players left it; otherwise a resumed game goes
            # straight back where it stopped: an unfinished one to its screen, a just-finished
            # one to its result card (kiosk.app.root).
            for name in games.draft_screens(self.games):
                if self.screen(name).resume_draft():
                    self.go(name)
                    return
            self.go(target or "home")
            return
        assert self.sm is not None
        if target is None or self.sm.current not in self.flow_names:
            return
        if target in self._opened_by and self.sm.current == self._opened_by[target]:
            return  # that screen shows the last roll, then opens the result card itself
        if target in self._results and self.sm.current in self._results[target]:
            if self._result_event is None:
                self._result_event = Clock.schedule_once(self._show_result, self.result_delay)
            return
        self.go(target)

    def _show_result(self, *_args: object) -> None:
        self._result_event = None
        target = self.flow_screen()
        if target in self._results and self.sm is not None and self.sm.current in self._results[target]:
            self.go(target)

    # -- starting a game --

    def start_game(self, start: Callable[[], None]) -> None:
        """Every game's start (its start screen's Start, its result's Rematch) comes through
        here. With no unfinished game in play `start` runs at once. Over one, a stranger's tap
        must not end it: the kiosk asks first. "Keep playing" goes back to the game in play;
        "Start new game" abandons it as Settings -> Abandon does (stored so, with no winner),
        then runs `start`. `start` shows its own refusals."""
        service = self.service
        unfinished = in_play(service)
        if unfinished is None:
            start()
            return
        if self.asking is not None:
            return  # one question at a time
        self.asking = Question(
            unfinished,
            start_over_question(),
            stay=_("Keep playing"),
            go=_("Start new game"),
            on_go=lambda: self._abandon_and_start(start),
            on_stay=lambda: self.go(self.flow_screen() or "home"),
        )
        self.asking.bind(on_dismiss=self._question_closed)
        log.info("game %s is in play: asked before a new game starts", service.game)
        self.asking.open()

    def _put_drafts_away(self) -> None:
        """A game started: whatever was being set up (its line-up) is not wanted after a restart."""
        store = self.service.store
        if store is None:
            return
        try:
            store.drafts.put_away()
        except (sqlite3.Error, OSError, StoreError) as err:
            log.warning("the drafts could not be put away (%s)", err)

    def _question_closed(self, *_args: object) -> None:
        self.asking = None

    def _abandon_and_start(self, start: Callable[[], None]) -> None:
        try:
            game = self.service.abandon()
        except RuleError as err:  # it cannot be stored so (NotSaved): nothing changes
            self.toast(str(err))
            return
        log.info("game %s abandoned for a new game", game)
        start()

    # -- the service --

    def on_service_event(self, event: ServiceEvent) -> None:
        assert self.sm is not None
        self.wake()  # an announcement or a new screen comes: draw it smoothly
        if isinstance(event, GameStarted):
            if not event.resumed:  # a new game, not one rebuilt or resumed from the store
                self._put_drafts_away()
            if self._result_event is not None:
                self._result_event.cancel()
                self._result_event = None
            for name in self.flow_names:
                self.screen(name).reset()
            target = self.flow_screen() or "home"
            self.go(target)
        elif isinstance(event, MatchUpdate):
            current = self.sm.current_screen
            if current.name in self.flow_names:
                current.on_update(event)
            self.follow_phase()
        elif isinstance(event, Notice) and event.kind is NoticeKind.ABANDONED:
            for name in self.flow_names:
                self.screen(name).reset()
            if self.sm.current in self.flow_names:
                self.go("home")
        elif isinstance(event, Notice):
            if event.kind in (
                NoticeKind.CONNECTED,
                NoticeKind.DISCONNECTED,
                NoticeKind.PAUSED,
                NoticeKind.RESUMED,
            ):
                self._sync_chrome()
            if event.kind is NoticeKind.PAUSED or event.message == self.service.paused:
                return  # the banner says it, for as long as it is true
            brief = event.kind in (NoticeKind.CONNECTED, NoticeKind.RESUMED)
            self.toast(event.message, seconds=2 if brief else 4)

    def toast(self, message: str, seconds: float = 4.0) -> None:
        """A short message (refusals, device news), never over a button (`_place_toast`). The
        whole message, always: it wraps, and a long one gets a taller panel, or a smaller font
        (to 60 %) where no place is tall enough; it stays long enough to be read."""
        self.toast_label.text = message
        self._toast_among = None
        self._give_toast_room_back()  # a new message: a screen's room made for the last one goes
        self._follow_toast()
        self.toast_panel.opacity = 1
        # Placed again whenever the controls under it move while it shows: a toast that comes
        # with a change of screen was placed among the buttons of a screen not laid out yet,
        # and a screen may change (another screen, a button that comes) while it is read.
        Clock.unschedule(self._follow_toast)
        Clock.schedule_interval(self._follow_toast, 0)
        Clock.unschedule(self._hide_toast)
        Clock.schedule_once(self._hide_toast, max(seconds, reading_seconds(message)))

    def _follow_toast(self, *_args: object) -> None:
        """The toast placed again if the controls or the anchor moved since it was placed."""
        self._lift_toast()
        anchor = self.sm.current_screen.toast_anchor() if self.sm is not None else None
        among = (
            widget_box(anchor) if anchor is not None and anchor.get_root_window() is not None else None,
            tuple(box for _widget, box in controls(skip=self.toast_panel)),
        )
        if among != self._toast_among:
            self._toast_among = among
            self._place_toast(among[0], list(among[1]))

    def _place_toast(self, board: Box | None, shown: list[Box]) -> None:
        """The lowest place clear of every control (`ui.touch.toast`): over the drawn board on
        the screens that have one (their `toast_anchor`), else anywhere on the window; at the
        full font if a place is tall enough, else at 80 % or 60 % of it; below 80 %, the screen
        is asked to make room (`KioskScreen.toast_room`). Where no place is clear
        even so (none of the kiosk's screens: `dartship screenshots --check` says so), at the
        bottom, the font fitted to it."""
        from kivy.core.window import Window

        s = theme.sizes()
        label, panel = self.toast_label, self.toast_panel
        window = Box(0.0, 0.0, float(Window.width), float(Window.height))
        regions = [window.grown(-s(8))]
        if board is not None:
            regions.insert(
                0,
                Box(board.x + s(16), board.y + s(8), board.width - 2 * s(16), board.height - 2 * s(8)),
            )
        obstacles = [box.grown(s(4)) for box in shown]
        clear = self._clear_place(regions, obstacles)
        readable = 0.8 * s(20)
        if clear is None or clear[1] < readable:
            # Not read here (60 %, or nowhere): the screen may make room for it across the
            # window. Placed as it stands for now, then again once the controls have moved.
            self._toast_room(self._toast_height(readable, regions[-1].width))
        if clear is None:
            region = regions[0]
            font = fitting_font(label, s(20), region.width - 2 * s.gap, height=region.height - 2 * s.gap)
            clear = Box(region.x, region.y, region.width, 0.0), font, region
        box, font, region = clear
        height = self._toast_height(font, box.width)  # the label as it is shown
        if box.height:  # up to what lies just above it, if that is near: no sliver shows there
            height = max(height, reaching_up(box, region, obstacles, s(16)).height)
        panel.pos = (box.x, max(0.0, min(box.y, Window.height - height)))
        panel.size = (box.width, height)

    def _clear_place(self, regions: list[Box], obstacles: list[Box]) -> tuple[Box, float, Box] | None:
        """The first region's lowest place clear of the obstacles, at the largest font that
        finds one (the full size, 80 %, 60 %; then narrower), that font and that region; None:
        none anywhere. The place's height is the label's at that font and width."""
        s = theme.sizes()
        measured: dict[tuple[float, float], float] = {}  # (font, width): height, laid out once
        whole: dict[float, float] = {}  # width: the largest font that keeps every word whole there

        def height(font: float | None, width: float) -> float:
            if font is None:
                if width not in whole:
                    whole[width] = fitting_font(self.toast_label, s(20), width - 2 * s.gap)
                font = whole[width]
            if (font, width) not in measured:
                measured[font, width] = self._toast_height(font, width)
            return measured[font, width]

        # Narrow at last: a screen tiled with buttons (Express's line-up with four players)
        # leaves a column free. There the font is the largest that keeps every word whole in
        # the column (`None`: fitted to each width tried), so that the toast is read, not
        # squinted at; 60 % only where even that finds no place (a word too long for it).
        full = s(20)
        attempts: list[tuple[float | None, float]] = [
            (full, s(300)),
            (full * 0.8, s(300)),
            (full * 0.6, s(300)),
            (None, s(120)),
            (full * 0.6, s(120)),
        ]
        for font, narrowest in attempts:
            for region in regions:
                least = min(region.width * 0.6, narrowest)
                # Widths in tenths of the region (at least 20 units): a text is laid out once per
                # width tried, and a screen of many buttons (Correct's picker) has many rooms. A
                # narrow column is taken whole (to 20 units): a tenth would waste a fifth of it.
                step = s(20) if narrowest < s(300) else max(s(20), region.width / 10)
                box = place(region, obstacles, partial(height, font), least_width=least, step=step)
                if box is not None:
                    return box, whole[box.width] if font is None else font, region
        return None

    def _toast_height(self, font: float, width: float) -> float:
        """The toast's height at `width` with its text in `font` (the label measured now, so
        the first frame is right)."""
        s = theme.sizes()
        label = self.toast_label
        label.font_size = font
        label.text_size = (width - 2 * s.gap, None)
        label.texture_update()
        return float(max(s(LEAST_HEIGHT), label.texture_size[1] + 2 * s.gap))

    def _toast_room(self, height: float) -> bool:
        """Ask the screen on show for room for a toast `height` px tall (`KioskScreen.toast_room`:
        Express's line-up of four, where a toast of three lines found none at 80 %)."""
        screen = self.sm.current_screen if self.sm is not None else None
        if screen is None or not screen.toast_room(height):
            return False
        self._roomy = screen
        return True

    def _give_toast_room_back(self) -> None:
        if self._roomy is not None:
            self._roomy.toast_gone()
            self._roomy = None

    def _hide_toast(self, *_args: object) -> None:
        Clock.unschedule(self._follow_toast)
        self.toast_panel.opacity = 0
        self._give_toast_room_back()
        self._lower_toast()

    def _lift_toast(self) -> None:
        """A popup open over the screen (Correct's picker, a question, Phones) would hide the
        toast, which lies in the app's own layout under it: while one is open the toast stands
        on top of the window (over the popup, under nothing but the keyboard)."""
        from kivy.core.window import Window
        from kivy.uix.vkeyboard import VKeyboard

        panel = self.toast_panel
        layers = [w for w in Window.children if not isinstance(w, VKeyboard)]  # the top one first
        if (
            not layers
            or layers[0] is panel
            or not any(w is not self.root_layout for w in layers if w is not panel)
        ):
            return
        if panel.parent is not None:
            panel.parent.remove_widget(panel)
        Window.add_widget(panel)

    def _lower_toast(self) -> None:
        """The toast back in the app's layout, under the banner, once it is hidden."""
        from kivy.core.window import Window

        panel = getattr(self, "toast_panel", None)
        if panel is not None and panel.parent is Window:
            Window.remove_widget(panel)
            layers = self.root_layout.children  # the top one first: the banner over the toast
            self.root_layout.add_widget(
                panel, index=layers.index(self.banner) + 1 if self.banner in layers else 0
            )

    def set_language(self, language: str) -> None:
        set_language(language)
        self.rebuild(self.sm.current if self.sm else "home")

    def choose_language(self, language: str) -> None:
        """Home's language buttons: the choice is kept (kiosk.language, saved as Settings
        saves it) and is the kiosk's language after a restart too."""
        config = self.kiosk.config
        if not config.overridden("kiosk.language") and language != self.settings.kiosk.language:
            try:
                config.save({"kiosk.language": language})
            except (ConfigError, OSError) as err:
                log.warning("the language %s could not be kept for the next start: %s", language, err)
        self.set_language(language)
