"""Griffe extension: Sphinx roles become links; combined parameter entries are split.

The docstrings name other objects the Sphinx way (``:func:`curve```, ``:mod:`polars_roc.x```,
``:class:`~polars_roc.report.ReportOptions```). Python-Markdown does not know those roles and
would print them as text, so each one is rewritten, before the page renders, to an optional
mkdocs-autorefs reference: a link where the target has a page, plain code where it has none
(a private helper). Short names resolve in the scope of the docstring's object, as Python
would resolve them there.
"""

from __future__ import annotations

import html
import re
from typing import Any

import griffe

#: A numpy section underline and the heading above it.
SECTION = re.compile(r"^(\w[\w ]*)\n-{3,}$", re.MULTILINE)
#: A parameter entry naming several parameters, and no type: ``score, label, by``.
COMBINED = re.compile(r"^(\w+(?:, \w+)+)$")
ROLE = re.compile(r":(?:py:)?(?:func|meth|class|mod|data|attr|obj|exc|const):`(~?)\.?([^`]+)`")


def _target(obj: griffe.Object, name: str) -> str:
    """The full path of `name` as seen from `obj` (the name itself when nothing resolves)."""
    if name.startswith("polars_roc"):
        return name
    head, _, rest = name.partition(".")
    try:
        full = obj.resolve(head)
    except griffe.NameResolutionError:
        return name
    return f"{full}.{rest}" if rest else full


def _link(obj: griffe.Object, match: re.Match[str]) -> str:
    short, name = match.group(1), match.group(2)
    name = name.removesuffix("()")
    title = name.rsplit(".", 1)[-1] if short else name
    target = html.escape(_target(obj, name), quote=True)
    return f'<autoref identifier="{target}" optional><code>{html.escape(title)}</code></autoref>'


def _split_entries(text: str) -> str:
    """Every combined entry of the Parameters section as one entry per name."""
    headings = list(SECTION.finditer(text))
    for index, heading in enumerate(headings):
        if heading.group(1) != "Parameters":
            continue
        end = headings[index + 1].start() if index + 1 < len(headings) else len(text)
        lines = text[heading.end() : end].split("\n")
        out: list[str] = []
        position = 0
        while position < len(lines):
            line = lines[position]
            position += 1
            match = COMBINED.match(line)
            if match is None:
                out.append(line)
                continue
            body: list[str] = []
            while position < len(lines) and (
                lines[position].startswith(" ") or not lines[position].strip()
            ):
                body.append(lines[position])
                position += 1
            trailing = len(body) - len("\n".join(body).rstrip().split("\n"))
            kept = body[: len(body) - trailing] if trailing else body
            for name in match.group(1).split(", "):
                out.extend([name, *kept])
            out.extend(body[len(kept) :])
        return text[: heading.end()] + "\n".join(out) + text[end:]
    return text


def _rewrite(obj: griffe.Object) -> None:
    if obj.docstring is not None:
        text = ROLE.sub(lambda m: _link(obj, m), obj.docstring.value)
        obj.docstring.value = _split_entries(text)
    for member in obj.members.values():
        if not member.is_alias:
            _rewrite(member)  # type: ignore[arg-type]


class SphinxRoles(griffe.Extension):
    """Rewrite Sphinx roles in every docstring of the loaded package."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Rewrite the roles once the whole package is loaded (so names resolve)."""
        _rewrite(pkg)
