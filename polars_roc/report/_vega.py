"""
How the report page gets Vega, Vega-Lite and vega-embed: inline (cached) or from a CDN.

With ``vl-convert-python`` installed, the page embeds the three libraries inline
(``vl_convert.javascript_bundle()``, about 0.9 MB, the bundle Altair's ``inline=True``
uses), so it opens offline and stays the same for years. Building the bundle costs
vl-convert several seconds per process, so it is kept in the user cache directory
(:func:`cache_dir`: ``$XDG_CACHE_HOME/polars_roc/<version>``, else
``~/.cache/polars_roc/<version>``) under a name holding the vl-convert, Altair and Vega-Lite
versions, and the next report reads it back. Without vl-convert the page loads the libraries
from the jsDelivr CDN (the versions Altair targets) and says so at the top.

Examples
--------
>>> scripts, note = javascript("cdn")
>>> scripts.count("<script src="), note.startswith("The charts load Vega")
(3, True)
"""

from __future__ import annotations

import os
import re
from importlib import import_module
from pathlib import Path
from typing import Any

from polars_roc._core.version import __version__
from polars_roc.report.options import JsMode

__all__ = ["CDN", "cache_dir", "javascript"]

CDN = "https://cdn.jsdelivr.net/npm"


def javascript(js: JsMode) -> tuple[str, str | None]:
    """Script elements that define `vegaEmbed`, and a note for the reader when not inline."""
    import altair as alt

    if js in ("auto", "inline"):
        try:
            vl_convert = import_module("vl_convert")
        except ImportError:
            if js == "inline":
                msg = (
                    "an offline (inline) report needs the vl-convert-python package"
                    "\n\nHint: pip install vl-convert-python, or use js='cdn'."
                )
                raise ImportError(msg) from None
        else:
            bundle = re.sub(r"</(script)", r"<\\/\1", _bundle(vl_convert), flags=re.IGNORECASE)
            return f"<script>\n{bundle}\n</script>", None
    vega_lite = alt.SCHEMA_VERSION.lstrip("v")
    tags = "\n".join(
        f'<script src="{CDN}/{name}@{version}"></script>'
        for name, version in (
            ("vega", alt.VEGA_VERSION),
            ("vega-lite", vega_lite),
            ("vega-embed", alt.VEGAEMBED_VERSION),
        )
    )
    note = (
        f"The charts load Vega {alt.VEGA_VERSION}, Vega-Lite {vega_lite} and vega-embed "
        f"{alt.VEGAEMBED_VERSION} from {CDN}, so they need a network connection; with "
        "vl-convert-python installed the report embeds them and works offline."
    )
    return tags, note


def cache_dir() -> Path:
    """
    The user cache directory of this version: ``$XDG_CACHE_HOME/polars_roc/<version>``.

    Without ``XDG_CACHE_HOME`` (or with it empty or relative, which the XDG spec says to
    ignore) the base is ``~/.cache``.
    """
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "polars_roc" / __version__


def _bundle(vl_convert: Any) -> str:
    """
    Vega, Vega-Lite and vega-embed as one script, read from the user cache when there.

    Building the bundle costs vl-convert several seconds per process; it depends only on
    the vl-convert version and the Vega-Lite version Altair targets, so it is kept in
    :func:`cache_dir` under a name holding both (and Altair's) and read back by the next
    report, offline. A cache that cannot be read or written is skipped: the bundle is then
    built as without one.
    """
    import altair as alt

    minor = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    known = vl_convert.get_vegalite_versions()
    version = "v" + minor.replace(".", "_") if minor in known else None
    key = f"vl-convert-{vl_convert.__version__}_altair-{alt.__version__}_vega-lite-{version}"
    path = cache_dir() / f"vega-bundle_{re.sub(r'[^A-Za-z0-9._-]', '_', key)}.js"
    try:
        cached = path.read_text(encoding="utf-8")
    except (OSError, UnicodeError):
        cached = ""
    if "vegaEmbed" in cached:  # a whole bundle defines it (a damaged file is built again)
        return cached
    bundle: str = vl_convert.javascript_bundle(vl_version=version)
    try:  # written whole then renamed: a reader never sees half a bundle
        path.parent.mkdir(parents=True, exist_ok=True)
        partial_ = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial_.write_text(bundle, encoding="utf-8")
        os.replace(partial_, path)
    except OSError:
        pass
    return bundle
