"""The demo report in headless Chromium at 1,280 and 1,024 pixels wide: nothing overflows.

Each chart must fit its column (no horizontal scrolling inside a chart, no legend cut off)
and no element may reach past the window's right edge. The page measures itself after every
chart has rendered and writes what overflows into an attribute that ``--dump-dom`` prints.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from polars_roc.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHARTS = 9

MEASURE = """<script>
(function () {
  function measure() {
    var charts = document.querySelectorAll("div.chart[data-spec]");
    var done = Array.prototype.every.call(charts, function (div) {
      return div.hasAttribute("data-status");
    });
    if (!done) { setTimeout(measure, 100); return; }
    var width = document.documentElement.clientWidth, found = [];
    document.querySelectorAll("body *").forEach(function (element) {
      var box = element.getBoundingClientRect();
      if (box.width > 0 && box.right > width + 1) {
        found.push(element.tagName + "." + element.getAttribute("class") + " right=" +
                   Math.round(box.right));
      }
    });
    charts.forEach(function (div) {
      if (div.scrollWidth > div.clientWidth + 1) {
        found.push("chart " + div.id + " scrolls: " + div.scrollWidth + " > " + div.clientWidth);
      }
    });
    if (document.documentElement.scrollWidth > width + 1) {
      found.push("page scrolls: " + document.documentElement.scrollWidth + " > " + width);
    }
    var rendered = Array.prototype.filter.call(charts, function (div) {
      return div.getAttribute("data-status") === "rendered";
    }).length;
    document.documentElement.setAttribute(
      "data-layout", JSON.stringify({overflow: found.slice(0, 20), rendered: rendered}));
  }
  window.addEventListener("load", measure);
})();
</script>"""


def chromium(
    page: Path, tmp_path: Path, width: int, *extra: str
) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        f"--user-data-dir={tmp_path / f'profile-{width}'}",
        "--proxy-server=http://127.0.0.1:9",  # nothing may load from the network
        f"--window-size={width},2000",
        "--virtual-time-budget=30000",
        *extra,
        page.resolve().as_uri(),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("layout")
    out = folder / "demo.html"
    assert main(["demo", "--rows", "3000", "--js", "inline", "--quiet", "-o", str(out)]) == 0
    measured = folder / "measured.html"
    head, tail = out.read_text().rsplit("</body>", 1)  # (the Vega bundle holds a "</body>")
    measured.write_text(f"{head}{MEASURE}\n</body>{tail}")
    return measured


@pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed (CI installs it with .ci/install-browser.sh)",
)
@pytest.mark.parametrize("width", [1280, 1024])
def test_demo_report_fits_the_window(
    demo: Path, tmp_path: Path, width: int, capsys: pytest.CaptureFixture[str]
) -> None:
    dom = chromium(demo, tmp_path, width, "--dump-dom").stdout
    found = re.search(r'<html[^>]*data-layout="([^"]*)"', dom)
    assert found, "the page did not finish measuring itself"
    layout = json.loads(found.group(1).replace("&quot;", '"'))
    assert layout["rendered"] == CHARTS
    assert layout["overflow"] == []
    # A screenshot to look at (kept beside the test's temporary files).
    shot = tmp_path / f"demo-{width}.png"
    chromium(demo, tmp_path, width, f"--screenshot={shot}")
    assert shot.stat().st_size > 10_000
    capsys.readouterr()
