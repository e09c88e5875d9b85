"""A host's own commands: systemd, the shell's read-only and writing tools, networking and
firewalls, and the wrappers that run another command (``sudo``, ``ssh``, ``bash -c`` …)."""

from __future__ import annotations

import re

from rcaloop.judge.actions.commands import Reader, Verdict, reads, writes
from rcaloop.judge.actions.tools.base import Subcommands, after_options, always, flags, has, scratch, words

SYSTEMCTL = Subcommands(
    reads=frozenset({"status", "show", "cat", "list-*", "is-*", "get-default", "help", "show-environment",
                     "--version"}),
    writes=frozenset({
        "start", "stop", "restart", "reload", "try-restart", "reload-or-restart", "try-reload-or-restart", "enable",
        "disable", "mask", "unmask", "kill", "daemon-reload", "daemon-reexec", "reset-failed", "set-property", "edit",
        "isolate", "reboot", "poweroff", "halt", "set-default", "set-environment", "unset-environment", "link",
        "preset", "revert", "suspend", "hibernate", "freeze", "thaw", "clean", "import-environment", "rescue",
        "emergency", "kexec", "soft-reboot", "condrestart", "force-reload",
    }),
    value_options=frozenset({"-p", "--property", "-t", "--type", "--state", "-H", "--host", "-M", "--machine", "-n",
                             "--lines", "-o", "--output", "--root", "-s", "--signal", "--kill-whom"}),
)
_SERVICE_READS = frozenset({"status", "--status-all"})


def _service(name: str, args: list[str], reader: Reader) -> Verdict:
    """``service NAME ACTION``: only ``status`` (and ``--status-all``) reads."""
    opts, pos = words(args)
    if "--status-all" in opts or not pos:
        return reads(name)
    action = pos[1].lower() if len(pos) > 1 else ""
    verb = f"{name} {pos[0]} {action}".strip()
    if action in _SERVICE_READS:
        return reads(verb)
    known = action in SYSTEMCTL.writes
    return writes(verb, known=known)


SHELL_READS = frozenset({
    "cat", "tac", "less", "more", "head", "tail", "wc", "grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep", "zcat",
    "xzcat", "bzcat", "zless", "uniq", "cut", "tr", "column", "diff", "cmp", "comm", "md5sum", "sha1sum",
    "sha256sum", "sha512sum", "b2sum", "cksum", "readlink", "realpath", "basename", "dirname", "which", "whereis",
    "type", "file", "stat", "strings", "od", "hexdump", "xxd", "base64", "jq", "ls", "ll", "tree", "df", "du", "ps",
    "pgrep", "pstree", "pidof", "top", "htop", "atop", "btop", "free", "uptime", "w", "who", "last", "lastlog",
    "uname", "id", "whoami", "groups", "getent", "printenv", "locale", "nproc", "lscpu", "lsmem", "lspci", "lsusb",
    "lsmod", "modinfo", "lsblk", "blkid", "findmnt", "lsof", "iostat", "vmstat", "mpstat", "sar", "pidstat",
    "iotop", "iftop", "nethogs", "dstat", "getconf", "ss", "netstat", "dig", "nslookup", "host", "ping", "ping6",
    "traceroute", "tracepath", "mtr", "arping", "nmap", "tshark", "ngrep", "whois", "getfacl", "lsattr",
    "sestatus", "getenforce", "getsebool", "systemd-cgls", "systemd-cgtop", "timedatectl",
    "coredumpctl", "env", "date", "cal", "time",
    "lvs", "vgs", "pvs", "lvdisplay", "vgdisplay", "pvdisplay", "dmidecode", "sensors", "iwconfig",
    "numastat", "pmap", "jstack", "jstat", "jps", "pg_isready", "pg_dump", "pg_dumpall", "mysqldump",
    "pg_controldata", "pg_waldump", "ab", "hey", "wrk",
    "kubeconform", "kubeval", "yamllint", "shellcheck", "hadolint",
    "xmllint", "zdump", "tzselect", "ldd", "nm", "objdump", "readelf", "ncdu",
})
"""Tools that only read (a ``>`` redirect or ``tee`` of their output is judged on its own)."""
SHELL_WRITES = frozenset({
    "rm", "rmdir", "mv", "cp", "ln", "mkdir", "touch", "kill", "pkill", "killall", "skill", "reboot", "shutdown",
    "halt", "poweroff", "init", "telinit", "chmod", "chown", "chgrp", "mkfs", "mke2fs", "mkswap", "truncate", "shred",
    "install", "patch", "useradd", "usermod", "userdel", "groupadd", "groupdel", "groupmod", "passwd", "chpasswd",
    "chage", "setenforce", "setsebool", "chattr", "setfacl", "modprobe", "rmmod", "insmod", "umount", "systemd-run",
    "scp", "sftp", "unlink", "chroot", "renice", "taskset", "chcon", "restorecon", "fsck", "e2fsck", "xfs_repair",
    "resize2fs", "xfs_growfs", "lvcreate", "lvremove", "lvextend", "lvresize", "lvreduce", "vgcreate", "vgremove",
    "vgextend", "vgreduce", "pvcreate", "pvremove", "pvmove", "growpart", "sgdisk", "mdadm", "cryptsetup", "tune2fs",
    "wall", "logger", "source", ".", "make", "update-grub", "grub-install", "dracut", "update-initramfs",
    "pg_restore", "pg_resetwal", "pg_rewind", "pg_upgrade", "pgbench", "mysql_upgrade",
    "mongorestore", "redis-server", "certbot", "letsencrypt", "kexec", "rfkill", "ifdown", "ifup",
    "swapoff", "kubeadm", "kubelet", "consul-template", 
})
"""Tools that change the host (or its data) whatever their arguments."""


def _kill_like(name: str, args: list[str], reader: Reader) -> Verdict:
    """``kill -l`` lists signals and ``kill -0 PID`` only probes; every other use sends a signal."""
    opts, _ = words(args)
    if opts and opts[0] in ("-l", "-L", "--list", "-0", "--table"):
        return reads(name)
    return writes(" ".join([name, *opts[:1]]))


def _sed(name: str, args: list[str], reader: Reader) -> Verdict:
    """``sed -i`` edits files in place (writes); any other ``sed`` prints."""
    opts, _ = words(args, ("-e", "-f", "--expression", "--file", "-l"))
    hit = next((o for o in opts if o.startswith("--in-place") or (not o.startswith("--") and "i" in o[1:])), None)
    return writes(f"{name} {hit}") if hit else reads(name)


def _find(name: str, args: list[str], reader: Reader) -> Verdict | None:
    """``find`` reads unless it deletes, writes a file, or runs a writing command (``-exec rm``)."""
    for i, a in enumerate(args):
        if a in ("-delete", "-fprint", "-fprint0", "-fprintf", "-fls"):
            return writes(f"{name} {a}")
        if a in ("-exec", "-execdir", "-ok", "-okdir"):
            end = next((j for j in range(i + 1, len(args)) if args[j] in (";", "+", "\\;")), len(args))
            inner = reader.argv([w for w in args[i + 1:end] if w != "{}"])
            if inner is not None and inner.writes:
                return inner
    return reads(name)


def _tee(name: str, args: list[str], reader: Reader) -> Verdict:
    """``tee FILE`` writes the file; ``tee`` to the terminal or ``/dev/null`` reads."""
    _, pos = words(args)
    files = [p for p in pos if p not in ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "-")]
    return writes(f"{name} {files[0]}") if files else reads(name)


def _dd(name: str, args: list[str], reader: Reader) -> Verdict:
    """``dd of=TARGET`` writes the target; without ``of=`` it prints."""
    target = next((a[3:] for a in args if a.startswith("of=")), None)
    return writes(f"{name} of={target}") if target and target != "/dev/null" else reads(name)


def _awk(name: str, args: list[str], reader: Reader) -> Verdict:
    """``awk`` reads unless its program calls ``system()`` or redirects output (or ``-i inplace``)."""
    program = " ".join(a for a in args if not a.startswith("-"))
    inplace = any(a in ("-i", "inplace") or a.startswith("--inplace") for a in args)
    return writes(name) if inplace or any(s in program for s in ("system(", "> ", ">>", "| ", "|&")) else reads(name)


def _crontab(name: str, args: list[str], reader: Reader) -> Verdict:
    """``crontab -l`` lists; every other use edits or removes the crontab."""
    opts, pos = words(args, ("-u",))
    return reads(name) if "-l" in opts and not pos else writes(" ".join([name, *opts[:1]]))


def _ulimit(name: str, args: list[str], reader: Reader) -> Verdict:
    """``ulimit -n`` shows a limit; ``ulimit -n 65535`` (a value) sets it."""
    _, pos = words(args)
    return writes(f"{name} {pos[0]}") if pos else reads(name)


def _sysctl(name: str, args: list[str], reader: Reader) -> Verdict:
    """``sysctl KEY`` reads; ``-w``, ``-p``/``--system`` or ``KEY=VALUE`` writes."""
    opts, pos = words(args)
    if has(opts, "-w", "--write", "-p", "--load", "--system") or any("=" in p for p in pos):
        return writes(f"{name} {next((p for p in pos if '=' in p), '-w')}")
    return reads(name)


_IP_OBJECTS = ("address", "addrlabel", "maddress", "route", "rule", "neighbor", "neighbour", "ntable", "ntbl", "link")
"""``ip``'s first objects, in the order it tries them (the head of its table, down to ``link``):
an abbreviation is the first object it begins (``a`` is ``address``, ``r`` is ``route``, ``l``
is ``link``); one that begins none of these is left unresolved."""
_IP_SHOW_FIRST = frozenset({"address", "route", "rule", "neighbor", "neighbour"})
"""Objects whose command ``ip`` matches against ``show``/``list``/``lst`` before any other that
an abbreviation of those begins, so ``ip a s`` shows; ``ip link`` tries ``set`` first, so
``ip l s eth0 down`` sets (an abbreviation elsewhere writes)."""


def _object_action(name: str, args: list[str], reader: Reader) -> Verdict | None:
    """``ip``, ``tc``, ``bridge``: ``OBJECT [ACTION]`` reads when the action shows or lists
    (``ip a s``: an abbreviation where ``ip`` reads it as ``show``); ``ip netns exec NS CMD``
    runs CMD."""
    _, pos = words(args, ("-n", "-netns", "-f", "-family", "-b", "-batch", "-rc", "-rcvbuf"))
    if len(pos) <= 1:
        return reads(name)
    obj, action = pos[0].lower(), pos[1].lower()
    if obj == "netns" and action == "exec":
        return reader.argv(pos[3:]) or reads(f"{name} netns exec")
    if action in ("show", "list", "lst", "sh", "ls", "get", "help", "monitor", "dev", "identify", "pids"):
        return reads(f"{name} {obj} {action}")
    full = next((o for o in _IP_OBJECTS if o.startswith(obj)), None) if name == "ip" and obj else None
    if full in _IP_SHOW_FIRST and action and any(w.startswith(action) for w in ("show", "list", "lst")):
        return reads(f"{name} {full} {action}")
    return writes(f"{name} {obj} {action}")


def _mount(name: str, args: list[str], reader: Reader) -> Verdict:
    """``mount`` alone lists mounts; mounting anything writes."""
    opts, pos = words(args, ("-t", "-o", "-O", "-L", "-U"))
    return reads(name) if not pos and not has(opts, "-a", "--all", "--bind", "--move", "-o") else writes(name)


def _hostname(name: str, args: list[str], reader: Reader) -> Verdict:
    """``hostname`` prints the name; ``hostname NAME`` (or ``-F``/``-b``) sets it."""
    opts, pos = words(args, ("-F", "--file"))
    return writes(name) if pos or has(opts, "-F", "--file", "-b", "--boot") else reads(name)


_CTL_WRITES = frozenset({"up", "down", "modify", "mod", "add", "delete", "del", "connect", "disconnect", "reload",
                         "on", "off", "edit", "clone", "import", "export", "terminate-session", "kill-session",
                         "kill-user", "terminate-user", "lock-session", "enable-linger", "disable-linger", "reapply"})


def _ctl(name: str, args: list[str], reader: Reader) -> Verdict:
    """``hostnamectl``, ``timedatectl``, ``loginctl``, ``nmcli``: status, ``show-*``, ``list-*``
    read; ``set-*`` and the other changes write."""
    _, pos = words(args)
    head = [p.lower() for p in pos[:3]]
    verb = " ".join([name, *head[:2]])
    if any(w in _CTL_WRITES or w.startswith("set-") for w in head):
        return writes(verb)
    if not head or any(w in ("status", "show", "list", "monitor", "general") or w.startswith(("list-", "show-", "get-"))
                       or w.endswith("-status") for w in head):
        return reads(verb)
    return writes(verb, known=False)


def _swapon(name: str, args: list[str], reader: Reader) -> Verdict:
    """``swapon --show``/``-s`` lists; enabling swap writes."""
    opts, pos = words(args)
    return reads(name) if not pos and (not opts or has(opts, "-s", "--show", "--summary")) else writes(name)


def _fdisk_like(name: str, args: list[str], reader: Reader) -> Verdict:
    """``-l``/``print`` lists partitions; every other use partitions the disk."""
    opts, pos = words(args)
    listing = has(opts, "-l", "--list", "-s", "--getsz") or (pos and pos[-1] in ("print", "p"))
    return reads(name) if listing else writes(name)


def _firewall_cmd(name: str, args: list[str], reader: Reader) -> Verdict:
    """``--list-*``, ``--get-*``, ``--query-*``, ``--state`` read; every other option writes."""
    opts, _ = words(args)
    looking = ("--list", "--get", "--query", "--info", "--state", "--zone", "--permanent", "--version", "--help")
    if opts and all(o.startswith(looking) for o in opts):
        return reads(name)
    return writes(f"{name} {next((o for o in opts if not o.startswith(('--zone', '--permanent'))), '')}".strip())


def _nft(name: str, args: list[str], reader: Reader) -> Verdict:
    """``nft list``/``describe``/``monitor`` read; ``-f`` and every other command writes."""
    _, pos = words(args, ("-f", "--file", "-I", "--includepath"))
    if any(a in ("-f", "--file") for a in args):
        return writes(f"{name} -f")
    return reads(f"{name} {pos[0]}") if not pos or pos[0].lower() in ("list", "describe", "monitor") else writes(
        f"{name} {pos[0]}")


def _ufw(name: str, args: list[str], reader: Reader) -> Verdict:
    """``ufw status``/``show``/``app list|info`` read; every other command writes."""
    _, pos = words(args)
    head = [p.lower() for p in pos[:2]]
    if not head or head[0] in ("status", "show", "version") or head == ["app", "list"] or head == ["app", "info"]:
        return reads(" ".join([name, *head[:1]]))
    return writes(f"{name} {head[0]}")


def _route(name: str, args: list[str], reader: Reader) -> Verdict:
    """``route`` alone lists routes; ``add``/``del``/``flush``/``change`` write."""
    _, pos = words(args)
    changing = pos and pos[0].lower() in ("add", "del", "delete", "flush", "change")
    return writes(f"{name} {pos[0]}") if changing else reads(name)


def _ifconfig(name: str, args: list[str], reader: Reader) -> Verdict:
    """``ifconfig [IFACE]`` shows; ``ifconfig IFACE SETTING`` changes the interface."""
    _, pos = words(args)
    return reads(name) if len(pos) <= 1 else writes(f"{name} {' '.join(pos[:2])}")


def _date(name: str, args: list[str], reader: Reader) -> Verdict:
    """``date`` prints; ``-s``/``--set`` or a date argument sets the clock."""
    opts, pos = words(args, ("-d", "--date", "-r", "--reference", "-I"))
    return writes(f"{name} -s") if has(opts, "-s", "--set") or any(p[:1].isdigit() for p in pos) else reads(name)


_OPENSSL_READS = frozenset({"x509", "s_client", "verify", "version", "ciphers", "crl", "asn1parse", "sess_id", "dgst",
                            "list", "errstr", "s_time", "ocsp", "req", "pkey", "rsa", "ec", "pkcs12", "pkcs7",
                            "storeutl", "rand", "help"})


def _openssl(name: str, args: list[str], reader: Reader) -> Verdict:
    """``x509``, ``s_client``, ``verify``, ``req -text`` and the other inspecting subcommands read unless
    they write a key or file (``-out``, ``-new``); generating keys writes."""
    sub = args[0].lower() if args else "version"
    creates = any(a in ("-out", "-new", "-newkey", "-keyout", "-signkey", "-export") for a in args)
    if sub in _OPENSSL_READS and not creates:
        return reads(f"{name} {sub}")
    return writes(f"{name} {sub}")


_IPTABLES = flags(reading=("-L", "--list", "-S", "--list-rules", "-C", "--check", "-V", "--version", "-h"),
                  writing=("-A", "--append", "-D", "--delete", "-I", "--insert", "-R", "--replace", "-F", "--flush",
                           "-Z", "--zero", "-N", "--new-chain", "-X", "--delete-chain", "-P", "--policy", "-E",
                           "--rename-chain"),
                  value_options=("-t", "--table"))


def _connects(name: str, args: list[str], reader: Reader) -> Verdict:
    """``telnet``/``socat`` connect (reads); text piped into them is sent, unread (writes)."""
    return reads(name, stdin="data")


def _options_read(reading: tuple[str, ...], value_options: tuple[str, ...] = (), doc: str = ""):
    """A tool judged by its options, failing closed: it reads when every option it is given is one
    of ``reading`` (or an option's value); any other option writes."""
    allowed = frozenset(reading) | frozenset(value_options)

    def judge(name: str, args: list[str], reader: Reader) -> Verdict:
        opts, _ = words(args, value_options)
        other = next((o for o in opts if o.split("=", 1)[0] not in allowed), None)
        return writes(f"{name} {other}") if other else reads(name)

    judge.__doc__ = doc
    return judge


_GPG = _options_read(
    ("--list-keys", "-k", "--list-public-keys", "--list-secret-keys", "-K", "--show-keys", "--fingerprint",
     "--verify", "--list-packets", "--check-sigs", "--list-sigs", "--version", "--help", "-h", "--with-colons",
     "--with-fingerprint", "--keyid-format", "--export", "--armor", "-a", "--no-default-keyring", "--keyring",
     "--batch", "--quiet", "-q", "--with-subkey-fingerprint", "--list-options", "--verbose", "-v"),
    ("--keyring", "--keyid-format", "--list-options", "--homedir"),
    "gpg: listing, showing and verifying keys reads; importing, deleting, signing, creating or refreshing keys writes.",
)
_SHA = re.compile(r"^[0-9a-f]{7,40}$")


def _device_commit(name: str, args: list[str], reader: Reader) -> Verdict:
    """A network device's ``commit`` (Junos, IOS XR, VyOS) makes the candidate configuration live, also ``commit
    confirmed N`` (it only reverts itself later); ``commit check`` only validates. ``commit 9d0c4e2`` names a
    commit: no command."""
    if args and (args[0] == "check" or _SHA.match(args[0].lower())):
        return reads(name)
    return writes(f"{name} {' '.join(args[:1])}".strip())


_SSH_KEYGEN_READS = frozenset("lFyLQ")
"""``-l`` (a key's fingerprint), ``-F`` (find a host in known_hosts), ``-y`` (print the public key), ``-L`` (show a
certificate), ``-Q`` (test a revocation list)."""
_SSH_KEYGEN_QUIET = frozenset("fEvBq")
"""Options that only say which file, hash or detail (``-f``, ``-E sha256``, ``-v``)."""


def _ssh_keygen(name: str, args: list[str], reader: Reader) -> Verdict:
    """ssh-keygen reads with ``-l``, ``-F``, ``-y``, ``-L`` or ``-Q`` (alone or with ``-f``, ``-E``, ``-v``);
    without one it generates a key, and ``-R`` (remove a host), ``-H`` (hash known_hosts), ``-p``, ``-s`` and every
    other option write."""
    opts, _ = words(args, ("-f", "-F", "-E"))
    letters = {c for o in opts if not o.startswith("--") for c in o[1:]}
    if letters & _SSH_KEYGEN_READS and letters <= _SSH_KEYGEN_READS | _SSH_KEYGEN_QUIET:
        return reads(name)
    return writes(f"{name} {' '.join(opts) or '(generates a key)'}")


_ETHTOOL = _options_read(
    ("-a", "--show-pause", "-c", "--show-coalesce", "-g", "--show-ring", "-i", "--driver", "-d", "--register-dump",
     "-e", "--eeprom-dump", "-k", "--show-features", "--show-offload", "-l", "--show-channels", "-m",
     "--dump-module-eeprom",
     "--module-info", "-S", "--statistics", "-T", "--show-time-stamping", "-P", "--show-permaddr", "-n", "-u",
     "--show-nfc", "--show-ntuple", "-x", "--show-rxfh-indir", "--show-rxfh", "-w", "--get-dump", "--show-eee",
     "--show-fec", "--show-priv-flags", "--show-tunable", "--get-phy-tunable", "--show-module", "--json", "--debug",
     "-I", "--include-statistics", "--phy-statistics", "--cable-test-tdr", "-h", "--help", "--version", "-Q",
     "--per-queue", "--show-pse", "--show-mm", "--show-plca", "--monitor"),
    ("--debug",),
    "shows the interface and its settings (``-S``, ``-k``, ``-i`` …); a setting (``-s``, ``-K``, ``-G``, "
    "``-A``, ``-C``, ``-L``, ``-E``, ``-f``, ``-r``, ``-t`` …) and every unlisted option write.")

_NVIDIA_SMI = _options_read(
    ("-q", "--query", "-L", "--list-gpus", "-x", "--xml-format", "--query-gpu", "--query-compute-apps",
     "--query-supported-clocks", "--query-retired-pages", "--query-remapped-rows", "--query-accounted-apps",
     "--format", "-h", "--help", "--version", "-u", "--unit", "-lms", "--loop-ms", "-B", "--filter"),
    ("-i", "--id", "-d", "--display", "-l", "--loop", "-f", "--filename"),
    "``-q``, ``-L``, ``--query-gpu`` (and ``topo``, ``dmon``, ``pmon``) read; ``-r`` (reset), ``-pl``, "
    "``-pm``, ``-ac``, ``-c``, ``-e`` and every unlisted option write.")


def _nvidia_smi(name: str, args: list[str], reader: Reader) -> Verdict:
    """``-q``, ``-L``, ``--query-gpu`` (and ``topo``, ``dmon``, ``pmon``) read; ``-r`` (reset), ``-pl``,
    ``-pm``, ``-ac``, ``-c``, ``-e``, ``mig`` and every unlisted option or subcommand write."""
    _, pos = words(args, ("-i", "--id", "-d", "--display", "-l", "--loop", "-f", "--filename"))
    if pos:
        sub = pos[0].lower()
        return reads(f"{name} {sub}") if sub in ("topo", "dmon", "pmon") else writes(f"{name} {sub}")
    return _NVIDIA_SMI(name, args, reader)


_KEYTOOL = flags(reading=("-list", "-printcert", "-printcertreq", "-printcrl", "-showinfo", "-help", "--help",
                          "-version"),
                 writing=("-delete", "-importcert", "-import", "-genkeypair", "-genkey", "-genseckey", "-gencert",
                          "-certreq", "-importkeystore", "-importpass", "-storepasswd", "-keypasswd", "-changealias",
                          "-exportcert", "-export", "-selfcert", "-gencrl"))

_SYSTEMD_RESOLVE = _options_read(
    ("--status", "--statistics", "-4", "-6", "--service", "--service-address", "--service-txt", "--openpgp",
     "--tlsa", "--cname", "--search", "--raw", "--legend", "--no-pager", "-h", "--help", "--version"),
    ("-i", "--interface", "-p", "--protocol", "-t", "--type", "-c", "--class"),
    "``--status``, ``--statistics`` and name lookups read; ``--flush-caches``, ``--reset-statistics``, "
    "``--set-*``, ``--revert`` and every unlisted option write.")

_RESOLVECTL_LINK = frozenset({"dns", "domain", "default-route", "llmnr", "mdns", "dnssec", "dnsovertls", "nta"})


def _resolvectl(name: str, args: list[str], reader: Reader) -> Verdict:
    """``status``, ``query``, ``statistics``, ``show-cache`` read, and so does ``dns IFACE`` (it shows
    the setting); ``dns IFACE SERVER`` sets it; ``flush-caches``, ``revert``, ``reset-*`` and every
    unlisted command write."""
    _, pos = words(args, ("-i", "--interface", "-p", "--protocol", "-t", "--type", "-c", "--class"))
    if not pos:
        return reads(name)
    sub = pos[0].lower()
    if sub in ("status", "query", "service", "openpgp", "tlsa", "statistics", "monitor", "show-cache",
               "show-server-state", "help", "log-level" if len(pos) == 1 else ""):
        return reads(f"{name} {sub}")
    if sub in _RESOLVECTL_LINK and len(pos) <= 2:
        return reads(f"{name} {sub}")
    return writes(f"{name} {sub}")


_BUSCTL_READ_METHOD = ("Get", "List", "Introspect", "Ping", "Describe", "Can", "Lookup", "Dump")


def _busctl(name: str, args: list[str], reader: Reader) -> Verdict:
    """``list``, ``status``, ``tree``, ``introspect``, ``get-property``, ``monitor`` read; ``call``
    reads only a method that looks (``Get*``, ``List*``, ``Introspect``, ``Ping``); ``call …
    StopUnit``, ``set-property``, ``emit`` and every unlisted command write."""
    _, pos = words(args, ("-H", "--host", "-M", "--machine", "--address", "--match", "--destination", "--timeout",
                          "--json"))
    if not pos:
        return reads(name)
    sub = pos[0].lower()
    if sub in ("list", "status", "tree", "introspect", "get-property", "monitor", "capture", "wait", "help"):
        return reads(f"{name} {sub}")
    if sub == "call" and len(pos) > 4:
        method = pos[4]
        verb = f"{name} call {method}"
        return reads(verb) if method.startswith(_BUSCTL_READ_METHOD) else writes(verb)
    return writes(f"{name} {sub}")


_NETWORKCTL = Subcommands(reads=frozenset({"list", "status", "lldp", "label", "cat", "help"}),
                          writes=frozenset({"up", "down", "renew", "forcerenew", "reconfigure", "reload", "edit",
                                            "delete", "persistent-storage"}))


def _output_file(*options: str):
    """A reading tool that writes its output to a file named by ``options``: into a scratch
    directory (``/tmp``) it reads; anywhere else it may overwrite a live file and writes."""

    def judge(name: str, args: list[str], reader: Reader) -> Verdict:
        for i, a in enumerate(args):
            opt, eq, value = a.partition("=")
            attached = next((o for o in options if len(o) == 2 and a.startswith(o) and len(a) > 2
                             and not a.startswith("--")), None)
            if opt in options or attached:
                target = value if eq else a[2:] if attached else (args[i + 1] if i + 1 < len(args) else "")
                if not scratch(target):
                    return writes(f"{name} {opt if not attached else attached} {target}".strip())
        return reads(name)

    judge.__doc__ = (f"reads; its output file ({', '.join(f'``{o}``' for o in options)}) into a scratch directory "
                     "(``/tmp``) reads, anywhere else writes.")
    return judge


_SMARTCTL = flags(writing=("-t", "--test", "-s", "--smart", "-o", "--offlineauto", "-S", "--saveauto", "-X",
                           "--abort", "--set"))


def _systemd_analyze(name: str, args: list[str], reader: Reader) -> Verdict:
    """every command reads except ``set-log-level``, ``set-log-target`` and the other ``set-*``."""
    _, pos = words(args)
    sub = pos[0].lower() if pos else ""
    return writes(f"{name} {sub}") if sub.startswith("set-") else reads(" ".join([name, *pos[:1]]))


# --- wrappers: the inner command decides -------------------------------------------------

_SUDO_VALUES = ("-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C", "--close-from", "-D",
                "--chdir", "-r", "--role", "-t", "--type", "-U", "--other-user", "-T", "--command-timeout")


def _sudo(name: str, args: list[str], reader: Reader) -> Verdict | None:
    """runs the command after its options (read as that command)."""
    inner = after_options(args, _SUDO_VALUES)
    return reader.argv(inner) if inner else reads(name)


def _env(name: str, args: list[str], reader: Reader) -> Verdict | None:
    """runs the command after its options and ``NAME=value`` settings (read as that command)."""
    rest = after_options(args, ("-u", "--unset", "-C", "--chdir", "-S", "--split-string"))
    while rest and "=" in rest[0] and not rest[0].startswith("="):
        rest = rest[1:]
    return reader.argv(rest) if rest else reads(name)


def _wrapper(value_options: tuple[str, ...] = (), positional: int = 0, joined: bool = False):
    """A wrapper whose command follows its options and ``positional`` words of its own
    (``timeout 30 CMD``, ``chroot DIR CMD``); ``joined``: the command is one shell string (``watch``)."""

    def judge(name: str, args: list[str], reader: Reader) -> Verdict | None:
        """runs the command after its options (read as that command)."""
        rest = after_options(args, value_options)
        for _ in range(positional):
            rest = after_options(rest[1:], value_options) if rest else []
        if not rest:
            return reads(name)
        return reader.line(" ".join(rest)) if joined else reader.argv(rest)

    return judge


def _shell(name: str, args: list[str], reader: Reader) -> Verdict | None:
    """``bash -c '…'`` runs its string; ``bash script.sh`` an unknown script (writes); ``bash``
    alone is an interactive shell (reads, and runs what is piped into it)."""
    for i, a in enumerate(args):
        if a == "-c" or (a.startswith("-") and not a.startswith("--") and a.endswith("c")):
            return reader.line(args[i + 1]) if i + 1 < len(args) else reads(name)
    _, pos = words(args, ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"))
    if pos:
        return writes(f"{name} {pos[0]}", known=False)
    return reads(name, stdin="shell")


_SSH_VALUES = ("-i", "-p", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-W", "-b", "-c", "-E", "-e", "-I", "-m", "-O",
               "-Q", "-S", "-w", "-B", "-P")


def _ssh(name: str, args: list[str], reader: Reader) -> Verdict | None:
    """``ssh HOST CMD…`` runs CMD on HOST (a shell string); ``ssh HOST`` alone is a login."""
    rest = after_options(args, _SSH_VALUES)
    if len(rest) <= 1:
        return reads(name, stdin="shell")
    return reader.line(" ".join(rest[1:]))


def _su(name: str, args: list[str], reader: Reader) -> Verdict | None:
    """``su -c CMD`` runs CMD (read as that command line); ``su`` alone opens a shell."""
    for i, a in enumerate(args):
        if a in ("-c", "--command") and i + 1 < len(args):
            return reader.line(args[i + 1])
    return reads(name, stdin="shell")


def _xargs(name: str, args: list[str], reader: Reader) -> Verdict | None:
    """runs its command on each input line (read as that command)."""
    rest = after_options(args, ("-n", "-I", "-i", "-P", "-L", "-d", "-a", "-E", "-s", "--max-args", "--max-procs",
                                "--delimiter", "--arg-file", "--replace"))
    return reader.argv(rest) if rest else reads(name)


def _strace(name: str, args: list[str], reader: Reader) -> Verdict | None:
    """traces the command it runs (read as that command); ``-p PID`` only attaches; injecting
    faults (``-e inject=…``, ``--inject``, ``-e fault=…``, ``--fault``) writes."""
    for i, a in enumerate(args):
        value = args[i + 1] if a == "-e" and i + 1 < len(args) else a
        if value.startswith(("inject", "fault", "--inject", "--fault", "-einject", "-efault")):
            return writes(f"{name} inject")
    rest = after_options(args, ("-p", "-e", "-o", "-s", "-u", "-a", "-E", "-P", "-I", "-b", "-O", "-S", "-X"))
    return reader.argv(rest) if rest else reads(name)


def _nsenter(name: str, args: list[str], reader: Reader) -> Verdict | None:
    """runs the command after its options in another namespace (read as that command)."""
    rest = after_options(args, ("-t", "--target", "-S", "--setuid", "-G", "--setgid", "-r", "--root", "-w", "--wd"))
    return reader.argv(rest) if rest else reads(name, stdin="shell")


def _interpreter(name: str, args: list[str], reader: Reader) -> Verdict:
    """``python -c``, ``perl -e``, a script: code that cannot be read writes (fail closed);
    a version query or ``-m json.tool`` reads; ``python -m pip`` is pip."""
    if not args:
        return reads(name, stdin="data")
    if all(a in ("--version", "-V", "-v", "--help", "-h") for a in args):
        return reads(name)
    if args[0] == "-m" and len(args) > 1:
        if args[1] == "json.tool":
            return reads(f"{name} -m json.tool")
        if args[1] == "pip":
            from rcaloop.judge.actions.tools.packages import PIP

            return PIP(f"{name} -m pip", args[2:], reader)
    return writes(f"{name} {args[0]}", known=False)


TOOLS = {
    "systemctl": SYSTEMCTL, "service": _service, "journalctl": flags(writing=(
        "--vacuum-size", "--vacuum-time", "--vacuum-files", "--rotate", "--flush", "--sync", "--relinquish-var",
        "--smart-relinquish-var", "--update-catalog", "--setup-keys")),
    "dmesg": flags(writing=("-c", "-C", "--clear", "--read-clear", "-n", "--console-level", "-D", "-E",
                            "--console-off", "--console-on")),
    **dict.fromkeys(SHELL_READS, always(False)),
    **dict.fromkeys(SHELL_WRITES, always(True)),
    "kill": _kill_like, "pkill": _kill_like, "killall": _kill_like,
    "sed": _sed, "find": _find, "tee": _tee, "dd": _dd, "awk": _awk, "gawk": _awk, "mawk": _awk,
    "perl": _interpreter, "python": _interpreter, "python3": _interpreter, "ruby": _interpreter, "node": _interpreter,
    "php": _interpreter, "lua": _interpreter, "deno": _interpreter, "bun": _interpreter, "java": _interpreter,
    "yq": flags(writing=("-i", "--inplace")), "ulimit": _ulimit, "crontab": _crontab, "sysctl": _sysctl,
    "mount": _mount,
    "hostname": _hostname, "hostnamectl": _ctl, "localectl": _ctl, "ethtool": _ETHTOOL, "nvidia-smi": _nvidia_smi,
    "keytool": _KEYTOOL, "systemd-resolve": _SYSTEMD_RESOLVE, "resolvectl": _resolvectl, "busctl": _busctl,
    "networkctl": _NETWORKCTL, "tcpdump": _output_file("-w"), "perf": _output_file("-o", "--output"),
    "sort": _output_file("-o", "--output"), "smartctl": _SMARTCTL, "systemd-analyze": _systemd_analyze,
    "loginctl": _ctl, "nmcli": _ctl, "timedatectl": _ctl,
    "swapon": _swapon, "fdisk": _fdisk_like, "parted": _fdisk_like, "sfdisk": _fdisk_like, "gdisk": _fdisk_like,
    "wipefs": flags(reading=("-n", "--no-act")), "losetup": flags(reading=("-a", "--all", "-l", "--list", "-j")),
    "iptables": _IPTABLES,
    "iptables-save": always(False), "ip6tables-save": always(False), "iptables-restore": always(True),
    "ip6tables": _IPTABLES,
    "ipvsadm": flags(reading=("-L", "-l", "--list", "-S", "--save")),
    "conntrack": flags(reading=("-L", "--dump", "-G", "--get", "-C", "--count", "-S", "--stats", "-E", "--event")),
    "ebtables": flags(reading=("-L", "--list")), "firewall-cmd": _firewall_cmd, "nft": _nft, "ufw": _ufw,
    "route": _route, "ifconfig": _ifconfig, "arp": flags(writing=("-d", "-s", "-f", "--delete", "--set")),
    "ip": _object_action, "tc": _object_action, "bridge": _object_action, "date": _date, "openssl": _openssl,
    "gpg": _GPG, "gpg2": _GPG, "ssh-keygen": _ssh_keygen,
    "commit": _device_commit,
    "modprobe": flags(reading=("-n", "--dry-run", "-c", "--showconfig", "-D", "--show-depends")),
    "ldconfig": flags(reading=("-p", "--print-cache", "-N")),
    "update-alternatives": flags(reading=("--display", "--list", "--query", "--get-selections")),
    "logrotate": flags(reading=("-d", "--debug")), "rsync": flags(reading=("-n", "--dry-run", "--list-only"),
                                                                  positional_writes=True),
    "chronyc": Subcommands(reads=frozenset({"tracking", "sources", "sourcestats", "activity", "clients", "ntpdata",
                                            "serverstats", "waitsync"})),
    "ntpq": always(False), "nc": flags(reading=("-z",)), "ncat": flags(reading=("-z",)),
    "netcat": flags(reading=("-z",)), "telnet": _connects, "socat": _connects,
    # wrappers
    "sudo": _sudo, "doas": _sudo, "env": _env, "nohup": _wrapper(), "nice": _wrapper(("-n", "--adjustment")),
    "ionice": _wrapper(("-c", "-n", "-p", "--class", "--classdata")), "stdbuf": _wrapper(("-i", "-o", "-e")),
    "timeout": _wrapper(("-s", "--signal", "-k", "--kill-after"), positional=1), "time": _wrapper(("-f", "-o")),
    "watch": _wrapper(("-n", "--interval", "-d", "--differences"), joined=True), "chroot": _wrapper(positional=1),
    "flock": _wrapper(("-w", "--timeout", "-E"), positional=1), "runuser": _wrapper(("-u", "-g", "-l", "--user")),
    "unbuffer": _wrapper(), "caffeinate": _wrapper(), "setsid": _wrapper(), "script": _su,
    "eval": _wrapper(joined=True), **dict.fromkeys(("bash", "sh", "zsh", "dash", "ksh", "fish", "ash"), _shell),
    "busybox": _wrapper(), "ssh": _ssh, "mosh": _ssh, "su": _su, "xargs": _xargs, "parallel": _xargs,
    "strace": _strace, "ltrace": _strace, "nsenter": _nsenter,
}
PROSE = frozenset({"systemctl", "journalctl", "iptables", "ip6tables", "nft", "ufw", "firewall-cmd", "sysctl",
                   "rm", "chmod", "chown", "mkfs", "dd", "pkill", "killall", "crontab", "sudo", "ssh", "rsync",
                   "truncate", "shred", "wipefs", "fdisk", "parted", "umount", "modprobe", "ipvsadm", "conntrack",
                   "dmesg", "hostnamectl", "timedatectl", "service"})
