"""The scoreboard: two columns, team names on top, each team's ships with sunk ones crossed out,
whose visit it is, which player throws and which dart of the visit."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from kiosk.darts.match import Match, Phase
from kiosk.i18n import _
from ui.touch import theme
from ui.touch.controls import FitLabel, Panel
from ui.touch.darts.opponent import skill_name


class ShipsRow(BoxLayout):
    """One team's own fleet as numbers, crossed out when the enemy sank them (public)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(spacing=theme.sizes()(6), **kwargs)

    def show(self, lengths: tuple[int, ...], sunk: tuple[int, ...]) -> None:
        self.clear_widgets()
        left = list(sunk)
        s = theme.sizes()
        for n in sorted(lengths):
            gone = n in left
            if gone:
                left.remove(n)
            self.add_widget(
                Label(
                    text=f"[s]{n}[/s]" if gone else str(n),
                    markup=True,
                    bold=True,
                    font_size=s(30),
                    color=theme.RESULT_COLOURS["sunk"] if gone else theme.TEXT,
                )
            )


class TeamColumn(Panel):
    def __init__(self, index: int, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", radius=theme.sizes()(10), **kwargs)
        s = theme.sizes()
        self.index = index
        self.name = FitLabel(
            font_units=26,
            lines=1,
            bold=True,
            color=theme.TEAM_COLOURS[index],
            size_hint_y=None,
            height=s(34),
            shorten=True,
            shorten_from="right",
        )
        self.ships = ShipsRow(size_hint_y=None, height=s(40))
        self.player = FitLabel(
            font_units=18,
            lines=1,
            color=theme.TEXT_DIM,
            halign="center",
            size_hint_y=None,
            height=s(26),
            shorten=True,
        )
        for widget in (self.name, self.ships, self.player):
            self.add_widget(widget)

    def show(self, match: Match, lengths: tuple[int, ...]) -> None:
        team = match.teams[self.index]
        self.name.text = team.name
        self.ships.show(lengths, match.sunk_lengths(self.index))
        tally = match.tally(self.index)
        self.player.text = _("hits {hits} · darts {darts}").format(hits=tally.hits, darts=tally.darts)
        state = match.state()
        playing = state.side == self.index and match.phase in (Phase.THROWING, Phase.TAKEOUT)
        self.background = list(theme.PANEL_LIGHT if playing else theme.PANEL)


class Scoreboard(BoxLayout):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(orientation="vertical", spacing=theme.sizes().gap, **kwargs)
        s = theme.sizes()
        columns = BoxLayout(spacing=s.gap, size_hint_y=None, height=s(124))
        self.columns = (TeamColumn(0), TeamColumn(1))
        for column in self.columns:
            columns.add_widget(column)
        self.add_widget(columns)
        self.turn = FitLabel(
            font_units=26,
            lines=1,
            bold=True,
            color=theme.TEXT,
            size_hint_y=None,
            height=s(36),
            halign="center",
        )
        self.darts = Label(font_size=s(34), size_hint_y=None, height=s(44), markup=True)
        self.add_widget(self.turn)
        self.add_widget(self.darts)

    def show(self, match: Match) -> None:
        lengths = match.setup.rules.fleet
        for column in self.columns:
            column.show(match, lengths)
        team, player, dart = match.up_next()
        # A team without named players is named once (kiosk.darts.players).
        player = match.teams[team].thrower(player) if team is not None else None
        seat = match.setup.computer
        if team is not None and seat is not None and seat.side == team:
            player = skill_name(seat.skill)  # "Kiosk: pro throws"
        name = match.teams[team].name if team is not None else ""
        named = player is not None
        if match.phase is Phase.THROWING and team is not None:
            self.turn.text = (
                _("{team}: {player} throws").format(team=name, player=player)
                if named
                else _("{team} throws").format(team=name)
            )
            self.darts.text = self._dart_dots(dart or 1, match.setup.rules.darts_per_visit)
        elif match.phase is Phase.TAKEOUT and team is not None:
            self.turn.text = (
                _("next: {team}, {player}").format(team=name, player=player)
                if named
                else _("next: {team}").format(team=name)
            )
            self.darts.text = ""
        else:
            self.turn.text = ""
            self.darts.text = ""

    @staticmethod
    def _dart_dots(current: int, per_visit: int) -> str:
        """Dart 1-2-3 of the visit: thrown darts dim, the one in hand bright."""
        parts = []
        for n in range(1, per_visit + 1):
            if n < current:
                parts.append(f"[color=5a6a7a]{n}[/color]")
            elif n == current:
                parts.append(f"[b][color=ffe14d]{n}[/color][/b]")
            else:
                parts.append(f"[color=a9b8c6]{n}[/color]")
        return _("dart") + "  " + "  ".join(parts)
