"""``python -m eval.check_release_gate METRICS.json``: ``rcaloop gate check``.

Validates one metrics object an external measurement job produced. Exit 0 pass, 1 fail, 2
unusable input.
"""

from eval import rcaloop

if __name__ == "__main__":
    rcaloop("gate", "check")
