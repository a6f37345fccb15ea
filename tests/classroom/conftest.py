from __future__ import annotations

import pytest

from tests.classroom.class_server import ClassServer


@pytest.fixture
def server(tmp_path):
    srv = ClassServer(tmp_path / "class.sqlite3").start()
    yield srv
    srv.kill()
