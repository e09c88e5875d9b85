"""Citation classification and resolution against the registry (SPEC §3a)."""

from __future__ import annotations

import pytest

from rcaloop.parser.citations import Resolver, classify, render, rewrite_checkout_paths, unsafe_path
from tests.unit.parser.helpers import REGISTRY, parse

R = Resolver(REGISTRY, registry_given=True)


def one(link: str):
    out = render(f"see {link} here", R, part="chat")
    [citation] = out.citations
    return out.text, citation


@pytest.mark.parametrize(
    ("target", "kind"),
    [
        ("msg:m-1", "msg"),
        ("rca:r-1", "rca"),
        ("code:shop@abc1234/a.py#L1", "code"),
        ("https://x", "url"),
        ("javascript:alert(1)", "url"),
        ("data:text/html,x", "url"),
        ("file:///etc/passwd", "url"),
        ("//evil.example", "url"),
        ("HTTP://X", "url"),
        ("relative/page.md", "other"),
        ("#anchor", "other"),
        ("", "other"),
    ],
)
def test_classify(target, kind):
    assert classify(target) == kind


def test_bot_message_links_to_the_original():
    rendered, c = one("[alert log](msg:m-1001)")
    assert (c.kind, c.resolved, c.href) == ("msg", True, "https://chat.example/m/1001")
    assert rendered == "see [alert log](https://chat.example/m/1001) here"


@pytest.mark.parametrize(("target", "reason"), [("msg:m-1002", "not a bot message"), ("msg:m-9", "unknown message id")])
def test_human_and_unknown_messages_reduce_to_label(target, reason):
    rendered, c = one(f"[thread]({target})")
    assert (c.resolved, c.href, c.reason) == (False, None, reason)
    assert rendered == "see thread here"


def test_known_rca_links_to_its_post_and_prefers_the_same_destination():
    _, c = one("[earlier](rca:r-77)")
    assert c.href == "https://chat.example/m/77"
    _, unknown = one("[earlier](rca:r-0)")
    assert (unknown.resolved, unknown.reason) == (False, "unknown RCA id")
    registry = REGISTRY.model_copy(deep=True)
    registry.rcas["r-77"].posts = {"#payments": "https://chat.example/m/78"}
    out = render("[e](rca:r-77)", Resolver(registry, destination="#payments"), part="chat")
    assert out.citations[0].href == "https://chat.example/m/78"


def test_code_link_for_known_project_commit_safe_path_and_line():
    rendered, c = one("[pool](code:shop@4F2C9E1/config/prod.yaml#L42)")
    assert c.href == "https://git.example/org/shop/blob/4f2c9e1/config/prod.yaml#L42"
    assert rendered == f"see [pool]({c.href}) here"


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("code:nope@4f2c9e1/a.py#L1", "unknown project"),
        ("code:shop@4f2c9e1/../etc/passwd#L1", "unsafe path"),
        ("code:shop@4f2c9e1//etc/passwd#L1", "unsafe path"),
        ("code:shop@4f2c9e1/a\\b.py#L1", "unsafe path"),
        ("code:shop@4f2c9e1/a\x07.py#L1", "unsafe path"),
        ("code:shop@4f2c9e1/a.py", "no line number"),
        ("code:shop@4f2c9e1/a.py#L0", "no line number"),
        ("code:shop@main/a.py#L3", "malformed code citation"),
        ("code:shop/a.py#L3", "malformed code citation"),
    ],
)
def test_code_links_reduced_unless_fully_safe(target, reason):
    rendered, c = one(f"[file]({target})")
    assert (c.kind, c.resolved, c.href, c.reason) == ("code", False, None, reason)
    assert rendered == "see file here"


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example",
        "javascript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD4=",
        "file:///etc/passwd",
        "ftp://x/y",
        "//evil.example/x",
        "<https://evil.example>",
    ],
)
def test_every_url_scheme_is_reduced_to_its_label(target):
    rendered, c = one(f"[click]({target})")
    assert (c.kind, c.resolved, c.href) == ("url", False, None)
    assert rendered == "see click here"


def test_url_with_title_image_and_reference_definition_are_reduced():
    out = render('[a](https://e.x "t") ![img](https://e.x/i.png)\n[ref]: https://e.x\n[b][ref]', R, part="chat")
    assert [c.kind for c in out.citations] == ["url", "url", "url"]
    assert "https://" not in out.text
    assert out.text.startswith("a img\n")


def test_nested_links_resolve_innermost_and_never_keep_an_outer_url():
    out = render("[a [log](msg:m-1001) b](https://evil.example)", R, part="chat")
    assert out.text == "a log b"
    assert {c.target for c in out.citations} == {"msg:m-1001", "https://evil.example"}


def test_leftover_link_syntax_is_broken_up():
    out = render("[x](has space) and [y]", R, part="chat")
    assert "](" not in out.text


def test_unsafe_path_rules():
    assert not unsafe_path("src/app/main.py")
    assert all(unsafe_path(p) for p in ("/abs", "a/../b", "a//b", "a\\b", "a\nb", "~/x", "./a"))


def test_registered_checkout_paths_are_rewritten():
    text = "edit /srv/checkouts/shop/config/prod.yaml. Not /srv/checkouts/shopping/x nor /tmp/srv/checkouts/shop/a"
    assert rewrite_checkout_paths(text, REGISTRY.checkouts()) == (
        "edit shop: config/prod.yaml. Not /srv/checkouts/shopping/x nor /tmp/srv/checkouts/shop/a"
    )


def test_stored_report_keeps_citations_as_written_and_post_resolves_them():
    report = "# t\n\n## Summary\nsee [log](msg:m-1001) in /srv/checkouts/shop/a.py\n\nRCA_FIELDS\n"
    parsed = parse(report)
    assert "[log](msg:m-1001)" in parsed.report_markdown
    assert "/srv/checkouts/shop/a.py" in parsed.report_markdown
    assert parsed.chat_rendered == "**t**\n\nsee [log](https://chat.example/m/1001) in shop: a.py"
    assert parsed.citations[0].part == "report" and parsed.citations[0].line == 4


def test_without_a_registry_everything_is_reduced():
    parsed = parse("# t\n\n## Summary\n[log](msg:m-1001) [c](code:shop@4f2c9e1/a.py#L1)\n", registry=None)
    assert [c.resolved for c in parsed.citations] == [False, False]
    assert parsed.chat_rendered == "**t**\n\nlog c"


def test_autolinks_are_citations_too():
    out = render("see <https://evil.example/x> and <msg:m-1001>; <b>bold</b> stays", R, part="chat")
    assert out.text == "see `evil.example` and [msg:m-1001](https://chat.example/m/1001); <b>bold</b> stays"
    assert [(c.kind, c.resolved) for c in out.citations] == [("url", False), ("msg", True)]
    assert [w.code for w in out.warnings] == ["RCA230"]
    parsed = parse("# t\n\n## Summary\nsee <https://evil.example/x>\n")
    assert [c.kind for c in parsed.citations] == ["url"]  # the fallback post repeats the report's links
    assert parsed.chat_rendered == "**t**\n\nsee `evil.example`"


@pytest.mark.parametrize(
    ("text", "posted"),
    [
        ("see grafana.acme.io/d/pool?orgId=1 now", "see `grafana.acme.io` now"),
        ("see grafana.acme.io:3000/d/pool.", "see `grafana.acme.io`."),
        ("see Www.grafana.acme.io/d/pool", "see `www.grafana.acme.io`"),
        ("see WWW.grafana.acme.io", "see `www.grafana.acme.io`"),
        ("(dashboards.acme.io/d/pool)", "(`dashboards.acme.io`)"),
    ],
)
def test_a_url_without_a_scheme_is_reduced_to_its_host(text, posted):
    out = render(text, R, part="chat")
    assert out.text == posted
    assert [w.code for w in out.warnings] == ["RCA233"]


@pytest.mark.parametrize(
    "text",
    [
        "see prod.yaml and prod.yaml:42",
        "edit config/checkout/prod.yaml and shop: config/prod.yaml",
        "upgrade from 1.9.3/1.10.0 to v1.9.4/",
        "read /srv/x.yaml/y and org/deploy-playbooks:roles/vault_login/tasks/main.yml",
        "label `app.kubernetes.io/name=checkout` (in code, not linked)",
        "```\ngrafana.acme.io/d/pool\n```",
        "mail ops@acme.io about it",
    ],
)
def test_file_names_versions_paths_and_code_are_not_urls(text):
    out = render(text, R, part="chat")
    assert out.text == text and out.warnings == []
