//! Solves split into jobs that are solved apart and put together afterwards (every
//! opening of a board: one job per class of first moves, or per reply to one), so that
//! each job has a budget of its own, a job that runs out leaves the others solved, and
//! hosts can record, shard and resume jobs without knowing the game.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::solver::MarginBounds;
use crate::{Budget, Exhausted, Player};

/// A solve split into jobs as a game offers it (every opening of a board): the jobs are
/// numbered and named from the start alone, solved in any subset and put together from
/// every job's value, so that a host runs, records, shards and resumes them without
/// knowing the game.
pub trait SplitSolve: Sync {
    type Answer;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The job's name in the files, e.g. `a1 b2`.
    fn id(&self, job: usize) -> String;
    /// Who wins after the job's move, given its value.
    fn winner(&self, job: usize, value: i32) -> Option<Player>;
    /// Solves the jobs numbered `which`, each under `budget`, calling `done` with each job
    /// and its value as soon as it is solved or cut short; the values in the order of
    /// `which`.
    fn solve(
        &self,
        which: &[usize],
        budget: &Budget,
        done: &(dyn Fn(usize, &JobValue) + Sync),
    ) -> Vec<JobValue>;
    /// The answer made of every job's value (`values[j]` for job `j`), `millis` the time
    /// the solve took. Values of another number than the jobs' are refused.
    fn answer(&self, values: &[JobValue], millis: f64) -> Result<Self::Answer, ValueCount>;
}

/// Every job of `jobs` solved at once, the budget applying to each: the whole answer.
pub fn solve_all<S: SplitSolve>(jobs: &S, budget: &Budget) -> S::Answer {
    let clock = Instant::now();
    let every: Vec<usize> = (0..jobs.len()).collect();
    let values = jobs.solve(&every, budget, &|_, _| {});
    jobs.answer(&values, clock.elapsed().as_secs_f64() * 1000.0)
        .expect("the solve gives one value per job")
}

/// What one job found: its value for the player who made the job's move (1 a win, -1 a
/// loss, 0 a draw; a scored game's margin), or the limit that ran out first.
#[derive(Clone, Debug, PartialEq)]
pub struct JobValue {
    pub value: Result<i32, Exhausted>,
    /// What a job cut short proved of its value before (a scored game's search finds who
    /// wins before by how much); nothing for a solved job.
    pub bounds: MarginBounds,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Solves the jobs numbered `which` on `workers` threads of the rayon pool (at most one
/// per job), each thread taking the next job left with a solver of its own made by
/// `new_worker`. `done` is called with each job and its value as soon as it is solved or
/// cut short. The values come in the order of `which`.
pub fn solve_jobs<W>(
    which: &[usize],
    workers: usize,
    new_worker: &(dyn Fn() -> W + Sync),
    solve: &(dyn Fn(&mut W, usize) -> JobValue + Sync),
    done: &(dyn Fn(usize, &JobValue) + Sync),
) -> Vec<JobValue> {
    let next = AtomicUsize::new(0);
    let values: Mutex<Vec<Option<JobValue>>> = Mutex::new(vec![None; which.len()]);
    let worker = || {
        let mut solver = new_worker();
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(&job) = which.get(index) else { break };
            let value = solve(&mut solver, job);
            done(job, &value);
            values.lock().expect("no panics")[index] = Some(value);
        }
    };
    rayon::scope(|scope| {
        for _ in 0..workers.max(1).min(which.len()) {
            scope.spawn(|_| worker());
        }
    });
    values
        .into_inner()
        .expect("no panics")
        .into_iter()
        .map(|value| value.expect("every job is done"))
        .collect()
}

/// Values of another number than the jobs' were given to put together (from result files
/// of another board or version, say).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{given} job values for the {jobs} jobs of the all-openings solve: one per job is needed")]
pub struct ValueCount {
    pub given: usize,
    pub jobs: usize,
}

impl ValueCount {
    /// Refuses `values` unless there is one per job of `jobs`.
    pub fn check<T>(values: &[T], jobs: usize) -> Result<(), ValueCount> {
        match values.len() == jobs {
            true => Ok(()),
            false => Err(ValueCount {
                given: values.len(),
                jobs,
            }),
        }
    }
}

/// What a group of jobs (those of one class of openings) found together: the nodes and
/// time of them all, and every job's value in order, or the first limit that ran out.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupValue {
    pub values: Result<Vec<i32>, Exhausted>,
    pub nodes: u64,
    pub millis: f64,
}

impl GroupValue {
    pub fn of<'a>(jobs: impl IntoIterator<Item = &'a JobValue>) -> GroupValue {
        let jobs: Vec<&JobValue> = jobs.into_iter().collect();
        GroupValue {
            values: jobs.iter().map(|job| job.value).collect(),
            nodes: jobs.iter().map(|job| job.nodes).sum(),
            millis: jobs
                .iter()
                .map(|job| job.elapsed.as_secs_f64() * 1000.0)
                .sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(value: Result<i32, Exhausted>, nodes: u64) -> JobValue {
        JobValue {
            value,
            bounds: MarginBounds::default(),
            nodes,
            elapsed: Duration::from_millis(nodes),
        }
    }

    /// Every job is solved once, reported once, and its value returned in place, on any
    /// number of workers; each worker's state is its own.
    #[test]
    fn every_job_is_solved_once_in_order() {
        for workers in [0, 1, 3, 20] {
            let which = [4, 0, 7, 2, 9];
            let reported = Mutex::new(Vec::new());
            let values = solve_jobs(
                &which,
                workers,
                &|| 0_u64,
                &|solved_here: &mut u64, j| {
                    *solved_here += 1;
                    job(Ok(j as i32 * 10), *solved_here)
                },
                &|j, value| reported.lock().unwrap().push((j, value.value)),
            );
            let found: Vec<Result<i32, Exhausted>> = values.iter().map(|v| v.value).collect();
            assert_eq!(found, which.map(|j| Ok(j as i32 * 10)), "{workers} workers");
            let mut reported = reported.into_inner().unwrap();
            reported.sort_unstable_by_key(|&(j, _)| j);
            let mut expected: Vec<_> = which.iter().map(|&j| (j, Ok(j as i32 * 10))).collect();
            expected.sort_unstable_by_key(|&(j, _)| j);
            assert_eq!(reported, expected);
        }
        assert!(solve_jobs(&[], 2, &|| (), &|_, _| job(Ok(0), 0), &|_, _| {}).is_empty());
    }

    /// A group adds up its jobs' nodes and times, and is cut short by the first of its
    /// jobs that ran out.
    #[test]
    fn a_group_is_unknown_when_a_job_ran_out() {
        let solved = [job(Ok(1), 2), job(Ok(-1), 3)];
        assert_eq!(
            GroupValue::of(&solved),
            GroupValue {
                values: Ok(vec![1, -1]),
                nodes: 5,
                millis: 5.0
            }
        );
        let cut = [
            job(Ok(1), 2),
            job(Err(Exhausted::Nodes), 4),
            job(Err(Exhausted::Time), 1),
        ];
        let group = GroupValue::of(&cut);
        assert_eq!((group.values, group.nodes), (Err(Exhausted::Nodes), 7));
    }
}
