//! Monte Carlo tree search (UCT) with a pluggable playout policy, an iteration or time
//! budget, and an optional blend of the final score into the reward for scored games.

use std::time::{Duration, Instant};

use crate::agents::Agent;
use crate::game::{Game, Outcome, Player};
use crate::rng::Rng;

/// How playouts are run from a leaf to the end of the game.
pub trait PlayoutPolicy<G: Game>: Send {
    fn playout(&mut self, game: &mut G, rng: &mut Rng) -> Outcome;
}

/// The game's own playout ([`Game::playout`]), uniformly random unless the game says
/// otherwise.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlayout;

impl<G: Game> PlayoutPolicy<G> for RandomPlayout {
    fn playout(&mut self, game: &mut G, rng: &mut Rng) -> Outcome {
        game.playout(rng)
    }
}

/// When the search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    Iterations(u64),
    Time(Duration),
}

/// Tuning of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// The UCT exploration constant.
    pub exploration: f64,
    /// Weight in `[0, 1]` of the final margin in a playout's reward (0: win/loss only).
    pub score_weight: f64,
    /// The margin that counts as a full score reward; larger margins are clipped.
    pub score_scale: f64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: 0.7,
            score_weight: 0.0,
            score_scale: 1.0,
        }
    }
}

impl MctsConfig {
    /// The reward in `[0, 1]` of `outcome` for `player`.
    pub fn reward(&self, outcome: &Outcome, player: Player) -> f64 {
        let win = match outcome.winner {
            Some(w) if w == player => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        if self.score_weight == 0.0 {
            return win;
        }
        let score = (outcome.value_for(player) as f64 / self.score_scale).clamp(-1.0, 1.0);
        (1.0 - self.score_weight) * win + self.score_weight * (0.5 + 0.5 * score)
    }
}

struct Node<M> {
    mv: Option<M>,
    parent: Option<usize>,
    children: Vec<usize>,
    untried: Vec<M>,
    /// The player who made `mv`; rewards are stored from this player's point of view.
    mover: Player,
    visits: f64,
    reward: f64,
}

/// Statistics of one root move after a search.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats<M> {
    pub mv: M,
    pub visits: u64,
    /// Mean reward for the player making the move.
    pub mean_reward: f64,
}

/// A UCT searcher usable as an [`Agent`].
pub struct Mcts<G: Game, P: PlayoutPolicy<G> = RandomPlayout> {
    pub config: MctsConfig,
    pub limit: SearchLimit,
    policy: P,
    rng: Rng,
    _game: std::marker::PhantomData<fn(G)>,
}

impl<G: Game> Mcts<G, RandomPlayout> {
    pub fn new(limit: SearchLimit, config: MctsConfig, seed: u64) -> Self {
        Mcts::with_policy(limit, config, RandomPlayout, seed)
    }
}

impl<G: Game, P: PlayoutPolicy<G>> Mcts<G, P> {
    pub fn with_policy(limit: SearchLimit, config: MctsConfig, policy: P, seed: u64) -> Self {
        Mcts {
            config,
            limit,
            policy,
            rng: Rng::new(seed),
            _game: std::marker::PhantomData,
        }
    }

    /// Searches from `root` and returns the statistics of every root move, most visited
    /// first.
    pub fn search(&mut self, root: &G) -> Vec<MoveStats<G::Move>> {
        let mut nodes = vec![Node {
            mv: None,
            parent: None,
            children: Vec::new(),
            untried: root.legal_moves(),
            mover: root.to_move().opponent(),
            visits: 0.0,
            reward: 0.0,
        }];
        let start = Instant::now();
        let mut iterations = 0u64;
        while !self.done(iterations, start) {
            iterations += 1;
            let mut state = root.clone();
            let mut node = 0;
            while nodes[node].untried.is_empty() && !nodes[node].children.is_empty() {
                node = self.select_child(&nodes, node);
                state.play(nodes[node].mv.as_ref().expect("children carry moves"));
            }
            if !nodes[node].untried.is_empty() {
                let pick = self.rng.below(nodes[node].untried.len());
                let mv = nodes[node].untried.swap_remove(pick);
                let mover = state.to_move();
                state.play(&mv);
                let child = Node {
                    mv: Some(mv),
                    parent: Some(node),
                    children: Vec::new(),
                    untried: if state.outcome().is_some() {
                        Vec::new()
                    } else {
                        state.legal_moves()
                    },
                    mover,
                    visits: 0.0,
                    reward: 0.0,
                };
                nodes.push(child);
                let id = nodes.len() - 1;
                nodes[node].children.push(id);
                node = id;
            }
            let outcome = match state.outcome() {
                Some(o) => o,
                None => self.policy.playout(&mut state, &mut self.rng),
            };
            let mut at = Some(node);
            while let Some(n) = at {
                nodes[n].visits += 1.0;
                nodes[n].reward += self.config.reward(&outcome, nodes[n].mover);
                at = nodes[n].parent;
            }
        }
        let mut stats: Vec<MoveStats<G::Move>> = nodes[0]
            .children
            .iter()
            .map(|&c| MoveStats {
                mv: nodes[c].mv.clone().expect("children carry moves"),
                visits: nodes[c].visits as u64,
                mean_reward: nodes[c].reward / nodes[c].visits.max(1.0),
            })
            .collect();
        stats.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.mean_reward.total_cmp(&a.mean_reward))
        });
        stats
    }

    fn done(&self, iterations: u64, start: Instant) -> bool {
        match self.limit {
            SearchLimit::Iterations(n) => iterations >= n.max(1),
            SearchLimit::Time(t) => iterations > 0 && start.elapsed() >= t,
        }
    }

    fn select_child(&self, nodes: &[Node<G::Move>], node: usize) -> usize {
        let log_parent = nodes[node].visits.max(1.0).ln();
        let c = self.config.exploration;
        *nodes[node]
            .children
            .iter()
            .max_by(|&&a, &&b| {
                let ucb =
                    |n: &Node<G::Move>| n.reward / n.visits + c * (log_parent / n.visits).sqrt();
                ucb(&nodes[a]).total_cmp(&ucb(&nodes[b]))
            })
            .expect("selection only runs on nodes with children")
    }
}

impl<G: Game, P: PlayoutPolicy<G>> Agent<G> for Mcts<G, P> {
    fn name(&self) -> String {
        match self.limit {
            SearchLimit::Iterations(n) => format!("mcts:{n}"),
            SearchLimit::Time(t) => format!("mcts:{}ms", t.as_millis()),
        }
    }

    fn choose(&mut self, game: &G) -> Option<G::Move> {
        if game.outcome().is_some() {
            return None;
        }
        self.search(game).into_iter().next().map(|s| s.mv)
    }
}
