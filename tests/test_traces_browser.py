"""The HTML counterexample in a real browser: headless Chromium (Debian's package, driven by
Playwright pointed at that binary; no browser download), offline.

The screenshot goes to $KIPCHECK_ARTIFACTS (default: artifacts/ at the repository root, ignored
by git) so CI can keep it.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from checker.traces import itf
from checker.traces.formats import render

ROOT = Path(__file__).resolve().parent.parent
TRACE = ROOT / "traces" / "KIP858_bug_no_revert_on_abort.itf.json"
CHROMIUM = next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser"))
                 if p), None)

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install -e '.[browser]')")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium on this machine (Debian package chromium; .ci/run "
                             "installs it)")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def artifacts() -> Path:
    path = Path(os.environ.get("KIPCHECK_ARTIFACTS", ROOT / "artifacts"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def test_kip858_counterexample_in_chromium(browser, tmp_path):
    cx = itf.loads(TRACE.read_text())
    page_file = tmp_path / "trace.html"
    page_file.write_text(render(cx, "html"))
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page_file.as_uri())

    # The sequence diagram: one lane for the controller and one per broker, in that order.
    lanes = page.locator("#sequence g.lane")
    assert [lanes.nth(i).get_attribute("data-lane") for i in range(lanes.count())] == [
        "controller", "b1", "b2"]
    assert page.locator("#sequence g.event").count() == len(cx.steps)
    assert page.locator("#sequence g.message").count() == 5
    # Opens on the violating state.
    assert page.locator("#state-title").inner_text() == "State 10: <AssignResponse(b1)>"

    # The state graph: one node per state; the bad state marked.
    page.get_by_role("button", name="State graph").click()
    assert page.locator("#graph").is_visible() and not page.locator("#sequence").is_visible()
    assert page.locator("#graph g.node").count() == len(cx.steps)
    assert page.locator("#graph g.node.bad").get_attribute("data-step") == "9"

    # A click on a step shows its state with the variables it changed highlighted.
    page.locator('#steps tr[data-step="8"]').click()  # State 9: DirFail(b1, d2)
    assert page.locator("#state-title").inner_text() == "State 9: <DirFail(b1, d2)>"
    changed = page.locator("#state tr.changed")
    names = [changed.nth(i).get_attribute("data-var") for i in range(changed.count())]
    assert names == cx.changed(8) == ["online", "knownFailed", "logs", "hbPending"]
    assert page.locator("#state tr").count() == len(cx.variables)
    assert "before:" in changed.first.inner_text()
    assert page.locator('#graph g.node[data-step="8"]').get_attribute("class").endswith(
        "selected")
    page.screenshot(path=str(artifacts() / "kip858_trace_graph.png"), full_page=True)

    # Back to the sequence diagram: clicking an action selects its step.
    page.get_by_role("button", name="Sequence diagram").click()
    page.locator('#sequence g.event[data-step="1"] > rect').click()
    assert page.locator("#state-title").inner_text() == "State 2: <Heartbeat(b1)>"
    assert [page.locator("#state tr.changed").nth(i).get_attribute("data-var")
            for i in range(page.locator("#state tr.changed").count())] == ["hbResp", "reg"]
    page.screenshot(path=str(artifacts() / "kip858_trace_sequence.png"), full_page=True)

    assert errors == []
    assert all(url.startswith("file:") for url in requests), requests  # self-contained
    page.close()
