//! Compact surfaces and compact 2-manifolds (finite multisets of surfaces), with the
//! paper's names: `o<g>` (connected sum of g tori), `n<g>` (connected sum of g projective
//! planes) and `S` for the sphere, which is both `o0` and `n0`; read also as `T`, `P`, `K`
//! and connected sums such as `T#P`.

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

use crate::ManifoldError;

/// The largest genus the crate accepts in a name: the G-series to this genus takes a few
/// seconds, and move lists are as long as the genus.
pub const MAX_GENUS: u32 = 10_000_000;

/// A compact surface (Theorem 1.1): the sphere, `o_g` or `n_g` with g at least 1.
///
/// The sphere has one representation, so equal surfaces compare equal. The order (sphere,
/// then orientable, then non-orientable, each by genus) is the order positions are written
/// in, as the paper writes `(o1, n2)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Surface {
    Sphere,
    /// Connected sum of this many tori (at least 1).
    Orientable(u32),
    /// Connected sum of this many projective planes (at least 1).
    NonOrientable(u32),
}

impl Surface {
    /// `o_g`, the sphere when `genus` is 0.
    pub fn orientable(genus: u32) -> Surface {
        if genus == 0 {
            Surface::Sphere
        } else {
            Surface::Orientable(genus)
        }
    }

    /// The surface with the sphere's one representation: `Orientable(0)` and
    /// `NonOrientable(0)` are the sphere (a move from them would take a handle or crosscap
    /// they do not have).
    pub fn canonical(self) -> Surface {
        match self {
            Surface::Orientable(genus) => Surface::orientable(genus),
            Surface::NonOrientable(genus) => Surface::non_orientable(genus),
            Surface::Sphere => Surface::Sphere,
        }
    }

    /// `n_g`, the sphere when `genus` is 0.
    pub fn non_orientable(genus: u32) -> Surface {
        if genus == 0 {
            Surface::Sphere
        } else {
            Surface::NonOrientable(genus)
        }
    }

    pub fn genus(self) -> u32 {
        match self {
            Surface::Sphere => 0,
            Surface::Orientable(g) | Surface::NonOrientable(g) => g,
        }
    }

    pub fn is_orientable(self) -> bool {
        !matches!(self, Surface::NonOrientable(_))
    }

    pub fn is_sphere(self) -> bool {
        self == Surface::Sphere
    }

    /// 2 - 2g for `o_g`, 2 - g for `n_g`.
    pub fn euler_characteristic(self) -> i64 {
        match self {
            Surface::Sphere => 2,
            Surface::Orientable(g) => 2 - 2 * g as i64,
            Surface::NonOrientable(g) => 2 - g as i64,
        }
    }
}

impl fmt::Display for Surface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Surface::Sphere => f.write_str("S"),
            Surface::Orientable(g) => write!(f, "o{g}"),
            Surface::NonOrientable(g) => write!(f, "n{g}"),
        }
    }
}

impl Serialize for Surface {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl FromStr for Surface {
    type Err = ManifoldError;

    /// Reads the paper's names, `S` (or `sphere`, `o0`, `n0`), `o<g>` and `n<g>`, the usual
    /// ones, `T` (`torus`), `P` (`RP2`, `projective-plane`) and `K` (`klein`,
    /// `klein-bottle`), and connected sums of them joined by `#`: `T#P` is `n3`
    /// (Theorem 1.2), a handle next to a crosscap counting as two crosscaps.
    fn from_str(text: &str) -> Result<Surface, ManifoldError> {
        let bad = |reason: &str| ManifoldError::BadSurface {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        // The handles and crosscaps of the summands, counted in u64 so that a long sum
        // cannot wrap before the genus is checked.
        let (mut handles, mut crosscaps) = (0u64, 0u64);
        for summand in text.split('#') {
            let (h, c) = summand_counts(summand.trim()).map_err(bad)?;
            handles = handles.saturating_add(h);
            crosscaps = crosscaps.saturating_add(c);
        }
        let genus = if crosscaps == 0 {
            handles
        } else {
            handles.saturating_mul(2).saturating_add(crosscaps)
        };
        let genus = u32::try_from(genus)
            .ok()
            .filter(|&g| g <= MAX_GENUS)
            .ok_or_else(|| bad(&format!("the genus is at most {MAX_GENUS}")))?;
        Ok(if crosscaps == 0 {
            Surface::orientable(genus)
        } else {
            Surface::non_orientable(genus)
        })
    }
}

/// The handles and crosscaps of one summand of a connected sum (see [`Surface`]'s
/// `from_str`), or why it is no surface.
fn summand_counts(name: &str) -> Result<(u64, u64), &'static str> {
    const EXPECTED: &str = "expected S (the sphere), o<genus> (orientable), n<genus> \
        (non-orientable), T, P or K, or a connected sum such as T#P";
    let named = match name.to_ascii_lowercase().as_str() {
        "" => return Err("empty surface name"),
        "s" | "sphere" => Some((0, 0)),
        "t" | "torus" => Some((1, 0)),
        "p" | "rp2" | "projective-plane" => Some((0, 1)),
        "k" | "klein" | "klein-bottle" => Some((0, 2)),
        _ => None,
    };
    if let Some(counts) = named {
        return Ok(counts);
    }
    let mut chars = name.chars();
    let orientable = match chars.next() {
        Some('o' | 'O') => true,
        Some('n' | 'N') => false,
        _ => return Err(EXPECTED),
    };
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("the genus must be a whole number, e.g. o2 or n5");
    }
    // Past u64 the genus is over the limit anyway.
    let genus = digits.parse::<u64>().unwrap_or(u64::MAX);
    Ok(if orientable { (genus, 0) } else { (0, genus) })
}

/// A compact 2-manifold: a finite multiset of surfaces, kept sorted. Spheres stay in the
/// multiset (the game ends with a collection of spheres) but take no part in play.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Manifold {
    surfaces: Vec<Surface>,
}

impl Manifold {
    /// The manifold of `surfaces`; a genus-0 variant, which the enum allows, is the sphere.
    pub fn new(surfaces: Vec<Surface>) -> Manifold {
        let mut surfaces: Vec<Surface> = surfaces.into_iter().map(Surface::canonical).collect();
        surfaces.sort_unstable();
        Manifold { surfaces }
    }

    /// The single surface `surface`.
    pub fn single(surface: Surface) -> Manifold {
        Manifold::new(vec![surface])
    }

    /// The surfaces, sorted.
    pub fn surfaces(&self) -> &[Surface] {
        &self.surfaces
    }

    /// The surfaces that are not spheres: the independent games of the disjunctive sum.
    pub fn playable(&self) -> impl Iterator<Item = Surface> + '_ {
        self.surfaces.iter().copied().filter(|s| !s.is_sphere())
    }

    /// The largest genus of any surface (0 for spheres only).
    pub fn max_genus(&self) -> u32 {
        self.surfaces.iter().map(|s| s.genus()).max().unwrap_or(0)
    }

    /// This manifold with one copy of `from` replaced by `into`; `None` if `from` is not
    /// one of its surfaces.
    pub fn replace(&self, from: Surface, into: &[Surface]) -> Option<Manifold> {
        let at = self.surfaces.iter().position(|&s| s == from)?;
        let mut surfaces = self.surfaces.clone();
        surfaces.swap_remove(at);
        surfaces.extend_from_slice(into);
        Some(Manifold::new(surfaces))
    }
}

impl fmt::Display for Manifold {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.surfaces.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

impl Serialize for Manifold {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl FromStr for Manifold {
    type Err = ManifoldError;

    /// Reads surfaces separated by spaces, commas or `+`, e.g. `n3 o2 n5`.
    fn from_str(text: &str) -> Result<Manifold, ManifoldError> {
        let surfaces = text
            .split(|c: char| c.is_whitespace() || c == ',' || c == '+')
            .filter(|t| !t.is_empty())
            .map(str::parse)
            .collect::<Result<Vec<Surface>, _>>()?;
        if surfaces.is_empty() {
            return Err(ManifoldError::Empty);
        }
        Ok(Manifold::new(surfaces))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for text in ["S", "o1", "o2", "n1", "n7", "o10000000"] {
            assert_eq!(text.parse::<Surface>().unwrap().to_string(), text);
        }
        for sphere in ["S", "sphere", "o0", "n0", " n0 "] {
            assert_eq!(sphere.parse::<Surface>().unwrap(), Surface::Sphere);
        }
        assert_eq!("N3".parse::<Surface>().unwrap(), Surface::NonOrientable(3));
    }

    /// Genus 0 written with a variant is the sphere in a manifold: equal, and no move.
    #[test]
    fn genus_zero_variants_are_the_sphere() {
        use crosscap_engine::Impartial;
        for zero in [Surface::Orientable(0), Surface::NonOrientable(0)] {
            let manifold = Manifold::single(zero);
            assert_eq!(manifold, Manifold::single(Surface::Sphere));
            assert!(manifold.moves().is_empty());
        }
        assert_eq!(
            Manifold::new(vec![Surface::NonOrientable(0), Surface::Orientable(1)]),
            Manifold::new(vec![Surface::Orientable(1), Surface::Sphere])
        );
    }

    /// The usual names and connected sums, Theorem 1.2 among them: a torus summed with a
    /// projective plane is `n3`.
    #[test]
    fn usual_names_and_connected_sums() {
        for (text, surface) in [
            ("T", "o1"),
            ("torus", "o1"),
            ("P", "n1"),
            ("RP2", "n1"),
            ("projective-plane", "n1"),
            ("K", "n2"),
            ("Klein-bottle", "n2"),
            ("T#P", "n3"),
            ("P # T", "n3"),
            ("T#T#T", "o3"),
            ("P#P", "n2"),
            ("S#T", "o1"),
            ("S#s", "S"),
            ("o2#n1", "n5"),
            ("torus#klein", "n4"),
            ("o9999999#T", "o10000000"),
        ] {
            assert_eq!(
                text.parse::<Surface>().unwrap().to_string(),
                surface,
                "{text}"
            );
        }
        let sum: Manifold = "T#P + K, n1".parse().unwrap();
        assert_eq!(sum.to_string(), "n1 n2 n3");
    }

    /// A connected sum's Euler characteristic is the summands' less 2, and it is orientable
    /// when both are: checked for every two surfaces of genus at most 4.
    #[test]
    fn connected_sums_add_euler_characteristics() {
        let mut surfaces = vec![Surface::Sphere];
        for genus in 1..=4 {
            surfaces.extend([Surface::Orientable(genus), Surface::NonOrientable(genus)]);
        }
        for a in &surfaces {
            for b in &surfaces {
                let sum: Surface = format!("{a}#{b}").parse().unwrap();
                assert_eq!(
                    sum.euler_characteristic(),
                    a.euler_characteristic() + b.euler_characteristic() - 2,
                    "{a}#{b} = {sum}"
                );
                assert_eq!(sum.is_orientable(), a.is_orientable() && b.is_orientable());
            }
        }
    }

    #[test]
    fn bad_names_say_what_is_wrong() {
        for (bad, needle) in [
            ("", "empty"),
            ("t2", "expected S"),
            ("n", "whole number"),
            ("n-1", "whole number"),
            ("o2.5", "whole number"),
            ("n10000001", "at most"),
            ("o99999999999999999999999", "at most"),
            ("o10000000#T", "at most"),
            ("T#", "empty"),
            ("T#x", "connected sum"),
        ] {
            let err = bad.parse::<Surface>().unwrap_err().to_string();
            assert!(err.contains(needle), "{bad}: {err}");
        }
        assert_eq!("  ".parse::<Manifold>(), Err(ManifoldError::Empty));
        assert!("n3 x2".parse::<Manifold>().is_err());
    }

    #[test]
    fn positions_are_sorted_multisets() {
        let m: Manifold = "n3 o2 n5, S+n3".parse().unwrap();
        assert_eq!(m.to_string(), "S o2 n3 n3 n5");
        assert_eq!(m.playable().count(), 4);
        assert_eq!(m, "n5 n3 n3 o2 n0".parse().unwrap());
        let after = m.replace(Surface::NonOrientable(5), &[Surface::Orientable(1)]);
        assert_eq!(after.unwrap().to_string(), "S o1 o2 n3 n3");
        assert!(m.replace(Surface::Orientable(9), &[]).is_none());
    }

    #[test]
    fn euler_characteristics() {
        assert_eq!(Surface::Sphere.euler_characteristic(), 2);
        assert_eq!(Surface::Orientable(1).euler_characteristic(), 0);
        assert_eq!(Surface::NonOrientable(1).euler_characteristic(), 1);
        assert_eq!(Surface::NonOrientable(2).euler_characteristic(), 0);
    }
}
