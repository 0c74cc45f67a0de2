"""War as a game of parlour: its states walk the games the kernel and the Dealer play."""

from __future__ import annotations

import pytest

import parlour
from parlour.actors import run_game, spawn
from parlour.core import BadPosition, IllegalMove
from parlour.games.war import kernel
from parlour.games.war.game import ROUND, WarGame, WarState
from parlour.games.war.options import PICKUPS
from parlour.games.war.rules import describe
from parlour.outcome import Reason
from parlour.players.machines import RandomPlayer


def walk(state: WarState) -> WarState:
    while not state.is_over:
        assert state.legal_moves() == (ROUND,)
        state = state.play(ROUND)
    return state


@pytest.mark.parametrize("pickup", PICKUPS)
@pytest.mark.parametrize("max_rounds", [30, 400, "none"])
def test_walking_the_states_plays_the_kernels_games(pickup: str, max_rounds: object) -> None:
    """Game by game, the state walk ends as ``war_kernel.play_one`` does: the same ending,
    winner, counts and final stacks (the ``small`` deck cycles often under the pickups
    that draw no random numbers; the full deck, with no round limit, may take hundreds of
    millions of rounds to repeat, so it plays only to a limit)."""
    endings = set()
    for deck in ("full", "small") if max_rounds != "none" else ("small",):
        game = parlour.game("war", deck=deck, pickup=pickup, max_rounds=max_rounds, seed=5)
        assert isinstance(game, WarGame)
        for index in range(12):
            end = walk(game.deal(index))
            expected = kernel.play_one(game.rules, index)
            account = expected.account
            assert end.result == (expected.reason, expected.winner), (deck, index)
            assert end.counters == (account.rounds, account.battles, account.wars)
            assert end.stacks == account.stacks and end.scores == expected.scores
            assert end.winner == expected.winner
            endings.add(expected.reason)
    assert endings <= {Reason.OUT_OF_CARDS, Reason.ROUND_LIMIT, Reason.CYCLE}


async def test_the_referee_ends_war_games_as_the_kernel_does() -> None:
    game = parlour.game("war", deck="small", pickup="played", max_rounds=30, seed=1)
    assert isinstance(game, WarGame)
    reasons = set()
    for index in range(12):
        players = [spawn(RandomPlayer(seed)) for seed in (0, 1)]
        outcome = await run_game(game.deal(index), players)
        for player in players:
            player.stop()
        expected = kernel.play_one(game.rules, index)
        assert (outcome.winner, outcome.reason) == (expected.winner, expected.reason), index
        account, final = expected.account, outcome.final
        assert isinstance(final, WarState) and outcome.scores == expected.scores
        assert final.counters == (account.rounds, account.battles, account.wars)
        assert outcome.account == account and outcome.account.stacks == account.stacks
        assert describe(outcome) == describe(expected)
        reasons.add(outcome.reason)
    assert len(reasons) >= 2  # more than one of War's endings, each named by the Referee too


def test_war_is_a_registered_game_with_its_options() -> None:
    assert "war" in parlour.game_names()
    game = parlour.game("war", deck="small", max_rounds="5", seed="3")
    assert isinstance(game, WarGame)
    assert game == parlour.game("war", deck="Small", max_rounds=5, seed=3)
    assert game.options["deck"] == "small"
    assert parlour.game("war", deck="ac, kd").options["deck"] == "AC,KD"
    assert game.rules.deck == (0, 10, 11, 12, 13, 23, 24, 25) and game.rules.max_rounds == 5
    start = game.start()
    assert start.scores == (4, 4) and start.to_move == 0 and not start.is_over
    with pytest.raises(parlour.BadOption, match="unknown option 'pits'"):
        parlour.game("war", pits=6)
    with pytest.raises(parlour.BadOption, match="not a card"):
        parlour.game("war", deck="AC,ZZ")


def test_the_notation_reads_back_during_and_after_a_game() -> None:
    game = parlour.game("war", deck="small", pickup="played", max_rounds="none", seed=1)
    state = game.start()
    while True:
        again = game.parse(state.notation())
        assert again == state and again.notation() == state.notation()
        if state.is_over:
            break
        state = state.play(ROUND)
    assert state.notation().endswith(("cycle:-", "out_of_cards:0", "out_of_cards:1"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AC,JC/QC", "expected 'CARDS/CARDS ROUNDS BATTLES WARS GENERATOR END'"),
        ("AC,JC/QC/KC 0 0 0 1 -", "two stacks"),
        ("AC,AC/QC 0 0 0 1 -", "each at most once"),
        ("AC,2C/QC 0 0 0 1 -", "cards of the deck"),
        ("AC/QC ² 0 0 1 -", "the rounds must be a whole number"),
        ("AC/QC 0 0 0 0x1 -", "hexadecimal"),
        ("AC/QC 0 0 0 1 draw", "the end must be"),
        ("AC/ZZ 0 0 0 1 -", "not a card"),
    ],
)
def test_bad_positions_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(BadPosition, match=message):
        parlour.game("war", deck="small").parse(text)


SMALL = "AC,JC,QC,KC/AD,JD,QD,KD"  # every card of the small deck


@pytest.mark.parametrize(
    ("options", "text", "message"),
    [
        ({}, "QC,AD,JC/KC,JD,AC,KD 0 0 0 64f8006e9238cdb0 -", "every card of the deck.*1 missing"),
        ({"deck": "full"}, "AS/KS 0 0 0 1 -", r"every card of the deck \(52\); 50 missing"),
        ({}, f"{SMALL} 0 2147483648 0 1 -", "the battles must be at most 1000000000"),
        ({}, f"{SMALL} 2147483647 2147483647 0 1 -", "the rounds must be at most"),
        ({}, f"{SMALL} 3 5 1 1 -", r"battles = rounds \+ wars"),
        ({"max_rounds": 7}, f"{SMALL} 55 55 0 1 -", "55 rounds played, past the round limit of 7"),
        ({"max_rounds": 7}, f"{SMALL} 7 7 0 1 -", "the round limit of 7 is reached"),
        ({"max_rounds": 7}, f"{SMALL} 6 6 0 1 round_limit:1", "ends a game at round 7"),
        ({"max_rounds": 7}, f"{SMALL} 7 7 0 1 round_limit:1", "nobody wins here"),
        ({}, f"{SMALL} 4 4 0 1 out_of_cards:1", "out of cards, but Player 1 holds cards"),
        ({}, "AC,JC/- 4 4 0 1 out_of_cards:-", "but Player 1 and Player 2 hold"),
        ({"pickup": "played"}, f"{SMALL} 0 0 0 1 cycle:-", "a cycle ends only"),
        ({"pickup": "played"}, f"{SMALL} 9 9 0 1 cycle:0", "a cycle ends only"),
        ({}, f"{SMALL} 9 9 0 1 cycle:-", "a cycle ends only"),
        ({}, f"{SMALL}\xa00 0 0 1 -", "separate the fields with spaces"),
    ],
)
def test_positions_the_rules_cannot_reach_are_refused(
    options: dict[str, object], text: str, message: str
) -> None:
    with pytest.raises(BadPosition, match=message):
        parlour.game("war", **{"deck": "small", **options}).parse(text)


def test_positions_the_rules_can_reach_are_read() -> None:
    game = parlour.game("war", deck="small", pickup="played", max_rounds=7)
    for text in (
        f"{SMALL} 6 9 3 1 -",
        f"{SMALL} 7 7 0 1 round_limit:-",
        f"{SMALL} 5 5 0 1 cycle:-",
        "AC,JC,QC/KC,AD,JD,QD,KD 7 7 0 1 round_limit:0",
        "AC,JC/- 4 5 1 1 out_of_cards:0",
        "-/- 4 5 1 1 out_of_cards:-",
        "AC,JC,QC,KC,AD,JD,QD,KD/- 4 4 0 1 -",
    ):
        assert game.parse(text).notation() == text


def test_the_states_of_a_game_share_one_memory_of_the_stacks_seen() -> None:
    """The cycle check costs the same every round: the memory is shared, not copied (a
    copy a round made a replay of 100,000 rounds quadratic)."""
    state = parlour.game("war", deck="small", pickup="played", max_rounds="none").start()
    assert isinstance(state, WarState)
    after = state.play(ROUND).play(ROUND)
    assert after.seen is state.seen and len(state.seen) == 3
    assert state.play(ROUND).play(ROUND) == after and len(state.seen) == 3  # played again


def test_the_one_move_is_a_round_and_nothing_else() -> None:
    state = parlour.game("war", deck="small", seed=2).start()
    assert isinstance(state, WarState)
    assert state.parse_move(" Round ") == ROUND and state.move_name(ROUND) == "round"
    for move in ("battle", 0, None):
        with pytest.raises(IllegalMove):
            state.play(move)
    with pytest.raises(IllegalMove, match="one move is 'round'"):
        state.parse_move("A")
    end = walk(state)
    with pytest.raises(IllegalMove, match="the game is over"):
        end.play(ROUND)
