"""The host page's link survives restarts until the owner renews it (issue 20, point 2).

Real processes: a headless kiosk, killed (-9, a power cut) and started again, serves the same
host link and says its phone links stayed; `dartship host-link` prints that link while it runs
and refuses to renew behind its back; renewed with the kiosk stopped, the old link is dead and
the new one works at the next start.
"""

from __future__ import annotations

import re
import subprocess
import sys
import urllib.error
import urllib.request

from tests.system.test_one_kiosk_per_database import ENV, Running


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as err:
        return err.code


def _host_link(tmp_path, db, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "kiosk.app.cli",
            "host-link",
            "--config",
            str(tmp_path / "config.toml"),
            "--db",
            str(db),
            *extra,
        ],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )


def _path(url: str) -> str:
    return re.search(r"(/host/\S+)", url).group(1)


def test_the_host_link_survives_a_kill_and_changes_only_when_renewed(tmp_path):
    db = tmp_path / "bar.db"
    first = Running(tmp_path, db)
    try:
        host = first.out.wait_for(r"Host page .*: (http\S+)").group(1)
        assert _status(f"http://127.0.0.1:{first.port}{_path(host)}") == 200
        shown = _host_link(tmp_path, db)  # while it runs: the same link, the running port
        assert shown.returncode == 0, shown.stderr
        assert _path(shown.stdout) == _path(host) and f":{first.port}/host/" in shown.stdout
        refused = _host_link(tmp_path, db, "--renew")
        assert refused.returncode == 2 and f"pid {first.proc.pid}" in refused.stderr
        first.kill()  # SIGKILL: a power cut
        second = Running(tmp_path, db)
        try:
            again = second.out.wait_for(r"Host page .*: (http\S+)").group(1)
            assert _path(again) == _path(host)
            assert _status(f"http://127.0.0.1:{second.port}{_path(host)}") == 200
            second.out.wait_for(r"the phone links stay as they were")
            assert not any("new phone links issued" in line for line in second.out.lines)
        finally:
            second.kill()
        renewed = _host_link(tmp_path, db, "--renew")
        assert renewed.returncode == 0, renewed.stderr
        assert _path(renewed.stdout) != _path(host)
        third = Running(tmp_path, db)
        try:
            assert _status(f"http://127.0.0.1:{third.port}{_path(host)}") == 404
            assert _status(f"http://127.0.0.1:{third.port}{_path(renewed.stdout)}") == 200
        finally:
            third.kill()
    finally:
        first.kill()
