"""Command lines refused in one line (a usage error, status 2), where they once reached a
library's own error output."""

from __future__ import annotations

from click.testing import CliRunner

from parlour.cli import main


def test_serve_refuses_an_address_that_names_no_host() -> None:
    """uvicorn printed its "ERROR:" line and exited 3."""
    result = CliRunner().invoke(main, ["serve", "--host", "999.1.1.1", "--port", "8765"])
    assert result.exit_code == 2
    assert "Invalid value for --host: no address '999.1.1.1'" in result.output
    assert "serves at" not in result.output
