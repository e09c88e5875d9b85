"""What the web UI shows, computed from contracts and files (pure; the templates only lay it out).

Everything here treats the agent's text as data: the templates escape it (Jinja autoescape),
and Markdown is rendered with raw HTML off and every link replaced by what the parser
resolved for it — an unresolved or unknown link keeps its label only, so a report's
``javascript:`` or ``data:`` link can never become an anchor.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt

from rcaloop.annotation import rubric, tracing
from rcaloop.annotation.validation import EVIDENCE_SOURCES, Unreadable
from rcaloop.contracts import HarnessVerdict
from rcaloop.shared import jsonpath

MAX_TREE_NODES = 4000
SAFE_SCHEMES = ("https://", "http://")


# -- Markdown, inert ---------------------------------------------------------------------
def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False})
    md.disable(["image", "html_inline", "html_block"])
    md.validateLink = lambda url: True  # type: ignore[method-assign]  # markdown-it's hook; _link_open decides

    def link_open(_renderer, tokens, idx, options, env):
        token = tokens[idx]
        href = env["links"].get(token.attrGet("href") or "")
        env.setdefault("open", []).append(href is not None)
        if href is None:
            return ""
        return f'<a href="{_attr(href)}" rel="noopener noreferrer nofollow" target="_blank">'

    def link_close(_renderer, tokens, idx, options, env):
        return "</a>" if env["open"].pop() else ""

    md.add_render_rule("link_open", link_open)
    md.add_render_rule("link_close", link_close)
    return md


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


_MD = _markdown()


def resolved_links(verdict: HarnessVerdict) -> dict[str, str]:
    """target → href for every citation the parser resolved."""
    return resolved_links_from({c.target: c.href for c in verdict.parsed.citations if c.resolved and c.href})


def resolved_links_from(links: dict[str, str]) -> dict[str, str]:
    """Only web addresses: a resolved href of another scheme is still never an anchor."""
    return {target: href for target, href in links.items() if href.lower().startswith(SAFE_SCHEMES)}


def render_markdown(text: str | None, links: dict[str, str]) -> str:
    """HTML for a report: no raw HTML, no images, links only as the parser resolved them."""
    if not text:
        return ""
    return _MD.render(text, {"links": links})


# -- the JSON tree of a step file --------------------------------------------------------
@dataclass
class Node:
    label: str
    path: str
    kind: str  # object | array | scalar
    value_json: str = ""
    shown: str = ""
    multiline: bool = False
    children: list[Node] = field(default_factory=list)


def json_tree(value: Any, budget: list[int] | None = None, segments: tuple = ()) -> Node:
    """A node per value; each scalar carries its canonical path and its JSON (what a click cites)."""
    budget = budget if budget is not None else [MAX_TREE_NODES]
    budget[0] -= 1
    last = segments[-1] if segments else "$"
    label = f"[{last}]" if isinstance(last, int) else str(last)
    path = jsonpath.render(list(segments)) or "$"
    if isinstance(value, dict | list):
        node = Node(label, path, "object" if isinstance(value, dict) else "array")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in items:
            if budget[0] <= 0:
                node.children.append(Node("…", path, "scalar", shown="(more not shown)"))
                break
            node.children.append(json_tree(child, budget, (*segments, key)))
        return node
    shown = value if isinstance(value, str) else json.dumps(value)
    return Node(
        label,
        path,
        "scalar",
        value_json=json.dumps(value, ensure_ascii=False),
        shown=shown,
        multiline=isinstance(value, str) and "\n" in value.rstrip("\n"),
    )


@dataclass
class SourceFile:
    name: str
    source: str
    source_file: str
    tree: Node | None
    problem: str | None = None


def source_files(files: dict[str, Any], job_id: str) -> list[SourceFile]:
    """step1/3/4 as trees, in that order; a file that is missing or unreadable says so."""
    out = []
    for source in EVIDENCE_SOURCES:
        name = next((n for n in sorted(files) if n.startswith(f"{source}_")), None)
        if name is None:
            out.append(SourceFile(f"{source}_*.json", source, "", None, "not in the run's files"))
            continue
        data = files[name]
        if isinstance(data, Unreadable):
            out.append(SourceFile(name, source, tracing.seed_path(job_id, name), None, data.reason))
            continue
        out.append(SourceFile(name, source, tracing.seed_path(job_id, name), json_tree(data)))
    return out


# -- the agent's evidence, checked -------------------------------------------------------
def evidence_checks(items: list[dict[str, Any]], files: dict[str, Any], job_id: str | None) -> list[str | None]:
    """Per evidence item: None when it traces into a collected step file, else why it is broken."""
    return [tracing.evidence_problem(item, files, job_id) for item in items]


# -- red flags: objects with where/line, or (older parses) plain text --------------------
def red_flag(flag: Any) -> dict[str, Any]:
    if isinstance(flag, dict):
        return {
            "type": str(flag.get("type") or "red flag"),
            "where": flag.get("where"),
            "line": flag.get("line"),
            "source": flag.get("source"),
            "code": flag.get("code"),
        }
    return {"type": str(flag), "where": None, "line": None, "source": None, "code": None}


def rubric_data() -> dict[str, Any]:
    """The rubric as the page's script scores it live (the server re-checks the label on submit)."""
    return {
        "criteria": [{"key": c.key, "points": c.points, "text": c.text} for c in rubric.CRITERIA],
        "max": rubric.MAX_SCORE,
    }
