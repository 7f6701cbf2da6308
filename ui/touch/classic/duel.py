"""A classic duel of two teams on the touchscreen, each team's fleet on its own phone.

First the hand-over, one team at a time (the dart game's rules): the other team looks away, only
this team's QR code is shown, and the first phone that opens the link holds it (and gets the
team's random fleet, re-placeable there until the first shot that concerns it). Once both phones
hold their links, the screen shows what both teams may see: both radars (shots, hits, sunk
outlines) and whose turn it is. The team on turn fires on its radar here (tap to aim, tap again
to fire) or from its phone.

Hidden information: no fleet is ever drawn here (`radar_of` only); `fleet_of` is not imported.
"""

from __future__ import annotations

import functools

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from kiosk.classic.grid import Square
from kiosk.classic.match import Match
from kiosk.i18n import _
from ui.touch import theme
from ui.touch.classic.grid import GridView
from ui.touch.classic.marks import radar_of
from ui.touch.classic.solo import ClassicScreen
from ui.touch.controls import BigButton, Caption, FitLabel, with_symbols
from ui.touch.phones import FollowsPhones, PhonesPopup, handover_middle, phone_state
from ui.touch.screens.base import KioskApp


class ClassicDuelScreen(FollowsPhones, ClassicScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        self.step: int | None = None  # the team whose hand-over step was asked for
        self.handover = BoxLayout(orientation="vertical", padding=s(16), spacing=s(10))
        # The radars: whose turn on top, then each team's shots at the other, side by side.
        self.radars = FloatLayout()
        page = BoxLayout(orientation="vertical", padding=s(8), spacing=s(6))
        top = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        # Two lines at most: whose turn, and where to tap.
        self.prompt = FitLabel(
            font_units=20, lines=2, max_lines=2, bold=True, color=theme.WARN, halign="left", valign="middle"
        )
        top.add_widget(self.prompt)
        self.fire_slot = BoxLayout(size_hint_x=None, width=s(190))
        top.add_widget(self.fire_slot)
        self.fire_button = BigButton("", self._fire, colour=theme.GO, font_units=22)
        if app.kiosk.web is not None:
            top.add_widget(
                BigButton(
                    _("Phones"), self.open_phones, colour=theme.PANEL_LIGHT, font_units=18, size_hint_x=None
                ).fit_width(s(100))
            )
        top.add_widget(
            BigButton(
                _("Home"), lambda: app.go("home"), colour=theme.PANEL_LIGHT, font_units=18, size_hint_x=None
            ).fit_width(s(90))
        )
        page.add_widget(top)
        boards = BoxLayout(spacing=s(12))
        self.titles: list[Caption] = []
        self.grids: list[GridView] = []
        for side in (0, 1):
            column = BoxLayout(orientation="vertical", spacing=s(2))
            title = Caption(
                font_units=20,
                bold=True,
                colour=theme.TEAM_COLOURS[side],
                size_hint_y=None,
                halign="center",
                shorten=True,
            )
            grid = GridView()
            grid.bind(on_square=functools.partial(self._tapped, side))
            grid.bind(pos=self._place_overlays, size=self._place_overlays)
            column.add_widget(title)
            column.add_widget(grid)
            boards.add_widget(column)
            self.titles.append(title)
            self.grids.append(grid)
        page.add_widget(boards)
        self.radars.add_widget(page)
        self.radars.add_widget(self.announcement)
        self.add_widget(self.handover)
        self._shooter = 0

    # -- the two views --

    def reset(self) -> None:
        super().reset()
        self.step = None

    def toast_anchor(self) -> Widget | None:
        return None

    def place_announcement(self, shooter: int) -> None:
        self._shooter = shooter
        self._place_overlays()

    def _place_overlays(self, *_args: object) -> None:
        self.over(self.grids[self._shooter])

    def phones_ready(self) -> bool:
        web = self.app.kiosk.web
        return web is not None and phone_state(web, 0) and phone_state(web, 1)

    def refresh(self) -> None:
        match = self.match
        if match is None:
            return
        ready = self.phones_ready()
        wanted = self.radars if ready else self.handover
        if wanted.parent is None:
            self.clear_widgets()
            self.add_widget(wanted)  # the caller says whose turn once the hand-over is done
        if ready:
            self._show_radars(match)
        else:
            self._build_handover(match)

    def _show_radars(self, match: Match) -> None:
        names = self.names(match)
        turn = match.turn
        if self.selected is not None and (turn is None or self.selected in match.radar(turn).shots):
            self.selected = None
        for side, (title, grid) in enumerate(zip(self.titles, self.grids, strict=True)):
            title.text = _("{team} fire at {enemy}").format(team=names[side], enemy=names[1 - side])
            marks, sunk = radar_of(match, side)
            on_turn = turn == side and match.winner is None
            grid.interactive = on_turn
            grid.dimmed = turn is not None and not on_turn
            grid.show(marks, sunk, last=self.last.get(side), selected=self.selected if on_turn else None)
        if match.winner is not None:
            self.prompt.text = _("Victory for {team}!").format(team=names[match.winner])
        elif turn is not None and self.selected is not None:
            self.prompt.text = _("{team}: tap {square} again to fire").format(
                team=names[turn], square=self.selected.code
            )
        elif turn is not None:
            where = (
                _("{team}: tap a square on the left, or on your phone")
                if turn == 0
                else _("{team}: tap a square on the right, or on your phone")
            )
            self.prompt.text = where.format(team=names[turn])
        self.prompt.color = theme.TEAM_COLOURS[turn] if turn is not None else theme.GO
        self.fire_slot.clear_widgets()
        if self.selected is not None and turn is not None:
            self.fire_button.text = _("Fire at {square}").format(square=self.selected.code)
            self.fire_slot.add_widget(self.fire_button)

    def _build_handover(self, match: Match) -> None:
        """One team at a time: the other looks away, only this team's code is shown. The next
        team's step comes once a phone holds the link."""
        s = theme.sizes()
        view = self.handover
        view.clear_widgets()
        names = self.names(match)
        web = self.app.kiosk.web
        if web is None:
            view.add_widget(
                FitLabel(
                    _("A duel needs the teams' phones, and the phone page is off (web.enabled)."),
                    font_units=30,
                    color=theme.TEXT,
                    halign="center",
                    valign="middle",
                )
            )
            view.add_widget(BigButton(_("Home"), lambda: self.app.go("home"), colour=theme.PANEL_LIGHT))
            return
        needing = [side for side in (0, 1) if not phone_state(web, side)]
        step = self.step if self.step in needing else needing[0]
        url = self._team_url(step)
        view.add_widget(
            FitLabel(
                _("{other}, look away –\n{team}, scan your code").format(
                    other=names[1 - step], team=names[step]
                ),
                font_units=38,
                bold=True,
                halign="center",
                valign="middle",
                color=theme.TEXT,
                size_hint_y=None,
                height=s(104),
            )
        )
        column = BoxLayout(orientation="vertical", spacing=s(10))
        column.add_widget(
            Caption(
                _(
                    "Your fleet stands at random on your phone: move it there "
                    "before the first shot if you like. Nobody else sees it."
                ),
                font_units=20,
                colour=theme.TEXT_DIM,
                size_hint_y=None,
            )
        )
        view.add_widget(handover_middle(url, column, needing, step, names, self._show_step))
        row = BoxLayout(spacing=s(12), size_hint_y=None, height=s.touch)
        for side in (0, 1):
            text = (
                _("{team}: on a phone ✓") if phone_state(web, side) else _("{team}: no phone yet")
            ).format(team=names[side])
            row.add_widget(
                Caption(
                    with_symbols(text),
                    font_units=20,
                    halign="center",
                    markup=True,
                    colour=theme.TEAM_COLOURS[side],
                )
            )
        row.add_widget(
            BigButton(
                _("Phones"),
                self.open_phones,
                colour=theme.PANEL_LIGHT,
                font_units=20,
                size_hint_x=None,
                width=s(120),
            )
        )
        row.add_widget(
            BigButton(
                _("Home"),
                lambda: self.app.go("home"),
                colour=theme.PANEL_LIGHT,
                font_units=20,
                size_hint_x=None,
                width=s(120),
            )
        )
        view.add_widget(row)

    def _show_step(self, team: int) -> None:
        self.step = team
        self.refresh()

    def _team_url(self, team: int) -> str | None:
        web = self.app.kiosk.web
        try:
            return web.team_url(team) if web is not None else None
        except Exception:  # the phone page is optional: never let it break the screen
            return None

    def open_phones(self) -> None:
        PhonesPopup(self.app, teams=self._teams).open()

    def _teams(self) -> list[str | None] | None:
        match = self.match
        return list(self.names(match)) if match is not None else None

    # -- firing --

    def _tapped(self, side: int, _view: object, square: Square) -> None:
        self.aim(side, square)

    def _fire(self) -> None:
        match = self.match
        if match is not None and match.turn is not None:
            self.fire(match.turn)
