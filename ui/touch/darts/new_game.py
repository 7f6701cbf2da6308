"""New game: team names and players (on-screen keyboard), this game's house rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from kiosk.board import Profile
from kiosk.darts.fleet import DEFAULT_FLEET, PRESETS, PlacementError, parse_lengths
from kiosk.darts.kind import DARTS
from kiosk.darts.match import (
    BullOffMode,
    HouseRules,
    KioskSeat,
    RuleError,
    Setup,
    Team,
    house_rules,
    rings_not_told,
)
from kiosk.darts.solo import kiosk_team
from kiosk.i18n import _, ngettext
from kiosk.names import clean_name, same_name
from kiosk.scatter import Skill
from kiosk.store import StoreError
from ui.touch import theme
from ui.touch.controls import BigButton, Caption, ChoiceButton, text_field
from ui.touch.darts.opponent import SKILL_ORDER, seat, skill_name
from ui.touch.screens.base import KioskApp, KioskScreen, heading

if TYPE_CHECKING:
    from kivy.uix.textinput import TextInput

DEFAULT_NAMES = ("Sharks", "Jets")


def fleet_label(lengths: tuple[int, ...]) -> str:
    for name, preset in PRESETS.items():
        if tuple(sorted(preset)) == tuple(sorted(lengths)):
            return {"default": _("fleet 2-3-4-5"), "classic-five": _("classic five")}.get(name, name)
    return _("fleet {lengths}").format(lengths="-".join(str(n) for n in sorted(lengths)))


def bull_off_label(mode: BullOffMode) -> str:
    return {
        BullOffMode.NORMAL: _("bull-off: closest"),
        BullOffMode.OFFICIAL: _("bull-off: official"),
        BullOffMode.OFF: _("no bull-off"),
    }[mode]


def profile_text(profile: Profile) -> str:
    if profile is Profile.THREE_RING:
        return _("Board: three-ring (the two singles of a number are one cell)")
    return _("Board: four-ring (D, L, T, S per number + Bull)")


def split_players(text: str) -> tuple[str, ...]:
    names = (clean_name(p) for p in text.replace(";", ",").split(","))
    return tuple(dict.fromkeys(n for n in names if n))


class NewGameScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        page = BoxLayout(orientation="vertical", padding=(s(16), s(8)), spacing=s(6))
        page.add_widget(heading(_("New game")))
        teams = GridLayout(cols=2, spacing=(s(16), s(4)), size_hint_y=None)
        teams.bind(minimum_height=teams.setter("height"))
        self.names: list[TextInput] = []
        self.players: list[TextInput] = []
        for index in (0, 1):
            teams.add_widget(
                Caption(
                    _("Team {n}").format(n=index + 1),
                    font_units=18,
                    colour=theme.TEAM_COLOURS[index],
                    size_hint_y=None,
                )
            )
        for _index in (0, 1):
            field = text_field(hint=_("team name"))
            self.names.append(field)
            teams.add_widget(field)
        for _index in (0, 1):
            teams.add_widget(
                Caption(
                    _("Players, separated by commas"), font_units=16, colour=theme.TEXT_DIM, size_hint_y=None
                )
            )
        for _index in (0, 1):
            field = text_field(hint=_("e.g. Anna, Ben"))
            self.players.append(field)
            teams.add_widget(field)
        page.add_widget(teams)
        rules = BoxLayout(spacing=s(12), size_hint_y=None, height=s.touch)
        self.fleet = ChoiceButton([DEFAULT_FLEET], DEFAULT_FLEET, label=fleet_label)  # see refresh
        self.darts = ChoiceButton(
            list(range(1, 10)),
            3,
            label=lambda n: ngettext("{n} dart per visit", "{n} darts per visit", n).format(n=n),
        )
        self.bull_off = ChoiceButton(list(BullOffMode), BullOffMode.NORMAL, label=bull_off_label)
        for widget in (self.fleet, self.darts, self.bull_off):
            rules.add_widget(widget)
        page.add_widget(rules)
        # Solo: team 2 is the kiosk, throwing virtual darts at the chosen skill.
        solo = BoxLayout(spacing=s(12), size_hint_y=None, height=s.touch)
        self.solo = ChoiceButton(
            [False, True],
            False,
            label=lambda on: _("Solo vs kiosk") if on else _("Two teams"),
            on_change=self._solo_changed,
        )
        self.skill = ChoiceButton(
            list(SKILL_ORDER),
            Skill.PUB,
            label=lambda k: _("Kiosk plays as: {skill}").format(skill=skill_name(k)),
        )
        solo.add_widget(self.solo)
        solo.add_widget(self.skill)
        page.add_widget(solo)
        self._human_names = ("", "")  # team 2 as typed, given back when solo is switched off
        self.profile = Caption(font_units=16, colour=theme.TEXT_DIM, size_hint_y=None)
        page.add_widget(self.profile)
        self.message = Caption(font_units=18, colour=theme.DANGER, size_hint_y=None)
        page.add_widget(self.message)
        page.add_widget(BoxLayout())
        actions = BoxLayout(spacing=s(12), size_hint_y=None, height=s.touch)
        actions.add_widget(BigButton(_("Back"), lambda: app.go("home"), colour=theme.PANEL_LIGHT))
        actions.add_widget(BigButton(_("Place fleets"), self.start, colour=theme.GO))
        page.add_widget(actions)
        self.add_widget(page)
        self._prefill()

    def _prefill(self) -> None:
        match = DARTS.in_play(self.app.service)
        teams = match.teams if match is not None else (Team(DEFAULT_NAMES[0], ()), Team(DEFAULT_NAMES[1], ()))
        kiosk = seat(match)
        for index, team in enumerate(teams):
            self.names[index].text = team.name
            players = [p for p in team.players if p != team.name]
            self.players[index].text = "" if kiosk and kiosk.side == index else ", ".join(players)
        if kiosk is not None and kiosk.side == 1:
            self._human_names = (DEFAULT_NAMES[1], "")
            self.players[1].disabled = True  # keeps the kiosk team's own name
            self.skill.set_value(kiosk.skill)
            self.solo.set_value(True)
        else:
            self.solo.set_value(False)

    def _solo_changed(self, on: bool) -> None:
        if not hasattr(self, "skill"):
            return
        name, players = self.names[1], self.players[1]
        self.skill.opacity = 1 if on else 0
        self.skill.disabled = not on
        if on and not players.disabled:
            self._human_names = (name.text, players.text)
            name.text, players.text = _("Kiosk"), ""
        elif not on and players.disabled:
            name.text, players.text = self._human_names
        players.disabled = on
        players.hint_text = _("throws virtual darts") if on else _("e.g. Anna, Ben")

    def refresh(self) -> None:
        rules = self._config_rules()
        choices = [tuple(sorted(p)) for p in PRESETS.values()]
        if tuple(sorted(rules.fleet)) not in choices:
            choices.append(tuple(sorted(rules.fleet)))
        self.fleet.choices = choices
        self.fleet.label = fleet_label
        self.fleet.set_value(tuple(sorted(rules.fleet)))
        self.darts.set_value(rules.darts_per_visit)
        self.bull_off.set_value(rules.bull_off)
        self.profile.text = profile_text(rules.profile)
        if not self.app.service.board_rings_told():
            self.profile.text = rings_not_told()
        self.message.text = ""

    def _config_rules(self) -> HouseRules:
        try:
            return house_rules(self.app.settings, self.app.service.board_profile())
        except (PlacementError, ValueError):
            return HouseRules()

    def setup(self) -> Setup:
        """The game as entered; RuleError says what is wrong."""
        names = [clean_name(f.text) or "" for f in self.names]
        if not all(names):
            raise RuleError(_("give both teams a name"))
        if same_name(names[0], names[1]):
            raise RuleError(_("the two teams need different names"))
        teams = []
        for index, name in enumerate(names):
            # A team without named players is one player of the team's name.
            players = split_players(self.players[index].text) or (name,)
            teams.append(Team(name, players))
        computer = None
        if self.solo.value:
            teams[1] = kiosk_team(names[1])
            computer = KioskSeat(1, self.skill.value)
        rules = HouseRules(
            fleet=parse_lengths(self.fleet.value),
            darts_per_visit=self.darts.value,
            bull_off=self.bull_off.value,
            profile=self._config_rules().profile,
        )
        return Setup((teams[0], teams[1]), rules, computer)

    def start(self) -> None:
        """The game as entered, asked first over a game in play (the shell's `start_game`)."""
        try:
            setup = self.setup()
        except RuleError as err:
            self.message.text = str(err)
            return
        self.app.start_game(lambda: self._start(setup))

    def _start(self, setup: Setup) -> None:
        try:
            self.app.service.new_game(DARTS, setup)
        except (RuleError, StoreError) as err:
            self.message.text = str(err)
