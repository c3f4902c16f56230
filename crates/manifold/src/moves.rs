//! The moves of Theorem 2.1, (a) to (h): every proper decomposition of a compact surface,
//! with the resulting surfaces named by Corollary 1.3. The game as an engine
//! [`Impartial`], and its move notation `LETTER:FROM->RESULT`, e.g. `g:n5->n2+n3`.

use std::fmt;

use crosscap_engine::impartial_notation::ImpartialNotation;
use crosscap_engine::{Impartial, MoveError};
use serde::{Serialize, Serializer};

use crate::surface::{Manifold, Surface};

/// The eight kinds of decomposition of Theorem 2.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Letter {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl Letter {
    pub const ALL: [Letter; 8] = [
        Letter::A,
        Letter::B,
        Letter::C,
        Letter::D,
        Letter::E,
        Letter::F,
        Letter::G,
        Letter::H,
    ];

    pub fn as_char(self) -> char {
        (b'a' + self as u8) as char
    }

    pub fn from_char(c: char) -> Option<Letter> {
        Letter::ALL
            .into_iter()
            .find(|l| l.as_char() == c.to_ascii_lowercase())
    }

    /// The move in words: which kind of curve is cut, and what capping it off leaves.
    pub fn description(self) -> &'static str {
        match self {
            Letter::A => {
                "cut a non-separating curve on an orientable surface (its neighbourhood is an \
                 annulus): one handle is lost"
            }
            Letter::B => {
                "cut a separating curve on an orientable surface: two orientable surfaces whose \
                 genera add up"
            }
            Letter::C => {
                "cut a one-sided curve through one crosscap (its neighbourhood is a Möbius \
                 band): the crosscap is lost and the rest is non-orientable"
            }
            Letter::D => {
                "cut a one-sided curve through one crosscap (its neighbourhood is a Möbius \
                 band): the crosscap is lost and the rest is orientable (Corollary 1.3)"
            }
            Letter::E => {
                "cut a two-sided curve through two crosscaps (its neighbourhood is an annulus): \
                 both crosscaps are lost and the rest is non-orientable"
            }
            Letter::F => {
                "cut a two-sided curve through two crosscaps (its neighbourhood is an annulus): \
                 both crosscaps are lost and the rest is orientable (Corollary 1.3)"
            }
            Letter::G => "cut a separating curve into two non-orientable surfaces",
            Letter::H => {
                "cut a separating curve into an orientable and a non-orientable surface \
                 (Corollary 1.3)"
            }
        }
    }
}

impl fmt::Display for Letter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_char())
    }
}

impl Serialize for Letter {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// One decomposition: surface `from` becomes `into` (one surface, or two for the
/// separating cuts (b), (g) and (h), written orientable first as in the paper).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub letter: Letter,
    pub from: Surface,
    pub into: Pieces,
}

/// What a cut leaves: one surface or two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pieces {
    One(Surface),
    Two(Surface, Surface),
}

impl Pieces {
    fn two(a: Surface, b: Surface) -> Pieces {
        Pieces::Two(a.min(b), a.max(b))
    }

    pub fn surfaces(&self) -> Vec<Surface> {
        match *self {
            Pieces::One(s) => vec![s],
            Pieces::Two(a, b) => vec![a, b],
        }
    }
}

impl fmt::Display for Pieces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pieces::One(s) => write!(f, "{s}"),
            Pieces::Two(a, b) => write!(f, "{a}+{b}"),
        }
    }
}

impl Serialize for Pieces {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Move {
    /// The move in words: the letter's, except where (c) or (e) takes the last crosscaps
    /// and leaves the sphere, which the letter's words would call non-orientable.
    pub fn description(&self) -> &'static str {
        match (self.letter, self.into) {
            (Letter::C, Pieces::One(Surface::Sphere)) => {
                "cut a one-sided curve through the only crosscap (its neighbourhood is a \
                 Möbius band): the crosscap is lost and a sphere is left"
            }
            (Letter::E, Pieces::One(Surface::Sphere)) => {
                "cut a two-sided curve through the two crosscaps (its neighbourhood is an \
                 annulus): both are lost and a sphere is left"
            }
            _ => self.letter.description(),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}->{}", self.letter, self.from, self.into)
    }
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Every proper decomposition of `surface` (Theorem 2.1), in the order (a) to (h), splits
/// by increasing first part; none for the sphere (however written, genus-0 variants too).
pub fn surface_moves(surface: Surface) -> Vec<Move> {
    let mut moves = Vec::new();
    let mut push = |letter, into| {
        moves.push(Move {
            letter,
            from: surface,
            into,
        })
    };
    match surface.canonical() {
        Surface::Sphere => {}
        Surface::Orientable(g) => {
            push(Letter::A, Pieces::One(Surface::orientable(g - 1)));
            for a in 1..=g / 2 {
                push(
                    Letter::B,
                    Pieces::two(Surface::Orientable(a), Surface::Orientable(g - a)),
                );
            }
        }
        Surface::NonOrientable(g) => {
            push(Letter::C, Pieces::One(Surface::non_orientable(g - 1)));
            if (g - 1) % 2 == 0 {
                push(Letter::D, Pieces::One(Surface::orientable((g - 1) / 2)));
            }
            if g >= 2 {
                push(Letter::E, Pieces::One(Surface::non_orientable(g - 2)));
                if g % 2 == 0 {
                    push(Letter::F, Pieces::One(Surface::orientable((g - 2) / 2)));
                }
            }
            for a in 1..=g / 2 {
                push(
                    Letter::G,
                    Pieces::two(Surface::NonOrientable(a), Surface::NonOrientable(g - a)),
                );
            }
            // (h): a crosscaps, a even, become o(a/2); b = g - a >= 1 stay.
            for half in 1..=(g - 1) / 2 {
                push(
                    Letter::H,
                    Pieces::two(
                        Surface::Orientable(half),
                        Surface::NonOrientable(g - 2 * half),
                    ),
                );
            }
        }
    }
    moves
}

impl Impartial for Manifold {
    type Move = Move;

    fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>() + std::mem::size_of_val(self.surfaces())
    }

    /// The moves of each distinct surface (copies of a surface have the same moves).
    fn moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut previous = None;
        for s in self.playable() {
            if previous != Some(s) {
                moves.extend(surface_moves(s));
                previous = Some(s);
            }
        }
        moves
    }

    fn after(&self, mv: &Move) -> Manifold {
        self.replace(mv.from, &mv.into.surfaces())
            .expect("moves are only played on their own surface")
    }

    /// Each surface that is not a sphere is a game of its own; spheres have no moves and
    /// add nothing to the nim-sum.
    fn components(&self) -> Vec<Manifold> {
        let surfaces = self.surfaces();
        if surfaces.len() == 1 {
            return vec![self.clone()];
        }
        self.playable().map(Manifold::single).collect()
    }
}

/// Reads a move `LETTER:FROM->RESULT` (the letter may be left out when the result names
/// the move, e.g. `n5->n2+n3`), checking that it is legal in `position`.
pub fn parse_move(position: &Manifold, text: &str) -> Result<Move, MoveError> {
    let trimmed = text.trim();
    let (letter, rest) = match trimmed.split_once(':') {
        Some((l, rest)) => {
            let mut chars = l.trim().chars();
            let letter = match (chars.next(), chars.next()) {
                (Some(c), None) => Letter::from_char(c),
                _ => None,
            }
            .ok_or_else(|| MoveError::malformed(text, "the letter must be one of a to h"))?;
            (Some(letter), rest)
        }
        None => (None, trimmed),
    };
    let (from, into) = rest
        .split_once("->")
        .or_else(|| rest.split_once('→'))
        .ok_or_else(|| {
            MoveError::malformed(text, "expected LETTER:FROM->RESULT, e.g. g:n5->n2+n3")
        })?;
    let from: Surface = from
        .parse()
        .map_err(|e: crate::ManifoldError| MoveError::malformed(text, e.to_string()))?;
    let pieces: Manifold = into
        .parse()
        .map_err(|e: crate::ManifoldError| MoveError::malformed(text, e.to_string()))?;
    let pieces = match pieces.surfaces() {
        [s] => Pieces::One(*s),
        [a, b] => Pieces::two(*a, *b),
        _ => {
            return Err(MoveError::malformed(
                text,
                "a cut leaves one surface or two",
            ));
        }
    };
    if !position.surfaces().contains(&from) {
        return Err(MoveError::illegal(
            text,
            format!("there is no {from} in {position}"),
        ));
    }
    surface_moves(from)
        .into_iter()
        .find(|m| m.into == pieces && letter.is_none_or(|l| l == m.letter))
        .ok_or_else(|| {
            let reason = match letter {
                Some(l) => format!(
                    "({l}) does not decompose {from} into {pieces}; the moves of {from} are {}",
                    list_moves(from)
                ),
                None => format!(
                    "no move decomposes {from} into {pieces}; the moves of {from} are {}",
                    list_moves(from)
                ),
            };
            MoveError::illegal(text, reason)
        })
}

/// The moves of a surface, for error messages (long lists are cut short).
fn list_moves(surface: Surface) -> String {
    let moves = surface_moves(surface);
    if moves.is_empty() {
        return "none (a sphere cannot be decomposed)".to_string();
    }
    let shown: Vec<String> = moves.iter().take(12).map(Move::to_string).collect();
    let more = moves.len().saturating_sub(12);
    if more > 0 {
        format!("{} and {more} more", shown.join(" "))
    } else {
        shown.join(" ")
    }
}

impl ImpartialNotation for Manifold {
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        parse_move(self, text)
    }

    fn format_move(&self, mv: &Move) -> String {
        mv.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(surface: &str) -> Vec<String> {
        surface_moves(surface.parse().unwrap())
            .iter()
            .map(Move::to_string)
            .collect()
    }

    #[test]
    fn moves_of_small_surfaces_follow_theorem_2_1() {
        assert!(names("S").is_empty());
        assert!(surface_moves(Surface::Orientable(0)).is_empty());
        assert!(surface_moves(Surface::NonOrientable(0)).is_empty());
        assert_eq!(names("o1"), ["a:o1->S"]);
        assert_eq!(names("o4"), ["a:o4->o3", "b:o4->o1+o3", "b:o4->o2+o2"]);
        assert_eq!(names("n1"), ["c:n1->S", "d:n1->S"]);
        assert_eq!(
            names("n2"),
            ["c:n2->n1", "e:n2->S", "f:n2->S", "g:n2->n1+n1"]
        );
        assert_eq!(
            names("n5"),
            [
                "c:n5->n4",
                "d:n5->o2",
                "e:n5->n3",
                "g:n5->n1+n4",
                "g:n5->n2+n3",
                "h:n5->o1+n3",
                "h:n5->o2+n1"
            ]
        );
        assert_eq!(
            names("n6"),
            [
                "c:n6->n5",
                "e:n6->n4",
                "f:n6->o2",
                "g:n6->n1+n5",
                "g:n6->n2+n4",
                "g:n6->n3+n3",
                "h:n6->o1+n4",
                "h:n6->o2+n2"
            ]
        );
    }

    /// A move's words never call the sphere non-orientable: (c) on n1 and (e) on n2 say
    /// that a sphere is left, and (c), (e) elsewhere keep the letter's words.
    #[test]
    fn words_of_a_move_match_what_it_leaves() {
        for g in 1..12 {
            for m in surface_moves(Surface::NonOrientable(g)) {
                let sphere_left = m.into == Pieces::One(Surface::Sphere);
                assert_eq!(
                    m.description().contains("non-orientable"),
                    !sphere_left
                        && matches!(m.letter, Letter::C | Letter::E | Letter::G | Letter::H),
                    "{m}: {}",
                    m.description()
                );
                assert_eq!(
                    m.description().contains("a sphere is left"),
                    sphere_left && matches!(m.letter, Letter::C | Letter::E),
                    "{m}"
                );
            }
        }
    }

    /// Every move keeps the Euler characteristic's bookkeeping of Corollary 1.3: cutting a
    /// one-sided curve and capping adds 1, a two-sided one adds 2.
    #[test]
    fn moves_change_the_euler_characteristic_as_the_cut_says() {
        for g in 1..40 {
            for s in [Surface::Orientable(g), Surface::NonOrientable(g)] {
                for m in surface_moves(s) {
                    let after: i64 = m
                        .into
                        .surfaces()
                        .iter()
                        .map(|p| p.euler_characteristic())
                        .sum();
                    let gain = match m.letter {
                        Letter::C | Letter::D => 1,
                        _ => 2,
                    };
                    assert_eq!(after, s.euler_characteristic() + gain, "{m}");
                    let orientable_rest =
                        matches!(m.letter, Letter::A | Letter::B | Letter::D | Letter::F);
                    if orientable_rest {
                        assert!(m.into.surfaces().iter().all(|p| p.is_orientable()), "{m}");
                    }
                }
            }
        }
    }

    #[test]
    fn notation_reads_back_and_refuses_bad_moves() {
        let position: Manifold = "n3 o2 n5".parse().unwrap();
        for m in position.moves() {
            assert_eq!(parse_move(&position, &m.to_string()).unwrap(), m);
        }
        let m = parse_move(&position, " g : n5 -> n3 + n2 ").unwrap();
        assert_eq!(m.to_string(), "g:n5->n2+n3");
        assert_eq!(parse_move(&position, "n5->o2").unwrap().letter, Letter::D);
        assert_eq!(parse_move(&position, "o2→o1").unwrap().letter, Letter::A);
        // Surfaces by their usual names: T#P is n3, K is n2, T#T is o2.
        let usual = parse_move(&position, "c:T#P->K").unwrap();
        assert_eq!(usual, parse_move(&position, "c:n3->n2").unwrap());
        assert_eq!(parse_move(&position, "T#T->T").unwrap().letter, Letter::A);
        for (bad, needle) in [
            ("", "expected LETTER"),
            ("z:n5->n4", "one of a to h"),
            ("g:n5->n2+n2", "does not decompose"),
            ("n5->n1+n1+n3", "one surface or two"),
            ("c:n7->n6", "there is no n7"),
            ("c:x5->n4", "expected S"),
            ("c:n5->", "empty"),
            ("d:n3->o1+o1", "does not decompose"),
        ] {
            let err = parse_move(&position, bad).unwrap_err().to_string();
            assert!(err.contains(needle), "{bad}: {err}");
        }
    }

    #[test]
    fn components_are_the_surfaces_that_are_not_spheres() {
        let m: Manifold = "S n3 o2 n3".parse().unwrap();
        let parts: Vec<String> = m.components().iter().map(|p| p.to_string()).collect();
        assert_eq!(parts, ["o2", "n3", "n3"]);
        assert_eq!(
            m.moves().len(),
            surface_moves(Surface::Orientable(2)).len() + 5
        );
        let spheres: Manifold = "S S".parse().unwrap();
        assert!(spheres.components().is_empty());
        assert!(spheres.moves().is_empty());
    }
}
