//! The G-series of `o_g` and `n_g`, computed honestly to large genus, and the detection of
//! their preperiod and period.
//!
//! `G(o_g) = mex({G(o_{g-1})} ∪ {G(o_a) ⊕ G(o_b) : a + b = g})` and likewise for `n_g` with
//! the moves (c) to (h). The split moves make a direct computation quadratic. Here every
//! value below the mex is proved attained by a witness split and the mex is proved missing,
//! both exactly, in near-constant time per genus:
//!
//! * Indices of each sequence are classed by residue modulo [`MODULUS`]. A (value, residue)
//!   class seen at least [`DENSE_AFTER`] times is *dense*; every other index is kept in an
//!   explicit *exception* list of its value (the "rare values" of octal-game computations).
//! * A split `i + c·j = g` (c = 1, or 2 for (h)) whose values xor to x has one of its
//!   parts among the exceptions (checked one by one) or both parts in dense classes whose
//!   residues add up to g modulo [`MODULUS`] (a bitmask test). Only when such residues
//!   exist is the residue class scanned for a witness.
//!
//! Nothing assumes a period: the classes are built from the values as they are computed,
//! and the worst case (no structure at all) is the direct quadratic search.

pub use crosscap_engine::periodic::Periodicity;
use crosscap_engine::{Impartial, mex};
use serde::Serialize;

use crate::moves::Move;
use crate::surface::{Manifold, Surface};

/// The residue classes used to prove that a value is missing.
pub const MODULUS: usize = 120;

/// Occurrences after which a (value, residue) class is treated as dense.
pub const DENSE_AFTER: u32 = 8;

/// Values are small (at most 6 for this game); sets of them are bitmasks.
const VALUE_LIMIT: usize = 64;

const FULL: u128 = (1u128 << MODULUS) - 1;

/// G(o_g) and G(n_g) for every genus up to a bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    orientable: Vec<u8>,
    nonorientable: Vec<u8>,
}

impl Series {
    /// Both series to `max_genus`.
    pub fn compute(max_genus: u32) -> Series {
        Series::compute_with_progress(max_genus, &mut |_| {})
    }

    /// Both series, calling `progress` with the genus reached every 65,536 genera.
    pub fn compute_with_progress(max_genus: u32, progress: &mut dyn FnMut(u32)) -> Series {
        let n = max_genus as usize;
        let mut orientable = vec![0u8; n + 1];
        let mut o_classes = ValueClasses::new();
        for g in 1..=n {
            let mut found = 1u64 << orientable[g - 1];
            let split = Split {
                left: &orientable[..g],
                left_classes: &o_classes,
                right: &orientable[..g],
                right_classes: &o_classes,
                step: 1,
            };
            let value = smallest_missing(&mut found, |x| split.attains(g, x));
            orientable[g] = value;
            o_classes.push(g, value);
        }
        let mut nonorientable = vec![0u8; n + 1];
        let mut n_classes = ValueClasses::new();
        for g in 1..=n {
            let mut found = 1u64 << nonorientable[g - 1];
            if (g - 1) % 2 == 0 {
                found |= 1 << orientable[(g - 1) / 2];
            }
            if g >= 2 {
                found |= 1 << nonorientable[g - 2];
                if g % 2 == 0 {
                    found |= 1 << orientable[(g - 2) / 2];
                }
            }
            let two_nonorientable = Split {
                left: &nonorientable[..g],
                left_classes: &n_classes,
                right: &nonorientable[..g],
                right_classes: &n_classes,
                step: 1,
            };
            let mixed = Split {
                left: &orientable,
                left_classes: &o_classes,
                right: &nonorientable[..g],
                right_classes: &n_classes,
                step: 2,
            };
            let value = smallest_missing(&mut found, |x| {
                two_nonorientable.attains(g, x) || mixed.attains(g, x)
            });
            nonorientable[g] = value;
            n_classes.push(g, value);
            if g % 65_536 == 0 {
                progress(g as u32);
            }
        }
        progress(max_genus);
        Series {
            orientable,
            nonorientable,
        }
    }

    /// The reference computation: every move of every genus, `O(g²)`. Used to test
    /// [`Series::compute`] and as the baseline of its benchmark.
    pub fn direct(max_genus: u32) -> Series {
        let n = max_genus as usize;
        let mut o = vec![0u8; n + 1];
        for g in 1..=n {
            let splits = (1..=g / 2).map(|a| (o[a] ^ o[g - a]) as u32);
            o[g] = mex(std::iter::once(o[g - 1] as u32).chain(splits)) as u8;
        }
        let mut nn = vec![0u8; n + 1];
        for g in 1..=n {
            let mut values = vec![nn[g - 1] as u32];
            if (g - 1) % 2 == 0 {
                values.push(o[(g - 1) / 2] as u32);
            }
            if g >= 2 {
                values.push(nn[g - 2] as u32);
                if g % 2 == 0 {
                    values.push(o[(g - 2) / 2] as u32);
                }
            }
            values.extend((1..=g / 2).map(|a| (nn[a] ^ nn[g - a]) as u32));
            values.extend((1..=(g - 1) / 2).map(|i| (o[i] ^ nn[g - 2 * i]) as u32));
            nn[g] = mex(values) as u8;
        }
        Series {
            orientable: o,
            nonorientable: nn,
        }
    }

    pub fn max_genus(&self) -> u32 {
        (self.orientable.len() - 1) as u32
    }

    /// G(o_g) for g = 0, 1, ...
    pub fn orientable(&self) -> &[u8] {
        &self.orientable
    }

    /// G(n_g) for g = 0, 1, ...
    pub fn nonorientable(&self) -> &[u8] {
        &self.nonorientable
    }

    /// The G-value of a surface, `None` beyond the computed genus.
    pub fn grundy(&self, surface: Surface) -> Option<u32> {
        let g = surface.genus() as usize;
        let values = if surface.is_orientable() {
            &self.orientable
        } else {
            &self.nonorientable
        };
        values.get(g).map(|&v| v as u32)
    }

    /// The G-value of a 2-manifold: the nim-sum of its surfaces' values. `None` if a
    /// surface is beyond the computed genus.
    pub fn value(&self, manifold: &Manifold) -> Option<u32> {
        manifold
            .surfaces()
            .iter()
            .try_fold(0, |acc, &s| Some(acc ^ self.grundy(s)?))
    }

    /// The G-value of the position `mv` leads to from a position of value `before`.
    pub fn value_after(&self, before: u32, mv: &Move) -> Option<u32> {
        let pieces = mv.into.surfaces();
        pieces
            .iter()
            .try_fold(before ^ self.grundy(mv.from)?, |acc, &s| {
                Some(acc ^ self.grundy(s)?)
            })
    }

    /// Every move with the value of the position it leads to, in the order of
    /// [`Impartial::moves`]; `None` if a surface is beyond the computed genus.
    pub fn move_values(&self, manifold: &Manifold) -> Option<Vec<(Move, u32)>> {
        let before = self.value(manifold)?;
        manifold
            .moves()
            .into_iter()
            .map(|m| Some((m, self.value_after(before, &m)?)))
            .collect()
    }

    /// The moves to a position of value 0 (none exactly when the value is 0).
    pub fn winning_moves(&self, manifold: &Manifold) -> Option<Vec<Move>> {
        Some(
            self.move_values(manifold)?
                .into_iter()
                .filter(|&(_, v)| v == 0)
                .map(|(m, _)| m)
                .collect(),
        )
    }
}

/// Adds to `found` every value that `attained` proves, from the smallest missing one up,
/// and returns the first that is not attained: the mex.
fn smallest_missing(found: &mut u64, attained: impl Fn(u8) -> bool) -> u8 {
    loop {
        let x = found.trailing_ones() as usize;
        assert!(x < VALUE_LIMIT, "G-values beyond 63 are not supported");
        if attained(x as u8) {
            *found |= 1 << x;
        } else {
            return x as u8;
        }
    }
}

/// Where each value has occurred in a sequence: dense residue classes as bitmasks, the
/// other occurrences listed.
struct ValueClasses {
    counts: Vec<[u32; MODULUS]>,
    dense: [u128; VALUE_LIMIT],
    /// `{-r mod M : r dense}`, so that `g - r` is a rotation.
    reflected: [u128; VALUE_LIMIT],
    /// `{2r mod M : r dense}`, for the (h) splits `2i + j = g`.
    doubled: [u128; VALUE_LIMIT],
    exceptions: Vec<Vec<u32>>,
    present: u64,
}

impl ValueClasses {
    fn new() -> Self {
        ValueClasses {
            counts: vec![[0; MODULUS]; VALUE_LIMIT],
            dense: [0; VALUE_LIMIT],
            reflected: [0; VALUE_LIMIT],
            doubled: [0; VALUE_LIMIT],
            exceptions: vec![Vec::new(); VALUE_LIMIT],
            present: 0,
        }
    }

    fn push(&mut self, index: usize, value: u8) {
        let v = value as usize;
        let r = index % MODULUS;
        self.present |= 1 << v;
        if self.dense[v] >> r & 1 == 1 {
            return;
        }
        self.counts[v][r] += 1;
        if self.counts[v][r] < DENSE_AFTER {
            self.exceptions[v].push(index as u32);
            return;
        }
        self.dense[v] |= 1 << r;
        self.reflected[v] |= 1 << ((MODULUS - r) % MODULUS);
        self.doubled[v] |= 1 << (2 * r % MODULUS);
        self.exceptions[v].retain(|&i| i as usize % MODULUS != r);
    }

    fn scaled(&self, value: usize, step: usize) -> u128 {
        if step == 1 {
            self.dense[value]
        } else {
            self.doubled[value]
        }
    }
}

/// `{(r + k) mod M : r in mask}`.
fn rotate(mask: u128, k: usize) -> u128 {
    if k == 0 {
        mask
    } else {
        ((mask << k) | (mask >> (MODULUS - k))) & FULL
    }
}

/// The splits `left_i + right_j` with `step·i + j = g`, `i, j >= 1`.
struct Split<'a> {
    left: &'a [u8],
    left_classes: &'a ValueClasses,
    right: &'a [u8],
    right_classes: &'a ValueClasses,
    step: usize,
}

impl Split<'_> {
    /// Is there a split of `g` whose values xor to `x`? Exact.
    fn attains(&self, g: usize, x: u8) -> bool {
        let c = self.step;
        if g < 1 + c {
            return false;
        }
        let hi = (g - 1) / c;
        let witness = |i: usize, u: usize, v: usize| {
            self.left[i] as usize == u && self.right[g - c * i] as usize == v
        };
        let mut lefts = self.left_classes.present;
        while lefts != 0 {
            let u = lefts.trailing_zeros() as usize;
            lefts &= lefts - 1;
            let v = u ^ x as usize;
            if v >= VALUE_LIMIT || self.right_classes.present >> v & 1 == 0 {
                continue;
            }
            for &i in &self.left_classes.exceptions[u] {
                let i = i as usize;
                if i > hi {
                    break;
                }
                if self.right[g - c * i] as usize == v {
                    return true;
                }
            }
            for &j in &self.right_classes.exceptions[v] {
                let j = j as usize;
                if j >= g {
                    break;
                }
                if (g - j).is_multiple_of(c)
                    && (g - j) / c <= hi
                    && self.left[(g - j) / c] as usize == u
                {
                    return true;
                }
            }
            let partners = rotate(self.right_classes.reflected[v], g % MODULUS);
            if self.left_classes.scaled(u, c) & partners == 0 {
                continue;
            }
            let mut residues = self.left_classes.dense[u];
            while residues != 0 {
                let r = residues.trailing_zeros() as usize;
                residues &= residues - 1;
                if partners >> (c * r % MODULUS) & 1 == 0 {
                    continue;
                }
                let first = if r == 0 { MODULUS } else { r };
                if (first..=hi).step_by(MODULUS).any(|i| witness(i, u, v)) {
                    return true;
                }
            }
        }
        false
    }
}

/// The shortest period, with its least preperiod, that the computed G-values show at
/// least three times over (the engine's detector, plain periodicity); `None` if there is
/// none.
pub fn detect_period(values: &[u8]) -> Option<Periodicity> {
    let values: Vec<i64> = values.iter().map(|&v| i64::from(v)).collect();
    crosscap_engine::periodic::detect_period(&values, false)
}

/// Whether the detected periods hold for every genus, not only the computed ones.
///
/// The argument of octal games, adapted to the moves (a)-(h). Write P' = max(P, 1).
///
/// * `o`, period p from P: for g >= 2P' + p, the split (a, b) of g + p with b >= a has
///   b - p >= P', so (a, b - p) is a split of g with the same value, and back; (a) moves to
///   o(g + p - 1) and o(g - 1), equal by induction. So values checked for P <= i < 2P' + p
///   settle all genera.
/// * `n`, period q from Q, with q even and p dividing q/2 (so g and g + q have the same
///   parity and the orientable surfaces of (d), (f) and (h) shift by a multiple of p):
///   for g >= B = max(2Q' + q, 2P' + Q' + q, Q' + 2, 2P' + 2), the moves (c) to (g)
///   correspond as for `o`, and an (h) split (o_i, n_j) of g + q maps to (o_i, n_{j-q})
///   when j >= Q' + q and to (o_{i-q/2}, n_j) otherwise (then i - q/2 >= P'), and back. So
///   values checked for Q <= i < B settle all genera.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PeriodProof {
    pub orientable: bool,
    pub nonorientable: bool,
}

/// Which of the periods detected in `series` (by [`detect_period`]) are proved for every
/// genus by the values computed.
pub fn prove_periods(
    series: &Series,
    o: Option<&Periodicity>,
    n: Option<&Periodicity>,
) -> PeriodProof {
    let known = series.max_genus() as usize;
    let orientable = o.is_some_and(|o| {
        let pre = o.preperiod.max(1);
        known + 1 >= 2 * pre + 2 * o.period
    });
    let nonorientable = orientable
        && match (o, n) {
            (Some(o), Some(n)) => {
                let (p, pre_o) = (o.period, o.preperiod.max(1));
                let (q, pre_n) = (n.period, n.preperiod.max(1));
                let bound = (2 * pre_n + q)
                    .max(2 * pre_o + pre_n + q)
                    .max(pre_n + 2)
                    .max(2 * pre_o + 2);
                q % 2 == 0 && (q / 2) % p == 0 && known + 1 >= bound + q
            }
            _ => false,
        };
    PeriodProof {
        orientable,
        nonorientable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A sequence with structure (periodic, period not necessarily dividing the modulus)
    /// and noise, like the G-series of an octal game with rare values.
    fn noisy_periodic() -> impl Strategy<Value = Vec<u8>> {
        (
            prop::collection::vec(0u8..8, 1..10),
            prop::collection::vec((1usize..2500, 0u8..12), 0..12),
        )
            .prop_map(|(block, noise)| {
                let mut values: Vec<u8> = (0..2500).map(|i| block[i % block.len()]).collect();
                for (i, v) in noise {
                    values[i] = v;
                }
                values[0] = 0;
                values
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, rng_seed: proptest::test_runner::RngSeed::Fixed(7), ..ProptestConfig::default() })]

        /// The residue-class proofs decide exactly what a scan of every split decides.
        #[test]
        fn split_proofs_agree_with_a_full_scan(
            left in noisy_periodic(),
            right in noisy_periodic(),
            queries in prop::collection::vec((2usize..2500, 0u8..16), 40),
        ) {
            let classes = |values: &[u8]| {
                let mut c = ValueClasses::new();
                for (i, &v) in values.iter().enumerate().skip(1) {
                    c.push(i, v);
                }
                c
            };
            let (left_classes, right_classes) = (classes(&left), classes(&right));
            for step in [1, 2] {
                let split = Split {
                    left: &left,
                    left_classes: &left_classes,
                    right: &right,
                    right_classes: &right_classes,
                    step,
                };
                for &(g, x) in &queries {
                    let scan = (1..=(g - 1) / step).any(|i| left[i] ^ right[g - step * i] == x);
                    prop_assert_eq!(split.attains(g, x), scan, "g {} x {} step {}", g, x, step);
                }
            }
        }
    }

    #[test]
    fn fast_series_equals_the_direct_computation() {
        assert_eq!(Series::compute(3000), Series::direct(3000));
        for n in 0..30 {
            assert_eq!(Series::compute(n), Series::direct(n), "to genus {n}");
        }
    }

    #[test]
    fn first_values_are_the_papers() {
        let s = Series::compute(14);
        assert_eq!(
            s.orientable(),
            [0, 1, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2]
        );
        assert_eq!(
            s.nonorientable(),
            [0, 1, 2, 4, 6, 0, 3, 4, 6, 0, 3, 4, 6, 0, 3]
        );
        assert_eq!(s.grundy(Surface::NonOrientable(5)), Some(0));
        assert_eq!(s.grundy(Surface::Orientable(15)), None);
    }

    #[test]
    fn residue_classes_turn_dense_and_keep_the_rest_as_exceptions() {
        assert_eq!(rotate(1, 5), 1 << 5);
        assert_eq!(rotate(1 << (MODULUS - 1), 1), 1);
        let mut classes = ValueClasses::new();
        for i in 1..=(DENSE_AFTER as usize * MODULUS) {
            classes.push(i, (i % 2) as u8);
        }
        classes.push(7, 5);
        assert_eq!(classes.dense[1].count_ones() as usize, MODULUS / 2);
        assert!(classes.exceptions[0].is_empty() && classes.exceptions[1].is_empty());
        assert_eq!(classes.exceptions[5], [7]);
    }

    #[test]
    fn periods_are_detected_from_the_values() {
        let s = Series::compute(200);
        let o = detect_period(s.orientable()).unwrap();
        assert_eq!(
            (o.preperiod, o.period, o.notation()),
            (2, 2, "01[20]".into())
        );
        let n = detect_period(s.nonorientable()).unwrap();
        assert_eq!((n.preperiod, n.period), (3, 4));
        assert_eq!(n.notation(), "012[4603]");
        assert_eq!(detect_period(&[0, 1, 2, 3, 4, 5]), None);
        assert_eq!(detect_period(&[]), None);
        assert_eq!(detect_period(&[5, 5, 5]).unwrap().period, 1);
    }

    /// Table 2.1 (genus 0 to 14) is exactly enough to prove both periods, as in the
    /// paper's proof of Theorem 2.4; a shorter table is not.
    #[test]
    fn the_papers_table_proves_the_periods() {
        let proof = |max| {
            let s = Series::compute(max);
            let (o, n) = (
                detect_period(s.orientable()),
                detect_period(s.nonorientable()),
            );
            prove_periods(&s, o.as_ref(), n.as_ref())
        };
        assert_eq!(
            proof(14),
            PeriodProof {
                orientable: true,
                nonorientable: true
            }
        );
        assert_eq!(
            proof(1000),
            PeriodProof {
                orientable: true,
                nonorientable: true
            }
        );
        assert!(!proof(13).nonorientable);
        assert!(proof(7).orientable && !proof(6).orientable);
        assert_eq!(
            proof(3),
            PeriodProof {
                orientable: false,
                nonorientable: false
            }
        );
    }
}
