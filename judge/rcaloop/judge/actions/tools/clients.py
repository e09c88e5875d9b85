"""Clients that send something to a server: SQL shells, redis-cli, mongosh, HTTP clients.
What they send decides: a statement, a Redis command, a request method."""

from __future__ import annotations

import re

from rcaloop.judge.actions.commands import Reader, Verdict, reads, worst, writes
from rcaloop.judge.actions.tools.base import Subcommands, dry_run, has, words


def _sql_client(command_options: tuple[str, ...], file_options: tuple[str, ...] = ()):
    """``psql -c SQL``, ``mysql -e SQL``: the statement decides; a script file writes (it cannot be
    read here); the client alone is an interactive session (reads, and runs what is piped in)."""
    def judge(name: str, args: list[str], reader: Reader) -> Verdict:
        """the statement given with the command option decides (see SQL); a script file writes;
        the client alone is an interactive session (and runs what is piped into it)."""
        found: list[Verdict] = []
        for i, a in enumerate(args):
            opt, eq, value = a.partition("=")
            if opt in command_options:
                text = value if eq else (args[i + 1] if i + 1 < len(args) else "")
                found.append(reader.sql(text, name))
            elif opt in file_options:
                return writes(f"{name} {opt}", known=True)
            elif a.startswith(command_options) and not a.startswith("--") and len(a) > 2 and a[:2] in command_options:
                found.append(reader.sql(a[2:], name))  # -c'SELECT 1' written without a space
        if not found:
            return reads(name, stdin="sql")
        return next((v for v in found if v.writes), found[0])

    return judge


PSQL = _sql_client(("-c", "--command"), ("-f", "--file"))
MYSQL = _sql_client(("-e", "--execute"), ("--init-command",))
CLICKHOUSE = _sql_client(("-q", "--query"), ("--queries-file",))
CQLSH = _sql_client(("-e", "--execute"), ("-f", "--file"))

_SQLITE_READS = frozenset({".tables", ".schema", ".indexes", ".indices", ".dbinfo", ".databases", ".show", ".help",
                           ".mode", ".headers", ".header", ".dump", ".fullschema", ".lint", ".stats", ".eqp", ".timer",
                           ".width", ".expert", ".backup", ".once", ".output", ".print", ".quit", ".exit"})


def sqlite3(name: str, args: list[str], reader: Reader) -> Verdict:
    """``sqlite3 DB SQL``: the statement decides; a dot-command reads when it only shows (``.tables``, ``.schema``)."""
    _, pos = words(args, ("-cmd", "-separator", "-newline", "-nullvalue", "-init"))
    statements = pos[1:]
    if not statements:
        return reads(name, stdin="sql")
    text = " ".join(statements)
    if text.startswith("."):
        dot = text.split()[0]
        return reads(f"{name} {dot}") if dot in _SQLITE_READS else writes(f"{name} {dot}")
    return reader.sql(text, name)


def clickhouse(name: str, args: list[str], reader: Reader) -> Verdict:
    """``clickhouse client -q SQL``: the statement decides."""
    return CLICKHOUSE(f"{name} {args[0]}", args[1:], reader) if args and args[0] in ("client", "local") else writes(
        " ".join([name, *args[:1]]), known=False)


def _statements(name: str, texts: list[str], reader: Reader) -> Verdict:
    """The first writing statement of ``texts``, else the first reading one; none: an
    interactive session (reads, and runs what is piped in)."""
    return worst(reader.sql(t, name) for t in texts if t.strip()) or reads(name, stdin="sql")


def duckdb(name: str, args: list[str], reader: Reader) -> Verdict:
    """``duckdb [DB] [SQL]``, ``-c SQL``: the statements decide; ``-init``/``-f`` files write."""
    if has(args, "-init", "-f"):
        return writes(f"{name} -f")
    _, pos = words(args, ("-c", "-cmd", "-s", "-separator", "-newline", "-nullvalue"))
    given = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-c", "-cmd", "-s")]
    return _statements(name, given + pos[1:], reader)


def cypher_shell(name: str, args: list[str], reader: Reader) -> Verdict:
    """``cypher-shell [options] QUERY``: the Cypher query decides (``MATCH … RETURN`` reads;
    ``CREATE``, ``MERGE``, ``SET``, ``DELETE``, ``REMOVE``, a procedure ``CALL`` write); a file writes."""
    if has(args, "-f", "--file"):
        return writes(f"{name} --file")
    _, pos = words(args, ("-a", "--address", "-u", "--username", "-p", "--password", "-d", "--database",
                          "--format", "-P", "--param", "--encryption", "--access-mode", "--fail-at-end",
                          "--sample-rows", "--wrap", "--driver-version", "--log"))
    return _statements(name, [" ".join(pos)] if pos else [], reader)


_BQ_VALUES = ("--project_id", "--dataset_id", "--location", "--format", "--max_rows", "-n", "--api",
              "--parameter", "--destination_table", "--job_id", "--use_legacy_sql")


def bq(name: str, args: list[str], reader: Reader) -> Verdict:
    """``bq query SQL``: the statement decides (a ``--destination_table`` writes); ``ls``,
    ``show``, ``head``, ``version``, ``help`` read; ``--dry_run`` reads; every other command writes."""
    opts, pos = words(args, _BQ_VALUES)
    if not pos:
        return reads(name)
    sub = pos[0].lower()
    if has(opts, "--dry_run") or dry_run(opts):
        return reads(f"{name} {sub}")
    if sub == "query":
        if any(o.startswith(("--destination_table", "--replace", "--append_table")) for o in opts) or (
                "--destination_table" in args):
            return writes(f"{name} query --destination_table")
        verdict = _statements(name, [" ".join(pos[1:])] if pos[1:] else [], reader)
        return verdict if verdict.writes else reads(f"{name} query", stdin=verdict.stdin)
    if sub in ("ls", "show", "head", "version", "help", "wait"):
        return reads(f"{name} {sub}")
    return writes(f"{name} {sub}")


def _kafka(reading: tuple[str, ...], writing: tuple[str, ...]):
    def judge(name: str, args: list[str], reader: Reader) -> Verdict:
        hit = next((a for a in args if a.split("=", 1)[0] in writing), None)
        if hit and not (dry_run(args) and "--execute" not in args):
            return writes(f"{name} {hit}")
        if hit or any(a.split("=", 1)[0] in reading for a in args):
            return reads(name)
        return writes(name, known=False)

    judge.reading, judge.writing = reading, writing  # type: ignore[attr-defined]  # read by the generated docs
    return judge


KAFKA_CONSUMER_GROUPS = _kafka(("--describe", "--list", "--help", "--version"),
                               ("--reset-offsets", "--delete", "--delete-offsets", "--execute"))
KAFKA_TOPICS = _kafka(("--describe", "--list", "--help", "--version"), ("--create", "--alter", "--delete"))
KAFKA_CONFIGS = _kafka(("--describe", "--help", "--version"), ("--alter", "--add-config", "--delete-config"))
KAFKA_LOG_DIRS = _kafka(("--describe", "--help", "--version"), ())
KAFKA_REASSIGN = _kafka(("--list", "--generate", "--help", "--version"), ("--execute", "--cancel", "--verify"))
"""``--verify`` also removes the replication throttles a reassignment set: it writes."""

LOGCLI = Subcommands(
    reads=frozenset({"query", "instant-query", "labels", "series", "stats", "volume", "volume_range",
                     "detected-fields", "fmt", "help", "version"}),
    value_options=frozenset({"--addr", "--org-id", "--username", "--password", "--limit", "--since", "--from",
                             "--to", "-o", "--output", "-q", "--tenant"}),
)

RABBITMQCTL = Subcommands(
    reads=frozenset({"list_*", "status", "cluster_status", "environment", "report", "node_health_check", "ping",
                     "version", "help", "await_startup"}),
    value_options=frozenset({"-n", "--node", "-p", "--vhost", "-t", "--timeout"}),
)

RABBITMQ_DIAGNOSTICS = Subcommands(
    reads=frozenset({"status", "ping", "check_*", "list_*", "listeners", "memory_breakdown", "environment",
                     "cluster_status", "alarms", "observer", "log_tail", "log_tail_stream", "log_location",
                     "server_version", "erlang_version", "os_env", "runtime_thread_stats", "tls_versions",
                     "certificates", "command_line_arguments", "discover_peers", "is_booting", "is_running",
                     "maybe_stuck", "report", "help", "version", "schema_info", "quorum_status", "erlang_cookie_hash",
                     "cipher_suites", "resolve_hostname", "resolver_info"}),
    value_options=frozenset({"-n", "--node", "-t", "--timeout"}),
)

NODETOOL = Subcommands(
    reads=frozenset({"status", "status*", "info", "tpstats", "cfstats", "tablestats", "compactionstats",
                     "compactionhistory", "netstats", "ring", "describecluster", "describering", "gossipinfo",
                     "proxyhistograms", "tablehistograms", "cfhistograms", "get*", "version", "listsnapshots",
                     "gcstats", "toppartitions", "viewbuildstatus", "failuredetector", "help", "clientstats",
                     "rangekeysample"}),
    value_options=frozenset({"-h", "--host", "-p", "--port", "-u", "--username", "-pw", "--password",
                             "-pwf", "--password-file"}),
)


MYSQLADMIN = Subcommands(
    reads=frozenset({"status", "extended-status", "processlist", "variables", "ping", "version", "help"}),
    writes=frozenset({"kill", "flush-*", "shutdown", "create", "drop", "password", "reload", "refresh", "start-replica",
                      "stop-replica", "start-slave", "stop-slave", "debug"}),
    value_options=frozenset({"-u", "--user", "-h", "--host", "-P", "--port", "-S", "--socket", "-i", "--sleep", "-c",
                             "--count"}),
)

# --- Redis ------------------------------------------------------------------------------

REDIS_READS = frozenset({
    "get", "mget", "exists", "ttl", "pttl", "expiretime", "pexpiretime", "type", "keys", "scan", "sscan", "hscan",
    "zscan", "hget", "hgetall", "hmget", "hkeys", "hvals", "hlen", "hexists", "hstrlen", "hrandfield", "lrange", "llen",
    "lindex", "lpos", "smembers", "sismember", "smismember", "scard", "srandmember", "sinter", "sunion", "sdiff",
    "sintercard", "zrange", "zrangebyscore", "zrangebylex", "zrevrange", "zrevrangebyscore", "zrevrangebylex", "zcard",
    "zscore", "zmscore", "zcount", "zlexcount", "zrank", "zrevrank", "zrandmember", "zinter", "zunion", "zdiff", "xlen",
    "xrange", "xrevrange", "xread", "xpending", "info", "ping", "dbsize", "strlen", "getrange", "substr", "bitcount",
    "bitpos", "getbit", "pfcount", "time", "lastsave", "role", "monitor", "randomkey", "echo", "subscribe",
    "psubscribe", "ssubscribe", "geopos", "geodist", "geohash", "georadius_ro", "georadiusbymember_ro", "geosearch",
    "lcs", "dump", "sort_ro", "select", "auth", "hello", "readonly", "quit", "touch", "wait", "lolwut",
    "memory usage", "memory stats", "memory doctor", "memory malloc-stats", "slowlog get", "slowlog len",
    "client list", "client info", "client getname", "client id", "client trackinginfo", "client getredir",
    "config get", "cluster info", "cluster nodes", "cluster slots", "cluster shards", "cluster myid", "cluster keyslot",
    "cluster countkeysinslot", "cluster getkeysinslot", "cluster replicas", "cluster slaves", "cluster links",
    "latency latest", "latency history", "latency doctor", "latency graph", "latency histogram", "object encoding",
    "object freq", "object idletime", "object refcount", "object help", "command", "command count", "command info",
    "command docs", "command list", "command getkeys", "debug object", "acl list", "acl whoami", "acl users",
    "acl getuser", "acl cat", "acl log", "acl dryrun", "module list", "function list", "function dump", "script exists",
    "pubsub channels", "pubsub numsub", "pubsub numpat", "pubsub shardchannels", "xinfo stream", "xinfo groups",
    "xinfo consumers", "sentinel masters", "sentinel master", "sentinel replicas", "sentinel slaves",
    "sentinel sentinels", "sentinel get-master-addr-by-name", "sentinel ckquorum", "sentinel info-cache",
})
_REDIS_GROUPS = frozenset({"memory", "slowlog", "client", "config", "cluster", "latency", "object", "command", "debug",
                           "acl", "module", "function", "script", "pubsub", "xinfo", "sentinel"})
_REDIS_VALUES = ("-h", "-p", "-s", "-a", "--user", "--pass", "--askpass", "-u", "-n", "-r", "-i", "-d", "-D",
                 "--cacert",
                 "--cacertdir", "--cert", "--key", "--sni", "--pattern", "--count", "--quoted-pattern", "--rdb",
                 "--functions-rdb", "-t", "--memkeys-samples", "--tls-ciphers", "--tls-ciphersuites",
                 "--intrinsic-latency")
"""Options that take a value (``-i 5``); ``--latency-history``, ``--latency-dist``, ``-2``/``-3`` take none."""
_REDIS_READ_MODES = ("--bigkeys", "--memkeys", "--hotkeys", "--scan", "--stat", "--latency", "--latency-history",
                     "--latency-dist", "--intrinsic-latency", "--rdb", "--functions-rdb", "--replica", "--help",
                     "--version")


def redis_command(words_: list[str], tool: str = "redis-cli") -> Verdict:
    """One Redis command (``GET k`` reads; ``SET``, ``DEL``, ``FLUSHALL``, ``CONFIG SET`` … write)."""
    head = words_[0].lower()
    path = f"{head} {words_[1].lower()}" if head in _REDIS_GROUPS and len(words_) > 1 else head
    return reads(f"{tool} {path}") if path in REDIS_READS else writes(f"{tool} {path.upper()}")


_REDIS_WORDS = frozenset({"info", "get", "mget", "ttl", "pttl", "type", "scan", "keys", "exists", "llen", "lrange",
                          "hget", "hgetall", "hlen", "smembers", "scard", "zrange", "zcard", "xlen", "xinfo", "dbsize",
                          "memory", "slowlog", "client", "config", "latency", "object", "set", "del", "unlink",
                          "flushall", "flushdb", "expire", "persist", "hset", "hdel", "lpush", "rpush", "sadd", "srem",
                          "zadd", "zrem", "xadd", "xdel", "xtrim", "shutdown", "failover", "replicaof", "slaveof",
                          "debug", "save", "bgsave", "bgrewriteaof", "sentinel", "cluster", "acl", "script", "eval",
                          "evalsha", "function", "module"})
"""Redis commands as they are written bare in a report (``INFO replication``, ``FLUSHALL``)."""


def redis_bare(words_: list[str]) -> Verdict | None:
    """A Redis command written without ``redis-cli`` (upper case, as Redis documents it); None otherwise."""
    if not words_ or not words_[0].isupper() or words_[0].lower() not in _REDIS_WORDS:
        return None
    return redis_command(words_, tool="redis")


def redis_cli(name: str, args: list[str], reader: Reader) -> Verdict:
    """the Redis command decides: ``GET``, ``INFO``, ``SCAN``, ``TTL``, ``CONFIG GET`` … read; ``SET``,
    ``DEL``, ``FLUSHALL``, ``CONFIG SET`` and every other command write; ``--eval``/``--pipe`` write;
    ``--bigkeys``/``--scan``/``--stat`` read."""
    opts, pos = words(args, _REDIS_VALUES + ("--eval", "--cluster"))
    if has(opts, "--eval", "--pipe"):
        return writes(f"{name} {next(o for o in opts if o in ('--eval', '--pipe'))}")
    if "--cluster" in args:
        sub = args[args.index("--cluster") + 1].lower() if args.index("--cluster") + 1 < len(args) else ""
        if sub == "call":
            return redis_command(pos[1:], name) if len(pos) > 1 else reads(name)
        verb = f"{name} --cluster {sub}"
        return reads(verb) if sub in ("check", "info", "help") else writes(verb)
    if not pos:
        return reads(name, stdin="redis") if not has(opts, *_REDIS_READ_MODES) else reads(name)
    return redis_command(pos, name)


# --- MongoDB ---------------------------------------------------------------------------

_MONGO_WRITES = re.compile(
    r"\.(?:insert\w*|update\w*|delete\w*|remove|drop\w*|replace\w*|rename\w*|create\w*|bulkWrite|findAndModify|"
    r"findOneAnd\w+|save|shutdownServer|killOp|fsyncLock|fsyncUnlock|setProfilingLevel|eval|grantRoles\w*|"
    r"revokeRoles\w*|dropUser|updateUser|compact|repairDatabase|reIndex|hideIndex|unhideIndex|stepDown|reconfig\w*|"
    r"add|addArb|freeze|syncFrom|enableSharding|shardCollection|moveChunk|splitAt|splitFind|setBalancerState|"
    r"startBalancer|stopBalancer|setFeatureCompatibilityVersion|setParameter|logRotate|killSession\w*)\s*\(|"
    r"\$(?:out|merge)\b",
)
_MONGO_COMMANDS = re.compile(r"\.(?:runCommand|adminCommand|command)\s*\(")
_MONGO_READ_COMMANDS = re.compile(
    r"^\s*\(\s*\{?\s*['\"]?(?:serverStatus|buildInfo|ping|hello|isMaster|replSetGetStatus|replSetGetConfig|currentOp|"
    r"listDatabases|listCollections|listIndexes|dbStats|collStats|getParameter|hostInfo|top|connPoolStats|"
    r"getCmdLineOpts|getLog|connectionStatus|dataSize|explain|count|distinct|find|aggregate|validate|"
    r"getShardMap|listShards|balancerStatus)\b")


MONGO_READ_CALLS = frozenset({
    "find", "findOne", "count", "countDocuments", "estimatedDocumentCount", "distinct", "aggregate", "explain",
    "getIndexes", "getIndexKeys", "getIndexSpecs", "stats", "dataSize", "storageSize", "totalSize", "totalIndexSize",
    "getCollectionNames", "getCollectionInfos", "getCollection", "getSiblingDB", "getDB", "getName", "getMongo",
    "serverStatus", "serverBuildInfo", "version", "hostInfo", "isMaster", "hello", "currentOp", "status", "conf",
    "config", "printReplicationInfo", "printSecondaryReplicationInfo", "getReplicationInfo", "printShardingStatus",
    "getProfilingStatus", "getProfilingLevel", "getUsers", "getUser", "getRoles", "getRole", "isBalancerRunning",
    "getBalancerState", "watch", "print", "printjson", "tojson", "toArray", "pretty", "limit", "sort", "skip",
    "itcount", "hint", "size", "next", "hasNext", "forEach", "map", "filter", "project", "batchSize", "maxTimeMS",
    "readPref", "stringify", "ObjectId", "ISODate", "Date", "NumberLong", "NumberInt", "NumberDecimal", "UUID",
    "Timestamp", "function", "if", "for", "while", "switch", "return", "typeof", "keys", "values", "log",
})  # fmt: skip
"""Calls a mongosh script may make and still only read; any other call writes (fail closed)."""
_MONGO_CALL = re.compile(r"([A-Za-z_$][\w$]*)\s*\(")


def mongo_script(text: str, tool: str = "mongosh") -> Verdict:
    """A script reads only when every call in it is a reading one (``find``, ``count``,
    ``aggregate`` without ``$out``/``$merge``, a listed admin command): a write, or a call that
    cannot be read here, writes."""
    m = _MONGO_WRITES.search(text)
    if m:
        return writes(f"{tool} {m.group(0).strip('.(').strip()}")
    for call in _MONGO_COMMANDS.finditer(text):
        if not _MONGO_READ_COMMANDS.match(text[call.end() - 1:]):
            return writes(f"{tool} {call.group(0).strip('.(').strip()}")
    for call in _MONGO_CALL.finditer(text):
        name = call.group(1)
        if name not in MONGO_READ_CALLS and name not in ("runCommand", "adminCommand", "command"):
            return writes(f"{tool} {name}")
    return reads(tool)


def mongosh(name: str, args: list[str], reader: Reader) -> Verdict:
    """``--eval`` JavaScript reads only when every call in it reads (it inserts, updates, deletes,
    drops, runs an unlisted admin command, aggregates into ``$out``/``$merge`` or calls anything
    unlisted: writes); a script file writes."""
    for i, a in enumerate(args):
        opt, eq, value = a.partition("=")
        if opt == "--eval":
            return mongo_script(value if eq else (args[i + 1] if i + 1 < len(args) else ""), name)
        if opt in ("-f", "--file"):
            return writes(f"{name} {opt}")
    _, pos = words(args, ("-u", "--username", "-p", "--password", "--host", "--port", "--authenticationDatabase"))
    if any(p.endswith((".js", ".mongodb")) for p in pos):
        return writes(f"{name} {next(p for p in pos if p.endswith(('.js', '.mongodb')))}")
    return reads(name, stdin="data")


# --- HTTP ------------------------------------------------------------------------------

_HTTP_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "POST", "PUT", "PATCH", "DELETE", "PURGE", "CONNECT"})
_READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
_CHANGE_PATH = re.compile(
    r"(?:^|[/?&=._-])(?:shutdown|restart|reload|flush\w*|purge|delete|drop|reset|kill|quit|stop|terminate|evict|drain|"
    r"failover|rotate|disable|enable|pause|resume|trigger|rollback|truncate|wipe|clear|invalidate|refresh|"
    r"scale|deploy|promote|revoke|quitquitquit|exit|abort|halt|fail|modify|forcemerge|compact|gc|cpuprofiler|"
    r"heapprofiler|logging(?=\?)|log_level|loglevel|set|unlock|lock|suspend|freeze)(?:$|[/?&=._-])",
    re.I,
)
"""A URL path or query asking for a change (``/-/reload``, ``/actuator/shutdown``, ``?action=flush``):
such an endpoint may change state even on ``GET`` (fail closed)."""
_QUERY_API = re.compile(
    r"/(?:api/v1/(?:query|query_range|query_exemplars|series|labels|label/[^/?]+/values|format_query|parse_query)|"
    r"loki/api/v1/(?:query|query_range|series|labels|label/[^/?]+/values|index/stats|index/volume\w*|patterns)|"
    r"(?:[\w.*,-]+/)?_(?:search|count|msearch|field_caps|validate/query))/?(?:$|\?)")
"""A query API that takes its query in a ``POST`` body and only reads: Prometheus (and its
compatible stores), Loki, Elasticsearch/OpenSearch search. Any other endpoint written to writes."""
_CURL_VALUES = ("-H", "--header", "-o", "--output", "-u", "--user", "-A", "--user-agent", "-e", "--referer", "-b",
                "--cookie", "-c", "--cookie-jar", "-m", "--max-time", "--connect-timeout", "-w", "--write-out", "-x",
                "--proxy", "--cacert", "--cert", "--key", "--resolve", "--retry", "--retry-delay", "-K", "--config",
                "--url", "-E", "--limit-rate", "--interface", "--dns-servers", "-r", "--range", "-Y", "-y")
_CURL_DATA = ("-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "--data-ascii", "-F", "--form",
              "--form-string", "-T", "--upload-file", "--json")


_HOST_PATH = re.compile(r"^[\w.-]+(:\d+)?/")


def _urls(pos: list[str]) -> list[str]:
    return [p for p in pos if "://" in p or p.startswith(("/", "localhost", "127.")) or _HOST_PATH.match(p)]


def _path(url: str) -> str:
    return "/" + url.split("://", 1)[-1].partition("/")[2]


def _http_verdict(name: str, method: str, urls: list[str]) -> Verdict:
    changing = next((u for u in urls if _CHANGE_PATH.search(_path(u)[1:])), None)
    if method == "POST" and urls and not changing and all(_QUERY_API.search(_path(u)) for u in urls):
        return reads(f"{name} POST {_path(urls[0]).split('?', 1)[0]}")
    if method not in _READ_METHODS:
        return writes(f"{name} {method}")
    if changing:
        return writes(f"{name} {changing}")
    return reads(name)


def curl(name: str, args: list[str], reader: Reader) -> Verdict:
    """a ``GET``/``HEAD`` reads unless its URL asks for a change (``/-/reload``, ``/admin/flush``,
    ``/quitquitquit``, ``/healthcheck/fail``); a ``POST`` of a query to a query API (Prometheus
    ``/api/v1/query``, Loki, Elasticsearch ``_search``) reads; ``-X POST|PUT|PATCH|DELETE``,
    ``-d``/``--data*``, ``-F``, ``-T``, ``--json`` to any other endpoint write."""
    method = ""
    opts, pos = words(args, _CURL_VALUES + _CURL_DATA + ("-X", "--request"))
    for i, a in enumerate(args):
        opt, eq, value = a.partition("=")
        if opt in ("-X", "--request"):
            method = (value if eq else (args[i + 1] if i + 1 < len(args) else "")).upper()
        elif re.match(r"^-[a-zA-Z]*X", a) and not a.startswith("--"):
            rest = a[a.index("X") + 1:]
            method = (rest or (args[i + 1] if i + 1 < len(args) else "")).upper()
    if not method:
        if has(opts, "-I", "--head"):
            method = "HEAD"
        elif has(opts, *_CURL_DATA) and not has(opts, "-G", "--get"):
            method = "PUT" if has(opts, "-T", "--upload-file") else "POST"
        else:
            method = "GET"
    return _http_verdict(name, method, _urls(pos) or pos[:1])


def wget(name: str, args: list[str], reader: Reader) -> Verdict:
    """a ``GET`` reads unless its URL asks for a change; ``--post-*``, ``--body-*`` or another ``--method`` writes."""
    opts, pos = words(args, ("-O", "--output-document", "-o", "--output-file", "-P", "--directory-prefix", "-e",
                             "--execute", "-U", "--user-agent", "--header", "-t", "--tries", "-T", "--timeout",
                             "--post-data", "--post-file", "--body-data", "--body-file", "--method"))
    method = "GET"
    for i, a in enumerate(args):
        opt, eq, value = a.partition("=")
        if opt == "--method":
            method = (value if eq else (args[i + 1] if i + 1 < len(args) else "GET")).upper()
        elif opt in ("--post-data", "--post-file"):
            method = "POST"
        elif opt in ("--body-data", "--body-file") and method == "GET":
            method = "POST"
    if has(opts, "--spider"):
        method = "HEAD" if method == "GET" else method
    return _http_verdict(name, method, _urls(pos) or pos[:1])


def httpie(name: str, args: list[str], reader: Reader) -> Verdict:
    """``http [METHOD] URL [ITEMS]``: ``GET`` reads; another method, or data items (``key=value``,
    ``key:=json``, ``@file``), write."""
    _, pos = words(args, ("-a", "--auth", "-o", "--output", "--session", "--verify", "--cert", "--cert-key", "--proxy",
                          "--timeout", "-A", "--auth-type", "--print", "-p"))
    method = pos[0].upper() if pos and pos[0].upper() in _HTTP_METHODS else ""
    rest = pos[1:] if method else pos
    data = any(re.match(r"^[^=:@]+(?::=|=(?!=)|@)", p) for p in rest[1:]) or any(a in ("-f", "--form") for a in args)
    return _http_verdict(name, method or ("POST" if data else "GET"), rest[:1])


TOOLS = {
    "psql": PSQL, "mysql": MYSQL, "mariadb": MYSQL, "clickhouse-client": CLICKHOUSE, "clickhouse": clickhouse,
    "cqlsh": CQLSH, "sqlite3": sqlite3, "mysqladmin": MYSQLADMIN, "mariadb-admin": MYSQLADMIN,
    "redis-cli": redis_cli, "valkey-cli": redis_cli, "keydb-cli": redis_cli, "mongosh": mongosh, "mongo": mongosh,
    "curl": curl, "wget": wget, "http": httpie, "https": httpie, "xh": httpie,
    "duckdb": duckdb, "cypher-shell": cypher_shell, "bq": bq,
    "kafka-consumer-groups": KAFKA_CONSUMER_GROUPS, "kafka-topics": KAFKA_TOPICS, "kafka-configs": KAFKA_CONFIGS,
    "kafka-reassign-partitions": KAFKA_REASSIGN,
    "kafka-log-dirs": KAFKA_LOG_DIRS, "logcli": LOGCLI, "rabbitmqctl": RABBITMQCTL,
    "rabbitmq-diagnostics": RABBITMQ_DIAGNOSTICS, "nodetool": NODETOOL,
}
PROSE = frozenset({"psql", "mysql", "clickhouse-client", "cqlsh", "sqlite3", "mysqladmin", "redis-cli", "valkey-cli",
                   "duckdb", "cypher-shell", "kafka-consumer-groups", "kafka-topics", "kafka-configs", "logcli",
                   "rabbitmqctl", "rabbitmq-diagnostics", "nodetool",
                   "mongosh", "curl", "wget"})
