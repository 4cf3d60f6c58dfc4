"""
User data never ends a JSON block of the report early, nor runs as script (issue 28 item 10).

The chart specs sit in ``<script type="application/json">`` elements. The HTML parser ends
such an element at the first ``</script`` that it sees in the *script data* state, and a
``<!--`` followed by ``<script`` moves it into the *double escaped* state, where the next
``</script>`` does not end the element. So a segment named ``<!--<script>`` could make the
parser swallow the following markup, and a later ``</script>`` run attacker text as script.
The page escapes ``<``, ``>``, ``&``, U+2028 and U+2029 inside every JSON block (as
``\\u003c`` ...), so no such sequence can appear there.

Two checks: a tokenizer of the HTML spec's script-data states (13.2.5.4 onwards) finds the
end of every JSON block exactly at its own closing tag, and headless Chromium renders a
report whose names are payloads that would change ``document.title``: the title is unchanged,
no payload ran and every chart was drawn from its (intact) spec.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import polars as pl
import pytest

import polars_roc as pr
from polars_roc.report import _page as report_page

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

#: Names that would end a JSON block early, or run, if they reached the HTML unescaped.
HOSTILE = [
    "<!--<script>",
    "</script>",
    "</SCRIPT ",
    "</script/",
    "<!--",
    "-->",
    "<!--<script></script><script>document.title='PWNED1';window.pwned=1</script>",
    "</script><script>document.title='PWNED2';window.pwned=2</script>",
    "<!--<SCRIPT>x</script><img src=x onerror=\"document.title='PWNED3'\">",
    "&lt;script&gt; & <b>bold</b>",
]
#: Line separators: JavaScript before ES2019 ends a string literal at them, and Vega's
#: expression parser rejects them raw (the charts sort by numbers, never by a list of names,
#: which Vega-Lite would write raw into an expression: see tests/charts/test_chart_names.py).
SEPARATORS = ["line\u2028separator\u2029paragraph"]

ENDERS = set(" \t\n\f/>")


def script_end(html: str, start: int) -> int:
    """
    Where the parser ends a script element whose content starts at `start` (the index of
    its end tag's ``<``), walking the HTML spec's script-data states.
    """
    state, i, n = "data", start, len(html)
    buffer = ""
    while i < n:
        c = html[i]
        if state == "data":
            if c == "<":
                if html.startswith("</", i) and _end_tag(html, i):
                    return i
                if html.startswith("<!--", i):
                    state, i = "escaped_dash_dash", i + 4
                    continue
            i += 1
        elif state in ("escaped", "escaped_dash", "escaped_dash_dash"):
            if c == "-":
                state = {"escaped": "escaped_dash", "escaped_dash": "escaped_dash_dash"}.get(
                    state, "escaped_dash_dash"
                )
                i += 1
            elif c == "<":
                if html.startswith("</", i) and _end_tag(html, i):
                    return i
                tag = re.match(r"<([A-Za-z]+)", html[i:])
                if tag:
                    buffer = tag.group(1).lower()
                    after = i + 1 + len(tag.group(1))
                    if buffer == "script" and after < n and html[after] in ENDERS:
                        state, i = "double", after + 1
                        continue
                state, i = "escaped", i + 1
            elif c == ">" and state == "escaped_dash_dash":
                state, i = "data", i + 1
            else:
                state, i = "escaped", i + 1
        else:  # double escaped (and its dash states): only </script ends it, back to escaped
            if c == "-":
                state = "double_dash" if state == "double" else "double_dash_dash"
                i += 1
            elif c == "<":
                tag = re.match(r"</([A-Za-z]+)", html[i:])
                if tag and tag.group(1).lower() == "script":
                    after = i + 2 + len(tag.group(1))
                    if after < n and html[after] in ENDERS:
                        state, i = "escaped", after + 1
                        continue
                state, i = "double", i + 1
            elif c == ">" and state == "double_dash_dash":
                state, i = "data", i + 1
            else:
                state, i = "double", i + 1
    return n


def _end_tag(html: str, i: int) -> bool:
    """Whether ``</script`` followed by whitespace, ``/`` or ``>`` starts at `i`."""
    word = html[i + 2 : i + 8]
    return word.lower() == "script" and i + 8 < len(html) and html[i + 8] in ENDERS


def json_blocks(html: str) -> list[tuple[int, int]]:
    """(content start, expected end) of every JSON script element, as written."""
    opening = re.compile(r'<script type="application/json"[^>]*>')
    blocks = []
    for found in opening.finditer(html):
        close = html.index("</script>", found.end())  # the element's own closing tag
        blocks.append((found.end(), close))
    return blocks


def hostile_frame(names: list[str] = HOSTILE) -> pl.DataFrame:
    rows = []
    for k, name in enumerate(names):
        for i in range(10):
            rows.append((name, f"model {k % 2}", (i + k % 3) / 12, i % 2 == 1))
    return pl.DataFrame(rows, schema=["segment", "model", "score", "label"], orient="row")


def hostile_page(js: report_page.JsMode = "cdn", names: list[str] = HOSTILE) -> str:
    frame = hostile_frame(names)
    data = pr.report.compute(frame.lazy(), by=["segment", "model"], ci=None)
    return pr.report.render(data, title="Injection test", js=js)


def test_the_state_walker_sees_the_attack() -> None:
    """The walker is not a tautology: the old escaping (``</`` only) lets a block run on."""
    spec = {"name": "<!--<script>"}
    old = json.dumps(spec).replace("</", "<\\/")
    html = f'<script type="application/json">{old}</script><p>after</p><script>x</script>'
    ((start, close),) = json_blocks(html)
    assert script_end(html, start) != close  # swallowed up to the next </script>
    new = report_page.spec_json(spec)
    html = f'<script type="application/json">{new}</script><p>after</p><script>x</script>'
    ((start, close),) = json_blocks(html)
    assert script_end(html, start) == close


@pytest.mark.parametrize("name", HOSTILE + SEPARATORS)
def test_spec_json_escapes_every_markup_character(name: str) -> None:
    text = report_page.spec_json({"name": name, "nested": [{"label": name}]})
    assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"}
    assert json.loads(text) == {"name": name, "nested": [{"label": name}]}  # the same data
    html = f'<script type="application/json">{text}</script>'
    assert script_end(html, len('<script type="application/json">')) == len(html) - 9


def test_no_json_block_of_a_hostile_report_ends_early() -> None:
    html = hostile_page()
    blocks = json_blocks(html)
    assert len(blocks) >= 5
    for start, close in blocks:
        assert script_end(html, start) == close
        content = html[start:close]
        assert not set(content) & {"<", ">", "&", "\u2028", "\u2029"}
        json.loads(content)
    assert "<script>document" not in html  # elsewhere, the names are HTML-escaped text
    assert "<img" not in html


CHECK = """<script>
(function () {
  function check() {
    var charts = document.querySelectorAll("div.chart[data-spec]");
    var done = Array.prototype.every.call(charts, function (div) {
      return div.hasAttribute("data-status");
    });
    if (!done) { setTimeout(check, 100); return; }
    var statuses = Array.prototype.map.call(charts, function (div) {
      return div.getAttribute("data-status");
    });
    document.documentElement.setAttribute("data-check", JSON.stringify({
      title: document.title, pwned: window.pwned || null, statuses: statuses}));
  }
  window.addEventListener("load", check);
})();
</script>"""


@pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed (CI installs it with .ci/install-browser.sh)",
)
def test_hostile_names_never_run_in_a_browser(tmp_path: Path) -> None:
    pytest.importorskip("vl_convert")
    assert CHROMIUM is not None
    html = hostile_page(js="inline", names=HOSTILE + SEPARATORS)
    head, tail = html.rsplit("</body>", 1)
    page = tmp_path / "hostile.html"
    page.write_text(f"{head}{CHECK}\n</body>{tail}", encoding="utf-8")
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--proxy-server=http://127.0.0.1:9",  # nothing may load from the network
        "--virtual-time-budget=30000",
        "--dump-dom",
        page.resolve().as_uri(),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'<html[^>]*data-check="([^"]*)"', done.stdout)
    assert found, "the page's own check did not run (a block swallowed the markup?)"
    check = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert check["title"] == "Injection test"
    assert check["pwned"] is None
    assert check["statuses"]
    assert set(check["statuses"]) == {"rendered"}  # every spec parsed and drew
