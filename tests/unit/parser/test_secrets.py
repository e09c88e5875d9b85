"""The one secret detector (``rcaloop.shared.secrets``): what it finds, what it leaves, and
that every place rcaloop stores or logs text goes through it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import structlog

from rcaloop.contracts import DeadLetter, EvidenceArtifact, RawResult, analysis_hash
from rcaloop.ingestion import core as ingestion
from rcaloop.ingestion.app import dead_letter
from rcaloop.shared.logs import configure_logging
from rcaloop.shared.markup_view import rendered_view
from rcaloop.shared.secret_shapes import SHAPES
from rcaloop.shared.secret_values import ABOUT_A_SECRET, ERROR_WORDS, ORDINARY_KEYS
from rcaloop.shared.secrets import (
    TYPES,
    redact_dead_letter,
    redact_json,
    redact_record,
    redact_text,
)
from tests.unit.parser.helpers import BASE, EXAMPLES, parse

SECRETS = {
    "aws-access-key": "AKIAQ3EGRT7PLMN4XWZY",
    "github": "ghp_R8mZq2LvX9tWc4NbY7kHs1JdF6gPa3Ue5Ko0",
    "gitlab": "glpat-x9Kq2LmW7pRt3VzY8bNc",
    "slack-token": "xoxb-2044721865-4096212837-Zq8rT2vLw9NcY4bHk6sMd3Jx",
    "stripe": "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "telegram": "5829104473:AAFj3kR9wXq2LmZ8vN4tYb6Hc1Ud7Pe0Sgo",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZXBsb3kifQ.Q2xv7bN9fK3sT8wYpR4mZ1cV6hJ0dL5gX2aE7uI9oWq",
    "sendgrid": "SG.aBcDeFgHiJkLmNoPqRsTuV.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789aBcDeFg",
}
LINES = [
    ("aws key {aws-access-key} in the log", "aws-access-key", "{aws-access-key}"),
    ("GH_TOKEN={github}", "token", "{github}"),
    ("push with {gitlab}", "token", "{gitlab}"),
    ("bot {slack-token}", "token", "{slack-token}"),
    ("stripe {stripe}", "api-key", "{stripe}"),
    ("telegram {telegram} bot", "token", "{telegram}"),
    ("Authorization: Bearer {jwt}", "token", "{jwt}"),
    ("sendgrid {sendgrid}", "api-key", "{sendgrid}"),
    ("db_password = 'Pool-Secret-8812'", "password", "Pool-Secret-8812"),
    ("  password: correcthorsebattery", "password", "correcthorsebattery"),
    ("**Password:** Ch3ck0ut!2026", "password", "Ch3ck0ut!2026"),
    ("x-api-key: 9f8e7d6c5b4a39281706", "api-key", "9f8e7d6c5b4a39281706"),
    ("DD_APP_KEY=9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c", "api-key", "9f8e7d6c5b4a39281706"),  # no vendor prefix
    ("postgres://checkout:Pg5ecretW0rd@db:5432/shop", "connection-string", "Pg5ecretW0rd"),
    ("redis://:Rd5ecretW0rd@cache:6379", "connection-string", "Rd5ecretW0rd"),
    ("https://hooks.slack.com/services/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", "webhook-url",
     "Xq8ZrT2vLw9NcY4bHk6sMd3J"),
    ("https://discord.com/api/webhooks/1234567890/AbCdEf-GhIjKl_MnOpQrStUvWxYz0123", "webhook-url", "AbCdEf-GhIjKl"),
    ("https://chat.example/hooks/a1b2c3d4e5f6g7h8i9j0k1l2m3", "webhook-url", "a1b2c3d4e5f6g7h8i9j0k1l2m3"),
    ("GET https://api.example/v1/x?page=2&access_token=Zx81Kq0LmW7pRt3V", "token", "Zx81Kq0LmW7pRt3V"),
    ("key AKIAQ3EGRT7P\u200bLMN4XWZY split", "aws-access-key", "LMN4XWZY"),
    ("the bastion (used password: wyNiPorvVrWncgkb) since", "password", "wyNiPorvVrWncgkb"),
    ("secret_id was reset; password: 7zZ9BcrHGA36uFxN now", "password", "7zZ9BcrHGA36uFxN"),
    # markup that renders as nothing does not split a key: the source span is redacted whole
    ("key AKIA**Q3EG**RT7PLMN4XWZY is active", "aws-access-key", "RT7PLMN4XWZY"),
    ("key AKIA`Q3EG`RT7PLMN4XWZY is active", "aws-access-key", "RT7PLMN4XWZY"),
    ("key AKIA[Q3EGRT7P](#)LMN4XWZY is active", "aws-access-key", "LMN4XWZY"),
    ("key AKIA![Q3EG](x.png)RT7PLMN4XWZY is active", "aws-access-key", "RT7PLMN4XWZY"),
    ("key AKIA<b>Q3EG</b>RT7PLMN4XWZY is active", "aws-access-key", "RT7PLMN4XWZY"),
    ('key AKIA<span class="k">Q3EG</span>RT7PLMN4XWZY is active', "aws-access-key", "RT7PLMN4XWZY"),
    ("key AKIA<!-- split -->Q3EGRT7PLMN4XWZY is active", "aws-access-key", "Q3EGRT7PLMN4XWZY"),
    ("key AKIA&#81;3EGRT7PLMN4XWZY is active", "aws-access-key", "3EGRT7PLMN4XWZY"),
    ("key AKIAQ3EG\ufe0fRT7PLMN4XWZY (variation selector)", "aws-access-key", "RT7PLMN4XWZY"),
    ("key AKIAQ3EG\u034fRT7PLMN4XWZY (grapheme joiner)", "aws-access-key", "RT7PLMN4XWZY"),
    ("key AKIAQ3EG\U000e0041RT7PLMN4XWZY (tag character)", "aws-access-key", "RT7PLMN4XWZY"),
    ("key AKIAQ3EG\u3164RT7PLMN4XWZY (Hangul filler)", "aws-access-key", "RT7PLMN4XWZY"),
    # a backslash escape renders as the character: the token is whole on screen
    ("the CI token ghp\\_R8mZq2LvX9tWc4NbY7kHs1JdF6gPa3Ue5Ko0 is live", "token",
     "R8mZq2LvX9tWc4NbY7kHs1JdF6gPa3Ue5Ko0"),
    ("bot xoxb\\-2044721865\\-4096212837\\-Zq8rT2vLw9NcY4bHk6sMd3Jx", "token", "Zq8rT2vLw9NcY4bHk6sMd3Jx"),
    # a look-alike letter reads as the letter: the name, the key and its separators as a reader sees them
    ("the admin p\u0430ssword: Kq7vR2xW9mZt", "password", "Kq7vR2xW9mZt"),  # Cyrillic а
    ("\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44: Kq7vR2xW9mZt (full width)", "password", "Kq7vR2xW9mZt"),
    ("\U0001d42d\U0001d428\U0001d424\U0001d41e\U0001d427=Zq8rT2vLw9NcY4bHk6sMd3Jx (mathematical bold)", "token",
     "Zq8rT2vLw9NcY4bHk6sMd3Jx"),
    ("p\u0430\u0301ssword: Kq7vR2xW9mZt (an accent too)", "password", "Kq7vR2xW9mZt"),
    ("p**\u0430**ssword: Kq7vR2xW9mZt (and markup)", "password", "Kq7vR2xW9mZt"),
    ("p[\u0430](#)ssword: Kq7vR2xW9mZt (and a link)", "password", "Kq7vR2xW9mZt"),
    ("p&#1072;ssword: Kq7vR2xW9mZt (an entity of one)", "password", "Kq7vR2xW9mZt"),
    ("key AKI\u0410Q3EGRT7PLMN4XWZY in the log", "aws-access-key", "Q3EGRT7PLMN4XWZY"),  # Cyrillic А
    ("bot xoxb\u20102044721865\u20104096212837\u2010Zq8rT2vLw9NcY4bHk6sMd3Jx", "token", "Zq8rT2vLw9NcY4bHk6sMd3Jx"),
    ("password\uff1aKq7vR2xW9mZt (a full-width colon)", "password", "Kq7vR2xW9mZt"),
    # a {name, value} entry assigns the value to the name
    ('env: [{"name": "DB_PASSWORD", "value": "Kq7vR2xW9mZt"}]', "password", "Kq7vR2xW9mZt"),
    ("env: {name: API_TOKEN, value: plainwordtoken}", "token", "plainwordtoken"),
    # command-line passwords
    ("mysql -h db.prod -u checkout -pKq7vR2xW9mZt checkout", "password", "Kq7vR2xW9mZt"),
    ("sshpass -p 'Kq7vR2xW9mZt' ssh deploy@bastion", "password", "Kq7vR2xW9mZt"),
    ("redis-cli -h cache -a Kq7vR2xW9mZt ping", "password", "Kq7vR2xW9mZt"),
    ("docker login -u ci -p Kq7vR2xW9mZt registry.example", "password", "Kq7vR2xW9mZt"),
    ("ldapsearch -x -D cn=admin -w Kq7vR2xW9mZt -b dc=example", "password", "Kq7vR2xW9mZt"),
    ("curl -u admin:Kq7vR2xW9mZt http://checkout-api:8080/admin/pool", "password", "Kq7vR2xW9mZt"),
    ("az login -u ci@example.com -p Kq7vR2xW9mZt", "password", "Kq7vR2xW9mZt"),
    ("openssl enc -aes-256-cbc -in backup.tar -pass pass:Kq7vR2xW9mZt", "password", "Kq7vR2xW9mZt"),
    ("vault write auth/approle/login --secret-id 7c1e4b2a-9f3d-4e8a-b6c5-d4e3f2a1b0c9", "secret", "7c1e4b2a"),
    ("curl --user=admin:hunter2hunter http://x", "password", "hunter2hunter"),
    ("wget --password=plainword http://x", "password", "plainword"),
    ("docker login --password Kq7vR2xW9mZt registry.example", "password", "Kq7vR2xW9mZt"),
    ("vault login --token hvs.CAESIJ9x2Kq7vR2xW9mZt", "token", "hvs.CAESIJ9x2Kq7vR2xW9mZt"),
    # a generated value stated in a sentence
    ("the admin password is Kq7vR2xW9mZt since the 13:55 reset", "password", "Kq7vR2xW9mZt"),
    ("the DB password was changed to P@ssw0rd2026 by the job", "password", "P@ssw0rd2026"),
    ("the api key for the billing service is now aB3dE5fG7hJ9 per the runbook", "api-key", "aB3dE5fG7hJ9"),
    # a webhook without its scheme, a Vault AppRole secret_id (the role's password, not an id)
    ("pasted hooks.slack.com/services/T01ABCDEF/B02GHIJKL/aBcDeFgHiJkLmNoPqRsTuVwX; rotate it", "webhook-url",
     "aBcDeFgHiJkLmNoPqRsTuVwX"),
    ("vault write auth/approle/login role_id=ci secret_id=7c1e4b2a-9f3d-4e8a-b6c5-d4e3f2a1b0c9", "secret",
     "7c1e4b2a-9f3d-4e8a-b6c5-d4e3f2a1b0c9"),
    ("SECRET_NAME: Kq7vR2xW9mZt", "secret", "Kq7vR2xW9mZt"),  # a generated value, whatever the name says
    ("PASSWORD_HASH_ALGO=Kq7vR2xW9mZt", "password", "Kq7vR2xW9mZt"),
    # words joined in PascalCase are a passphrase unless they name an error
    ("the bastion password: CorrectHorseBatteryStaple since", "password", "CorrectHorseBatteryStaple"),
    # an Authorization header of any scheme: the value is the credential (a UUID too)
    ('curl -H "Authorization: Splunk 7c1f2d3e-4f5a-6b7c-8d9e-0a1b2c3d4e5f" https://hec:8088', "token", "7c1f2d3e-4f5a"),
    ("curl -H 'Authorization: SSWS 00QCjAl4MlVwPXMaBcDeFgH1234567890abcdefJk' https://acme.okta.com", "token",
     "00QCjAl4MlVwPXMaBcDeFgH1234567890abcdefJk"),
    # a key's, credential's or pass's name with a value that looks like one
    ("env: SESSION_ENCRYPTION_KEY=S3E3dlIyeFc5bVp0THBONHNLMWFCNmNEMGVGNWdI DB_POOL_MAX=5", "api-key", "S3E3dlIyeFc5"),
    ("master_key: Kq7vR2xW9mZt", "api-key", "Kq7vR2xW9mZt"),
    ("hmac_key=9f2c1a7b3e5d8f0a1b2c3d4e5f6a7b8c", "api-key", "9f2c1a7b3e5d8f0a1b2c3d4e5f6a7b8c"),
    ('license_key: "Kq7vR2xW9mZtLpN4"', "api-key", "Kq7vR2xW9mZtLpN4"),
    ("integration_key: 7c1f2d3e-4f5a-6b7c-8d9e-0a1b2c3d4e5f", "api-key", "7c1f2d3e-4f5a"),
    ("SPLUNK_HEC_TOKEN=7c1f2d3e-4f5a-6b7c-8d9e-0a1b2c3d4e5f", "token", "7c1f2d3e-4f5a"),  # a UUID-shaped token
    ("routing_key: 9f2c1a7b3e5d8f0a1b2c3d4e5f6a7b8c", "api-key", "9f2c1a7b3e5d8f0a1b2c3d4e5f6a7b8c"),
    ('{"masterKey": "Kq7vR2xW9mZt"}', "api-key", "Kq7vR2xW9mZt"),
    ("shop = host=db-primary dbname=shop user=app pass=Kq7vR2xW9mZt pool_size=5", "password", "Kq7vR2xW9mZt"),
    ("  pass: hunter2", "password", "hunter2"),
    ("connection test with credentials: app:Kq7vR2xW9mZt failed", "password", "Kq7vR2xW9mZt"),
    ('"auth": "YWRtaW46S3E3dlIyeFc5bVp0"', "secret", "YWRtaW46S3E3dlIyeFc5bVp0"),
    # a .pgpass line ends in its password; an AWS key in groups is the key
    ("db-replica.prod:5432:shop:app:Kq7vR2xW9mZt", "password", "Kq7vR2xW9mZt"),
    ("*:*:*:replicator:Kq7vR2xW9mZt", "password", "Kq7vR2xW9mZt"),
    ("the exporter logged AKIA-Q3EG-RT7P-LMN4-XWZY before the 403s", "aws-access-key", "Q3EG-RT7P-LMN4-XWZY"),
    ("the exporter logged AKIA.Q3EG.RT7P.LMN4.XWZY", "aws-access-key", "Q3EG.RT7P.LMN4.XWZY"),
    # base64 whose decoded text holds a secret, or a generated word piped to a decoder
    ("data: tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t tls.key: "
     "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFcEFJQkFBS0NBUUVBc2s3dlIyeFc5bVp0THBONHNLMWFCNmNEMGVGNWdI",
     "private-key", "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVkt"),
    (".dockerconfigjson: eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxlIjp7ImF1dGgiOiJZV1J0YVc0NlMzRTNkbEl5ZUZjNWJWcDAifX19",
     "secret", "eyJhdXRocyI6eyJyZWdpc3RyeS5l"),
    ("  DATABASE_URL: cG9zdGdyZXM6Ly9hcHA6S3E3dlIyeFc5bVp0QGRiOjU0MzIvc2hvcA==", "connection-string",
     "cG9zdGdyZXM6Ly9hcHA6S3E3dlIyeFc5bVp0QGRiOjU0MzIvc2hvcA"),
    ("echo S3E3dlIyeFc5bVp0 | base64 -d", "password", "S3E3dlIyeFc5bVp0"),
    ("base64 --decode <<< 'S3E3dlIyeFc5bVp0'", "password", "S3E3dlIyeFc5bVp0"),
]


def _fill(text: str) -> str:
    for name, value in SECRETS.items():
        text = text.replace("{" + name + "}", value)
    return text


@pytest.mark.parametrize(("line", "type_", "value"), LINES, ids=[t for _, t, _ in LINES])
def test_each_kind_is_found_typed_and_redacted(line, type_, value):
    line, value = _fill(line), _fill(value)
    done = redact_text("before\n" + line + "\nafter")
    assert [(f.type, f.line) for f in done.found] == [(type_, 2)], done.found
    assert value not in done.text and f"[REDACTED:{type_}:{done.found[0].rule}]" in done.text
    assert done.text.startswith("before\n") and done.text.endswith("\nafter")
    assert type_ in TYPES
    again = redact_text(done.text)  # idempotent: the marker reads back as the same finding
    assert again.text == done.text and again.found == done.found


@pytest.mark.parametrize(
    "text",
    [
        "vault audit: `rotate secret/payments/webhook-signing` at 08:10",
        "the secret: payments/webhook-signing was rotated",
        "password: rotated yesterday by the on-call",
        "Secrets: none; token: none",
        'role reads secret_id: "{{ vault_secret_id }}" and api_key=${CHECKOUT_API_KEY}',
        "api_key_id: 1234567",
        "sensitive_data: config:private-key, logs:token",
        "commit 9d1e0a7c4b2f8e6a1d3c5b7e9f0a2c4e6b8d0f1a, see /srv/checkouts/shop/notifier/keys.py line 88",
        "https://git.example/org/shop/blob/4f2c9e1/notifier/hooks/webhook_sender.py#L3",
        # values the agent withheld or templated
        "the deploy hook was called as `/hooks/deploy?token=REDACTED` (value withheld)",
        "the retry job calls `/api/pool/reset?token=${POOL_TOKEN}`; the bot reads `?token={{token}}`",
        # a state, a place or a name, not a value
        "- token: expired",
        "- **Token:** revoked",
        "  password: stored-in-vault",
        "- signing-secret: payments/webhook-signing",
        "the sidecar reads `private-key: /etc/tls/tls.key` and `secret-key: /run/secrets/app.key`",
        "  private_key: tls.key",
        "matched signature: https://sigmatch.example/match?signature=db-pool-exhaustion",
        "see https://grafana.example/d/pool?orgId=1&page=2&key=overview",
        # prose and commands that name a password without giving one
        "the password is rotated every 90 days; the token is valid; the secret is sha256-hashed",
        "the password was too-short and the api key is in vault",
        "psql --password checkout (prompts for it)",
        "mysql -p -h db.prod checkout",
        "docker login --password-stdin < token.txt",
        "docker run -u 1000:1000 checkout-api",
        "openssl pkcs12 -passin env:P12_PASS -in a.p12; openssl rsa -passin file:/run/secrets/key.pass",
        # a name about a secret (its name, file, header) with a value that does not look generated
        "SECRET_NAME: checkout-db",
        "- name: DB_PASSWORD_FILE\n  value: /run/secrets/db",
        "API_KEY_HEADER: X-Api-Key",
        "vault audit: approle login denied role_id=deploy-ci reason=secret_id expired",
        "secret_id_accessor=7c1e4b2a-9f3d-4e8a-b6c5-d4e3f2a1b0c9",
        "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef: {name: checkout-db, key: password}",
        # underscores inside a word are not emphasis, so they never join one
        "region ASIA_PACIFIC_REGION_NAME_PRIMARY, setting db.pool.max_size",
        # an error's name quoted from a log, and settings about a password, not a password
        "the auth sidecar logged `invalid token: TokenExpiredError` twice",
        "jwt verify failed: token: JsonWebTokenError; api_key: InvalidApiKeyException; token: ExpiredToken",
        "the auth service runs with PASSWORD_HASH_ALGO=argon2id and PASSWORD_POLICY=strict-v2",
        "TOKEN_URL=https://auth.example/oauth2/token, SECRET_PROVIDER=aws-sm",
        # escapes and other scripts that hold no secret
        "the path is C:\\Users\\svc\\token.txt and the glob \\*.key matched nothing",
        "\u043f\u0430\u0440\u043e\u043b\u044c \u0441\u043c\u0435\u043d\u0451\u043d, \u0442\u043e\u043a\u0435\u043d: "
        "\u043d\u0435\u0442",
        "\ube44\ubc00\ubc88\ud638 \ubcc0\uacbd\ub428; \ud1a0\ud070: \uc5c6\uc74c",
        "\u539f\u56e0\uff1a\u6570\u636e\u5e93\u8fde\u63a5\u6c60\u8017\u5c3d",
        # words that start like a vendor's token but are not one
        "the pod s.makeKubeConfigController failed; disk-pressure on sk-eu-west-1; hf_transfer on",
        "npm_config_cache=/tmp/npm, the dapi-server restarted, AIzaSy (truncated in the log)",
        # key, pass and credential names without a credential-like value, and ordinary keys
        "the PagerDuty routing_key was rotated at 13:55; SESSION_ENCRYPTION_KEY is set from the secret",
        "routing_key: orders.created",
        "master_key: ${MASTER_KEY}; hmac_key: none",
        "partition_key: tenant-4f2c9e1a7b3e5d8f; cache_key: 9f2c1a7b3e5d8f0a1b2c3d4e5f6a7b8c; sort_key: created_at",
        "public_key: AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
        "auth: oauth2; credentials: none; credentials: aws-sm; bypass: enabled",
        "bypass: control\ncompass: north",
        "duplicate charge with idempotency key: 7c1f2d3e-4f5a-6b7c-8d9e-0a1b2c3d4e5f; the cache key: "
        "9f2c1a7b3e5d8f0a1b2c",
        "smoke test: pass=true; suite result pass=140 fail=3; pass: 12/14 pods",
        # an Authorization header without a credential; ids that are UUIDs
        "curl -H 'Authorization: Bearer <redacted>' https://x; authorization: required for admin",
        "Authorization: invalid credentials",
        "request_id: 7c1f2d3e-4f5a-6b7c-8d9e-0a1b2c3d4e5f, X-Request-Id: 0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d",
        "token_id: 7c1f2d3e-4f5a-6b7c-8d9e-0a1b2c3d4e5f",
        # a .pgpass path, an IPv6 address, ARNs; words that start like an AWS key
        "~/.pgpass holds the replica entry; fe80:0:0:0:0202:b3ff:fe1e:8329; arn:aws:sns:eu-west-1:123456789012:alerts",
        "the region ASIA-PACIFIC-EAST-WEST, AKIA-ROLE-NAME-HERE-ONLY",
        # base64 of a certificate, of plain text, and long identifiers
        "tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t; echo aGVsbG8gd29ybGQgZnJvbSB0aGUgam9i | base64 -d",
        "ConnectionPoolTimeoutException in PoolTimeoutErrorHandler2 at 9d1e0a7c4b2f8e6a1d3c5b7e9f0a2c4e6b8d0f1a",
    ],
)
def test_secret_words_without_secret_values_are_left_alone(text):
    assert redact_text(text).found == () and redact_text(text).text == text


def test_a_split_key_is_redacted_in_the_source_so_no_rendering_shows_it():
    text = "# t\n\nthe bot's key AKIA[Q3EGRT7P](#)LMN4XWZY and **AKIA**Q3EG**RT7PLMN4XWZY** are live\n"
    done = redact_text(text)
    assert [(f.type, f.line) for f in done.found] == [("aws-access-key", 3), ("aws-access-key", 3)]
    marker = f"[REDACTED:aws-access-key:{done.found[0].rule}]"
    assert done.text == f"# t\n\nthe bot's key {marker} and **{marker}** are live\n"
    parsed = parse(BASE.replace("- read the pool size on a live pod", "- key AKIA[Q3EGRT7P](#)LMN4XWZY is active"))
    assert "LMN4XWZY" not in parsed.model_dump_json()
    assert [f.type for f in parsed.red_flags] == ["aws-access-key"]


SHAPE_EXAMPLES = {  # one token of each vendor's shape (made up)
    "AWS access key id": SECRETS["aws-access-key"],
    "GitHub token": SECRETS["github"],
    "Slack token": SECRETS["slack-token"],
    "Stripe key": SECRETS["stripe"],
    "SendGrid API key": SECRETS["sendgrid"],
    "JSON web token": SECRETS["jwt"],
    "PyPI token": "pypi-AgEIcHlwaS5vcmcCJDk4Y2E5ZjE0LWJjNjItNDY4Zi04ZTIzLTY0MmQxY2YzNzBiNAACKlsz",
    "Telegram bot token": SECRETS["telegram"],
    "Discord bot token": "MTA1NjQ0NTE1NzQ4NTg3NjM1Mg.GdXb3K.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789ab",
    "Mailchimp API key": "e8e4b5df02c16cdf9e5518a3e9207265-us20",
    "Twilio key": "AC9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    "Artifactory reference token": "cmVmdG9rZW46MDE6MTcxMjM0NTY3ODpqS3E3dlIyeFc5bVp0THBONHNLMWFCNmNE",
    "ClickHouse Cloud secret key": "4b1dKq7vR2xW9mZtLpN4sK1aB6cD0eF5gH8jQ2wE9r",
    "Harness API key": "pat.Kq7vR2xW9mZtLpN4sK1aB6.5f2c9e1a7b3e5d8f0a1b2c3d.Zq8rT2vLw9NcY4bHk6sM",
    "Fly.io token": "fm2_lJPECAAAAAAAAMqWxBDRdrBKvKq7vR2xW9mZtLpN4sK1aB6cD0eF5gH8jQ2wE9rTzq8rT2vLw9NcY4bHk6sMd3J",
    "Artifactory token": "AKCp8jR4WzL2vN6bQ9sK3mX7tY1cF5hD0gA8eU2iO4pS6rT9wZ3yB7nM1kJ5xV0qE4uH8fG2d",
    "Google API key": "AIzaU8JZpDE0iGXlD6gNCFbaEPFjbD0kH8Oool8",
    "Google OAuth client secret": "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",
    "Google OAuth access token": "ya29.a0jtEkDnNfribxUdl7dXTPyLsxPFkThf4VucSmEHgaKwVJ7faC9qEwjky40UVs",
    "Vault token": "hvs.CAESIWmflzdE1F8ResqEDusTpkr0cStY4qWB8dWKnHfDN",
    "Vault token (before 1.10)": "s.xSIvPZZ63fFKcZjR4I0b3jRt",
    "OpenAI API key": "sk-proj-aWr4Y9OJFLJOqOAf1lLQSAJaiXnkU8Is2g8nprvDd53x83rzjZZZZGeoZDME",
    "OpenAI-style API key": "sk-NcKHVmDGAkJiG8XnBE3NnYJoQ9WmXeHH2fdeeTFJGvVvQe1s",
    "Anthropic API key": "sk-ant-api03-KhBN88hXJsi6BwhTp3Fs2QhX6KWxOiixgVoOnzyw2MzP0ZvzOMhfWuBByReQMsm9Wcz7uW9XFOGOe",
    "GitHub fine-grained token": "github_pat_11HYM4L1VFZ3ZFKKIBJ3J4_q7WJjjIBAzupGhv7Ib3M03NBQNSgPwlUQia1ID6vW5dql05ha0",
    "GitLab token": "glpat-3cxLmAxzJLJenuHjDUrhhjeyxG4jDPMRCxGgcjBw56EcUngmgMsRcgizeg8P.01.0w7q9m2i0",
    "npm token": "npm_HZcUEqPbENqTyH5xJ8tpqXJQ4I9dOv8GZ4fK",
    "Hugging Face token": "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",
    "Shopify token": "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",
    "Slack app or refresh token": "xapp-1-A0IC7PHKQDL-3448347824504-1006f7e3dfc967a64cb14028d512c9791e558e08baa7196b5",
    "Docker Hub access token": "dckr_pat_ZBTToOFl9h2wJq5ty4mYwUufJSu",
    "DigitalOcean token": "dop_v1_41d4072014b3ce107f80e222f828767efc2f91624a8940f1f836f99eee3692f0",
    "Grafana token": "glsa_SdE0g9cRYN687NElFJvhQ8XIm0ogR4Ht_b7ffc050",
    "Atlassian API token": "ATATT3xFfGF08frcZTuJaWYUH1VAUwV1ZH87MtA5vSQXEZY3lEX7bwR2DRGD1qSo7JPRbgUMxXy9b4=166873AE",
    "Databricks token": "dapi1dff02cee737443e210471948d33296c",
    "Sentry token": "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",
    "Doppler token": "dp.pt.c5t4UuHF7KVMLp7hvdCTquY1XVcKGAFRFWa94Hj9wNY",
    "Terraform Cloud token": ("wt1fd4mx82mux4.atlasv1."
                              "BoaPzoxZCYCdEz6DQMvE5mVXRV99nCQvtsU7RTAuwm6zo88EB0OGet9d9xYyQ6b0fI7"),
    "1Password service account token": "ops_eyJfLAz7vT0sxJmPU3UdXyymFgMZwKPaEpCejiUKb4GEQnFNGaftcLOIadn5rPvi2xqwHx1",
    "Stripe webhook signing secret": "whsec_m0lM7EXg3LcmQxxq8AGomtnWNCXVJCNQ",
    "Linear API key": "lin_api_Cmup6N0A0UarXLnTENCyfjeEaGyZqjJoiFpKZsRa",
    "Postman API key": "PMAK-99d19bdd0b6cc60d5d32cbe5-4014c2b54b95523cf6941fa1c257c6f561",
    "New Relic user key": "NRAK-Z7KYWHJPMC9CUHY39T0TP1YX262",
    "Heroku API key": "HRKU-AALBAnfdPcwnx0d1LzeZGEIWbXFzcggqCCoIF7uUxugFDwg5Yp8yIB2Enus0",
    "Groq API key": "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",
    "xAI API key": "xai-rU5YKyyQHxhDo2X93cjhls45GQio2ZvzXQYXkJXVwFcOLnv9DS0hQTo93l7q5UuAvCOJSnobagX5DIfO",
    "LangSmith API key": "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",
    "Azure AD client secret": "x7K8Q~D6xGAnjq8MJaMhmpgppa0nLgTEToD4uyet",
    "age secret key": "AGE-SECRET-KEY-1QCMA9UTWXSWZ84SR3MSJD9Q2S0V25VC40C77QPMWNDEY2FZP8X2KFPPZGZ",
}


@pytest.mark.parametrize("shape", SHAPES, ids=[s.vendor for s in SHAPES])
def test_a_vendor_token_is_a_secret_by_its_shape_alone(shape):
    token = SHAPE_EXAMPLES[shape.vendor]  # every shape has its example
    for text in (f"the nightly job still calls the API with {token} since the 13:55 deploy", f"TOKEN='{token}'"):
        done = redact_text(text)
        assert [(f.type, f.line) for f in done.found] == [(shape.type, 1)] and token not in done.text, text
        assert shape.type in TYPES
    assert redact_text(f"the job calls {token[:12]}… (cut off)").found == ()  # a vendor's prefix alone is no token


def test_the_output_contract_lists_every_vendor_shape_and_every_word_the_value_rules_read():
    contract = " ".join((Path(__file__).parents[3] / "docs" / "output-contract.md").read_text().split())
    assert [s.vendor for s in SHAPES if s.vendor not in contract] == []
    assert set(SHAPE_EXAMPLES) == {s.vendor for s in SHAPES}
    assert sorted(w for w in ERROR_WORDS | ABOUT_A_SECRET | ORDINARY_KEYS if f"`{w}`" not in contract) == []


@pytest.mark.parametrize(
    ("text", "rendered", "traced"),
    [
        ("a **b** [c](x) d&amp;e <i>f</i> max_size _g_ [REDACTED:token]",
         "a b c d&e f max_size g [REDACTED:token]", {"b c d": "b** [c](x) d", "&": "&amp;"}),
        # "\\_" shows "_" (no emphasis), "\\\\" one backslash; the Cyrillic "а" reads as "a", "ﬁ"
        # as "fi" (one source character for both), an accent as nothing; a symbol ("×") stays,
        # and so do letters with no Latin look-alike
        ("ghp\\_R8 \\*x\\* \\\\_y_ p\u0430ssword \ufb01x e\u0301 \u00d7 \u043f\u0430\u0440\u043e\u043b\u044c",
         "ghp_R8 *x* \\y password fix e \u00d7 \u043fapo\u043b\u044c",
         {"ghp_R8": "ghp\\_R8", "password": "p\u0430ssword", "fi": "\ufb01"}),
    ],
)  # fmt: skip
def test_the_rendered_view_traces_each_character_to_its_source(text, rendered, traced):
    view = rendered_view(text)
    assert view.text == rendered
    for shown, source in traced.items():
        start, end = view.source(rendered.index(shown), rendered.index(shown) + len(shown))
        assert text[start:end] == source
    assert rendered_view("plain text", 2, 6).source(0, 4) == (2, 6)


def test_an_env_entry_assigns_its_value_across_two_lines():
    manifest = "env:\n- name: DB_USER\n  value: checkout\n- name: DB_PASSWORD\n  value: Kq7vR2xW9mZt\n"
    done = redact_text(manifest)
    assert [(f.type, f.line, f.rule) for f in done.found] == [("password", 5, "rcaloop.name-value-entry")]
    assert done.text == manifest.replace("Kq7vR2xW9mZt", "[REDACTED:password:rcaloop.name-value-entry]")


def test_a_name_value_entry_in_a_document_is_an_assignment_whatever_the_key_order():
    doc = {"env": [{"name": "DB_USER", "value": "checkout"}, {"value": "Kq7vR2xW9mZt", "name": "DB_PASSWORD"}],
           "tags": [{"Key": "team", "Value": "payments"}]}  # fmt: skip
    redacted, found = redact_json(doc, "capture.evidence[E06].value")
    assert [(s.type, s.where) for s in found] == [("password", "capture.evidence[E06].value.env[1].value")]
    assert redacted["env"][1] == {"value": "[REDACTED:password:rcaloop.keyword-assignment]", "name": "DB_PASSWORD"}
    assert redacted["env"][0] == doc["env"][0] and redacted["tags"] == doc["tags"]


def test_a_private_key_is_redacted_whole_and_lines_are_kept():
    key = ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgO\nVTLw7onLRnrq0/IzW7yWR7Q=\n"
           "-----END RSA PRIVATE KEY-----")
    done = redact_text(f"# t\n\n{key}\nline 7")
    assert [(f.type, f.line, f.rule) for f in done.found] == [("private-key", 3, "rcaloop.private-key")]
    assert "MIIE" not in done.text and "VTLw" not in done.text and "END RSA" not in done.text
    assert done.text.split("\n")[6] == "line 7"


def test_json_paths_name_where_and_a_secret_named_key_is_an_assignment():
    doc = {
        "summary": "uses " + SECRETS["stripe"],
        "claims": [{"id": "C1", "text": "ok"}, {"id": "C2", "text": "Bearer " + SECRETS["jwt"]}],
        "extra_vars": {"db_password": "Wint3r-Pool-42", "cluster_env": "test"},
        "log": "line 1\nline 2 " + SECRETS["aws-access-key"],
    }
    redacted, found = redact_json(doc, "capture")
    assert [(s.type, s.where, s.line) for s in found] == [
        ("api-key", "capture.summary", None),
        ("token", "capture.claims[C2].text", None),
        ("password", "capture.extra_vars.db_password", None),
        ("aws-access-key", "capture.log", 2),
    ]
    dumped = json.dumps(redacted)
    assert all(v not in dumped
               for v in (SECRETS["stripe"], SECRETS["jwt"], "Wint3r-Pool-42", SECRETS["aws-access-key"]))
    assert doc["extra_vars"]["db_password"] == "Wint3r-Pool-42"  # the input is not changed
    assert redact_json(redacted, "capture")[0] == redacted


def test_ingestion_publishes_redacted_content_and_keeps_the_hash_of_what_it_received():
    content = BASE.replace("cfg-2291 set the pool", "cfg-2291 (" + SECRETS["github"] + ") set the pool")
    raw = RawResult(
        result_id="r-1",
        kind="skill_text",
        content=content,
        input_text="alert\npassword: Hunter2Hunter2",
        evidence=[EvidenceArtifact(id="E01", source="loki", text="token=" + SECRETS["slack-token"])],
    )
    record = ingestion.ingest(ingestion.assess(raw))
    assert record.analysis_hash == analysis_hash("skill_text", content)
    dumped = record.model_dump_json()
    assert SECRETS["github"] not in dumped and "Hunter2Hunter2" not in dumped and SECRETS["slack-token"] not in dumped
    flags = parse(record.content, input_text=record.input_text, evidence=record.evidence).red_flags
    assert [(f.type, f.where, f.source) for f in flags] == [
        ("token", "chat", "detected"),
        ("password", "input", "detected"),
        ("token", "evidence[E01].text", "detected"),
    ]
    assert flags == parse(content, input_text=raw.input_text, evidence=raw.evidence).red_flags  # same flags offline


def test_dead_letters_are_stored_redacted():
    raw = RawResult(result_id="r-2", kind="skill_text", content="   ", input_text="key " + SECRETS["aws-access-key"])
    letter = dead_letter(raw, ingestion.validate(raw)).model
    assert SECRETS["aws-access-key"] not in letter.model_dump_json()
    assert "[REDACTED:aws-access-key:" in letter.fields["payload"]
    plain = DeadLetter(
        stream="s", group="g", message_id="1-0", fields={"payload": "not json " + SECRETS["stripe"]},
        error_code="handler_error", error="ValueError: bad key " + SECRETS["github"], deliveries=3,
    )
    redacted = redact_dead_letter(plain)
    assert SECRETS["stripe"] not in redacted.fields["payload"] and SECRETS["github"] not in redacted.error


def test_log_events_are_redacted(capsys):
    log = configure_logging("test")
    try:
        log.warning("handler_failed", error="ValueError: " + SECRETS["stripe"], password="Hunter2Hunter2", n=3)
    finally:
        structlog.reset_defaults()
    line = capsys.readouterr().err
    assert SECRETS["stripe"] not in line and "Hunter2Hunter2" not in line
    event = json.loads(line.strip().splitlines()[-1])
    assert event["password"] == "[REDACTED:password:rcaloop.keyword-assignment]" and event["n"] == 3


def test_the_bundled_leak_sample_flags_only_what_it_declares():
    flags = parse((EXAMPLES / "skill_outputs" / "payments-webhook-leak.txt").read_text()).red_flags
    assert [(f.code, f.type, f.where, f.source) for f in flags] == [
        ("RCA307", "webhook-url", "history", "declared"),
        ("RCA307", "private-key", "config", "declared"),
    ]


def test_a_record_without_secrets_is_returned_as_is():
    raw = RawResult(result_id="r-3", kind="skill_text", content=BASE)
    assert redact_record(raw) == (raw, [])
