//! Values of 2-manifolds against brute force, and the game as players meet it: the
//! perfect player and the web server's match.

use crosscap_engine::arena::arena;
use crosscap_engine::catalog::{Setup, SetupError};
use crosscap_engine::session::{Match, SetupLimits};
use crosscap_engine::solver::brute_force_value;
use crosscap_engine::{GrundyTable, Impartial, Level, NormalPlay, Player};
use crosscap_manifold::{DESCRIPTOR, Manifold, Move, Series, Surface, agent};

/// A game started through the catalog's descriptor, as every host starts one.
fn new_match(
    board: &str,
    options: &serde_json::Value,
    limits: &SetupLimits,
) -> Result<Box<dyn Match>, SetupError> {
    (DESCRIPTOR.start)(&Setup { board, options }, limits)
}
use proptest::prelude::*;

/// The whole 2-manifold as one game, with no splitting into components: the engine then
/// takes the mex over every move of the whole position, a brute-force search that does
/// not rely on the nim-sum.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Whole(Manifold);

impl Impartial for Whole {
    type Move = Move;
    fn moves(&self) -> Vec<Move> {
        self.0.moves()
    }
    fn after(&self, mv: &Move) -> Whole {
        Whole(self.0.after(mv))
    }
}

fn surface() -> impl Strategy<Value = Surface> {
    (any::<bool>(), 0u32..6).prop_map(|(orientable, genus)| {
        if orientable {
            Surface::orientable(genus)
        } else {
            Surface::non_orientable(genus)
        }
    })
}

fn small_manifold() -> impl Strategy<Value = Manifold> {
    prop::collection::vec(surface(), 1..4).prop_map(Manifold::new)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, rng_seed: proptest::test_runner::RngSeed::Fixed(11), ..ProptestConfig::default() })]

    #[test]
    fn values_of_random_manifolds_agree_with_brute_force(m in small_manifold()) {
        let series = Series::compute(m.max_genus());
        let value = series.value(&m).unwrap();
        let mut brute = GrundyTable::new();
        prop_assert_eq!(value, brute.grundy(&Whole(m.clone())));
        let mut by_parts = GrundyTable::new();
        prop_assert_eq!(value, by_parts.grundy(&m));
        let winning = series.winning_moves(&m).unwrap();
        prop_assert_eq!(&winning, &by_parts.winning_moves(&m));
        prop_assert_eq!(winning.is_empty(), value == 0);
    }

    /// Win or loss by the exact solver, which knows nothing of Grundy values.
    #[test]
    fn the_solver_agrees_on_who_wins(m in prop::collection::vec(surface(), 1..3).prop_map(Manifold::new)) {
        let value = Series::compute(m.max_genus()).value(&m).unwrap();
        let solved = brute_force_value(&NormalPlay::new(m));
        prop_assert_eq!(solved, if value == 0 { -1 } else { 1 });
    }
}

#[test]
fn a_manifold_is_worth_the_nim_sum_of_its_surfaces() {
    let m: Manifold = "n3 o2 n5".parse().unwrap();
    let series = Series::compute(5);
    // G(o2) = 2, G(n3) = 4, G(n5) = 0.
    assert_eq!(series.value(&m), Some(6));
    let winning: Vec<String> = series
        .winning_moves(&m)
        .unwrap()
        .iter()
        .map(Move::to_string)
        .collect();
    // n3 (4) to n2 (2), or n5 (0) to a 2-manifold worth 6: n4, or n2 n3 (2 ^ 4).
    assert_eq!(winning, ["c:n3->n2", "c:n5->n4", "g:n5->n2+n3"]);
    assert_eq!(
        series.value(&"n6".parse().unwrap()),
        None,
        "beyond the series"
    );
}

#[test]
fn the_perfect_player_never_loses_a_won_position() {
    // The perfect player plays X in half the games. From an N-position (n4 is worth 6,
    // n9 o3 n2 is worth 0 ^ 0 ^ 2) it wins all of those; from a P-position (o2 o2) it
    // wins all the games where it plays O. Random wins only what the perfect player
    // cannot.
    let perfect = |seed| agent(Level::Perfect, seed);
    let random = |seed| agent(Level::Random, seed);
    for board in ["n4", "o2 o2", "n9 o3 n2"] {
        let start = NormalPlay::new(board.parse::<Manifold>().unwrap());
        let report = arena(
            &start,
            &perfect,
            &random,
            20,
            5,
            &crosscap_engine::Budget::unlimited(),
            &|| {},
        );
        assert!(report.a_wins >= 10, "{board}: {report:?}");
        assert_eq!(report.a_wins + report.b_wins, 20);
    }
}

#[test]
fn a_match_for_the_web_server() {
    let mut m = new_match(
        "n5 o2",
        &serde_json::Value::Null,
        &crosscap_engine::session::SetupLimits::default(),
    )
    .unwrap();
    assert_eq!(m.game(), "manifold");
    let view = m.view();
    assert_eq!(view["position"], "o2 n5");
    assert_eq!(view["surfaces"][1]["euler_characteristic"], -3);
    assert_eq!(view["surfaces"][0]["orientable"], true);
    assert_eq!(
        view["moves"].as_array().unwrap().len(),
        m.legal_moves().len()
    );
    assert!(
        view["moves"][0]["curve"]
            .as_str()
            .unwrap()
            .contains("non-separating")
    );
    // Every letter's curve in words, for the moves already played.
    assert_eq!(view["curves"].as_object().unwrap().len(), 8);
    assert!(
        view["curves"]["g"]
            .as_str()
            .unwrap()
            .contains("two non-orientable")
    );
    assert!(m.play("g:n5->n1+n1").is_err());
    assert_eq!(m.play("n5 -> n3 + n2").unwrap(), "g:n5->n2+n3");
    assert_eq!(m.to_move(), Some(Player::O));
    // o2 n2 n3 is worth 2 ^ 2 ^ 4 = 4: the perfect computer moves to 0.
    let reply = m
        .computer_move(Level::Perfect, 1, &crosscap_engine::Budget::unlimited())
        .unwrap();
    m.play(&reply).unwrap();
    let position: Manifold = m.view()["position"].as_str().unwrap().parse().unwrap();
    assert_eq!(Series::compute(5).value(&position), Some(0), "{reply}");
    while m.outcome().is_none() {
        let mv = m
            .computer_move(Level::Perfect, 2, &crosscap_engine::Budget::unlimited())
            .unwrap();
        m.play(&mv).unwrap();
    }
    assert_eq!(m.outcome().unwrap().winner, Some(Player::O));
}

#[test]
fn bad_boards_and_options_are_refused() {
    let none = serde_json::json!({});
    for (board, needle) in [
        ("", "empty position"),
        ("n5 q2", "bad surface \"q2\""),
        ("o1001", "too large"),
    ] {
        let err = new_match(
            board,
            &none,
            &crosscap_engine::session::SetupLimits::default(),
        )
        .err()
        .unwrap()
        .to_string();
        assert!(err.contains(needle), "{board}: {err}");
    }
    let size = new_match(
        "n5",
        &serde_json::json!({"size": 3}),
        &SetupLimits::default(),
    )
    .err()
    .unwrap();
    assert!(size.0.contains("has no option `size`"), "{size}");
    assert!(
        new_match(
            "n5",
            &serde_json::json!([1]),
            &crosscap_engine::session::SetupLimits::default()
        )
        .is_err()
    );
}
