"""A whole game on the touchscreen, headless, driven by simulated touches in simulator mode.

One window per process: every test here shares the session's `tour`, and each builds the game
it needs first (`tour.at(stage)`: a command script replayed into a new game), so each passes
alone and in any order. Screenshots go to the artefacts folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.board import MISS, Cell, Ring
from kiosk.darts.match import Next, Phase
from kiosk.sound import Sound
from tests.clocks import hand_clock_for_next

pytestmark = pytest.mark.slow


def labels_text(root) -> str:
    from kivy.uix.label import Label

    return "\n".join(w.text for w in root.walk() if isinstance(w, Label) and w.opacity > 0)


def test_home_then_new_game_by_touch(tour, artefacts: Path) -> None:
    tour.at("home")
    assert tour.app.sm.current == "home"
    tour.save(artefacts / "home.png")
    tour.choose_game("darts")
    assert tour.app.sm.current == "new_game"
    screen = tour.screen()
    screen.names[1].text = "Sharks"  # the same name twice is refused, not crashed
    tour.press("Place fleets")
    assert "different names" in screen.message.text
    screen.names[0].text, screen.players[0].text = "Sharks", "Anna, Ben"
    screen.names[1].text, screen.players[1].text = "Jets", "Cleo"
    tour.press_start("Place fleets")
    assert tour.app.sm.current == "placement"
    assert tour.kiosk.service.match.teams[0].players == ("Anna", "Ben")


def test_placement_by_taps_and_random_with_privacy(tour, artefacts: Path) -> None:
    tour.at("placement")
    screen = tour.screen()
    assert screen.team is None and "Jets, look away" in labels_text(tour.root)
    tour.place_by_taps("Sharks")
    assert screen.draft.complete
    tour.save(artefacts / "placement.png")
    sharks = screen.draft.fleet()
    tour.press("Turn")  # the last ship turns and the fleet stays complete
    assert screen.draft.complete
    tour.press("Lock in")
    # Hidden again before Jets look: no ship marks, the hand-over text is back.
    assert screen.team is None and screen.board_view.marks == {}
    assert "Sharks ready" in labels_text(tour.root)
    assert tour.kiosk.service.match.state().placed == (True, False)
    assert sharks.code not in labels_text(tour.root)
    tour.press("Jets: place on this screen")
    assert not set(screen.board_view.marks) & set(tour.kiosk.service.match.fleet(0).cells) - set(
        screen.draft.cells()
    )
    tour.press("Random fleet")
    tour.press("Lock in")
    assert tour.kiosk.service.match.phase is Phase.BULL_OFF
    assert tour.app.sm.current == "bull_off"


def test_bull_off_by_tapping_the_board_then_who_was_closer(tour, artefacts: Path) -> None:
    tour.at("bull_off")
    screen = tour.screen()
    tour.tap_cell(screen.board_view, Cell(Ring.SMALL, 20))
    tour.tap_cell(screen.board_view, Cell(Ring.SMALL, 3))  # both "not the bull": undecided
    assert tour.kiosk.service.match.bull_off_undecided
    tour.save(artefacts / "bull_off_closer.png")
    tour.press("Sharks")
    assert tour.app.sm.current == "game"
    assert tour.kiosk.service.match.up_next()[:2] == (0, "Anna")


def test_darts_by_tap_and_typing_announce_in_the_next_frame(tour, artefacts: Path) -> None:
    tour.at("game")
    match = tour.kiosk.service.match
    target = tour.enemy_cells(0)[0]
    screen = tour.screen()
    empty = next(c for c in match.board.cells if c not in tour.enemy_cells(0))
    tour.throw_tap(empty)
    # Set synchronously by the listener: visible in the first frame after the event.
    assert screen.announcement.opacity == 1 and "MISS" in screen.announcement.text
    tour.throw_typed(target.code)
    assert "HIT" in screen.announcement.text or "SUNK" in screen.announcement.text
    assert screen.radar.marks[target] in ("hit", "sunk")
    tour.throw_typed("X99")  # a bad token: a message, no dart
    assert match.darts_thrown == 2
    tour.save(artefacts / "game.png")


def test_undo_and_correct_with_neighbours_first(tour) -> None:
    tour.at("visit")
    match = tour.kiosk.service.match
    last = match.last_dart()
    tour.press("Undo")
    assert match.darts_thrown == 1 and match.up_next()[2] == 2
    tour.throw_typed(last.code)
    tour.press("Correct")
    picker = tour.screen().picker
    first = next(iter(picker.buttons))
    assert Cell(Ring.TRIPLE, 1) != last and first != "MISS"  # neighbours come before MISS
    neighbour = match.board.parse(first)
    assert neighbour in match.board.neighbours(last)
    tour.press(first)
    assert match.last_dart() == neighbour


@pytest.fixture
def next_clock(tour, monkeypatch):
    """The kiosk's guard in front of Next on a hand clock (kiosk/darts/double_next.py)."""
    return hand_clock_for_next(tour.kiosk.service, monkeypatch)


def test_takeout_then_next_and_next_early_pads_with_misses(tour, artefacts: Path, next_clock) -> None:
    tour.at("visit")
    match = tour.kiosk.service.match
    tour.throw_typed("miss")
    assert match.phase is Phase.TAKEOUT
    assert "Pull the darts out" in labels_text(tour.root)
    tour.throw_typed("T20")  # pulling darts out registers nothing
    assert match.darts_thrown == 3
    tour.save(artefacts / "takeout.png")
    tour.press("Next")
    assert match.up_next()[:2] == (1, "Cleo")
    next_clock.advance(2)  # a while later (at once it would be a double tap, below)
    tour.press("Next")  # early: the visit's darts count as missed
    assert match.tally(1).darts == 3 and match.up_next()[:2] == (0, "Ben")


def test_with_a_camera_scorer_the_takeout_is_the_cameras_not_a_tap(
    tour, monkeypatch, artefacts: Path
) -> None:
    """qa9's weak spot: with Autodarts the touchscreen said "Pull the darts out, then tap Next"
    though the cameras end the visit themselves; the board input says so of itself."""
    from hardware.autodarts import AutodartsBoard

    cameras = AutodartsBoard("http://127.0.0.1:3180", lambda _event: None)
    monkeypatch.setattr(tour.kiosk.service, "board_takes_out", lambda: cameras.takes_out)
    tour.at("visit")
    match = tour.kiosk.service.match
    tour.throw_typed("miss")
    assert match.phase is Phase.TAKEOUT
    shown = labels_text(tour.root)
    assert "Pull the darts out: the cameras end the visit" in shown and "then tap Next" not in shown
    tour.save(artefacts / "takeout_cameras.png")
    from ui.touch.fitting import faults

    assert faults(tour.root) == []  # the prompt fits its place, every word whole
    tour.press("Next")  # a tap still ends it too
    assert match.phase is Phase.THROWING


def test_next_tapped_twice_ends_one_visit_and_says_so(tour, artefacts: Path, next_clock) -> None:
    """Two quick taps on Next: the Sharks' visit ends, Cleo's is left alone (before, the second
    tap ended it with three misses before she threw); the toast says why, and Next tapped
    again a while later is taken."""
    tour.at("visit")
    match = tour.kiosk.service.match
    tour.throw_typed("miss")
    assert match.phase is Phase.TAKEOUT
    tour.press("Next")
    tour.press("Next")
    state = match.state()
    assert state.phase is Phase.THROWING and state.visit == 2 and state.dart == 1
    assert match.up_next()[:2] == (1, "Cleo") and match.tally(1).darts == 0
    app = tour.app
    assert app.toast_panel.opacity == 1
    assert app.toast_label.text.startswith("Next came twice at once: the new visit goes on.")
    tour.save(artefacts / "next_twice.png")
    app._hide_toast()
    next_clock.advance(1.6)
    tour.press("Next")  # Cleo ends her visit early, on purpose
    assert match.tally(1).darts == 3 and match.up_next()[:2] == (0, "Ben")


def test_the_board_s_next_twice_says_to_tap_next_on_the_screen(tour, next_clock) -> None:
    """The board's Next button pressed twice (or a camera scorer's takeout said twice): one
    visit ends, and the toast says how to end the new one now in words that fit a board or a
    camera (a tap on the screen's Next), not "Tap Next again"."""
    from kiosk.inputs import Button, ButtonInput

    tour.at("visit")
    match = tour.kiosk.service.match
    tour.throw_typed("miss")
    assert match.phase is Phase.TAKEOUT
    for _press in range(2):
        tour.kiosk.service.queue.put_nowait(ButtonInput(Button.NEXT))
        tour.drain()
    assert match.up_next()[:2] == (1, "Cleo") and match.tally(1).darts == 0
    app = tour.app
    assert app.toast_panel.opacity == 1
    assert app.toast_label.text == (
        "The board sent Next twice at once: the new visit goes on. Tap Next on the screen to end it now."
    )
    app._hide_toast()
    next_clock.advance(1.6)
    tour.press("Next")  # the screen's Next, as the toast said: Cleo's visit ends early
    assert match.tally(1).darts == 3 and match.up_next()[:2] == (0, "Ben")


def test_next_just_after_the_timer_s_is_refused(tour, next_clock, monkeypatch) -> None:
    """With `rules.takeout_seconds` the timer ends the visit by itself; a tap on Next that came
    with it (the screen still drew the takeout) is for a visit already over, and one just
    after the screen shows the new visit is a double tap: Cleo's visit is left alone."""
    from kiosk.darts.takeout import TakeoutTimer

    tour.at("visit")
    timer = tour.kiosk.participant(TakeoutTimer)
    monkeypatch.setattr(timer, "seconds", lambda: 0.01)
    match = tour.kiosk.service.match
    screen = tour.screen()
    drawn = screen.drawn_visit
    tour.throw_typed("miss")  # the visit's last dart: the timer ends it by itself
    tour.pump(lambda: match.phase is Phase.THROWING)
    assert match.state().visit == drawn + 1 and match.log[-1] == Next(visit=drawn)  # the timer's
    screen.drawn_visit = drawn  # the tap landed before the screen was drawn again
    tour.press("Next")
    assert "visit already over" in tour.app.toast_label.text
    screen.refresh()  # the screen shows Cleo's visit: a tap now is a double tap
    tour.press("Next")
    assert tour.app.toast_label.text.startswith("Next came twice at once")
    assert match.state().visit == drawn + 1 and match.tally(1).darts == 0
    tour.app._hide_toast()


def test_radar_never_shows_unsunk_enemy_ships(tour) -> None:
    tour.at("visit")
    match = tour.kiosk.service.match
    screen = tour.app.screen("game")
    for team in (0, 1):
        from ui.touch.darts.game import radar_of

        marks, outlines = radar_of(match, team)
        hidden = set(match.fleet(1 - team).cells) - set(match.shots(team))
        assert not hidden & set(marks)
        assert not hidden & {c for ship in outlines for c in ship}
    shown = screen.viewer(match)
    hidden = set(match.fleet(1 - shown).cells) - set(match.shots(shown))
    assert not hidden & set(screen.radar.marks)
    assert not set(match.fleet(shown).cells) - set(match.shots(1 - shown)) & set(screen.radar.marks) - set(
        match.shots(shown)
    )


def test_the_game_plays_to_the_result_card_and_stats(tour, artefacts: Path) -> None:
    tour.at("game")
    tour.play_to_the_end()
    match = tour.kiosk.service.match
    assert match.phase is Phase.OVER
    assert tour.app.sm.current == "result"
    text = labels_text(tour.root)
    winner = match.teams[match.winner].name
    assert f"Victory for {winner}!" in text and "Anna" in text and "Hit rate" in text
    tour.save(artefacts / "result.png")
    tour.press("Home")
    tour.press("Stats")
    assert "Anna" in labels_text(tour.root)
    tour.save(artefacts / "stats.png")
    tour.press("Back")


def test_pin_keypad_locks_after_wrong_tries_and_opens_again_later(tour) -> None:
    tour.at("home")
    from kiosk import pin as pin_module

    tour.app.go("home")
    tour.press("Settings")
    screen = tour.screen()
    now = [1000.0]
    screen.guard = pin_module.PinGuard(None, clock=lambda: now[0])

    def enter(pin: str) -> None:
        for key in pin:
            tour.press(key)
        tour.press("OK")

    for _ in range(pin_module.TRIES):
        enter("9999")
    assert "Too many wrong PINs" in screen.message.text
    keys = [w for w in screen.keys.children]
    assert all(k.disabled and k.opacity < 1 for k in keys)  # it looks locked
    with pytest.raises(LookupError):
        enter("1234")  # the right PIN, but the keypad takes no tap
    assert tour.app.sm.current == "pin" and screen.entered == ""
    now[0] += pin_module.SECONDS_PER_TRY / 2
    screen._tick()
    assert tour.app.sm.current == "pin" and "Try again in 30\u00a0s" in screen.message.text
    now[0] += pin_module.SECONDS_PER_TRY / 2 + 1
    screen._tick()  # the clock ticks each second on screen; here its tick is called
    assert not any(k.disabled for k in keys)
    enter("1234")
    assert tour.app.sm.current == "settings"
    tour.press("Back")
    tour.app.go("home")


def test_settings_behind_the_pin_validate_and_save(tour, tmp_path: Path) -> None:
    tour.at("home")
    tour.press("Settings")
    for key in "9999":
        tour.press(key)
    tour.press("OK")
    assert tour.app.sm.current == "pin" and "Wrong PIN" in labels_text(tour.root)
    for key in "1234":
        tour.press(key)
    tour.press("OK")
    assert tour.app.sm.current == "settings"
    screen = tour.screen()
    screen.inputs["rules.takeout_seconds"].text = "lots"
    screen.inputs["kiosk.pin"].text = "12"
    tour.press("Save")
    # The owner reads the fields' own labels, never the file's keys.
    assert "Next visit after" in screen.message.text and "PIN:" in screen.message.text
    assert "rules.takeout_seconds" not in screen.message.text
    assert not Path(tour.kiosk.config.save_path()).exists()
    screen.inputs["rules.takeout_seconds"].text = "5"
    screen.inputs["kiosk.pin"].text = "4321"
    tour.press("Save")
    assert "Saved" in screen.message.text
    saved = Path(tour.kiosk.config.save_path()).read_text()
    assert "takeout_seconds = 5" in saved and '"4321"' in saved
    assert tour.kiosk.settings.kiosk.pin == "4321"
    assert "database" not in saved  # set by the kiosk's start (here: the test), never written
    tour.press("Test buzzer")
    assert "Beep" in screen.message.text  # the simulator's buzzer logs what it plays
    assert tour.kiosk.buzzer.played[-1] is Sound.HIT
    tour.press("Learn board")  # the wizard comes from the root (hardware's LearnWizard)
    assert "throw or press D20 now" in labels_text(tour.root)
    tour.press("Skip")
    assert "cell 2 of 82" in labels_text(tour.root)
    tour.press("Close")
    tour.press("Back")
    assert tour.app.sm.current == "home"


def test_settings_with_the_default_pin_tell_the_owner_to_change_it_and_the_keypad_never_does(tour) -> None:
    """A kiosk still on the PIN every kiosk ships with: Settings (behind the keypad) says so and
    where to change it; the keypad, which anyone at the bar sees, says nothing of it. Once the
    owner's own PIN is saved, Settings says nothing more. Before, only `dartship doctor` told."""
    tour.at("home")
    tour.press("Settings")
    assert "1234" not in labels_text(tour.root)  # the keypad gives nothing away

    def enter(pin: str) -> None:
        for key in pin:
            tour.press(key)
        tour.press("OK")

    enter("1234")
    screen = tour.screen()
    assert tour.app.sm.current == "settings" and "PIN is still 1234" in screen.message.text
    screen.inputs["kiosk.pin"].text = "8642"
    tour.press("Save")
    assert "Saved" in screen.message.text
    tour.press("Back")
    tour.press("Settings")
    enter("8642")
    assert tour.app.sm.current == "settings" and "1234" not in screen.message.text
    tour.press("Back")


def test_rematch_and_language_switch(tour) -> None:
    tour.at("over")
    from kiosk.i18n import set_language

    tour.app.go("result")
    tour.press("Rematch")
    assert tour.app.sm.current == "placement"
    assert tour.kiosk.service.match.phase is Phase.PLACING
    tour.app.go("home")
    try:
        tour.press("Deutsch")
        from kiosk.i18n import language

        assert language() == "de" and tour.app.sm.current == "home"
        assert "Weiter: Dartspiel" in labels_text(tour.root)
    finally:
        set_language("en")
        tour.app.rebuild("home")


def test_disconnect_banner_and_refused_input_do_not_crash(tour) -> None:
    tour.at("game")
    from kiosk.inputs import Connected, Disconnected

    service = tour.kiosk.service
    service.handle_input(Disconnected("unplugged"))
    assert tour.app.banner.opacity == 1 and "disconnected" in tour.app.banner_label.text
    service.handle_input(Connected("/dev/ttyACM0"))
    assert tour.app.banner.opacity == 0
    service.handle_input(Disconnected("again"))
    assert tour.app.banner.opacity == 1
    assert "Check the cable" in tour.app.banner_label.text


def test_a_camera_scorer_offline_is_said_as_such_not_as_a_cable(tour) -> None:
    """The Autodarts cameras stopped, or the Board Manager out of reach (qa9): the banner said
    "Board disconnected ... Check the cable." for a board with no cable to the kiosk."""
    tour.at("game")
    from kiosk.inputs import Connected, Disconnected

    service = tour.kiosk.service
    service.handle_input(Disconnected("camera scorer offline: Stopped", camera=True))
    text = tour.app.banner_label.text
    assert tour.app.banner.opacity == 1
    assert text == "Camera scorer offline – darts are not counted. Check the Board Manager."
    service.handle_input(Connected("Autodarts http://127.0.0.1:3180"))
    assert tour.app.banner.opacity == 0
    service.handle_input(Disconnected("unplugged"))  # a serial board later: its cable again
    assert "Check the cable" in tour.app.banner_label.text
    assert service.match.board.parse("miss") == MISS


def test_a_store_that_cannot_save_pauses_the_screen_until_it_can(tour, artefacts: Path) -> None:
    tour.at("home")
    import sqlite3

    from kiosk.inputs import Connected

    service, store = tour.kiosk.service, tour.kiosk.store
    service.handle_input(Connected("/dev/ttyACM0"))
    tour.app.go("home")
    tour.new_game()
    for team in ("Sharks", "Jets"):
        tour.press(f"{team}: place on this screen")
        tour.press("Random fleet")
        tour.press("Lock in")
    if tour.match.phase is Phase.BULL_OFF:
        tour.tap_cell(tour.screen().board_view, Cell(Ring.SMALL, 20))
        tour.tap_cell(tour.screen().board_view, Cell(Ring.DOUBLE, 3))
        if tour.match.bull_off_undecided:
            tour.press("Sharks")
    assert tour.match.phase is Phase.THROWING and tour.app.sm.current == "game"
    darts = tour.match.darts_thrown

    def full(*_args: object, **_kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    original = store.meta.probe
    store.games.append = full  # type: ignore[method-assign]
    store.meta.probe = full  # type: ignore[method-assign]
    try:
        tour.throw_typed("T20")
        assert tour.match.darts_thrown == darts  # not counted: it could not be stored
        assert tour.app.banner.opacity == 1
        assert "cannot save" in tour.app.banner_label.text
        assert "disk is full" in tour.app.banner_label.text
        tour.save(artefacts / "game_paused.png")
    finally:
        del store.games.append
        store.meta.probe = original  # type: ignore[method-assign]
    assert tour.pump(lambda: service.paused is None)  # it tries again by itself
    assert tour.app.banner.opacity == 0
    tour.throw_typed("T20")
    assert tour.match.darts_thrown == darts + 1


def test_the_screen_dozes_when_nothing_happens_and_wakes_at_a_touch(tour, monkeypatch) -> None:
    tour.at("home")
    from kivy.clock import Clock

    import ui.touch.shell
    from kiosk.inputs import Info
    from ui.touch.shell import ACTIVE_FPS, IDLE_FPS

    # The dozing itself is called by hand here: on a busy machine, opening Stats on a store
    # that earlier tests filled can take longer than DOZE_AFTER, which would doze in between.
    monkeypatch.setattr(ui.touch.shell, "DOZE_AFTER", 3600.0)

    tour.app.go("home")
    tour.app._doze()
    assert Clock._max_fps == IDLE_FPS
    tour.press("Stats")  # a real touch through Kivy's input dispatch
    assert Clock._max_fps == ACTIVE_FPS
    tour.app._doze()
    tour.kiosk.service.handle_input(Info("news"))
    assert Clock._max_fps == ACTIVE_FPS  # news from the service: something will be drawn
    tour.app.go("home")


def test_the_double_next_window_is_set_on_the_settings_screen_and_counts_at_once(tour, next_clock) -> None:
    """Settings → "A second Next within (s) is a double tap": 0 turns the guard's window off,
    and the next Next already goes by it (no restart)."""
    from ui.touch.fingers import tap

    tour.at("visit")
    match = tour.kiosk.service.match
    tour.app.go("home")
    tour.press("Settings")
    for key in "1234":
        tour.press(key)
    tour.press("OK")
    screen = tour.screen()
    window = screen.inputs["rules.double_next_seconds"]
    assert window.value == 1.5 and window.text == "1.5"
    screen.scroll.scroll_to(window, animate=False)  # the owner scrolls to it (a notice may stand above)
    for _ in window.choices:
        if window.value == 0.0:
            break
        tap(window)  # the owner taps through the choices
    assert window.text == "0"
    tour.press("Save")
    assert "Saved" in screen.message.text
    assert "double_next_seconds = 0.0" in Path(tour.kiosk.config.save_path()).read_text()
    tour.press("Back")
    tour.app.go("game")
    tour.throw_typed("miss")
    tour.press("Next")
    tour.press("Next")  # at once, but the window is off: Cleo's visit ends too
    assert match.tally(1).darts == 3 and match.up_next()[:2] == (0, "Ben")


def test_home_in_the_middle_of_placing_hides_the_fleet_until_its_team_comes_back(tour) -> None:
    """The Sharks place on the touchscreen and tap Home before Lock in; whoever taps Continue
    then (the Jets) met the Sharks' ships on the board (seen in a real window:
    build/artefacts/qa6/142-continue-mid-place.png). Now the hand-over comes first, and the
    Sharks' own button brings their draft back as they left it."""
    tour.at("placement")
    screen = tour.screen()
    tour.press("Sharks: place on this screen")
    tour.press("Random fleet")
    sharks = screen.draft.fleet()
    tour.press("Home")
    assert tour.app.sm.current == "home"
    tour.press("Continue: Dart game")
    assert tour.app.sm.current == "placement"
    assert screen.team is None and screen.board_view.marks == {} and screen.board_view.hidden
    assert "Jets, look away" in labels_text(tour.root)
    tour.press("Sharks: place on this screen")
    assert screen.draft.complete and screen.draft.fleet() == sharks
    tour.press("Lock in")
    assert tour.kiosk.service.match.state().placed == (True, False)
    tour.press("Jets: place on this screen")  # the Jets' own, empty draft
    assert screen.team == 1 and not screen.draft.ships


def test_a_new_board_not_told_yet_says_to_throw_a_dart_before_the_game(tour, monkeypatch) -> None:
    """A new dARts board (dialect auto, nothing remembered for its port) says nothing until a
    dart, and its dialect cannot tell the inner from the outer single. A game set up before its
    first line was four-ring, with ships on outer singles the board can never report (qa9: the
    first game on the walked numeric board). The new-game screen says to throw one dart first;
    after it, the game is three-ring. The real reader on a pty, the fake dARts board at 9600."""
    from hardware.fake_board import FakeBoard
    from hardware.serial_reader import SerialReader
    from kiosk.board import Profile
    from tests.waits import until

    fake = FakeBoard("numeric", baud=9600)
    reader = SerialReader(fake.open_pty(), lambda _event: None, read_timeout=0.02)
    service = tour.kiosk.service
    configured = tour.kiosk.settings.board.profile
    monkeypatch.setattr(service, "board_rings_told", lambda: reader.rings_told)
    monkeypatch.setattr(
        service, "board_profile", lambda: reader.profile if reader.profile is not configured else None
    )
    reader.start()
    try:
        tour.at("home")
        tour.choose_game("darts")
        text = tour.screen().profile.text
        assert text == "Board: not told yet. Throw one dart at the board first: it tells the kiosk its rings."
        while not reader.rings_told:  # at 115200 first, then at 9600, as the board is found
            fake.send_line("320")
            until(lambda: reader.rings_told or reader.baud == 9600, "the dart read or the speed moved")
        tour.app.go("home")
        tour.choose_game("darts")
        assert "three-ring" in tour.screen().profile.text
        tour.press_start("Place fleets")
        assert service.match.setup.rules.profile is Profile.THREE_RING
    finally:
        reader.stop()
        fake.close()


def test_a_map_saved_on_the_learn_screen_counts_at_once(tour, tmp_path, monkeypatch, artefacts: Path) -> None:
    """qa9: after Save map the running board went on without it ("contact 0,0 is not in the
    board map") until the kiosk's next start. The real GPIO matrix scanner on gpiozero's mock
    pins: the contact learned as D20 is D20 at the next dart, and the screen says so."""
    import queue

    from gpiozero.pins.mock import MockFactory

    from hardware.matrix import MatrixScanner, MockMatrixWiring
    from kiosk.inputs import DartInput, UnmappedInput
    from ui.touch.screens import learn

    factory = MockFactory()
    rows, cols = [5, 6], [4, 17]
    wiring = MockMatrixWiring(factory, rows, cols)
    darts: queue.Queue[object] = queue.Queue()
    board = MatrixScanner(rows, cols, darts.put, debounce_scans=1, lockout_ms=0, pin_factory=factory)
    assert board.open()
    clock = [100.0]

    def thrown(contact: tuple[int, int]) -> list[object]:
        clock[0] += 10  # a dart a while after the last: no repeat of the same contact
        for closed in (True, False):
            (wiring.press if closed else wiring.release)(contact)
            for _ in range(3):
                clock[0] += 0.01
                board.scan_once(clock[0])
        return [darts.get_nowait() for _ in range(darts.qsize())]

    saved = tmp_path / "board-map.toml"
    monkeypatch.setattr(learn, "map_path", lambda _settings: saved)
    monkeypatch.setattr(tour.kiosk.config, "save", lambda _changes: None)  # the tour's config stays
    monkeypatch.setattr(tour.kiosk, "board", board)
    assert thrown((0, 0)) == [UnmappedInput("0,0")]
    tour.at("home")
    tour.app.go("learn")
    screen = tour.screen()
    try:
        tour.kiosk.service.handle_input(UnmappedInput("0,0"))
        assert "D20 = contact 0,0" in screen.answer.text
        tour.press("Save map")
        assert screen.answer.text.startswith(f"Map saved to {saved}. The board counts darts with it now.")
        tour.save(artefacts / "learn_saved_counts_now.png")
        from ui.touch.fitting import faults

        assert faults(tour.root) == []
        events = thrown((0, 0))
        assert [e.cell.code for e in events if isinstance(e, DartInput)] == ["D20"], events
    finally:
        tour.app.go("home")
        board.stop()
        factory.reset()


def test_a_map_saved_on_the_learn_screen_says_when_the_board_reads_it(tour, tmp_path, monkeypatch) -> None:
    """The touchscreen's Learn board over the GPIO matrix (qa9): after Save map the running
    board went on without it ("contact 0,1 is not in the board map") and nothing said the map
    counts from the next start."""
    from kiosk.inputs import UnmappedInput
    from ui.touch.screens import learn

    saved = tmp_path / "board-map.toml"
    monkeypatch.setattr(learn, "map_path", lambda _settings: saved)
    monkeypatch.setattr(tour.kiosk.config, "save", lambda _changes: None)  # the tour's config stays
    tour.at("home")
    tour.app.go("learn")
    screen = tour.screen()
    tour.kiosk.service.handle_input(UnmappedInput("0,0"))
    assert "D20 = contact 0,0" in screen.answer.text
    tour.press("Save map")
    try:
        assert saved.read_text().count("=") >= 2
        assert screen.answer.text.startswith(
            f"Map saved to {saved}. The board reads it from the kiosk's next start."
        )
    finally:
        tour.app.go("home")


def test_a_long_answer_on_the_learn_screen_is_fitted_under_its_title(tour, tmp_path, monkeypatch) -> None:
    """A map saved with most cells missing said so in more lines than fit at 800x480: the
    title went off the top of the screen. However long the answer (here the board's long error,
    said with the path), it is fitted into the room above the controls."""
    from kiosk.inputs import UnmappedInput
    from ui.touch import theme
    from ui.touch.fitting import faults
    from ui.touch.screens import learn

    deep = tmp_path / "board-map.toml"
    monkeypatch.setattr(learn, "map_path", lambda _settings: deep)
    monkeypatch.setattr(tour.kiosk.config, "save", lambda _changes: None)

    def unreadable(_path: object) -> bool:
        raise ValueError(f"{deep}: line 3: contact 0,0 is given twice, as D20 and as T20; " * 4)

    monkeypatch.setattr(tour.kiosk, "use_board_map", unreadable)
    tour.at("home")
    tour.app.go("learn")
    screen = tour.screen()
    try:
        tour.kiosk.service.handle_input(UnmappedInput("0,0"))
        tour.press("Save map")
        assert "The board could not read it" in screen.answer.text
        tour.pump(lambda: False, 0.3)  # the fit runs before the next frame
        assert faults(tour.root) == [], [str(f) for f in faults(tour.root)]
        assert screen.answer.font_size < theme.sizes()(learn.ANSWER_UNITS)  # made smaller to fit
    finally:
        tour.app.go("home")
