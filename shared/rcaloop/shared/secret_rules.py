"""The project's own secret rules: what a vendor catalog does not know.

Each rule is one pattern with an id (``rcaloop.<name>``, named in the red flag), the type it
finds and the literals one of which must be on a line for it to run. They find what context
tells, and what an RCA's text is full of: keyword assignments (``password: …``, ``x-api-key:
…``), labels in other languages (``DB 비밀번호:``, ``パスワード:``, ``mot de passe :``),
credentials in URLs and connection strings (any punctuation in the password), webhook URLs,
query parameters, ``Authorization`` headers, command-line passwords, passwords stated in a
sentence, ``{name, value}`` entries, ``.pgpass`` and htpasswd lines, an AWS secret key
written beside its key id, private keys, base64 that decodes to a secret, and the vendor
shapes of ``secret_shapes`` (vendor tokens in general are the engine's: ``secret_engine``).

Every pattern runs in time linear in its line: each repetition is bounded or cannot
overlap the next one, so a line of ten thousand ``?password=`` costs what ten thousand
separate lines cost (``benchmarks/secrets.py`` measures every rule on its own literals
repeated).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rcaloop.shared.secret_labels import LABELS
from rcaloop.shared.secret_shapes import SHAPES
from rcaloop.shared.secret_values import Check


@dataclass(frozen=True, eq=False)
class Rule:
    """One pattern: the type it finds and the literals one of which must be on a line for it
    to run (lower-case literals for a case-insensitive pattern; none: any line holding a word
    of at least ``min_word`` characters)."""

    id: str
    """``rcaloop.<name>``: what the red flag names"""
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
    lines: Callable[[Any, dict[int, int]], None] | None = None
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



_URL_TAIL = r"[^\s\"'<>()\[\]`]"
_SCHEME = r"(?<![\w.-])(?:https?://)?"
"""A webhook URL is one with or without its scheme (chat apps link both)."""
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
_OPTION_VALUES: tuple[tuple[str, str, Check], ...] = (("value", "=", "value"), ("argument", r"[ \t]+", "parameter"))
"""A long option's value: after ``=`` any value; after a space a plain word may be the
command's next argument (``psql --password mydb`` prompts for the password)."""
_ASSIGNED = r"[\"'\]]{0,2}[ \t]*(?::=|=>|={1,3}|:)[ \t]*[\"'`]?([^\s\"'`,;]{3,})"
"""After a name: how a value is assigned to it (``: ``, ``=``, ``=>``, quoted or not), and the value."""

_NOT_COLON = bytes(c for c in range(256) if c not in b":\n")
_B64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+="
_BASE64_RUN = bytes.maketrans(bytes(range(256)), bytes(ord("a") if c in _B64 else ord(" ") for c in range(256)))
"""Each letter, digit, ``+`` and ``=`` as an ``a``, anything else a space."""
_RUN = b"a" * 20


def _pgpass_lines(scan: Any, into: dict[int, int]) -> None:
    """The lines of words with four colons, as a ``.pgpass`` line has
    (``host:port:database:user:password``): looked for in the long words with all but
    their colons deleted (a word's colons then stand together), then word by word."""
    if b"::::" in scan.hay_bytes.translate(None, _NOT_COLON):
        for word in scan.words:
            if word.count(":") >= 4:
                scan.lines_of_word(word, into)


def _base64_lines(scan: Any, into: dict[int, int]) -> None:
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


def _stems(labels: set[bytes]) -> dict[bytes, tuple[bytes, ...]]:
    """Each label's first word (its stem: ``clave`` of ``clave de api``) and the labels that start so."""
    stems: dict[bytes, list[bytes]] = {}
    for label in sorted(labels):
        stems.setdefault(re.split(rb"[ '-]", label)[0], []).append(label)
    return {stem: tuple(group) for stem, group in stems.items()}


_LATIN_LABELS = _stems({label.lower().encode("latin-1") for label in LABELS if all(ord(c) < 256 for c in label)})
"""Labels in Latin-1, by stem: a stem the text lacks rules its labels out with one ``find``."""
_OTHER_LABELS = tuple(sorted({label.lower() for label in LABELS if any(ord(c) >= 256 for c in label)}))
_OTHER_SCRIPTS = re.compile("[" + "".join(sorted({c for label in _OTHER_LABELS for c in label if ord(c) >= 256})) + "]")
"""Any character of those labels: a text without one holds none of them (one quick search)."""


def _label_lines(scan: Any, into: dict[int, int]) -> None:
    """The lines that hold a label in another language, each label looked for by ``find``
    (in the lower-cased text; labels in other scripts only in a text that has them)."""
    lower = scan.lower
    for stem, labels in _LATIN_LABELS.items():
        if lower.find(stem) < 0:
            continue
        for label in labels:
            at = lower.find(label)
            while at >= 0:
                at = lower.find(label, scan.line_of(at, into))
    if _OTHER_LABELS and not scan.text.isascii() and _OTHER_SCRIPTS.search(scan.text):
        lowered = scan.text.lower()
        lowered = lowered if len(lowered) == len(scan.text) else scan.text
        for other in _OTHER_LABELS:
            at = lowered.find(other)
            while at >= 0:
                at = lowered.find(other, scan.line_of(at, into))


_BASE64 = re.compile(r"(?<![\w+/=.-])([A-Za-z0-9+/]{16,}={0,2})(?![\w+/=.-])")
"""A base64 blob: a Kubernetes Secret's ``data`` value, a value piped to ``base64 -d``."""

_KEYWORD = (
    r"api_?key|auth_?key|service_?key|account_?key|db_?key|database_?key|priv_?key|private_?key|client_?key"
    r"|db_?pass|database_?pass|key_?pass|password|passwd|pwd|secret|contrase(?:ñ|n)a"
)
"""Names whose value is a secret wherever they are assigned (the keyword list detect-secrets
made common; ``token`` and ``…-key`` names have rules of their own)."""
_SECRET_NAME = r"(?:" + _KEYWORD + r"|token)"
_NAME_AROUND = r"[\w.-]{0,60}?(?:%s)[\w.-]{0,60}"
"""A name that holds one of the words: at most 60 characters on either side, so a pattern
never reads a long word more than twice."""
PRIVATE_KEY = re.compile(
    r"-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d: |"
    r"-----BEGIN OPENSSH PRIVATE KEY-----")
"""Where a private key starts (its armour line; the detector takes it to its END line)."""
PRIVATE_KEY_END = re.compile(r"-----END[ A-Z0-9_-]{0,40}-----")
_HTPASSWD = re.compile(
    r"(?<!\S)[\w.@-]{1,64}:((?:\$(?:apr1|2[abxy]?|1|5|6|y|gy|7|sha1|md5)\$|\$argon2(?:id|i|d)\$|\{SHA\}|"
    r"\{SSHA\})[^\s:]{8,300})")
"""A password hash after its user name (an htpasswd or shadow line: apr1, bcrypt, sha-crypt,
yescrypt, argon2, ``{SHA}``): crackable offline, so never published."""
URL_PASSWORD = re.compile(
    r"(?<![\w+.-])[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:/@\"'<>]{0,128}:(\S{1,256})@(?=[\w\[.-])")
"""Credentials in a URL: the password is everything between the user's ``:`` and the last
``@`` before the host, so ``! # $ & ( ) + , ; = ? '`` inside it are part of it."""
_AWS_KEY_ID = r"(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])"
_AWS_PAIR = re.compile(_AWS_KEY_ID + r"[^\n]{0,80}?(?<![A-Za-z0-9/+=])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])")
"""An AWS secret key on the line of its key id, with or without a label (a credentials.csv
line ``user,AKIA…,<secret>``, ``AKIA… <secret>``)."""
_AWS_SECRET = re.compile(
    r"aws[\w.-]{0,40}?[\"']?[ \t]*(?::=|=>|=|:|,)[ \t]*[\"']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])", re.I)
_AZURE_STORAGE = re.compile(r"AccountKey=([A-Za-z0-9+/]{80,90}={0,2})")


def _label_pattern() -> re.Pattern[str]:
    """A label in another language (``DB 비밀번호:``, ``パスワード：``, ``mot de passe :``) and its value."""
    names = "|".join(sorted((re.escape(label).replace(r"\ ", r"[ \t]+") for label in LABELS), key=len, reverse=True))
    return re.compile(
        r"(?P<name>(?:" + names + r"))[ \t]*(?:\*\*)?[ \t]*"
        r"(?:[:：=]|는|은|は|为|為|ist|est|es|—|-)[ \t]*(?:\*\*)?[ \t]*"
        r"[\"'`「『“]?([^\s\"'`」』”,;，；。]{3,200})", re.I)


OWN_RULES: tuple[Rule, ...] = (
    Rule("rcaloop.private-key", "private-key", PRIVATE_KEY, ("PRIVATE KEY", "PuTTY-User-Key-File-"),
         spans_words=True),
    Rule("rcaloop.url-credentials", "connection-string", URL_PASSWORD, ("://",), group=1, check="url"),
    Rule("rcaloop.url-empty-user", "connection-string", re.compile(r"://:([^\s@/]{3,256})@"), ("://",), group=1),
    Rule("rcaloop.aws-key-pair", "aws-secret-key", _AWS_PAIR, ("AKIA", "ASIA", "ABIA", "ACCA", "A3T"), group=1,
         spans_words=True, check="value"),
    Rule("rcaloop.aws-secret-key", "aws-secret-key", _AWS_SECRET, ("aws",), group=1, spans_words=True, check="value"),
    Rule("rcaloop.aws-access-key-grouped", "aws-access-key", re.compile(
        r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)(?=[A-Z._-]{0,19}\d)(?:[._-][A-Z0-9]{4}){4}(?![A-Za-z0-9])"),
         ("AKIA", "ASIA", "ABIA", "ACCA")),
    Rule("rcaloop.azure-storage-key", "api-key", _AZURE_STORAGE, ("AccountKey=",), group=1),
    Rule("rcaloop.htpasswd", "password-hash", _HTPASSWD, ("$", "{SHA}", "{SSHA}"), group=1, spans_words=True,
         as_written=True),
    Rule("rcaloop.npm-auth-token", "token", re.compile(r"_authToken=([\w.+/=-]{16,})"), ("_authToken",), group=1),
    Rule("rcaloop.slack-webhook", "webhook-url", re.compile(
        _SCHEME + r"hooks\.slack\.com/(?:services|workflows|triggers)/" + _URL_TAIL + "+", re.I),
         ("hooks.slack.com",), keep_host=True),
    Rule("rcaloop.discord-webhook", "webhook-url", re.compile(
        _SCHEME + r"(?:[\w-]{1,63}\.)*discord(?:app)?\.com/api/webhooks/" + _URL_TAIL + "+"),
         ("/api/webhooks/",), keep_host=True),
    Rule("rcaloop.teams-webhook", "webhook-url", re.compile(
        _SCHEME + r"[\w.-]{0,253}\.office\.com/webhook(?:b2)?/" + _URL_TAIL + "+", re.I),
         (".office.com/webhook",), keep_host=True),
    Rule("rcaloop.google-chat-webhook", "webhook-url", re.compile(
        _SCHEME + r"chat\.googleapis\.com/v1/spaces/" + _URL_TAIL + "+"), ("chat.googleapis.com",), keep_host=True),
    Rule("rcaloop.webhook-url", "webhook-url", re.compile(
        r"(?:https?://[^\s/]{1,253}|(?<![\w./@-])[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,10})"
        r"/(?:[^\s?#/]{1,200}/){0,10}(?:hooks?|webhooks?)/"
        r"(?=[A-Za-z_-]{0,200}\d)(?=[\d_-]{0,200}[A-Za-z])[\w-]{16,}" + _URL_TAIL + "*", re.I), ("hook",),
         keep_host=True),
    Rule("rcaloop.query-token", "token", re.compile(
        r"[?&;#](?P<name>(?:[\w.-]{0,60}[_.-])?"
        r"(?:access_?token|token|api_?key|key|secret|sig|signature|auth|code|credential)s?)"
        r"=([^&#\s\"'<>()\[\]`]{6,})", re.I), ("=",), group=2, check="parameter"),
    Rule("rcaloop.query-password", "password", re.compile(
        r"[?&;](?P<name>[\w.-]{0,60}(?:password|passwd|pwd))=([^&#\s\"'<>()\[\]`]{3,})", re.I), ("=",), group=2,
         check="value"),
    Rule("rcaloop.authorization", "token", re.compile(
        r"\b(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?(?:(?:bearer|basic|token|bot|digest|apikey)[ \t]+)?"
        r"([A-Za-z0-9._~+/=-]{8,})", re.I), ("authorization",), group=1, check="assignment", spans_words=True),
    Rule("rcaloop.bearer", "token", re.compile(r"\bbearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)", re.I), ("bearer",),
         group=1, spans_words=True, check="value"),
    Rule("rcaloop.keyword-assignment", "secret", re.compile(
        r"(?<![\w.-])(?P<name>" + _NAME_AROUND % _KEYWORD + r")" + _ASSIGNED, re.I),
         ("key", "pass", "pwd", "secret", "contrase"), group=2, check="assignment", spans_words=True),
    # a DSL call that passes the value (Groovy, Gradle, Ruby: ``password 'x'``); a variable's name is no value
    Rule("rcaloop.quoted-argument", "secret", re.compile(
        r"(?<![\w.-])(?P<name>(?:[\w]{0,60}[_.-])?(?:password|passwd|secret|token|api_?key|apiKey))[ \t]+"
        r"([\"'])(?-i:(?![A-Z][A-Z0-9_]*[\"']))([^\s\"']{4,200})[\"']", re.I),
         ("pass", "pwd", "secret", "token", "key"), group=3, check="assignment", spans_words=True),
    Rule("rcaloop.token-assignment", "secret", re.compile(
        r"(?<![\w-])(?P<name>[\w-]{0,60}?(?:token|api-key|apikey|app[-_]?key|access-key|secret-key|auth-key"
        r"|private-key|client-secret)s?)" + _ASSIGNED, re.I),
         ("token", "-key", "apikey", "appkey", "app_key", "-secret"), group=2, check="assignment", spans_words=True),
    Rule("rcaloop.name-value-entry", "secret", re.compile(
        r"[\"']?\b(?:name|key)[\"']?[ \t]*[:=][ \t]*[\"']?(?P<name>" + _NAME_AROUND % _SECRET_NAME + r")[\"']?"
        r"[ \t]*(?:,[ \t]*|\n[ \t]*-?[ \t]*)[\"']?value[\"']?[ \t]*[:=][ \t]*[\"']?([^\s\"',}]+)", re.I),
         ("pass", "pwd", "secret", "token", "key"), group=2, check="value", spans_words=True, next_line=True),
    *(
        Rule("rcaloop.option-" + which, "secret", re.compile(
            r"(?<![\w-])--(?P<name>(?:[a-z0-9]{1,30}-){0,5}"
            r"(?:password|passwd|pass|token|secret|secret-id|api-?key|access-key|secret-key))"
            + separator + r"[\"']?([^\s\"'`]+)", re.I),
             ("pass", "pwd", "token", "secret", "key"), group=2, check=check, spans_words=True)
        for which, separator, check in _OPTION_VALUES
    ),
    Rule("rcaloop.command-password", "password", _COMMAND_PASSWORD, (" -",), group=-1, check="value",
         spans_words=True),
    Rule("rcaloop.stated-password", "secret", re.compile(
        r"(?<![\w-])(?P<name>(?:[\w-]{0,60}[_-])?"
        r"(?:password|passwd|passphrase|pwd|secret|token|api[ _-]?key|access[ _-]?key))s?"
        r"(?:[ \t]+(?:for|of|on)(?:[ \t]+[\w@.-]{1,100}){1,3}?)?[ \t]+"
        r"(?:(?:(?:is|was|has been|had been|got)[ \t]+)?(?:set|changed|reset|rotated|updated)[ \t]+to|"
        r"is|was|are|were|has been|had been|became|becomes)(?:[ \t]+(?:now|still))?"
        r"[ \t]+[\"'`]?([^\s\"'`,;]+)", re.I),
         ("pass", "pwd", "secret", "token", "key"), group=2, check="statement", spans_words=True),
    Rule("rcaloop.authorization-scheme", "token", re.compile(
        r"\b(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?[A-Za-z][\w.-]{0,30}[ \t]+([A-Za-z0-9._~+/=-]{8,})",
        re.I), ("authorization",), group=1, check="header", spans_words=True),
    Rule("rcaloop.key-credential", "secret", re.compile(
        r"(?<![\w.-])(?P<name>(?:[\w.-]{0,60}[_.-])?(?:key|Key|KEY|auth|Auth|AUTH)|[A-Za-z\d]{0,60}[a-z\d](?:Key|Auth))s?"
        + _ASSIGNED), ("key", "auth"), group=2, check="credential", spans_words=True),
    Rule("rcaloop.credentials", "secret", re.compile(
        r"(?<![\w.-])(?P<name>[\w.-]{0,60}credentials?)" + _ASSIGNED, re.I), ("credential",),
         group=2, check="credential"),  # "credentials:" is a long word: looked up among them
    Rule("rcaloop.pass-assignment", "secret", re.compile(
        r"(?<![\w.-])(?P<name>(?:[\w.-]{0,60}[_.-])?(?:pass|Pass|PASS)(?:phrase|code|PHRASE|CODE)?"
        r"|[A-Za-z\d]{0,60}[a-z\d]Pass(?:phrase|code)?)" + _ASSIGNED), ("pass",), group=2, check="password",
         spans_words=True),
    Rule("rcaloop.label", "secret", _label_pattern(), (), group=2, check="assignment", spans_words=True,
         lines=_label_lines, as_written=True),  # as written: folding look-alikes would turn "пароль" into Latin
    Rule("rcaloop.pgpass", "password", re.compile(
        r"(?<![\w.:/@-])(?![\da-fA-F:]{1,100}(?![\w.:/-]))(?!\d{1,2}:\d{2}[:.]\d{2})(?:[\w.-]{1,253}|\*):(?:\d{1,5}|\*):(?:[\w.-]{1,100}|\*)"
        r":(?:[\w.@-]{1,100}|\*):([^\s\"'`]+)"), (), group=1, check="value", lines=_pgpass_lines, as_written=True),
    Rule("rcaloop.base64", "secret", _BASE64, ("base64",), group=1, lines=_base64_lines, decoded=True,
         spans_words=True),
)  # fmt: skip
"""The context rules, in the order their findings win a tie."""

SHAPE_RULES: tuple[Rule, ...] = tuple(
    Rule("rcaloop." + shape.id, shape.type, shape.pattern, shape.needs, min_word=shape.min_word) for shape in SHAPES
)
"""Vendor shapes the project keeps of its own (``secret_shapes``)."""

RULES = OWN_RULES + SHAPE_RULES

