"""``python -m eval.run_eval --fixtures eval/fixtures.jsonl --min-top1 0.95``: ``rcaloop eval run``.

Without ``--agent-cmd`` or ``--captures`` it scores ``$RCALOOP_AGENT_CMD``, else the bundled
reference agent. Exit 0 pass, 1 fail, 2 unusable input.
"""

from eval import rcaloop

if __name__ == "__main__":
    rcaloop("eval", "run")
