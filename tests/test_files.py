"""Every file parlour reads is read within limits (:mod:`parlour.files`): endless, huge,
binary, deeply nested or long-numbered files are one line naming the problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from parlour.cli import main
from parlour.files import MAX_NESTING, BadFile, nesting, parse_json, read_json, read_text


def test_an_endless_file_is_refused_after_the_limit() -> None:
    with pytest.raises(BadFile, match="larger than 1 MiB"):
        read_text("/dev/zero", limit=2**20)


def test_a_file_that_is_not_utf8_names_the_byte(tmp_path: Path) -> None:
    path = tmp_path / "bin"
    path.write_bytes(b"ab\xffcd")
    with pytest.raises(BadFile, match="byte 0xff at 2"):
        read_text(str(path))


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(BadFile, match="No such file"):
        read_text(str(tmp_path / "none"))


@pytest.mark.parametrize(
    ("text", "depth"),
    [("", 0), ("[]", 1), ('{"a": [1, {"b": "]]][[[{"}]}', 3), ('["\\"[["]', 1), ("[" * 9, 9)],
)
def test_nesting_counts_brackets_outside_strings(text: str, depth: int) -> None:
    assert nesting(text) == depth


def test_json_nested_deeper_than_the_limit_is_refused_before_parsing() -> None:
    assert parse_json("[" * MAX_NESTING + "]" * MAX_NESTING, "x") is not None
    deep = MAX_NESTING + 1
    with pytest.raises(BadFile, match=f"nests {deep} deep"):
        parse_json("[" * deep + "]" * deep, "x")
    with pytest.raises(BadFile, match="nests 100000 deep"):
        parse_json("[" * 100_000 + "]" * 100_000, "x")


def test_a_number_too_long_to_be_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "n.json"
    path.write_text(json.dumps({"a": 10**40}))
    with pytest.raises(BadFile, match="more than 30 digits"):
        read_json(str(path))
    path.write_text('{"a": ' + "9" * 5000 + "}")
    with pytest.raises(BadFile, match="more than 30 digits"):
        read_json(str(path))


def one_line_error(args: list[str]) -> str:
    """The command's output, asserted to be a usage error with no traceback."""
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    return result.output


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_load_refuses_an_endless_a_nested_and_a_binary_file(tmp_path: Path) -> None:
    assert "larger than 16 MiB" in one_line_error(["play", "kalah", "--load", "/dev/zero"])
    nested = write(tmp_path, "d.json", "[" * 100_000 + "]" * 100_000)
    assert "nests 100000 deep" in one_line_error(["play", "kalah", "--load", nested])
    (tmp_path / "b.json").write_bytes(b"\xff\xfe")
    assert "not UTF-8" in one_line_error(["play", "kalah", "--load", str(tmp_path / "b.json")])


@pytest.mark.parametrize(
    "text",
    [
        "Piskvorky {n}x15, 11:11, 0\n",
        "Piskvorky 15x15, 11:11, 0\n{n},3,0\n",
        "Piskvorky 15x15, 11:11, 0\n3,{n},0\n",
        "Piskvorky 15x15, 11:11, 0\n3,3,{n}\n",
        '{{"a": {{"b": {n}}}}}',
    ],
)
def test_record_refuses_a_number_of_5000_digits_in_one_line(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, "b.psq", text.format(n="9" * 5000))
    assert "30 digits" in one_line_error(["record", path])


def test_record_refuses_an_endless_and_a_nested_file(tmp_path: Path) -> None:
    assert "larger than 16 MiB" in one_line_error(["record", "/dev/zero"])
    nested = write(tmp_path, "d.json", '{"a":' * 50_000 + "1" + "}" * 50_000)
    assert "nests 50000 deep" in one_line_error(["record", nested])
