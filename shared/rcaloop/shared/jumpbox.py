"""The jumpbox: job directories of CI-job RCAs synced over SFTP.

``/usr/local/mlflow/<job_id>/`` on the jumpbox mirrors ``.analysis/<job_id>/`` locally.

* ``download_job`` fetches a job directory into a hidden temp dir beside the target and
  renames it into place, so an interrupted download never leaves a half directory that
  looks complete; a local ``annotation.json`` is never overwritten.
* ``upload_annotation`` pushes ``annotation.json`` to a temp name and renames it; the local
  copy is always kept.
* Host keys are always verified against a known_hosts file; keys and options come from
  the ssh config. ``job_id`` is checked before anything touches the disk or network.
* With ``JUMPBOX_URI`` unset both only validate the local files.

``asyncssh`` is the optional extra ``rcaloop-shared[jumpbox]`` and is imported lazily.
Every failure is a ``JumpboxError`` with a stable code and exit code (``ERRORS``).
"""

from __future__ import annotations

import asyncio
import json
import os
import posixpath
import re
import secrets
import shlex
import shutil
import stat
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from rcaloop.contracts.results import job_id_problem
from rcaloop.shared.logs import get_logger
from rcaloop.shared.sources import ANNOTATION_FILE, STEP_FILES

REQUIRED_FILES: tuple[str, ...] = STEP_FILES
"""What every job directory must hold (seed 000, prerequisites)."""

ProgressFn = Callable[[str, int, int], None]
"""(file name, bytes done, total bytes), called as a transfer advances."""


class JumpboxSettings(BaseSettings):
    """Where jobs live and how to reach the jumpbox. Env names are the field names upper-cased."""

    model_config = SettingsConfigDict(env_prefix="", extra="ignore", populate_by_name=True)

    jumpbox_uri: str | None = Field(default=None,
                                    description="'user@host -p 2222' (ssh style); unset = local files only")
    jumpbox_root: str = Field(default="/usr/local/mlflow", description="remote directory holding <job_id>/")
    rcaloop_analysis_root: Path = Field(default=Path(".analysis"), description="local directory holding <job_id>/")
    jumpbox_known_hosts: Path = Field(default=Path("~/.ssh/known_hosts"),
                                      description="host keys are verified against it")
    jumpbox_ssh_config: Path = Field(default=Path("~/.ssh/config"),
                                     description="OpenSSH client config (keys, User, Port …)")
    jumpbox_identity_file: Path | None = Field(
        default=None, description="client key; unset = ssh config / agent / ~/.ssh/id_*"
    )
    jumpbox_connect_timeout_s: float = Field(default=15.0, gt=0, description="TCP connect + SSH handshake + login")
    jumpbox_keepalive_s: float = Field(default=15.0, gt=0, description="a silent server is dropped after 3 misses")
    jumpbox_retries: int = Field(default=2, ge=0, le=10, description="extra connection attempts on transient errors")
    jumpbox_retry_backoff_s: float = Field(default=1.0, ge=0, description="first retry delay; doubles each attempt")


# -- errors ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ErrorKind:
    code: str
    exit_code: int
    meaning: str


ERRORS: tuple[ErrorKind, ...] = (
    ErrorKind("invalid_job_id", 2, "job_id is not one safe path segment (checked before any connection)"),
    ErrorKind("invalid_jumpbox_uri", 2, "JUMPBOX_URI cannot be read as 'user@host -p PORT'"),
    ErrorKind("invalid_annotation", 2, "the local annotation.json is not a JSON object"),
    ErrorKind("local_dir_missing", 3, "no .analysis/<job_id>/ (JUMPBOX_URI unset, or nothing to upload from)"),
    ErrorKind("remote_dir_missing", 3, "no <JUMPBOX_ROOT>/<job_id>/ on the jumpbox"),
    ErrorKind("required_file_missing", 4, "a required file is absent (named in the message)"),
    ErrorKind("invalid_step_file", 4, "a required step file is not a JSON object"),
    ErrorKind("connection_refused", 5, "nothing listens on the jumpbox's SSH port"),
    ErrorKind("connection_timeout", 5, "the jumpbox did not answer within JUMPBOX_CONNECT_TIMEOUT_S"),
    ErrorKind("host_unreachable", 5, "the host name does not resolve or the network cannot reach it"),
    ErrorKind("connection_lost", 5, "the SSH session broke during the handshake or a transfer"),
    ErrorKind("auth_failed", 6, "the jumpbox refused every offered key"),
    ErrorKind("known_hosts_missing", 7, "the known_hosts file does not exist; host keys are never skipped"),
    ErrorKind("host_key_unknown", 7, "the jumpbox's host key is not in known_hosts"),
    ErrorKind("host_key_mismatch", 7, "the jumpbox's host key differs from the one in known_hosts"),
    ErrorKind("transfer_failed", 8, "an SFTP or local I/O error interrupted the transfer"),
    ErrorKind("sftp_unavailable", 9, "asyncssh is not installed (pip install 'rcaloop-shared[jumpbox]')"),
)
"""Every jumpbox failure; docs/jumpbox.md's table is this list."""

_BY_CODE = {e.code: e for e in ERRORS}


class JumpboxError(Exception):
    """A jumpbox operation failed for a reason the user can act on."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message
        self.exit_code = _BY_CODE[code].exit_code


# -- JUMPBOX_URI ---------------------------------------------------------------------------


@dataclass(frozen=True)
class JumpboxTarget:
    host: str
    port: int | None = None
    username: str | None = None
    identity_file: str | None = None

    def display(self) -> str:
        user = f"{self.username}@" if self.username else ""
        return f"{user}{self.host}" + (f" port {self.port}" if self.port else "")


def parse_jumpbox_uri(uri: str) -> JumpboxTarget:
    """``user@host -p 2222``, ``host`` (an ssh config alias), ``-i KEY``, ``-l USER`` or ``ssh://user@host:2222``."""
    uri = uri.strip()
    if uri.startswith("ssh://"):
        return _parse_ssh_url(uri)
    scheme, sep, _ = uri.partition("://")
    if sep and re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*", scheme):  # sftp://, scp:// …: not a host name
        hint = "use ssh://user@host:PORT or 'user@host -p PORT'"
        raise JumpboxError("invalid_jumpbox_uri", f"JUMPBOX_URI: unsupported URL scheme {scheme[:10]}:// ({hint})")
    try:
        tokens = shlex.split(uri)
    except ValueError as exc:
        raise JumpboxError("invalid_jumpbox_uri", f"JUMPBOX_URI is not valid shell words ({exc})") from None
    host = port = user = identity = None
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok in ("-p", "-i", "-l"):
            if i + 1 >= len(tokens):
                raise JumpboxError("invalid_jumpbox_uri", f"JUMPBOX_URI: {tok} needs a value")
            value, i = tokens[i + 1], i + 2
        elif tok[:2] in ("-p", "-i", "-l") and len(tok) > 2:
            tok, value, i = tok[:2], tok[2:], i + 1
        elif tok.startswith("-"):
            hint = "use -p, -i, -l or ~/.ssh/config"
            raise JumpboxError("invalid_jumpbox_uri", f"JUMPBOX_URI: unsupported option {tok[:20]} ({hint})")
        else:
            if host is not None:
                raise JumpboxError("invalid_jumpbox_uri", "JUMPBOX_URI names more than one host")
            user_part, sep, host = tok.rpartition("@")
            if sep:
                if ":" in user_part:
                    raise JumpboxError("invalid_jumpbox_uri", "JUMPBOX_URI must not contain a password; use a key")
                user = user_part or None
            i += 1
            continue
        if tok == "-p":
            port = _port(value)
        elif tok == "-i":
            identity = value
        else:
            user = value
    if not host:
        raise JumpboxError("invalid_jumpbox_uri", "JUMPBOX_URI names no host (expected 'user@host -p 2222')")
    return JumpboxTarget(host=host, port=port, username=user, identity_file=identity)


def _parse_ssh_url(uri: str) -> JumpboxTarget:
    parts = urlsplit(uri)
    if parts.password is not None:
        raise JumpboxError("invalid_jumpbox_uri", "JUMPBOX_URI must not contain a password; use a key")
    try:
        port = parts.port
    except ValueError:
        raise JumpboxError("invalid_jumpbox_uri", "JUMPBOX_URI has an invalid port") from None
    if not parts.hostname:
        raise JumpboxError("invalid_jumpbox_uri", "JUMPBOX_URI names no host")
    return JumpboxTarget(host=parts.hostname, port=port, username=parts.username)


def _port(value: str) -> int:
    if not value.isdigit() or not 0 < int(value) < 65536:
        raise JumpboxError("invalid_jumpbox_uri", f"JUMPBOX_URI: port must be 1-65535, got {value[:10]!r}")
    return int(value)


# -- local side ------------------------------------------------------------------------------


def check_job_id(job_id: str) -> str:
    problem = job_id_problem(job_id)
    if problem:
        raise JumpboxError("invalid_job_id", f"invalid job id: {problem}")
    return job_id


def analysis_dir(job_id: str, settings: JumpboxSettings) -> Path:
    """``<RCALOOP_ANALYSIS_ROOT>/<job_id>`` for a validated job id."""
    return settings.rcaloop_analysis_root.expanduser() / check_job_id(job_id)


def remote_dir(job_id: str, settings: JumpboxSettings) -> str:
    return posixpath.join(settings.jumpbox_root, check_job_id(job_id))


def check_job_files(job_dir: Path, shown: str | None = None) -> Path:
    """The job directory when every required file is there and is a JSON object.

    ``shown`` names the directory in messages when ``job_dir`` is a staging dir.
    """
    if not job_dir.is_dir():
        raise JumpboxError(
            "local_dir_missing",
            f"{job_dir}/ does not exist: run the root-cause-analysis skill first, or set JUMPBOX_URI to download it",
        )
    missing = [name for name in REQUIRED_FILES if not (job_dir / name).is_file()]
    if missing:
        raise JumpboxError("required_file_missing", f"{job_dir}/ is missing required file(s): {', '.join(missing)}")
    for name in REQUIRED_FILES:
        try:
            data = json.loads((job_dir / name).read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            data = None
        if not isinstance(data, dict):
            raise JumpboxError("invalid_step_file", f"{shown or job_dir}/{name} is not a JSON object")
    return job_dir


def validate_local(job_id: str, settings: JumpboxSettings | None = None) -> Path:
    """``rcaloop download`` without a jumpbox: the local job directory, checked."""
    settings = settings or JumpboxSettings()
    return check_job_files(analysis_dir(job_id, settings))


def _read_annotation(path: Path) -> None:
    if not path.is_file():
        raise JumpboxError("required_file_missing", f"{path} not found: write the annotation first, then upload it")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise JumpboxError("invalid_annotation",
                           f"{path} is not valid JSON ({getattr(exc, 'msg', 'not UTF-8')})") from None
    if not isinstance(data, dict):
        raise JumpboxError("invalid_annotation", f"{path} must hold a JSON object")


def _swap_into_place(staged: Path, target: Path) -> None:
    """Rename ``staged`` to ``target``; an existing target is moved aside first, then removed."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{secrets.token_hex(4)}")
        os.rename(target, old)
    try:
        os.rename(staged, target)
    except OSError:
        if old is not None:
            os.rename(old, target)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _remove_stale_partials(root: Path, job_id: str) -> None:
    for leftover in root.glob(f".{job_id}.partial-*"):
        shutil.rmtree(leftover, ignore_errors=True)


# -- remote side -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RemoteJob:
    """A job directory on the jumpbox, with the identity of its step5 file (for pollers)."""

    job_id: str
    step5_mtime: int
    step5_size: int


class Jumpbox:
    """One SSH connection with an SFTP session; ``async with Jumpbox(settings) as jb``."""

    def __init__(self, settings: JumpboxSettings):
        if not settings.jumpbox_uri:
            raise JumpboxError("invalid_jumpbox_uri", "JUMPBOX_URI is not set")
        self.settings = settings
        self.target = parse_jumpbox_uri(settings.jumpbox_uri)
        self.log = get_logger("jumpbox")
        self._conn: Any = None
        self._sftp: Any = None

    async def __aenter__(self) -> Jumpbox:
        self._conn = await self._connect_with_retry()
        try:
            self._sftp = await self._conn.start_sftp_client()
        except Exception as exc:
            self._conn.close()
            raise _transfer_error(exc, "starting SFTP") from None
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._sftp is not None:
            self._sftp.exit()
        if self._conn is not None:
            self._conn.close()
            try:
                await asyncio.wait_for(self._conn.wait_closed(), timeout=5)
            except (TimeoutError, OSError):
                pass

    # -- connecting ----------------------------------------------------------------------
    def _connect_options(self) -> dict[str, Any]:
        s, t = self.settings, self.target
        known_hosts = s.jumpbox_known_hosts.expanduser()
        if not known_hosts.exists():
            raise JumpboxError(
                "known_hosts_missing",
                f"known_hosts file {known_hosts} does not exist; host keys are always verified. "
                f"Add the jumpbox's key after checking its fingerprint: "
                f"ssh-keyscan {_keyscan_args(t)} >> {known_hosts} "
                "(or set JUMPBOX_KNOWN_HOSTS)",
            )
        ssh_config = s.jumpbox_ssh_config.expanduser()
        options: dict[str, Any] = {
            "known_hosts": str(known_hosts),
            "config": [str(ssh_config)] if ssh_config.is_file() else [],
            "connect_timeout": s.jumpbox_connect_timeout_s,
            "login_timeout": s.jumpbox_connect_timeout_s,
            "keepalive_interval": s.jumpbox_keepalive_s,
            "keepalive_count_max": 3,
        }
        if t.port:
            options["port"] = t.port
        if t.username:
            options["username"] = t.username
        identity = t.identity_file or (str(s.jumpbox_identity_file) if s.jumpbox_identity_file else None)
        if identity:
            key = Path(identity).expanduser()
            if not key.is_file():
                hint = "JUMPBOX_IDENTITY_FILE or -i in JUMPBOX_URI"
                raise JumpboxError("auth_failed", f"client key {key} does not exist ({hint})")
            options["client_keys"] = [str(key)]
        return options

    async def _connect_with_retry(self) -> Any:
        asyncssh = _asyncssh()
        options = self._connect_options()
        delay = self.settings.jumpbox_retry_backoff_s
        for attempt in range(self.settings.jumpbox_retries + 1):
            try:
                return await asyncssh.connect(self.target.host, **options)
            except Exception as exc:  # noqa: BLE001 - classified below; unknown ones re-raised
                error = self._classify(exc, options["known_hosts"])
                if error is None:
                    raise
                transient = error.code in ("connection_refused", "connection_timeout", "connection_lost") or (
                    error.code == "host_unreachable" and isinstance(exc, OSError) and not _is_dns_error(exc)
                )
                if not transient or attempt == self.settings.jumpbox_retries:
                    raise error from None
                self.log.warning("jumpbox_retry", error=error.code, attempt=attempt + 1, retry_in_s=delay)
                await asyncio.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")

    def _classify(self, exc: BaseException, known_hosts: str) -> JumpboxError | None:
        asyncssh = _asyncssh()
        t, where = self.target, self.target.display()
        if isinstance(exc, asyncssh.HostKeyNotVerifiable):
            resolved = str(exc).rpartition(" for host ")[2].split(" ")[0] or t.host  # HostName from the ssh config
            return _host_key_error(JumpboxTarget(resolved, t.port, t.username), known_hosts)
        if isinstance(exc, asyncssh.PermissionDenied):
            return JumpboxError(
                "auth_failed",
                f"authentication to {where} failed: the jumpbox accepted none of the offered keys. Check IdentityFile "
                "in "
                f"{self.settings.jumpbox_ssh_config} (or JUMPBOX_IDENTITY_FILE / -i) and that its public key is in the "
                "jumpbox's authorized_keys",
            )
        if isinstance(exc, asyncssh.KeyImportError | asyncssh.KeyEncryptionError):
            hint = "use an unencrypted key or ssh-agent"
            return JumpboxError("auth_failed", f"cannot load the client key for {where}: {type(exc).__name__} ({hint})")
        if isinstance(exc, ConnectionRefusedError):
            hint = "is sshd running on that port? (check -p in JUMPBOX_URI)"
            return JumpboxError("connection_refused", f"connection to {where} refused: {hint}")
        if isinstance(exc, TimeoutError | asyncio.TimeoutError):
            return JumpboxError(
                "connection_timeout",
                f"{where} did not answer within {self.settings.jumpbox_connect_timeout_s:g} s "
                "(JUMPBOX_CONNECT_TIMEOUT_S)",
            )
        if isinstance(exc, asyncssh.DisconnectError | ConnectionResetError | BrokenPipeError):
            return JumpboxError("connection_lost", f"the SSH session with {where} broke: {_brief(exc)}")
        if isinstance(exc, OSError):
            return JumpboxError("host_unreachable", f"cannot reach {where}: {_brief(exc)}")
        if isinstance(exc, asyncssh.Error | ValueError):  # e.g. an unreadable ssh config or a protocol error
            return JumpboxError("connection_lost", f"cannot set up the SSH session with {where}: {_brief(exc)}")
        return None

    # -- operations ----------------------------------------------------------------------
    async def list_jobs(self) -> list[RemoteJob]:
        """Job directories under ``JUMPBOX_ROOT`` that hold ``step5_summary.json``."""
        root = self.settings.jumpbox_root
        try:
            names = await self._sftp.readdir(root)
        except Exception as exc:
            missing = ("remote_dir_missing", f"{root} does not exist on the jumpbox")
            raise _remote_error(exc, f"listing {root}", missing=missing) from None
        jobs = []
        for entry in names:
            name = _name(entry.filename)
            if job_id_problem(name) or not stat.S_ISDIR(entry.attrs.permissions or 0):
                continue
            try:
                attrs = await self._sftp.stat(posixpath.join(root, name, REQUIRED_FILES[0]))
            except _asyncssh().SFTPError:
                continue  # not (yet) a finished job
            jobs.append(RemoteJob(name, int(attrs.mtime or 0), int(attrs.size or 0)))
        return sorted(jobs, key=lambda j: j.job_id)

    async def _remote_files(self, job_id: str) -> tuple[str, dict[str, int]]:
        """The remote job dir and its regular files (name → size), required ones checked."""
        rdir = remote_dir(job_id, self.settings)
        try:
            entries = await self._sftp.readdir(rdir)
        except Exception as exc:
            gone = ("remote_dir_missing", f"{rdir}/ does not exist on the jumpbox ({self.target.display()})")
            raise _remote_error(exc, f"listing {rdir}", missing=gone) from None
        files = {
            _name(e.filename): int(e.attrs.size or 0)
            for e in entries
            if stat.S_ISREG(e.attrs.permissions or 0) and not job_id_problem(_name(e.filename))
        }
        missing = [name for name in REQUIRED_FILES if name not in files]
        if missing:
            names = ", ".join(missing)
            raise JumpboxError("required_file_missing", f"{rdir}/ on the jumpbox is missing required file(s): {names}")
        return rdir, files

    async def download(self, job_id: str, progress: ProgressFn | None = None) -> Path:
        """Fetch ``<JUMPBOX_ROOT>/<job_id>/`` into ``<RCALOOP_ANALYSIS_ROOT>/<job_id>/`` atomically."""
        target = analysis_dir(job_id, self.settings)
        rdir, files = await self._remote_files(job_id)
        root = target.parent
        root.mkdir(parents=True, exist_ok=True)
        _remove_stale_partials(root, job_id)
        staged = root / f".{job_id}.partial-{secrets.token_hex(4)}"
        staged.mkdir()
        try:
            for name in sorted(files):
                await self._get(posixpath.join(rdir, name), staged / name, name, progress)
            check_job_files(staged, shown=f"{rdir} on the jumpbox")
            kept = target / ANNOTATION_FILE
            if kept.is_file():  # the local annotation always wins over the jumpbox's copy
                shutil.copy2(kept, staged / ANNOTATION_FILE)
            _swap_into_place(staged, target)
        except BaseException:
            shutil.rmtree(staged, ignore_errors=True)
            raise
        self.log.info("jumpbox_downloaded", job_id=job_id, files=len(files), bytes=sum(files.values()))
        return target

    async def _get(self, remote: str, local: Path, name: str, progress: ProgressFn | None) -> None:
        handler = (lambda _src, _dst, done, total: progress(name, done, total)) if progress else None
        try:
            await self._guarded(self._sftp.get(remote, str(local), progress_handler=handler))
        except Exception as exc:
            raise _transfer_error(exc, f"downloading {remote}") from None

    async def upload_annotation(self, job_id: str, progress: ProgressFn | None = None) -> str:
        """Push ``annotation.json`` to the job's remote directory; returns the remote path."""
        local = analysis_dir(job_id, self.settings) / ANNOTATION_FILE
        _read_annotation(local)
        rdir = remote_dir(job_id, self.settings)
        try:
            attrs = await self._sftp.stat(rdir)
        except Exception as exc:
            missing = ("remote_dir_missing", f"{rdir}/ does not exist on the jumpbox")
            raise _remote_error(exc, f"checking {rdir}", missing=missing) from None
        if not stat.S_ISDIR(attrs.permissions or 0):
            raise JumpboxError("remote_dir_missing", f"{rdir} on the jumpbox is not a directory")
        remote = posixpath.join(rdir, ANNOTATION_FILE)
        partial = f"{remote}.part-{secrets.token_hex(4)}"
        handler = (lambda _src, _dst, done, total: progress(ANNOTATION_FILE, done, total)) if progress else None
        try:
            await self._guarded(self._sftp.put(str(local), partial, progress_handler=handler))
            await self._replace(partial, remote)
        except Exception as exc:
            await self._discard(partial)
            raise _transfer_error(exc, f"uploading {remote}") from None
        self.log.info("jumpbox_uploaded", job_id=job_id, path=remote)
        return remote

    async def _guarded(self, transfer: Any) -> Any:
        """Await a transfer; on cancellation drop the connection so it stops at once.

        asyncssh waits for its outstanding parallel reads when cancelled, which on a
        stalled server is forever; aborting the connection fails them immediately.
        """
        task = asyncio.ensure_future(transfer)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            self._conn.abort()
            task.add_done_callback(lambda t: t.cancelled() or t.exception())
            raise

    async def _replace(self, partial: str, remote: str) -> None:
        asyncssh = _asyncssh()
        try:
            await self._sftp.posix_rename(partial, remote)
        except asyncssh.SFTPOpUnsupported:
            if await self._sftp.exists(remote):
                await self._sftp.remove(remote)
            await self._sftp.rename(partial, remote)

    async def _discard(self, partial: str) -> None:
        try:
            await self._sftp.remove(partial)
        except Exception:  # noqa: BLE001 - best effort on a connection that may be gone
            pass


# -- the simple API ------------------------------------------------------------------------


async def download_job(job_id: str, settings: JumpboxSettings | None = None,
                       progress: ProgressFn | None = None) -> Path:
    """``rcaloop download``: fetch the job (or, without ``JUMPBOX_URI``, check the local copy)."""
    settings = settings or JumpboxSettings()
    check_job_id(job_id)
    if not settings.jumpbox_uri:
        return validate_local(job_id, settings)
    async with Jumpbox(settings) as jb:
        return await jb.download(job_id, progress)


async def upload_annotation(job_id: str, settings: JumpboxSettings | None = None,
                            progress: ProgressFn | None = None) -> str:
    """``rcaloop upload``: the remote path written, or the local path when ``JUMPBOX_URI`` is unset."""
    settings = settings or JumpboxSettings()
    local = analysis_dir(job_id, settings) / ANNOTATION_FILE
    _read_annotation(local)  # checked before any connection
    if not settings.jumpbox_uri:
        return str(local)
    async with Jumpbox(settings) as jb:
        return await jb.upload_annotation(job_id, progress)


# -- helpers ---------------------------------------------------------------------------------


def _asyncssh():
    try:
        with warnings.catch_warnings():  # its DSA support warns on import with newer cryptography: noise for the user
            warnings.filterwarnings("ignore", message="DSA is deprecated", category=UserWarning)
            import asyncssh  # noqa: PLC0415 - optional extra rcaloop-shared[jumpbox]
    except ImportError:  # pragma: no cover - depends on the install
        raise JumpboxError("sftp_unavailable",
                           "asyncssh is not installed: pip install 'rcaloop-shared[jumpbox]'") from None
    return asyncssh


def _host_key_error(t: JumpboxTarget, known_hosts: str) -> JumpboxError:
    asyncssh = _asyncssh()
    port = t.port or 22
    shown = t.host if port == 22 else f"[{t.host}]:{port}"
    try:
        entries = asyncssh.read_known_hosts(known_hosts).match(t.host, "", port)
        known = any(entries[:3])
    except Exception:  # noqa: BLE001 - an unreadable file counts as no entry
        known = False
    if known:
        return JumpboxError(
            "host_key_mismatch",
            f"the host key of {shown} does NOT match the one in {known_hosts}: the key changed or the connection is "
            "being "
            f"intercepted. Confirm the new fingerprint with the jumpbox's administrator, then replace the entry: "
            f"ssh-keygen -R '{shown}' -f {known_hosts} && ssh-keyscan {_keyscan_args(t)} >> {known_hosts}",
        )
    return JumpboxError(
        "host_key_unknown",
        f"{shown} is not in {known_hosts}, so its host key cannot be verified. Check its fingerprint out of band, "
        f"then add it: ssh-keyscan {_keyscan_args(t)} >> {known_hosts}",
    )


def _keyscan_args(t: JumpboxTarget) -> str:
    return f"-p {t.port} {t.host}" if t.port else t.host


def _remote_error(exc: BaseException, doing: str, *, missing: tuple[str, str]) -> JumpboxError:
    asyncssh = _asyncssh()
    if isinstance(exc, asyncssh.SFTPNoSuchFile | asyncssh.SFTPNoSuchPath):
        return JumpboxError(*missing)
    return _transfer_error(exc, doing)


def _transfer_error(exc: BaseException, doing: str) -> JumpboxError:
    asyncssh = _asyncssh()
    if isinstance(exc, JumpboxError):
        return exc
    if isinstance(exc, asyncssh.DisconnectError | ConnectionError | asyncssh.ChannelOpenError):
        return JumpboxError("connection_lost", f"the SSH session broke while {doing}: {_brief(exc)}")
    return JumpboxError("transfer_failed", f"{doing} failed: {_brief(exc)}")


def _brief(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


def _name(filename: str | bytes) -> str:
    return filename.decode("utf-8", "replace") if isinstance(filename, bytes) else filename


def _is_dns_error(exc: OSError) -> bool:
    import socket  # noqa: PLC0415

    return isinstance(exc, socket.gaierror)
