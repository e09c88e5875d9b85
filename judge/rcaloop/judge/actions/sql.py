"""SQL statements: read-only or not, failing closed.

A statement is read-only only when it starts with a reading keyword (``SELECT``, ``SHOW``,
``EXPLAIN`` …) and nothing in it writes: no data-changing keyword anywhere (a ``DELETE``
inside a ``WITH``, ``EXPLAIN ANALYZE UPDATE``), no ``SELECT … INTO``, no row locks
(``FOR UPDATE``), no function with a side effect (``pg_terminate_backend``, ``setval``,
a user function named ``purge_…``). Everything else writes. Literals and block comments
are read as what they are (a ``'DELETE'`` string writes nothing); MySQL's executable
comments ``/*! … */`` and anything after ``--`` are read as code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_COMMENT = re.compile(r"/\*(?!!)(?:.|\n)*?\*/|/\*!\d*|\*/")
"""Block comments; MySQL's ``/*! … */`` is code. A ``--`` comment is not taken out: a step
is read as one line, and code after a newline would hide behind it."""
_LITERAL = re.compile(r"[eE]'(?:[^'\\]|\\.|'')*'?|'(?:[^']|'')*'?|\"(?:[^\"]|\"\")*\"?")
_WORD = re.compile(r"\\[a-zA-Z+]+|@@\w+|[A-Za-z_][A-Za-z0-9_$.]*|[()=*]")

READING = frozenset({"SELECT", "SHOW", "EXPLAIN", "DESCRIBE", "DESC", "WITH", "VALUES", "TABLE", "USE", "HELP",
                     "PRAGMA", "CHECK", "CHECKSUM", "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT", "SET",
                     "RESET", "DISCARD"})
"""First keywords of statements that change nothing stored (transaction and session control included)."""
WRITING = frozenset({"INSERT", "UPDATE", "DELETE", "MERGE", "UPSERT", "TRUNCATE", "DROP", "ALTER", "CREATE", "GRANT",
                     "REVOKE", "VACUUM", "REINDEX", "CLUSTER", "COPY", "CALL", "DO", "KILL", "LOCK", "FLUSH",
                     "OPTIMIZE", "REPAIR", "LOAD", "REFRESH", "NOTIFY", "RENAME", "COMMENT", "IMPORT", "CHECKPOINT",
                     "PURGE", "INSTALL", "UNINSTALL", "SHUTDOWN", "RESTART", "HANDLER", "PREPARE", "EXECUTE",
                     "DEALLOCATE", "SECURITY", "REASSIGN", "ANALYZE", "ANALYSE", "REPLACE", "INTO"})
"""Keywords that write wherever they stand in a statement (``REPLACE(`` the string function excepted)."""
_STRING_FUNCTIONS = frozenset({"REPLACE", "TRUNCATE", "INSERT", "LEFT", "RIGHT"})
_ROW_LOCK = re.compile(r"\bFOR (?:NO KEY )?UPDATE\b|\bFOR (?:KEY )?SHARE\b|\bLOCK IN SHARE MODE\b")
_READ_PRAGMAS = frozenset({"TABLE_INFO", "TABLE_XINFO", "INDEX_LIST", "INDEX_INFO", "INDEX_XINFO",
                           "FOREIGN_KEY_LIST", "INTEGRITY_CHECK", "QUICK_CHECK", "DATABASE_LIST", "COMPILE_OPTIONS"})
_PSQL_READING = re.compile(r"\\(?:d[a-zA-Z+]*|l\+?|x|conninfo|timing|\?|h|sf\+?|sv\+?|z|encoding|echo|pset|t|a|H)$")
_WRITING_OPENERS = {  # reading first keywords that write when followed by one of these
    "SET": frozenset({"GLOBAL", "PERSIST", "PERSIST_ONLY", "PASSWORD", "DEFAULT", "@@GLOBAL", "@@PERSIST"}),
    "RESET": frozenset({"MASTER", "SLAVE", "REPLICA", "QUERY", "PERSIST", "BINARY"}),
}

SIDE_EFFECT_PARTS = frozenset({
    "terminate", "cancel", "kill", "drop", "delete", "insert", "update", "upsert", "truncate", "purge", "reset", "set",
    "setval", "nextval", "reload", "rotate", "switch", "promote", "create", "remove", "write", "import", "unlink",
    "lock", "exec", "execute", "notify", "emit", "pause", "resume", "refresh", "vacuum", "flush", "clear",
    "move", "rename", "grant", "revoke", "enable", "disable", "stop", "start", "restart", "shutdown", "wipe", "evict",
    "expire", "invalidate", "sync", "advance", "fix", "repair", "cleanup", "clean", "migrate", "apply", "commit",
})
"""A function whose name holds one of these words (split at ``_`` and ``.``) is taken to write."""
_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)\s*\(")


@dataclass(frozen=True)
class SQLVerdict:
    writes: bool
    verb: str  # the keyword(s) that decide it: ``UPDATE``, ``DROP TABLE``, ``SELECT … FOR UPDATE``


def _code(sql: str) -> str:
    return _LITERAL.sub(" _ ", _COMMENT.sub(" ", sql))


def statements(sql: str) -> list[str]:
    return [s.strip() for s in _code(sql).split(";") if s.strip()]


def _side_effect(stmt: str) -> str | None:
    for m in _CALL.finditer(stmt):
        name = m.group(1)
        if name.upper() not in _STRING_FUNCTIONS and SIDE_EFFECT_PARTS.intersection(re.split(r"[_.]", name.lower())):
            return name
    return None


def _opener_writes(words: list[str], stmt: str) -> bool:
    first, second = words[0], (words[1] if len(words) > 1 else "")
    if first in _WRITING_OPENERS:
        return second in _WRITING_OPENERS[first] or "@@GLOBAL" in stmt.upper() or "@@PERSIST" in stmt.upper()
    if first == "START":
        return second != "TRANSACTION"
    if first == "PRAGMA":
        return "=" in words or (len(words) > 2 and second not in _READ_PRAGMAS)
    return first not in READING


CYPHER_OPENERS = frozenset({"MATCH", "OPTIONAL", "UNWIND", "RETURN", "PROFILE"})
"""First keywords of a Cypher query (one that starts ``CREATE``/``MERGE`` writes as SQL does)."""
CYPHER_WRITING = frozenset({"CREATE", "MERGE", "DELETE", "DETACH", "SET", "REMOVE", "DROP", "LOAD", "FOREACH", "CALL",
                            "ALTER", "GRANT", "REVOKE", "DENY", "START", "STOP"})
"""Cypher clauses that write wherever they stand (``MATCH (n) DETACH DELETE n``, a procedure ``CALL``)."""


def _cypher(words: list[str]) -> SQLVerdict:
    found = next((w for w in words[1:] if w in CYPHER_WRITING), None)
    return SQLVerdict(True, f"{words[0]} … {found}") if found else SQLVerdict(False, words[0])


def _statement(stmt: str) -> SQLVerdict:
    words = [w.upper() for w in _WORD.findall(stmt)]
    while words and words[0] == "(":
        words.pop(0)
    if not words:
        return SQLVerdict(False, "")
    first = words[0]
    if first in CYPHER_OPENERS or (first in ("EXPLAIN", "WITH") and not CYPHER_OPENERS.isdisjoint(words)):
        return _cypher(words)
    if first.startswith("\\"):
        return SQLVerdict(not _PSQL_READING.match(first.lower()), first.lower())
    if first == "EXPLAIN" and not {"ANALYZE", "ANALYSE"} & set(words[1:4]) and "(" not in words[1:2]:
        return SQLVerdict(False, "EXPLAIN")  # EXPLAIN without ANALYZE plans the statement and runs nothing
    copy_out = first == "COPY" and re.search(r"\bTO\s+STDOUT\b", stmt, re.I) is not None
    if not copy_out and _opener_writes(words, stmt):
        obj = words[1] if len(words) > 1 and first in ("DROP", "ALTER", "CREATE", "TRUNCATE", "SET", "RESET") else ""
        return SQLVerdict(True, f"{first} {obj if obj.isalpha() else ''}".strip())
    lock = _ROW_LOCK.search(" ".join(words))
    if lock:
        return SQLVerdict(True, f"{first} … {lock.group(0)}")
    for i, w in enumerate(words[1:], 1):
        if w not in WRITING or (w in _STRING_FUNCTIONS and words[i + 1:i + 2] == ["("]):
            continue
        if first == "EXPLAIN" and w in ("ANALYZE", "ANALYSE"):
            continue  # EXPLAIN ANALYZE runs the statement: a write in it is found next
        return SQLVerdict(True, f"{first} … INTO" if w == "INTO" else w)
    fn = _side_effect(stmt)
    return SQLVerdict(True, f"{first} {fn}") if fn else SQLVerdict(False, first)


@lru_cache(maxsize=2048)
def judge(sql: str) -> SQLVerdict:
    """The first writing statement of ``sql``, else the read-only verdict of its first statement."""
    found = [_statement(s) for s in statements(sql)]
    return next((v for v in found if v.writes), found[0] if found else SQLVerdict(False, ""))


STARTS = re.compile(
    r"^\s*(?:\(\s*)*(?:SELECT|SHOW|EXPLAIN|DESCRIBE|DESC|WITH|VALUES|TABLE|PRAGMA|INSERT|UPDATE|DELETE|MERGE|UPSERT|"
    r"REPLACE|TRUNCATE|DROP|ALTER|CREATE|GRANT|REVOKE|VACUUM|REINDEX|CLUSTER|COPY|CALL|DO|KILL|LOCK|FLUSH|OPTIMIZE|"
    r"REPAIR|REFRESH|ANALYZE|ANALYSE|CHECKPOINT|BEGIN|SET|RESET|USE|PURGE|COMMENT|NOTIFY|LOAD|SHUTDOWN|MATCH|"
    r"OPTIONAL\s+MATCH|UNWIND|DETACH)\b|^\s*\\[a-z]",
    re.I,
)
"""Text that starts like an SQL or Cypher statement (a code span or a client's ``-c`` argument)."""

IN_PROSE = re.compile(
    r"\bupdate\s+[\w.\"`]+\s+set\b|\bdelete\s+from\b|\binsert\s+(?:ignore\s+)?into\b|"
    r"\b(?:replace|merge|upsert)\s+into\b|"
    r"\b(?:drop|create|alter)\s+(?:or\s+replace\s+|if\s+(?:not\s+)?exists\s+)?(?:temp\w*\s+|unique\s+|materialized\s+|"
    r"global\s+|foreign\s+|unlogged\s+)?(?:table|database|schema|index|view|user|role|sequence|function|procedure|"
    r"trigger|extension|type|publication|subscription|tablespace|policy|column|constraint|system|server|event|"
    r"keyspace|collection)\b|\btruncate\s+table\b|\bgrant\s+[\w, ]+\s+on\b|\brevoke\s+[\w, ]+\s+on\b|"
    r"\breindex\s+(?:table|index|database|schema|system)\b|\bvacuum\s+(?:full|analy[sz]e|freeze|verbose)\b|"
    r"\bcopy\s+[\w.\"]+\s*(?:\([^)]*\)\s*)?from\b|\bcall\s+[\w.]+\s*\(|\bdo\s+\$|"
    r"\bkill\s+(?:query\s+|connection\s+)?\d+|"
    r"\bflush\s+(?:tables|privileges|logs|hosts|status)\b|\bset\s+(?:global|persist)\b|"
    r"\bpg_(?:terminate|cancel)_backend\b|\bsetval\b|\bpg_reload_conf\b|\bpg_promote\b|\bpg_switch_wal\b|"
    r"\bpg_(?:create|drop)_\w*slot\b|\bpg_stat_(?:statements_)?reset\w*\b|\bset_config\b",
    re.I,
)
"""A writing SQL statement written into a sentence (``run UPDATE accounts SET …``)."""
READ_IN_PROSE = re.compile(r"\b(?:SELECT\b.+\bFROM|SHOW\s+[A-Z]|EXPLAIN\s+(?:SELECT|ANALYZE)|WITH\s+\w+\s+AS\s*\()")
"""A reading statement written into a sentence (upper case, so ``select the pod`` is English)."""
