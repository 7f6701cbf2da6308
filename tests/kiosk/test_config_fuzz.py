"""The config file against whatever a person or an editor writes (hypothesis): any TOML, and
any bytes, read as `run` reads it never raises and as `config check` reads it raises only
ConfigError naming the keys; and a section written as a table, an inline table or dotted
keys keeps its other keys when the Settings screen saves one of them (it used to write a new
`[web]` over `web = {host = "127.0.0.1", ...}`: the phone page, kept on this machine, was
open to the bar's network after any save of web.port)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk import config

KEYS = sorted(config.OPTION_BY_KEY)
# Valid values that are not the defaults, two for each key (a save writes the second).
VALUES: dict[str, tuple[object, object]] = {
    "web.host": ("127.0.0.1", "localhost"),
    "web.port": (8123, 8124),
    "web.enabled": (False, False),
    "kiosk.pin": ("9876", "5555"),
    "kiosk.language": ("de", "fi"),
    "caller.volume": (40, 55),
    "caller.enabled": (False, False),
    "caller.voice_de": ("de+f3", "de+m2"),
    "buzzer.mute": (True, True),
    "display.width": (1920, 800),
    "display.fullscreen": (True, True),
    "board.port": ("/dev/ttyUSB0", "/dev/ttyACM0"),
    "matrix.lockout_ms": (30, 40),
    "solo.dart_seconds": (2.0, 2.5),
    "league.hold_seconds": (60, 90),
}

SCALARS = (
    st.none().map(lambda _: "")
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=20)
)
TOML_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)
KEY_NAMES = st.sampled_from(KEYS) | st.text(max_size=12)


def _document(pairs: list[tuple[str, object]]) -> str:
    doc = tomlkit.document()
    for key, value in pairs:
        section, _dot, name = key.partition(".")
        try:
            if not name:
                doc[section] = value
                continue
            table = doc.get(section)
            if not isinstance(table, dict):
                table = tomlkit.table()
                doc[section] = table
            table[name] = value
        except Exception:  # tomlkit refuses some keys and values: that pair is left out
            continue
    return tomlkit.dumps(doc)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(KEY_NAMES, TOML_VALUES), max_size=8) | st.binary(max_size=200))
def test_any_file_is_read_without_a_crash(content):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.toml"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(_document(content), encoding="utf-8")
        owner = config.read(path, strict=False)  # as `run` reads it
        assert owner.settings is not None
        try:
            config.read(path)  # as `config check` reads it
        except config.ConfigError as err:
            assert err.problems and all(isinstance(p, str) and p for p in err.problems)


def _written(values: dict[str, object], styles: dict[str, str]) -> str:
    """`values` as a file whose sections are each written in its style."""
    lines: list[str] = []
    tables: list[str] = []
    for section in sorted({k.partition(".")[0] for k in values}):
        keys = {k.partition(".")[2]: v for k, v in values.items() if k.startswith(section + ".")}
        shown = {name: tomlkit.item(value).as_string() for name, value in keys.items()}
        style = styles.get(section, "table")
        if style == "inline":
            lines.append(f"{section} = {{" + ", ".join(f"{n} = {v}" for n, v in shown.items()) + "}")
        elif style == "dotted":
            lines += [f"{section}.{n} = {v}" for n, v in shown.items()]
        else:
            tables += [f"[{section}]", *(f"{n} = {v}" for n, v in shown.items()), ""]
    return "\n".join(["# the owner's own comment", *lines, "", *tables]) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sets(st.sampled_from(sorted(VALUES)), min_size=1, max_size=8),
    st.dictionaries(
        st.sampled_from(sorted({k.partition(".")[0] for k in VALUES})),
        st.sampled_from(["table", "inline", "dotted"]),
    ),
    st.sampled_from(sorted(VALUES)),
)
def test_a_save_keeps_every_other_key_however_its_section_is_written(keys, styles, saved):
    values = {key: VALUES[key][0] for key in keys}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.toml"
        path.write_text(_written(values, styles), encoding="utf-8")
        owner = config.read(path)
        assert {k: owner.settings.get(k) for k in values} == values
        owner.save({saved: VALUES[saved][1]})
        again = config.read(path)
        assert {k: again.settings.get(k) for k in values if k != saved} == {
            k: v for k, v in values.items() if k != saved
        }
        assert again.settings.get(saved) == VALUES[saved][1]
        assert "# the owner's own comment" in path.read_text(encoding="utf-8")
