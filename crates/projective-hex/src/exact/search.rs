//! The df-pn search: [`BitSolver`], its proof sets and mustplay, the table it shares.

use super::*;

/// A transposition table that the solvers of one board on several threads share (see
/// [`BitSolver::sharing`]); it keeps the size it was made with.
#[derive(Clone)]
pub struct SharedTable(Arc<Table>);

impl SharedTable {
    /// A table sized for solving on `geometry`, 2^(cells − 6) buckets of 80 bytes, from
    /// 2^17 (10 MiB) to 2^22 (320 MiB), and within `max_memory`: taylor:3, 27 cells, gets
    /// 160 MiB, as fast as twice or half that. `None` where the bitmask solver does not
    /// apply.
    pub fn for_board(geometry: &Geometry, max_memory: Option<usize>) -> Option<SharedTable> {
        let cells = geometry.cell_count();
        let bits = (cells.saturating_sub(6) as u32)
            .clamp(table::FIRST_BITS, table::MAX_BITS)
            .min(table::bits_within(max_memory));
        BitSolver::applies(geometry).then(|| SharedTable(Arc::new(Table::with_bits(bits))))
    }
}

/// The exact solver, its table kept between calls (so solving every opening and every
/// reply shares work).
pub struct BitSolver {
    pub(super) sides: Sides,
    pub(super) table: Arc<Table>,
    /// Positions stored since the table was made, and whether it is the solver's own (a
    /// shared table does not grow).
    stored: usize,
    own_table: bool,
    /// The most index bits the solver's own table may grow to (its memory cap).
    max_bits: u32,
    budget: Budget,
    /// Nodes of the solves before the current one.
    nodes: u64,
    meter: Meter,
    aborted: bool,
    /// How often each cell won (move ordering).
    history: [u32; MAX_CELLS],
    /// The board's symmetries other than the identity, as cell permutations.
    pub(super) symmetries: Vec<[u8; MAX_CELLS]>,
    /// The H-search's tables, reused from node to node.
    hsearch: std::cell::RefCell<vc::HSearch>,
    /// Positions with at most this many empty cells run the H-search (none by default).
    vc_max_empty: Option<u32>,
}

/// A move being searched, with what is known of the position it leads to (from the
/// opponent's side).
#[derive(Clone, Copy, Debug)]
struct Child {
    pub(super) cell: usize,
    numbers: Numbers,
}

impl Child {
    const NONE: Child = Child {
        cell: 0,
        numbers: Numbers::UNKNOWN,
    };
}

impl BitSolver {
    /// A solver for `geometry`, or `None` when the board is not a trivalent projective
    /// plane of at most [`MAX_CELLS`] cells, each with at most 16 sides.
    pub fn new(geometry: &Geometry, budget: Budget) -> Option<BitSolver> {
        let bits = table::FIRST_BITS.min(table::bits_within(budget.max_memory));
        let table = Arc::new(Table::with_bits(bits));
        BitSolver::with_table(geometry, budget, table, true)
    }

    /// A solver for `geometry` that stores its positions in `table`, shared with other
    /// solvers of the same board (on other threads: they find each other's results).
    pub fn sharing(geometry: &Geometry, budget: Budget, table: &SharedTable) -> Option<BitSolver> {
        BitSolver::with_table(geometry, budget, table.0.clone(), false)
    }

    /// Whether the board is a trivalent projective plane of at most [`MAX_CELLS`] cells,
    /// each with at most 16 sides.
    fn applies(geometry: &Geometry) -> bool {
        geometry.decides_full_boards()
            && geometry.cell_count() <= MAX_CELLS
            && (0..geometry.cell_count()).all(|c| geometry.sides(c).count() <= MAX_SIDES)
    }

    fn with_table(
        geometry: &Geometry,
        budget: Budget,
        table: Arc<Table>,
        own_table: bool,
    ) -> Option<BitSolver> {
        BitSolver::applies(geometry).then(|| BitSolver {
            symmetries: geometry.symmetries().maps()[1..]
                .iter()
                .map(|map| {
                    let mut cells = [0u8; MAX_CELLS];
                    for (cell, &image) in map.iter().enumerate() {
                        cells[cell] = image as u8;
                    }
                    cells
                })
                .collect(),
            sides: Sides::new(geometry),
            table,
            stored: 0,
            own_table,
            max_bits: table::bits_within(budget.max_memory),
            meter: budget.meter(),
            budget,
            nodes: 0,
            aborted: false,
            history: [0; MAX_CELLS],
            hsearch: Default::default(),
            vc_max_empty: None,
        })
    }

    /// Nodes searched since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes + self.meter.nodes()
    }

    /// Runs the H-search of virtual connections (module `vc`) at every node with at most
    /// `max_empty` empty cells, `None` never (the CLI's `--virtual-connections` gives
    /// [`VIRTUAL_CONNECTIONS_MAX_EMPTY`]). Off by default: on every opening of taylor:3
    /// it saves at most a fifth of the nodes and costs about 7 times the CPU time
    /// (BENCHMARKS.md, sessions 14 and 31).
    pub fn set_virtual_connections(&mut self, max_empty: Option<u32>) {
        self.vc_max_empty = max_empty;
    }

    /// The budget of the next calls.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Whether the player to move wins, given the mover's stones and the opponent's (no
    /// loop on the board yet). The budget counts from this call.
    pub fn mover_wins(&mut self, mine: u64, theirs: u64) -> Result<bool, SolveError> {
        self.solve(mine, theirs).map(|solved| solved.mover_wins)
    }

    /// The mover's moves that the table already shows to win (the position after each is
    /// lost for the opponent), as cells; a solve that found the mover winning leaves at
    /// least the move it proved there, unless the table dropped it.
    pub fn proven_wins(&self, mine: u64, theirs: u64) -> u64 {
        let mut wins = 0;
        let mut rest = self.sides.full() & !(mine | theirs);
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            if self
                .table
                .get(theirs, mine | bit)
                .is_some_and(|n| n.dn == 0)
            {
                wins |= bit;
            }
        }
        wins
    }

    /// Who wins, with the winner's proof set (see the module documentation).
    pub fn solve(&mut self, mine: u64, theirs: u64) -> Result<Solved, SolveError> {
        self.nodes += self.meter.nodes();
        self.meter = self.budget.meter();
        self.aborted = false;
        loop {
            let numbers = self.search(mine, theirs, INFINITE - 1, INFINITE - 1, true);
            if self.aborted {
                return Err(self.meter.unknown());
            }
            if let Some(solved) = numbers.solved() {
                return Ok(solved);
            }
        }
    }

    /// Depth-first proof-number search below the thresholds: searches until the position
    /// is solved or its proof number reaches `max_pn` or its disproof number `max_dn`.
    /// `root` is set for the position a solve starts from, the only one whose mover may
    /// be able to close a loop at once (everywhere else the parent had to stop it).
    pub(super) fn search(
        &mut self,
        mine: u64,
        theirs: u64,
        max_pn: u32,
        max_dn: u32,
        root: bool,
    ) -> Numbers {
        self.aborted |= self.meter.tick();
        let nodes_before = self.meter.nodes();
        let known = self.table.get(mine, theirs);
        if let Some(known) = known
            && (known.pn >= max_pn || known.dn >= max_dn)
        {
            return known;
        }
        // On a first visit the mover's own survey is skipped: it rarely finds anything
        // (the parent answered the mover's closing cells and keys), and most positions
        // are visited once, only to count their moves (18% less time on taylor:3). For
        // the same reason the moves are looked up in the table only from the second visit
        // on: on a first visit those lookups, cache misses nearly all, cost more than the
        // transpositions they find (every opening of taylor:3 9.5 s → 6 s, BENCHMARKS.md).
        let first_visit = known.is_none() && !root;
        let open = match self.settle(mine, theirs, !first_visit, root) {
            Settled::Decided(numbers) => {
                self.store(mine, theirs, numbers, 1);
                return numbers;
            }
            Settled::Open(open) => open,
        };
        let stabiliser = self.stabiliser(mine, theirs);
        let mut mustplay = representatives(open.forced, &stabiliser);
        if first_visit {
            // Every move starts at (1, 1), so the position's numbers are its count of moves.
            let numbers = Numbers {
                pn: 1,
                dn: mustplay.count_ones(),
                proof: 0,
            };
            if numbers.pn >= max_pn || numbers.dn >= max_dn {
                self.store(mine, theirs, numbers, 1);
                return numbers;
            }
        }
        let mut refutations = open.forced_proof;
        // The inferior moves in the proof of every refuted move so far: only they need
        // what makes them inferior in a loss's proof (any other lies outside some
        // refuted move's proof, which refutes it as well).
        let mut uncovered = open.inferior;
        // The moves, on the stack. Moves not searched yet all start at (1, 1), so that each
        // is looked at once (its replies counted) before any is searched deeper; starting
        // disproof numbers that grow with the rank (df-pn+) took 1.8 times the nodes
        // (BENCHMARKS.md).
        let mut all_children = [Child::NONE; MAX_CELLS];
        let mut count = 0;
        if !first_visit {
            let mut touched = 0;
            let mut rest = mustplay;
            while rest != 0 {
                let cell = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                touched ^= self.table.touch(theirs, mine | 1 << cell);
            }
            std::hint::black_box(touched);
        }
        let mut rest = mustplay;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let numbers = if first_visit {
                Numbers::UNKNOWN
            } else {
                self.table
                    .get(theirs, mine | 1 << cell)
                    .unwrap_or(Numbers::UNKNOWN)
            };
            all_children[count] = Child { cell, numbers };
            count += 1;
        }
        // The move order only breaks ties, so it is worked out when the search first goes
        // deeper, not on the many visits that only count the moves.
        let mut ordered = false;
        loop {
            // Moves refuted by a proof leave the list, and so do moves outside it.
            for child in &all_children[..count] {
                if child.numbers.pn == 0 {
                    refutations |= child.numbers.proof;
                    mustplay &= child.numbers.proof;
                    uncovered &= child.numbers.proof;
                }
            }
            let mut kept = 0;
            for index in 0..count {
                let child = all_children[index];
                if mustplay >> child.cell & 1 != 0 && child.numbers.pn != 0 {
                    all_children[kept] = child;
                    kept += 1;
                }
            }
            count = kept;
            let children = &all_children[..count];
            let mut pn = INFINITE;
            let mut dn = 0u32;
            let mut best = None;
            let mut second = INFINITE;
            for (index, child) in children.iter().enumerate() {
                dn = dn.saturating_add(child.numbers.pn).min(INFINITE);
                if child.numbers.dn < pn {
                    second = pn;
                    pn = child.numbers.dn;
                    best = Some(index);
                } else if child.numbers.dn < second {
                    second = child.numbers.dn;
                }
            }
            let numbers = match best {
                None => {
                    let (_, why) = self.sides.inferior(
                        uncovered,
                        theirs,
                        self.sides.full() & !(mine | theirs),
                    );
                    Numbers::lost(symmetric_closure(refutations | why, &stabiliser))
                }
                Some(index) if pn == 0 => {
                    // The winning move first in the move order (worked out here for the
                    // winning moves alone when the order is not known yet).
                    let winner = if ordered {
                        children[index]
                    } else {
                        let score = |c: &Child| self.order(c.cell, mine, theirs);
                        children.iter().filter(|c| c.numbers.dn == 0).fold(
                            children[index],
                            |best, c| {
                                if score(c) > score(&best) { *c } else { best }
                            },
                        )
                    };
                    let cell = winner.cell;
                    self.history[cell] = self.history[cell].saturating_add(1);
                    Numbers::won(winner.numbers.proof | 1 << cell)
                }
                Some(_) => Numbers { pn, dn, proof: 0 },
            };
            if numbers.solved().is_some() || pn >= max_pn || dn >= max_dn || self.aborted {
                if !self.aborted {
                    self.store(mine, theirs, numbers, self.meter.nodes() - nodes_before + 1);
                }
                return numbers;
            }
            if !ordered {
                ordered = true;
                let mut ranked = [(0u32, Child::NONE); MAX_CELLS];
                for (slot, &child) in ranked.iter_mut().zip(children) {
                    *slot = (self.order(child.cell, mine, theirs), child);
                }
                ranked[..count].sort_by_key(|&(score, _)| std::cmp::Reverse(score));
                for (slot, &(_, child)) in all_children.iter_mut().zip(&ranked[..count]) {
                    *slot = child;
                }
                continue;
            }
            let index = best.unwrap_or(0);
            let child = children[index];
            // The child's thresholds: its disproof number may grow until this position's
            // proof number would pass the second-best move's (with 25% slack, which
            // saves re-searching), its proof number until this disproof number would
            // pass its threshold.
            let child_max_pn = (max_dn - dn).saturating_add(child.numbers.pn).min(INFINITE);
            let child_max_dn = max_pn.min(second.saturating_add(second / 4 + 1).min(INFINITE));
            let bit = 1u64 << child.cell;
            all_children[index].numbers =
                self.search(theirs, mine | bit, child_max_pn, child_max_dn, false);
        }
    }

    /// Stores a position's numbers, growing the solver's own table as it fills.
    fn store(&mut self, mine: u64, theirs: u64, numbers: Numbers, work: u64) {
        self.table.put(mine, theirs, numbers, work);
        self.stored += 1;
        if self.own_table && self.stored > 2 * self.table.len() && self.table.bits() < self.max_bits
        {
            let (grown, entries) = self.table.grown();
            self.table = Arc::new(grown);
            self.stored = entries;
        }
    }

    /// The symmetries (other than the identity) that keep a position with at most
    /// [`SYMMETRIC_STONES`] stones; none for a deeper one.
    pub(super) fn stabiliser(&self, mine: u64, theirs: u64) -> Vec<[u8; MAX_CELLS]> {
        if (mine | theirs).count_ones() > SYMMETRIC_STONES {
            return Vec::new();
        }
        self.symmetries
            .iter()
            .filter(|map| image(mine, map) == mine && image(theirs, map) == theirs)
            .copied()
            .collect()
    }

    /// The move-ordering score of `cell`: cells that won before, in contact with stones;
    /// dead cells last.
    pub(super) fn order(&self, cell: usize, mine: u64, theirs: u64) -> u32 {
        let sides = &self.sides;
        if sides.is_dead(cell, mine, theirs) {
            return 0;
        }
        let near = sides.neighbors[cell];
        let contact = 2 * (near & mine).count_ones() + (near & theirs).count_ones();
        1 + self.history[cell] + contact
    }

    /// What the position's groups alone tell (see the module documentation).
    ///
    /// Without `mover_survey` the mover's closing cells, held loop and keys are not
    /// looked for. That is sound away from the root: the mover has no closing cell there
    /// (the parent had to take the only one), and a move that wins at once lies in every
    /// opponent's loop that the forced moves come from (on a full board exactly one
    /// player has a loop), so the search still finds it. `root` is set where the
    /// position has no parent in the search (a solve's start, a lone verdict).
    fn settle(&self, mine: u64, theirs: u64, mover_survey: bool, root: bool) -> Settled {
        let sides = &self.sides;
        let empty = sides.full() & !(mine | theirs);
        let mut labels = [0u64; MAX_CELLS];
        // No loop is on the board, so the mover can still make one (a player who cannot
        // has lost already: the other one has a loop).
        let me = if mover_survey {
            sides.survey(mine, empty, false)
        } else {
            Survey::nothing_but(0, 0, empty)
        };
        if me.closing != 0 {
            let cell = me.closing.trailing_zeros() as usize;
            return Settled::Decided(Numbers::won(sides.loop_through(mine, cell, &mut labels)));
        }
        let them = sides.survey(theirs, empty, true);
        // A loop held by bridges decides the game whoever moves.
        if them.held != 0 {
            return Settled::Decided(Numbers::lost(them.held));
        }
        if me.held != 0 {
            return Settled::Decided(Numbers::won(me.held));
        }
        // A cell that closes an opponent's loop must be taken now, and two lose.
        let threats = them.closing;
        let mut threat_loops = 0;
        let mut rest = threats;
        for _ in 0..2 {
            if rest == 0 {
                break;
            }
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            threat_loops |= sides.loop_through(theirs, cell, &mut labels);
        }
        if threats.count_ones() >= 2 {
            return Settled::Decided(Numbers::lost(threat_loops));
        }
        // A key makes a held loop: the mover's wins, the opponent's must be answered in
        // its loop.
        if me.key != 0 {
            return Settled::Decided(Numbers::won(me.key_proof));
        }
        // `answers` is every empty cell when the opponent has no key.
        let mut forced = if threats != 0 {
            threats & them.answers
        } else {
            them.answers
        };
        let mut forced_proof = threat_loops | them.keys_proof;
        // Virtual connections: a loop the opponent holds loses, one the mover threatens
        // wins, and the opponent's threats must all be answered inside their carriers.
        // The opponent's are not looked for when a closing threat leaves one move (the
        // child looks), nor the mover's where the parent could run the H-search: there
        // the parent's opponent was this mover, with the same stones and one more empty
        // cell, and the parent's move went inside the carrier of each of its semi loops,
        // so a loop of the mover not through that move would have decided the parent
        // (both cuts: every opening of taylor:3 on one thread in 7% less CPU time, the
        // nodes within the noise; BENCHMARKS.md).
        if let Some(most) = self.vc_max_empty
            && empty.count_ones() <= most
        {
            let mut hsearch = self.hsearch.borrow_mut();
            let their_loops = if forced.count_ones() <= 1 {
                vc::Loops::NONE
            } else {
                hsearch.loops(sides, theirs, empty)
            };
            if let Some(carrier) = their_loops.held {
                return Settled::Decided(Numbers::lost(theirs | carrier));
            }
            if mover_survey && (root || empty.count_ones() == most) {
                let my_loops = hsearch.loops(sides, mine, empty);
                if let Some(&carrier) = my_loops.held.iter().chain(my_loops.semi()).next() {
                    return Settled::Decided(Numbers::won(mine | carrier));
                }
            }
            for &carrier in their_loops.semi() {
                if forced & !carrier != 0 {
                    forced &= carrier;
                    forced_proof |= theirs | carrier;
                }
            }
        }
        if forced == 0 {
            return Settled::Decided(Numbers::lost(forced_proof));
        }
        // Inferior moves (dead or killed by one reply, the opponent's stones around them
        // kept) are left out while there is another move; a loss's proof keeps what makes
        // them inferior where needed.
        let (mut inferior, _) = sides.inferior(forced, theirs, empty);
        if forced & !inferior != 0 {
            forced &= !inferior;
        } else {
            inferior = 0;
        }
        Settled::Open(Open {
            forced,
            forced_proof,
            inferior,
        })
    }
}

/// What a position's groups alone tell the player to move, without searching (see
/// [`BitSolver::group_verdict`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupVerdict {
    /// The mover wins: a closing cell, a loop held by bridges, or a key.
    Won,
    /// The mover loses: two closing threats, an opponent's held loop, or keys with no
    /// common answer.
    Lost,
    /// Neither: the moves left to the mover as a mask (the cells that stop a closing
    /// threat or answer every opponent's key, inferior cells left out), which hold a best
    /// move.
    Moves(u64),
}

impl BitSolver {
    /// The solver's survey of a position with no loop yet (closing cells, bridges, keys,
    /// mustplay, inferior cells) as a verdict, for searches that want this knowledge in
    /// their own tree: one cheap call, no search and no table.
    pub fn group_verdict(&self, mine: u64, theirs: u64) -> GroupVerdict {
        match self.settle(mine, theirs, true, true) {
            Settled::Decided(numbers) if numbers.pn == 0 => GroupVerdict::Won,
            Settled::Decided(_) => GroupVerdict::Lost,
            Settled::Open(open) => GroupVerdict::Moves(open.forced),
        }
    }
}

/// A position the groups alone do not decide: the moves left to the mover (every empty
/// cell, unless a cell that closes an opponent's loop or the opponent's keys narrow them)
/// and the opponent's loops that narrowed them.
#[derive(Clone, Copy, Debug)]
struct Open {
    forced: u64,
    forced_proof: u64,
    /// The inferior moves left out.
    inferior: u64,
}
enum Settled {
    Decided(Numbers),
    Open(Open),
}
