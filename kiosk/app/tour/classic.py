"""Classic 10x10 by touch: the tour's fingers on the classic screens (`kiosk.app.tour.driver`),
what `dartship screenshots` photographs and the touchscreen tests play, on a kiosk from the
composition root.

The script may look at fleets to aim (it plays both sides, like the dart walk); the screens
never do. The teams' phones of a duel are real HTTP clients of the kiosk's own phone page, on
the tour's loop, each with a cookie jar of its own (one phone per link).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from kiosk.app.tour.driver import Tour, label
from kiosk.classic.computer import ComputerSeat
from kiosk.classic.fleet import CLASSES, Fleet
from kiosk.classic.grid import GRID, Square, parse_square
from kiosk.classic.match import Match
from kiosk.classic.wire import CLASSIC

if TYPE_CHECKING:
    import aiohttp
    from kivy.uix.widget import Widget


class ClassicWalk:
    def __init__(self, tour: Tour) -> None:
        self.tour = tour
        self.phones: list[Any] = []

    @property
    def match(self) -> Match:
        match = CLASSIC.in_play(self.tour.kiosk.service)
        assert match is not None, "no classic game in play"
        return match

    def fleet(self, side: int) -> Fleet:
        fleet = self.match.fleet(side)
        assert fleet is not None
        return fleet

    def enemy_squares(self, side: int) -> list[Square]:
        """The script's cheat sheet: `side`'s targets (never shown)."""
        return [s for ship in self.fleet(1 - side).ships for s in ship.cells]

    def water(self, side: int) -> list[Square]:
        ships = set(self.enemy_squares(side))
        shot = self.match.radar(side).shots
        return [s for s in GRID.squares if s not in ships and s not in shot]

    def computer_done(self) -> bool:
        seat = self.tour.kiosk.participant(ComputerSeat)
        return seat is None or (seat.idle and not self.match.computer_to_move)

    # -- doing --

    def start_solo(self, name: str = "Sharks") -> None:
        self.tour.choose_game("classic")
        screen = self.tour.screen()
        screen.solo_name.text = name
        self.tour.press_start(label("Play solo"))

    def fire(self, grid: Widget, square: Square) -> None:
        """Tap a square to aim, tap it again to fire; then the computer's answer, if any."""
        self.tour.tap_cell(grid, square)
        self.tour.tap_cell(grid, square)
        self.tour.pump(self.computer_done)

    def start_duel(self, names: tuple[str, str] = ("Sharks", "Jets")) -> None:
        self.tour.choose_game("classic")
        screen = self.tour.screen()
        for field, name in zip(screen.duel_names, names, strict=True):
            field.text = name
        self.tour.press_start(label("Start duel"))

    def claim(self, team: int) -> dict[str, Any]:
        """A team's phone opens its link (the QR code's) and its page's first API call."""
        import aiohttp

        web = self.tour.kiosk.web
        assert web is not None
        url = web.team_url(team)
        assert url is not None
        token = url.rsplit("/", 1)[1]

        async def open_link() -> tuple[Any, dict[str, Any]]:
            session = aiohttp.ClientSession(base_url=web.base_url, cookie_jar=_jar())
            async with session.get(f"/api/classic/team/{token}") as answer:
                assert answer.status == 200, await answer.text()
                return session, await answer.json()

        session, body = self.tour.loop.run_until_complete(open_link())
        self.phones.append(session)
        self.tour.drain()
        self.tour.pump(lambda: True)
        return body

    def daily_on_phones(self, players: list[tuple[str, int]]) -> None:
        """Phones play today's challenge through the phone page (each its own device, each
        wasting so many shots on water first) and enter their names: the kiosk's leaderboard."""
        import aiohttp

        from kiosk.classic.match import daily_fleet
        from kiosk.secret import kiosk_secret

        web = self.tour.kiosk.web
        assert web is not None
        targets = [
            s.code
            for ship in daily_fleet(kiosk_secret(self.tour.kiosk.store), datetime.date.today()).ships
            for s in ship.cells
        ]
        water = [s.code for s in GRID.squares if s.code not in targets]

        async def play(name: str, wasted: int) -> None:
            async with aiohttp.ClientSession(base_url=web.base_url, cookie_jar=_jar()) as phone:
                for path, body in (
                    ("start", {}),
                    *(("fire", {"cell": c}) for c in [*water[:wasted], *targets]),
                    ("name", {"name": name}),
                ):
                    async with phone.post(f"/api/classic/daily/{path}", json=body) as answer:
                        assert answer.status == 200, await answer.text()

        for name, wasted in players:
            self.tour.loop.run_until_complete(play(name, wasted))
        self.tour.drain()

    def close(self) -> None:
        for session in self.phones:
            self.tour.loop.run_until_complete(session.close())
        self.phones.clear()

    # -- the walk for the screenshots --

    def run(self, shot: Callable[[str], str]) -> Iterator[str]:
        tour = self.tour
        self.daily_on_phones([("Anna", 4), ("Ben", 11), ("Cleo", 23)])
        tour.choose_game("classic")
        yield shot("classic_new")
        self.start_solo()
        screen = tour.screen()
        screen.announcement.clear()
        yield shot("classic_solo")
        tour.press(label("Re-place fleet"))
        carrier = self.fleet(0).ship(CLASSES[0])
        spot = next(
            s
            for s in (parse_square("B2"), parse_square("A1"), parse_square("J1"))
            if s not in {c for ship in self.fleet(0).ships[1:] for c in ship.cells} and s not in carrier.cells
        )
        tour.tap_cell(screen.big, spot)
        yield shot("classic_replace")
        tour.press(label("Done"))
        targets = self.enemy_squares(0)
        # A few hits, a sunk ship, a miss the computer answers: the screen in mid-game.
        destroyer = self.fleet(1).ship(CLASSES[-1])
        for square in [*destroyer.cells, targets[0]]:
            self.fire(screen.big, square)
        self.fire(screen.big, self.water(0)[0])
        tour.tap_cell(screen.big, self.water(0)[0])
        screen.announcement.clear()
        yield shot("classic_aim")
        tour.tap_cell(screen.big, self.water(0)[0])  # fired: a miss, the computer's turn
        tour.pump(self.computer_done)
        yield shot("classic_computer")
        for square in self.enemy_squares(0):
            if square not in self.match.radar(0).shots and self.match.winner is None:
                self.fire(screen.big, square)
        tour.frames_until(lambda: tour.app.sm.current == "classic_result")
        yield shot("classic_result")
        self.start_duel()
        yield shot("classic_duel_handover")
        self.claim(0)
        yield shot("classic_duel_handover_next")
        self.claim(1)
        duel = tour.screen()
        for square in [self.enemy_squares(0)[0], self.water(0)[0]]:
            self.fire(duel.grids[0], square)
        ship = self.fleet(0).ship(CLASSES[-1])
        for square in ship.cells:
            self.fire(duel.grids[1], square)
        tour.tap_cell(duel.grids[1], self.water(1)[0])
        yield shot("classic_duel")
        self.close()

    def stats(self, shot: Callable[[str], str]) -> Iterator[str]:
        self.tour.app.go("stats")
        self.tour.press(label("Classic 10×10"))
        yield shot("stats_classic")


def _jar() -> aiohttp.CookieJar:
    """A phone's cookie jar: the kiosk is an IP address, whose cookies aiohttp refuses unless
    told (`unsafe`); a phone's browser keeps them."""
    import aiohttp

    return aiohttp.CookieJar(unsafe=True)
