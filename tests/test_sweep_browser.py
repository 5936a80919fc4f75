"""The sweep's HTML report in headless Chromium (as the trace page's test): it renders offline,
its plots have one point per size, and the growth and next-size tables are filled in. The
screenshot goes to $KIPCHECK_ARTIFACTS (default: artifacts/)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from checker import verdicts as V
from checker.sweep import Row
from checker.sweep_report import growth, next_sizes, render

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser"))
                 if p), None)

# KIP36_small at brokers=2..4, partitions=2..3 (counts as `kipcheck sweep` gives them) and one
# size stopped by the budget.
ROWS = [Row({"brokers": b, "partitions": p}, V.OK, None, d, d, p + 1, s, 30.0)
        for b, p, d, s in [(2, 2, 63, 0.4), (2, 3, 84, 0.5), (3, 2, 306, 0.6),
                           (3, 3, 408, 0.8), (4, 2, 1035, 2.4), (4, 3, 1380, 3.2)]]
ROWS.append(Row({"brokers": 5, "partitions": 2}, "budget", None, 2500, 2600, 2, 10.0, 35.0,
                "stopped at the budget of 10s; the counts are partial"))
KNOBS = ["brokers", "partitions"]


def test_growth_per_knob_and_the_next_size():
    f = growth(ROWS, KNOBS)
    # brokers: 306/63, 408/84, 1035/306, 1380/408 -> geometric mean
    assert f["brokers"]["pairs"] == 4 and round(f["brokers"]["states"], 2) == 4.05
    assert f["partitions"]["pairs"] == 3 and round(f["partitions"]["states"], 2) == 1.33
    nxt = next_sizes(ROWS, KNOBS, f)
    assert [(n["size"], n["distinct_states"]) for n in nxt] == [
        ("brokers=5,partitions=3", round(1380 * f["brokers"]["states"])),
        ("brokers=4,partitions=4", round(1380 * f["partitions"]["states"]))]


sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install -e '.[browser]')")


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
def test_the_sweep_report_renders_in_chromium(tmp_path):
    page_file = tmp_path / "sweep.html"
    page_file.write_text(render(ROWS, KNOBS, "KIP36_small", "budget"))
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 1400})
            requests: list[str] = []
            page.on("request", lambda r: requests.append(r.url))
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(page_file.as_uri())
            for plot in ("#plot-states", "#plot-seconds"):
                points = page.locator(f"{plot} circle.point")
                assert points.count() == len(ROWS)
                assert [points.nth(i).get_attribute("data-size")
                        for i in range(points.count())] == [r.size for r in ROWS]
                box = page.locator(plot).bounding_box()
                assert box["width"] > 700 and box["height"] > 300
            # log scale: the points of 63 and 1380 states are about 1.34 decades apart
            ys = [float(page.locator("#plot-states circle.point").nth(i).get_attribute("cy"))
                  for i in (0, 5)]
            assert ys[0] > ys[1]
            assert page.locator("#sizes tr").count() == len(ROWS) + 1
            assert page.locator("#growth tr").count() == len(KNOBS) + 1
            assert "brokers=5,partitions=3" in page.locator("#next").inner_text()
            assert "Verdict: budget over 7 size(s)" in page.locator("#verdict").inner_text()
            out = Path(os.environ.get("KIPCHECK_ARTIFACTS", ROOT / "artifacts"))
            out.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out / "sweep_report.png"), full_page=True)
            assert requests == [page_file.as_uri()]  # nothing fetched: self-contained
            assert errors == []
        finally:
            browser.close()
