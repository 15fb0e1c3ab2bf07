"""How fast the `curate explore` page opens in headless Chromium, on the full CrowS-Pairs.

Target (issue 13): the page for the 1,508-pair CrowS-Pairs compared with the `1.0.0-auto`
release, with one model's scores, opens in under 2 s in headless Chromium.

The run builds a throw-away project (this repository's source registry and 1.0.0-auto recipe),
fetches CrowS-Pairs (set CURATE_DATA_MIRROR to copy it from a local mirror), publishes
1.0.0-auto, lints the raw file, scores both versions with a tiny random BERT (the page's speed
does not depend on the model), writes the site, and opens it ``--loads`` times in one headless
Chromium from ``file://``. Each load reports, from the browser's own clock (navigation start =
0): DOMContentLoaded, the pair table rendered (``performance.mark``), the load event, and the
charts drawn (plotly.js loaded and both charts rendered: the page is fully usable).

``--synthetic N`` adds a second page of N rows (CrowS-Pairs pairs repeated under new ids with
their scores) to check the StereoSet-sized case.

Run: .venv/bin/python benchmarks/bench_explore.py [--loads 5] [--synthetic 20000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.support.browser import chromium, severe_console_messages  # noqa: E402

TIMING = """
const nav = performance.getEntriesByType('navigation')[0];
const table = performance.getEntriesByName('curate-table-ready')[0];
const plotly = performance.getEntriesByName('curate-plotly-ready')[0];
return {dom: nav.domContentLoadedEventEnd, load: nav.loadEventEnd,
        table: table ? table.startTime : null, plotly: plotly ? plotly.startTime : null,
        charts: window.curateExplore ? window.curateExplore.chartsReadyAt : null};
"""


def curate(root: Path, *args: str) -> None:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "curate", *args], cwd=root, check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    print(f"  curate {' '.join(args)}: {time.perf_counter() - started:.1f} s", flush=True)


def build_project(root: Path) -> Path:
    """The project, its pipeline outputs and the site; returns the site directory."""
    from tests.support.tiny_models import build_tiny_model, training_corpus

    if (root / "build" / "score" / "auto").is_dir():  # --keep DIR of an earlier run: reuse it
        curate(root, "explore", "raw", "1.0.0-auto", "--scores", "build/score/raw",
               "--scores", "build/score/auto", "--out", "site")  # fmt: skip
        return root / "site"
    (root / "data" / "raw").mkdir(parents=True)
    (root / "data" / "clean" / "1.0.0-auto").mkdir(parents=True)
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    shutil.copy(REPO / "data" / "raw" / "sources.toml", root / "data" / "raw" / "sources.toml")
    shutil.copy(REPO / "data/clean/1.0.0-auto/recipe.toml", root / "data/clean/1.0.0-auto")
    curate(root, "fetch", "crows-pairs")
    curate(root, "publish", "1.0.0-auto")
    subprocess.run([sys.executable, "-m", "curate", "lint", "--format", "jsonl", "-o",
                    "build/findings.jsonl"], cwd=root, stdout=subprocess.DEVNULL)  # fmt: skip
    model = build_tiny_model("bert", root / "tiny-bert", training_corpus(), seed=0)
    raw = "data/raw/crows_pairs_anonymized.csv"
    release = "data/clean/1.0.0-auto/dist/crows_pairs_revised.csv"
    curate(root, "score", raw, "-m", str(model), "-o", "build/score/raw")
    curate(root, "score", release, "-m", str(model), "-o", "build/score/auto")
    curate(root, "explore", "raw", "1.0.0-auto", "--scores", "build/score/raw",
           "--scores", "build/score/auto", "--out", "site")  # fmt: skip
    return root / "site"


def synthetic_site(site: Path, rows: int) -> Path:
    """A copy of ``site`` whose data holds ``rows`` rows (the real ones repeated, new ids)."""
    import json

    from curate.report.explore_page import write_site

    text = (site / "index.html").read_text("utf-8")
    marker = '<script id="curate-data" type="application/json">'
    start = text.index(marker) + len(marker)
    data = json.loads(text[start : text.index("</script>", start)])
    base = data["rows"]
    data["rows"] = [{**base[i % len(base)], "id": i} for i in range(rows)]
    for model in data["models"]:
        model["tokens"] = False
    target = site.with_name(f"site-{rows}")
    write_site(data, {}, target)
    return target


INTERACTIONS = """
const time = (f) => { const t = performance.now(); f(); return performance.now() - t; };
const th = document.querySelector("#pair-table th[data-key='score-0-1']");
const bias = document.getElementById('f-bias');
const change = (value) => { bias.value = value; bias.dispatchEvent(new Event('change')); };
return {
  "sort by a score column": time(() => th.click()),
  "sort again (descending)": time(() => th.click()),
  "filter by bias type": time(() => change('gender')),
  "clear the filter": time(() => change('')),
  "next page": time(() => document.getElementById('next').click()),
};
"""


PLOTLY_ONLY = """<!doctype html><html><head><meta charset="utf-8">
<script id="plotly-js" src="plotly.min.js" defer></script></head><body><div id="c"></div>
<script>performance.mark('curate-table-ready'); window.curateExplore = {};
document.getElementById('plotly-js').addEventListener('load', () => {
  performance.mark('curate-plotly-ready');
  Plotly.newPlot('c', [{type: 'bar', x: ['a', 'b'], y: [1, 2]}]);
  window.curateExplore.chartsReadyAt = performance.now(); });</script></body></html>
"""


def plotly_only_page(site: Path) -> Path:
    """The floor: a page that only loads the same plotly.min.js and draws one bar chart."""
    page = site / "plotly-only.html"
    page.write_text(PLOTLY_ONLY, encoding="utf-8")
    return page


def interactions(page: Path, profile: Path) -> dict[str, float]:
    """Milliseconds the page's main thread spends on a sort, a filter and a page turn (the
    synchronous work: recomputing the row order and rendering the page of rows)."""
    with chromium(profile) as driver:
        driver.get(page.as_uri())
        deadline = time.monotonic() + 60
        while not driver.execute_script("return !!(window.curateExplore && curateExplore.chartsReady)"):
            if time.monotonic() > deadline:
                raise SystemExit(f"{page}: the page did not finish within 60 s")
            time.sleep(0.05)
        return driver.execute_script(INTERACTIONS)


def measure(page: Path, loads: int, profile: Path) -> dict[str, list[float]]:
    """Open the page ``loads`` times, each in a new browser with a new profile (a cold cache,
    as a first-time reader meets it)."""
    results: dict[str, list[float]] = {"dom": [], "table": [], "plotly": [], "load": [], "charts": []}
    for attempt in range(loads):
        with chromium(profile / str(attempt)) as driver:
            driver.get(page.as_uri())
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                timing = driver.execute_script(TIMING)
                if timing["charts"] is not None and timing["load"]:
                    break
                time.sleep(0.02)
            else:
                raise SystemExit(f"{page}: the page did not finish within 60 s")
            errors = severe_console_messages(driver)
            if errors:
                raise SystemExit(f"{page}: console errors: {errors}")
            for key in results:
                results[key].append(timing[key])
    return results


def report(name: str, page: Path, results: dict[str, list[float]]) -> None:
    size = sum(p.stat().st_size for p in page.parent.rglob("*") if p.is_file())
    print(f"\n{name}: {page} ({(page.stat().st_size) / 1e6:.1f} MB index.html, "
          f"{size / 1e6:.1f} MB site)")  # fmt: skip
    print("  ms from navigation start   first   median  max   (loads)")
    for key, label in (("table", "pair table rendered"), ("plotly", "plotly.js executed"),
                       ("dom", "DOMContentLoaded"), ("load", "load event"),
                       ("charts", "charts drawn")):  # fmt: skip
        values = [v for v in results[key] if v is not None]
        if not values:
            continue
        print(f"  {label:<26} {values[0]:6.0f}  {statistics.median(values):6.0f} "
              f"{max(values):6.0f}   ({len(values)})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loads", type=int, default=5, help="page loads to time")
    parser.add_argument("--synthetic", type=int, default=20000, help="rows of the big page (0: none)")
    parser.add_argument("--keep", type=Path, help="build the project here and keep it")
    args = parser.parse_args()
    if not os.environ.get("CURATE_DATA_MIRROR"):
        print("note: CURATE_DATA_MIRROR is not set; `curate fetch` downloads CrowS-Pairs")
    root = args.keep or Path(tempfile.mkdtemp(prefix="bench-explore-"))
    for profile in root.glob("profile*"):
        shutil.rmtree(profile)
    try:
        print(f"building the project in {root}")
        site = build_project(root)
        cpu = os.cpu_count()
        print(f"machine: {cpu} CPU(s); load average {os.getloadavg()[0]:.2f}")
        floor = plotly_only_page(site)
        report("reference: plotly.min.js alone + one chart", floor,
               measure(floor, args.loads, root / "profile-floor"))  # fmt: skip
        report("CrowS-Pairs raw vs 1.0.0-auto, 1 model",
               site / "index.html", measure(site / "index.html", args.loads, root / "profile"))  # fmt: skip
        if args.synthetic:
            big = synthetic_site(site, args.synthetic)
            report(f"synthetic {args.synthetic} rows", big / "index.html",
                   measure(big / "index.html", args.loads, root / "profile-big"))  # fmt: skip
            for name, ms in interactions(big / "index.html", root / "profile-ui").items():
                print(f"  {name:<26} {ms:6.0f} ms")
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
