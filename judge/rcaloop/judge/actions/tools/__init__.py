"""Every tool the action vocabulary knows, one module per family.

Each family lists what its tools do that only reads; any other use of the tool writes
(fail closed). ``PROSE`` names the tools distinctive enough to be read as a command when
written into a sentence without backticks (``kubectl set image deploy/x …``).
"""

from __future__ import annotations

from rcaloop.judge.actions.commands import Rule
from rcaloop.judge.actions.tools import clients, cloud, containers, hosts, infra, kubernetes, packages, services

FAMILIES = (hosts, kubernetes, containers, packages, cloud, infra, clients, services)
TOOLS: dict[str, Rule] = {name: rule for family in FAMILIES for name, rule in family.TOOLS.items()}
PROSE: frozenset[str] = frozenset().union(*(family.PROSE for family in FAMILIES))
