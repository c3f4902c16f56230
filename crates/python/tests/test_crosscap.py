"""The crosscap module against facts checked elsewhere (README, seeds, brute force here)."""

import _thread
import threading
from itertools import product
from pathlib import Path

import pytest

import crosscap


def test_every_game_is_listed_and_starts_from_its_default_board():
    assert crosscap.games() == [
        "projective-hex", "euler-getter", "edge-nim", "manifold", "sandpile", "nim",
    ]
    for name in crosscap.games():
        game = crosscap.Game(name)
        assert game.name == name
        assert game.to_move == "X"
        assert game.legal_moves()
        assert crosscap.info(name)["default_board"]


def test_nim_value_and_winning_move():
    answer = crosscap.Game("nim", "3 4 5").solve()
    assert answer["status"] == "solved"
    assert (answer["value"], answer["outcome"]) == (3 ^ 4 ^ 5, "N")
    assert answer["winning_moves"] == ["1:1"]


def test_playing_moves_changes_the_position_and_copies_are_independent():
    game = crosscap.Game("nim", "3 4 5")
    trial = game.copy()
    assert trial.play("1:1") == "1:1"
    assert trial.position == "1 4 5"
    assert trial.solve()["outcome"] == "P"
    assert game.position == "3 4 5"


def test_every_game_takes_moves_to_play_first():
    assert crosscap.Game("nim", "3 4 5", moves="1:1").position == "1 4 5"
    assert crosscap.Game("nim", "3 4 5", moves=["1:1", "2:0"]).position == "1 0 5"
    edge_nim = crosscap.Game("edge-nim", "C3", tokens=[1, 1, 1], moves=["0:0-1=0,0-2=0"])
    assert edge_nim.position == "0,1,0"


def test_projective_hex_taylor_2_is_a_first_player_win():
    answer = crosscap.Game("projective-hex", "taylor:2").solve(max_seconds=30)
    assert answer["winner"] == "X"
    assert answer["winning_moves"]
    assert crosscap.Game("projective-hex", "taylor:2").hint("perfect") in answer["winning_moves"]
    for move in answer["winning_moves"]:
        after = crosscap.Game("projective-hex", "taylor:2")
        after.play(move)
        assert after.solve(max_seconds=30)["winner"] == "X"


def test_a_hint_says_whether_it_is_proven_and_what_the_position_is_worth():
    won = crosscap.Game("nim", "3 4 5").hint_details("perfect")
    assert won == {"move": "1:1", "level": "perfect", "proven": True, "result": "win", "reason": None}
    lost = crosscap.Game("nim", "1 2 3").hint_details("perfect")
    assert (lost["proven"], lost["result"]) == (True, "loss")
    searched = crosscap.Game("nim", "3 4 5").hint_details("random")
    assert (searched["proven"], searched["result"], searched["reason"]) == (False, None, None)
    # Too large for the perfect player's solver (its probe finds nothing): a search's move, and why.
    beyond = crosscap.Game("projective-hex", "goldberg:3").hint_details("perfect", max_seconds=0.5)
    assert (beyond["proven"], beyond["reason"]) == (False, "out of reach")
    assert crosscap.Game("nim", "0 0").hint_details() is None


def test_euler_getter_scores_add_up_to_the_surface_characteristic():
    board = crosscap.Board("goldberg:1")
    assert (board.surface, board.euler_characteristic) == ("projective plane", 1)
    assert board._repr_svg_().startswith("<svg")
    seed_game = crosscap.Board("taylor:3").svg(
        position=".XO/..XO/..OO./.XOX../XOX../XO..", mark=["a3", "b4", "c4", "c3", "d3", "e2", "f2"],
    )
    assert '<g class="marked"' in seed_game and "#0072b2" in seed_game
    with pytest.raises(ValueError, match="no cell named"):
        crosscap.Board("taylor:3").svg(mark=["zz"])
    assert (crosscap.Board("torus:4x6").orientable, crosscap.Board("klein:4x6").surface) == (
        True, "Klein bottle",
    )
    # A torus and a projective plane make three projective planes, where Euler Getter plays too.
    n3 = crosscap.Board("sum:torus:2x3+goldberg:1")
    assert (n3.surface, n3.euler_characteristic) == ("N3", -1)
    assert crosscap.Game("euler-getter", "sum:torus:2x3+goldberg:1", swap="none").solve()["winner"] in ("X", "O")
    game = crosscap.Game("euler-getter", "goldberg:1", swap="none")
    seed = 0
    while not game.is_over:
        game.play(game.hint("random", seed=seed))
        seed += 1
    regions = game.view()["regions"]
    x_cells = [c for c, owner in zip(board.cells, game.view()["owners"]) if owner == "X"]
    o_cells = [c for c in board.cells if c not in x_cells]
    assert regions["X"]["chi"] == board.region_euler_characteristic(x_cells)
    assert regions["O"]["chi"] == board.region_euler_characteristic(o_cells)
    assert regions["X"]["chi"] + regions["O"]["chi"] == 1
    winner = "X" if regions["X"]["chi"] > regions["O"]["chi"] else "O"
    assert game.outcome["winner"] == winner


def test_edge_nim_tetrahedron_values():
    answer = crosscap.Game("edge-nim", "tetrahedron", tokens=[1, 2, 3, 4, 5, 6]).solve()
    assert answer["value"] == 7
    assert sorted(answer["winning_moves"]) == ["1:a=0,b=1,c=2", "1:b=0"]
    seed_example = crosscap.Game("edge-nim", "tetrahedron", tokens="a=0,b=4,c=9,A=6,B=2,C=7")
    assert seed_example.solve()["outcome"] == "P"


def test_edge_nim_p_positions_follow_the_seed_theorem():
    """P exactly when, up to the symmetries fixing a, b+C = B+c, b <= c, A^b^B = 0."""
    assert crosscap.edge_names("tetrahedron") == ["a", "b", "c", "A", "B", "C"]
    table = set(crosscap.edge_nim_p_positions("tetrahedron", 4, fix="a=0"))

    def theorem(b, c, A, B, C):
        return b + C == B + c and b <= c and A ^ b ^ B == 0

    expected = set()
    for b, c, A, B, C in product(range(5), repeat=5):
        images = [(b, c, A, B, C), (C, B, A, c, b), (c, b, A, C, B), (B, C, A, b, c)]
        if any(theorem(*image) for image in images):
            expected.add((0, b, c, A, B, C))
    assert table == expected


def test_manifold_g_series_and_table():
    series = crosscap.manifold_series(20)
    assert series["orientable"][:8] == [0, 1, 2, 0, 2, 0, 2, 0]
    assert series["nonorientable"][:11] == [0, 1, 2, 4, 6, 0, 3, 4, 6, 0, 3]
    rows = crosscap.manifold_table(3)
    assert [row["nonorientable"] for row in rows] == [0, 1, 2, 4]
    assert {"move": "c,d", "to": "S", "grundy": 0} in rows[1]["moves"]
    manifold = crosscap.Game("manifold", "n5 o2").solve()
    assert manifold["value"] == series["nonorientable"][5] ^ series["orientable"][2]


def test_sandpile_winners():
    assert crosscap.Game("sandpile", "C3").solve()["winner"] == "X"
    assert crosscap.Game("sandpile", "K1,4").solve()["winner"] == "O"


def test_arena_is_seeded_and_the_perfect_player_wins():
    game = crosscap.Game("nim", "3 4 5")
    report = game.arena("perfect", "random", games=6, seed=7)
    assert (report["games"], report["seed"]) == (6, 7)
    # From an N-position with colours alternating, perfect wins at least its 3 games as X.
    assert report["a_wins"] >= 3
    again = game.arena("random", "random", games=6, seed=7)
    assert again["a_wins"] == game.arena("random", "random", games=6, seed=7)["a_wins"]


def test_bad_input_raises_value_error():
    with pytest.raises(ValueError, match="heap"):
        crosscap.Game("nim", "3 x")
    with pytest.raises(ValueError, match="unknown game"):
        crosscap.Game("chess")
    with pytest.raises(ValueError, match="bogus"):
        crosscap.Game("nim", bogus=1)
    with pytest.raises(ValueError):
        crosscap.Game("nim", "3 4 5").play("9:9")
    with pytest.raises(ValueError):
        crosscap.Board("taylor:1")


def test_a_budget_that_runs_out_raises_budget_exceeded_with_the_partial_answer():
    game = crosscap.Game("euler-getter", "taylor:3", swap="none")
    with pytest.raises(crosscap.BudgetExceeded) as caught:
        game.solve(max_nodes=1000)
    assert caught.value.answer["status"] == "unknown"
    assert caught.value.answer["reason"] == "nodes"


def test_a_table_over_the_memory_budget_raises_budget_exceeded():
    # 8^10 positions need 384 MiB: over 1 MiB is a budget that ran out, as the CLI exits 3.
    with pytest.raises(crosscap.BudgetExceeded) as caught:
        crosscap.edge_nim_p_positions("complete:5", 7, max_memory_mib=1)
    assert caught.value.answer is None and "over the limit of 1 MiB" in str(caught.value)
    with pytest.raises(crosscap.BudgetExceeded):
        crosscap.edge_nim_check("complete:5", 7, "0-1 == 0", max_memory_mib=1)
    with pytest.raises(ValueError):
        crosscap.edge_nim_p_positions("complete:5", 99999)


def test_the_readme_example_runs():
    readme = (Path(__file__).parents[3] / "README.md").read_text()
    block = readme.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(block, "README.md", "exec"), {})


def test_an_interrupt_stops_a_long_search():
    """Ctrl-C (Jupyter's Interrupt) stops the search instead of waiting out its budget."""
    game = crosscap.Game("euler-getter", "taylor:3", swap="none")
    for search in (lambda: game.solve(max_seconds=120),
                   lambda: crosscap.manifold_misere("n13 o9 n11 o7", max_seconds=120)):
        threading.Timer(0.3, _thread.interrupt_main).start()
        with pytest.raises(KeyboardInterrupt):
            search()


TETRAHEDRON_THEOREM = "b + C == B + c and b <= c and (A xor b xor B) == 0"


def test_the_predicate_check_reproduces_the_tetrahedron_theorem():
    check = crosscap.edge_nim_check(
        "tetrahedron", 3, TETRAHEDRON_THEOREM, fix="a=0", up_to_symmetry=True
    )
    assert check["holds"] is True
    assert check["positions"] == 4 ** 5
    assert check["p_positions"] == len(crosscap.edge_nim_p_positions("tetrahedron", 3, fix="a=0"))
    assert check["edges"] == ["a", "b", "c", "A", "B", "C"] and check["fixed"] == {"a": 0}
    assert (check["graph"], check["max"], check["up_to_symmetry"]) == ("tetrahedron", 3, True)
    # A planted counterexample: the theorem with A = 2 left out misses a P-position there.
    planted = crosscap.edge_nim_check(
        "tetrahedron", 3, TETRAHEDRON_THEOREM + " and A != 2", fix="a=0", up_to_symmetry=True
    )
    assert planted["holds"] is False
    assert planted["p_not_predicate"][3] == 2 and planted["predicate_not_p"] is None
    with pytest.raises(ValueError):
        crosscap.edge_nim_check("tetrahedron", 3, "b +* c")


def test_misere_edge_nim_on_disjoint_edges_is_misere_nim():
    # Disjoint edges are separate heaps: Bouton's misère rule decides every position.
    for heaps in product(range(4), repeat=3):
        answer = crosscap.edge_nim_misere("edges:0-1,2-3,4-5", list(heaps))
        nim_sum = heaps[0] ^ heaps[1] ^ heaps[2]
        p = nim_sum == 1 if max(heaps) <= 1 else nim_sum == 0
        assert answer["outcome"] == ("P" if p else "N"), heaps
        # With no tokens at all the player to move has already won, by no move.
        assert bool(answer["winning_moves"]) == (not p and any(heaps)), heaps


def test_misere_manifold_value():
    # o1 has one move, to the sphere: under misère play the mover loses by taking it.
    assert crosscap.manifold_misere("o1")["outcome"] == "P"
    assert crosscap.manifold_misere("o1 o1")["outcome"] == "N"
    with pytest.raises(ValueError):
        crosscap.manifold_misere("q3")


def test_misere_answers_name_their_position_as_normal_play_does():
    # As the CLI's `--misere --json`: the position first, by the keys of the normal-play answer.
    cases = [
        (crosscap.edge_nim_misere("C4", [1, 2, 0, 2]), ("edge-nim", "C4", {"tokens": "1,2,0,2"}),
         ["graph", "edges", "tokens"]),
        (crosscap.manifold_misere("n3 o2"), ("manifold", "n3 o2", {}), ["position"]),
    ]
    for misere, (game, board, options), keys in cases:
        normal = crosscap.Game(game, board, **options).solve()
        for key in keys:
            assert misere[key] == normal[key], (key, misere)
        assert next(iter(misere)) == keys[0], misere
        assert misere["rule"] == "misere" and misere["outcome"] == "N"


def test_misere_searches_take_the_cli_budget():
    # As `value --misere --max-nodes 10` and `--max-seconds 0.01`: the search stops and says
    # what ran out, for the position it names.
    with pytest.raises(crosscap.BudgetExceeded) as stopped:
        crosscap.edge_nim_misere("C4", [3, 3, 3, 3], max_nodes=10)
    answer = stopped.value.answer
    assert (answer["status"], answer["reason"], answer["tokens"]) == ("unknown", "nodes", [3] * 4)
    with pytest.raises(crosscap.BudgetExceeded) as stopped:
        crosscap.manifold_misere("n9 o5 n7", max_seconds=0.01)
    answer = stopped.value.answer
    assert (answer["reason"], answer["position"]) == ("time", "o5 n7 n9"), answer
    with pytest.raises(ValueError):
        crosscap.manifold_misere("n2", max_seconds=0)


def test_manifold_length_agrees_with_the_series():
    series = crosscap.manifold_series(8)
    for genus in range(1, 9):
        for letter, kind in (("o", "orientable"), ("n", "nonorientable")):
            found = crosscap.manifold_length(f"{letter}{genus}")
            assert found["longest"] == 2 * genus - 1, found
            assert found["shortest"] <= found["remoteness"] <= found["longest"], found
            # The player to move loses exactly when G = 0, then the remoteness is even.
            assert (found["remoteness"] % 2 == 0) == (series[kind][genus] == 0), found
    with pytest.raises(crosscap.BudgetExceeded) as stopped:
        crosscap.manifold_length("o20 n20", max_nodes=10)
    assert stopped.value.answer["longest"] == 78 and stopped.value.answer["status"] == "unknown"
    with pytest.raises(ValueError):
        crosscap.manifold_length("o2001")


def test_the_reset_toppling_rule_flips_the_winner_of_eqjo():
    assert crosscap.Game("sandpile", "g6:EQjO").solve()["winner"] == "O"
    assert crosscap.Game("sandpile", "g6:EQjO", toppling="reset").solve()["winner"] == "X"
    with pytest.raises(ValueError):
        crosscap.Game("sandpile", "C3", toppling="sideways")
