//! Every first move of an empty board solved, one class of symmetric cells at a time:
//! the classes are the orbits of the board's symmetries (those the solver's hashing
//! divides out), each class is one job of the engine's [`jobs`](crosscap_engine::jobs)
//! with a budget of its own, so a class that runs out is reported unknown and the others
//! are still solved, and hosts can shard and resume the jobs.

use std::time::Instant;

use crosscap_engine::catalog::Status;
use crosscap_engine::jobs::{GroupValue, JobValue, SplitSolve, ValueCount, solve_all, solve_jobs};
use crosscap_engine::openings::{ClassValue, OpeningClass};
use crosscap_engine::solver::MarginBounds;
use crosscap_engine::{Budget, Game, Player, SolveError};
use serde::Serialize;

use crate::game::{EulerGetter, Move, Rule};
use crate::host::{Extent, solve_keeping_bounds};

/// A class of first moves' value in Euler Getter: its margin, or what was proven of it.
#[derive(Clone, Debug, Serialize)]
pub struct ClassMargin {
    /// `chi X - chi O` after the first move with best play, when solved.
    pub margin: Option<i32>,
    /// What a class cut short proved of `chi X - chi O`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin_at_least: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin_at_most: Option<i32>,
}

/// What Euler Getter says of the whole board: the rule and the best margin.
#[derive(Clone, Debug, Serialize)]
pub struct BoardMargin {
    /// `normal` or `reverse`.
    pub rule: String,
    /// `chi X - chi O` after X's best first move, when every class is solved.
    pub margin: Option<i32>,
    /// The first moves reaching the best margin, when every class is solved (named as
    /// `solve` names a position's best moves).
    pub optimal_moves: Vec<String>,
}

impl ClassValue for ClassMargin {
    type Board = BoardMargin;
}

/// One class of first moves (cells the board's symmetries map onto each other).
pub type OpeningResult = OpeningClass<ClassMargin>;

/// Every first move of a board: one class of symmetric cells a row.
pub type Openings = crosscap_engine::openings::Openings<ClassMargin>;

/// Every opening is solved from the empty board without swap: with a swap the second
/// player's answer is not a move of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("every opening is solved from the empty board with --swap none")]
pub struct NotAtStart;

/// The solve of every first move of the empty board, split into jobs: one per class of
/// cells the board's symmetries map onto each other, in the order of the classes' least
/// cells. The jobs depend only on the board, so that shards of them can be solved on
/// other machines or resumed later (by the CLI) and put together by
/// [`SplitSolve::answer`].
pub struct OpeningJobs {
    start: EulerGetter,
    orbits: Vec<Vec<usize>>,
    /// The position after the first cell of each orbit.
    openings: Vec<EulerGetter>,
}

impl OpeningJobs {
    /// The jobs of `start`, which must be an empty board without swap.
    pub fn of(start: &EulerGetter) -> Result<OpeningJobs, NotAtStart> {
        if start.placed() > 0 || start.swap_rule().0.is_some() {
            return Err(NotAtStart);
        }
        let orbits = start.complex().board().symmetries().cell_orbits();
        let openings = orbits
            .iter()
            .map(|orbit| {
                let mut game = start.clone();
                game.play(&Move::Place(orbit[0] as u16));
                game
            })
            .collect();
        Ok(OpeningJobs {
            start: start.clone(),
            orbits,
            openings,
        })
    }

    /// `chi X - chi O` from X's value in the rule's terms (negated under the reverse rule).
    fn margin_of(&self, x_value: i32) -> i32 {
        self.start.rule().oriented(x_value)
    }
}

impl SplitSolve for OpeningJobs {
    type Answer = Openings;

    fn len(&self) -> usize {
        self.openings.len()
    }

    /// The job's name: the first cell of its class.
    fn id(&self, job: usize) -> String {
        self.start
            .complex()
            .board()
            .cell_name(self.orbits[job][0])
            .to_string()
    }

    /// Who wins after the job's first move, given its value for X.
    fn winner(&self, _job: usize, value: i32) -> Option<Player> {
        Player::X.winner_by(value)
    }

    /// Solves the jobs numbered `which` one after another, each with the whole budget
    /// and its threads (one class's search on every thread, sharing its table, so that
    /// `--max-memory` bounds the one table alive). Each value is X's, in the rule's terms
    /// (the margin `chi X - chi O` under the normal rule). `done` is called with each job
    /// and its value as soon as it is solved or cut short; the values come in the order
    /// of `which`.
    fn solve(
        &self,
        which: &[usize],
        budget: &Budget,
        done: &(dyn Fn(usize, &JobValue) + Sync),
    ) -> Vec<JobValue> {
        let solve_one = |(): &mut (), job: usize| {
            let clock = Instant::now();
            let opening = &self.openings[job];
            // A class is solved once its margin is, as a solve is; its moves are not needed.
            match solve_keeping_bounds(opening, budget, Extent::MarginOnly) {
                Ok(solution) => JobValue {
                    value: Ok(solution.value * opening.to_move().sign()),
                    bounds: MarginBounds::default(),
                    nodes: solution.nodes,
                    elapsed: clock.elapsed(),
                },
                Err((SolveError::Unknown { nodes, reason, .. }, bounds)) => JobValue {
                    value: Err(reason),
                    bounds,
                    nodes,
                    elapsed: clock.elapsed(),
                },
            }
        };
        solve_jobs(which, 1, &|| (), &solve_one, done)
    }

    /// The answer made of every job's value, `millis` the time the solve took. Values of
    /// another number than the jobs' are refused.
    fn answer(&self, values: &[JobValue], millis: f64) -> Result<Openings, ValueCount> {
        ValueCount::check(values, self.len())?;
        let board = self.start.complex().board();
        let names = |orbit: &[usize]| -> Vec<String> {
            orbit
                .iter()
                .map(|&c| board.cell_name(c).to_string())
                .collect()
        };
        let openings: Vec<OpeningResult> = self
            .orbits
            .iter()
            .zip(values)
            .map(|(orbit, value)| {
                let group = GroupValue::of([value]);
                let x_value = group.values.as_ref().ok().map(|values| values[0]);
                let bounds = x_value.map_or(value.bounds, |v| MarginBounds {
                    least: Some(v),
                    most: Some(v),
                });
                // Bounds on X's value are bounds on chi X - chi O, swapped under reverse.
                let (least, most) = match self.start.rule() {
                    Rule::Normal => (bounds.least, bounds.most),
                    Rule::Reverse => (bounds.most.map(|m| -m), bounds.least.map(|m| -m)),
                };
                let proven = |bound: Option<i32>| bound.filter(|_| x_value.is_none());
                OpeningResult {
                    cells: names(orbit),
                    sides: board.sides(orbit[0]).len(),
                    winner: bounds.winner().flatten(),
                    value: ClassMargin {
                        margin: x_value.map(|v| self.margin_of(v)),
                        margin_at_least: proven(least),
                        margin_at_most: proven(most),
                    },
                    nodes: group.nodes,
                    millis: group.millis,
                    status: match group.values {
                        Ok(_) => Status::Solved,
                        Err(reason) => Status::Unknown { reason },
                    },
                }
            })
            .collect();
        let best_margin = |_: &[OpeningResult], status: Status| {
            let best = match status {
                Status::Solved => values.iter().filter_map(|v| v.value.ok()).max(),
                Status::Unknown { .. } => None,
            };
            BoardMargin {
                rule: self.start.rule().to_string(),
                margin: best.map(|best| self.margin_of(best)),
                optimal_moves: match best {
                    Some(best) => self
                        .orbits
                        .iter()
                        .zip(values)
                        .filter(|(_, v)| v.value == Ok(best))
                        .flat_map(|(orbit, _)| names(orbit))
                        .collect(),
                    None => Vec::new(),
                },
            }
        };
        Ok(Openings::of(
            board.spec().to_string(),
            board.cell_count(),
            openings,
            best_margin,
            millis,
        ))
    }
}

/// Solves every first move of the empty board, one class of symmetric cells at a time,
/// the budget applying to each class: every job of [`OpeningJobs`] solved at once.
pub fn all_openings(start: &EulerGetter, budget: &Budget) -> Result<Openings, NotAtStart> {
    Ok(solve_all(&OpeningJobs::of(start)?, budget))
}

#[cfg(test)]
mod tests {
    use crosscap_engine::session::SetupLimits;

    use super::*;
    use crate::game::SwapRule;
    use crate::{new_game, solve};

    fn empty(spec: &str, rule: Rule, swap: SwapRule) -> EulerGetter {
        new_game(spec, rule, swap, None, &SetupLimits::default()).unwrap()
    }

    /// Each class's margin is the solve of its first move's position, every cell of the
    /// class has that margin (brute force over the orbit), the classes cover every cell
    /// once, and the board's margin is the empty board's solve; under both rules.
    #[test]
    fn each_class_has_the_margin_of_its_opening() {
        for rule in [Rule::Normal, Rule::Reverse] {
            let start = empty("goldberg:1", rule, SwapRule(None));
            let openings = all_openings(&start, &Budget::unlimited()).unwrap();
            assert_eq!(openings.status, Status::Solved);
            let board = start.complex().board();
            let mut covered = 0;
            for class in &openings.openings {
                for name in &class.cells {
                    let cell = (0..board.cell_count())
                        .find(|&c| board.cell_name(c) == name)
                        .unwrap();
                    let mut game = start.clone();
                    game.play(&Move::Place(cell as u16));
                    let solved = solve(&game, &Budget::unlimited()).unwrap();
                    assert_eq!(
                        (Some(solved.margin), solved.winner),
                        (class.value.margin, class.winner),
                        "{rule} {name}"
                    );
                    covered += 1;
                }
            }
            assert_eq!(covered, board.cell_count());
            let whole = solve(&start, &Budget::unlimited()).unwrap();
            assert_eq!(
                (openings.game.margin, openings.winner),
                (Some(whole.margin), whole.winner),
                "{rule}"
            );
        }
    }

    /// A budget too small for any class leaves every class unknown with its reason, and
    /// no winner or margin; a swap rule or a stone on the board is refused.
    #[test]
    fn classes_cut_short_are_unknown_and_other_starts_refused() {
        let start = empty("goldberg:2", Rule::Normal, SwapRule(None));
        let openings = all_openings(&start, &Budget::nodes(1)).unwrap();
        assert!(openings.openings.iter().all(|o| o.status
            == Status::Unknown {
                reason: crosscap_engine::Exhausted::Nodes
            }
            && o.value.margin.is_none()));
        assert_eq!((openings.winner, openings.game.margin), (None, None));
        let swap = empty("goldberg:1", Rule::Normal, SwapRule(Some(3)));
        assert_eq!(OpeningJobs::of(&swap).err(), Some(NotAtStart));
        let mut played = empty("goldberg:1", Rule::Normal, SwapRule(None));
        played.play(&Move::Place(0));
        assert_eq!(OpeningJobs::of(&played).err(), Some(NotAtStart));
    }
}
