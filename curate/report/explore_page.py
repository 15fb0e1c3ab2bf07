"""Write the explorer site: ``index.html`` (styles, script and data inlined), ``plotly.min.js``
copied from the installed ``plotly`` package, and one lazily loaded ``tokens/<model>.js`` per
model with per-token log-probabilities.

Nothing is fetched from the network and nothing needs a server: the token files are plain
scripts (``<script src>`` works from ``file://``, ``fetch`` does not), and the page's data sits
in a ``<script type="application/json">`` block with every ``<`` written as ``\\u003c``, so no
sentence can close the block; the page puts sentences into the DOM as text only.

The site is built in a temporary sibling directory and moved into place, so a failed run never
leaves a half-written site, and the same inputs give the same bytes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from curate.errors import InputError
from curate.fileio import staged_output_dir, write_bytes_atomic, write_text_atomic

#: Files of the page shipped as package data (curate/report/explore_static/).
_STATIC = ("explore.html", "explore.css", "explore.js")
#: Marks a directory as an explorer site, so --out never replaces anything else.
MARKER = ".curate-explore"


def script_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element (no ``<``, no line separators)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _static(name: str) -> str:
    return resources.files("curate.report").joinpath("explore_static", name).read_text("utf-8")


def plotly_js_path() -> Path:
    """The plotly.js bundle shipped inside the installed ``plotly`` Python package."""
    import plotly

    path = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    if not path.is_file():
        raise InputError(f"{path}: the plotly package has no bundled plotly.min.js")
    return path


def render_index(data: Mapping[str, Any]) -> str:
    """The index.html text: template with the styles, the script and the data inlined."""
    page = _static("explore.html")
    return (
        page.replace("/*CURATE_CSS*/", _static("explore.css"))
        .replace("/*CURATE_JS*/", _static("explore.js"))
        .replace("/*CURATE_DATA*/", script_json(data))
        .replace("<!--CURATE_TITLE-->", _escape(str(data.get("title", ""))))
    )


def _escape(text: str) -> str:
    import html

    return html.escape(text)


def tokens_script(model_index: int, tokens: Mapping[int, Any]) -> str:
    """``tokens/<i>.js``: hands the model's per-token data to the page when loaded."""
    payload = {str(k): v for k, v in sorted(tokens.items())}
    return f"window.curateTokens({model_index},{script_json(payload)});\n"


def write_site(
    data: Mapping[str, Any], tokens: Mapping[int, Mapping[int, Any]], out_dir: Path
) -> list[Path]:
    """Write the site into ``out_dir`` (replacing an earlier explorer site there) and return
    the files written, relative to ``out_dir``."""
    out_dir = Path(out_dir)
    if out_dir.exists() and (
        not out_dir.is_dir() or (any(out_dir.iterdir()) and not (out_dir / MARKER).exists())
    ):
        raise InputError(
            f"{out_dir}: exists and is not an explorer site; choose an empty or new --out"
        )
    need = os.path.getsize(plotly_js_path())
    with staged_output_dir(out_dir, None, need_bytes=need) as staging:  # the site as a whole
        written = [Path("index.html"), Path("plotly.min.js")]
        write_text_atomic(staging / "index.html", render_index(data))
        write_bytes_atomic(staging / "plotly.min.js", plotly_js_path().read_bytes())
        for index, per_pair in sorted(tokens.items()):
            name = Path("tokens") / f"{index}.js"
            write_text_atomic(staging / name, tokens_script(index, per_pair))
            written.append(name)
        # what the site shows, so a report links its pair ids here only when they are here
        marker = {
            "site": "curate explore",
            "versions": list(data.get("versions", [])),
            "columns": [m.get("label", "") for m in data.get("models", [])],
            "pairs": sorted({int(r["id"]) for r in data.get("rows", [])}),
        }
        write_text_atomic(staging / MARKER, json.dumps(marker) + "\n")
        for path in staging.rglob("*"):
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
    return written
