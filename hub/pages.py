"""The hub's plain pages: readable on a phone and on a bar's TV, no script, refreshed each minute.

Every value is escaped; a page is a title, a few links and tables. A page speaks the language
its reader asks for (`?lang=de`, else the best of the browser's Accept-Language, else English),
from the kiosk's own catalogs: `_` translates into the language of the page being rendered
(`rendered_in`: `kiosk.i18n.speaking`), never a process-wide one (one hub serves every reader
at once). The JSON answers' error messages speak the same way (`hub.web.errors`).
"""

from __future__ import annotations

import datetime
import html
from collections.abc import Iterable, Sequence
from urllib.parse import quote

from kiosk.i18n import LANGUAGES, _, accepted_language, language, speaking


def language_of(accept: str | None, asked: str | None = None) -> str:
    """The page's language: `asked` (the `lang` query) if it is one of ours, else the first of
    Accept-Language's by its q-values that is ours (`kiosk.i18n.accepted_language`), else English."""
    if asked and asked.lower() in LANGUAGES:
        return asked.lower()
    return accepted_language(accept) or "en"


rendered_in = speaking  # the page's language, for this request alone


def kind_name(kind: str) -> str:
    """A kind of game as the kiosk's screens name it."""
    names = {"darts": _("Dart game"), "classic": _("Classic 10×10"), "express": _("Battleship Express")}
    return names.get(kind, kind)


def local_time(stamp: str) -> str:
    """A time as the pages show it: in the hub's own time zone (the machine's, which also says
    when a day starts: the season's, the daily board's), to the minute."""
    return datetime.datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")


def when_header(stamps: Iterable[str] = ()) -> str:
    """The heading of a column of `local_time`s, naming the zones they are shown in (the
    summer's and the winter's of one place: "EET/EEST"); with none, the zone of now."""
    zones = {datetime.datetime.fromisoformat(s).astimezone().tzname() or "UTC" for s in stamps}
    if not zones:
        zones = {datetime.datetime.now().astimezone().tzname() or "UTC"}
    return _("When ({zone})").format(zone="/".join(sorted(zones)))


def opponents(people: str, computers: int) -> str:
    """Who a player played: the people, then the kiosk's computer in the reader's language (the
    name the kiosk gave its side is not shown: it is the kiosk's language, not the reader's)."""
    names = [people] if people else []
    if computers:
        names.append(_("Computer") if computers == 1 else f"{_('Computer')} ×{computers}")
    return ", ".join(names)


STYLE = """
body{font-family:system-ui,sans-serif;background:#0b1a2a;color:#eef;margin:0 auto;
max-width:60em;padding:1em;font-size:1.15em}
a{color:#8cf}h1{font-size:1.6em;margin:.2em 0}table{border-collapse:collapse;width:100%;
margin:.6em 0}th,td{padding:.35em .6em;text-align:left;border-bottom:1px solid #234}
td.n,th.n{text-align:right}nav a{margin-right:1em}.quiet{color:#9ab}
.wide{overflow-x:auto}
@media (max-width:40em){body{font-size:1em;padding:.6em}th,td{padding:.3em .35em}
.cards tr:first-child{display:none}.cards tr{display:block;border-bottom:1px solid #234;
padding:.25em 0}.cards td,.cards td.n{display:flex;justify-content:space-between;gap:1em;
border:0;padding:.1em .35em;text-align:right}.cards td::before{content:attr(data-label);
color:#9ab;text-align:left;white-space:nowrap}}
"""


def link(href: str, text: str) -> str:
    return f'<a href="{html.escape(href, quote=True)}">{html.escape(text)}</a>'


def player_href(league: int, key: str) -> str:
    return f"/leagues/{league}/players/{quote(key, safe='')}"


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[object]],
    numeric: frozenset[int] = frozenset(),
    raw: frozenset[int] = frozenset(),
    cards: bool = False,
) -> str:
    """A table; columns in `numeric` right-aligned, those in `raw` already HTML (links).
    `cards`: on a phone each row is a card of its own, a line per column named by its heading
    (a table of many columns, a player's games, read whole instead of scrolled)."""
    head = "".join(
        f'<th class="n">{html.escape(h)}</th>' if i in numeric else f"<th>{html.escape(h)}</th>"
        for i, h in enumerate(headers)
    )
    labels = [f' data-label="{html.escape(h, quote=True)}"' if cards else "" for h in headers]
    body = []
    for row in rows:
        cells = []
        for i, value in enumerate(row):
            text = str(value) if i in raw else html.escape(str(value))
            kind = ' class="n"' if i in numeric else ""
            cells.append(f"<td{kind}{labels[i]}>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    if not body:
        return f'<p class="quiet">{html.escape(_("No games yet."))}</p>'
    # A table wider than a phone scrolls by itself; the page never scrolls sideways.
    shape = ' class="cards"' if cards else ""
    return f'<div class="wide"><table{shape}><tr>{head}</tr>{"".join(body)}</table></div>'


def page(title: str, body: str, nav: Sequence[tuple[str, str]] = ()) -> str:
    links = " ".join(link(href, text) for href, text in nav)
    return (
        f'<!doctype html><html lang="{language()}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="refresh" content="60"><title>{html.escape(title)}</title>'
        f"<style>{STYLE}</style></head><body><nav>{link('/', _('Leagues'))} {links}</nav>"
        f"<h1>{html.escape(title)}</h1>{body}</body></html>"
    )
