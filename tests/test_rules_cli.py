"""``parlour rules``: every game's rules for players, shipped with the package, printed as
text to a pipe and drawn by rich on a terminal; the repository's docs link the same files."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner

from parlour.cli import main
from parlour.core import BadOption, game_names, game_options
from parlour.games.war.options import OPTIONS as WAR_OPTIONS
from parlour.rules_text import rendered, rule_games, rules_text

PARLOUR = str(Path(sys.executable).parent / "parlour")
DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules" / "README.md"


def test_every_game_has_rules_naming_each_of_its_options() -> None:
    assert set(rule_games()) == set(game_names())
    for name in set(game_names()) - {"war"}:  # War's options are flags: checked below
        text = rules_text(name)
        assert text.startswith("# ") and "\n## Options\n" in text
        for option in game_options(name):
            assert f"`{option.name}`" in text, (name, option.name)
    war = rules_text("war")
    for option in WAR_OPTIONS:
        assert f"`--{option.name.replace('_', '-')} " in war, option.name


def test_rules_tell_how_to_type_a_move() -> None:
    def words(name: str) -> str:
        return " ".join(rules_text(name).split())

    for sowing in ("kalah", "mancala"):
        assert "type the letter of one of your pits" in words(sowing)
        assert "counting A as 1" in words(sowing)
    assert "type the number of one of your houses" in words("ayo")
    assert "column letter and row number, `H8`" in words("gomoku")


def test_the_command_prints_plain_text_to_a_pipe() -> None:
    """Raw Markdown once went to a pipe: ``#`` headings, ``**`` and code fences."""
    result = CliRunner().invoke(main, ["rules", "kalah"])
    assert result.exit_code == 0 and result.output == rendered(rules_text("kalah"))
    assert "The board" in result.output and "Player 1 owns the bottom row" in result.output
    assert not re.search(r"^#|\*\*|```", result.output, re.MULTILINE)
    assert CliRunner().invoke(main, ["rules", "WAR"]).output == rendered(rules_text("war"))


def test_rules_at_the_prompt_are_plain_text() -> None:
    from parlour.core import game
    from parlour.players.terminal import command_answer

    shown = command_answer("rules", game("kalah").start())
    assert shown is not None and "The board" in shown
    assert not re.search(r"^#|\*\*|```", shown, re.MULTILINE)


def test_the_command_draws_markdown_on_a_terminal() -> None:
    child = pexpect.spawn(PARLOUR, ["rules", "mancala"], encoding="utf-8", timeout=30)
    child.logfile_read = io.StringIO()
    child.expect(pexpect.EOF)
    child.close()
    shown = re.sub(r"\x1b\[[0-9;]*m", "", child.logfile_read.getvalue())
    assert child.exitstatus == 0
    assert "The end and the winner" in shown and "## " not in shown and "**" not in shown


def test_no_game_lists_the_games_one_line_each() -> None:
    result = CliRunner().invoke(main, ["rules"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    for name, summary in rule_games().items():
        assert sum(line.split()[:1] == [name] for line in lines) == 1
        assert any(line.startswith(name) and line.endswith(summary) for line in lines)
    assert rule_games()["kalah"] == (
        "Two rows of six pits, four seeds in each; sowing skips the opponent's store."
    )


def test_an_unknown_game_is_one_line_naming_the_games() -> None:
    result = CliRunner().invoke(main, ["rules", "chess"])
    assert result.exit_code == 2
    assert result.output == (
        "Error: no rules for 'chess'; the games are: ayo, gomoku, kalah, mancala, war\n"
    )
    with pytest.raises(BadOption, match="no rules for 'chess'"):
        rules_text("chess")


def test_the_docs_link_every_game_to_the_package_text() -> None:
    links = re.findall(r"\]\(([^)]+\.md)\)", DOCS.read_text(encoding="utf-8"))
    targets = {(DOCS.parent / link).resolve() for link in links}
    assert all(target.is_file() for target in targets)
    assert {target.stem for target in targets} == set(rule_games())
    for target in targets:
        assert target.read_text(encoding="utf-8") == rules_text(target.stem)
