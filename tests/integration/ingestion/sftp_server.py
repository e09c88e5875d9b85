"""A real asyncssh SFTP server on 127.0.0.1 for jumpbox tests, run in its own thread.

It has a generated host key, accepts one generated client key, chroots SFTP to a temp
directory (the jumpbox's ``/``) and counts connections, so tests can prove a bad job id
never reached the network. ``behaviour`` lets a test break a transfer midway.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh


@dataclass
class Behaviour:
    """What the server does to reads of files whose name ends with ``target``."""

    target: bytes = b""
    abort_after: int | None = None  # drop the connection once a read reaches this offset
    hang: bool = False  # never answer reads
    hung: threading.Event = field(default_factory=threading.Event)


class _Counting(asyncssh.SSHServer):
    def __init__(self, server: SftpServer):
        self._server = server

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._server.connections += 1


class SftpServer:
    """Start with ``start()``; ``known_hosts``, ``client_key`` and ``port`` are ready then."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.root = tmp / "jumpbox"  # what the client sees as /
        self.root.mkdir(parents=True)
        self.host_key = asyncssh.generate_private_key("ssh-ed25519")
        self.client_key_obj = asyncssh.generate_private_key("ssh-ed25519")
        self.client_key = tmp / "id_ed25519"
        self.client_key_obj.write_private_key(str(self.client_key))
        self.client_key.chmod(0o600)
        self.authorized = tmp / "authorized_keys"
        self.client_key_obj.write_public_key(str(self.authorized))
        self.known_hosts = tmp / "known_hosts"
        self.behaviour = Behaviour()
        self.connections = 0
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listener = None
        self._thread: threading.Thread | None = None

    def write_known_hosts(self, key: asyncssh.SSHKey | None = None) -> Path:
        """A known_hosts line for this server (or for ``key``, to fake a changed key)."""
        pub = (key or self.host_key).export_public_key("openssh").decode().strip()
        self.known_hosts.write_text(f"[127.0.0.1]:{self.port} {pub}\n")
        return self.known_hosts

    def start(self, port: int = 0) -> SftpServer:
        ready = threading.Event()
        self._loop = asyncio.new_event_loop()

        async def serve() -> None:
            behaviour, root = self.behaviour, str(self.root)

            class Server(asyncssh.SFTPServer):
                def __init__(self, chan):
                    super().__init__(chan, chroot=root.encode())

                async def read(self, file_obj, offset, size):
                    name = getattr(file_obj, "name", b"")
                    name = name.encode() if isinstance(name, str) else name
                    if behaviour.target and name.endswith(behaviour.target):
                        if behaviour.hang:
                            behaviour.hung.set()
                            await asyncio.sleep(3600)
                        if behaviour.abort_after is not None:
                            if offset >= behaviour.abort_after:
                                self.connection.abort()
                                await asyncio.sleep(3600)
                            size = min(size, behaviour.abort_after - offset)  # a short read, then the drop
                    return super().read(file_obj, offset, size)

            self._listener = await asyncssh.listen(
                "127.0.0.1",
                port,
                server_host_keys=[self.host_key],
                authorized_client_keys=str(self.authorized),
                sftp_factory=Server,
                server_factory=lambda: _Counting(self),
            )
            self.port = self._listener.sockets[0].getsockname()[1]
            ready.set()

        def run() -> None:
            asyncio.set_event_loop(self._loop)
            self._loop.run_until_complete(serve())
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, name="sftp-server", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("SFTP server did not start")
        self.write_known_hosts()
        return self

    def stop(self) -> None:
        if self._loop is None:
            return

        async def close() -> None:
            self._listener.close()
            await self._listener.wait_closed()

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()
