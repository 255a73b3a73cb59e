"""Finding LAN games: the host announces its room with mDNS / DNS-SD, friends browse for it.

A hosted game is the DNS-SD service ``<name>._soccerdesk._tcp.local.`` whose TXT record
holds the protocol version, the game id and the room code, and whose address and port are
the host's in-process relay. Putting the code in the announcement means a friend on the
same network just picks the game from a list (hosts who do not want that simply do not
announce, and give the code by word of mouth).

* :class:`LanAnnouncer` registers one game and withdraws it on :meth:`LanAnnouncer.stop`.
* :class:`LanBrowser` keeps the list of games it has heard of and calls ``on_change``.

Both take a ``zeroconf_factory`` so that tests run them without sending multicast on the
machine's network: in a private network namespace, or with results injected through
:meth:`LanBrowser.add` and :meth:`LanBrowser.remove` (what the zeroconf callbacks call).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from soccerdesk.net.protocol import PROTOCOL_VERSION

log = logging.getLogger("soccerdesk.discovery")

SERVICE_TYPE = "_soccerdesk._tcp.local."


@dataclass(frozen=True, slots=True)
class LanGame:
    """A game hosted on the local network, as announced."""

    name: str  # what the host called it: "Alice – Pawn Soccer"
    address: str
    port: int
    room: str
    game: str
    version: int = PROTOCOL_VERSION

    @property
    def url(self) -> str:
        host = f"[{self.address}]" if ":" in self.address else self.address
        return f"ws://{host}:{self.port}/ws"

    @property
    def compatible(self) -> bool:
        return self.version == PROTOCOL_VERSION


def _instance_name(name: str) -> str:
    # A DNS-SD instance label is at most 63 bytes and may not contain dots that would split it.
    label = name.replace(".", " ").strip() or "soccerdesk"
    while len(label.encode()) > 63:
        label = label[:-1]
    return f"{label}.{SERVICE_TYPE}"


def service_info(game: LanGame) -> Any:
    """The zeroconf ``ServiceInfo`` that announces ``game``."""
    from zeroconf import ServiceInfo

    return ServiceInfo(
        SERVICE_TYPE,
        _instance_name(game.name),
        addresses=[socket.inet_pton(_family(game.address), game.address)],
        port=game.port,
        properties={"v": str(game.version), "game": game.game, "room": game.room, "name": game.name},
        server=f"{socket.gethostname().split('.')[0] or 'soccerdesk'}.local.",
    )


def _family(address: str) -> int:
    return socket.AF_INET6 if ipaddress.ip_address(address).version == 6 else socket.AF_INET


def lan_game_from(info: Any) -> LanGame | None:
    """A :class:`LanGame` from a resolved ``ServiceInfo``, or ``None`` if it is not a usable one."""
    props = {
        (k.decode() if isinstance(k, bytes) else str(k)): (v.decode() if isinstance(v, bytes) else v)
        for k, v in (info.properties or {}).items()
    }
    addresses = info.parsed_addresses() if hasattr(info, "parsed_addresses") else []
    try:
        version = int(props.get("v") or "0")
    except ValueError:
        return None
    room, game = props.get("room"), props.get("game")
    if not addresses or not info.port or not isinstance(room, str) or not isinstance(game, str):
        return None
    name = props.get("name") or info.name.removesuffix("." + SERVICE_TYPE)
    return LanGame(str(name), addresses[0], int(info.port), room, game, version)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that a friend on the LAN can reach (not loopback)."""
    import ifaddr

    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                addr = ipaddress.ip_address(ip.ip)
                if not addr.is_loopback and not addr.is_link_local:
                    found.append(ip.ip)
    return found


def _default_zeroconf() -> Any:
    from zeroconf.asyncio import AsyncZeroconf

    return AsyncZeroconf()


ZeroconfFactory = Callable[[], Any]


class LanAnnouncer:
    """Announces one hosted game until :meth:`stop`."""

    def __init__(self, zeroconf_factory: ZeroconfFactory = _default_zeroconf) -> None:
        self._factory = zeroconf_factory
        self._zc: Any = None
        self._info: Any = None

    async def start(self, game: LanGame) -> None:
        self._zc = self._factory()
        self._info = service_info(game)
        await self._zc.async_register_service(self._info, allow_name_change=True)
        log.info("announcing %s at %s", game.name, game.url)

    async def stop(self) -> None:
        if self._zc is None:
            return
        with contextlib.suppress(Exception):  # the network may be gone already
            await self._zc.async_unregister_service(self._info)
        await self._zc.async_close()
        self._zc = None


class LanBrowser:
    """Keeps the games announced on the LAN; ``on_change(games)`` after each change."""

    def __init__(
        self,
        on_change: Callable[[list[LanGame]], None] | None = None,
        zeroconf_factory: ZeroconfFactory = _default_zeroconf,
    ) -> None:
        self.on_change = on_change
        self._factory = zeroconf_factory
        self._games: dict[str, LanGame] = {}
        self._zc: Any = None
        self._browser: Any = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def games(self) -> list[LanGame]:
        """Compatible games heard of, by name."""
        return sorted((g for g in self._games.values() if g.compatible), key=lambda g: g.name.lower())

    def add(self, service_name: str, game: LanGame) -> None:
        """A game was announced (or changed)."""
        self._games[service_name] = game
        self._changed()

    def remove(self, service_name: str) -> None:
        """A game was withdrawn."""
        if self._games.pop(service_name, None) is not None:
            self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self.games)

    async def start(self) -> None:
        from zeroconf.asyncio import AsyncServiceBrowser

        self._zc = self._factory()
        self._browser = AsyncServiceBrowser(self._zc.zeroconf, SERVICE_TYPE, handlers=[self._on_service_state_change])

    def _on_service_state_change(self, zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        from zeroconf import ServiceStateChange

        if state_change is ServiceStateChange.Removed:
            self.remove(name)
            return
        task = asyncio.get_running_loop().create_task(self._resolve(service_type, name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, service_type: str, name: str) -> None:
        from zeroconf.asyncio import AsyncServiceInfo

        info = AsyncServiceInfo(service_type, name)
        if await info.async_request(self._zc.zeroconf, 3000):
            game = lan_game_from(info)
            if game is not None:
                self.add(name, game)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        if self._zc is not None:
            await self._zc.async_close()
            self._zc = None


__all__ = ["SERVICE_TYPE", "LanAnnouncer", "LanBrowser", "LanGame", "lan_addresses", "lan_game_from", "service_info"]
