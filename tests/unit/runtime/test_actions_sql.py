"""SQL statements: read-only only when nothing in them writes (fail closed)."""

from __future__ import annotations

import pytest

from rcaloop.judge.actions import sql

READS = [
    "SELECT * FROM accounts WHERE status = 'DELETE'",
    "select count(*) from orders where created_at > now() - interval '1 hour'",
    "SELECT id FROM t WHERE x IN (SELECT id FROM u)",
    "WITH recent AS (SELECT * FROM orders WHERE ts > now() - interval '1h') SELECT count(*) FROM recent",
    "EXPLAIN SELECT * FROM orders",
    "EXPLAIN ANALYZE SELECT * FROM orders",
    "SHOW max_connections",
    "show processlist",
    "DESCRIBE orders",
    "SELECT replace(name, 'a', 'b') FROM t",
    "SELECT current_setting('max_connections'), pg_size_pretty(pg_relation_size('orders'))",
    "SELECT now() - pg_last_xact_replay_timestamp()",
    "BEGIN; SELECT 1; COMMIT",
    "SET statement_timeout = '5s'; SELECT 1",
    "COPY (SELECT * FROM orders) TO STDOUT",
    "\\dt+",
    "PRAGMA table_info(users)",
    "CHECK TABLE orders",
    "TABLE orders",
]
WRITES = [
    ("UPDATE accounts SET balance = 0", "UPDATE"),
    ("update accounts set balance = 0", "UPDATE"),
    ("DELETE FROM sessions WHERE expired", "DELETE"),
    ("INSERT INTO audit VALUES (1)", "INSERT"),
    ("MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE", "MERGE"),
    ("REPLACE INTO settings VALUES ('pool', 50)", "REPLACE"),
    ("TRUNCATE TABLE jobs", "TRUNCATE TABLE"),
    ("DROP TABLE users", "DROP TABLE"),
    ("ALTER SYSTEM SET max_connections = 500", "ALTER SYSTEM"),
    ("CREATE INDEX CONCURRENTLY i ON t (x)", "CREATE INDEX"),
    ("GRANT ALL ON orders TO app", "GRANT"),
    ("REVOKE SELECT ON orders FROM app", "REVOKE"),
    ("VACUUM FULL orders", "VACUUM"),
    ("REINDEX TABLE orders", "REINDEX"),
    ("CLUSTER orders USING orders_pkey", "CLUSTER"),
    ("COPY orders FROM '/tmp/orders.csv'", "COPY"),
    ("CALL purge_old_rows()", "CALL"),
    ("DO $$ BEGIN DELETE FROM t; END $$", "DO"),
    ("KILL 12345", "KILL"),
    ("SELECT * INTO orders_backup FROM orders", "SELECT … INTO"),
    ("SELECT * FROM jobs FOR UPDATE SKIP LOCKED", "SELECT … FOR UPDATE"),
    ("EXPLAIN ANALYZE UPDATE t SET a = 1", "UPDATE"),
    ("EXPLAIN (ANALYZE, BUFFERS) DELETE FROM t", "DELETE"),
    ("WITH d AS (DELETE FROM jobs RETURNING *) SELECT count(*) FROM d", "DELETE"),
    ("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE state = 'idle'", "SELECT pg_terminate_backend"),
    ("SELECT pg_cancel_backend(4242)", "SELECT pg_cancel_backend"),
    ("SELECT setval('orders_id_seq', 1)", "SELECT setval"),
    ("SELECT pg_reload_conf()", "SELECT pg_reload_conf"),
    ("SELECT purge_old_sessions()", "SELECT purge_old_sessions"),
    ("SELECT 1; DROP TABLE users", "DROP TABLE"),
    ("/*!50000 DROP TABLE users */", "DROP TABLE"),
    ("SELECT 1 -- harmless\nDELETE FROM users", "DELETE"),
    ("SET GLOBAL max_connections = 10", "SET GLOBAL"),
    ("RESET MASTER", "RESET MASTER"),
    ("START SLAVE", "START"),
    ("PRAGMA journal_mode=WAL", "PRAGMA"),
    ("LOCK TABLE orders IN ACCESS EXCLUSIVE MODE", "LOCK"),
    ("\\copy orders from orders.csv", "\\copy"),
    ("ANALYZE orders", "ANALYZE"),
]


@pytest.mark.parametrize("statement", READS)
def test_reading_statements_read(statement):
    assert sql.judge(statement).writes is False


@pytest.mark.parametrize("statement, verb", WRITES)
def test_every_other_statement_writes(statement, verb):
    assert sql.judge(statement) == sql.SQLVerdict(True, verb)


@pytest.mark.parametrize("text, writes", [
    ("run UPDATE accounts SET balance = 0 WHERE id = 7", True),
    ("then DELETE FROM sessions on the primary", True),
    ("terminate idle sessions with pg_terminate_backend", True),
    ("drop table users", True),
    ("Check SELECT count(*) FROM pg_stat_activity", False),
])
def test_sql_written_into_a_sentence_is_found(text, writes):
    found = sql.IN_PROSE.search(text) is not None
    read = sql.READ_IN_PROSE.search(text) is not None
    assert (found, read) == (writes, not writes)
