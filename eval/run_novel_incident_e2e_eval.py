"""``python -m eval.run_novel_incident_e2e_eval``: ``rcaloop eval novel-e2e``.

Without arguments it scores the shipped captures (``eval/novel_e2e.captures.jsonl``, which check
the response contract); give ``--captures FILE`` with captures exported from staging or
production before activating a new knowledge source. Exit 0 pass, 1 fail, 2 unusable input.
"""

from eval import rcaloop

if __name__ == "__main__":
    rcaloop("eval", "novel-e2e", default=("--captures", "eval/novel_e2e.captures.jsonl"))
