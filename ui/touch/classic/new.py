"""Classic 10x10, the start: solo against the computer (its level) or a duel of two teams whose
fleets are on their phones; beside them the QR code of the classic page for any phone (its own
solo games, the daily challenge, rooms with friends) and today's challenge leaderboard."""

from __future__ import annotations

import datetime

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.scrollview import ScrollView

from kiosk.classic.match import ComputerLevel, Mode, Setup
from kiosk.classic.rooms import clean_name, duel_names
from kiosk.classic.table import start
from kiosk.game import RuleError
from kiosk.i18n import _
from kiosk.names import same_name
from kiosk.store import StoreError
from ui.touch import theme
from ui.touch.classic.words import level_name
from ui.touch.controls import BigButton, Caption, ChoiceButton, text_field
from ui.touch.qr import qr_texture
from ui.touch.screens.base import KioskApp, KioskScreen, heading
from ui.touch.table import Table

LEVELS = (ComputerLevel.EASY, ComputerLevel.NORMAL, ComputerLevel.HARD)
DEFAULT_NAMES = ("Sharks", "Jets")
BOARD_ROWS = 5  # today's leaderboard on the kiosk: the best few


def daily_board(app: KioskApp, day: datetime.date | None = None) -> list[tuple[str, int]]:
    """Today's challenge, best first: (player, shots)."""
    store = app.kiosk.store
    rows = store.stats.daily_board((day or datetime.date.today()).isoformat())
    return [(row.player, row.shots) for row in rows]


def board_table(app: KioskApp, rows: int, font_units: float = 18) -> Table:
    table = Table((3, 1.6), font_units=font_units)
    entries = daily_board(app)
    if entries:
        table.add_row([_("Player"), _("Shots")], colour=theme.TEXT_DIM, font_units=15)
    for rank, (player, shots) in enumerate(entries[:rows], start=1):
        table.add_row([f"{rank}. {player}", str(shots)], colour=theme.WARN if rank == 1 else theme.TEXT)
    if not entries:
        table.add_row([_("nobody yet"), ""], colour=theme.TEXT_DIM)
    return table


class ClassicNewScreen(KioskScreen):
    def __init__(self, app: KioskApp, **kwargs: object) -> None:
        super().__init__(app, **kwargs)
        s = theme.sizes()
        page = BoxLayout(orientation="vertical", padding=(s(16), s(8)), spacing=s(6))
        top = BoxLayout(size_hint_y=None, height=s(48), spacing=s(8))
        top.add_widget(heading(_("Classic Battleship 10×10")))
        top.add_widget(
            BigButton(
                _("Back"),
                lambda: app.go("home"),
                colour=theme.PANEL_LIGHT,
                font_units=20,
                size_hint=(None, None),
                height=s(48),
                width=s(110),
            )
        )
        page.add_widget(top)
        columns = BoxLayout(spacing=s(20))
        left = BoxLayout(orientation="vertical", spacing=s(8))
        left.add_widget(
            Caption(_("Solo: a team against the computer"), font_units=20, bold=True, size_hint_y=None)
        )
        row = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        self.solo_name = text_field(DEFAULT_NAMES[0], hint=_("team name"))
        self.level = ChoiceButton(
            list(LEVELS),
            ComputerLevel.NORMAL,
            label=lambda level: _("computer: {level}").format(level=level_name(level)),
            font_units=18,
            size_hint_x=0.8,
        )
        row.add_widget(self.solo_name)
        row.add_widget(self.level)
        left.add_widget(row)
        left.add_widget(BigButton(_("Play solo"), self._solo, colour=theme.GO))
        left.add_widget(
            Caption(
                _("Duel: two teams, each fleet on its own phone"), font_units=20, bold=True, size_hint_y=None
            )
        )
        names = BoxLayout(spacing=s(8), size_hint_y=None, height=s.touch)
        self.duel_names = [
            text_field(DEFAULT_NAMES[0], hint=_("team 1")),
            text_field(DEFAULT_NAMES[1], hint=_("team 2")),
        ]
        for field in self.duel_names:
            names.add_widget(field)
        left.add_widget(names)
        self.duel_button = BigButton(_("Start duel"), self._duel, colour=theme.ACCENT)
        left.add_widget(self.duel_button)
        self.message = Caption(font_units=17, colour=theme.WARN, size_hint_y=None)
        left.add_widget(self.message)
        left.add_widget(BoxLayout())
        columns.add_widget(left)
        right = BoxLayout(orientation="vertical", spacing=s(4), size_hint_x=0.62)
        right.add_widget(
            Caption(
                _("On your phone: play solo, today's challenge, play with friends"),
                font_units=17,
                colour=theme.TEXT_DIM,
                size_hint_y=None,
                halign="center",
            )
        )
        self.qr = Image(fit_mode="contain", size_hint_y=None, height=s(150))
        right.add_widget(self.qr)
        self.board_title = Caption(font_units=19, bold=True, size_hint_y=None, halign="center")
        right.add_widget(self.board_title)
        self.board = ScrollView(do_scroll_x=False)
        right.add_widget(self.board)
        columns.add_widget(right)
        page.add_widget(columns)
        self.add_widget(page)

    def refresh(self) -> None:
        web = self.app.kiosk.web
        url = web.page_url("/classic") if web is not None else None
        self.qr.texture = qr_texture(url) if url is not None else None
        self.qr.opacity = 1 if url is not None else 0
        self.duel_button.disabled = web is None
        self.message.text = "" if web is not None else _("A duel needs the phone page (web.enabled).")
        self.board_title.text = _("Today's challenge")
        self.board.clear_widgets()
        self.board.add_widget(board_table(self.app, BOARD_ROWS))

    def _start(self, setup: Setup) -> None:
        """Asked first over a game in play (the shell's `start_game`)."""
        self.app.start_game(lambda: self._begin(setup))

    def _begin(self, setup: Setup) -> None:
        try:
            start(self.app.service, setup, self.app.rng)
        except (RuleError, StoreError) as err:
            self.message.text = str(err)
            return
        self.message.text = ""

    def _solo(self) -> None:
        name = clean_name(self.solo_name.text)
        self._start(Setup(Mode.SOLO, (name,) if name else (), level=self.level.value))

    def _duel(self) -> None:
        first, second = (clean_name(field.text) for field in self.duel_names)
        # "Sharks" and "sharks" are one name, as the dart game's new game refuses them.
        if first and second and same_name(first, second):
            self.message.text = _("the two teams need different names")
            return
        self._start(Setup(Mode.DUEL, duel_names(first, second)))
