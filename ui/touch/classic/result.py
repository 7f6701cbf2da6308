"""The classic result card: the winner; per player shots, hits, hit rate, ships sunk and turns;
home, a new game, a rematch (the same players and level, new random fleets)."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from kiosk.classic.match import Match, Setup
from kiosk.classic.table import start
from kiosk.classic.wire import CLASSIC
from kiosk.game import RuleError
from kiosk.i18n import _, ngettext
from kiosk.store import StoreError
from ui.touch import theme
from ui.touch.classic.solo import ClassicScreen
from ui.touch.controls import BigButton
from ui.touch.screens.base import KioskApp, KioskScreen
from ui.touch.table import Table, percent


class ClassicResultScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        page = BoxLayout(orientation="vertical", padding=(s(16), s(8)), spacing=s(6))
        self.winner = Label(
            font_size=s(48), bold=True, color=theme.RESULT_COLOURS["win"], size_hint_y=None, height=s(72)
        )
        self.length = Label(font_size=s(20), color=theme.TEXT_DIM, size_hint_y=None, height=s(28))
        page.add_widget(self.winner)
        page.add_widget(self.length)
        # Room for the longest heading ("Trefferquote", "Osumaprosentti") at the numbers' size.
        self.table = Table((2.6, 1.3, 1.2, 2.0, 1.4, 1.1), font_units=22)
        page.add_widget(self.table)
        page.add_widget(BoxLayout())
        actions = BoxLayout(spacing=s(12), size_hint_y=None, height=s.touch)
        actions.add_widget(BigButton(_("Home"), lambda: app.go("home"), colour=theme.PANEL_LIGHT))
        actions.add_widget(BigButton(_("New game"), lambda: app.go("classic_new"), colour=theme.ACCENT))
        actions.add_widget(BigButton(_("Rematch"), self.rematch, colour=theme.GO))
        page.add_widget(actions)
        self.add_widget(page)

    def reset(self) -> None:
        pass

    @property
    def match(self) -> Match | None:
        return CLASSIC.in_play(self.app.service)

    def refresh(self) -> None:
        match = self.match
        if match is None or match.winner is None:
            return
        outcome = match.outcome()
        names = [ClassicScreen.player_name(match, side) for side in (0, 1)]
        self.winner.text = _("Victory for {team}!").format(team=names[match.winner])
        self.length.text = ngettext("{turns} turn", "{turns} turns", outcome.turns).format(
            turns=outcome.turns
        )
        self.table.clear_widgets()
        self.table.add_row(
            [_("Player"), _("Shots"), _("Hits"), _("Hit rate"), _("Sunk"), _("Turns")],
            colour=theme.TEXT_DIM,
            font_units=17,
        )
        for result in outcome.results:
            rate = result.hits / result.shots if result.shots else 0.0
            self.table.add_row(
                [
                    names[result.side],
                    str(result.shots),
                    str(result.hits),
                    percent(rate),
                    str(result.sunk),
                    str(result.turns),
                ],
                colour=theme.TEAM_COLOURS[result.side],
                bold=result.won,
            )

    def rematch(self) -> None:
        match = self.match
        if match is None:
            return
        self.app.start_game(lambda: self._rematch(match.setup))

    def _rematch(self, setup: Setup) -> None:
        try:
            start(self.app.service, setup, self.app.rng)
        except (RuleError, StoreError) as err:
            self.app.toast(str(err))
