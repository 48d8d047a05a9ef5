"""The Discord-layer tests run on SQLite only; the service suites cover PostgreSQL."""

from __future__ import annotations

import pytest


@pytest.fixture
def backend() -> str:
    return "sqlite"
