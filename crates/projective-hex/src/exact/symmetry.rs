//! The board's symmetries on masks: images of cell sets, one move per class of
//! symmetric moves, proofs closed under the symmetries that keep a position.

use super::*;

/// The cells `map` carries `cells` to.
pub(super) fn image(cells: u64, map: &[u8; MAX_CELLS]) -> u64 {
    let mut image = 0;
    let mut rest = cells;
    while rest != 0 {
        image |= 1 << map[rest.trailing_zeros() as usize];
        rest &= rest - 1;
    }
    image
}

/// One move of each class of `moves` that the symmetries of `stabiliser` (which keep the
/// position) map onto each other: such moves have one value, and the refutation of one
/// carried by a symmetry refutes its image.
pub(super) fn representatives(moves: u64, stabiliser: &[[u8; MAX_CELLS]]) -> u64 {
    if stabiliser.is_empty() {
        return moves;
    }
    let mut kept = moves;
    let mut rest = moves;
    while rest != 0 {
        let cell = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if stabiliser
            .iter()
            .any(|map| (map[cell] as usize) < cell && moves >> map[cell] & 1 != 0)
        {
            kept &= !(1 << cell);
        }
    }
    kept
}

/// A lost position's proof when only [`representatives`] were searched: the refutations
/// with their images, which refute the moves left out.
pub(super) fn symmetric_closure(proof: u64, stabiliser: &[[u8; MAX_CELLS]]) -> u64 {
    stabiliser
        .iter()
        .fold(proof, |closure, map| closure | image(proof, map))
}
