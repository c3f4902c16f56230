//! The one budget every search runs under: a node cap, a time limit, a memory cap for its
//! tables and trees, and a cancel flag that whoever waits for the answer can raise.
//!
//! A search holds a [`Meter`] made from its [`Budget`] and calls [`Meter::tick`] once per
//! unit of work (a node, an iteration, a playout). The meter reads the clock and the
//! cancel flag at a stride it adapts to the cost of a tick, so the checks cost almost
//! nothing on fast searches and still come about every millisecond when one tick is slow:
//! a time limit or a cancel binds within a few milliseconds on any board. At those same
//! checks it adds the nodes since the last one to the budget's [`NodeCounter`], when it has
//! one, so that a progress bar can show a long search's nodes without slowing its ticks.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A flag that stops every search holding it; clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Stops every search holding this flag (they return [`Exhausted::Cancelled`]).
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// A guard that raises the flag when dropped: the search stops as soon as nobody waits
    /// for it (a request dropped on a client's disconnect, a timeout, a panic).
    pub fn on_drop(&self) -> CancelOnDrop {
        CancelOnDrop(self.clone())
    }
}

impl PartialEq for Cancel {
    fn eq(&self, other: &Cancel) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancel {}

/// Raises its [`Cancel`] flag when dropped.
#[derive(Debug)]
pub struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// The nodes of every search holding it, as their meters report them at their checks of
/// the budget (and when they end): for a progress bar. Clones share the count.
#[derive(Clone, Debug, Default)]
pub struct NodeCounter(Arc<AtomicU64>);

impl NodeCounter {
    pub fn new() -> NodeCounter {
        NodeCounter::default()
    }

    /// The nodes reported so far.
    pub fn nodes(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    fn add(&self, nodes: u64) {
        self.0.fetch_add(nodes, Ordering::Relaxed);
    }
}

impl PartialEq for NodeCounter {
    fn eq(&self, other: &NodeCounter) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for NodeCounter {}

/// How much work a search may do before it gives up with
/// [`SolveError::Unknown`](crate::SolveError). `None` is no limit of that kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Most nodes (or iterations, or positions: the search's unit of work).
    pub max_nodes: Option<u64>,
    /// Most time, from the moment the search starts.
    pub max_time: Option<Duration>,
    /// Most bytes of tables, trees and queues. Transposition tables stay within it by
    /// replacing entries; searches that cannot forget (a breadth-first queue) stop.
    pub max_memory: Option<usize>,
    /// Raised when nobody waits for the answer any more.
    pub cancel: Option<Cancel>,
    /// Most threads the exact solver searches on at once (`None`: one), sharing the other
    /// limits: the nodes are split between them, the time and memory bind them all.
    pub threads: Option<usize>,
    /// Where the searches under this budget count their nodes as they go (every thread
    /// into the same counter); no limit.
    pub counter: Option<NodeCounter>,
}

impl Budget {
    pub fn unlimited() -> Budget {
        Budget::default()
    }

    pub fn nodes(max_nodes: u64) -> Budget {
        Budget {
            max_nodes: Some(max_nodes),
            ..Budget::default()
        }
    }

    pub fn time(max_time: Duration) -> Budget {
        Budget {
            max_time: Some(max_time),
            ..Budget::default()
        }
    }

    pub fn with_nodes(self, max_nodes: u64) -> Budget {
        Budget {
            max_nodes: Some(max_nodes),
            ..self
        }
    }

    pub fn with_time(self, max_time: Duration) -> Budget {
        Budget {
            max_time: Some(max_time),
            ..self
        }
    }

    pub fn with_memory(self, max_memory: usize) -> Budget {
        Budget {
            max_memory: Some(max_memory),
            ..self
        }
    }

    pub fn with_cancel(self, cancel: Cancel) -> Budget {
        Budget {
            cancel: Some(cancel),
            ..self
        }
    }

    pub fn with_threads(self, threads: usize) -> Budget {
        Budget {
            threads: Some(threads),
            ..self
        }
    }

    pub fn with_counter(self, counter: NodeCounter) -> Budget {
        Budget {
            counter: Some(counter),
            ..self
        }
    }

    /// This budget kept within `outer`: the smaller of each limit, and `outer`'s cancel
    /// flag and node counter when this budget has none.
    pub fn within(&self, outer: &Budget) -> Budget {
        fn least<T: Ord + Copy>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }
        Budget {
            max_nodes: least(self.max_nodes, outer.max_nodes),
            max_time: least(self.max_time, outer.max_time),
            max_memory: least(self.max_memory, outer.max_memory),
            cancel: self.cancel.clone().or_else(|| outer.cancel.clone()),
            threads: least(self.threads, outer.threads),
            counter: self.counter.clone().or_else(|| outer.counter.clone()),
        }
    }

    /// What is left of this budget after `nodes` nodes and `elapsed` time were spent.
    pub fn less(&self, nodes: u64, elapsed: Duration) -> Budget {
        Budget {
            max_nodes: self.max_nodes.map(|n| n.saturating_sub(nodes)),
            max_time: self.max_time.map(|t| t.saturating_sub(elapsed)),
            ..self.clone()
        }
    }

    /// Whether the cancel flag is up.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(Cancel::is_cancelled)
    }

    /// How many entries of `entry_bytes` bytes fit in the memory cap (at least one).
    pub fn max_entries(&self, entry_bytes: usize) -> Option<usize> {
        self.max_memory
            .map(|bytes| (bytes / entry_bytes.max(1)).max(1))
    }

    /// A meter starting now.
    pub fn meter(&self) -> Meter {
        Meter::new(self)
    }
}

/// Which limit of a budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Exhausted {
    Nodes,
    Time,
    Memory,
    Cancelled,
    /// No budget: the position is beyond a fixed limit of the game's exact analysis
    /// (Edge-Nim's tables track Grundy values below 1024), so no budget would answer it.
    Beyond,
}

impl fmt::Display for Exhausted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Exhausted::Nodes => "node limit",
            Exhausted::Time => "time limit",
            Exhausted::Memory => "memory limit",
            Exhausted::Cancelled => "cancelled",
            Exhausted::Beyond => "limit of the exact analysis",
        })
    }
}

/// Slowest and fastest wanted gaps between two readings of the clock.
/// Memory a search may hold in its tables, trees and queues unless told (the CLI's
/// `--max-memory`, the Python module's `max_memory_mib`).
pub const DEFAULT_MAX_MEMORY: usize = 512 << 20;
/// The longest time limit a host accepts: about 11 days.
pub const MAX_SECONDS: f64 = 1_000_000.0;
/// The memory caps a host accepts: 1 MiB to 1024 GiB.
pub const MEMORY_RANGE: (usize, usize) = (1 << 20, 1 << 40);

const CHECK_GAP_MIN: Duration = Duration::from_micros(200);
const CHECK_GAP_MAX: Duration = Duration::from_millis(2);
/// Most ticks between two readings of the clock.
const MAX_STRIDE: u64 = 1 << 16;

/// A running search's use of its budget.
#[derive(Debug)]
pub struct Meter {
    budget: Budget,
    start: Instant,
    deadline: Option<Instant>,
    nodes: u64,
    /// The nodes already added to the budget's counter.
    reported: u64,
    /// The node cap (`u64::MAX` for none).
    node_cap: u64,
    /// Ticks and polls so far: the clock and the flag are read every `stride` of them.
    work: u64,
    /// The work count at which the limits are next checked.
    next_check: u64,
    /// Work between checks, doubled while checks come too often, halved when too rarely.
    stride: u64,
    last_check: Instant,
    exhausted: Option<Exhausted>,
}

impl Meter {
    pub fn new(budget: &Budget) -> Meter {
        let start = Instant::now();
        let mut meter = Meter {
            budget: budget.clone(),
            start,
            deadline: budget.max_time.and_then(|t| start.checked_add(t)),
            nodes: 0,
            reported: 0,
            node_cap: budget.max_nodes.unwrap_or(u64::MAX),
            work: 0,
            next_check: 0,
            stride: 1,
            last_check: start,
            exhausted: None,
        };
        meter.schedule();
        meter
    }

    /// Counts one unit of work (a node); true once the search must stop (and from then
    /// on).
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.node_cap {
            self.exhausted.get_or_insert(Exhausted::Nodes);
            return true;
        }
        self.poll()
    }

    /// A step inside one unit of work that may be long (a move of a playout): checks the
    /// time and the cancel flag as often as ticks do, without counting a node.
    #[inline]
    pub fn poll(&mut self) -> bool {
        self.work += 1;
        self.work >= self.next_check && self.check()
    }

    /// Checks the clock and the cancel flag now, whatever the stride; true once the
    /// search must stop. For a loop about to start a long step.
    pub fn check(&mut self) -> bool {
        self.report();
        if self.exhausted.is_some() {
            return true;
        }
        if self.nodes > self.node_cap {
            self.exhausted = Some(Exhausted::Nodes);
            return true;
        }
        if self.budget.is_cancelled() {
            self.exhausted = Some(Exhausted::Cancelled);
            return true;
        }
        let now = Instant::now();
        if self.deadline.is_some_and(|d| now >= d) {
            self.exhausted = Some(Exhausted::Time);
            return true;
        }
        let gap = now - self.last_check;
        if gap < CHECK_GAP_MIN {
            self.stride = (self.stride * 2).min(MAX_STRIDE);
        } else if gap > CHECK_GAP_MAX {
            self.stride = (self.stride / 2).max(1);
        }
        self.last_check = now;
        self.schedule();
        false
    }

    /// Adds the nodes since the last report to the budget's counter.
    fn report(&mut self) {
        if let Some(counter) = &self.budget.counter {
            counter.add(self.nodes - self.reported);
            self.reported = self.nodes;
        }
    }

    fn schedule(&mut self) {
        self.next_check = self.work.saturating_add(self.stride);
    }

    /// Reports that the search holds `bytes` bytes that it cannot give back; true (and
    /// exhausted by memory) when that is over the cap.
    pub fn over_memory(&mut self, bytes: usize) -> bool {
        if self.budget.max_memory.is_some_and(|max| bytes > max) {
            self.exhausted.get_or_insert(Exhausted::Memory);
            return true;
        }
        false
    }

    /// Ticks counted so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// The limit that ran out, once one has.
    pub fn exhausted(&self) -> Option<Exhausted> {
        self.exhausted
    }

    /// What is left of the budget.
    pub fn remaining(&self) -> Budget {
        self.budget.less(self.nodes, self.elapsed())
    }

    /// The error a search returns when this meter ran out.
    pub fn unknown(&self) -> crate::SolveError {
        crate::SolveError::Unknown {
            nodes: self.nodes,
            elapsed: self.elapsed(),
            reason: self.exhausted.unwrap_or(Exhausted::Nodes),
        }
    }
}

/// The nodes since the last check reach the counter when the search ends.
impl Drop for Meter {
    fn drop(&mut self) {
        self.report();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_node_cap_binds_exactly() {
        let mut meter = Budget::nodes(10).meter();
        let ticks = (0..100).take_while(|_| !meter.tick()).count();
        assert_eq!(ticks, 10);
        assert_eq!(meter.exhausted(), Some(Exhausted::Nodes));
        assert!(meter.tick(), "an exhausted meter stays exhausted");
    }

    #[test]
    fn a_cancel_stops_within_a_few_ticks() {
        let cancel = Cancel::new();
        let mut meter = Budget::unlimited().with_cancel(cancel.clone()).meter();
        for _ in 0..1000 {
            assert!(!meter.tick());
        }
        cancel.cancel();
        let clock = Instant::now();
        while !meter.tick() {}
        assert!(clock.elapsed() < Duration::from_millis(50));
        assert_eq!(meter.exhausted(), Some(Exhausted::Cancelled));
    }

    #[test]
    fn slow_ticks_are_checked_every_time() {
        let mut meter = Budget::time(Duration::from_millis(30)).meter();
        let mut ticks = 0;
        while !meter.tick() {
            std::thread::sleep(Duration::from_millis(5));
            ticks += 1;
        }
        assert!(
            ticks <= 7,
            "a time limit binds on slow ticks ({ticks} ticks)"
        );
        assert_eq!(meter.exhausted(), Some(Exhausted::Time));
    }

    #[test]
    fn polls_check_the_limits_without_counting_nodes() {
        let cancel = Cancel::new();
        let mut meter = Budget::nodes(1).with_cancel(cancel.clone()).meter();
        for _ in 0..10_000 {
            assert!(!meter.poll());
        }
        assert_eq!(meter.nodes(), 0);
        cancel.cancel();
        let polls = (0..100_000).take_while(|_| !meter.poll()).count();
        assert!(polls < 100_000, "a cancel binds on polls");
        assert_eq!(meter.exhausted(), Some(Exhausted::Cancelled));
    }

    #[test]
    fn a_guard_cancels_when_dropped() {
        let cancel = Cancel::new();
        drop(cancel.on_drop());
        assert!(cancel.is_cancelled());
    }

    #[test]
    fn budgets_combine_and_shrink() {
        let outer = Budget::time(Duration::from_secs(5)).with_cancel(Cancel::new());
        let inner = Budget::nodes(100).with_time(Duration::from_secs(30));
        let both = inner.within(&outer);
        assert_eq!(both.max_time, Some(Duration::from_secs(5)));
        assert_eq!(both.max_nodes, Some(100));
        assert_eq!(both.cancel, outer.cancel);
        let counted = Budget::unlimited().with_counter(NodeCounter::new());
        assert_eq!(inner.within(&counted).counter, counted.counter);
        assert_eq!(counted.less(1, Duration::ZERO).counter, counted.counter);
        let left = both.less(40, Duration::from_secs(9));
        assert_eq!(left.max_nodes, Some(60));
        assert_eq!(left.max_time, Some(Duration::ZERO));
        assert_eq!(
            Budget::unlimited().with_memory(100).max_entries(30),
            Some(3)
        );
        let huge = Budget::time(Duration::from_secs_f64(1e18)).meter();
        assert!(huge.exhausted().is_none(), "a far deadline is no deadline");
    }

    /// A meter adds its nodes to the counter at its checks, so the counter lags by at most
    /// a stride, and the rest when it is dropped.
    #[test]
    fn the_counter_follows_a_meter_within_a_stride() {
        let counter = NodeCounter::new();
        let mut meter = Budget::unlimited().with_counter(counter.clone()).meter();
        for _ in 0..300_000 {
            assert!(!meter.tick());
        }
        assert!(
            counter.nodes() + MAX_STRIDE >= meter.nodes(),
            "{}",
            counter.nodes()
        );
        drop(meter);
        assert_eq!(counter.nodes(), 300_000);
    }

    /// The solver's threads share the budget and so the counter: it sees every node of a
    /// search on one thread and on two.
    #[test]
    fn the_counter_sees_a_search_on_one_and_two_threads() {
        let game = crate::NormalPlay::new(crate::nim::Nim::new(vec![4, 5, 6, 7, 8]));
        for threads in [1, 2] {
            let counter = NodeCounter::new();
            let budget = Budget::unlimited()
                .with_threads(threads)
                .with_counter(counter.clone());
            let mut solver = crate::solver::Solver::new(budget);
            solver.value(&game).unwrap();
            assert!(solver.nodes() > 1000, "{threads} threads");
            assert_eq!(counter.nodes(), solver.nodes(), "{threads} threads");
        }
    }

    #[test]
    fn memory_over_the_cap_exhausts() {
        let mut meter = Budget::unlimited().with_memory(1000).meter();
        assert!(!meter.over_memory(1000));
        assert!(meter.over_memory(1001));
        assert_eq!(meter.exhausted(), Some(Exhausted::Memory));
    }
}
