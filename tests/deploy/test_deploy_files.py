"""deploy/: the Docker build context leaves out what the image never uses; the systemd unit says how to
create the user, the venv and the settings file it assumes."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _pattern(line: str) -> re.Pattern[str]:
    """A .dockerignore line as Docker reads it (Go's filepath.Match plus ``**``), rooted at the context."""
    out, i = "", 0
    while i < len(line):
        if line.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif line.startswith("**", i):
            out, i = out + ".*", i + 2
        elif line[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif line[i] == "?":
            out, i = out + "[^/]", i + 1
        elif line[i] == "[":
            end = line.index("]", i)
            out, i = out + line[i:end + 1], end + 1
        else:
            out, i = out + re.escape(line[i]), i + 1
    return re.compile(out + "(?:/.*)?")  # a directory's pattern excludes everything under it


def ignored(path: str) -> bool:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    patterns = [_pattern(line.strip().strip("/")) for line in lines if line.strip() and not line.startswith("#")]
    return any(p.fullmatch(path) for p in patterns)


@pytest.mark.parametrize("path", [".venv/bin/python", ".git/HEAD", "bot/__pycache__/app.cpython-311.pyc",
                                  ".mypy_cache/3.11/x.json", ".pytest_cache/v/x", "grievous.db",
                                  "campaign.db-wal", "deploy/.env", "playground.db"])
def test_docker_context_leaves_out_venv_git_caches_databases_and_secrets(path: str) -> None:
    assert ignored(path)


def test_docker_context_keeps_what_the_dockerfile_copies() -> None:
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text(encoding="utf-8")
    sources = [s for line in re.findall(r"^COPY (?!--from)(.+)$", dockerfile, flags=re.MULTILINE)
               for s in line.split()[:-1]]
    assert {"pyproject.toml", "README.md", "rules", "bot", "content", "emulator"} <= set(sources)
    for source in sources:
        for path in [ROOT / source, *sorted((ROOT / source).rglob("*.py")), *sorted((ROOT / source).rglob("*.yaml"))]:
            if "__pycache__" not in path.parts:
                assert not ignored(path.relative_to(ROOT).as_posix()), path


def test_systemd_unit_gives_the_commands_that_create_what_it_assumes() -> None:
    unit = (ROOT / "deploy" / "grievous.service").read_text(encoding="utf-8")
    comments = "\n".join(line for line in unit.splitlines() if line.startswith("#"))
    user = re.search(r"^User=(\S+)$", unit, flags=re.MULTILINE)
    start = re.search(r"^ExecStart=(\S+)/bin/grievous", unit, flags=re.MULTILINE)
    env = re.search(r"^EnvironmentFile=(\S+)$", unit, flags=re.MULTILINE)
    assert user and start and env
    assert re.search(rf"useradd .*\b{user.group(1)}\b", comments)
    assert f"-m venv {start.group(1)}" in comments
    assert f"{start.group(1)}/bin/pip install" in comments
    assert env.group(1) in comments
    readme = (ROOT / "deploy" / "README.md").read_text(encoding="utf-8")
    assert f"-m venv {start.group(1)}" in readme and re.search(rf"useradd .*\b{user.group(1)}\b", readme)


def test_stop_timeouts_leave_the_bot_time_to_answer_what_is_in_flight() -> None:
    from bot.app import DRAIN_SECONDS

    unit = (ROOT / "deploy" / "grievous.service").read_text(encoding="utf-8")
    compose = (ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8")
    web_unit = (ROOT / "deploy" / "grievous-web.service").read_text(encoding="utf-8")
    systemd = re.findall(r"^TimeoutStopSec=(\d+)$", unit + web_unit, flags=re.MULTILINE)
    docker = re.findall(r"^\s+stop_grace_period: (\d+)s$", compose, flags=re.MULTILINE)
    assert len(systemd) == len(docker) == 2  # the bot and the web page
    assert "KillSignal=SIGTERM" in unit and "KillSignal=SIGTERM" in web_unit
    for timeout in (*map(int, systemd), *map(int, docker), 10):  # 10: docker stop's default, for the bare image
        assert timeout >= DRAIN_SECONDS + 2


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8"))
    return data


def test_compose_serves_the_page_from_its_own_process_on_loopback_trusting_only_its_own_proxy() -> None:
    compose = _compose()
    bot, web, proxy = (compose["services"][name] for name in ("bot", "web", "proxy"))
    assert bot["environment"]["WEB_PORT"] == "off" and "ports" not in bot  # the bot makes the links, serves no page
    assert web["image"] == bot["image"] and web["build"] == bot["build"] and web["command"] == ["grievous", "web"]
    assert web["environment"]["DATABASE_URL"] == bot["environment"]["DATABASE_URL"]
    assert web["environment"]["WEB_HOST"] == "0.0.0.0"  # inside its container, so the proxy reaches it
    assert web["ports"] == ["127.0.0.1:${WEB_PORT:-8090}:${WEB_PORT:-8090}"]  # the host's loopback, never public
    address = proxy["networks"]["web"]["ipv4_address"]
    [subnet] = [c["subnet"] for c in compose["networks"]["web"]["ipam"]["config"]]
    assert ipaddress.ip_address(address) in ipaddress.ip_network(subnet)
    assert web["environment"]["WEB_TRUSTED_PROXIES"] == f"${{WEB_TRUSTED_PROXIES:-{address}}}"
    assert proxy["profiles"] == web["profiles"] == ["web"]  # `up` without --profile web starts the bot alone
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    assert proxy["environment"]["GRIEVOUS_WEB"] == "web:${WEB_PORT:-8090}"


def test_the_web_units_comments_make_its_settings_and_it_runs_grievous_web_as_the_bot_runs() -> None:
    bot = (ROOT / "deploy" / "grievous.service").read_text(encoding="utf-8")
    web = (ROOT / "deploy" / "grievous-web.service").read_text(encoding="utf-8")
    comments = "\n".join(line for line in web.splitlines() if line.startswith("#"))
    start = re.search(r"^ExecStart=(\S+)/bin/grievous web$", web, flags=re.MULTILINE)
    assert start and f"ExecStart={start.group(1)}/bin/grievous run" in bot
    # the bot's settings, then the web process's own (later files win): its port and a health port of its own
    files = re.findall(r"^EnvironmentFile=(\S+)$", web, flags=re.MULTILINE)
    assert files[0] in bot and len(files) == 2 and files[1] in comments
    assert re.search(r"WEB_PORT=\d+\\nHEALTH_PORT=\d+", comments)
    for key in ("User=", "Group=", "WorkingDirectory=", "ReadWritePaths=", "RestartPreventExitStatus=2"):
        same = re.compile(rf"^{key}.*$", flags=re.MULTILINE)
        assert same.findall(web) == same.findall(bot), key
    assert "grievous-web.service" in bot  # the bot's unit says how to serve the page


def test_the_proxy_examples_pass_live_pages_unbuffered_and_log_no_token() -> None:
    caddy = (ROOT / "deploy" / "Caddyfile").read_text(encoding="utf-8")
    nginx = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    caddy_rules = "\n".join(line.split("#")[0] for line in caddy.splitlines())
    nginx_rules = "\n".join(line.split("#")[0] for line in nginx.splitlines())
    assert "{$WEB_BASE_URL}" in caddy_rules and "flush_interval -1" in caddy_rules
    assert "encode" not in caddy_rules and "log" not in caddy_rules  # no compression, no access log
    for rule in ("proxy_buffering off;", "gzip off;", "access_log off;", "location /web/ {",
                 "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;"):
        assert rule in nginx_rules
    assert re.search(r"proxy_pass http://grievous_web;", nginx_rules)  # no path: /web/ passed on unchanged
    assert re.search(r"upstream grievous_web \{\s*server 127\.0\.0\.1:8090;", nginx_rules)  # a line per process


def test_env_example_names_every_web_setting_the_bot_reads() -> None:
    config = (ROOT / "bot" / "config.py").read_text(encoding="utf-8")
    example = (ROOT / "deploy" / ".env.example").read_text(encoding="utf-8")
    read = set(re.findall(r"env\.get\(\"(WEB_[A-Z_]+)\"", config))
    assert read == {"WEB_PORT", "WEB_BASE_URL", "WEB_HOST", "WEB_TRUSTED_PROXIES"}
    for name in read:
        assert re.search(rf"^#?{name}=", example, flags=re.MULTILINE), name
