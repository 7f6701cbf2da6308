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


def _docs() -> dict[Path, str]:
    return {
        p: p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    }


def test_no_doc_links_or_points_outside_the_repository():
    """A clone has no ../shared: the rules a user needs are in docs/ (issue 20, point 12)."""
    import re

    for path, text in _docs().items():
        assert "../shared" not in text, path
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            assert (path.parent / target).exists(), (path.name, target)


def test_the_pi_guide_has_no_placeholder_and_no_diodes_the_scanner_does_not_need():
    guide = (ROOT / "docs" / "raspberry-pi.md").read_text(encoding="utf-8")
    assert "<the Dartship repository>" not in guide
    assert "1N4148" not in guide and "diode as above" not in guide
    hardware = " ".join((ROOT / "docs" / "hardware.md").read_text(encoding="utf-8").split())
    assert "no diodes are needed" in hardware


def test_the_readme_says_where_the_config_and_data_folder_are_and_what_a_bar_needs():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "the data folder's `config.toml`" in readme and "~/.local/share/dartship" in readme
    assert "manual scoring" in readme and "steel-tip board has no contacts" in readme
