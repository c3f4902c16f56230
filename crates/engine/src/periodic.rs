//! Ultimate periodicity of a sequence of values (Grundy values along a series, P-positions
//! along a slice): after a preperiod the values repeat with some period, or, arithmetic-
//! periodically, repeat shifted by a constant saltus each period. One detector for every
//! game's sequences.

use serde::Serialize;

/// `values[i + period] == values[i] + saltus` for every `i >= preperiod` in the range
/// looked at (saltus 0: plain periodicity).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Periodicity {
    pub preperiod: usize,
    pub period: usize,
    pub saltus: i64,
    /// The values before the period.
    pub pre: Vec<i64>,
    /// One period, the first.
    pub repeating: Vec<i64>,
}

impl Periodicity {
    /// The notation of the combinatorial game literature without the overline: `012[4603]`
    /// (values of more than one digit separated by spaces), `+s` after a saltus.
    pub fn notation(&self) -> String {
        let digits = |v: &[i64]| {
            let sep = if v.iter().all(|&x| (0..10).contains(&x)) {
                ""
            } else {
                " "
            };
            v.iter().map(i64::to_string).collect::<Vec<_>>().join(sep)
        };
        let saltus = match self.saltus {
            0 => String::new(),
            s => format!(" {s:+}"),
        };
        format!("{}[{}]{saltus}", digits(&self.pre), digits(&self.repeating))
    }
}

/// The shortest period, with its least preperiod, that `values` show at least three times
/// over; with `arithmetic`, periods whose values grow by a constant saltus count too. `None`
/// when there is none.
///
/// ```
/// use crosscap_engine::periodic::detect_period;
///
/// let values = [0, 1, 2, 0, 2, 0, 2, 0, 2, 0, 2];
/// let found = detect_period(&values, false).unwrap();
/// assert_eq!((found.preperiod, found.period, found.notation()), (2, 2, "01[20]".to_string()));
/// // Arithmetic periodicity: each period adds the saltus (+1 here).
/// let growing = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
/// assert_eq!(detect_period(&growing, true).unwrap().saltus, 1);
/// assert!(detect_period(&growing, false).is_none());
/// ```
pub fn detect_period(values: &[i64], arithmetic: bool) -> Option<Periodicity> {
    let n = values.len();
    (1..=n / 3).find_map(|period| {
        let saltus = if arithmetic {
            values[n - 1] - values[n - 1 - period]
        } else {
            0
        };
        // The last index that breaks this period ends the preperiod.
        let preperiod = (0..n - period)
            .rev()
            .find(|&i| values[i + period] != values[i] + saltus)
            .map_or(0, |i| i + 1);
        (n - preperiod >= 3 * period).then(|| Periodicity {
            preperiod,
            period,
            saltus,
            pre: values[..preperiod].to_vec(),
            repeating: values[preperiod..preperiod + period].to_vec(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifold_series_of_the_paper() {
        // G(n_g): 0 1 2 then 4 6 0 3 over and over.
        let values: Vec<i64> = (0..40)
            .map(|g| {
                if g < 3 {
                    g
                } else {
                    [4, 6, 0, 3][(g as usize - 3) % 4]
                }
            })
            .collect();
        let p = detect_period(&values, false).unwrap();
        assert_eq!((p.preperiod, p.period, p.saltus), (3, 4, 0));
        assert_eq!(p.notation(), "012[4603]");
    }

    #[test]
    fn arithmetic_periodicity_needs_the_flag() {
        // 0 1 1 2 2 3 3 ...: period 2 from the start, each period one more.
        let values: Vec<i64> = (0..30).map(|i| (i + 1) / 2).collect();
        assert_eq!(detect_period(&values, false), None);
        let p = detect_period(&values, true).unwrap();
        assert_eq!((p.preperiod, p.period, p.saltus), (0, 2, 1));
        assert_eq!(p.notation(), "[01] +1");
    }

    #[test]
    fn too_short_a_tail_is_no_period() {
        assert_eq!(detect_period(&[1, 2, 3, 4, 5], false), None);
        assert_eq!(detect_period(&[], true), None);
        assert_eq!(detect_period(&[7, 7, 7], false).unwrap().period, 1);
    }
}
