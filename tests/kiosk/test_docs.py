"""The README stays true: every config key is documented there."""

from pathlib import Path

from kiosk.config import OPTIONS

ROOT = Path(__file__).resolve().parents[2]


def test_readme_documents_every_config_key():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [o.key for o in OPTIONS if f"`{o.key}`" not in readme]
    assert missing == []


def test_readme_names_the_two_commands_and_they_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for script in ("run-kiosk", "run-tests"):
        assert f"./{script}" in readme
        assert (ROOT / script).exists()
    assert "run-tests" in (ROOT / ".ci" / "run").read_text()
