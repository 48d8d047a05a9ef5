"""The example reverse proxy (deploy/nginx.conf or deploy/Caddyfile) in front of two `grievous run` processes and a
`grievous web` process on one PostgreSQL.

    .venv/bin/python -m bench.proxy_check                  # needs nginx (apt-get install nginx) and PostgreSQL
    .venv/bin/python -m bench.proxy_check --proxy caddy    # deploy/Caddyfile under Caddy (apt-get install caddy)

What it does, on this machine only (no Docker engine needed):

* a scratch PostgreSQL (bot/db/scratch_postgres.py) and the Discord emulator, with one server on shard 0;
* two `grievous run` processes (SHARD_IDS 0 and 1 of 2), each with its web page on a port of its own, and a
  `grievous web` process (the page in a process of its own, no Discord connection: docs/operations.md), all
  behind one nginx running ``deploy/nginx.conf`` itself: the only changes are the overrides below, made by
  ``render_nginx`` and printed, so the file checked is the file shipped;
* the GM asks /web in Discord; the link it answers with (WEB_BASE_URL, the proxy's https address) opens the
  campaign page through the proxy; the encounter page and its live stream (Server-Sent Events) come through;
  live streams are opened until each process serves one (read from each process's own metrics);
* the GM attacks in Discord, which the shard-0 process answers; every stream, the other processes' included,
  must show the blow within 2 s (the proxy must not buffer the stream); the web process then stops on SIGTERM,
  exit 0.

The overrides (and nothing else): the listening ports (80 and 443 become free ports; the IPv6 lines go), the
server name (localhost), the certificate (a self-signed one made here with openssl), and the upstream's one
``server`` line (one line per process). nginx runs as the current user from a scratch prefix, wrapped in a
minimal main configuration (``events``, ``http``, pid and temp paths), as /etc/nginx/nginx.conf wraps it.
Caddy runs deploy/Caddyfile with WEB_BASE_URL and GRIEVOUS_WEB (every process) set as compose.yaml sets them,
after an options block of this check's own (``caddy_globals``: storage under the scratch directory, the http
port, no admin endpoint, and its local certificate authority kept out of the system's trust store).

Exit 0 if every check held, 1 if one failed, 2 if nginx or PostgreSQL is missing (what is missing is printed).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp

from bot.db.scratch_postgres import start_scratch_postgres
from emulator import Channel, Emulator, Member
from emulator import permissions as perms
from emulator.harness import running_emulator
from emulator.models import walk_components
from emulator.processes import BotProcess

ROOT = Path(__file__).resolve().parent.parent
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
DEADLINE = 30.0  # a command's answer on a loaded machine (not what is measured)
LIVE_WITHIN = 2.0  # the bound: an action in one process reaches a viewer of the other
HIT = "attack=9 defense=2 location=50 defender_shock=9 defender_kill=9 defender_fumble=9 defender_stumble=9"


class Missing(Exception):
    """nginx or PostgreSQL is not installed here: nothing was checked."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def render_nginx(conf: str, *, http_port: int, https_port: int, upstreams: Sequence[int], cert: Path,
                 key: Path) -> str:
    """deploy/nginx.conf with the overrides this check makes (module docstring): ports, name, certificate and
    the upstream's servers. Every other line is the shipped file's."""
    out = conf
    out = re.sub(r"^\s*listen \[::\]:.*\n", "", out, flags=re.MULTILINE)  # no IPv6 on every test machine
    out = re.sub(r"listen 80;", f"listen 127.0.0.1:{http_port};", out)
    out = re.sub(r"listen 443 ssl", f"listen 127.0.0.1:{https_port} ssl", out)
    out = out.replace("server_name grievous.example.org;", "server_name localhost;")
    out = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", out)
    out = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", out)
    servers = "".join(f"    server 127.0.0.1:{port};\n" for port in upstreams)
    out, count = re.subn(r"^\s*server 127\.0\.0\.1:8090;.*\n", servers, out, flags=re.MULTILINE)
    if count != 1:
        raise ValueError("deploy/nginx.conf has no `server 127.0.0.1:8090;` line in its upstream to replace")
    return out


def nginx_main(prefix: Path, site: Path) -> str:
    """The main configuration /etc/nginx/nginx.conf would be, with every path under ``prefix``."""
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers as root here: they read the scratch files
    return (f"{user}worker_processes 1;\npid {prefix}/nginx.pid;\nerror_log {prefix}/error.log warn;\n"
            "events { worker_connections 256; }\n"
            "http {\n"
            f"    client_body_temp_path {prefix}/body; proxy_temp_path {prefix}/proxy;\n"
            f"    fastcgi_temp_path {prefix}/fastcgi; uwsgi_temp_path {prefix}/uwsgi; scgi_temp_path {prefix}/scgi;\n"
            f"    include {site};\n"
            "}\n")


def self_signed(directory: Path) -> tuple[Path, Path]:
    cert, key = directory / "localhost.crt", directory / "localhost.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True, timeout=60)
    return cert, key


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)


def prepare_nginx(workdir: Path, *, http_port: int, https_port: int, upstreams: Sequence[int]
                  ) -> tuple[str, Path, Path]:
    """The scratch prefix, the certificate and both configuration files, checked by ``nginx -t``: (binary,
    prefix, main configuration)."""
    binary = nginx_binary()
    if binary is None:
        raise Missing("nginx is not installed (apt-get install nginx)")
    prefix = workdir / "nginx"
    prefix.mkdir()
    cert, key = self_signed(prefix)
    site = prefix / "grievous.conf"
    site.write_text(render_nginx(NGINX_CONF.read_text(), http_port=http_port, https_port=https_port,
                                 upstreams=upstreams, cert=cert, key=key))
    main = prefix / "nginx.conf"
    main.write_text(nginx_main(prefix, site))
    tested = subprocess.run([binary, "-t", "-p", str(prefix), "-c", str(main)], capture_output=True, text=True,
                            timeout=30)
    if tested.returncode != 0:
        raise AssertionError(f"nginx -t refused the configuration: {tested.stderr}")
    return binary, prefix, main


@contextlib.asynccontextmanager
async def _serving(process: asyncio.subprocess.Process, https_port: int) -> AsyncIterator[None]:
    """A proxy's ``process`` for the block: entered once it listens on ``https_port``; stopped after (terminated,
    killed if it has not ended within 10 s)."""
    try:
        await wait_for_port(https_port)
        yield
    finally:
        process.terminate()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), 10)
        if process.returncode is None:
            process.kill()
            await process.wait()


@contextlib.asynccontextmanager
async def nginx(workdir: Path, *, http_port: int, https_port: int, upstreams: Sequence[int]) -> AsyncIterator[None]:
    """nginx running deploy/nginx.conf (overridden as ``render_nginx`` says), until the block ends."""
    binary, prefix, main = prepare_nginx(workdir, http_port=http_port, https_port=https_port, upstreams=upstreams)
    process = await asyncio.create_subprocess_exec(binary, "-p", str(prefix), "-c", str(main), "-g", "daemon off;",
                                                   stderr=asyncio.subprocess.PIPE)
    async with _serving(process, https_port):
        yield


CADDYFILE = ROOT / "deploy" / "Caddyfile"


def caddy_globals(prefix: Path, http_port: int) -> str:
    """The options block put before deploy/Caddyfile for this check: its own storage and http port, no admin
    endpoint, and its local authority kept out of the system's trust store."""
    return (f"{{\n\tskip_install_trust\n\tadmin off\n\thttp_port {http_port}\n"
            f"\tstorage file_system {prefix}/data\n}}\n\n")


@contextlib.asynccontextmanager
async def caddy(workdir: Path, *, http_port: int, https_port: int, upstreams: Sequence[int]) -> AsyncIterator[None]:
    """Caddy running deploy/Caddyfile with WEB_BASE_URL and GRIEVOUS_WEB set as compose.yaml sets them (every
    process listed), after the options block ``caddy_globals`` makes."""
    binary = shutil.which("caddy")
    if binary is None:
        raise Missing("caddy is not installed (apt-get install caddy)")
    prefix = workdir / "caddy"
    prefix.mkdir()
    config = prefix / "Caddyfile"
    config.write_text(caddy_globals(prefix, http_port) + CADDYFILE.read_text())
    env = {**os.environ, "WEB_BASE_URL": f"https://localhost:{https_port}", "HOME": str(prefix),
           "XDG_DATA_HOME": str(prefix / "data"), "XDG_CONFIG_HOME": str(prefix / "config"),
           "GRIEVOUS_WEB": " ".join(f"127.0.0.1:{port}" for port in upstreams)}
    process = await asyncio.create_subprocess_exec(binary, "run", "--config", str(config), "--adapter", "caddyfile",
                                                   env=env, stdout=asyncio.subprocess.DEVNULL,
                                                   stderr=asyncio.subprocess.DEVNULL)
    async with _serving(process, https_port):
        yield


PROXIES = {"nginx": nginx, "caddy": caddy}


async def wait_for_port(port: int, within: float = 15.0) -> None:
    start = time.monotonic()
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            if time.monotonic() - start > within:
                raise
            await asyncio.sleep(0.1)
            continue
        writer.close()
        return


@dataclass
class Stream:
    """A live stream read through the proxy: its frames, and when each came."""

    frames: list[tuple[float, str]] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None

    async def read(self, http: aiohttp.ClientSession, url: str, opened: asyncio.Event) -> None:
        async with http.get(url, timeout=aiohttp.ClientTimeout(total=None)) as response:
            self.headers = dict(response.headers)
            if response.status != 200:
                opened.set()
                return
            data: list[str] = []
            async for raw in response.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("data: "):
                    data.append(line[6:])
                elif not line and data:
                    self.frames.append((time.monotonic(), "\n".join(data)))
                    data = []
                    opened.set()

    def shows(self, wanted: str) -> float | None:
        return next((at for at, data in self.frames if wanted in data), None)


async def live_connections(health_port: int) -> float:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{health_port}/metrics") as reply:
        text = await reply.text()
    found = re.search(r"^grievous_web_live_connections (\S+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


async def slash(emu: Emulator, command: str, options: dict[str, object], user: Member, channel: Channel) -> str:
    handle = await emu.slash(command, options, user=user, channel=channel)
    message = await handle.message(DEADLINE)
    if message.content.startswith(("\u26a0", "Sorry")):
        raise AssertionError(f"/{command} {options}: {message.content}")
    urls = [c.get("url") for c in walk_components(message.components) if c.get("url")]
    return str(urls[0]) if urls else message.content


def say(line: str) -> None:
    print(line, flush=True)


async def check(workdir: Path, proxy: str = "nginx") -> list[str]:
    """Run the whole check; the lines of what held (an AssertionError says what did not)."""
    server = start_scratch_postgres("grievous_proxy")
    if isinstance(server, str):
        raise Missing(server)
    if (nginx_binary() if proxy == "nginx" else shutil.which(proxy)) is None:
        server.stop()
        raise Missing(f"{proxy} is not installed (apt-get install {proxy})")
    done: list[str] = []
    try:
        http_port, https_port = free_port(), free_port()
        # the two shard processes', then the web process's
        web_ports, health_ports = [free_port() for _ in range(3)], [free_port() for _ in range(3)]
        base = f"https://localhost:{https_port}"
        async with running_emulator(recommended_shards=2, interaction_deadline=DEADLINE) as emu:
            guild = emu.add_guild("Proxy check", shard=(0, 2))
            role = emu.add_role(guild, "GM", permissions=perms.MANAGE_MESSAGES | perms.PIN_MESSAGES)
            gm = emu.add_member(guild, emu.add_user("proxy-gm"), roles=[role])
            manager = guild.members[emu.state.owner.id]
            fight = emu.add_channel(guild, "fight")
            processes = []
            for shard in (0, 1):
                env = {"DATABASE_URL": server.url, "SYNC_COMMANDS": "1" if shard == 0 else "0", "LOG_LEVEL": "INFO",
                       "HEALTH_PORT": str(health_ports[shard]), "SHARD_IDS": str(shard), "SHARD_COUNT": "2",
                       "WEB_HOST": "127.0.0.1", "WEB_PORT": str(web_ports[shard]), "WEB_BASE_URL": base,
                       "WEB_TRUSTED_PROXIES": "127.0.0.1"}
                processes.append(BotProcess(emu, ["bot.cli:main", "run"], env=env, shards=(shard,),
                                            log_path=workdir / f"grievous-{shard}.log", name=f"grievous-{shard}"))
            web: asyncio.subprocess.Process | None = None
            try:
                await processes[0].start(within=120)  # migrates the database first
                await processes[1].start(within=120)
                web = await web_process(workdir, server.url, base, web_ports[2], health_ports[2])
                await emu.wait_for_commands("setup", "web", within=120)
                await slash(emu, "setup system", {"system": "ars-harn"}, manager, fight)
                await emu.wait_for_commands("attack", "encounter", guild=guild, within=120)  # the system's
                await slash(emu, "setup gm-role", {"role": role.id}, manager, fight)
                await slash(emu, "encounter start", {}, gm, fight)
                await slash(emu, "encounter npcs", {"template": "bandit", "count": 2, "name_prefix": "Bandit"}, gm,
                            fight)
                for port in web_ports:
                    await wait_for_port(port)
                async with PROXIES[proxy](workdir, http_port=http_port, https_port=https_port, upstreams=web_ports):
                    done += await through_the_proxy(emu, base, gm, fight, health_ports)
                web.send_signal(signal.SIGTERM)
                assert await asyncio.wait_for(web.wait(), 20) == 0, "grievous web did not exit 0 on SIGTERM"
                done.append("the web process stopped on SIGTERM, exit 0")
            finally:
                if web is not None and web.returncode is None:
                    web.kill()
                    await web.wait()
                for process in processes:
                    await process.stop()
    finally:
        server.stop()
    return done


async def web_process(workdir: Path, url: str, base: str, port: int, health_port: int) -> asyncio.subprocess.Process:
    """`python -m bot web` on the database, listening on ``port``: started once it listens."""
    env = {**os.environ, "DATABASE_URL": url, "LOG_LEVEL": "INFO", "HEALTH_PORT": str(health_port),
           "WEB_HOST": "127.0.0.1", "WEB_PORT": str(port), "WEB_BASE_URL": base, "WEB_TRUSTED_PROXIES": "127.0.0.1"}
    env.pop("DISCORD_TOKEN", None)
    with (workdir / "grievous-web.log").open("wb") as log:
        process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "web", env=env, stdout=log,
                                                       stderr=log, stdin=subprocess.DEVNULL)
    await wait_for_port(port, within=120)
    return process


async def through_the_proxy(emu: Emulator, base: str, gm: Member, fight: Channel, health_ports: list[int]
                            ) -> list[str]:
    done: list[str] = []
    link = await slash(emu, "web", {}, gm, fight)
    assert link.startswith(f"{base}/web/login?t="), link
    insecure = ssl.create_default_context()
    insecure.check_hostname = False
    insecure.verify_mode = ssl.CERT_NONE  # the certificate is the self-signed one made for this check
    connector = aiohttp.TCPConnector(ssl=insecure, limit=0)
    streams: list[Stream] = []
    async with aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        async with http.get(f"http://localhost:{base.rsplit(':', 1)[1]}/web/", allow_redirects=False) as plain:
            assert plain.status == 400, plain.status  # https only: plain http on the https port is refused
        async with http.get(link) as opened:
            page = await opened.text()
            assert opened.status == 200 and str(opened.url) == f"{base}/web/", (opened.status, opened.url)
            assert "Campaign" in page and "Bandit 1" in page, page[:500]
        done.append(f"the /web link ({base}/web/login?t=...) opened the campaign page through the proxy")
        async with http.get(f"{base}/web/encounter/{fight.id}") as encounter:
            text = await encounter.text()
            assert encounter.status == 200 and "Bandit 2" in text, encounter.status
        done.append("the encounter page came through the proxy")
        live = f"{base}/web/encounter/{fight.id}/live"
        try:
            for _ in range(12):  # the proxy takes turns over the processes: open streams until each serves one
                stream = Stream()
                opened_event = asyncio.Event()
                stream.task = asyncio.create_task(stream.read(http, live, opened_event))
                await asyncio.wait_for(opened_event.wait(), DEADLINE)
                assert stream.frames, f"a live stream through the proxy got no first frame: {stream.headers}"
                streams.append(stream)
                serving = [await live_connections(port) for port in health_ports]
                if all(count >= 1 for count in serving):
                    break
            assert all(count >= 1 for count in serving), f"the streams all went to one process: {serving}"
            kinds = {s.headers.get("Content-Type", "") for s in streams}
            assert kinds == {"text/event-stream"} and all("Content-Encoding" not in s.headers for s in streams), kinds
            done.append(f"{len(streams)} live streams through the proxy, each process serving "
                        f"{', '.join(str(int(c)) for c in serving)} (their metrics), first frames at once")
            acted = time.monotonic()
            await slash(emu, "attack", {"target": "Bandit 2", "attacker": "Bandit 1", "aspect": "edge", "dice": HIT},
                        gm, fight)
            answered = time.monotonic() - acted
            while any(s.shows("Bandit 1 attacks Bandit 2") is None for s in streams):
                assert time.monotonic() - acted < answered + LIVE_WITHIN, \
                    f"the attack did not reach every stream within {LIVE_WITHIN} s of its answer"
                await asyncio.sleep(0.02)
            delays = [(s.shows("Bandit 1 attacks Bandit 2") or acted) - acted for s in streams]
            done.append(f"the attack, answered by the shard-0 process in {answered:.2f} s, reached every stream "
                        f"(every process') in {', '.join(f'{d:.2f}' for d in delays)} s from the command")
        finally:
            for stream in streams:
                if stream.task is not None:
                    stream.task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, aiohttp.ClientError):
                        await stream.task
    return done


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.proxy_check", description=__doc__.split("\n\n")[0])
    parser.add_argument("--proxy", choices=sorted(PROXIES), default="nginx",
                        help="deploy/nginx.conf under nginx (default) or deploy/Caddyfile under Caddy")
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory (the processes' logs)")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="grievous-proxy-"))
    try:
        for line in asyncio.run(check(workdir, args.proxy)):
            say(f"ok: {line}")
    except Missing as missing:
        say(f"not checked: {missing}")
        return 2
    except AssertionError as failed:
        say(f"FAILED: {failed} (logs in {workdir})")
        return 1
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
