"""The result card of a game of Battleship Express: the winner, then per player the points,
the ships sunk and lost, the attacks, and luck: the ships sunk against the ships their attacks
were expected to sink, from the exact odds (`kiosk.express.luck`). Rematch, New game, Home."""

from __future__ import annotations

from kiosk.express.luck import luck
from kiosk.express.match import Match, Phase, Setup
from kiosk.express.wire import EXPRESS
from kiosk.game import RuleError
from kiosk.i18n import _, ngettext
from kiosk.store import StoreError
from ui.touch import theme
from ui.touch.controls import BigButton
from ui.touch.express.look import player_colour
from ui.touch.result_card import result_page
from ui.touch.screens.base import KioskApp, KioskScreen


def signed(value: float) -> str:
    """Luck as it reads best: +1.2, −0.4, 0.0 (a real minus sign, not a hyphen)."""
    text = f"{value:+.1f}"
    return text.replace("-", "−") if text not in ("+0.0", "-0.0") else "0.0"


def rematch_setup(setup: Setup) -> Setup:
    """The same players, seats, game and lines, with new dice."""
    return Setup.create(
        setup.players,
        variant=setup.variant,
        points_to_win=setup.points_to_win,
        lines=setup.lines,
        rules=setup.rules,
        computers=setup.computers,
    )


class ExpressResultScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        page, self.winner, self.length, self.table = result_page(
            (3, 1.2, 1.2, 1.2, 1.3, 1.2),
            (
                BigButton(_("Home"), lambda: app.go("home"), colour=theme.PANEL_LIGHT),
                BigButton(_("New game"), self.new_game, colour=theme.ACCENT),
                BigButton(_("Rematch"), self.rematch, colour=theme.GO),
            ),
            font_units=22,
            note=_(
                "Luck: ships sunk minus the ships the attacks were expected to sink (from the exact odds)"
            ),
        )
        self.add_widget(page)

    def reset(self) -> None:
        pass

    def refresh(self) -> None:
        match = EXPRESS.in_play(self.app.service)
        if match is None or match.phase is not Phase.OVER or match.winner is None:
            return
        self.show(match)

    def show(self, match: Match) -> None:
        assert match.winner is not None
        setup = match.setup
        self.winner.text = _("Victory for {team}!").format(team=setup.players[match.winner])
        outcome = match.outcome()
        attacks = sum(match.tally(p).attacks for p in range(len(setup.players)))
        self.length.text = " · ".join(
            (
                ngettext("{turns} turn", "{turns} turns", outcome.turns).format(turns=outcome.turns),
                ngettext("{attacks} attack", "{attacks} attacks", attacks).format(attacks=attacks),
                _("first to {points}").format(points=setup.points_to_win),
            )
        )
        self.table.clear_widgets()
        self.table.add_row(
            [_("Player"), _("Points"), _("Sunk"), _("Lost"), _("Attacks"), _("Luck")], colour=theme.TEXT_DIM
        )
        lucky = luck(match)
        order = sorted(range(len(setup.players)), key=lambda p: (p != match.winner, -match.points()[p], p))
        for player in order:
            tally = match.tally(player)
            self.table.add_row(
                [
                    setup.players[player],
                    str(match.points()[player]),
                    str(tally.sunk),
                    str(len(match.lost(player))),
                    str(tally.attacks),
                    signed(lucky[player]),
                ],
                colour=player_colour(player),
                bold=player == match.winner,
            )

    def new_game(self) -> None:
        self.app.screen("express_setup").prefill()
        self.app.go("express_setup")

    def rematch(self) -> None:
        match = EXPRESS.in_play(self.app.service)
        if match is None:
            return
        self.app.start_game(lambda: self._rematch(rematch_setup(match.setup)))

    def _rematch(self, setup: Setup) -> None:
        try:
            self.app.service.new_game(EXPRESS, setup)
        except (RuleError, StoreError) as err:
            self.app.toast(str(err))
