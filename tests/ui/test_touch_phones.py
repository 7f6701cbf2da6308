"""The touchscreen's hand-over gives the phones their codes one team at a time and follows the
phones; the Phones popup moves a team to another phone with two taps, showing only that team's
new code. The phone page is a stand-in of the `PhoneServer` port (the real one is tested in
tests/ui/test_handheld_phones.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


class StandInPhones:
    """The port's contract, with the phones under the test's control."""

    base_url = "http://kiosk:8080"

    def __init__(self) -> None:
        self.tokens = ["sharks-1", "jets-1"]
        self.held: set[int] = set()
        self.moves: list[int] = []
        self.listeners: list[Callable[[], None]] = []

    def team_url(self, team: int) -> str | None:
        return f"{self.base_url}/team/{self.tokens[team]}" if team in (0, 1) else None

    def spectator_url(self) -> str | None:
        return f"{self.base_url}/watch"

    def phone_held(self, team: int) -> bool:
        return team in self.held

    def move(self, team: int) -> str | None:
        self.moves.append(team)
        self.held.discard(team)
        self.tokens[team] = f"{self.tokens[team][:-1]}{len(self.moves) + 1}"
        self._tell()
        return self.team_url(team)

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener) if listener in self.listeners else None

    def hold(self, team: int) -> None:
        """A phone opens the team's link."""
        self.held.add(team)
        self._tell()

    def _tell(self) -> None:
        for listener in list(self.listeners):
            listener()

    def qr_png(self, url: str, scale: int = 8) -> bytes:
        return b""

    async def stop(self) -> None:
        return None


@pytest.fixture
def phones(tour, monkeypatch) -> Iterator[tuple[StandInPhones, list[str]]]:
    """The stand-in as the kiosk's phone page, and every URL drawn as a QR code."""
    import ui.touch.phones

    drawn: list[str] = []
    real = ui.touch.phones.qr_texture  # the hand-overs draw their codes there (handover_middle)

    def recording(url: str):
        drawn.append(url)
        return real(url)

    tour.at("home")
    service = tour.kiosk.service
    if service.match is not None and not service.match.outcome().over:
        service.abandon()  # a game an earlier test left in play: its codes are not this test's
        tour.drain()
    monkeypatch.setattr(ui.touch.phones, "qr_texture", recording)
    stand_in = StandInPhones()
    monkeypatch.setattr(tour.kiosk, "web", stand_in)  # the kiosk's own phone page comes back after
    yield stand_in, drawn
    tour.app.go("home")


def _shown(tour) -> list:
    """Every widget on the window, popups included."""
    return [
        w
        for top in tour.app.root_window.children
        for w in top.walk()
        if w.opacity > 0 and w.get_root_window() is not None
    ]


def _codes_on_screen(tour) -> int:
    from kivy.uix.image import Image

    return sum(1 for w in _shown(tour) if isinstance(w, Image))


def _text(tour) -> str:
    from kivy.uix.label import Label

    return "\n".join(w.text for w in _shown(tour) if isinstance(w, Label))


def test_one_teams_code_at_a_time_and_the_hand_over_follows_the_phones(tour, phones, artefacts: Path) -> None:
    from ui.touch.fingers import frames

    stand_in, drawn = phones
    tour.new_game()
    text = _text(tour)
    assert "Jets, look away" in text and "Sharks, scan your code" in text
    assert _codes_on_screen(tour) == 1 and drawn[-1].endswith("/team/sharks-1")
    assert not [url for url in drawn if "jets" in url]
    tour.save(artefacts / "placement_handover_phones.png")

    stand_in.hold(0)  # the Sharks' phone opens its link: the Jets' step comes
    frames(2)
    text = _text(tour)
    assert "Sharks, look away" in text and "Jets, scan your code" in text
    assert _codes_on_screen(tour) == 1 and drawn[-1].endswith("/team/jets-1")
    assert "Sharks: placing on a phone" in text

    stand_in.hold(1)
    frames(2)
    assert _codes_on_screen(tour) == 0
    assert "placing their fleets on their phones" in _text(tour)


def test_moving_a_team_takes_two_taps_and_shows_only_its_new_code(tour, phones, artefacts: Path) -> None:
    from ui.touch.fingers import frames

    stand_in, drawn = phones
    tour.new_game()
    stand_in.hold(0)
    stand_in.hold(1)
    frames(2)
    tour.press("Phones")
    tour.press("Move to another phone")  # the Sharks' row comes first
    assert stand_in.moves == []  # the first tap only asks
    tour.press("Tap again to move Sharks")
    assert stand_in.moves == [0]
    frames(2)
    text = _text(tour)
    assert "Jets, look away" in text and "Sharks, scan this with your new phone" in text
    assert drawn[-1].endswith("/team/sharks-2")
    tour.save(artefacts / "phones_move.png")
    stand_in.hold(0)  # the new phone opens it: the code goes
    frames(2)
    assert "Sharks plays on its new phone" in _text(tour)
    tour.press("Done")
    tour.press("Close")
    frames(1)


def test_a_stage_begins_with_no_popup_even_one_still_closing(tour, phones) -> None:
    """A popup leaves the window only when its closing animation ends, and takes every touch
    until then: the Phones popup closed by one test, then the next test's "Place fleets" fell
    on it (shuffled with seed 4242). `tour.at` takes every popup off the window first."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    stand_in, _drawn = phones
    tour.new_game()
    stand_in.hold(0)
    stand_in.hold(1)
    first = tour.kiosk.service.game
    tour.press("Phones")
    popup = next(top for top in Window.children if isinstance(top, ModalView))
    popup._anim_duration = 600  # its fade-out outlasts the test (it is 0.1 s: a fast test meets it too)
    popup.dismiss()  # as its Close does (the tour's own press would wait for it to leave)
    assert popup in Window.children  # closing, still on the window
    tour.at("home")
    assert not [top for top in Window.children if isinstance(top, ModalView)]
    tour.new_game()  # over the game in play: asked, answered, a new game's placement
    assert tour.kiosk.service.game != first and tour.app.sm.current == "placement"


def test_the_tour_s_press_after_a_close_waits_until_the_popup_is_off_the_window(tour, phones) -> None:
    """`dartship screenshots` presses one button after another: a press right after a popup's
    Close fell on the popup still fading out (it takes every touch until it leaves the
    window). The tour's press returns only when the popup it closed is gone, so the next press
    meets the screen: here "Phones" opens the popup again."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    stand_in, _drawn = phones
    tour.new_game()
    stand_in.hold(0)
    stand_in.hold(1)
    tour.press("Phones")
    popup = next(top for top in Window.children if isinstance(top, ModalView))
    popup._anim_duration = 0.5  # a slow fade (a loaded Pi), well within the tour's patience
    tour.press("Close")
    assert popup not in Window.children
    tour.press("Phones")
    again = [top for top in Window.children if isinstance(top, ModalView)]
    assert len(again) == 1 and again[0] is not popup
    tour.press("Close")
    assert not [top for top in Window.children if isinstance(top, ModalView)]


def test_screens_rebuilt_for_another_language_stop_following_the_phones(tour, phones) -> None:
    """A language change rebuilds every screen: the placement on show let go of the phone page
    only when it was left, so the thrown-away one went on refreshing unseen at every change of
    the phones, drawing a team's code from the step it was left at (found in a shuffled run: the
    Jets' code drawn while the Sharks' hand-over was on the window)."""
    stand_in, _drawn = phones
    tour.new_game()
    shown = tour.app.sm.current
    assert len(stand_in.listeners) == 1  # the placement on show follows the phones
    tour.app.rebuild(shown)
    tour.drain()
    assert tour.app.sm.current == shown
    assert len(stand_in.listeners) == 1, "the screen thrown away still follows the phones"
