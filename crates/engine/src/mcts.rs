//! Monte Carlo tree search (UCT) with a pluggable playout policy, an iteration or time
//! budget, an optional blend of the final score into the reward for scored games, and two
//! options that connection games rely on: RAVE (all-moves-as-first statistics shared
//! between siblings) and an MCTS-solver that proves won and lost subtrees.

use rustc_hash::FxHashMap;
use std::cell::Cell;
use std::mem::size_of;
use std::time::Duration;

use crate::agents::Agent;
use crate::budget::{Budget, Meter};
use crate::game::{Game, Outcome, Player};
use crate::rng::Rng;

/// The most search threads a host may ask for ([`with_search_threads`]).
pub const MAX_SEARCH_THREADS: usize = 64;

thread_local! {
    /// The thread count of [`with_search_threads`] while its `build` runs.
    static SEARCH_THREADS: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Runs `build` with every [`Mcts`] made in it (on this thread) searching on `threads`
/// threads (root parallelism, [`MctsConfig::threads`]), whatever its game's tuning says.
/// A scope rather than a parameter because each game builds its own searches (its
/// policy, its tuning) behind `Hosting::agent(level, seed)`: a host chooses the thread
/// count of all of them without every game passing it through.
pub fn with_search_threads<T>(threads: usize, build: impl FnOnce() -> T) -> T {
    /// Puts the outer count back when `build` returns or unwinds, so that a panic caught
    /// further up (a server's request) leaves no thread count behind for later searches.
    struct Restore(Option<usize>);
    impl Drop for Restore {
        fn drop(&mut self) {
            SEARCH_THREADS.set(self.0);
        }
    }
    let _restore = Restore(SEARCH_THREADS.replace(Some(threads.clamp(1, MAX_SEARCH_THREADS))));
    build()
}

/// How playouts are run from a leaf to the end of the game.
pub trait PlayoutPolicy<G: Game>: Send {
    /// The outcome of a playout from `game`, `None` when `meter` ran out first.
    fn playout(&mut self, game: &mut G, rng: &mut Rng, meter: &mut Meter) -> Option<Outcome>;

    /// The same playout, also appending every move played, with the player who made it, to
    /// `record` (RAVE needs them). The default plays [`Game::random_move`]s one at a time;
    /// policies with a faster way (fill the board, then score once) override it.
    fn playout_recorded(
        &mut self,
        game: &mut G,
        rng: &mut Rng,
        meter: &mut Meter,
        record: &mut Vec<(Player, G::Move)>,
    ) -> Option<Outcome> {
        loop {
            if let Some(outcome) = game.outcome() {
                return Some(outcome);
            }
            if meter.poll() {
                return None;
            }
            let mover = game.to_move();
            let mv = game
                .random_move(rng)
                .expect("a game that is not over has a legal move");
            game.play(&mv);
            record.push((mover, mv));
        }
    }

    /// The winner with perfect play from `game` (not over), when the policy has an exact
    /// solver for such positions and it finishes within its own small budget; `None` for
    /// no verdict (too many moves left, a draw, the budget ran out). The MCTS-solver calls
    /// it on each new node with [`MctsConfig::leaf_solver`], proving subtrees instead of
    /// sampling them. None by default.
    fn solve_leaf(&mut self, _game: &G) -> Option<Player> {
        None
    }

    /// What the policy knows of `mv` before any playout: its expected reward in `[0, 1]`
    /// for the player making it in `game`, or `None` for nothing known. The search seeds a
    /// new child with it under [`MctsConfig::prior_visits`]. None by default.
    fn prior(&mut self, _game: &G, _mv: &G::Move) -> Option<f64> {
        None
    }

    /// A small number for `mv`, the same in every position (a cell's index), or `None`.
    /// With RAVE the search then finds where each move of a simulation was first played
    /// in a table indexed by it rather than a hash map (the AMAF update was a fifth of an
    /// Euler Getter iteration); the search is the same either way. None by default.
    fn move_slot(&self, _mv: &G::Move) -> Option<usize> {
        None
    }

    /// The children a node of `game` (not over) gets when the tree expands it, from the
    /// game's legal `moves`: a policy with game knowledge may keep fewer, a set that
    /// provably holds a best move (the cells that stop a threat), so the search spends
    /// nothing on the others. All of them by default.
    fn tree_moves(&mut self, _game: &G, moves: Vec<G::Move>) -> Vec<G::Move> {
        moves
    }
}

/// The game's own playout ([`Game::playout`]), uniformly random unless the game says
/// otherwise.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlayout;

impl<G: Game> PlayoutPolicy<G> for RandomPlayout {
    fn playout(&mut self, game: &mut G, rng: &mut Rng, meter: &mut Meter) -> Option<Outcome> {
        game.playout(rng, meter)
    }
}

/// When the search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    Iterations(u64),
    Time(Duration),
}

/// Tuning of the search. Build it with `..MctsConfig::default()` so that new options
/// keep their defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// The UCT exploration constant.
    pub exploration: f64,
    /// Weight in `[0, 1]` of the final margin in a playout's reward (0: win/loss only).
    pub score_weight: f64,
    /// The margin that counts as a full score reward; larger margins are clipped.
    pub score_scale: f64,
    /// RAVE equivalence parameter `k` (0 disables RAVE). A move's value blends its own
    /// mean with its all-moves-as-first mean, the latter weighted by
    /// `sqrt(k / (3n + k))` after `n` visits. With RAVE on, a node creates all its
    /// children when first expanded, so that unvisited moves are ranked by their AMAF
    /// values. Pays off where a move's value hardly depends on when it is played, as in
    /// Hex-like games.
    pub rave_equivalence: f64,
    /// MCTS-solver: mark subtrees proven won or lost (win/loss results only), never
    /// select a proven-lost move while another remains, play a proven win at once, and
    /// stop searching once the root is proven.
    pub prove: bool,
    /// Keep the tree between searches: a search from a position the last search's tree
    /// reaches within two moves (the agent's own move and the reply) starts from that
    /// subtree and its statistics. With more than one thread, each of the searches keeps
    /// its own tree (and its random stream) and continues its own subtree.
    pub reuse_tree: bool,
    /// With `prove`: ask the playout policy's exact solver about every new node
    /// ([`PlayoutPolicy::solve_leaf`]) and mark it proven when it answers.
    pub leaf_solver: bool,
    /// Searches run at once, each on a thread of its own with its share of the iterations
    /// and the memory and a seed of its own, their root statistics added up (root
    /// parallelism). 1: one search. Iteration budgets reproduce exactly with any count.
    /// With [`MctsConfig::reuse_tree`] the searches are kept between moves, each with its
    /// own tree. [`with_search_threads`] sets it for the searches a host builds.
    pub threads: usize,
    /// With RAVE: all-moves-as-first visits that a new child starts with, at the value of
    /// the playout policy's [`PlayoutPolicy::prior`] (0: none). Unvisited moves are then
    /// ranked by the policy's knowledge rather than all alike, and the prior fades as
    /// real AMAF statistics accumulate; the root's ranking (real visits) is untouched.
    pub prior_visits: f64,
    /// With RAVE: visits a node other than the root takes before it creates its children
    /// (0 or 1: at its second visit). Until then it stays a leaf and the playout starts
    /// there, so that the many nodes seen once or twice cost no tree memory and no
    /// expansion.
    pub expansion_visits: u32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: 0.7,
            score_weight: 0.0,
            score_scale: 1.0,
            rave_equivalence: 0.0,
            prove: false,
            reuse_tree: false,
            leaf_solver: false,
            threads: 1,
            prior_visits: 0.0,
            expansion_visits: 0,
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

    fn rave(&self) -> bool {
        self.rave_equivalence > 0.0
    }
}

#[derive(Clone)]
struct Node<M> {
    mv: Option<M>,
    parent: Option<usize>,
    children: Vec<usize>,
    untried: Vec<M>,
    /// Whether `to_move`, `untried` and `proven` have been filled in from the position
    /// (RAVE creates children before their positions are visited).
    entered: bool,
    /// Whether the tree was full when the node was entered, so that its moves were not
    /// listed: it stays a leaf and never counts as having every move tried.
    truncated: bool,
    /// Whether every legal move has a child (RAVE mode).
    expanded: bool,
    /// The player who made `mv`; rewards are stored from this player's point of view.
    mover: Player,
    /// The player to move in this node's position.
    to_move: Player,
    visits: f64,
    reward: f64,
    amaf_visits: f64,
    amaf_reward: f64,
    /// The selection's value of this move before its exploration term
    /// ([`Node::exploitation`]), kept up to date whenever the statistics change: the
    /// selection reads it for every child, far more often than the statistics change.
    exploitation: f64,
    /// The winner with perfect play from here, once proven (MCTS-solver).
    proven: Option<Player>,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, parent: Option<usize>, mover: Player) -> Self {
        Node {
            mv,
            parent,
            children: Vec::new(),
            untried: Vec::new(),
            entered: false,
            truncated: false,
            expanded: false,
            mover,
            to_move: mover.opponent(),
            visits: 0.0,
            reward: 0.0,
            amaf_visits: 0.0,
            amaf_reward: 0.0,
            exploitation: 1.0,
            proven: None,
        }
    }

    /// The move's value without exploration, for RAVE equivalence `k`: its mean reward,
    /// blended with its all-moves-as-first mean under RAVE. An unvisited move (only RAVE
    /// leaves children unvisited) is ranked by its AMAF mean, an optimistic 1 without one.
    fn exploitation(&self, k: f64) -> f64 {
        if self.visits == 0.0 {
            return if self.amaf_visits > 0.0 {
                self.amaf_reward / self.amaf_visits
            } else {
                1.0
            };
        }
        let mean = self.reward / self.visits;
        if k > 0.0 && self.amaf_visits > 0.0 {
            let beta = (k / (3.0 * self.visits + k)).sqrt();
            (1.0 - beta) * mean + beta * self.amaf_reward / self.amaf_visits
        } else {
            mean
        }
    }
}

/// Statistics of one root move after a search.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats<M> {
    pub mv: M,
    pub visits: u64,
    /// Mean reward for the player making the move.
    pub mean_reward: f64,
    /// The winner after this move with perfect play, when the MCTS-solver proved it.
    pub proven_winner: Option<Player>,
}

/// A UCT searcher usable as an [`Agent`].
pub struct Mcts<G: Game, P: PlayoutPolicy<G> = RandomPlayout> {
    pub config: MctsConfig,
    pub limit: SearchLimit,
    policy: P,
    rng: Rng,
    /// Bytes the tree of the last search took.
    tree_bytes: usize,
    /// The last search's root and tree, kept with `reuse_tree`.
    kept: Option<(G, Tree<G::Move>)>,
    /// The searches of the last parallel search, kept with `reuse_tree` (each with its own
    /// tree and random stream), so that the next parallel search continues them.
    workers: Vec<Mcts<G, P>>,
    _game: std::marker::PhantomData<fn(G)>,
}

impl<G: Game> Mcts<G, RandomPlayout> {
    pub fn new(limit: SearchLimit, config: MctsConfig, seed: u64) -> Self {
        Mcts::with_policy(limit, config, RandomPlayout, seed)
    }
}

impl<G: Game, P: PlayoutPolicy<G> + Clone> Mcts<G, P> {
    pub fn with_policy(limit: SearchLimit, config: MctsConfig, policy: P, seed: u64) -> Self {
        Mcts {
            config: MctsConfig {
                threads: SEARCH_THREADS.get().unwrap_or(config.threads),
                ..config
            },
            limit,
            policy,
            rng: Rng::new(seed),
            tree_bytes: 0,
            kept: None,
            workers: Vec::new(),
            _game: std::marker::PhantomData,
        }
    }

    /// Searches from `root` within the search limit and `budget`, and returns the
    /// statistics of every root move: a proven win first, then most visited first, proven
    /// losses last. At least one iteration runs. Once the tree holds the budget's memory
    /// (see `Tree`) it stops growing and the iterations go on from its leaves.
    pub fn search(&mut self, root: &G, budget: &Budget) -> Vec<MoveStats<G::Move>> {
        if self.config.threads > 1 {
            return self.search_in_parallel(root, budget);
        }
        self.workers.clear();
        let budget = match self.limit {
            SearchLimit::Iterations(n) => budget.within(&Budget::nodes(n.max(1))),
            SearchLimit::Time(t) => budget.within(&Budget::time(t)),
        };
        let mut meter = budget.meter();
        let max_bytes = budget.max_memory.unwrap_or(usize::MAX);
        let mut tree = match self.reused_tree(root) {
            Some(tree) => Tree { max_bytes, ..tree },
            None => {
                let mut tree = Tree {
                    nodes: vec![Node::new(None, None, root.to_move().opponent())],
                    bytes: 0,
                    max_bytes,
                };
                tree.enter(0, root, &self.config, || {
                    self.policy.tree_moves(root, root.legal_moves())
                });
                tree
            }
        };
        let mut path = Vec::new();
        let mut record: Vec<(Player, G::Move)> = Vec::new();
        let mut first_played = FirstPlays::default();
        let mut iterations = 0u64;
        loop {
            // At least one iteration, so that there is a move to play.
            if meter.tick() && iterations > 0 {
                break;
            }
            iterations += 1;
            let mut state = root.clone();
            path.clear();
            record.clear();
            path.push(0);
            let node = self.descend(&mut tree, &mut state, &mut path, &mut record);
            self.solve_new_leaf(&mut tree.nodes[node], node, &state);
            let nodes = &mut tree.nodes;
            let outcome = match (state.outcome(), nodes[node].proven) {
                (Some(o), _) => Some(o),
                (None, Some(winner)) if self.config.prove => Some(Outcome::win(winner)),
                (None, _) if self.config.rave() => {
                    self.policy
                        .playout_recorded(&mut state, &mut self.rng, &mut meter, &mut record)
                }
                (None, _) => self.policy.playout(&mut state, &mut self.rng, &mut meter),
            };
            // A playout cut short by the budget counts for nothing.
            let Some(outcome) = outcome else {
                break;
            };
            for &n in &path {
                let node = &mut nodes[n];
                node.visits += 1.0;
                node.reward += self.config.reward(&outcome, node.mover);
                node.exploitation = node.exploitation(self.config.rave_equivalence);
            }
            if self.config.rave() {
                self.update_amaf(nodes, &path, &record, &outcome, &mut first_played);
            }
            if self.config.prove && nodes[node].proven.is_some() {
                propagate_proof(nodes, node);
            }
            if self.config.prove && nodes[0].proven.is_some() {
                break;
            }
        }
        self.tree_bytes = tree.bytes;
        let stats = root_stats(&tree, root.to_move());
        if self.config.reuse_tree {
            self.kept = Some((root.clone(), tree));
        }
        stats
    }

    /// The subtree of the kept tree at `root`, when `root` is the kept root or a position
    /// one or two moves below it that the tree reached (same hash, same player to move).
    fn reused_tree(&mut self, root: &G) -> Option<Tree<G::Move>> {
        let (kept_root, tree) = self.kept.take()?;
        let matches = |state: &G| {
            state.position_hash() == root.position_hash() && state.to_move() == root.to_move()
        };
        if matches(&kept_root) {
            return Some(tree);
        }
        for &child in &tree.nodes[0].children {
            let mut after = kept_root.clone();
            after.play(tree.nodes[child].mv.as_ref()?);
            if matches(&after) {
                return Some(tree.subtree(child));
            }
            for &grandchild in &tree.nodes[child].children {
                let mut state = after.clone();
                state.play(tree.nodes[grandchild].mv.as_ref()?);
                if matches(&state) {
                    return Some(tree.subtree(grandchild));
                }
            }
        }
        None
    }
}

/// The statistics of every root move of a finished search, ranked (see [`rank`]).
fn root_stats<M: Clone>(tree: &Tree<M>, mover: Player) -> Vec<MoveStats<M>> {
    let nodes = &tree.nodes;
    let mut stats: Vec<MoveStats<M>> = nodes[0]
        .children
        .iter()
        .filter(|&&c| nodes[c].visits > 0.0 || nodes[c].proven.is_some())
        .map(|&c| MoveStats {
            mv: nodes[c].mv.clone().expect("children carry moves"),
            visits: nodes[c].visits as u64,
            mean_reward: nodes[c].reward / nodes[c].visits.max(1.0),
            proven_winner: nodes[c].proven,
        })
        .collect();
    rank(&mut stats, mover);
    stats
}

impl<G: Game, P: PlayoutPolicy<G> + Clone> Mcts<G, P> {
    /// Root parallelism: `threads` searches with a share of the iterations and memory each
    /// and seeds derived from this searcher's, on threads of their own; a move's visits and
    /// rewards are added up over them, a proof found by any of them holds. With
    /// `reuse_tree` the searches (their seeds drawn once) are kept for the next call, each
    /// continuing from its own kept tree; without it every call starts new ones.
    fn search_in_parallel(&mut self, root: &G, budget: &Budget) -> Vec<MoveStats<G::Move>> {
        let threads = self.config.threads;
        let share = |n: u64| n.div_ceil(threads as u64).max(1);
        let limit = match self.limit {
            SearchLimit::Iterations(n) => SearchLimit::Iterations(share(n)),
            time => time,
        };
        let budget = Budget {
            max_nodes: budget.max_nodes.map(share),
            max_memory: budget.max_memory.map(|bytes| bytes / threads),
            ..budget.clone()
        };
        let config = MctsConfig {
            threads: 1,
            ..self.config
        };
        let mut searchers = std::mem::take(&mut self.workers);
        if !config.reuse_tree || searchers.len() != threads {
            let seed = self.rng.next_u64();
            // One thread each, even inside a host's `with_search_threads`.
            searchers = with_search_threads(1, || {
                (0..threads)
                    .map(|k| {
                        Mcts::with_policy(
                            limit,
                            config,
                            self.policy.clone(),
                            Rng::derive(seed, k as u64),
                        )
                    })
                    .collect()
            });
        }
        let results: Vec<(Vec<MoveStats<G::Move>>, usize)> = std::thread::scope(|scope| {
            let handles: Vec<_> = searchers
                .iter_mut()
                .map(|searcher| {
                    let budget = &budget;
                    searcher.limit = limit;
                    searcher.config = config;
                    scope.spawn(move || (searcher.search(root, budget), searcher.tree_bytes))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a search thread does not panic"))
                .collect()
        });
        if config.reuse_tree {
            self.workers = searchers;
        }
        self.tree_bytes = results.iter().map(|(_, bytes)| bytes).sum();
        let mut merged: Vec<MoveStats<G::Move>> = Vec::new();
        for (stats, _) in results {
            for s in stats {
                match merged.iter_mut().find(|m| m.mv == s.mv) {
                    Some(m) => {
                        let visits = m.visits + s.visits;
                        m.mean_reward = (m.mean_reward * m.visits as f64
                            + s.mean_reward * s.visits as f64)
                            / (visits.max(1) as f64);
                        m.visits = visits;
                        m.proven_winner = m.proven_winner.or(s.proven_winner);
                    }
                    None => merged.push(s),
                }
            }
        }
        rank(&mut merged, root.to_move());
        merged
    }

    /// With the leaf solver: asks the policy's solver once about a new node other than
    /// the root (a proven root would leave no move to rank), the position not over.
    fn solve_new_leaf(&mut self, leaf: &mut Node<G::Move>, id: usize, state: &G) {
        if self.config.prove
            && self.config.leaf_solver
            && id != 0
            && leaf.visits == 0.0
            && leaf.proven.is_none()
            && state.outcome().is_none()
        {
            leaf.proven = self.policy.solve_leaf(state);
        }
    }

    /// Bytes the tree of the last search took (its nodes and listed moves).
    pub fn last_tree_bytes(&self) -> usize {
        self.tree_bytes
    }

    /// Walks from the root to a leaf, expanding one node; returns the leaf, with `path`
    /// and `record` holding the nodes and moves on the way.
    fn descend(
        &mut self,
        tree: &mut Tree<G::Move>,
        state: &mut G,
        path: &mut Vec<usize>,
        record: &mut Vec<(Player, G::Move)>,
    ) -> usize {
        let mut node = 0;
        loop {
            let nodes = &tree.nodes;
            if (self.config.prove && nodes[node].proven.is_some()) || state.outcome().is_some() {
                return node;
            }
            let next = if self.config.rave() {
                if !nodes[node].expanded {
                    // The root always expands: a search must have moves to rank.
                    if node != 0 && nodes[node].visits < f64::from(self.config.expansion_visits) {
                        return node;
                    }
                    let moves = self.policy.tree_moves(state, state.legal_moves());
                    if node != 0 && !tree.fits(moves.len()) {
                        return node;
                    }
                    tree.nodes[node].expanded = true;
                    tree.nodes[node].children.reserve_exact(moves.len());
                    for mv in moves {
                        let prior = if self.config.prior_visits > 0.0 {
                            self.policy.prior(state, &mv)
                        } else {
                            None
                        };
                        let id = tree.add_child(node, mv);
                        let child = &mut tree.nodes[id];
                        if let Some(value) = prior {
                            child.amaf_visits = self.config.prior_visits;
                            child.amaf_reward = self.config.prior_visits * value;
                            child.exploitation = child.exploitation(self.config.rave_equivalence);
                        }
                    }
                }
                self.select_child(&tree.nodes, node)
            } else if !nodes[node].untried.is_empty() && tree.fits(1) {
                let pick = self.rng.below(nodes[node].untried.len());
                let mv = tree.nodes[node].untried.swap_remove(pick);
                tree.add_child(node, mv)
            } else if nodes[node].children.is_empty() {
                return node;
            } else {
                self.select_child(nodes, node)
            };
            let nodes = &mut tree.nodes;
            let mv = nodes[next].mv.clone().expect("children carry moves");
            record.push((nodes[next].mover, mv.clone()));
            state.play(&mv);
            tree.enter(next, state, &self.config, || {
                self.policy.tree_moves(state, state.legal_moves())
            });
            path.push(next);
            let fresh = tree.nodes[next].visits == 0.0;
            node = next;
            if fresh {
                return node;
            }
        }
    }

    /// Credits every sibling move that its player made later in the same simulation
    /// (all moves as first): a child of the node at depth `d` is updated when its move
    /// was first played at ply `d` or later, by the child's mover.
    fn update_amaf(
        &self,
        nodes: &mut [Node<G::Move>],
        path: &[usize],
        record: &[(Player, G::Move)],
        outcome: &Outcome,
        first_played: &mut FirstPlays<G::Move>,
    ) {
        first_played.fill(&self.policy, record);
        let rewards = Player::BOTH.map(|p| self.config.reward(outcome, p));
        for (depth, &n) in path.iter().enumerate() {
            for i in 0..nodes[n].children.len() {
                let c = nodes[n].children[i];
                let child = &mut nodes[c];
                let mv = child.mv.as_ref().expect("children carry moves");
                if let Some((ply, player)) = first_played.get(&self.policy, mv)
                    && ply >= depth
                    && player == child.mover
                {
                    child.amaf_visits += 1.0;
                    child.amaf_reward += rewards[child.mover.index()];
                    child.exploitation = child.exploitation(self.config.rave_equivalence);
                }
            }
        }
        first_played.clear(&self.policy, record);
    }

    /// The child to descend into: UCT, blended with AMAF under RAVE; proven losses for
    /// the mover are skipped while another child remains.
    fn select_child(&self, nodes: &[Node<G::Move>], node: usize) -> usize {
        let parent = &nodes[node];
        let log_parent = parent.visits.max(1.0).ln();
        let c = self.config.exploration;
        // An unvisited child explores as if visited once: one term for all of them.
        let unvisited_exploration = c * log_parent.sqrt();
        let lost = |n: &Node<G::Move>| self.config.prove && n.proven == Some(n.mover.opponent());
        let value = |n: &Node<G::Move>| {
            if n.visits == 0.0 {
                return n.exploitation + unvisited_exploration;
            }
            n.exploitation + c * (log_parent / n.visits).sqrt()
        };
        let best = |skip_lost: bool| {
            parent
                .children
                .iter()
                .copied()
                .filter(|&ch| !(skip_lost && lost(&nodes[ch])))
                // Each child's value once (max_by on the values alone would compute it
                // twice per comparison: the selection was a third of an iteration).
                .map(|ch| (value(&nodes[ch]), ch))
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, ch)| ch)
        };
        best(true)
            .or_else(|| best(false))
            .expect("selection only runs on nodes with children")
    }
}

/// Where each move of one simulation was first played, and by whom: in a table indexed
/// by the policy's [`PlayoutPolicy::move_slot`] when it numbers every move played, else
/// in a hash map.
struct FirstPlays<M> {
    by_slot: Vec<Option<(usize, Player)>>,
    by_move: FxHashMap<M, (usize, Player)>,
    /// Whether the last [`FirstPlays::fill`] used the table.
    by_slot_filled: bool,
}

impl<M> Default for FirstPlays<M> {
    fn default() -> Self {
        FirstPlays {
            by_slot: Vec::new(),
            by_move: FxHashMap::default(),
            by_slot_filled: false,
        }
    }
}

impl<M: Clone + Eq + std::hash::Hash> FirstPlays<M> {
    /// Records the first play of each move of `record` (the table is empty on entry).
    fn fill<G: Game<Move = M>>(&mut self, policy: &impl PlayoutPolicy<G>, record: &[(Player, M)]) {
        self.by_slot_filled = true;
        for (ply, (player, mv)) in record.iter().enumerate() {
            let Some(slot) = policy.move_slot(mv) else {
                self.clear(policy, record);
                self.by_slot_filled = false;
                break;
            };
            if slot >= self.by_slot.len() {
                self.by_slot.resize(slot + 1, None);
            }
            self.by_slot[slot].get_or_insert((ply, *player));
        }
        if !self.by_slot_filled {
            self.by_move.clear();
            for (ply, (player, mv)) in record.iter().enumerate() {
                self.by_move.entry(mv.clone()).or_insert((ply, *player));
            }
        }
    }

    /// The ply at which `mv` was first played and the player who played it.
    fn get<G: Game<Move = M>>(
        &self,
        policy: &impl PlayoutPolicy<G>,
        mv: &M,
    ) -> Option<(usize, Player)> {
        if self.by_slot_filled {
            self.by_slot.get(policy.move_slot(mv)?).copied().flatten()
        } else {
            self.by_move.get(mv).copied()
        }
    }

    /// Empties the table again, touching only the slots of `record`'s moves.
    fn clear<G: Game<Move = M>>(&mut self, policy: &impl PlayoutPolicy<G>, record: &[(Player, M)]) {
        for (_, mv) in record {
            if let Some(entry) = policy
                .move_slot(mv)
                .and_then(|slot| self.by_slot.get_mut(slot))
            {
                *entry = None;
            }
        }
    }
}

/// Orders root moves: a proven win for `mover` first, then most visited first (the best
/// mean reward among equals), proven losses last.
fn rank<M>(stats: &mut [MoveStats<M>], mover: Player) {
    let class = |s: &MoveStats<M>| match s.proven_winner {
        Some(w) if w == mover => 0,
        Some(_) => 2,
        None => 1,
    };
    stats.sort_by(|a, b| {
        class(a)
            .cmp(&class(b))
            .then(b.visits.cmp(&a.visits))
            .then(b.mean_reward.total_cmp(&a.mean_reward))
    });
}

/// The search tree, and the bytes its nodes and listed moves take.
struct Tree<M> {
    nodes: Vec<Node<M>>,
    bytes: usize,
    max_bytes: usize,
}

impl<M: Clone> Tree<M> {
    /// Bytes a node takes, with its place in its parent's list of children.
    const NODE_BYTES: usize = size_of::<Node<M>>() + size_of::<usize>();

    /// Whether `children` more nodes fit the memory cap.
    fn fits(&self, children: usize) -> bool {
        self.fits_bytes(children.saturating_mul(Self::NODE_BYTES))
    }

    fn fits_bytes(&self, bytes: usize) -> bool {
        self.bytes.saturating_add(bytes) <= self.max_bytes
    }

    /// The subtree below `top`, as a tree of its own (its nodes renumbered, `top` the root).
    fn subtree(&self, top: usize) -> Tree<M> {
        let mut nodes: Vec<Node<M>> = Vec::new();
        let mut order = vec![(top, None)];
        let mut bytes = 0;
        while let Some((old, parent)) = order.pop() {
            let id = nodes.len();
            let mut node = self.nodes[old].clone();
            bytes += Self::NODE_BYTES + node.untried.len() * size_of::<M>();
            node.parent = parent;
            let children = std::mem::take(&mut node.children);
            nodes.push(node);
            if let Some(p) = parent {
                nodes[p].children.push(id);
            }
            order.extend(children.into_iter().rev().map(|c| (c, Some(id))));
        }
        nodes[0].mv = None;
        Tree {
            nodes,
            bytes,
            max_bytes: self.max_bytes,
        }
    }

    fn add_child(&mut self, parent: usize, mv: M) -> usize {
        let mover = self.nodes[parent].to_move;
        self.nodes.push(Node::new(Some(mv), Some(parent), mover));
        self.bytes += Self::NODE_BYTES;
        let id = self.nodes.len() - 1;
        self.nodes[parent].children.push(id);
        id
    }

    /// Fills in a node from its position the first time the search reaches it (its moves
    /// from `tree_moves`); a node whose moves do not fit the memory cap any more stays a leaf.
    fn enter<G: Game<Move = M>>(
        &mut self,
        id: usize,
        state: &G,
        config: &MctsConfig,
        tree_moves: impl FnOnce() -> Vec<M>,
    ) {
        if self.nodes[id].entered {
            return;
        }
        let node = &mut self.nodes[id];
        node.entered = true;
        node.to_move = state.to_move();
        match state.outcome() {
            Some(outcome) if config.prove => node.proven = outcome.winner,
            None if !config.rave() => {
                let moves = tree_moves();
                let bytes = moves.len() * size_of::<M>();
                // The root always lists its moves: a search must have moves to rank.
                if id == 0 || self.fits_bytes(bytes + Self::NODE_BYTES) {
                    self.nodes[id].untried = moves;
                    self.bytes += bytes;
                } else {
                    self.nodes[id].truncated = true;
                }
            }
            _ => {}
        }
    }
}

/// MCTS-solver: after `leaf` was proven, marks its ancestors proven where that follows (the
/// player to move has a proven-won child, or every move is proven lost for it).
fn propagate_proof<M>(nodes: &mut [Node<M>], leaf: usize) {
    let mut at = nodes[leaf].parent;
    while let Some(n) = at {
        if nodes[n].proven.is_some() {
            return;
        }
        let to_move = nodes[n].to_move;
        let children = &nodes[n].children;
        let complete = nodes[n].untried.is_empty() && !nodes[n].truncated && !children.is_empty();
        let proven = if children.iter().any(|&c| nodes[c].proven == Some(to_move)) {
            Some(to_move)
        } else if complete
            && children
                .iter()
                .all(|&c| nodes[c].proven == Some(to_move.opponent()))
        {
            Some(to_move.opponent())
        } else {
            None
        };
        if proven.is_none() {
            return;
        }
        nodes[n].proven = proven;
        at = nodes[n].parent;
    }
}

impl<G: Game, P: PlayoutPolicy<G> + Clone> Agent<G> for Mcts<G, P> {
    fn name(&self) -> String {
        match self.limit {
            SearchLimit::Iterations(n) => format!("mcts:{n}"),
            SearchLimit::Time(t) => format!("mcts:{}ms", t.as_millis()),
        }
    }

    fn choose(&mut self, game: &G, budget: &Budget) -> Option<G::Move> {
        if game.outcome().is_some() {
            return None;
        }
        match self.search(game, budget).into_iter().next() {
            Some(best) => Some(best.mv),
            // Stopped before any playout ended: still a legal move.
            None => game.random_move(&mut self.rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impartial::NormalPlay;
    use crate::nim::Nim;
    use crate::solver::Budget;
    use crate::solver::Solver;

    fn nim(heaps: &[u32]) -> NormalPlay<Nim> {
        NormalPlay::new(Nim::new(heaps.to_vec()))
    }

    fn configs() -> [MctsConfig; 4] {
        let base = MctsConfig::default();
        [
            base,
            MctsConfig {
                rave_equivalence: 300.0,
                ..base
            },
            MctsConfig {
                prove: true,
                ..base
            },
            MctsConfig {
                rave_equivalence: 300.0,
                prove: true,
                ..base
            },
        ]
    }

    #[test]
    fn every_option_finds_the_winning_nim_move() {
        let game = nim(&[2, 6]);
        // The only winning move leaves 2 2.
        let winning = Solver::new(Budget::unlimited()).solve(&game).unwrap();
        for config in configs() {
            let mut mcts = Mcts::new(SearchLimit::Iterations(3_000), config, 5);
            let mv = mcts.choose(&game, &Budget::unlimited()).unwrap();
            assert!(winning.best_moves.contains(&mv), "{config:?}: {mv:?}");
        }
    }

    #[test]
    fn the_solver_proves_small_positions_and_stops() {
        let mut mcts = Mcts::new(
            SearchLimit::Iterations(100_000),
            MctsConfig {
                prove: true,
                ..MctsConfig::default()
            },
            1,
        );
        let stats = mcts.search(&nim(&[2, 3]), &Budget::unlimited());
        let total: u64 = stats.iter().map(|s| s.visits).sum();
        assert!(total < 100_000, "the search stops once the root is proven");
        assert_eq!(stats[0].proven_winner, Some(Player::X));
        // Every proven move agrees with the exact solver.
        for s in &stats {
            if let Some(winner) = s.proven_winner {
                let mut child = nim(&[2, 3]);
                child.play(&s.mv);
                let value = crate::solver::brute_force_value(&child);
                let expected = if value > 0 {
                    child.to_move()
                } else {
                    child.to_move().opponent()
                };
                assert_eq!(winner, expected, "{:?}", s.mv);
            }
        }
    }

    #[test]
    fn the_tree_stays_within_its_memory_and_still_answers() {
        // 20 heaps of 30: 600 moves at the root, a wide tree at every node.
        let game = nim(&[30; 20]);
        for config in configs() {
            let cap = 512 * 1024;
            let mut mcts = Mcts::new(SearchLimit::Iterations(1_500), config, 9);
            let stats = mcts.search(&game, &Budget::unlimited().with_memory(cap));
            assert!(!stats.is_empty(), "{config:?}");
            let bytes = mcts.last_tree_bytes();
            assert!(cap / 2 < bytes && bytes <= cap, "{config:?}: {bytes} bytes");
            let total: u64 = stats.iter().map(|s| s.visits).sum();
            assert_eq!(total, 1_500, "the iterations go on once the tree is full");
        }
    }

    #[test]
    fn root_parallel_searches_reproduce_and_find_the_winning_move() {
        let game = nim(&[2, 6]);
        let winning = Solver::new(Budget::unlimited()).solve(&game).unwrap();
        for config in configs() {
            let parallel = MctsConfig {
                threads: 2,
                ..config
            };
            let search = |seed| {
                Mcts::new(SearchLimit::Iterations(4_000), parallel, seed)
                    .search(&game, &Budget::unlimited())
            };
            let (first, again) = (search(11), search(11));
            assert_eq!(first, again, "{parallel:?}: a seed gives the same search");
            let visits: u64 = first.iter().map(|s| s.visits).sum();
            assert!(visits <= 4_000, "the iterations are shared: {visits}");
            assert!(winning.best_moves.contains(&first[0].mv), "{parallel:?}");
        }
    }

    #[test]
    fn a_host_sets_the_threads_of_the_searches_it_builds() {
        let game = nim(&[2, 6]);
        let build = || Mcts::new(SearchLimit::Iterations(2_000), MctsConfig::default(), 3);
        assert_eq!(build().config.threads, 1);
        // Built and searched inside the scope: the parallel search's own searchers stay
        // on one thread each.
        let (threads, stats) = with_search_threads(2, || {
            let mut mcts = build();
            (
                mcts.config.threads,
                mcts.search(&game, &Budget::unlimited()),
            )
        });
        assert_eq!(threads, 2);
        let parallel = MctsConfig {
            threads: 2,
            ..MctsConfig::default()
        };
        let direct = Mcts::new(SearchLimit::Iterations(2_000), parallel, 3)
            .search(&game, &Budget::unlimited());
        assert_eq!(stats, direct);
        assert_eq!(build().config.threads, 1, "the scope ends with its closure");
        let unwound = std::panic::catch_unwind(|| with_search_threads(2, || panic!("build")));
        assert!(unwound.is_err());
        assert_eq!(
            build().config.threads,
            1,
            "the scope ends when its closure panics"
        );
    }

    /// Plays `mv` and the reply a small search likes best: the reply a searcher's tree
    /// likely looked at most, so that its subtree is there for the next search.
    fn play_and_reply(game: &mut NormalPlay<Nim>, mv: &<NormalPlay<Nim> as Game>::Move) {
        game.play(mv);
        let reply = Mcts::new(SearchLimit::Iterations(500), MctsConfig::default(), 1)
            .search(game, &Budget::unlimited())[0]
            .mv;
        game.play(&reply);
    }

    #[test]
    fn a_kept_tree_carries_its_statistics_to_the_next_move() {
        for (reuse_tree, threads) in [(false, 1), (true, 1), (false, 2), (true, 2)] {
            let config = MctsConfig {
                reuse_tree,
                threads,
                ..MctsConfig::default()
            };
            let mut mcts = Mcts::new(SearchLimit::Iterations(3_000), config, 4);
            let mut game = nim(&[3, 4, 5]);
            let first = mcts.search(&game, &Budget::unlimited());
            play_and_reply(&mut game, &first[0].mv);
            // One iteration on each thread.
            mcts.limit = SearchLimit::Iterations(threads as u64);
            let next = mcts.search(&game, &Budget::unlimited());
            let visits: u64 = next.iter().map(|s| s.visits).sum();
            assert_eq!(visits > threads as u64, reuse_tree, "{config:?}: {visits}");
            // The same position again (no move played): the whole tree is kept.
            let again = mcts.search(&game, &Budget::unlimited());
            let more: u64 = again.iter().map(|s| s.visits).sum();
            let kept = if reuse_tree { visits } else { 0 };
            assert_eq!(more, kept + threads as u64, "{config:?}");
        }
    }

    /// The searches of several threads are kept with the tree and only then: each keeps its
    /// own tree within its share of the memory.
    #[test]
    fn parallel_searches_are_kept_with_the_tree_only() {
        let game = nim(&[30; 20]);
        let cap = 512 * 1024;
        for reuse_tree in [false, true] {
            let config = MctsConfig {
                reuse_tree,
                threads: 2,
                ..MctsConfig::default()
            };
            let mut mcts = Mcts::new(SearchLimit::Iterations(3_000), config, 9);
            mcts.search(&game, &Budget::unlimited().with_memory(cap));
            assert!(
                mcts.kept.is_none(),
                "the parallel search keeps no tree itself"
            );
            assert_eq!(mcts.workers.len(), if reuse_tree { 2 } else { 0 });
            for worker in &mcts.workers {
                let (_, tree) = worker.kept.as_ref().expect("each search keeps its tree");
                assert!(
                    tree.bytes > cap / 4,
                    "the tree fills its share: {}",
                    tree.bytes
                );
                assert!(tree.bytes <= cap / 2, "within its share: {}", tree.bytes);
            }
            // Back to one thread: the kept searches go.
            mcts.config.threads = 1;
            mcts.search(&game, &Budget::unlimited());
            assert!(mcts.workers.is_empty());
        }
    }

    /// A seeded search with a kept tree plays the same moves on every run, on one thread
    /// or two, over several moves.
    #[test]
    fn kept_trees_reproduce_over_moves() {
        for threads in [1, 2] {
            let config = MctsConfig {
                reuse_tree: true,
                rave_equivalence: 300.0,
                prove: true,
                threads,
                ..MctsConfig::default()
            };
            let play_three_moves = || {
                let mut mcts = Mcts::new(SearchLimit::Iterations(2_000), config, 7);
                let mut game = nim(&[6, 7, 8, 9, 10]);
                let mut searches = Vec::new();
                for _ in 0..3 {
                    let stats = mcts.search(&game, &Budget::unlimited());
                    play_and_reply(&mut game, &stats[0].mv);
                    searches.push(stats);
                }
                searches
            };
            let (first, again) = (play_three_moves(), play_three_moves());
            let visits: u64 = first[1].iter().map(|s| s.visits).sum();
            assert!(
                visits > 2_000,
                "{threads} threads: the tree was kept ({visits})"
            );
            assert_eq!(
                first, again,
                "{threads} threads: a seed gives the same searches"
            );
        }
    }

    #[test]
    fn a_cancelled_search_stops_and_still_answers() {
        let cancel = crate::budget::Cancel::new();
        cancel.cancel();
        let mut mcts = Mcts::new(SearchLimit::Iterations(1_000_000), MctsConfig::default(), 1);
        let mv = mcts.choose(&nim(&[5, 6, 7]), &Budget::unlimited().with_cancel(cancel));
        assert!(mv.is_some());
        assert!(mcts.last_tree_bytes() > 0);
    }

    /// A game whose playouts never end in practice: a trillion forced moves.
    #[derive(Clone)]
    struct Countdown(u64);

    impl Game for Countdown {
        type Move = bool;
        fn to_move(&self) -> Player {
            if self.0.is_multiple_of(2) {
                Player::X
            } else {
                Player::O
            }
        }
        fn legal_moves(&self) -> Vec<bool> {
            if self.0 == 0 {
                vec![]
            } else {
                vec![true, false]
            }
        }
        fn play(&mut self, _: &bool) {
            self.0 -= 1;
        }
        fn outcome(&self) -> Option<Outcome> {
            (self.0 == 0).then(|| Outcome::win(Player::X))
        }
        fn position_hash(&self) -> u64 {
            self.0
        }
    }

    #[test]
    fn a_time_limit_binds_inside_an_endless_playout() {
        for config in configs() {
            let mut mcts = Mcts::new(SearchLimit::Iterations(10), config, 1);
            let clock = std::time::Instant::now();
            let budget = Budget::time(Duration::from_millis(50));
            let mv = mcts.choose(&Countdown(1_000_000_000_000), &budget);
            assert!(mv.is_some(), "{config:?}: a move all the same");
            assert!(clock.elapsed() < Duration::from_secs(5), "{config:?}");
        }
        let mut flat = crate::agents::FlatMonteCarlo::new(100, 1);
        let budget = Budget::time(Duration::from_millis(50));
        assert!(
            flat.choose(&Countdown(1_000_000_000_000), &budget)
                .is_some()
        );
    }

    /// Random playouts, and the brute-force solver on positions of at most 4 tokens,
    /// counting its calls.
    #[derive(Clone, Default)]
    struct SmallNimSolver {
        calls: u64,
    }

    impl PlayoutPolicy<NormalPlay<Nim>> for SmallNimSolver {
        fn playout(
            &mut self,
            game: &mut NormalPlay<Nim>,
            rng: &mut Rng,
            meter: &mut Meter,
        ) -> Option<Outcome> {
            game.playout(rng, meter)
        }

        fn solve_leaf(&mut self, game: &NormalPlay<Nim>) -> Option<Player> {
            if game.position.heaps.iter().sum::<u32>() > 4 {
                return None;
            }
            self.calls += 1;
            let mover = game.to_move();
            Some(if crate::solver::brute_force_value(game) > 0 {
                mover
            } else {
                mover.opponent()
            })
        }
    }

    #[test]
    fn the_leaf_solver_proves_endgames_and_is_a_switch() {
        let game = nim(&[3, 4, 5]);
        let search = |leaf_solver: bool| {
            let config = MctsConfig {
                prove: true,
                leaf_solver,
                ..MctsConfig::default()
            };
            let mut mcts = Mcts::with_policy(
                SearchLimit::Iterations(20_000),
                config,
                SmallNimSolver::default(),
                3,
            );
            let stats = mcts.search(&game, &Budget::unlimited());
            (stats, mcts.policy.calls)
        };
        let (off, off_calls) = search(false);
        let (on, on_calls) = search(true);
        assert_eq!(off_calls, 0, "off, the solver is never asked");
        assert!(on_calls > 0);
        let visits = |stats: &[MoveStats<_>]| stats.iter().map(|s| s.visits).sum::<u64>();
        assert!(
            visits(&on) < visits(&off),
            "proven sooner: {} {}",
            visits(&on),
            visits(&off)
        );
        let winning = Solver::new(Budget::unlimited()).solve(&game).unwrap();
        assert_eq!(on[0].proven_winner, Some(Player::X));
        assert!(winning.best_moves.contains(&on[0].mv));
        for s in on.iter().filter(|s| s.proven_winner.is_some()) {
            let mut child = game.clone();
            child.play(&s.mv);
            let mover_wins = crate::solver::brute_force_value(&child) > 0;
            let expected = if mover_wins { Player::O } else { Player::X };
            assert_eq!(s.proven_winner, Some(expected), "{:?}", s.mv);
        }
    }

    /// Random playouts, and a prior that rates one move 1 and every other 0, counting
    /// the times it is asked.
    #[derive(Clone)]
    struct FavourOne {
        favourite: <NormalPlay<Nim> as Game>::Move,
        asked: u64,
    }

    impl PlayoutPolicy<NormalPlay<Nim>> for FavourOne {
        fn playout(
            &mut self,
            game: &mut NormalPlay<Nim>,
            rng: &mut Rng,
            meter: &mut Meter,
        ) -> Option<Outcome> {
            game.playout(rng, meter)
        }

        fn prior(
            &mut self,
            _game: &NormalPlay<Nim>,
            mv: &<NormalPlay<Nim> as Game>::Move,
        ) -> Option<f64> {
            self.asked += 1;
            Some(if *mv == self.favourite { 1.0 } else { 0.0 })
        }
    }

    /// Random playouts; every node's children cut to the first legal move, counting the
    /// nodes cut.
    #[derive(Clone, Default)]
    struct FirstMoveOnly {
        cut: u64,
    }

    impl PlayoutPolicy<NormalPlay<Nim>> for FirstMoveOnly {
        fn playout(
            &mut self,
            game: &mut NormalPlay<Nim>,
            rng: &mut Rng,
            meter: &mut Meter,
        ) -> Option<Outcome> {
            game.playout(rng, meter)
        }

        fn tree_moves(
            &mut self,
            _game: &NormalPlay<Nim>,
            mut moves: Vec<<NormalPlay<Nim> as Game>::Move>,
        ) -> Vec<<NormalPlay<Nim> as Game>::Move> {
            self.cut += 1;
            moves.truncate(1);
            moves
        }
    }

    #[test]
    fn the_policy_cuts_the_children_of_every_node() {
        let game = nim(&[3, 4, 5]);
        let first = game.legal_moves()[0];
        for config in configs() {
            let mut mcts = Mcts::with_policy(
                SearchLimit::Iterations(200),
                config,
                FirstMoveOnly::default(),
                3,
            );
            let stats = mcts.search(&game, &Budget::unlimited());
            assert_eq!(stats.len(), 1, "{config:?}");
            assert_eq!(stats[0].mv, first, "{config:?}");
            assert!(mcts.policy.cut > 1, "deeper nodes too: {config:?}");
        }
    }

    #[test]
    fn priors_seed_new_children_and_are_a_switch() {
        let game = nim(&[3, 4, 5]);
        let moves = game.legal_moves();
        for favourite in [moves[0], moves[moves.len() - 1]] {
            let search = |prior_visits: f64| {
                let config = MctsConfig {
                    rave_equivalence: 300.0,
                    prior_visits,
                    ..MctsConfig::default()
                };
                let policy = FavourOne {
                    favourite,
                    asked: 0,
                };
                let mut mcts = Mcts::with_policy(SearchLimit::Iterations(1), config, policy, 3);
                let stats = mcts.search(&game, &Budget::unlimited());
                (stats, mcts.policy.asked)
            };
            let (off, asked_off) = search(0.0);
            assert_eq!(asked_off, 0, "off, the prior is never asked");
            let (on, asked_on) = search(10.0);
            assert_eq!(asked_on, moves.len() as u64, "once per new child");
            // One iteration: the child with the best prior is the one tried.
            assert_eq!(on.len(), 1);
            assert_eq!(on[0].mv, favourite);
            assert_eq!(off.len(), 1);
        }
    }

    /// Random playouts, numbering Nim's moves for the AMAF table; with `gaps` every third
    /// number is withheld, so that the search falls back on its hash map for simulations
    /// that play such a move.
    #[derive(Clone)]
    struct NumberedMoves {
        gaps: bool,
    }

    impl PlayoutPolicy<NormalPlay<Nim>> for NumberedMoves {
        fn playout(
            &mut self,
            game: &mut NormalPlay<Nim>,
            rng: &mut Rng,
            meter: &mut Meter,
        ) -> Option<Outcome> {
            game.playout(rng, meter)
        }

        fn move_slot(&self, mv: &<NormalPlay<Nim> as Game>::Move) -> Option<usize> {
            let slot = mv.heap * 64 + mv.to as usize;
            (!(self.gaps && slot.is_multiple_of(3))).then_some(slot)
        }
    }

    #[test]
    fn numbered_moves_give_the_same_search_as_hashed_ones() {
        let game = nim(&[3, 4, 5]);
        for config in configs().into_iter().filter(MctsConfig::rave) {
            let hashed = Mcts::new(SearchLimit::Iterations(3_000), config, 7)
                .search(&game, &Budget::unlimited());
            for gaps in [false, true] {
                let numbered = Mcts::with_policy(
                    SearchLimit::Iterations(3_000),
                    config,
                    NumberedMoves { gaps },
                    7,
                )
                .search(&game, &Budget::unlimited());
                assert_eq!(numbered, hashed, "{config:?}, gaps {gaps}");
            }
        }
    }

    #[test]
    fn lazy_expansion_is_a_switch_and_saves_tree_memory() {
        let game = nim(&[2, 6]);
        let winning = Solver::new(Budget::unlimited()).solve(&game).unwrap();
        let search = |expansion_visits| {
            let config = MctsConfig {
                rave_equivalence: 300.0,
                expansion_visits,
                ..MctsConfig::default()
            };
            let mut mcts = Mcts::new(SearchLimit::Iterations(3_000), config, 5);
            let stats = mcts.search(&game, &Budget::unlimited());
            (stats, mcts.last_tree_bytes())
        };
        let (eager, eager_bytes) = search(0);
        assert_eq!(
            search(1).0,
            eager,
            "every node is visited once before it expands"
        );
        let (lazy, lazy_bytes) = search(8);
        assert!(
            lazy_bytes * 2 < eager_bytes,
            "{lazy_bytes} and {eager_bytes} bytes"
        );
        assert!(winning.best_moves.contains(&lazy[0].mv), "{:?}", lazy[0].mv);
    }

    #[test]
    fn a_lost_root_is_proven_lost() {
        let mut mcts = Mcts::new(
            SearchLimit::Iterations(50_000),
            MctsConfig {
                prove: true,
                rave_equivalence: 100.0,
                ..MctsConfig::default()
            },
            2,
        );
        let stats = mcts.search(&nim(&[1, 2, 3]), &Budget::unlimited());
        assert!(stats.iter().all(|s| s.proven_winner == Some(Player::O)));
    }

    /// The exploitation value each node keeps for the selection equals the value computed
    /// afresh from its statistics after a search, with and without RAVE, the solver and
    /// priors: no change of the statistics leaves it stale.
    #[test]
    fn the_kept_exploitation_values_match_the_statistics() {
        let game = nim(&[3, 4, 5, 6]);
        let with_priors = MctsConfig {
            rave_equivalence: 300.0,
            prior_visits: 10.0,
            ..MctsConfig::default()
        };
        for config in configs().into_iter().chain([with_priors]) {
            let config = MctsConfig {
                reuse_tree: true,
                ..config
            };
            let policy = FavourOne {
                favourite: game.legal_moves()[0],
                asked: 0,
            };
            let mut mcts = Mcts::with_policy(SearchLimit::Iterations(2_000), config, policy, 4);
            mcts.search(&game, &Budget::unlimited());
            let (_, tree) = mcts.kept.as_ref().expect("the tree is kept");
            assert!(tree.nodes.len() > 100, "{config:?}");
            for node in &tree.nodes {
                let fresh = node.exploitation(config.rave_equivalence);
                assert_eq!(node.exploitation.to_bits(), fresh.to_bits(), "{config:?}");
            }
        }
    }
}
