"""Whether a value a secret rule matched is a secret, or only names one.

A rule of the detector (``rcaloop.shared.secrets``) finds where a value is given: after a
secret-like name (``password: …``), in a query parameter (``?token=…``), as a command-line
password (``mysql -p…``) or in a sentence (``the password is …``). The forms differ in
how sure they are, so each rule names one ``Check``:

- ``assignment`` (``name: value``, ``name = value``): any value, but a plain word in prose
  (``the secret: payments/webhook-signing was rotated``) is no assignment; it counts when the
  name starts the line and the value ends it (YAML, a config line);
- ``value`` (a command-line password, a ``{name, value}`` entry): the form says it is one;
- ``parameter`` (a query parameter, a long option's value after a space): a plain word is a
  name (``?signature=db-pool-exhaustion``, ``psql --password mydb``);
- ``statement`` (``the admin password is …``): only a value that looks generated;
- ``header`` (``Authorization: Splunk <token>``, any scheme): any value but a plain word,
  a UUID included (a Splunk HEC token is one);
- ``credential`` (a name that only may hold a secret: ``…_KEY``, ``credentials``, ``auth``):
  a value that looks like a credential (``credential``), not a word, number or setting
  (``routing_key: orders.created``, ``auth: oauth2``), and no name of an ordinary key
  (``partition_key``, ``public_key``: ``ORDINARY_KEYS``);
- ``password`` (``pass=…``, a short name used for other things too): an assignment, but a
  number is a count (``pass=140 fail=3``), not a password.

Under every check a value is not a secret when it names the absence of one (``none``,
``REDACTED``, ``xxxx``), refers to one (``${TOKEN}``, ``{{ token }}``, ``os.environ[…]``),
states one's condition (``expired``, ``revoked``, ``stored-in-vault``, an error's name such
as ``TokenExpiredError``), says where one is kept (``/etc/tls/tls.key``,
``payments/webhook-signing``), is given to a name about a secret and does not look generated
(``SECRET_NAME: checkout-db``, ``PASSWORD_HASH_ALGO=argon2id``) or is an id (``api_key_id: 7``;
but a Vault ``secret_id`` is the role's password, so that name is never an id).
detect-secrets' own false-positive filters do most of it.
"""

from __future__ import annotations

import re
from typing import Literal

from detect_secrets.filters import heuristic

Check = Literal["assignment", "value", "parameter", "statement", "header", "credential", "password"]

PLACEHOLDERS = frozenset(
    {"none", "null", "nil", "true", "false", "empty", "redacted", "hidden", "masked", "unset", "required",
     "optional", "undefined", "example", "placeholder", "xxx", "xxxx", "xxxxx", "xxxxxx", "xxxxxxxx"}
)  # fmt: skip
"""Values that name the absence of a secret rather than being one."""
ERROR_WORDS = frozenset(
    {"invalid", "missing", "wrong", "incorrect", "unknown", "error", "exception", "failure", "fault", "mismatch",
     "forbidden", "timeout"}
)  # fmt: skip
"""Words of an error about a secret (so is any word ending in ``-ed``: ``expired``): an error's
name (``TokenExpiredError``, ``InvalidApiKeyException``) holds one."""
STATES = ERROR_WORDS | frozenset(
    {"active", "inactive", "valid", "present", "absent", "correct", "ok", "stale", "old", "new", "default", "blank",
     "pending", "live", "broken", "gone", "same", "different", "available", "unavailable", "rotating", "expiring",
     "working", "failing"}
)  # fmt: skip
"""Words that state a secret's condition (so does any word ending in ``-ed``: ``expired``)."""
FUNCTION_WORDS = frozenset(
    {"in", "at", "from", "by", "via", "of", "on", "to", "the", "a", "an", "see", "not", "no", "is", "was", "and",
     "or", "for", "with", "per", "into", "after", "before", "below", "above"}
)  # fmt: skip
"""Words of a sentence, not of a secret (``stored-in-vault``, ``--password and``)."""
KEY_FILES = frozenset(
    {"key", "pem", "crt", "cer", "der", "p12", "pfx", "jks", "keystore", "pub", "asc", "gpg", "kdbx", "env", "json",
     "yaml", "yml", "txt", "conf", "cfg", "ini", "properties", "toml"}
)  # fmt: skip
"""File name endings of a value that says where a key is kept (``tls.key``)."""

_PLAIN_WORD = re.compile(r"[A-Za-z]+(?:[-/._][A-Za-z]+)*")
_WORDS = re.compile(r"[A-Za-z]+(?:[-_][A-Za-z]+)*")
_CAMEL_WORD = re.compile(r"[A-Z][a-z]+|[A-Z]+(?![a-z])")
_CAMEL_WORDS = re.compile(f"(?:{_CAMEL_WORD.pattern}){{2,}}")
"""Words joined in PascalCase (``TokenExpiredError``, ``InvalidJWTSignature``): the names of
errors and classes a log quotes."""
_PATH = re.compile(r"(?:~|\.{1,2})?/?[\w.-]+(?:/[\w.-]+)*/?")
_GENERATED = re.compile(r"[A-Za-z0-9!@#$%^&*+=?~]{8,}")
_CREDENTIAL_ID = re.compile(r"secret[_-]?id\b", re.I)
_UUID_CREDENTIAL = re.compile(r"(?:token|key)s?\b", re.I)
"""A token's or a key's name: its value is a credential even when shaped like a UUID (a
Splunk HEC token, a Heroku API key)."""
_NAME = re.compile(r"[\w.-]+")
_NUMBER = re.compile(r"[\d.,:/%+-]+")
_LONG_TOKEN = re.compile(r"[A-Za-z\d+/]{16,}={0,2}")
_UUID = re.compile(r"[\da-fA-F]{8}(?:-[\da-fA-F]{4}){3}-[\da-fA-F]{12}")
ABOUT_A_SECRET = frozenset(
    {"name", "file", "path", "ref", "header", "ttl", "length", "type", "arn", "version", "count", "expiry", "rotation",
     "algo", "algorithm", "alg", "hasher", "scheme", "cipher", "policy", "rounds", "iterations", "cost", "strength",
     "complexity", "format", "encoding", "mode", "provider", "backend", "store", "source", "url", "endpoint"}
)  # fmt: skip
"""Last words of a name that is about a secret, not the secret: where it is kept or found
(``SECRET_NAME: checkout-db``, ``DB_PASSWORD_FILE``, ``TOKEN_URL``) and how it is made or
handled (``PASSWORD_HASH_ALGO=argon2id``, ``TOKEN_FORMAT``): its value is a secret only
when it looks generated."""
ORDINARY_KEYS = frozenset(
    {"public", "pub", "partition", "sort", "primary", "foreign", "shard", "cache", "idempotency", "object", "lookup",
     "dedup", "dedupe", "group", "message", "index", "unique", "composite", "row", "column", "join", "hot", "map",
     "dict", "hash", "range", "cluster", "distribution", "natural", "surrogate", "entity", "ssh-host", "host"}
)  # fmt: skip
"""First words of a key name that is no secret: a database, cache or message key, or a public
key (``partition_key: tenant-42``, ``public_key: ssh-ed25519 …``)."""
TRAILING = ".,;:!?)]}>*"
"""Punctuation that may follow a value in a sentence."""


def is_secret(check: Check, line: str, name_start: int, value_start: int, value: str, quoted: bool) -> bool:
    """Whether ``value``, matched at ``value_start`` of ``line`` after the name at
    ``name_start``, is a secret under ``check``."""
    if check == "statement" and not generated(value):  # the cheap test first: prose is long
        return False
    name = line[name_start:value_start]
    if check == "credential" and (_ordinary_key(line[:name_start], name) or not credential(value)):
        return False
    uuids = check not in ("header", "credential") and _UUID_CREDENTIAL.search(name) is None
    if _names_no_secret(value, line[name_start:], name, ids=check not in ("header", "credential"), uuids=uuids):
        return False
    if check in ("value", "statement", "credential"):
        return True
    plain = _PLAIN_WORD.fullmatch(value) is not None and not _mixed_case(value)
    if check in ("parameter", "header"):
        return not plain
    if check == "password" and _NUMBER.fullmatch(value):
        return False
    if quoted or "=" in line[name_start:value_start] or not plain:
        return True
    while name_start and (line[name_start - 1].isalnum() or line[name_start - 1] in "_-"):
        name_start -= 1
    starts = not line[:name_start].strip(" \t-*>#`'\"{[")
    ends = not line[value_start + len(value) :].strip(" \t" + TRAILING + "`'\"")
    return starts and ends


def _names_no_secret(value: str, assignment: str, name: str, ids: bool = True, uuids: bool = True) -> bool:
    """detect-secrets' filters, and values that name, place or describe a secret (an
    id-like string only with ``ids``, a UUID only with ``uuids`` too: a header's, a token's
    or a key's value may be shaped so)."""
    bare = value.strip("*.")
    credential_id = not ids or _CREDENTIAL_ID.search(name) is not None
    return (
        len(value) < 3
        or not bare
        or bare.lower() in PLACEHOLDERS
        or heuristic.is_templated_secret(value)
        or heuristic.is_prefixed_with_dollar_sign(value)
        or heuristic.is_not_alphanumeric_string(value)
        or heuristic.is_sequential_string(value)
        or (uuids and not credential_id and heuristic.is_potential_uuid(value))
        or (not credential_id and heuristic.is_likely_id_string(value, assignment))  # its own name, not the line's
        or heuristic.is_indirect_reference(assignment)
        or "[REDACTED:" in value
        or _describes(bare)
        or _location(bare)
        or (_about_a_secret(name) and not generated(bare))
    )


def _about_a_secret(name: str) -> bool:
    """Whether the name (``SECRET_NAME: ``) ends in a word of ``ABOUT_A_SECRET``."""
    m = _NAME.match(name)
    return m is not None and re.split(r"[_.-]", m.group().lower())[-1] in ABOUT_A_SECRET


def _describes(value: str) -> bool:
    """A state (``expired``, ``revoked``), a phrase (``stored-in-vault``) or an error's name
    (``TokenExpiredError``), not a secret. Words joined in PascalCase count only for an error:
    ``CorrectHorseBatteryStaple`` is a passphrase."""
    if not _WORDS.fullmatch(value):
        return False
    if _CAMEL_WORDS.fullmatch(value):
        return any(w in ERROR_WORDS or _past(w) for w in map(str.lower, _CAMEL_WORD.findall(value)))
    return any(w in STATES or w in FUNCTION_WORDS or _past(w) for w in re.split(r"[-_]", value.lower()))


def _past(word: str) -> bool:
    return len(word) >= 5 and word.endswith("ed")


def _location(value: str) -> bool:
    """A path or a key file's name (``/etc/tls/tls.key``, ``payments/webhook-signing``):
    where a secret is kept. A part that looks generated makes it a value again."""
    if "/" in value:
        shaped = _PATH.fullmatch(value) is not None
    else:
        shaped = "." in value and value.rpartition(".")[2].lower() in KEY_FILES
    return shaped and not any(generated(part) for part in re.split(r"[/.]", value))


def generated(value: str) -> bool:
    """Looks generated rather than written: eight or more letters, digits and symbols (no
    separator) switching between lower case, upper case and digits at least three times
    (``Kq7vR2xW9mZt``, ``P@ssw0rd``; not ``sha256sum``, ``k8s-prod-01`` or ``ISO8601``)."""
    if not _GENERATED.fullmatch(value):
        return False
    kinds = [0 if c.islower() else 1 if c.isupper() else 2 for c in value if c.isalnum()]
    return sum(a != b for a, b in zip(kinds, kinds[1:])) >= 3


def credential(value: str) -> bool:
    """Looks like a credential: generated (``generated``), a run of 16 or more letters and
    digits (both: a hex or base64 key), a UUID, or ``user:`` followed by one of these
    (``app:Kq7vR2xW9mZt``). Not a word, a number or a name joined by dots or hyphens."""
    bare = value.strip("'\"`")
    user, colon, rest = bare.partition(":")
    if colon and _NAME.fullmatch(user) and ":" not in rest:
        bare = rest
    if generated(bare) or _UUID.fullmatch(bare):
        return True
    return _LONG_TOKEN.fullmatch(bare) is not None and any(c.isdigit() for c in bare) and any(c.isalpha() for c in bare)


def _ordinary_key(before: str, name: str) -> bool:
    """Whether ``name`` (``partition_key: ``, or ``key: `` after ``the cache``) is a key of a
    kind that is no secret (``ORDINARY_KEYS``)."""
    m = _NAME.match(name.lstrip("\"'.`"))
    if m is None:
        return False
    words = [w for w in re.split(r"[_.-]|(?<=[a-z\d])(?=[A-Z])", m.group()) if w]
    if len(words) == 1:  # a bare key: the word before it in a sentence says which
        words = [*before.split()[-1:], *words]
    return len(words) >= 2 and words[-2].lower() in ORDINARY_KEYS


def _mixed_case(value: str) -> bool:
    """Letters only, but mixed case inside a long value (``wyNiPorvVrWncgkb``): generated, not a word."""
    return len(value) >= 10 and any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)


def secret_type(name: str) -> str:
    """The type of a secret given to ``name`` (a password, a token, a key …)."""
    name = name.lower()
    if "pass" in name or "pwd" in name or "contrase" in name or "cred" in name:
        return "password"
    if "priv" in name:
        return "private-key"
    if "token" in name:
        return "token"
    if "secret" in name or "docker" in name or name.endswith("auth"):
        return "secret"
    return "api-key"
