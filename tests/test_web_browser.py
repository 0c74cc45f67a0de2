"""The page in a real browser: Playwright driving Debian's chromium (never a downloaded
browser) against a server on the loopback.  A screenshot of each board is saved under
tests/artifacts/ (not kept in git)."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parlour.records.saved import SavedGame

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).parent / "artifacts"
ENDED = re.compile(r"wins|draw|No winner")
HALLS: list[Any] = []
"""The server's hall (its games), for a test that makes a game vanish as a restart does."""

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(180),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

if CHROMIUM.exists():
    from playwright.sync_api import Browser, ElementHandle, Page, expect, sync_playwright


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A parlour server in a thread of this process, on a free port of the loopback."""
    import uvicorn

    from parlour.web.app import create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = tmp_path_factory.mktemp("web") / "games.sqlite"
    app = create_app(db, warm=False)
    HALLS.append(app.state.hall)
    config = uvicorn.Config(app, port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def open_lobby(browser: Browser, server: str, game: str, **width: int) -> Page:
    page = browser.new_context(
        viewport={"width": width.get("width", 1000), "height": 820}
    ).new_page()
    page.goto(server + "/")
    page.wait_for_selector("#game-name option", state="attached")
    page.select_option("#game-name", game)
    return page


def status(page: Page) -> str:
    return page.inner_text("#status")


def next_live_pit(page: Page) -> ElementHandle | None:
    """The next pit the person may play, once the page offers one; None when the game
    has ended instead."""
    page.wait_for_function(
        "document.querySelector('.pit.live') || /wins|draw/.test("
        "document.getElementById('status').textContent)"
    )
    return page.query_selector(".pit.live")


def test_a_whole_mancala_game_against_the_computer_by_clicking_pits(
    browser: Browser, server: str
) -> None:
    page = open_lobby(browser, server, "mancala")
    page.click("#start")
    page.wait_for_selector(".pit.live")
    page.uncheck("#animate")
    clicks = 0
    while not ENDED.search(status(page)):
        live = next_live_pit(page)
        if live is None:
            break
        label = live.get_attribute("aria-label") or ""
        assert re.fullmatch(r"pit [A-F], \d+ seeds?, Player 1's row", label), label
        live.click()
        clicks += 1
        if clicks == 4:
            shot(page, "mancala-playing")
    expect(page.locator("#status")).to_have_text(ENDED)
    moves = page.locator("#moves li")
    assert moves.count() >= clicks > 3
    shot(page, "mancala-end")
    page.context.close()


def test_five_in_a_row_between_two_people_watched_with_a_reload(
    browser: Browser, server: str
) -> None:
    x = open_lobby(browser, server, "gomoku")
    x.fill("[data-option=size]", "9")
    x.check("input[name=opponent][value=link]")
    x.click("#start")
    link = x.locator("#invite-link")
    expect(link).to_have_value(re.compile("#seat="))
    o = browser.new_context().new_page()
    o.goto(link.input_value())
    game_url = x.url
    watcher = browser.new_context().new_page()
    watcher.goto(game_url)
    expect(watcher.locator("#title")).to_contain_text("Player 1 vs Player 2")
    expect(watcher.locator("#move-form")).to_be_hidden()

    def click(page: Page, point: str) -> None:
        page.locator(f'[data-point="{point}"].live').click()

    row1, row2 = ["A1", "B1", "C1", "D1"], ["A2", "B2", "C2", "D2"]
    for turn, (mine, theirs) in enumerate(zip(row1, row2, strict=True)):
        click(x, mine)
        if turn == 2:  # the second person reloads and comes back to the same seat
            o.reload()
            expect(o.locator("#title")).to_contain_text("Player 2 (you)")
        click(o, theirs)
    click(x, "E1")
    for page in (x, o, watcher):
        expect(page.locator("#status")).to_contain_text("Player 1 wins")
    expect(watcher.locator("#moves li")).to_have_count(9)
    expect(watcher.locator('[data-point="E1"]')).to_have_attribute("aria-label", "E1, X (black)")
    shot(watcher, "gomoku-watched")
    for page in (x, o, watcher):
        page.context.close()


def test_a_game_of_war_watched_to_the_end(browser: Browser, server: str) -> None:
    page = open_lobby(browser, server, "war")
    page.fill("[data-option=max_rounds]", "25")
    page.click("#start")
    page.select_option("#speed", "120")
    page.wait_for_selector("[aria-label^='card ']")
    shot(page, "war-playing")
    expect(page.locator("#status")).to_have_text(
        re.compile(r"wins|tie|no winner", re.I), timeout=60_000
    )
    assert page.locator("#log li").count() >= 3
    shot(page, "war-end")
    page.context.close()


def test_keyboard_only_kalah(browser: Browser, server: str) -> None:
    page = open_lobby(browser, server, "mancala", width=390)  # a phone's width
    page.focus("#game-name")
    page.keyboard.type("kalah")
    expect(page.locator("#game-name")).to_have_value("kalah")
    page.focus("#start")
    page.keyboard.press("Enter")
    page.wait_for_selector(".pit.live")
    letter_height = page.locator("#board svg > text").first.bounding_box()
    expect(page.locator("#board .store-name")).to_have_text(["Player 1", "Computer"])
    for name in page.locator("#board .store-name").all():  # readable on a phone
        box = name.bounding_box()
        assert box and letter_height and box["height"] >= letter_height["height"]
    page.locator("#animate").focus()  # the animation off, by keyboard too
    page.keyboard.press("Space")
    assert not page.is_checked("#animate")
    typed = 0
    while not ENDED.search(status(page)):
        live = next_live_pit(page)
        if live is None:
            break
        letter = (live.get_attribute("data-pit") or "")[-1]
        page.evaluate("document.activeElement && document.activeElement.blur()")
        if typed % 2:  # the pit letter typed anywhere on the page...
            page.keyboard.press(letter)
        else:  # ...or the pit reached with Tab's focus and pressed with Enter
            live.focus()
            page.keyboard.press("Enter")
        typed += 1
        if typed == 3:
            shot(page, "kalah-phone")
    expect(page.locator("#status")).to_have_text(ENDED)
    assert typed > 3
    page.context.close()


def test_a_finished_game_is_replayed_and_analysed(browser: Browser, server: str) -> None:
    page = open_lobby(browser, server, "kalah")
    page.fill("[data-option=pits]", "3")
    page.fill("[data-option=seeds]", "2")
    page.check("input[name=opponent][value=here]")
    page.click("#start")
    page.uncheck("#animate")
    while not ENDED.search(status(page)):
        page.locator(".pit.live").first.click()
        page.wait_for_function(
            "document.querySelector('.pit.live') || /wins|draw/.test("
            "document.getElementById('status').textContent)"
        )
    played = page.locator("#moves li").all_inner_texts()
    page.goto(page.url.replace("/game/", "/replay/"))
    expect(page.locator("#replay-at")).to_have_text(f"{len(played)} / {len(played)}")
    page.click("#back")
    expect(page.locator("#moves li")).to_have_count(len(played) - 1)
    page.click("#analyse")
    expect(page.locator("#analysis-text")).to_contain_text("Value for Player 1 here: ")
    last = page.locator("#moves li").last.inner_text()
    assert re.search(r"\([+-]?\d+\) (best|inaccuracy|mistake|blunder)$", last), last
    expect(page.locator("#animate-box")).to_be_hidden()  # a replay jumps: nothing to animate
    shot(page, "kalah-replay-analysed")
    page.context.close()


def test_the_page_speaks_the_words_of_the_game(browser: Browser, server: str) -> None:
    """No seed documents, level numbers or brackets in brackets: the lobby's words, the
    computer's move read out in the live region, focus back on the board, a move list
    that says who moved, and take back offered only once there is a turn to take back."""
    page = open_lobby(browser, server, "mancala")
    lobby = page.inner_text("body")
    assert not re.search(r"seed \d|level 100", lobby), lobby
    page.select_option("#game-name", "kalah")
    levels = page.locator("#level option").all_inner_texts()
    assert "perfect" in levels and "100" not in levels
    page.select_option("#game-name", "mancala")
    assert "perfect" in page.locator("#level option").all_inner_texts()
    page.select_option("#level", "1")
    expect(page.locator("#level-about")).not_to_be_empty()
    page.check("input[name=first][value=them]")
    page.click("#start")
    expect(page.locator("#announce")).to_contain_text(
        re.compile(r"Computer \(level 1\) played [A-F]\.")
    )
    expect(page.locator("#undo")).to_be_disabled()  # no turn of mine yet
    page.uncheck("#animate")
    moved = 0
    while not ENDED.search(status(page)):
        live = next_live_pit(page)
        if live is None:
            break
        if moved == 1:  # after my first move and the computer's answer: focus on the board
            assert page.evaluate("document.activeElement.classList.contains('live')")
            expect(page.locator("#undo")).to_be_enabled()
        live.click()
        moved += 1
    text = page.inner_text("body")
    assert not re.search(r"by the rules|\(\(|seed \d|level 100", text), text
    for item in page.locator("#moves li").all_inner_texts():
        assert re.fullmatch(r"(Player 1|Computer): [A-F]", item), item
    expect(page.locator("#status")).to_have_text(re.compile(r"wins, \d+ to \d+\.$|A draw"))
    page.context.close()


def test_a_game_that_is_gone_shows_no_live_controls(browser: Browser, server: str) -> None:
    """The server forgets a game under way (as a restart did) and the page reconnects:
    it says so, and nothing on it looks playable."""
    page = open_lobby(browser, server, "mancala")
    page.click("#start")
    page.wait_for_selector(".pit.live")
    expect(page.locator("#resign")).to_be_visible()
    HALLS[0].tables.pop(page.url.rsplit("/", 1)[1])
    page.evaluate("S.ws.close()")  # the connection lost, as when the server stopped
    expect(page.locator("#status")).to_contain_text("not on the server any more")
    for control in ("#hint", "#undo", "#resign", "#move-form"):
        expect(page.locator(control)).to_be_hidden()
    assert page.locator(".live").count() == 0
    page.context.close()


def test_a_game_on_a_clock_ends_by_the_flag(browser: Browser, server: str) -> None:
    """A 3-second clock: a move, the computer's answer, then Player 1 thinks too long; the
    clocks count down on the page and the flag ends the game, in words."""
    page = open_lobby(browser, server, "kalah")
    page.fill("[data-option=pits]", "4")
    page.select_option("#level", "1")
    page.fill("#minutes", "0.05")
    page.click("#start")
    page.uncheck("#animate")
    expect(page.locator("#clocks")).to_be_visible()
    expect(page.locator("#clock-0")).to_have_class(re.compile("running"))
    page.locator(".pit.live").last.click()  # D: no extra turn
    expect(page.locator("#moves li")).to_have_count(2)  # the computer answered at once
    expect(page.locator("#clock-0")).to_have_class(re.compile("running"))
    shot(page, "kalah-clock")
    expect(page.locator("#status")).to_have_text(
        "Computer (level 1) wins: Player 1 ran out of time.", timeout=10_000
    )
    expect(page.locator("#clock-0")).to_have_text("Player 1 0.0")
    expect(page.locator("#clock-1")).not_to_have_class(re.compile("running"))
    assert page.locator(".live").count() == 0
    page.context.close()


def two_people(browser: Browser, server: str) -> tuple[Page, Page]:
    """A 9x9 five in a row by link: the creator's page (Player 1) and the invited one's."""
    x = open_lobby(browser, server, "gomoku")
    x.fill("[data-option=size]", "9")
    x.check("input[name=opponent][value=link]")
    x.click("#start")
    link = x.locator("#invite-link")
    expect(link).to_have_value(re.compile("#seat="))
    o = browser.new_context().new_page()
    o.goto(link.input_value())
    expect(x.locator("#offer-draw")).to_be_visible()
    return x, o


def test_take_back_offers_accepted_and_refused(browser: Browser, server: str) -> None:
    x, o = two_people(browser, server)
    expect(x.locator("#offer-takeback")).to_be_disabled()  # no move of mine yet
    x.locator('[data-point="E5"].live').click()
    expect(o.locator("#moves li")).to_have_count(1)
    x.click("#offer-takeback")
    expect(x.locator("#offer-text")).to_have_text(
        "You offer to take back a move: waiting for the answer."
    )
    expect(o.locator("#offer-text")).to_have_text("Player 1 offers to take back a move.")
    o.click("#refuse")
    for page in (x, o):
        expect(page.locator("#announce")).to_have_text("Player 2 refuses the take back.")
        expect(page.locator("#offer")).to_be_hidden()
    expect(x.locator("#moves li")).to_have_count(1)
    x.click("#offer-takeback")
    o.click("#accept")
    for page in (x, o):
        expect(page.locator("#announce")).to_have_text("Player 1 took back a turn.")
        expect(page.locator("#moves li")).to_have_count(0)
    x.locator('[data-point="D4"].live').click()  # Player 1 moves again
    expect(o.locator("#moves li")).to_have_text(["Player 1: D4"])
    shot(o, "gomoku-offers")
    for page in (x, o):
        page.context.close()


def test_a_rematch_swaps_the_seats_with_one_click_each(browser: Browser, server: str) -> None:
    x, o = two_people(browser, server)
    x.click("#resign")
    x.click("#resign")  # "Really resign?"
    for page in (x, o):
        expect(page.locator("#status")).to_have_text("Player 2 wins: Player 1 resigned.")
    first = x.url
    x.click("#rematch")
    expect(o.locator("#offer-text")).to_have_text("Player 1 offers a rematch.")
    o.click("#rematch")
    for page in (x, o):
        expect(page).not_to_have_url(first)
    assert x.url == o.url
    expect(x.locator("#title")).to_contain_text("Player 2 (you)")
    expect(o.locator("#title")).to_contain_text("Player 1 (you)")
    o.locator('[data-point="E5"].live').click()  # who moved second now moves first
    expect(x.locator("#moves li")).to_have_text(["Player 1: E5"])
    for page in (x, o):
        page.context.close()


def test_the_review_shows_a_known_blunder_with_a_graph(browser: Browser, server: str) -> None:
    """Kalah with 4 pits of 3 seeds, both sides at one screen, by keys: the 6th move of
    this line loses 6 seeds (a blunder), the 3rd loses 4 (a mistake)."""
    page = open_lobby(browser, server, "kalah")
    page.fill("[data-option=pits]", "4")
    page.fill("[data-option=seeds]", "3")
    page.check("input[name=opponent][value=here]")
    page.click("#start")
    page.uncheck("#animate")
    for played, letter in enumerate(["B", "D", "D", "C", "A", "B", "B", "B", "A"], 1):
        page.wait_for_selector(".pit.live")
        page.evaluate("document.activeElement && document.activeElement.blur()")
        page.keyboard.press(letter)
        expect(page.locator("#moves li")).to_have_count(played)
    expect(page.locator("#status")).to_have_text(ENDED)
    page.goto(page.url.replace("/game/", "/replay/"))
    page.click("#analyse")
    grades = page.locator("#moves .grade")
    expect(grades).to_have_count(9, timeout=60_000)  # the solver may compile first
    expect(grades.nth(2)).to_have_text("mistake")
    expect(grades.nth(5)).to_have_text("blunder")
    assert grades.all_inner_texts().count("best") == 7
    expect(page.locator("#graph polyline")).to_have_count(1)
    expect(page.locator("#graph .grade-dot")).to_have_count(2)
    expect(page.locator("#analysis-text")).to_contain_text("(proven)")
    page.locator("#graph .grade-blunder").click()  # the dot takes the replay to the move
    expect(page.locator("#replay-at")).to_have_text("6 / 9")
    told = page.locator("#log li")  # what happened, told up to the board's move
    expect(told).to_have_count(6)
    expect(told.last).to_have_text("Player 1 played B.")  # after an extra turn
    page.click("#forward")
    expect(told).to_have_count(7)
    page.click("#rules-box summary")  # the rules, from the game's own text
    expect(page.locator("#rules")).to_contain_text("sow")
    with page.expect_download() as download:
        page.click("#download")
    saved = SavedGame.read(str(download.value.path()))
    assert list(saved.moves) == ["B", "D", "D", "C", "A", "B", "B", "B", "A"]
    shot(page, "kalah-review")
    page.context.close()


def test_keyboard_only_five_in_a_row_against_the_computer(browser: Browser, server: str) -> None:
    """The board is one Tab stop; the arrow keys move over it, Enter plays; the
    computer's answer is read out in the live region, and focus stays on the board."""
    page = open_lobby(browser, server, "gomoku")
    page.fill("[data-option=size]", "9")
    page.select_option("#level", "1")
    page.focus("#start")
    page.keyboard.press("Enter")
    page.wait_for_selector(".point.live")
    assert page.locator('#board [tabindex="0"]').count() == 1  # not 81 Tab stops
    focused = "document.activeElement.dataset.point || ''"
    assert page.evaluate(focused) == "E5"  # the centre
    page.keyboard.press("Enter")
    expect(page.locator("#announce")).to_have_text(
        re.compile(r"^Computer \(level 1\) played [A-I]\d\.$")
    )
    played = 1
    while not ENDED.search(status(page)) and played < 40:
        page.wait_for_function(
            "document.querySelector('.point.live') || /wins|draw/.test("
            "document.getElementById('status').textContent)"
        )
        if ENDED.search(status(page)):
            break
        here = page.evaluate(focused)
        assert here, "focus is on the board"
        label = page.evaluate("document.activeElement.getAttribute('aria-label')")
        if label.endswith("empty"):
            page.keyboard.press("Enter")
            played += 1
            page.wait_for_function(
                f"document.querySelectorAll('#moves li').length >= {2 * played - 1}"
            )
        else:  # along the row, then down a row from its start
            page.keyboard.press("ArrowRight" if here[0] != "I" else "ArrowDown")
            if here[0] == "I":
                page.keyboard.press("Home")
    shot(page, "gomoku-keyboard")
    assert played > 3
    page.context.close()


def test_five_in_a_row_downloads_as_psq_and_a_file_uploads_to_replay(
    browser: Browser, server: str, tmp_path: Path
) -> None:
    """A game at one screen downloaded as ``.psq``; that file chosen in the lobby replays
    and is analysed; a file that is no game is refused in words."""
    page = open_lobby(browser, server, "gomoku")
    page.fill("[data-option=size]", "9")
    page.check("input[name=opponent][value=here]")
    page.click("#start")
    line = ["E5", "A1", "E6", "A2", "E7", "A3", "E8", "A4", "E9"]
    for played, point in enumerate(line, 1):
        page.locator(f'[data-point="{point}"]').click()
        expect(page.locator("#moves li")).to_have_count(played)
    expect(page.locator("#status")).to_have_text(ENDED)
    expect(page.locator("#download-form")).to_have_text("as .psq")
    with page.expect_download() as download:
        page.click("#download-form")
    record = tmp_path / download.value.suggested_filename
    download.value.save_as(record)
    assert record.suffix == ".psq" and record.read_text().startswith("Piskvorky 9x9")
    lobby = open_lobby(browser, server, "gomoku")
    (tmp_path / "notes.txt").write_text("E5 A1")
    lobby.set_input_files("#upload", str(tmp_path / "notes.txt"))
    expect(lobby.locator("#upload-error")).to_contain_text("no game keeps records in '.txt'")
    lobby.set_input_files("#upload", str(record))
    expect(lobby.locator("#replay-at")).to_have_text("9 / 9")
    expect(lobby.locator("#lobby")).to_be_hidden()
    expect(lobby.locator("#log")).to_contain_text(f"Replaying {record.name}.")
    expect(lobby.locator("#status")).to_have_text("Player 1 wins.")
    lobby.click("#back")
    expect(lobby.locator("#replay-at")).to_have_text("8 / 9")
    told = lobby.locator("#log li")  # the file's line, then the story up to the 8th move
    expect(told).to_have_count(9)
    expect(told.first).to_have_text(f"Replaying {record.name}.")
    expect(told.last).to_have_text("Player 2 played A4.")
    lobby.click("#analyse")
    expect(lobby.locator("#moves .grade")).to_have_count(8, timeout=60_000)
    expect(lobby.locator("#download-box")).to_be_hidden()
    shot(lobby, "gomoku-uploaded-replay")
    page.context.close()
    lobby.context.close()


def test_the_lobby_shows_each_games_clock(browser: Browser, server: str) -> None:
    page = open_lobby(browser, server, "kalah")
    request = {"game": "kalah", "opponent": "link", "minutes": 5, "increment": 3}
    made = page.request.post(server + "/api/games", data=request).json()
    page.reload()
    listed = page.locator(f'#playing li:has(a[href="/game/{made["id"]}"])')
    expect(listed).to_contain_text("— 5 min + 3 s a move: 5:00 to 5:00 left")
    page.context.close()


def parlour_serve(port: int, db: Path) -> subprocess.Popen[bytes]:
    """``parlour serve`` in a process of its own (to be killed), answering on ``port``."""
    command = [sys.executable, "-c", "from parlour.cli import main; main()", "serve"]
    command += ["--port", str(port), "--db", str(db)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and server.poll() is None:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return server
        time.sleep(0.05)
    server.kill()
    raise AssertionError("parlour serve did not start")


def kept_moves(db: Path, game_id: str) -> list[str]:
    """The moves the store keeps of the game under way ``game_id`` (none yet: [])."""
    with contextlib.closing(sqlite3.connect(db)) as found:
        row = found.execute("SELECT progress FROM under_way WHERE ref = ?", (game_id,)).fetchone()
    return [] if row is None else list(json.loads(row[0])["moves"])


def test_a_game_is_brought_back_after_the_server_is_killed(
    browser: Browser, tmp_path: Path
) -> None:
    """Two people by link; the server is killed (SIGKILL: no word to anyone) mid-game and
    started again with the same ``--db`` on the same port: both pages reconnect by
    themselves, get their seats back, and play on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = tmp_path / "games.sqlite"
    server = parlour_serve(port, db)
    try:
        x, o = two_people(browser, f"http://127.0.0.1:{port}")
        expect(x.locator("#title")).to_have_text("Five in a row: Player 1 (you) vs Player 2")
        game_id = x.url.rsplit("/", 1)[1].split("#")[0]
        for played, (page, point) in enumerate(((x, "E5"), (o, "A1"), (x, "E6")), 1):
            page.locator(f'[data-point="{point}"].live').click()
            expect((o if page is x else x).locator("#moves li")).to_have_count(played)
        deadline = time.monotonic() + 10  # the moves reach the store within a quarter second
        while kept_moves(db, game_id) != ["E5", "A1", "E6"] and time.monotonic() < deadline:
            time.sleep(0.05)
        server.kill()
        server.wait(10)
        for page in (x, o):
            expect(page.locator("#status")).to_contain_text("reconnecting")
        server = parlour_serve(port, db)
        expect(o.locator("#status")).to_contain_text("Your move", timeout=20_000)
        expect(x.locator("#status")).to_have_text("Player 2 to move.")
        o.locator('[data-point="A2"].live').click()
        expect(x.locator("#moves li")).to_have_count(4, timeout=10_000)
        x.locator('[data-point="E7"].live').click()
        for page in (x, o):
            expect(page.locator("#moves li")).to_have_text(
                ["Player 1: E5", "Player 2: A1", "Player 1: E6", "Player 2: A2", "Player 1: E7"]
            )
        shot(x, "gomoku-after-restart")
        for page in (x, o):
            page.context.close()
    finally:
        server.kill()
        server.wait(10)
