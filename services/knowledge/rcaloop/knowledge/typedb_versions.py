"""Which TypeDB server a typedb-driver can talk to, and where a server image keeps its data.

On connection open the server accepts a driver only when both speak the same protocol
version and the driver's protocol extension is not newer than the server's. The tables
below are the ``typedb-protocol`` release each server and driver version builds against
(server 3.4–3.5: protocol 7; 3.7–3.10: 7 with extension 1; 3.11: 8.1; 3.12: 8.2). A
version missing from a table is unknown: check it and add it before deploying it.
"""

from __future__ import annotations

SERVER_PROTOCOL: dict[str, tuple[int, int]] = {
    "3.4": (7, 0), "3.5": (7, 0), "3.7": (7, 1), "3.8": (7, 1), "3.10": (7, 1), "3.11": (8, 1), "3.12": (8, 2),
}
DRIVER_PROTOCOL: dict[str, tuple[int, int]] = {"3.12": (8, 2), "3.14": (8, 2)}
DATA_DIR = "/var/lib/typedb/data"
"""The data directory of the ``typedb/typedb`` image from 3.8 on (earlier 3.x images: under /opt/…/server/data)."""


def minor(version: str) -> str:
    """``3.12.3`` → ``3.12`` (a tag such as ``3.12.3-rc0`` or an image ``typedb/typedb:3.12.3`` too)."""
    tag = version.rsplit(":", 1)[-1]
    return ".".join(tag.split("-")[0].split(".")[:2])


def cannot_talk(server: str, driver: str) -> str | None:
    """Why this driver version can't talk to this server version; None when it can."""
    server_protocol, driver_protocol = SERVER_PROTOCOL.get(minor(server)), DRIVER_PROTOCOL.get(minor(driver))
    if server_protocol is None:
        return f"TypeDB server {server}: protocol unknown (check its typedb-protocol release and add it)"
    if driver_protocol is None:
        return f"typedb-driver {driver}: protocol unknown (check its typedb-protocol release and add it)"
    if server_protocol[0] != driver_protocol[0]:
        return f"server {server} speaks protocol {server_protocol[0]}, driver {driver} protocol {driver_protocol[0]}"
    if driver_protocol[1] > server_protocol[1]:
        return (
            f"driver {driver} needs protocol extension {driver_protocol[1]}, "
            f"server {server} has {server_protocol[1]}"
        )
    return None
