"""The arena: matches and tournaments through the Referee, their records, resuming after a
kill, executors giving the same games, and bad input refused with nothing recorded."""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from helpers import PARLOUR, bounded, default_ctrl_c
from parlour import game
from parlour.actors import Actor, Move, Play
from parlour.arena.executors import Local
from parlour.arena.plan import Plan
from parlour.arena.records import Records
from parlour.arena.worker import GameRecord, play_job
from parlour.cli import main
from parlour.games.gomoku.psq import from_psq
from parlour.players.specs import PlayerSpec, parse_player
from parlour.records.store import Finished, InMatch, code_version

# A Ray cluster these tests start listens on the loopback only: Ray's switch for a cluster
# of one machine, read when Ray is first imported (here, and by the commands run here).
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")


def parlour(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def rows(db: Path) -> list[dict[str, Any]]:
    with Records(db) as records:
        return list(records.games(limit=10**6))


def assert_whole(row: dict[str, Any]) -> None:
    """The recorded moves replay through the rules to the recorded end."""
    state = game(row["game"], **json.loads(row["options"])).parse(row["start"])
    assert state == game(row["game"], **json.loads(row["options"])).start()
    for text in row["moves"].split():
        state = state.play(state.parse_move(text))
    assert state.is_over
    assert row["winner"] == state.winner and (row["score0"], row["score1"]) == state.scores
    assert row["reason"] == "rules"
    assert len(json.loads(row["seconds"])) == len(row["moves"].split()) - len(
        row["opening"].split()
    )


def living(group: int) -> list[int]:
    """The processes of process group ``group`` still running (zombies, which a container's
    first process may never reap, are not)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def test_computer_specs_take_a_time_a_move() -> None:
    spec = parse_player("computer:5@0.25")
    assert spec == PlayerSpec("computer", 5, 0.25) and str(spec) == "computer:5@0.25"
    assert parse_player(str(spec)) == spec


@pytest.mark.parametrize(
    "text", ["engine:/bin/cat:-u", "engine:/bin/cat:-u 'two words'", "engine:/bin/cat"]
)
def test_an_engine_spec_with_arguments_reads_back_as_written(text: str) -> None:
    spec = parse_player(text)
    assert parse_player(str(spec)) == spec and str(spec) == text


def test_a_match_records_every_game_whole_in_pairs_with_colours_swapped(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    result = parlour(
        "match", "kalah", "--players", "random,computer:1", "--games", "6", "--seed", "7",
        "--openings", "random:3", "-j", "2", "--db", str(db), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    recorded = sorted(rows(db), key=lambda r: r["job"])
    assert [r["job"] for r in recorded] == list(range(6))
    assert {r["version"] for r in recorded} == {code_version()}
    assert re.fullmatch(r"\S+\+[0-9a-f]{12}", code_version())
    for row in recorded:
        assert_whole(row)
        assert len(row["opening"].split()) == 3 and row["moves"].startswith(row["opening"])
    for first, second in zip(recorded[::2], recorded[1::2], strict=True):
        assert first["opening"] == second["opening"]
        assert (first["player0"], first["player1"]) == (second["player1"], second["player0"])
    won = [r[f"player{r['winner']}"] for r in recorded if r["winner"] is not None]
    random_won = won.count("random")
    assert summary["wins"] == random_won and summary["games"] == 6
    assert summary["wins"] + summary["losses"] + summary["draws"] == 6


def test_the_same_seed_gives_the_same_games_and_lots_whatever_the_jobs(tmp_path: Path) -> None:
    moves = []
    for jobs in ("1", "2"):
        db = tmp_path / f"{jobs}.db"
        result = parlour(
            "match", "ayo", "--players", "random,random", "--games", "4", "--seed", "3",
            "-j", jobs, "--db", str(db),
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        moves.append({r["job"]: r["moves"] for r in rows(db)})
    assert moves[0] == moves[1] and len(set(moves[0].values())) > 1


def test_replay_shows_the_game_and_export_writes_it(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    assert parlour("match", "kalah", "--players", "random,random", "--games", "1",
                   "--db", str(db), "-j", "1").exit_code == 0  # fmt: skip
    (row,) = rows(db)
    shown = parlour("replay", str(row["id"]), "--db", str(db), "--delay", "0")
    assert shown.exit_code == 0, shown.output
    assert f"Recorded: rules (game over), {row['score0']}-{row['score1']}." in shown.output
    assert shown.output.count("chooses") == len(row["moves"].split())
    exported = json.loads(parlour("export", str(row["id"]), "--db", str(db)).output)
    assert exported["moves"] == row["moves"].split() and exported["winner"] == row["winner"]


def test_a_five_in_a_row_game_exports_as_psq_and_reads_back_the_same(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    assert parlour("match", "gomoku", "-o", "size=7", "--players", "random,random",
                   "--games", "1", "--db", str(db), "-j", "1").exit_code == 0  # fmt: skip
    (row,) = rows(db)
    psq = parlour("export", str(row["id"]), "--db", str(db), "--format", "psq")
    assert psq.exit_code == 0, psq.output
    record = from_psq(psq.stdout)
    names = row["moves"].split()
    assert record.size == 7 and len(record.moves) == len(names)
    final = record.replay()
    assert final.is_over and final.winner == row["winner"]
    assert [final.move_name(point) for point in record.moves] == names
    kalah = tmp_path / "kalah.db"
    assert parlour("match", "kalah", "--players", "random,random", "--games", "1",
                   "--db", str(kalah), "-j", "1").exit_code == 0  # fmt: skip
    refused = parlour("export", str(rows(kalah)[0]["id"]), "--db", str(kalah), "--format", "psq")
    assert (
        refused.exit_code != 0 and "(kalah) is written as json, saved, not 'psq'" in refused.output
    )


def test_a_tournament_plays_every_pair_both_ways_and_anchors_level_1(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    result = parlour(
        "tournament", "kalah", "--players", "random,computer:1,computer:2", "--rounds", "1",
        "--db", str(db), "--json", "-j", "2", "--seed", "1",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    table = json.loads(result.output.strip().splitlines()[-1])
    assert table["games"] == [[0, 2, 2], [2, 0, 2], [2, 2, 0]]
    assert table["ratings"]["computer:1"] == [1000.0, 0.0]
    assert table["ratings"]["random"][0] < 1000
    points = table["points"]
    assert all(points[i][j] + points[j][i] == 2 for i in range(3) for j in range(3) if i != j)
    players = table["players"]
    for pair in table["pairs"]:
        i, j = (players.index(name) for name in pair["players"])
        assert i < j and pair["games"] == 2 and sum(pair["pentanomial"]) == 1
        assert pair["wins"] + pair["draws"] / 2 == points[i][j]
        assert pair["draw_ratio"] == pair["draws"] / 2
    assert len(table["pairs"]) == 3
    again = parlour("standings", str(table["tournament"]), "--db", str(db), "--json")
    assert json.loads(again.output) == table
    shown = parlour("standings", str(table["tournament"]), "--db", str(db))
    assert "Each pair" in shown.output and "1 - 2" in shown.output


def test_standings_of_a_match_are_what_its_end_printed(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    result = parlour("match", "kalah", "--players", "random,computer:1", "--games", "4",
                     "--db", str(db), "--json", "-j", "1", "--seed", "2")  # fmt: skip
    printed = json.loads(result.output.strip().splitlines()[-1])
    again = parlour("standings", str(printed["match"]), "--db", str(db), "--json")
    assert json.loads(again.output) == printed
    missing = parlour("standings", "9", "--db", str(db))
    assert missing.exit_code == 1 and missing.output == f"Error: no match 9 in {db}\n"


def test_executors_agree_on_every_game() -> None:
    plan = Plan("kalah", dict(game("kalah").options), ("random", "random"), 4, (), 11)
    jobs = list(plan.jobs())
    local = Local(2)
    try:
        played = {r.place.job: r.played.moves for r in local.run(plan, jobs)}
    finally:
        local.close()
    assert played == {job.index: play_job(plan, job).played.moves for job in jobs}


class HangsOnce(Actor):
    """Plays the first legal move, except the first player of its kind ever to move (the one
    that claims ``folder``): that one writes its process id there and waits to be killed."""

    def __init__(self, folder: str) -> None:
        self.folder = Path(folder)

    async def receive(self, message: Any) -> None:
        match message:
            case Play(view):
                try:
                    (self.folder / "claimed").touch(exist_ok=False)
                except FileExistsError:
                    self.reply(Move(view.legal_moves[0]))
                    return
                (self.folder / "pid.new").write_text(str(os.getpid()))
                (self.folder / "pid.new").rename(self.folder / "pid")
                threading.Event().wait()


def hangs_once(folder: str, seed: int | None) -> Actor:
    return HangsOnce(folder)


def kill_when_hung(folder: Path) -> threading.Thread:
    """A thread that kills (-9) the process HangsOnce names in ``folder`` once it does."""

    def kill() -> None:
        deadline = time.monotonic() + 120
        while not (folder / "pid").exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        os.kill(int((folder / "pid").read_text()), signal.SIGKILL)

    thread = threading.Thread(target=kill, daemon=True)
    thread.start()
    return thread


def test_a_local_worker_killed_mid_game_costs_that_game_only(tmp_path: Path) -> None:
    players = ("random", f"python:test_arena:hangs_once:{tmp_path}")
    plan = Plan("kalah", dict(game("kalah").options), players, 12, (), 3)
    local = Local(2)
    killer = kill_when_hung(tmp_path)
    try:
        played = bounded(
            lambda: {r.place.job: r.played.moves for r in local.run(plan, plan.jobs())}
        )
    finally:
        local.close()
    killer.join()
    assert isinstance(played, dict)
    assert sorted(played) == list(range(12))
    assert played == {job.index: play_job(plan, job).played.moves for job in plan.jobs()}


def test_a_plans_games_are_made_as_they_are_wanted() -> None:
    players = ("random", "computer:1", "computer:2")
    small = Plan("kalah", dict(game("kalah").options), players, 4, (("A",), ("B",)), 1)
    assert small.job_count == len(list(small.jobs())) == 12
    huge = Plan("kalah", dict(game("kalah").options), ("random", "random"), 10**12, (), 1)
    first = list(itertools.islice(huge.jobs(), 3))  # a list of them all would never end
    assert huge.job_count == 10**12 and [job.index for job in first] == [0, 1, 2]
    assert [job.seats for job in first] == [(0, 1), (1, 0), (0, 1)]


def test_concurrency_is_capped_by_the_cores_and_the_games() -> None:
    from parlour.arena.executors import cores, executor

    two = executor("local", 1000, work=2)
    assert isinstance(two, Local) and two.concurrency == min(2, cores())
    assert isinstance(many := executor("local", 1000), Local) and many.concurrency == cores()


@pytest.mark.slow
def test_ray_plays_the_same_games_as_the_local_processes_a_killed_worker_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a Ray cluster the executor starts on 127.0.0.1 (no --address): a match whose
    one game hangs until its Ray worker is killed (the task is run again), and War's
    simulation (simulate war); the cluster ends with the executor."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'parlour[ray]')")
    from parlour.arena.executors import Ray
    from parlour.games.war.cluster import simulate_on_ray
    from parlour.games.war.game import war_rules
    from parlour.games.war.kernel import chunks, simulate

    players = ("computer:1", f"python:test_arena:hangs_once:{tmp_path}")
    plan = Plan("kalah", dict(game("kalah").options), players, 4, (), 5)
    rules = war_rules(seed=4, max_rounds="none")
    counted: list[int] = []
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))  # its workers' test_arena
    runner = Ray(2)
    try:
        assert runner.started and ray.is_initialized()
        assert {node["NodeManagerAddress"] for node in ray.nodes()} == {"127.0.0.1"}
        killer = kill_when_hung(tmp_path)
        played = {r.place.job: r.played.moves for r in runner.run(plan, plan.jobs())}
        killer.join()
        on_ray = simulate_on_ray(rules, 300, counted.append)
    finally:
        runner.close()
    assert not ray.is_initialized()
    assert played == {job.index: play_job(plan, job).played.moves for job in plan.jobs()}
    assert on_ray == simulate(rules, 300) and on_ray.games == 300
    assert counted == [count for _, count in chunks(rules, 300)]


@pytest.mark.slow
def test_ctrl_c_and_kill_9_then_resume_finish_with_exactly_the_games(tmp_path: Path) -> None:
    # Enough games that none of the three runs can finish before its signal: an idle
    # machine plays a few hundred random games a second.
    db, games = tmp_path / "arena.db", 3000
    command = [PARLOUR, "match", "mancala", "--players", "random,random", "--seed", "9",
               "--games", str(games), "-j", "2", "--db", str(db)]  # fmt: skip

    def started(*more: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [*command, *more], start_new_session=True, stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL, preexec_fn=default_ctrl_c,
        )  # fmt: skip

    def recorded() -> int:
        try:
            with closing(sqlite3.connect(db)) as connection:
                return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
        except sqlite3.OperationalError:  # no database yet, or no table yet
            return 0

    def stopped_midway(process: subprocess.Popen[bytes], sig: signal.Signals) -> None:
        """``sig`` to the match alone (Ctrl-C goes to the whole group, as a terminal's)."""
        deadline = time.monotonic() + 60
        floor = recorded()
        while recorded() < floor + 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert recorded() >= floor + 5, "the match recorded nothing within a minute"
        if sig == signal.SIGINT:
            os.killpg(process.pid, sig)
        else:
            process.send_signal(sig)
        process.wait(30)
        deadline = time.monotonic() + 10
        while living(process.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not living(process.pid), "a worker outlived the match"

    first = started()
    stopped_midway(first, signal.SIGINT)
    assert first.stderr is not None
    said = first.stderr.read().decode()
    assert first.returncode == 130 and "--resume plays the rest" in said, said
    second = started("--resume")
    stopped_midway(second, signal.SIGKILL)
    assert 0 < recorded() < games
    third = started("--resume")
    assert third.wait(120) == 0
    recorded_rows = rows(db)
    assert sorted(r["job"] for r in recorded_rows) == list(range(games))
    assert {r["match"] for r in recorded_rows} == {1}
    for row in recorded_rows:
        assert_whole(row)
    with Records(db) as records:
        plan = records.match(1).plan
        assert records.match(1).finished is not None
    for job in random.sample(list(plan.jobs()), 5):
        (row,) = (r for r in recorded_rows if r["job"] == job.index)
        assert row["moves"] == " ".join(play_job(plan, job).played.moves)


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--players", "random,wizard"], "unknown player 'wizard'"),
        (["--players", "random,computer:2@soon"], "the computer's time a move"),
        (["--players", "human,random"], "the arena's players are programs"),
        (["--players", "random,random", "--openings", "random:0"], "plies of a random opening"),
        (["--players", "random,random", "--sprt", "5,0"], "ELO0 < ELO1"),
    ],
)
def test_bad_settings_are_one_line_and_record_nothing(
    tmp_path: Path, args: list[str], problem: str
) -> None:
    db = tmp_path / "arena.db"
    result = parlour("match", "kalah", *args, "--db", str(db))
    assert result.exit_code == 2 and problem in result.output
    assert not db.exists() or not rows(db)


def test_a_match_of_three_players_is_refused_before_any_game(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    result = parlour("match", "kalah", "--players", "random,random,random", "--games", "2",
                     "--db", str(db), "--json")  # fmt: skip
    assert result.exit_code == 2 and "a match is between two players, not 3" in result.output
    assert not db.exists()


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("nonsense", "--address takes HOST:PORT or ray://HOST:PORT, not 'nonsense'"),
        ("127.0.0.1:9", "no Ray cluster answers at 127.0.0.1:9"),
        ("127.0.0.1:99999", "the cluster's port"),
    ],
)
def test_an_address_without_a_cluster_is_one_line_and_leaves_no_match(
    tmp_path: Path, address: str, problem: str
) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'parlour[ray]')")
    db = tmp_path / "arena.db"
    args = ["--players", "random,random", "--executor", "ray", "--address", address]
    result = bounded(lambda: parlour("match", "kalah", *args, "--db", str(db)))
    assert isinstance(result, Result)
    assert result.exit_code == 2 and problem in result.output, result.output
    assert result.output.strip().splitlines()[-1] == f"Error: {problem}" or (
        result.output.count("Error:") == 1 and problem in result.output.splitlines()[-1]
    )
    with Records(db) as records:
        assert records.last_unfinished("match") is None


def test_a_game_without_choices_is_refused_and_nothing_recorded(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    result = parlour("match", "war", "--players", "random,random", "--db", str(db))
    assert result.exit_code == 2
    assert "war has no choices to compare: see parlour simulate war" in result.output
    assert not db.exists()


def test_an_opening_with_an_illegal_move_is_named_and_nothing_recorded(tmp_path: Path) -> None:
    db, openings = tmp_path / "arena.db", tmp_path / "openings.txt"
    openings.write_text("# two good ones, then a bad one\nA B\nC\nA Q\n", encoding="utf-8")
    result = parlour("match", "kalah", "--players", "random,random", "--openings",
                     str(openings), "--db", str(db))  # fmt: skip
    assert result.exit_code == 2
    assert "line 4" in result.output and "move 2 of the opening 'A Q'" in result.output
    with Records(db) as records:
        assert records.last_unfinished("match") is None and not rows(db)


def test_a_corrupt_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    db.write_bytes(b"not a database at all" * 100)
    for args in (["match", "kalah", "--players", "random,random"], ["games"], ["replay", "1"]):
        result = parlour(*args, "--db", str(db))
        assert result.exit_code == 1 and "is not a parlour database" in result.output
    assert db.read_bytes() == b"not a database at all" * 100


def a_record(index: int) -> GameRecord:
    """A made-up record (the database does not replay what it stores)."""
    played = Finished("kalah", {}, ("random", "random"), "x", ("A",) * 40, None, "rules", "",
                    (24, 24), (0.001,) * 40, "then", "now")  # fmt: skip
    return GameRecord(played, InMatch(index, index // 2, (0, 1)))


def unfinished_match(db: Path, games: int = 100) -> Plan:
    plan = Plan("kalah", dict(game("kalah").options), ("random", "random"), games, (), 4)
    with Records(db) as records:
        records.new_match("match", plan)
    return plan


def test_listing_opens_the_database_read_only(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    plan = unfinished_match(db)
    with Records(db) as records:
        record = play_job(plan, next(plan.jobs()))
        records.add(record.played, 1, record.place)
    with closing(sqlite3.connect(db)) as connection:
        connection.execute("PRAGMA journal_mode=DELETE")
    before = db.read_bytes()
    if os.getuid() != 0:  # root writes whatever the permissions say
        db.chmod(0o444)
    for args in (["games"], ["export", "1"], ["replay", "1", "--delay", "0"]):
        result = parlour(*args, "--db", str(db))
        assert result.exit_code == 0 and "rules" in result.output, result.output
    assert db.read_bytes() == before and sorted(tmp_path.iterdir()) == [db]
    with Records(db, writable=False) as records, pytest.raises(sqlite3.OperationalError):
        records.db.execute("CREATE TABLE more (a)")


def test_a_damaged_database_is_named_on_open_and_never_written(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    unfinished_match(db)
    with Records(db) as records:
        for index in range(2000):
            record = a_record(index)
            records.add(record.played, 1, record.place)
    with closing(sqlite3.connect(db)) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    damaged = bytearray(db.read_bytes())
    middle = len(damaged) // 2 // 4096 * 4096
    damaged[middle : middle + 60_000] = bytes(range(256)) * 234 + bytes(96)
    db.write_bytes(bytes(damaged))
    for args in (["games"], ["match", "kalah", "--players", "random,random", "--games", "2"]):
        result = parlour(*args, "--db", str(db))
        assert result.exit_code == 1 and "is damaged" in result.output, result.output
        assert result.output.count("\n") == 1
    assert db.read_bytes() == bytes(damaged)


@pytest.mark.parametrize("path", ["", "  ", "~nouser_here_at_all/x.db"])
def test_a_database_name_that_names_nothing_is_one_line(tmp_path: Path, path: str) -> None:
    for args in (["games"], ["match", "kalah", "--players", "random,random", "--games", "2"]):
        result = parlour(*args, "--db", path)
        assert result.exit_code == 1 and "--db" in result.output, result.output
        assert result.output.startswith("Error: ") and result.output.count("\n") == 1
    assert not (Path.cwd() / "~nouser_here_at_all").exists()


def test_resume_refuses_options_that_contradict_the_plan_by_name(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    unfinished_match(db, games=4)
    resume = ["match", "kalah", "--players", "random,random", "--resume", "--db", str(db)]
    result = parlour(*resume, "--games", "50", "--time", "1", "--sprt", "0,5")
    assert result.exit_code == 2, result.output
    assert "--games, --sprt, --time differ from the plan of match 1" in result.output
    assert "--seed differs" in parlour(*resume, "--seed", "5").output
    assert "--openings differs" in parlour(*resume, "--openings", "random:2").output
    assert "--option differs" in parlour(*resume, "-o", "seeds=3").output
    assert not rows(db)
    agreed = parlour(*resume, "--games", "4", "--seed", "4", "-o", "seeds=4", "-j", "1")
    assert agreed.exit_code == 0, agreed.output
    assert sorted(r["job"] for r in rows(db)) == [0, 1, 2, 3]


def test_a_match_being_played_is_not_resumed_twice(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    unfinished_match(db)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from parlour.arena.records import Records; "
         f"r = Records({str(db)!r}); r.hold(1); print('held', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        result = parlour("match", "kalah", "--players", "random,random", "--resume",
                         "--db", str(db))  # fmt: skip
        assert result.exit_code == 2, result.output
        assert "match 1 of" in result.output and "being played by another process" in result.output
    finally:
        holder.communicate("")
    assert not rows(db)


def test_resume_with_nothing_to_resume_says_so(tmp_path: Path) -> None:
    result = parlour("match", "kalah", "--players", "random,random", "--resume",
                     "--db", str(tmp_path / "a.db"))  # fmt: skip
    assert result.exit_code != 0 and "no unfinished match" in result.output


def test_the_plans_time_reaches_every_player_on_a_clock_without_its_own() -> None:
    players = ("computer:3", "computer:3@2", "engine:/bin/cat", "random", "human")
    plan = Plan("gomoku", dict(game("gomoku").options), players, 2, (), 1, seconds=0.5)
    assert [spec.seconds for spec in plan.specs()] == [0.5, 2.0, 0.5, None, None]
    untimed = Plan("gomoku", dict(game("gomoku").options), players, 2, (), 1)
    assert [spec.seconds for spec in untimed.specs()] == [None, 2.0, None, None, None]


def test_the_progress_line_after_an_sprt_stop_is_the_final_standing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("parlour.cli.arena.REFRESH", 1e9)  # the bar drawn only when it must
    args = ["--sprt", "0,300", "--games", "1000", "-j", "1", "--seed", "3"]
    result = parlour("match", "kalah", "--players", "computer:3,random", *args,
                     "--db", str(tmp_path / "a.db"))  # fmt: skip
    assert result.exit_code == 0, result.output
    final = re.search(r"W-L-D +(\d+-\d+-\d+) \(for", result.output)
    shown = re.findall(r"W-L-D (\d+-\d+-\d+)  score", result.output)
    assert final is not None and shown and shown[-1] == final.group(1)
    assert "H1 (300) accepted" in result.output and sum(map(int, shown[-1].split("-"))) < 1000
