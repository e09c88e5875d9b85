"""The secret detector measured: recall and false positives by class, and redaction time on
hostile input, with the previous detector beside it.

Two corpora:

* the gitleaks-derived corpus (``shared/corpora/secrets/gitleaks-derived.json`` beside the
  checkout, read where it lies): vendor tokens generated from gitleaks' rules, beside a
  keyword, alone in neutral text, and bare; gitleaks' own placeholders and generic
  non-secrets. A token counts as *fixed format* unless its gitleaks rule finds it only after
  the vendor's name (``KEYWORD_ANCHORED``: such a token is a run of letters and digits with
  no format of its own, and no detector can tell it by its shape);
* ``tests/fixtures/secrets/rca-corpus.yaml``: realistic RCA text — secret names and
  references (Helm, Kubernetes, Ansible, Vault, cloud secret stores), placeholders, hashes
  and ids, generated private keys, credential URLs, passwords after labels in several
  languages, AWS key pairs, htpasswd lines;

and the honest RCA outputs of the judge's corpus (``tests/fixtures/corpus/honest``), each
parsed as the service parses it: none may carry a detected red flag.

A secret counts as found when the detector reports a finding and the redacted text no
longer holds the value. Redaction time is measured on the hostile shapes that stalled the
previous detector (``?password=`` and ``;passwd=`` repeated on one line, ``BEGIN PRIVATE
KEY`` lines with no ``END``), at 8 KiB, 128 KiB, 1 MiB and 4 MiB, each run in a process of
its own and stopped after ``--timeout`` seconds; then every rule of the current detector on
its own literals repeated to 1 MiB (the linearity of each rule).

The previous detector is the one at ``--previous`` (a git commit): its modules are read
from git into a temporary folder for the run and imported from there (it needs
detect-secrets, a development dependency).

Usage: ``python benchmarks/secrets.py [--previous COMMIT] [--timeout 60] [--gitleaks PATH]``
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
if sys.path and Path(sys.path[0] or ".").resolve() == REPO / "benchmarks":
    sys.path.pop(0)  # run as a script: this file would stand in for the standard library's ``secrets``
PREVIOUS = "8b08657e7279a9fcb6ba66065913ac38cc4ba22f"
"""The last commit with the detector built on detect-secrets alone."""
RCA_CORPUS = REPO / "tests" / "fixtures" / "secrets" / "rca-corpus.yaml"
HONEST = REPO / "tests" / "fixtures" / "corpus" / "honest"
MODULES = ("secrets", "secret_shapes", "secret_values", "lookalikes", "markup_view")
"""The previous detector's modules (``rcaloop.shared.<name>``)."""

KEYWORD_ANCHORED = frozenset("""
adafruit-api-key adobe-client-id airtable-api-key algolia-api-key alibaba-secret-key asana-client-id
asana-client-secret beamer-api-token bitbucket-client-id bitbucket-client-secret bittrex-access-key
bittrex-secret-key cisco-meraki-api-key cloudflare-api-key cloudflare-global-api-key codecov-access-token
cohere-api-token coinbase-access-token confluent-access-token confluent-secret-key contentful-delivery-api-token
datadog-access-token defined-networking-api-token discord-api-token discord-client-id discord-client-secret
droneci-access-token dropbox-api-token dropbox-long-lived-api-token etsy-access-token facebook-secret
fastly-api-token finicity-api-token finicity-client-secret finnhub-access-token flickr-access-token
freshbooks-access-token gitter-access-token hashicorp-tf-password heroku-api-key hubspot-api-key intercom-api-key
jfrog-api-key jfrog-identity-token kraken-access-token kucoin-access-token kucoin-secret-key
launchdarkly-access-token linear-client-secret linkedin-client-id linkedin-client-secret looker-client-id
looker-client-secret mailchimp-api-key mailgun-private-api-token mailgun-pub-key mailgun-signing-key
mapbox-api-token mattermost-access-token messagebird-api-token messagebird-client-id netlify-access-token
new-relic-user-api-id nytimes-access-token okta-access-token plaid-api-token plaid-client-id plaid-secret-key
privateai-api-token rapidapi-access-token sendbird-access-id sendbird-access-token sentry-access-token
sidekiq-secret snyk-api-token squarespace-access-token sumologic-access-id sumologic-access-token
telegram-bot-api-token travisci-access-token twitch-api-token twitter-access-secret twitter-access-token
twitter-api-key twitter-api-secret twitter-bearer-token yandex-access-token yandex-api-key yandex-aws-access-token
zendesk-secret-key
""".split())
"""gitleaks rules whose pattern requires the vendor's name before the value (its
``[\\w.-]{0,50}?(?:<vendor>)…`` form): their tokens have no format of their own."""

HOSTILE = {
    "?password= repeated": "?password=",
    ";passwd= repeated": ";passwd=",
    "BEGIN PRIVATE KEY, no END": "-----BEGIN PRIVATE KEY-----\n",
}
SIZES = {"8 KiB": 8 << 10, "128 KiB": 128 << 10, "1 MiB": 1 << 20, "4 MiB": 4 << 20}

Detector = Callable[[str], tuple[bool, str]]
"""text → (found anything, the redacted text)."""


def gitleaks_path(given: str | None) -> Path:
    if given:
        return Path(given)
    for parent in REPO.parents:
        candidate = parent / "shared" / "corpora" / "secrets" / "gitleaks-derived.json"
        if candidate.is_file():
            return candidate
    raise SystemExit("gitleaks-derived.json not found beside the checkout; pass --gitleaks PATH")


def previous_package(commit: str, into: Path) -> str:
    """The previous detector's modules read from git into ``into`` as one package; its name."""
    package = into / "rcaloop_previous_secrets"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name in MODULES:
        source = subprocess.run(["git", "show", f"{commit}:shared/rcaloop/shared/{name}.py"], cwd=REPO,
                                capture_output=True, text=True, check=True).stdout
        for other in MODULES:
            source = source.replace(f"rcaloop.shared.{other} ", f"rcaloop_previous_secrets.{other} ")
        (package / f"{name}.py").write_text(source)
    sys.path.insert(0, str(into))
    return "rcaloop_previous_secrets"


def detector(which: str, commit: str, tmp: Path) -> Detector:
    if which == "current":
        from rcaloop.shared import secret_engine  # noqa: PLC0415
        from rcaloop.shared.secrets import redact_text  # noqa: PLC0415

        secret_engine.warm()

        def current(text: str) -> tuple[bool, str]:
            done = redact_text(text, None)
            return bool(done.found), done.text

        return current
    module = importlib.import_module(previous_package(commit, tmp) + ".secrets")

    def previous(text: str) -> tuple[bool, str]:
        done = module.redact_text(text)
        return bool(done.found), done.text

    return previous


def core(secret: str) -> str:
    """The value that must not survive: the corpus's secret without the quoting and escapes
    that its generator left around some of them."""
    return secret.strip("\"'`;").removesuffix("\\n").removesuffix("\\r").strip("\"'`;")


def classes(gitleaks: Path) -> list[tuple[str, str, list[tuple[str, list[str]]]]]:
    """(row label, positive/negative, [(text, values that must not survive)]) for every class."""
    rows: dict[tuple[str, str], list[tuple[str, list[str]]]] = {}
    for case in json.loads(gitleaks.read_text()):
        cls, rule = case["cls"], case["rule"]
        if cls.startswith("amb."):
            continue
        if cls in ("tp.shape.gitleaks", "tp.bare.gitleaks"):
            fmt = "keyword-anchored" if rule in KEYWORD_ANCHORED else "fixed format"
            label = f"gitleaks {'shape' if 'shape' in cls else 'bare'}, {fmt}"
        else:
            label = {"tp.kw.gitleaks": "gitleaks token beside a keyword",
                     "fp.placeholder.gitleaks": "gitleaks placeholders",
                     "fp.gitleaks-generic": "gitleaks generic non-secrets"}[cls]
        kind = "recall" if cls.startswith("tp") else "false positives"
        rows.setdefault((kind, label), []).append((case["text"], [core(case["secret"])] if case["secret"] else []))
    for case in yaml.safe_load(RCA_CORPUS.read_text())["cases"]:
        kind = "recall" if case["class"].startswith("tp") else "false positives"
        rows.setdefault((kind, "rca " + case["class"].split(".", 1)[1]), []).append(
            (case["text"], case.get("secrets", [])))
    return [(label, kind, cases) for (kind, label), cases in sorted(rows.items())]


def measure(detect: Detector, kind: str, cases: list[tuple[str, list[str]]]) -> float:
    hits = 0
    for text, secrets in cases:
        found, redacted = detect(text)
        if kind == "recall":
            hits += found and all(s not in redacted for s in secrets)
        else:
            hits += found
    return 100.0 * hits / len(cases)


def honest_flagged(commit: str, which: str) -> str:
    """How many honest outputs carry a detected red flag (the current parser; the previous
    detector is measured on the same texts: content, input and evidence)."""
    code = (
        "import sys; sys.path.insert(0, %r)\n"
        "from tests.helpers.corpus import load\n"
        "from pathlib import Path\n" % str(REPO)
    )
    if which == "current":
        code += (
            "from rcaloop.parser import core\n"
            "cases = [load(p, 'honest') for p in sorted(Path(%r).glob('*.yaml'))]\n"
            "bad = [c.name for c in cases if any(f.source == 'detected' for f in core.parse_record(c.record, "
            "c.registry).red_flags)]\n"
        ) % str(HONEST)
    else:
        code += (
            "import importlib\n"
            "sys.path.insert(0, sys.argv[1])\n"
            "m = importlib.import_module('rcaloop_previous_secrets.secrets')\n"
            "cases = [load(p, 'honest') for p in sorted(Path(%r).glob('*.yaml'))]\n"
            "bad = [c.name for c in cases if m.redact_record(c.record)[1]]\n"
        ) % str(HONEST)
    code += "print(len(bad), len(cases), ' '.join(bad))\n"
    with tempfile.TemporaryDirectory() as tmp:
        if which != "current":
            previous_package(commit, Path(tmp))
        done = subprocess.run([sys.executable, "-c", code, tmp], cwd=REPO, capture_output=True, text=True, timeout=600)
    if done.returncode:
        return "error: " + done.stderr.strip().splitlines()[-1]
    bad, total, *names = done.stdout.split()
    return f"{bad}/{total}" + (f" ({', '.join(names)})" if names else "")


def time_one(which: str, commit: str, shape: str, size: int) -> None:
    """One timing, in this process: prints seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        detect = detector(which, commit, Path(tmp))
        detect("warm up: ghp_R8mZq2LvX9tWc4NbY7kHs1JdF6gPa3Ue5Ko0")
        pattern = HOSTILE[shape]
        text = (pattern * (size // len(pattern) + 1))[:size]
        started = time.perf_counter()
        detect(text)
        print(f"{time.perf_counter() - started:.3f}")


def timed(which: str, commit: str, shape: str, size: int, timeout: float) -> str:
    argv = [sys.executable, __file__, "--time-one", which, shape, str(size), "--previous", commit]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=REPO)
    except subprocess.TimeoutExpired:
        return f"> {timeout:g} s"
    if done.returncode:
        return "error"
    return f"{float(done.stdout.strip().splitlines()[-1]):.2f} s"


def typical_report_cost(detectors: dict[str, Detector], rounds: int = 5, per_round: int = 100) -> dict[str, float]:
    """Microseconds to scan the parser benchmark's typical 8 KB report, best of ``rounds``
    interleaved rounds per detector (the figure other load on the machine changes least)."""
    spec = importlib.util.spec_from_file_location("parse_benchmark", REPO / "benchmarks" / "parse.py")
    assert spec is not None and spec.loader is not None
    parse = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(parse)
    text = parse.typical_report()
    best = dict.fromkeys(detectors, float("inf"))
    for _ in range(rounds):
        for name, detect in detectors.items():
            started = time.process_time()
            for _ in range(per_round):
                detect(text)
            best[name] = min(best[name], (time.process_time() - started) / per_round * 1e6)
    return best


def rule_linearity() -> list[tuple[str, float, float]]:
    """Every rule of the current detector on its literals repeated, at 256 KiB and 1 MiB:
    (rule, seconds at 256 KiB, seconds at 1 MiB) — linear when the second is about four times the first."""
    from rcaloop.shared.secret_rules import RULES  # noqa: PLC0415
    from rcaloop.shared.secrets import redact_text  # noqa: PLC0415

    out = []
    for rule in RULES:
        unit = "".join(f"{need}=x{need}: " for need in rule.needs) or "0123456789:" + "A" * 40 + " "
        times = []
        for size in (256 << 10, 1 << 20):
            text = (unit * (size // len(unit) + 1))[:size]
            started = time.perf_counter()
            redact_text(text, None)
            times.append(time.perf_counter() - started)
        out.append((rule.id, times[0], times[1]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--previous", default=PREVIOUS, help="the commit of the detector to compare with")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds one timing may take before it is stopped")
    ap.add_argument("--gitleaks", help="path of gitleaks-derived.json (default: found beside the checkout)")
    ap.add_argument("--time-one", nargs=3, metavar=("DETECTOR", "SHAPE", "BYTES"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.time_one:
        which, shape, size = args.time_one
        time_one(which, args.previous, shape, int(size))
        return
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · {os.cpu_count()} cores · "
          f"load average {os.getloadavg()[0]:.1f} · previous = {args.previous[:10]}")
    rows = classes(gitleaks_path(args.gitleaks))
    with tempfile.TemporaryDirectory() as tmp:
        detectors = {"previous": detector("previous", args.previous, Path(tmp)),
                     "current": detector("current", args.previous, Path(tmp))}
        print(f"\n{'class':<52} {'n':>4} {'previous':>9} {'current':>9}")
        for label, kind, cases in rows:
            figures = [measure(d, kind, cases) for d in detectors.values()]
            print(f"{kind + ': ' + label:<52} {len(cases):>4} {figures[0]:8.1f}% {figures[1]:8.1f}%")
        cost = typical_report_cost(detectors)
        print(f"{'CPU µs to scan a typical 8 KB report (best of 5)':<57} {cost['previous']:8.0f}  "
              f"{cost['current']:8.0f}")
    for which in ("previous", "current"):
        print(f"honest RCA outputs with a detected red flag, {which}: {honest_flagged(args.previous, which)}")

    print(f"\n{'redaction time':<28} {'detector':<9} " + " ".join(f"{s:>9}" for s in SIZES))
    for shape in HOSTILE:
        for which in ("previous", "current"):
            cells = [timed(which, args.previous, shape, size, args.timeout) for size in SIZES.values()]
            print(f"{shape:<28} {which:<9} " + " ".join(f"{c:>9}" for c in cells))

    print("\nevery rule of the current detector on its own literals repeated (slowest five):")
    print(f"{'rule':<40} {'256 KiB':>9} {'1 MiB':>9} {'ratio':>6}")
    for rule, small, large in sorted(rule_linearity(), key=lambda r: -r[2])[:5]:
        print(f"{rule:<40} {small:8.3f}s {large:8.3f}s {large / small:6.1f}")


if __name__ == "__main__":
    main()
