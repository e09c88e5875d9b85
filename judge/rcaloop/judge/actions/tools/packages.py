"""Package managers: listing, showing and searching read; installing, upgrading, removing
(and everything else) write. A simulated run (``apt-get -s``, ``pip install --dry-run``) reads."""

from __future__ import annotations

from dataclasses import replace

from rcaloop.judge.actions.tools.base import Subcommands, flags

_APT_SIMULATE = ("-s", "--simulate", "--just-print", "--dry-run", "--recon", "--no-act", "--assume-no")

APT = Subcommands(
    reads=frozenset({"list", "show", "search", "policy", "depends", "rdepends", "showsrc", "changelog", "check",
                     "download", "source", "madison", "showpkg", "stats", "dump", "pkgnames", "help", "moo"}),
    writes=frozenset({"install", "remove", "purge", "upgrade", "full-upgrade", "dist-upgrade", "update", "autoremove",
                      "autoclean", "clean", "reinstall", "build-dep", "satisfy", "edit-sources", "mark"}),
    value_options=frozenset({"-o", "--option", "-c", "--config-file", "-t", "--target-release"}),
    read_flags=tuple((sub, _APT_SIMULATE) for sub in ("install", "remove", "purge", "upgrade", "full-upgrade",
                                                      "dist-upgrade", "autoremove", "reinstall", "build-dep")),
)
APT_MARK = Subcommands(reads=frozenset({"showhold", "showauto", "showmanual", "showinstall", "showremove",
                                        "showpurge"}),
                       writes=frozenset({"hold", "unhold", "auto", "manual", "install", "remove", "purge"}))
DPKG = flags(reading=("-l", "--list", "-L", "--listfiles", "-s", "--status", "-S", "--search", "-p", "--print-avail",
                      "--get-selections", "--print-architecture", "--print-foreign-architectures", "-C", "--audit",
                      "--version", "--help", "-c", "--contents", "-I", "--info", "--verify", "-V"),
             writing=("-i", "--install", "-r", "--remove", "-P", "--purge", "--configure", "--unpack",
                      "--set-selections", "--clear-selections", "--add-architecture", "--remove-architecture"))

_YUM_READS = frozenset({"list", "info", "search", "provides", "whatprovides", "repolist", "repoinfo", "history",
                        "history list", "history info", "check-update", "check-upgrade", "deplist", "repoquery",
                        "updateinfo", "updateinfo list", "updateinfo info", "module list", "module info",
                        "module provides", "group list", "group info", "grouplist", "groupinfo", "help", "version",
                        "check", "list-sec", "changelog", "alias list", "config-manager --dump"})
YUM = Subcommands(
    reads=_YUM_READS,
    writes=frozenset({"install", "update", "upgrade", "remove", "erase", "downgrade", "reinstall", "autoremove",
                      "clean",
                      "makecache", "distro-sync", "swap", "group", "history", "module", "versionlock", "localinstall",
                      "groupinstall", "groupremove", "mark", "config-manager"}),
    groups=frozenset({"history", "updateinfo", "module", "group", "alias"}),
    value_options=frozenset({"-c", "--config", "--enablerepo", "--disablerepo", "--repo", "--releasever",
                             "--installroot", "-x", "--exclude", "--setopt"}),
    read_flags=tuple((sub, ("--assumeno",)) for sub in ("install", "update", "upgrade", "remove", "erase", "downgrade",
                                                        "reinstall", "autoremove", "distro-sync")),
)
RPM = flags(reading=("-q", "--query", "-V", "--verify", "-K", "--checksig", "--querytags", "--showrc", "--eval",
                     "--version", "--help", "-qa", "-qi", "-ql", "-qf", "-qc", "-qd", "-qR"),
            writing=("-i", "--install", "-U", "--upgrade", "-F", "--freshen", "-e", "--erase", "--import",
                     "--rebuilddb", "--initdb", "--setperms", "--setugids", "--restore"))
APK = Subcommands(reads=frozenset({"info", "search", "list", "policy", "stats", "version", "dot", "audit", "help",
                                   "manifest", "query"}),
                  writes=frozenset({"add", "del", "upgrade", "update", "fix", "cache", "fetch", "index", "verify"}),
                  read_flags=(("add", ("-s", "--simulate")), ("del", ("-s", "--simulate")),
                              ("upgrade", ("-s", "--simulate"))))
ZYPPER = Subcommands(
    reads=frozenset({"search", "se", "info", "if", "list-updates", "lu", "list-patches", "lp", "patches", "pch",
                     "patch-check", "pchk", "products", "pd", "repos", "lr", "services", "ls", "packages", "pa",
                     "patterns", "pt", "what-provides", "wp", "locks", "ll", "help", "source-download", "versioncmp",
                     "targetos", "licenses", "search-packages", "needs-rebooting", "ps"}),
    writes=frozenset({"install", "in", "remove", "rm", "update", "up", "dist-upgrade", "dup", "patch", "refresh", "ref",
                      "addrepo", "ar", "removerepo", "rr", "addlock", "al", "removelock", "rl", "clean", "verify", "ve",
                      "source-install", "si", "modifyrepo", "mr"}),
    value_options=frozenset({"-r", "--repo", "--root", "-R"}),
    read_flags=tuple((s, ("--dry-run", "-D")) for s in ("install", "in", "remove", "rm", "update", "up", "dist-upgrade",
                                                        "dup", "patch", "verify", "ve")),
)
PIP = Subcommands(
    reads=frozenset({"list", "show", "freeze", "check", "search", "index", "index versions", "inspect", "config list",
                     "config get", "config debug", "debug", "download", "hash", "help", "cache list", "cache dir",
                     "cache info", "--version"}),
    writes=frozenset({"install", "uninstall", "config", "cache", "wheel"}),
    groups=frozenset({"config", "cache", "index"}),
    value_options=frozenset({"--index-url", "-i", "--extra-index-url", "--proxy", "--timeout", "--cert", "--log",
                             "-r", "--requirement", "-c", "--constraint", "--target", "-t", "--prefix", "--root"}),
)
NPM = Subcommands(
    reads=frozenset({"ls", "list", "la", "ll", "view", "info", "show", "v", "outdated", "search", "s", "find", "audit",
                     "doctor", "config get", "config list", "config ls", "get", "explain", "why", "query", "ping",
                     "whoami", "help", "root", "prefix", "bin", "fund", "audit signatures", "owner ls", "access list",
                     "team ls",
                     "token list", "dist-tag ls", "org ls", "sbom", "diff"}),
    writes=frozenset({"install", "i", "ci", "add", "uninstall", "rm", "remove", "un", "r", "unlink", "update", "up",
                      "upgrade", "publish", "unpublish", "deprecate", "link", "prune", "dedupe", "cache", "config",
                      "set",
                      "run", "run-script", "start", "stop", "restart", "test", "exec", "x", "version", "pkg", "init"}),
    groups=frozenset({"config", "owner", "access", "team", "token", "dist-tag", "org", "cache", "pkg", "audit"}),
    alone_reads=frozenset({"run", "run-script"}),
)
"""``npm run`` with no script name lists the package's scripts; naming one runs it (writes)."""
PNPM = replace(NPM, alone_reads=frozenset())
"""pnpm's commands are npm's, but ``pnpm run`` alone is not shown to read: pnpm checks its
``verify-deps-before-run`` setting first, which may install dependencies."""
YARN = Subcommands(
    reads=frozenset({"list", "info", "why", "outdated", "audit", "licenses", "config get", "config list", "versions",
                     "help", "npm info", "workspaces list", "bin", "dedupe --check", "constraints"}),
    groups=frozenset({"config", "npm", "workspaces"}),
)
BREW = Subcommands(
    reads=frozenset({"list", "ls", "info", "abv", "search", "outdated", "deps", "uses", "leaves", "config", "doctor",
                     "dr", "--version", "--prefix", "--cellar", "--cache", "desc", "home", "options", "log", "missing",
                     "services list", "services info", "tap-info", "commands", "help", "shellenv", "cat", "formulae",
                     "casks", "bundle check", "bundle list"}),
    writes=frozenset({"install", "upgrade", "uninstall", "remove", "rm", "reinstall", "update", "cleanup", "link",
                      "unlink", "pin", "unpin", "tap", "untap", "services", "autoremove", "bundle"}),
    groups=frozenset({"services", "bundle"}),
)
SNAP = Subcommands(reads=frozenset({"list", "info", "find", "search", "changes", "change", "tasks", "services",
                                    "logs", "version", "connections", "interfaces", "get", "help", "warnings",
                                    "aliases", "model", "whoami", "saved"}),
                   writes=frozenset({"install", "remove", "refresh", "revert", "enable", "disable", "start", "stop",
                                     "restart", "set", "unset", "connect", "disconnect", "alias", "unalias"}))
GEM = Subcommands(reads=frozenset({"list", "search", "info", "query", "contents", "outdated", "environment", "env",
                                   "which", "specification", "spec", "dependency", "help", "stale", "check"}),
                  writes=frozenset({"install", "uninstall", "update", "cleanup", "push", "yank", "pristine",
                                    "sources"}))

TOOLS = {
    "apt": APT, "apt-get": APT, "aptitude": APT, "apt-cache": Subcommands(reads=frozenset({"*"})),
    "apt-mark": APT_MARK, "dpkg": DPKG, "dpkg-query": Subcommands(reads=frozenset({"*"})),
    "yum": YUM, "dnf": YUM, "microdnf": YUM, "tdnf": YUM, "rpm": RPM, "apk": APK, "zypper": ZYPPER,
    "pip": PIP, "pip3": PIP, "pipx": PIP, "uv": Subcommands(reads=frozenset({"pip list", "pip show", "pip freeze",
                                                                            "pip check", "tree", "version"}),
                                                          groups=frozenset({"pip"})),
    "npm": NPM, "pnpm": PNPM, "yarn": YARN, "brew": BREW, "snap": SNAP, "gem": GEM,
}
PROSE = frozenset({"apt", "apt-get", "aptitude", "apt-cache", "apt-mark", "dpkg", "yum", "dnf", "rpm", "apk", "zypper",
                   "pip", "pip3", "pipx", "npm", "pnpm", "yarn", "brew", "snap", "gem"})
