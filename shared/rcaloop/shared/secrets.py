"""The one secret detector: every service finds and redacts secret values with it.

Detection is Yelp's ``detect-secrets``: its plugins' patterns (cloud keys, API and bot
tokens, private keys, credentials in URLs) and its keyword detector (password, secret and
key assignments) with its false-positive filters. The patterns run directly, and only on
the lines that hold a literal the pattern needs (a substring test first), so an 8 KB report
is scanned in tens of microseconds, not the milliseconds of running every pattern on every
line. ``SHAPE_RULES`` add the vendors' token shapes the library does not know
(``secret_shapes``: Google, Vault, current OpenAI and Anthropic keys …), and
``EXTRA_RULES`` fill what it lacks for chat output: webhook URLs (with or
without their scheme), token query parameters, ``Authorization`` headers of any scheme,
``token``, key, ``credentials`` and ``pass`` assignments, ``{name, value}`` entries,
command-line passwords, ``.pgpass`` lines, grouped AWS keys and passwords stated in a
sentence; base64 is read decoded (a Kubernetes Secret's ``tls.key`` is a PEM key). Whether a matched value is a secret or only names one
(``none``, ``${TOKEN}``, ``expired``, ``/etc/tls/tls.key``) is ``secret_values``' call.

A text is read as written and as a reader sees it rendered (``markup_view``): code points
that render as nothing are removed first, and a line where markup sits inside a token
(``AKIA**Q3EG**RT7P…``, ``AKIA[Q3EG](#)RT7P…``, ``ghp\\_R8mZ…``) or a look-alike makes a word
read as ASCII (``pаssword:`` with a Cyrillic ``а``: ``lookalikes``) is read again that way;
a secret found there is redacted over the whole source span it renders from.

Redaction replaces each value by ``[REDACTED:<type>]`` and keeps every line where it was
(a private key's lines become empty lines after its marker). A marker already in the text
is read back as a secret of its type, so redacting twice changes nothing and the findings
survive: ingestion redacts before it publishes, and the parser, running the same function
on what it receives, still reports where each secret was. Findings name a type and a place,
never the value.
"""

from __future__ import annotations

import base64
import json
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

from detect_secrets.plugins import (
    artifactory, aws, azure_storage_key, basic_auth, cloudant, discord, github_token, gitlab_token, ibm_cloud_iam,
    ibm_cos_hmac, jwt, keyword, mailchimp, npm, openai, private_key, pypi_token, sendgrid, slack, softlayer,
    square_oauth, stripe, telegram_token, twilio,
)  # fmt: skip

from rcaloop.contracts import DeadLetter, EvidenceArtifact, RawResult
from rcaloop.shared.lookalikes import INVISIBLE, latin_marks
from rcaloop.shared.markup_view import JUNCTION, SPACED_JUNCTION, View, find_lookalike_word, rendered_view
from rcaloop.shared.secret_shapes import SHAPES
from rcaloop.shared.secret_values import TRAILING, Check, generated, is_secret, secret_type

MARKER = re.compile(r"\[REDACTED:([a-z][a-z0-9-]{0,39})\]")
"""How a redacted value reads: ``[REDACTED:api-key]``. Read back as a secret of that type."""

TYPES = (
    "aws-access-key", "aws-secret-key", "api-key", "token", "private-key", "password", "secret",
    "connection-string", "webhook-url",
)  # fmt: skip
"""Every type the detector reports (a declared ``sensitive_data`` item may name others)."""


@dataclass(frozen=True, eq=False)
class Rule:
    """One pattern: the type it finds and the literals one of which must be on a line for it
    to run (lower-case literals for a case-insensitive pattern; none: any line holding a word
    of at least ``min_word`` characters)."""

    type: str
    pattern: re.Pattern[str]
    needs: tuple[str, ...] = ()
    group: int = 0
    """the part redacted: 0 the whole match, -1 the group that matched last (a pattern of
    alternatives with one group each), else that group"""
    check: Check | None = None
    """how the matched value is judged (``secret_values``); none: the match is a secret
    (a token's own shape). A checked rule of type ``secret`` takes its type from the name it
    matched (its ``name`` group, else group 1)."""
    keep_host: bool = False
    """a URL: scheme and host stay readable, the rest is the secret"""
    min_word: int = 0
    lines: Callable[[_Text, dict[int, int]], None] | None = None
    """with no literals: finds the lines the pattern may match on instead (a test over the
    whole text that needs no pattern)"""
    as_written: bool = False
    """a checked rule that reads the line as written, not rendered (a ``*`` in it is no markup)"""
    decoded: bool = False
    """the match is base64: a secret when its decoded text holds one (``_decoded_secret``)"""
    spans_words: bool = False
    """the pattern can match across whitespace (else it lies inside one word)"""
    next_line: bool = False
    """the pattern may go on over the next line (a ``name:`` line, then its ``value:``)"""

    ci: bool = False
    """set from the pattern: a case-insensitive pattern's literals are found in the lower-cased text"""

    def __post_init__(self) -> None:
        if self.pattern.flags & re.I:
            object.__setattr__(self, "ci", True)
            object.__setattr__(self, "needs", tuple(n.lower() for n in self.needs))


@dataclass(frozen=True)
class Secret:
    """A secret found: its type, where it was and the 1-based line there (when it has lines)."""

    type: str
    where: str
    line: int | None = None


@dataclass(frozen=True)
class _Hit:
    start: int
    end: int
    type: str
    specific: bool  # a token-shaped match wins the type over a keyword assignment


def _rules(plugin: type, type_: str, needs: tuple[str, ...], group: int = 0, **kw: Any) -> tuple[Rule, ...]:
    return tuple(Rule(type_, p, needs, group, **kw) for p in plugin.denylist)  # type: ignore[attr-defined]


_ASSIGN = ("key", "pwd", "pass", "token")
_AWS, _ART, _CLOUDANT, _SLACK, _SOFTLAYER = (
    aws.AWSKeyDetector.denylist, artifactory.ArtifactoryDetector.denylist, cloudant.CloudantDetector.denylist,
    slack.SlackDetector.denylist, softlayer.SoftlayerDetector.denylist,
)  # fmt: skip
_GITLAB_NEEDS = (("glpat-", "gldt-", "glft-", "glsoat-", "glrt-"), ("GR1348941",), ("glcbt-",), ("glimt-",),
                 ("glptt-",), ("glagent-",), ("gloas-",))  # fmt: skip

LIBRARY_RULES: tuple[Rule, ...] = (
    Rule("aws-access-key", _AWS[0], ("A3T", "ABIA", "ACCA", "AKIA", "ASIA")),
    Rule("aws-secret-key", _AWS[1], ("aws",), group=1, spans_words=True),
    Rule("api-key", _ART[0], ("AKC",)),
    Rule("api-key", _ART[1], ("AP",)),
    *_rules(azure_storage_key.AzureStorageKeyDetector, "api-key", ("AccountKey=",)),
    *_rules(basic_auth.BasicAuthDetector, "connection-string", ("://",), group=1),
    Rule("api-key", _CLOUDANT[0], _ASSIGN, group=1, spans_words=True),
    Rule("api-key", _CLOUDANT[1], _ASSIGN, group=1, spans_words=True),
    Rule("api-key", _CLOUDANT[2], ("cloudant.com",), group=1),
    Rule("api-key", _CLOUDANT[3], ("cloudant.com",), group=1),
    *_rules(discord.DiscordBotTokenDetector, "token", (), min_word=59),
    *_rules(github_token.GitHubTokenDetector, "token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")),
    *(Rule("token", p, needs) for p, needs in zip(gitlab_token.GitLabTokenDetector.denylist, _GITLAB_NEEDS, strict=True)),
    *_rules(ibm_cloud_iam.IbmCloudIamDetector, "api-key", _ASSIGN, group=1, spans_words=True),
    *_rules(ibm_cos_hmac.IbmCosHmacDetector, "api-key", ("secret",), group=1, spans_words=True),
    *_rules(jwt.JwtTokenDetector, "token", ("eyJ",)),
    *_rules(mailchimp.MailchimpDetector, "api-key", ("-us",)),
    *_rules(npm.NpmDetector, "token", ("_authToken",), group=1, spans_words=True),
    *_rules(openai.OpenAIDetector, "api-key", ("T3BlbkFJ",)),
    *_rules(private_key.PrivateKeyDetector, "private-key", ("PRIVATE KEY", "PuTTY-User-Key-File-2"), spans_words=True),
    *_rules(pypi_token.PypiTokenDetector, "token", ("pypi-",)),
    *_rules(sendgrid.SendGridDetector, "api-key", ("SG.",)),
    Rule("token", _SLACK[0], ("xox",)),
    Rule("webhook-url", _SLACK[1], ("hooks.slack.com",), keep_host=True),
    Rule("api-key", _SOFTLAYER[0], _ASSIGN, group=1, spans_words=True),
    Rule("api-key", _SOFTLAYER[1], ("softlayer.com",), group=1),
    *_rules(square_oauth.SquareOAuthDetector, "api-key", ("sq0csp-",)),
    *_rules(stripe.StripeDetector, "api-key", ("k_live_",)),
    *_rules(telegram_token.TelegramBotTokenDetector, "token", (), min_word=44),
    Rule("api-key", twilio.TwilioKeyDetector.denylist[0], ("AC",)),
    Rule("api-key", twilio.TwilioKeyDetector.denylist[1], ("SK",)),
    *(
        Rule("secret", p, ("key", "pass", "pwd", "secret", "contrase"), group, check="assignment", spans_words=True)
        for p, group in {**keyword.CONFIG_DENYLIST_REGEX_TO_GROUP, **keyword.QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP}.items()
    ),
)
"""detect-secrets' plugins, pattern by pattern (``secret`` assignments get their type from
the name: see ``secret_values.secret_type``). Left out: the high-entropy string plugins (reports
quote commit hashes and ids) and public IP addresses (not secrets)."""

_URL_TAIL = r"[^\s\"'<>()\[\]`]"
_SCHEME = r"(?<![\w.-])(?:https?://)?"
"""A webhook URL is one with or without its scheme (chat apps link both)."""
_SECRET_NAME = r"(?:" + "|".join(keyword.DENYLIST) + r"|token)"
_COMMAND_PASSWORDS = (
    r"(?:mysql\w*|mariadb[\w-]*)\b{args}-p",  # attached: "-p value" prompts, and the value is the database
    r"sshpass\b{args}-p[ \t]*",
    r"redis-cli\b{args}-a[ \t]+",
    r"ldap\w+\b{args}-w[ \t]+",
    r"mongo\w*\b{args}-p[ \t]+",
    r"(?:docker|podman|nerdctl|helm[ \t]+registry|az)[ \t]+login\b{args}-p[ \t]+",
    r"openssl\b{args}-pass(?:in|out)?[ \t]+pass:",  # env:VAR and file:PATH only name where it is
    r"curl\b{args}(?:-u|-U|--user|--proxy-user)(?:[ \t]+|=)?[\"']?[^\s:\"'`-][^\s:\"'`]*:",  # user:password
)
"""Commands that take a password as a short flag (or ``user:password``), each up to where the
password starts; ``{args}`` is the arguments before the flag (on the same command)."""
_COMMAND_PASSWORD = re.compile(
    r"\b(?:"
    + "|".join(c.format(args=r"[^\n|;&]{0,300}?(?<![\w-])") + r"[\"']?([^\s\"'`]+)" for c in _COMMAND_PASSWORDS)
    + ")"
)
_OPTION_VALUES: tuple[tuple[str, Check], ...] = (("=", "value"), (r"[ \t]+", "parameter"))
"""A long option's value: after ``=`` any value; after a space a plain word may be the
command's next argument (``psql --password mydb`` prompts for the password)."""
_ASSIGNED = r"[\"'\]]{0,2}[ \t]*(?::=|=>|={1,3}|:)[ \t]*[\"'`]?([^\s\"'`,;]{3,})"
"""After a name: how a value is assigned to it (``: ``, ``=``, ``=>``, quoted or not), and the value."""

_NOT_COLON = bytes(c for c in range(256) if c not in b":\n")
_B64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+="
_BASE64_RUN = bytes.maketrans(bytes(range(256)), bytes(ord("a") if c in _B64 else ord(" ") for c in range(256)))
"""Each letter, digit, ``+`` and ``=`` as an ``a``, anything else a space."""
_RUN = b"a" * 20


def _pgpass_lines(scan: _Text, into: dict[int, int]) -> None:
    """The lines of words with four colons, as a ``.pgpass`` line has
    (``host:port:database:user:password``): looked for in the long words with all but
    their colons deleted (a word's colons then stand together), then word by word."""
    if b"::::" in scan.hay_bytes.translate(None, _NOT_COLON):
        for word in scan.words:
            if word.count(":") >= 4:
                scan.lines_of_word(word, into)


def _base64_lines(scan: _Text, into: dict[int, int]) -> None:
    """The lines of words with a run of 20 letters and digits, as base64 text of 15 bytes or
    more has (a Kubernetes Secret's ``data`` value): found in the long words with each such
    character made an ``a``, not by a pattern. A shorter value is looked for where it is
    decoded (the rule's literal, ``base64``)."""
    runs = scan.hay_bytes.translate(_BASE64_RUN)
    _, starts = scan.hay(False)
    pos = runs.find(_RUN)
    while pos >= 0:
        i = bisect_right(starts, pos) - 1
        scan.lines_of_word(scan.words[i], into)
        pos = runs.find(_RUN, starts[i + 1]) if i + 1 < len(starts) else -1


_BASE64 = re.compile(r"(?<![\w+/=.-])([A-Za-z0-9+/]{16,}={0,2})(?![\w+/=.-])")
"""A base64 blob: a Kubernetes Secret's ``data`` value, a value piped to ``base64 -d``."""

EXTRA_RULES: tuple[Rule, ...] = (
    Rule("webhook-url", re.compile(
        _SCHEME + r"hooks\.slack\.com/(?:services|workflows|triggers)/" + _URL_TAIL + "+", re.I),
         ("hooks.slack.com",), keep_host=True),
    Rule("webhook-url", re.compile(_SCHEME + r"(?:[\w-]+\.)*discord(?:app)?\.com/api/webhooks/" + _URL_TAIL + "+"),
         ("/api/webhooks/",), keep_host=True),
    Rule("webhook-url", re.compile(_SCHEME + r"[\w.-]*\.office\.com/webhook(?:b2)?/" + _URL_TAIL + "+", re.I),
         (".office.com/webhook",), keep_host=True),
    Rule("webhook-url", re.compile(_SCHEME + r"chat\.googleapis\.com/v1/spaces/" + _URL_TAIL + "+"),
         ("chat.googleapis.com",), keep_host=True),
    Rule("webhook-url", re.compile(
        r"(?:https?://[^\s/]+|(?<![\w./@-])[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/(?:[^\s?#/]+/)*(?:hooks?|webhooks?)/"
        r"(?=[A-Za-z_-]*\d)(?=[\d_-]*[A-Za-z])[\w-]{16,}" + _URL_TAIL + "*", re.I), ("hook",), keep_host=True),
    Rule("token", re.compile(
        r"[?&;#](?P<name>(?:[\w.-]*[_.-])?"
        r"(?:access_?token|token|api_?key|key|secret|sig|signature|auth|code|credential)s?)"
        r"=([^&#\s\"'<>()\[\]`]{6,})", re.I), ("=",), group=2, check="parameter"),
    Rule("password", re.compile(r"[?&;](?P<name>[\w.-]*(?:password|passwd|pwd))=([^&#\s\"'<>()\[\]`]{3,})", re.I),
         ("=",), group=2, check="value"),
    Rule("connection-string", re.compile(r"://:([^\s@/]{3,})@"), ("://",), group=1),
    Rule("token", re.compile(
        r"\b(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?(?:(?:bearer|basic|token|bot|digest|apikey)[ \t]+)?"
        r"([A-Za-z0-9._~+/=-]{8,})", re.I), ("authorization",), group=1, check="assignment", spans_words=True),
    Rule("token", re.compile(r"\bbearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)", re.I), ("bearer",), group=1, spans_words=True),
    Rule("secret", re.compile(
        r"(?<![\w-])([\w-]*?(?:token|api-key|apikey|app[-_]?key|access-key|secret-key|auth-key|private-key"
        r"|client-secret)s?)"
        r"[\"'\]]{0,2}[ \t]*(?::=|=>|={1,3}|:)[ \t]*[\"'`]?([^\s\"'`,;]{3,})", re.I),
         ("token", "-key", "apikey", "appkey", "app_key", "-secret"), group=2, check="assignment", spans_words=True),
    Rule("secret", re.compile(
        r"[\"']?\b(?:name|key)[\"']?[ \t]*[:=][ \t]*[\"']?(?P<name>[\w.-]*?" + _SECRET_NAME + r"[\w.-]*)[\"']?"
        r"[ \t]*(?:,[ \t]*|\n[ \t]*-?[ \t]*)[\"']?value[\"']?[ \t]*[:=][ \t]*[\"']?([^\s\"',}]+)", re.I),
         ("pass", "pwd", "secret", "token", "key"), group=2, check="value", spans_words=True, next_line=True),
    *(
        Rule("secret", re.compile(
            r"(?<![\w-])--(?P<name>(?:[a-z0-9]+-)*"
            r"(?:password|passwd|pass|token|secret|secret-id|api-?key|access-key|secret-key))"
            + separator + r"[\"']?([^\s\"'`]+)", re.I),
             ("pass", "pwd", "token", "secret", "key"), group=2, check=check, spans_words=True)
        for separator, check in _OPTION_VALUES
    ),
    Rule("password", _COMMAND_PASSWORD, (" -",), group=-1, check="value", spans_words=True),
    Rule("secret", re.compile(
        r"(?<![\w-])(?P<name>(?:[\w-]*[_-])?"
        r"(?:password|passwd|passphrase|pwd|secret|token|api[ _-]?key|access[ _-]?key))s?"
        r"(?:[ \t]+(?:for|of|on)(?:[ \t]+[\w@.-]+){1,3}?)?[ \t]+"
        r"(?:(?:(?:is|was|has been|had been|got)[ \t]+)?(?:set|changed|reset|rotated|updated)[ \t]+to|"
        r"is|was|are|were|has been|had been|became|becomes)(?:[ \t]+(?:now|still))?"
        r"[ \t]+[\"'`]?([^\s\"'`,;]+)", re.I),
         ("pass", "pwd", "secret", "token", "key"), group=2, check="statement", spans_words=True),
    Rule("token", re.compile(
        r"\b(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?[A-Za-z][\w.-]{0,30}[ \t]+([A-Za-z0-9._~+/=-]{8,})",
        re.I), ("authorization",), group=1, check="header", spans_words=True),
    Rule("secret", re.compile(
        r"(?<![\w.-])(?P<name>(?:[\w.-]*[_.-])?(?:key|Key|KEY|auth|Auth|AUTH)|[A-Za-z\d]*[a-z\d](?:Key|Auth))s?"
        + _ASSIGNED), ("key", "auth"), group=2, check="credential", spans_words=True),
    Rule("secret", re.compile(r"(?<![\w.-])(?P<name>[\w.-]*credentials?)" + _ASSIGNED, re.I), ("credential",),
         group=2, check="credential"),  # "credentials:" is a long word: looked up among them
    Rule("secret", re.compile(
        r"(?<![\w.-])(?P<name>(?:[\w.-]*[_.-])?(?:pass|Pass|PASS)(?:phrase|code|PHRASE|CODE)?"
        r"|[A-Za-z\d]*[a-z\d]Pass(?:phrase|code)?)" + _ASSIGNED), ("pass",), group=2, check="password", spans_words=True),
    Rule("password", re.compile(
        r"(?<![\w.:/@-])(?![\da-fA-F:]+(?![\w.:/-]))(?:[\w.-]+|\*):(?:\d{1,5}|\*):(?:[\w.-]+|\*):(?:[\w.@-]+|\*)"
        r":([^\s\"'`]+)"), (), group=1, check="value", lines=_pgpass_lines, as_written=True),
    Rule("aws-access-key", re.compile(
        r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)(?=[A-Z._-]{0,19}\d)(?:[._-][A-Z0-9]{4}){4}(?![A-Za-z0-9])"),
         ("AKIA", "ASIA", "ABIA", "ACCA")),
    Rule("secret", _BASE64, ("base64",), group=1, lines=_base64_lines, decoded=True, spans_words=True),
)  # fmt: skip
"""What the library lacks: webhook URLs (Slack with or without its scheme, Discord, Teams,
Google Chat, any ``/hooks/<id>``), secrets in query parameters, credentials after an empty
user name (``redis://:pw@host``), ``Authorization`` headers and bearer tokens, ``token``,
application-key (``DD_APP_KEY``) and hyphenated key assignments, ``{name: DB_PASSWORD,
value: …}`` entries (on one line or two), command-line passwords (``--password …``,
``mysql -p…``, ``sshpass -p``, ``curl -u user:…``), passwords stated in a sentence (``the
admin password is …``), ``Authorization`` headers of other schemes (``Splunk``, ``SSWS``),
credential-looking values of key, ``credentials`` and ``auth`` names
(``SESSION_ENCRYPTION_KEY=…``, ``routing_key: …``), ``pass`` assignments, ``.pgpass``
lines, AWS keys in groups (``AKIA-Q3EG-…``) and base64 whose decoded text holds a secret
(``tls.key: LS0tLS1CRUdJTi…``, ``.dockerconfigjson``, ``echo … | base64 -d``)."""

SHAPE_RULES: tuple[Rule, ...] = tuple(Rule(shape.type, shape.pattern, shape.needs) for shape in SHAPES)
"""Tokens by their vendor's shape that the library lacks (``secret_shapes``): Google, Vault,
OpenAI, Anthropic, GitHub fine-grained, GitLab routable, npm, Hugging Face and more."""

RULES = LIBRARY_RULES + SHAPE_RULES + EXTRA_RULES
_TOKEN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/=-")


def _line_hits(rule: Rule, source: str, line_start: int, line_end: int, view: View | None) -> Iterator[_Hit]:
    """A rule's hits on the line ``source[line_start:line_end]`` (a checked rule reads it
    rendered, ``view``: ``**Password:** x`` is an assignment), as spans of ``source``."""
    text = view.text if view else source[line_start:line_end]
    offset = 0 if view else line_start  # a view maps to source positions itself
    for m in rule.pattern.finditer(text):
        start, end = m.span(rule.group if rule.group >= 0 else m.lastindex)
        if start < 0 or start == end:
            continue
        if rule.decoded:
            blob = text[start:end].rstrip("=")
            if blob.isalpha() or blob.isdigit() or blob.islower() or blob.isupper():
                continue  # a word, a number or a hex id: encoded text has both cases and digits
            decoded = _decoded_secret(text[start:end], _DECODED_HERE.search(text) is not None)
            if decoded is None:
                continue
            type_ = decoded
        elif rule.check:
            quoted = start > 0 and text[start - 1] in "'\"`"
            value = text[start:end]
            if not quoted:
                value = value.split(None, 1)[0] if value.strip() else ""
                value = _trimmed(value)
            named = "name" in m.re.groupindex
            if not is_secret(rule.check, text, m.start("name") if named else m.start(), start, value, quoted):
                continue
            end = start + len(value)
            name = m.group("name") if named else (m.group(1) if m.re.groups else m.group(0))
            type_ = rule.type if rule.type != "secret" else secret_type(name)
        else:
            type_ = rule.type
            while start < end and text[start] in " \t\"'=:":
                start += 1
            while end > start and text[end - 1] in " \t\"'":
                end -= 1
            if rule.group == 0:  # a token runs on past a lazy pattern's end (a JWT's signature)
                while end < len(text) and (text[end] in _TOKEN or (text[end] == "." and text[end + 1 : end + 2] in _TOKEN)):
                    end += 1
            if rule.keep_host:
                scheme = text.find("://", start, end)
                path = text.find("/", start if scheme < 0 else scheme + 3, end)
                if path < 0:
                    continue
                start = path
        if view is not None:
            start, end = view.source(start, end)
        yield _Hit(offset + start, offset + end, type_, rule.check is None)


_DECODED_HERE = re.compile(r"\bbase64[ \t]+(?:-\w*[dD]\b|--decode)|\bb64decode\b")
"""A command that decodes base64 on the line (``echo … | base64 -d``)."""


@lru_cache(maxsize=256)
def _decoded_secret(value: str, decoding: bool) -> str | None:
    """The type of the secret a base64 value holds: a secret in its decoded text (a PEM
    private key, a registry's ``auths``, a connection string), or, when the line decodes it
    (``decoding``: ``echo … | base64 -d``), a decoded text that is itself one generated word
    (a password). Binary or unreadable: none."""
    body = value.rstrip("=")
    body = body[: len(body) - len(body) % 4] if len(body) % 4 != 1 else body[: len(body) - 1]
    try:
        text = base64.b64decode(body + "=" * (-len(body) % 4), validate=True).decode("utf-8", "ignore")
    except ValueError:
        return None
    if not text or not all(c.isprintable() or c in "\n\r\t" for c in text):
        return None
    hits = _scan(text, rendered=False)
    if hits:
        return hits[0].type
    return "password" if decoding and generated(text.strip()) else None


_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<"}


def _trimmed(value: str) -> str:
    """A value without the punctuation that follows it in a sentence (a closing bracket
    the value opened stays: ``{{token}}``)."""
    closes = {c: value.count(c) for c in _CLOSERS}
    opens = {c: value.count(o) for c, o in _CLOSERS.items()}  # no opener is trailing punctuation
    end = len(value)
    while end and value[end - 1] in TRAILING:
        char = value[end - 1]
        if char in _CLOSERS:
            if opens[char] >= closes[char]:
                break
            closes[char] -= 1
        end -= 1
    return value[:end]


def _private_key_end(text: str, start: int) -> int:
    """A private key runs from its BEGIN line to its END line, or over the base64 lines after it."""
    end = text.find("-----END", start)
    if end >= 0:
        close = text.find("-----", end + 8)
        return len(text) if close < 0 else close + 5
    line_end = text.find("\n", start)
    while line_end >= 0:
        nxt = text.find("\n", line_end + 1)
        body = text[line_end + 1 : nxt if nxt >= 0 else len(text)].strip()
        if not body or not re.fullmatch(r"[A-Za-z0-9+/=:\- ]+", body):
            return line_end
        line_end = nxt
    return len(text)


WORD_MIN = 10
"""A secret that lies inside one word (no whitespace) is looked for only in words this long."""


class _Text:
    """One text being scanned: where each rule's literals occur, computed lazily and once.

    A rule's pattern runs only on the lines where one of its literals occurs. Literals of
    rules that match inside one word are looked up in the text's long words only (a few
    hundred bytes of a typical report rather than all of it)."""

    def __init__(self, text: str):
        self.text = text
        self.ends: dict[int, int] = {}  # line start → line end
        self._lower: bytes | None = None
        self._hay_bytes: bytes | None = None
        self._words: list[str] | None = None
        self._hay: tuple[str, str, list[int]] | None = None

    @property
    def lower(self) -> bytes:
        """The text lower-cased as one byte per character (anything beyond Latin-1 a ``?``):
        the same offsets, three times faster than ``str.lower``, and the literals are ASCII."""
        if self._lower is None:
            self._lower = self.text.encode("latin-1", "replace").lower()
        return self._lower

    @property
    def hay_bytes(self) -> bytes:
        """The long words joined by newlines (``hay``), one byte per character, for tests by
        translation and ``bytes.find`` rather than by a pattern."""
        if self._hay_bytes is None:
            self._hay_bytes = self.hay(False)[0].encode("latin-1", "replace")
        return self._hay_bytes

    @property
    def words(self) -> list[str]:
        if self._words is None:
            self._words = list(dict.fromkeys([w for w in self.text.split() if len(w) >= WORD_MIN]))
        return self._words

    def hay(self, ci: bool) -> tuple[str, list[int]]:
        """The long words joined by newlines (lower-cased for ``ci``) and where each starts."""
        if self._hay is None:
            hay = "\n".join(self.words)
            starts, at = [], 0
            for word in self.words:
                starts.append(at)
                at += len(word) + 1
            self._hay = (hay, hay.lower(), starts)
        return (self._hay[1] if ci else self._hay[0]), self._hay[2]

    def line_of(self, pos: int, into: dict[int, int]) -> int:
        """Record the line around ``pos``; return its end."""
        start = self.text.rfind("\n", 0, pos) + 1
        end = self.ends.get(start)
        if end is None:
            end = self.text.find("\n", pos)
            end = self.ends[start] = len(self.text) if end < 0 else end
        into[start] = end
        return end

    def lines_of_word(self, word: str, into: dict[int, int]) -> None:
        pos = self.text.find(word)
        while pos >= 0:
            pos = self.text.find(word, self.line_of(pos, into))

    def candidates(self) -> dict[Rule, dict[int, int]]:
        """Each rule that may match, with the (start → end) lines it may match on."""
        found: dict[tuple[str, bool, bool], dict[int, int]] = {}
        for key in _WIDE:
            lines = self._wide_lines(key[0], key[1])
            if lines:
                found[key] = lines
        if self.words:
            self._narrow(found)
        out: dict[Rule, dict[int, int]] = {}
        for key, lines in found.items():
            for rule in _BY_GATE[key]:
                out.setdefault(rule, {}).update(lines)
        for rule in _LINE_RULES:
            lines: dict[int, int] = {}
            rule.lines(self, lines)
            if lines:
                out.setdefault(rule, {}).update(lines)
        for rule in _LONG_WORD_RULES:
            for word in self.words:
                if len(word) >= rule.min_word:
                    self.lines_of_word(word, out.setdefault(rule, {}))
        return out

    def _wide_lines(self, need: str, ci: bool) -> dict[int, int]:
        found: dict[int, int] = {}
        haystack: str | bytes = self.text
        if ci:
            haystack, need = self.lower, need.encode()  # type: ignore[assignment]
        pos = haystack.find(need)
        while pos >= 0:
            pos = haystack.find(need, self.line_of(pos, found))
        return found

    def _narrow(self, found: dict[tuple[str, bool, bool], dict[int, int]]) -> None:
        """All in-word literals at once: one alternation over the long words (each case)."""
        word_lines: dict[int, dict[int, int]] = {}  # each word's lines looked up once
        done: set[tuple[int, str, bool]] = set()
        for ci in (False, True):
            hay, starts = self.hay(ci)
            for m in _NARROW[ci].finditer(hay):
                i = bisect_right(starts, m.start()) - 1
                if (i, m.group(), ci) in done:
                    continue
                done.add((i, m.group(), ci))
                if i not in word_lines:
                    word_lines[i] = {}
                    self.lines_of_word(self.words[i], word_lines[i])
                for need in _CONTAINED[ci][m.group()]:  # "ACCA" is also an "AC"
                    found.setdefault((need, ci, False), {}).update(word_lines[i])


def _gates(rules: tuple[Rule, ...]) -> dict[Rule, tuple[tuple[str, bool, bool], ...]]:
    """What each rule's literals are looked up as. Literals of patterns that span words are
    looked up lower-cased, each as the shortest such literal it contains (``-key`` as
    ``key``): a superset of the lines, for a third of the lookups."""
    wide = {n.lower() for r in rules if r.spans_words for n in r.needs}
    cover = {n: min((m for m in wide if m in n), key=len) for n in wide}
    return {
        r: tuple(dict.fromkeys((cover[n.lower()], True, True) if r.spans_words else (n, r.ci, False) for n in r.needs))
        for r in rules
    }


def _trie(literals: set[str]) -> str:
    """A pattern that matches the longest of ``literals`` at a position, with common prefixes
    merged (``sk-(?:proj-|ant-)?``): one character test per position instead of one per
    literal, which keeps the search as quick when vendors are added."""
    trie: dict[str, dict] = {}
    for literal in literals:
        node = trie
        for char in literal:
            node = node.setdefault(char, {})
        node[""] = {}

    def branch(node: dict[str, dict]) -> str:
        alternatives = [re.escape(char) + branch(child) for char, child in sorted(node.items()) if char]
        if not alternatives:
            return ""
        if len(alternatives) == 1 and "" not in node:
            return alternatives[0]
        body = "(?:" + "|".join(alternatives) + ")"
        return body + "?" if "" in node else body

    return branch(trie)


_GATES = _gates(RULES)
_NARROW = {
    ci: re.compile(_trie({k[0] for g in _GATES.values() for k in g if not k[2] and k[1] == ci})) for ci in (False, True)
}
"""Every in-word literal, one pattern per case (the longest that matches)."""
_WIDE = tuple(sorted({k for g in _GATES.values() for k in g if k[2]}))
_BY_GATE: dict[tuple[str, bool, bool], list[Rule]] = {}
for _rule, _keys in _GATES.items():
    for _key in _keys:
        _BY_GATE.setdefault(_key, []).append(_rule)
_LONG_WORD_RULES = tuple(r for r in RULES if not r.needs and r.lines is None)
_LINE_RULES = tuple(r for r in RULES if r.lines is not None)
_CONTAINED = {
    ci: {n: [m for m in needs if m in n] for n in needs}
    for ci, needs in ((ci, {k[0] for g in _GATES.values() for k in g if not k[2] and k[1] == ci}) for ci in (False, True))
}


def _scan(text: str, rendered: bool = True) -> list[_Hit]:
    """Every secret in ``text`` (markers included), in order, overlaps merged; with
    ``rendered``, also those that markup splits in the source but not on screen."""
    scan = _Text(text)
    hits: list[_Hit] = []
    if "[REDACTED:" in text:
        hits += [_Hit(m.start(), m.end(), m.group(1), True) for m in MARKER.finditer(text)]
    views: dict[tuple[int, int], View] = {}  # each line rendered once for the checked rules
    for rule, lines in scan.candidates().items():
        for start, end in lines.items():
            if rule.next_line and end < len(text):
                end = scan.line_of(end + 1, {})
            view = None
            if rule.check and not rule.as_written:
                if (start, end) not in views:
                    views[start, end] = rendered_view(text, start, end)
                view = views[start, end]
            for hit in _line_hits(rule, text, start, end, view):
                if rule.type == "private-key":
                    hit = _Hit(_private_key_start(text, hit.start), _private_key_end(text, hit.start), hit.type, True)
                hits.append(hit)
    if rendered:
        hits += _rendered_hits(scan)
    return _merged(hits)


def _rendered_hits(scan: _Text) -> list[_Hit]:
    """Secrets of the rendered lines (``markup_view``) where markup joins two parts of a
    token (only long words can hold one, so the search runs over them alone) or a
    look-alike character stands for a letter, each as the source span it renders from."""
    hay, _ = scan.hay(False)
    lines: dict[int, int] = {}
    m = JUNCTION.search(hay) if hay else None
    while m is not None:  # each word once
        end = hay.find("\n", m.end())
        end = len(hay) if end < 0 else end
        scan.lines_of_word(hay[hay.rfind("\n", 0, m.start()) + 1 : end], lines)
        m = JUNCTION.search(hay, end)
    if "<" in scan.text:
        at = 0
        while (m := SPACED_JUNCTION.search(scan.text, at)) is not None:
            at = scan.line_of(m.start(), lines)
    if not scan.text.isascii():
        marks = latin_marks(scan.lower)
        at = 0
        while (at := find_lookalike_word(scan.text, marks, at)) >= 0:
            at = scan.line_of(at, lines)
    hits = []
    for start, end in _blocks(lines):
        view = rendered_view(scan.text, start, end)
        for hit in _scan(view.text, rendered=False):
            hits.append(_Hit(*view.source(hit.start, hit.end), hit.type, hit.specific))
    return hits


def _blocks(lines: dict[int, int]) -> list[tuple[int, int]]:
    """The lines (start → end), each run of consecutive ones as one block: a run of lines to
    read again is rendered and scanned once, not line by line."""
    blocks: list[tuple[int, int]] = []
    for start, end in sorted(lines.items()):
        if blocks and blocks[-1][1] + 1 == start:
            blocks[-1] = (blocks[-1][0], end)
        else:
            blocks.append((start, end))
    return blocks


def _private_key_start(text: str, start: int) -> int:
    dashes = text.rfind("-----", max(0, start - 6), start)
    return dashes if dashes >= 0 else start


def _merged(hits: list[_Hit]) -> list[_Hit]:
    if len(hits) < 2:
        return hits
    out: list[_Hit] = []
    for hit in sorted(hits, key=lambda h: (h.start, -h.end)):
        last = out[-1] if out else None
        if last is None or hit.start >= last.end:
            out.append(hit)
            continue
        keep = last if last.specific or not hit.specific else hit
        out[-1] = _Hit(last.start, max(last.end, hit.end), keep.type, keep.specific)
    return out


def _has_invisible(text: str) -> bool:
    """Whether ``text`` holds an ``INVISIBLE`` code point. Checked on the few characters
    beyond Latin-1 (a ``?`` in a Latin-1 copy) when there are few: a regex search reads
    every character, a few times slower than the copy and a handful of finds."""
    if text.isascii():
        return False
    latin = text.encode("latin-1", "replace")
    pos = latin.find(b"?")
    for _ in range(64):
        if pos < 0:
            return "\u00ad" in text
        if INVISIBLE.match(text, pos):
            return True
        pos = latin.find(b"?", pos + 1)
    return INVISIBLE.search(text) is not None


def _marker(type_: str, value: str) -> str:
    return f"[REDACTED:{type_}]" + "\n" * value.count("\n")


@dataclass(frozen=True)
class Redacted:
    """A text with every secret replaced by its marker, and where each one was."""

    text: str
    found: tuple[tuple[str, int], ...]  # (type, 1-based line)


def redact_text(text: str) -> Redacted:
    """``text`` with each secret replaced by ``[REDACTED:<type>]`` (lines kept), and the
    (type, line) of each, markers already there included."""
    if _has_invisible(text):
        text = INVISIBLE.sub("", text)
    hits = _scan(text)
    if not hits:
        return Redacted(text, ())
    pieces: list[str] = []
    found: list[tuple[str, int]] = []
    at, line = 0, 1
    for hit in hits:
        line += text.count("\n", at, hit.start)
        found.append((hit.type, line))
        pieces += [text[at : hit.start], _marker(hit.type, text[hit.start : hit.end])]
        line += text.count("\n", hit.start, hit.end)
        at = hit.end
    pieces.append(text[at:])
    return Redacted("".join(pieces), tuple(found))


def text_secrets(text: str | None, where: str) -> tuple[str | None, list[Secret]]:
    """``redact_text`` for one part of an output, its findings placed at ``where``."""
    if not text:
        return text, []
    done = redact_text(text)
    return done.text, [Secret(t, where, line) for t, line in done.found]


# -- JSON documents -----------------------------------------------------------------------

_J = TypeVar("_J")
_PLAIN_ID = re.compile(r"[\w.:-]{1,16}")


def _join(parent: str, key: str) -> str:
    return key if not parent or parent.endswith(":") else f"{parent}.{key}"


def _item_path(parent: str, index: int, item: Any) -> str:
    ident = item.get("id") if isinstance(item, dict) else None
    label = ident if isinstance(ident, str) and _PLAIN_ID.fullmatch(ident) else str(index)
    return f"{parent}[{label}]"


@dataclass
class _Segment:
    path: str
    key: str | None  # the name written before the value ("key: value"), for keyword context
    value: str
    ref: tuple[Any, Any]  # (container, key or index): where the value sits
    own_key: bool = True  # ``key`` is the dict key (else the name of a {name, value} entry)


_ENTRY_NAMES = ("name", "Name", "key", "Key")
_ENTRY_VALUES = frozenset({"value", "Value"})
_IDENTIFIER = re.compile(r"[\w.-]{1,100}")


def _entry_name(entry: dict) -> str | None:
    """The name of a ``{name, value}`` entry (a Kubernetes env variable, a tag, a
    parameter): its value is assigned to that name, as ``{"DB_PASSWORD": "…"}`` would be."""
    if "value" not in entry and "Value" not in entry:
        return None
    name = next((entry[k] for k in _ENTRY_NAMES if isinstance(entry.get(k), str)), None)
    return name if name is not None and _IDENTIFIER.fullmatch(name) else None


def _segments(value: Any, path: str, out: list[_Segment]) -> None:
    """The strings and numbers of a document, depth first (dicts and lists only)."""
    if isinstance(value, dict):
        entry = _entry_name(value)
        for key, item in value.items():
            child = _join(path, str(key))
            if isinstance(item, (str, int, float)) and not isinstance(item, bool):
                if entry is not None and key in _ENTRY_VALUES:
                    out.append(_Segment(child, entry, str(item), (value, key), own_key=False))
                else:
                    out.append(_Segment(child, str(key), str(item), (value, key)))
            else:
                _segments(item, child, out)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            child = _item_path(path, i, item)
            if isinstance(item, str):
                out.append(_Segment(child, None, item, (value, i)))
            else:
                _segments(item, child, out)


def _copy(value: Any, text: Any = None) -> Any:
    """Dicts and lists copied (``text`` applied to their strings and keys), the rest shared."""
    if isinstance(value, dict):
        return {(text(k) if text and isinstance(k, str) else k): _copy(v, text) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v, text) for v in value]
    return text(value) if text and isinstance(value, str) else value


def redact_json(value: _J, where: str) -> tuple[_J, list[Secret]]:
    """A document (dicts and lists of strings, numbers and anything else) with every secret
    in its strings, numbers and keys redacted, and where each was (``<where>.a.b[2]``; a list
    item with a short ``id`` is ``[<id>]``). A value under a secret-like key counts as its
    assignment (``{"password": "x"}`` reads ``password: x``). Copied only when needed."""
    segments: list[_Segment] = []
    _segments(value, where, segments)
    texts = [f"{s.key}: {s.value}" if s.key is not None else s.value for s in segments]
    joined = "\n".join(texts)
    if _has_invisible(joined):
        return redact_json(_copy(value, lambda t: INVISIBLE.sub("", t)), where)
    hits = _scan(joined) if segments else []
    if not hits:
        return value, []
    starts, at = [], 0
    for t in texts:
        starts.append(at)
        at += len(t) + 1
    spans: dict[int, list[tuple[int, int, str]]] = {}
    for hit in hits:
        i = bisect_right(starts, hit.start) - 1
        spans.setdefault(i, []).append((hit.start - starts[i], min(hit.end - starts[i], len(texts[i])), hit.type))
    copy = _copy(value)
    refs: list[_Segment] = []
    _segments(copy, where, refs)
    found: list[Secret] = []
    renamed: list[tuple[dict, Any, str]] = []
    for i, seg_spans in sorted(spans.items()):
        seg, (container, slot) = segments[i], refs[i].ref
        offset = len(seg.key) + 2 if seg.key is not None else 0
        in_value = [(max(s - offset, 0), e - offset, t) for s, e, t in seg_spans if e > offset]
        in_key = [(s, min(e, offset - 2), t) for s, e, t in seg_spans if s < offset - 2 and seg.own_key]
        where_ = redact_text(seg.path).text
        if in_value:
            container[slot], lines = _apply(seg.value, in_value)
            found += [Secret(t, where_, line if "\n" in seg.value else None) for t, line in lines]
        if in_key:
            renamed.append((container, slot, _apply(str(slot), in_key)[0]))
            found += [Secret(t, f"{where_} (key)") for _, _, t in in_key]
    for container, slot, new_key in renamed:
        container[new_key] = container.pop(slot)
    return copy, found


def _apply(text: str, spans: list[tuple[int, int, str]]) -> tuple[str, list[tuple[str, int]]]:
    pieces, lines, at = [], [], 0
    for start, end, type_ in sorted(spans):
        if start < at:
            continue
        pieces += [text[at:start], _marker(type_, text[start:end])]
        lines.append((type_, text.count("\n", 0, start) + 1))
        at = end
    pieces.append(text[at:])
    return "".join(pieces), lines


# -- records, logs and dead letters --------------------------------------------------------

_R = TypeVar("_R", bound=RawResult)


def redact_record(record: _R) -> tuple[_R, list[Secret]]:
    """A result with every secret redacted from what it carries: ``content`` (skill text is
    ``output``, with lines; a capture ``capture.…``; step files ``<file>:<path>``),
    ``input_text`` (``input``), ``evidence`` (``evidence[<id>].…``) and ``metadata``.

    Ids are left alone (their formats hold no secret-shaped text). The record itself is
    returned when nothing was found.
    """
    found: list[Secret] = []
    update: dict[str, Any] = {}
    content = record.content
    if isinstance(content, str):
        new_content, secrets = text_secrets(content, "output")
    elif record.kind == "step_files":
        new_content, secrets = dict(content), []
        for name, doc in content.items():
            new_content[name], more = redact_json(doc, f"{name}:")
            secrets += more
    else:
        new_content, secrets = redact_json(content, "capture")
    if secrets:
        found += secrets
        update["content"] = new_content
    if record.input_text:
        text, secrets = text_secrets(record.input_text, "input")
        if secrets:
            found += secrets
            update["input_text"] = text
    if record.evidence:
        docs, secrets = redact_json([a.model_dump(mode="json") for a in record.evidence], "evidence")
        if secrets:
            found += secrets
            update["evidence"] = [EvidenceArtifact.model_validate(d) for d in docs]
    if record.metadata:
        meta, secrets = redact_json(record.metadata, "metadata")
        if secrets:
            found += secrets
            update["metadata"] = {str(k): str(v) for k, v in meta.items()}
    return (record.model_copy(update=update) if update else record), found


def redact_payload(text: str) -> str:
    """A stored or logged string with its secrets redacted: a JSON document is redacted
    value by value (and written back compact), anything else as text."""
    stripped = text.lstrip()
    if stripped[:1] in ("{", "["):
        try:
            doc = json.loads(text)
            redacted, found = redact_json(doc, "")
        except (ValueError, RecursionError):  # not JSON, or nested too deep to walk: redacted as text
            pass
        else:
            return json.dumps(redacted, ensure_ascii=False, separators=(",", ":")) if found else text
    return redact_text(text).text


def redact_dead_letter(letter: DeadLetter) -> DeadLetter:
    """The dead letter with its entry's fields and its error text redacted."""
    fields = {k: redact_payload(v) for k, v in letter.fields.items()}
    error = redact_text(letter.error).text
    if fields == letter.fields and error == letter.error:
        return letter
    return letter.model_copy(update={"fields": fields, "error": error})


def redact_event(_logger: Any, _method: str, event: dict[str, Any]) -> dict[str, Any]:
    """A structlog processor: every string and number in the event, redacted (a value logged
    under a secret-like key counts as its assignment)."""
    redacted, found = redact_json(event, "")
    return redacted if found else event
