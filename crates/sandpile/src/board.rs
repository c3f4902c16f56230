//! The board: a graph with its toppling thresholds, its closed classes (the parts where a
//! cascade can run forever) and their period vectors, and toppling (abelian, or the seed's
//! reset rule) with exact detection of cascades that never stop.

use std::fmt;
use std::str::FromStr;

use crosscap_engine::catalog::not_a_choice;
use crosscap_graphs::Graph;
use serde::{Deserialize, Serialize};

use crate::SandpileError;

/// How a toppling vertex gives up its chips.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Toppling {
    /// It loses its degree: chips are conserved and the order of topplings does not
    /// matter (the abelian property of chip-firing).
    #[default]
    Abelian,
    /// The seed's wording: its score "changes to 0", so chips beyond its degree are lost.
    /// The order then matters: vertices topple one at a time, in the order they became
    /// unstable.
    Reset,
}

impl Toppling {
    /// The rules' names, as options and flags take them.
    pub const NAMES: &'static [&'static str] = &["abelian", "reset"];
}

impl fmt::Display for Toppling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Toppling::Abelian => "abelian",
            Toppling::Reset => "reset",
        })
    }
}

impl FromStr for Toppling {
    type Err = SandpileError;

    fn from_str(text: &str) -> Result<Toppling, SandpileError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "abelian" => Ok(Toppling::Abelian),
            "reset" => Ok(Toppling::Reset),
            _ => Err(SandpileError::BadOption(not_a_choice(
                "toppling",
                text,
                Toppling::NAMES,
            ))),
        }
    }
}

/// The largest closed class whose period vector is found by elimination (a class with as
/// many arcs in as out at every vertex needs none): the dense system takes its square in
/// fractions, 32 MB here, 800 MB at 5,000 vertices.
pub const MAX_ELIMINATION: usize = 1000;
/// Graphs with more automorphisms than this are searched without symmetry reduction.
const MAX_SYMMETRIES: usize = 720;
/// Symmetry reduction is only tried on graphs this small (the solver's range).
const MAX_SYMMETRY_VERTICES: usize = 16;

/// A closed class: a terminal strong component with at least one arc (for an undirected
/// graph, a connected component with an edge). Chips that enter it never leave, so once a
/// cascade inside it has fired every vertex `v` at least `period[v]` times it never stops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClosedClass {
    pub vertices: Vec<usize>,
}

/// A graph prepared for play.
#[derive(Clone, Debug)]
pub struct Board {
    graph: Graph,
    /// The toppling threshold of each vertex: its degree (out-degree when directed); 0 for
    /// a sink, which never topples.
    threshold: Vec<u32>,
    /// The closed class of each vertex, or `NO_CLASS`.
    class_of: Vec<u32>,
    classes: Vec<ClosedClass>,
    /// The smallest positive firing vector that returns a closed class to the same
    /// chips (all ones on undirected graphs); 0 outside closed classes.
    period: Vec<u64>,
    /// Automorphisms used to identify symmetric positions (at least the identity).
    symmetries: Vec<Vec<usize>>,
    toppling: Toppling,
}

pub(crate) const NO_CLASS: u32 = u32::MAX;

/// What one placement did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cascade {
    /// Every vertex reached: the one placed on, each vertex that toppled and each vertex
    /// that received a chip, in the order first reached.
    pub reached: Vec<usize>,
    /// The closed classes that started toppling forever.
    pub erupted: Vec<usize>,
    /// Topplings performed (a vertex firing k times at once counts k).
    pub topplings: u64,
}

/// Scratch space reused between placements, so that a placement costs only what its
/// cascade touches.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    fired: Vec<u64>,
    seen: Vec<bool>,
    fired_list: Vec<usize>,
    stack: Vec<usize>,
    satisfied: Vec<usize>,
    erupting: Vec<bool>,
}

impl Scratch {
    /// Sizes the per-vertex buffers for a board of `n` vertices (a scratch may serve boards of
    /// other sizes).
    fn fit_vertices(&mut self, n: usize) {
        if self.fired.len() != n {
            self.fired = vec![0; n];
            self.seen = vec![false; n];
        }
    }

    /// Notes `u` as reached by `cascade`, once, in the order first reached.
    fn reach(&mut self, cascade: &mut Cascade, u: usize) {
        if !self.seen[u] {
            self.seen[u] = true;
            cascade.reached.push(u);
        }
    }

    /// Forgets the vertices `cascade` reached, for the next placement.
    fn unsee(&mut self, cascade: &Cascade) {
        for &u in &cascade.reached {
            self.seen[u] = false;
        }
    }
}

impl Board {
    /// Prepares `graph` with abelian toppling (see [`Board::with_toppling`]).
    pub fn new(graph: Graph) -> Result<Board, SandpileError> {
        Board::with_toppling(graph, Toppling::Abelian)
    }

    /// Prepares `graph` for play under `toppling`; refuses the empty graph and directed
    /// graphs whose period vectors overflow or whose unbalanced closed classes exceed
    /// [`MAX_ELIMINATION`] vertices.
    pub fn with_toppling(graph: Graph, toppling: Toppling) -> Result<Board, SandpileError> {
        let n = graph.vertex_count();
        if n == 0 {
            return Err(SandpileError::EmptyGraph(graph.spec().to_string()));
        }
        let threshold: Vec<u32> = (0..n).map(|v| graph.degree(v) as u32).collect();
        let classes = closed_classes(&graph);
        let mut class_of = vec![NO_CLASS; n];
        let mut period = vec![0u64; n];
        for (c, class) in classes.iter().enumerate() {
            let p = period_vector(&graph, &class.vertices)?
                .ok_or_else(|| SandpileError::TooComplex(graph.spec().to_string()))?;
            for (&v, &pv) in class.vertices.iter().zip(&p) {
                class_of[v] = c as u32;
                period[v] = pv;
            }
        }
        let symmetries = if n <= MAX_SYMMETRY_VERTICES {
            let all = graph.automorphisms();
            if all.len() <= MAX_SYMMETRIES {
                all
            } else {
                vec![(0..n).collect()]
            }
        } else {
            vec![(0..n).collect()]
        };
        Ok(Board {
            graph,
            threshold,
            class_of,
            classes,
            period,
            symmetries,
            toppling,
        })
    }

    /// Builds the board of a graph spec (see `crosscap_graphs::Graph::from_spec`).
    pub fn from_spec(spec: &str) -> Result<Board, SandpileError> {
        Board::new(Graph::from_spec(spec)?)
    }

    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    pub fn toppling(&self) -> Toppling {
        self.toppling
    }

    pub fn vertex_count(&self) -> usize {
        self.threshold.len()
    }

    /// The score at which `v` topples (0 for a sink, which never does).
    pub fn threshold(&self, v: usize) -> u32 {
        self.threshold[v]
    }

    pub fn is_sink(&self, v: usize) -> bool {
        self.threshold[v] == 0
    }

    pub fn classes(&self) -> &[ClosedClass] {
        &self.classes
    }

    /// The closed class containing `v`.
    pub fn class_of(&self, v: usize) -> Option<usize> {
        let c = self.class_of[v];
        (c != NO_CLASS).then_some(c as usize)
    }

    /// How often `v` must fire before its class is known to topple forever.
    pub fn period(&self, v: usize) -> u64 {
        self.period[v]
    }

    /// The automorphisms used to identify symmetric positions (the identity first).
    pub fn symmetries(&self) -> &[Vec<usize>] {
        &self.symmetries
    }

    /// The game's placement limit, `2|E| + |V|`. On a connected undirected graph it never
    /// binds: a stable position holds at most `2|E| - |V|` chips, so placement
    /// `2|E| - |V| + 1` at the latest starts a cascade that never stops. It only ends play
    /// that could otherwise go on for ever, where chips drain into sinks.
    pub fn move_limit(&self) -> u32 {
        (2 * self.graph.edge_count() + self.vertex_count()) as u32
    }

    /// Adds a chip on `v` and topples until every vertex outside an erupted class is
    /// stable. `frozen(c)` tells closed classes already toppling forever: they take no
    /// part (chips sent into them are lost in their endless cascade). Topples by the
    /// board's [`Toppling`] rule.
    pub fn place(
        &self,
        scores: &mut [u32],
        frozen: &dyn Fn(usize) -> bool,
        v: usize,
        scratch: &mut Scratch,
    ) -> Cascade {
        match self.toppling {
            Toppling::Abelian => self.place_abelian(scores, frozen, v, scratch),
            Toppling::Reset => self.place_reset(scores, frozen, v, scratch),
        }
    }

    /// The abelian rule: a toppling vertex loses its threshold and each out-neighbour
    /// gains one; a closed class erupts once each vertex has fired its period.
    fn place_abelian(
        &self,
        scores: &mut [u32],
        frozen: &dyn Fn(usize) -> bool,
        v: usize,
        scratch: &mut Scratch,
    ) -> Cascade {
        let n = self.vertex_count();
        scratch.fit_vertices(n);
        if scratch.satisfied.len() != self.classes.len() {
            scratch.satisfied = vec![0; self.classes.len()];
            scratch.erupting = vec![false; self.classes.len()];
        }
        let mut cascade = Cascade::default();
        let live = |u: usize, scratch: &Scratch| match self.class_of(u) {
            Some(c) => !frozen(c) && !scratch.erupting[c],
            None => true,
        };
        scores[v] += 1;
        scratch.reach(&mut cascade, v);
        scratch.stack.push(v);
        while let Some(u) = scratch.stack.pop() {
            let t = self.threshold[u];
            if t == 0 || scores[u] < t || !live(u, scratch) {
                continue;
            }
            let times = scores[u] / t;
            scores[u] -= times * t;
            cascade.topplings += times as u64;
            if scratch.fired[u] == 0 {
                scratch.fired_list.push(u);
            }
            let before = scratch.fired[u];
            scratch.fired[u] += times as u64;
            for &w in self.graph.neighbors(u) {
                scores[w] += times;
                scratch.reach(&mut cascade, w);
                if scores[w] >= self.threshold[w] {
                    scratch.stack.push(w);
                }
            }
            if let Some(c) = self.class_of(u)
                && before < self.period[u]
                && scratch.fired[u] >= self.period[u]
            {
                scratch.satisfied[c] += 1;
                if scratch.satisfied[c] == self.classes[c].vertices.len() {
                    scratch.erupting[c] = true;
                    cascade.erupted.push(c);
                    for &w in &self.classes[c].vertices {
                        scratch.reach(&mut cascade, w);
                    }
                }
            }
        }
        for &u in &scratch.fired_list {
            if let Some(c) = self.class_of(u) {
                scratch.satisfied[c] = 0;
            }
            scratch.fired[u] = 0;
        }
        scratch.fired_list.clear();
        for &c in &cascade.erupted {
            scratch.erupting[c] = false;
        }
        scratch.unsee(&cascade);
        cascade
    }

    /// The reset rule, one toppling at a time in the order the vertices became unstable
    /// (a queue): a toppling vertex's score goes to 0, so chips it gained while waiting
    /// are lost, and each out-neighbour outside a frozen class gains one. Chips are only
    /// ever lost, so the cascade either stops or cycles; a cycle of the scores and the
    /// queue is found by Brent's search, restarted whenever a chip is lost (no earlier
    /// state can recur). In a cycle no chip is lost, so the firings over one period return
    /// the chips: they lie in the kernel of the Laplacian, which makes them a positive
    /// multiple of the period vector on every closed class that fires and zero elsewhere.
    /// Those classes erupt; every other vertex is then stable.
    fn place_reset(
        &self,
        scores: &mut [u32],
        frozen: &dyn Fn(usize) -> bool,
        v: usize,
        scratch: &mut Scratch,
    ) -> Cascade {
        let n = self.vertex_count();
        scratch.fit_vertices(n);
        let mut cascade = Cascade::default();
        let live = |u: usize| self.class_of(u).is_none_or(|c| !frozen(c));
        let mut queue = std::collections::VecDeque::new();
        scores[v] += 1;
        scratch.reach(&mut cascade, v);
        if self.threshold[v] > 0 && scores[v] >= self.threshold[v] && live(v) {
            queue.push_back(v);
        }
        // Topples the queue's first vertex: whether a chip was lost.
        let topple = |u: usize,
                      scores: &mut [u32],
                      queue: &mut std::collections::VecDeque<usize>,
                      scratch: &mut Scratch,
                      cascade: &mut Cascade| {
            let lost = scores[u] > self.threshold[u];
            scores[u] = 0;
            cascade.topplings += 1;
            for &w in self.graph.neighbors(u) {
                scratch.reach(cascade, w);
                if live(w) {
                    scores[w] += 1;
                    // Queued once, when its score reaches its threshold.
                    if scores[w] == self.threshold[w] {
                        queue.push_back(w);
                    }
                }
            }
            lost
        };
        let mut saved = (scores.to_vec(), queue.clone());
        let (mut power, mut length) = (1u64, 0u64);
        while let Some(u) = queue.pop_front() {
            if topple(u, scores, &mut queue, scratch, &mut cascade) {
                saved = (scores.to_vec(), queue.clone());
                (power, length) = (1, 0);
                continue;
            }
            length += 1;
            if saved.0[..] == scores[..] && saved.1 == queue {
                // One more period, noting the classes whose vertices fire.
                let mut firing = vec![false; self.classes.len()];
                for _ in 0..length {
                    let Some(u) = queue.pop_front() else { break };
                    if let Some(c) = self.class_of(u) {
                        firing[c] = true;
                    }
                    topple(u, scores, &mut queue, scratch, &mut cascade);
                }
                for (c, _) in firing.iter().enumerate().filter(|(_, fired)| **fired) {
                    cascade.erupted.push(c);
                    for &w in &self.classes[c].vertices {
                        scratch.reach(&mut cascade, w);
                    }
                }
                break;
            }
            if length == power {
                saved = (scores.to_vec(), queue.clone());
                (power, length) = (power * 2, 0);
            }
        }
        scratch.unsee(&cascade);
        cascade
    }
}

/// The terminal strong components with an arc (components with an edge when undirected).
fn closed_classes(graph: &Graph) -> Vec<ClosedClass> {
    let n = graph.vertex_count();
    let components = if graph.is_directed() {
        strong_components(graph)
    } else {
        graph.components()
    };
    let mut component_of = vec![0usize; n];
    for (i, comp) in components.iter().enumerate() {
        for &v in comp {
            component_of[v] = i;
        }
    }
    components
        .into_iter()
        .enumerate()
        .filter(|(i, comp)| {
            comp.iter().any(|&v| graph.degree(v) > 0)
                && comp
                    .iter()
                    .all(|&v| graph.neighbors(v).iter().all(|&w| component_of[w] == *i))
        })
        .map(|(_, vertices)| ClosedClass { vertices })
        .collect()
}

/// Strong components (Kosaraju, iterative), each sorted.
fn strong_components(graph: &Graph) -> Vec<Vec<usize>> {
    let n = graph.vertex_count();
    let mut order = Vec::with_capacity(n);
    let mut visited = vec![false; n];
    for root in 0..n {
        if visited[root] {
            continue;
        }
        visited[root] = true;
        let mut stack = vec![(root, 0usize)];
        while let Some((v, i)) = stack.pop() {
            if let Some(&w) = graph.neighbors(v).get(i) {
                stack.push((v, i + 1));
                if !visited[w] {
                    visited[w] = true;
                    stack.push((w, 0));
                }
            } else {
                order.push(v);
            }
        }
    }
    let mut component = vec![usize::MAX; n];
    let mut components = Vec::new();
    for &root in order.iter().rev() {
        if component[root] != usize::MAX {
            continue;
        }
        let id = components.len();
        component[root] = id;
        let mut members = vec![root];
        let mut stack = vec![root];
        while let Some(v) = stack.pop() {
            for &u in graph.in_neighbors(v) {
                if component[u] == usize::MAX {
                    component[u] = id;
                    members.push(u);
                    stack.push(u);
                }
            }
        }
        members.sort_unstable();
        components.push(members);
    }
    components
}

/// The least positive integer vector `p` on a closed class with
/// `outdeg(v) p(v) = sum of p(u) over arcs u -> v` (firing each `v` `p(v)` times leaves the
/// chips unchanged): all ones when every vertex has as many arcs in as out, else by exact
/// rational elimination, refused over [`MAX_ELIMINATION`] vertices. `None` when the
/// numbers overflow.
fn period_vector(graph: &Graph, class: &[usize]) -> Result<Option<Vec<u64>>, SandpileError> {
    let k = class.len();
    let balanced = class.iter().all(|&v| {
        let inside = graph
            .in_neighbors(v)
            .iter()
            .filter(|&&u| class.binary_search(&u).is_ok());
        inside.count() == graph.degree(v)
    });
    if !graph.is_directed() || balanced {
        return Ok(Some(vec![1; k]));
    }
    if k > MAX_ELIMINATION {
        return Err(SandpileError::LargeUnbalancedClass {
            spec: graph.spec().to_string(),
            vertices: k,
            max: MAX_ELIMINATION,
        });
    }
    Ok(eliminate(graph, class))
}

/// The period vector of an unbalanced class by exact rational elimination (`None` on
/// overflow).
fn eliminate(graph: &Graph, class: &[usize]) -> Option<Vec<u64>> {
    let k = class.len();
    let index = |v: usize| class.binary_search(&v).ok();
    // Rows: one equation per vertex but the last, then p(first) = 1.
    let mut rows: Vec<Vec<Fraction>> = Vec::with_capacity(k);
    for &v in &class[..k - 1] {
        let mut row = vec![Fraction::ZERO; k + 1];
        row[index(v)?] = Fraction::whole(graph.degree(v) as i128);
        for &u in graph.in_neighbors(v) {
            if let Some(i) = index(u) {
                row[i] = row[i].sub(Fraction::ONE)?;
            }
        }
        rows.push(row);
    }
    let mut last = vec![Fraction::ZERO; k + 1];
    last[0] = Fraction::ONE;
    last[k] = Fraction::ONE;
    rows.push(last);
    for col in 0..k {
        let pivot = (col..k).find(|&r| rows[r][col].num != 0)?;
        rows.swap(col, pivot);
        let p = rows[col][col];
        for cell in &mut rows[col][col..] {
            *cell = cell.div(p)?;
        }
        let pivot_row = rows[col].clone();
        for (r, row) in rows.iter_mut().enumerate() {
            let factor = row[col];
            if r != col && factor.num != 0 {
                for (cell, &above) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *cell = cell.sub(factor.mul(above)?)?;
                }
            }
        }
    }
    let values: Vec<Fraction> = rows.iter().map(|row| row[k]).collect();
    let lcm = values
        .iter()
        .try_fold(1i128, |acc, f| acc.checked_mul(f.den / gcd(acc, f.den)))?;
    let scaled: Vec<i128> = values
        .iter()
        .map(|f| f.num.checked_mul(lcm / f.den))
        .collect::<Option<_>>()?;
    let common = scaled.iter().fold(0, |acc, &x| gcd(acc, x));
    scaled
        .iter()
        .map(|&x| u64::try_from(x / common).ok().filter(|&x| x > 0))
        .collect()
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// An exact fraction with overflow checks, for the period vectors of directed classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fraction {
    num: i128,
    den: i128,
}

impl Fraction {
    const ZERO: Fraction = Fraction { num: 0, den: 1 };
    const ONE: Fraction = Fraction { num: 1, den: 1 };

    fn whole(n: i128) -> Fraction {
        Fraction { num: n, den: 1 }
    }

    fn new(num: i128, den: i128) -> Option<Fraction> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        let sign = if den < 0 { -1 } else { 1 };
        Some(Fraction {
            num: sign * num / g,
            den: sign * den / g,
        })
    }

    fn mul(self, other: Fraction) -> Option<Fraction> {
        Fraction::new(
            self.num.checked_mul(other.num)?,
            self.den.checked_mul(other.den)?,
        )
    }

    fn div(self, other: Fraction) -> Option<Fraction> {
        Fraction::new(
            self.num.checked_mul(other.den)?,
            self.den.checked_mul(other.num)?,
        )
    }

    fn sub(self, other: Fraction) -> Option<Fraction> {
        Fraction::new(
            self.num
                .checked_mul(other.den)?
                .checked_sub(other.num.checked_mul(self.den)?)?,
            self.den.checked_mul(other.den)?,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(spec: &str) -> Board {
        Board::from_spec(spec).unwrap()
    }

    #[test]
    fn undirected_components_with_edges_are_closed_classes() {
        let b = board("edges:0-1,2-3,3-4");
        assert_eq!(b.classes().len(), 2);
        assert_eq!(b.class_of(3), Some(1));
        assert_eq!(b.period(4), 1);
    }

    #[test]
    fn directed_classes_are_terminal_strong_components() {
        // 0 -> 1 <-> 2; 3 is a sink fed by 0.
        let b = board("arcs:0>1,1>2,2>1,0>3");
        assert_eq!(
            b.classes(),
            &[ClosedClass {
                vertices: vec![1, 2]
            }]
        );
        assert!(b.is_sink(3));
        assert_eq!(b.class_of(0), None);
    }

    #[test]
    fn unbalanced_classes_get_their_period_vector() {
        // 0 -> 1, 0 -> 2, 1 -> 0, 2 -> 0: vertex 0 must fire once for each firing of 1
        // and of 2, but sends to both: 2 p(0) = p(1) + p(2), p(1) = p(0), p(2) = p(0).
        let b = board("arcs:0>1,0>2,1>0,2>0");
        assert_eq!((b.period(0), b.period(1), b.period(2)), (1, 1, 1));
        // 0 -> 1, 0 -> 2, 1 -> 2, 2 -> 0: 2 p0 = p2, p1 = p0, p2 = p0 + p1.
        let b = board("arcs:0>1,0>2,1>2,2>0");
        assert_eq!((b.period(0), b.period(1), b.period(2)), (1, 1, 2));
    }

    #[test]
    fn unbalanced_classes_too_large_to_eliminate_are_refused_before_the_work() {
        // A directed cycle with one chord is unbalanced at two vertices.
        let arcs = |n: usize| {
            let cycle: Vec<String> = (0..n).map(|i| format!("{i}>{}", (i + 1) % n)).collect();
            format!("arcs:{},0>2", cycle.join(","))
        };
        assert!(Board::from_spec(&arcs(MAX_ELIMINATION)).is_ok());
        let error = Board::from_spec(&arcs(MAX_ELIMINATION + 1)).unwrap_err();
        assert!(
            matches!(
                error,
                SandpileError::LargeUnbalancedClass { vertices: 1001, .. }
            ),
            "{error}"
        );
    }

    #[test]
    fn a_leaf_topples_on_its_first_chip_and_p2_erupts() {
        let b = board("P2");
        let mut scores = vec![0, 0];
        let cascade = b.place(&mut scores, &|_| false, 0, &mut Scratch::default());
        assert_eq!(cascade.erupted, vec![0]);
        assert_eq!(cascade.reached, vec![0, 1]);
    }

    #[test]
    fn a_centre_topples_on_its_fourth_chip_and_the_cascade_stops() {
        let b = board("grid:3x3");
        let mut scores = vec![0; 9];
        let mut scratch = Scratch::default();
        // The centre has degree 4: three chips stay, the fourth topples.
        for _ in 0..3 {
            assert_eq!(
                b.place(&mut scores, &|_| false, 4, &mut scratch).topplings,
                0
            );
        }
        let cascade = b.place(&mut scores, &|_| false, 4, &mut scratch);
        assert_eq!(cascade.topplings, 1);
        assert_eq!(scores, vec![0, 1, 0, 1, 0, 1, 0, 1, 0]);
        assert_eq!(cascade.reached, vec![4, 1, 3, 5, 7]);
    }

    #[test]
    fn a_directed_cycle_erupts_on_one_chip() {
        let b = board("arcs:0>1,1>2,2>0");
        let mut scores = vec![0; 3];
        let cascade = b.place(&mut scores, &|_| false, 1, &mut Scratch::default());
        assert_eq!(cascade.erupted, vec![0]);
        assert_eq!(cascade.reached.len(), 3);
    }

    #[test]
    fn a_dag_drains_into_its_sink() {
        let b = board("arcs:0>1,1>2");
        let mut scores = vec![0; 3];
        let cascade = b.place(&mut scores, &|_| false, 0, &mut Scratch::default());
        assert!(cascade.erupted.is_empty());
        assert_eq!(scores, vec![0, 0, 1]);
    }

    #[test]
    fn the_empty_graph_is_refused() {
        assert!(matches!(
            Board::from_spec("edges:"),
            Err(SandpileError::Graph(_)) | Err(SandpileError::EmptyGraph(_))
        ));
    }
}
