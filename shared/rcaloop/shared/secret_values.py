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
  number is a count (``pass=140 fail=3``), not a password;
- ``url`` (the password of a URL's credentials): any value but a placeholder or a reference
  (``postgres://app:${DB_PASSWORD}@db``, ``https://user:<password>@host``).

Under every check a value is not a secret when it names the absence of one (``none``,
``REDACTED``, ``xxxx``), refers to one (``${TOKEN}``, ``{{ token }}``, ``os.environ[…]``),
states one's condition (``expired``, ``revoked``, ``stored-in-vault``, an error's name such
as ``TokenExpiredError``), says where one is kept (``/etc/tls/tls.key``,
``payments/webhook-signing``), is given to a name about a secret and does not look generated
(``SECRET_NAME: checkout-db``, ``PASSWORD_HASH_ALGO=argon2id``) or is an id (``api_key_id: 7``;
but a Vault ``secret_id`` is the role's password, so that name is never an id).

Placeholders and references (``placeholder``, ``reference``) are no secret under any rule,
a vendor's token shape included: a documented example key (``AKIAIOSFODNN7EXAMPLE``), a
filler (``ghp_xxxx…``, ``sk_live_0000…``, ``YOUR_API_KEY_HERE``, ``<token>``, ``changeme``),
the name of a secret object given to a name about one (``secretName: api-shop-tls``,
``existingSecret: redis-auth``, ``k8s_token_secret: deployer-token``) and a path into a
secret store (``vault:secret/data/shop#api_key``, ``arn:aws:secretsmanager:…``,
``projects/p/secrets/db/versions/3``). A filler is a value whose body (after a vendor's
prefix) is one character repeated, or a short unit repeated; a real token holds runs too
(a Twitter bearer token starts with ``AAAAAAAA…``), so a run counts only when it is the
whole body.
"""

from __future__ import annotations

import re
import string
from itertools import pairwise
from typing import Literal

from rcaloop.shared.secret_labels import LABELS, NO_VALUE

_LABEL_TYPES = sorted(((label.lower(), type_) for label, type_ in LABELS.items()), key=lambda lt: -len(lt[0]))
"""Labels in other languages, longest first (``clave de API`` before ``clave``)."""

Check = Literal["assignment", "value", "parameter", "statement", "header", "credential", "password", "url"]

PLACEHOLDERS = frozenset(
    {"none", "null", "nil", "true", "false", "empty", "redacted", "hidden", "masked", "unset", "required",
     "optional", "undefined", "example", "placeholder", "xxx", "xxxx", "xxxxx", "xxxxxx", "xxxxxxxx", "changeme",
     "change-me", "change_me", "changeit", "your-token", "your-password", "your-secret", "dummy", "fake", "sample",
     "todo", "tbd", "n/a", "notset", "not-set", "omitted", "withheld", "elided", "censored", "obfuscated",
     "sanitized", "sanitised", "scrubbed", "removed", "nothing", "replace-me", "replaceme"} | NO_VALUE
)  # fmt: skip
"""Values that name the absence of a secret rather than being one."""
URL_PLACEHOLDERS = frozenset({"password", "passwd", "pass", "pwd", "secret", "user", "username", "token", "pw"})
"""A URL's password that documents the form (``postgres://user:password@localhost``)."""
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
     "complexity", "format", "encoding", "mode", "provider", "backend", "store", "source", "url", "endpoint",
     "variable", "var", "env"}
)  # fmt: skip
"""Last words of a name that is about a secret, not the secret: where it is kept or found
(``SECRET_NAME: checkout-db``, ``DB_PASSWORD_FILE``, ``TOKEN_URL``) and how it is made or
handled (``PASSWORD_HASH_ALGO=argon2id``, ``TOKEN_FORMAT``): its value is a secret only
when it looks generated."""
ORDINARY_KEYS = frozenset(
    {"public", "pub", "partition", "sort", "primary", "foreign", "shard", "cache", "idempotency", "object", "lookup",
     "dedup", "dedupe", "group", "message", "index", "unique", "composite", "row", "column", "join", "hot", "map",
     "dict", "hash", "range", "cluster", "distribution", "natural", "surrogate", "entity", "ssh-host", "host",
     "publishable", "csrf", "xsrf"}
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
    if check == "url":
        return not (value.lower() in PLACEHOLDERS | URL_PLACEHOLDERS or placeholder(value) or "[REDACTED:" in value)
    if reference(_word_at(line, name_start)):  # inside a store path (``arn:aws:secretsmanager:…:secret:…``)
        return False
    name = line[name_start:value_start]
    if check == "credential" and (_ordinary_key(line[:name_start], name) or not credential(value)):
        return False
    if check == "assignment" and _last_word(name) in ("token", "key") and _ordinary_key(line[:name_start], name):
        return False  # ``publicToken``, ``csrf-token``
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
        or bare[0] in "{["  # a mapping or a list that follows the name (``secretKeyRef: {name: …}``)
        or not any(c.isascii() and c.isalnum() for c in bare)  # prose of another script (``無効です``)
        or bare.lower() in PLACEHOLDERS
        or placeholder(value)
        or reference(value)
        or not any(c.isalnum() for c in value)
        or _sequential(value)
        or (uuids and not credential_id and _UUID_IN.search(value) is not None)
        or (not credential_id and _ID_NAME.search(assignment, 0, max(assignment.find(value), 0)) is not None)
        or (len(assignment) <= 1000 and _INDIRECT.search(assignment) is not None)
        or "[REDACTED:" in value
        or _describes(bare)
        or _location(bare)
        or (_about_a_secret(name) and not generated(bare))
        or (_names_an_object(name) and _object_name(bare))
    )


_SEQUENCES = (
    string.ascii_uppercase * 2 + string.digits + "+/", string.digits + string.ascii_uppercase * 2 + "+/",
    (string.digits + string.ascii_uppercase) * 2, string.digits * 2, string.hexdigits.upper() * 2,
    string.ascii_uppercase + "=/",
)  # fmt: skip
_UUID_IN = re.compile(r"[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}", re.I)
_ID_NAME = re.compile(r"(?:^(?:id|myid|userid)|_id)s?[^a-z0-9]", re.I)
"""A name that ends in ``_id`` (``api_key_id: 7``): its value is an id."""
_INDIRECT = re.compile(r"(?::=?|[!=]{1,3})[ \t]*[\w.-]{1,200}[\[(][^\n]{0,500}[\])]")
"""A value that calls or indexes something (``os.environ["TOKEN"]``, ``get_secret()``)."""


def _sequential(value: str) -> bool:
    """An alphabet or digits in order (``ABCDEF``, ``123456``): a filler, not a secret."""
    upper = value.upper()
    return any(upper in sequence for sequence in _SEQUENCES)


_FILLER_CHARS = frozenset("xX*#.0•-_")
_VARIABLE = re.compile(r"\$(?:\{|\(|[A-Za-z_][A-Za-z0-9_]*$)")
"""A shell or template variable (``$TOKEN``, ``${TOKEN}``, ``$(cat token)``), not a hash (``$apr1$…``)."""
_EXAMPLE = re.compile(r"example|sample|dummy|fake|placeholder|your[_-]?[a-z_-]{0,30}here|redacted|xxxx|\*\*\*", re.I)
_VENDOR_PREFIX = re.compile(r"^(?:[A-Za-z]{2,12}[_-](?:[A-Za-z]{2,8}[_-]){0,3}|[A-Z]{4}(?=[A-Z0-9]{16}$)|eyJ)")
_TEMPLATE = re.compile(
    r"^(?:\$\{[^}]{1,200}\}|\$\(.{1,200}\)|\{\{.{1,200}\}\}|\$\{\{.{1,200}\}\}|<[^<>]{1,200}>|%[\w.-]{1,100}%"
                       r"|\[[^\[\]]{1,100}\]|\{[\w .|-]{1,100}\}|@[\w.-]{1,100}@)$")


def placeholder(value: str) -> bool:
    """A value written in place of a secret: a template (``${TOKEN}``, ``{{ token }}``,
    ``<token>``, ``[Redacted]``), a ``$`` reference, a documented example
    (``AKIAIOSFODNN7EXAMPLE``, ``YOUR_API_KEY_HERE``), or a filler whose body after a
    vendor's prefix is one character repeated or a short unit repeated (``ghp_xxxx…``,
    ``sk_live_0000…``, ``XXXX-XXXX``). A body with a run and other characters is no filler
    (a Twitter bearer token starts with ``AAAAAAAA…``)."""
    bare = value.strip("\"'`")
    if len(bare) > 512:  # a placeholder is short; a long run of one character is none either
        return len(set(bare)) == 1
    if not bare or _VARIABLE.match(bare) or _TEMPLATE.match(bare) or _EXAMPLE.search(bare):
        return True
    body = _VENDOR_PREFIX.sub("", bare, count=1) if len(bare) > 8 else bare
    core = re.sub(r"[-_.:/]", "", body)
    if len(core) < 4:
        return not core or set(core) <= _FILLER_CHARS
    if len(set(core)) == 1 or set(core) <= _FILLER_CHARS:
        return True
    most = max(set(core), key=core.count)
    if core.count(most) * 10 >= len(core) * 7 and (_sequential(rest := core.replace(most, "")) or len(rest) <= 2):
        return True  # "0000…0000TUVWXYZ": a run and a tail in order
    for unit in range(2, 5):  # "abab…", "1234" repeated
        if len(core) >= unit * 3 and core == (core[:unit] * (len(core) // unit + 1))[: len(core)]:
            return True
    return False


_STORE_PATH = re.compile(
    r"^(?:vault:|ref\+|sm://|ssm:|secretsmanager:|awssm:|gcpsm:|akv:|azure-keyvault:|op://|doppler://|"
    r"arn:aws[\w-]*:(?:secretsmanager|ssm|kms):|projects/[\w.-]{1,100}/secrets/|"
    r"(?:secret|kv|kv-v2|secrets|vault)/(?:data/|metadata/)?[\w.-]{1,100}(?:/[\w.-]{1,100}){0,10}(?:#[\w.-]{1,100})?$|"
    r"https://[\w.-]{1,100}\.vault\.azure\.net/secrets/)", re.I)


def reference(value: str) -> bool:
    """A path into a secret store, where a secret is kept, not the secret (``vault:secret/data/
    shop#api_key``, ``arn:aws:secretsmanager:…``, ``op://vault/item/field``)."""
    return _STORE_PATH.match(value.strip("\"'`")) is not None


_OBJECT_NAMES = re.compile(
    r"(?:secret|token|key|cred(?:ential)?s?|auth|tls|cert(?:ificate)?)[_.-]?(?:name|ref|secret|s)?$"
    r"|^(?:existing|external|tls|image[_-]?pull|pull|auth|k8s|kube|sealed|vault)[_-]?\w{0,40}secrets?"
    r"|secret[_-]?(?:name|ref|key[_-]?ref|store|provider|id[_-]?ref)$", re.I)
_OBJECT = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,251}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?){0,10}")
"""A Kubernetes object's name: lower case, digits, hyphens and dots (``api-shop-tls``)."""


_PASSWORD_KEY_NAME = re.compile(r"(?:password|passwd)[_.-]?(?:key|ref|name|field|property|secret)$", re.I)
"""The name of the key under which a password is kept (``existingSecretPasswordKey``)."""


def _names_an_object(name: str) -> bool:
    """A name about a secret object rather than its value: ``secretName``, ``existingSecret``,
    ``k8s_token_secret``, ``tls_secret``, ``imagePullSecrets``, ``existingSecretPasswordKey``
    (not ``password``)."""
    m = _NAME.match(name.lstrip("\"'.`-"))
    if m is None:
        return False
    if re.search(r"pass|pwd|contrase", m.group(), re.I):
        return _PASSWORD_KEY_NAME.search(m.group()) is not None
    return _OBJECT_NAMES.search(m.group()) is not None


_NON_SPACE = re.compile(r"\S*")


def _word_at(text: str, at: int) -> str:
    """The whitespace-delimited word of ``text`` that holds position ``at``."""
    start = max(text.rfind(" ", 0, at), text.rfind("\t", 0, at), text.rfind("\n", 0, at)) + 1
    return text[start : _NON_SPACE.match(text, at).end()]  # type: ignore[union-attr]


def _object_name(value: str) -> bool:
    """A value shaped as an object's name with a separator in it (``api-shop-tls``,
    ``redis-auth``, ``deployer-token``) and no part that looks generated."""
    return (
        _OBJECT.fullmatch(value) is not None
        and ("-" in value or "." in value)
        and not any(credential(part) for part in re.split(r"[-.]", value))
    )


def _last_word(name: str) -> str:
    """The last word of a name (``SECRET_NAME`` → ``name``, ``passwordVariable`` → ``variable``)."""
    m = _NAME.match(name.lstrip("\"'.`"))
    return "" if m is None else re.split(r"[_.-]|(?<=[a-z\d])(?=[A-Z])", m.group())[-1].lower()


def _about_a_secret(name: str) -> bool:
    """Whether the name (``SECRET_NAME: ``) ends in a word of ``ABOUT_A_SECRET``."""
    return _last_word(name) in ABOUT_A_SECRET


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
    return sum(a != b for a, b in pairwise(kinds)) >= 3


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
    """The type of a secret given to ``name`` (a password, a token, a key …; a label in
    another language gives its own, ``secret_labels``)."""
    name = name.lower()
    for label, type_ in _LABEL_TYPES:
        if label in name:
            return type_
    if "pass" in name or "pwd" in name or "contrase" in name or "cred" in name:
        return "password"
    if "priv" in name:
        return "private-key"
    if "token" in name:
        return "token"
    if "secret" in name or "docker" in name or name.endswith("auth"):
        return "secret"
    return "api-key"
