//! The board families, each built from the argument of its spec string.

pub mod file;
pub mod goldberg;
pub mod grid;
pub mod hex;
pub mod sum;
pub mod taylor;

use crate::BoardParts;
use crate::error::TopologyError;

/// The sizes `taylor:N` and `goldberg:K` take.
pub(crate) const TAYLOR_SIZES: (usize, usize) = (2, 40);
pub(crate) const GOLDBERG_SIZES: (usize, usize) = (1, 40);

/// The parts of the board a family spec names (`taylor:3`, `sum:taylor:3+torus:4x4`, ...).
pub(crate) fn build(spec: &str) -> Result<BoardParts, TopologyError> {
    let (family, argument) = spec
        .split_once(':')
        .ok_or_else(|| TopologyError::UnknownFamily {
            spec: spec.to_string(),
        })?;
    Ok(match family {
        "taylor" => taylor::build(parse_size(spec, argument, TAYLOR_SIZES)?),
        "goldberg" => goldberg::build(parse_size(spec, argument, GOLDBERG_SIZES)?),
        "torus" | "klein" => {
            let (rows, columns) = grid::parse_dimensions(spec, argument)?;
            grid::build(rows, columns, family == "klein")
        }
        "sum" => sum::build(spec, argument)?,
        "file" => file::load(argument.trim())?,
        _ => {
            return Err(TopologyError::UnknownFamily {
                spec: spec.to_string(),
            });
        }
    })
}

/// Reads the size in `family:N`, which must lie in `min..=max`.
pub(crate) fn parse_size(
    spec: &str,
    argument: &str,
    (min, max): (usize, usize),
) -> Result<usize, TopologyError> {
    let bad = |reason: String| TopologyError::BadSpec {
        spec: spec.to_string(),
        reason,
    };
    let size: usize = argument
        .trim()
        .parse()
        .map_err(|_| bad(format!("{argument:?} is not a whole number")))?;
    if size < min || size > max {
        return Err(bad(format!("the size must be between {min} and {max}")));
    }
    Ok(size)
}

/// The name of row `r`: a, b, ..., z, aa, ab, ... (as spreadsheet columns, in lower case).
pub(crate) fn row_label(mut r: usize) -> String {
    let mut label = Vec::new();
    loop {
        label.push(b'a' + (r % 26) as u8);
        if r < 26 {
            break;
        }
        r = r / 26 - 1;
    }
    label.reverse();
    String::from_utf8(label).expect("letters are ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_labels_run_like_spreadsheet_columns() {
        let labels: Vec<String> = [0, 1, 25, 26, 27, 51, 52].map(row_label).to_vec();
        assert_eq!(labels, ["a", "b", "z", "aa", "ab", "az", "ba"]);
    }
}
