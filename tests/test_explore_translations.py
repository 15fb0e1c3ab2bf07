"""`curate explore FRENCH DUTCH`: aligned translations side by side (issue 33).

Two versions in different languages share pair ids (the three CrowS-Pairs languages are aligned
by the English id). The page shows each pair's two translations one above the other under the
name of their language, never calls a translation an edit, and marks the pairs whose labels
(direction, bias type) disagree across the languages.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curate import sources
from curate.cli import app
from curate.datasets import read_dataset, write_pairs
from tests.support.browser import MISSING, chromium, find_browser, severe_console_messages, wait_for
from tests.test_explore import page_data

PAIRS = 60


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, tuple]]:
    mirror = os.environ.get(sources.MIRROR_ENV)
    folder = Path(mirror or "/nonexistent") / "crows_pairs_multilingual"
    if not folder.is_dir():
        pytest.skip(f"no crows_pairs_multilingual/ in ${sources.MIRROR_ENV}")
    root = tmp_path_factory.mktemp("translations")
    labels: dict[int, tuple] = {}
    for name in ("french", "dutch"):
        pairs = list(read_dataset(folder / f"crows_{name}.csv").pairs)[:PAIRS]
        write_pairs(pairs, root / f"{name}.csv")
        for pair in pairs:
            labels[pair.pair_id] = (*labels.get(pair.pair_id, ()), (pair.direction, pair.bias_type))
    result = CliRunner().invoke(
        app, ["explore", str(root / "french.csv"), str(root / "dutch.csv"), "-o", str(root / "site")]
    )
    assert result.exit_code == 0, result.output
    return root / "site", labels


def test_the_page_knows_the_two_languages(site) -> None:
    data = page_data(site[0])
    assert data["languages"] == ["fr", "nl"]
    assert data["language_names"] == {"fr": "French", "nl": "Dutch"}


def test_translations_side_by_side_in_a_browser(site, tmp_path: Path) -> None:
    if find_browser() is None:
        pytest.skip(MISSING)
    folder, labels = site
    disagree = sorted(i for i, (a, b) in labels.items() if a != b)
    assert disagree  # the first pairs of the two files hold label disagreements
    with chromium(tmp_path / "profile", tmp_path / "downloads") as driver:
        driver.set_window_size(1300, 1200)
        driver.get((folder / "index.html").as_uri())
        wait_for(lambda: driver.execute_script("return document.querySelectorAll('td .badge').length > 0"),
                 what="the pair table")
        assert not severe_console_messages(driver)
        about = driver.execute_script("return document.getElementById('about').textContent")
        assert "aligned translations" in about and "(French)" in about and "(Dutch)" in about
        # every row: a translation is no edit; the badge says where the labels disagree
        badges = driver.execute_script(
            "return Array.from(document.querySelectorAll('#pair-table tbody tr[data-id]')).map(tr => "
            "[tr.dataset.id, Array.from(tr.querySelectorAll('td.sent .badge'))"
            ".map(b => b.textContent).join(',')])"
        )
        shown = {int(i): b for i, b in badges if i.isdigit()}
        assert shown, badges
        assert "edited" not in " ".join(shown.values())
        for pair_id, badge in shown.items():
            assert ("labels differ" in badge) == (pair_id in disagree), (pair_id, badge)
        first = disagree[0]
        driver.get((folder / "index.html").as_uri() + f"#pair-{first}")
        wait_for(lambda: "French" in driver.execute_script(
            "return document.getElementById('detail-body').innerText"), what="the pair's panel")
        panel = driver.execute_script("return document.getElementById('detail-body').innerText")
        french, dutch = labels[first]
        assert f"french.csv (French): {french[1]}, {french[0]}" in panel
        assert f"dutch.csv (Dutch): {dutch[1]}, {dutch[0]}" in panel
        driver.save_screenshot(str(tmp_path / "translations.png"))
        shots = os.environ.get("CURATE_SCREENSHOTS")
        if shots:
            driver.save_screenshot(str(Path(shots) / "translations.png"))
