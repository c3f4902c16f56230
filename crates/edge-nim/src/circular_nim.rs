//! Circular Nim CN(n, k), written directly, to check that Edge-Nim on the cycle C_n is
//! CN(n, 2) (Dufour and Heubach): `n` stacks in a circle; a move removes at least one
//! token in total from `k` consecutive stacks.

use crosscap_engine::Impartial;

/// A CN(n, k) position: the stacks in circular order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CircularNim {
    pub stacks: Vec<u32>,
    pub k: usize,
}

impl Impartial for CircularNim {
    /// The stacks after the move.
    type Move = Vec<u32>;

    fn moves(&self) -> Vec<Vec<u32>> {
        let n = self.stacks.len();
        let k = self.k.min(n);
        let starts = if k == n { 1 } else { n };
        let mut moves = Vec::new();
        for start in 0..starts {
            let window: Vec<usize> = (0..k).map(|i| (start + i) % n).collect();
            let mut next = self.stacks.clone();
            window.iter().for_each(|&s| next[s] = 0);
            loop {
                if next != self.stacks {
                    moves.push(next.clone());
                }
                let Some(&s) = window.iter().rev().find(|&&s| next[s] < self.stacks[s]) else {
                    break;
                };
                next[s] += 1;
                let position = window.iter().position(|&w| w == s).expect("in the window");
                window[position + 1..].iter().for_each(|&w| next[w] = 0);
            }
        }
        moves
    }

    fn after(&self, mv: &Vec<u32>) -> Self {
        CircularNim {
            stacks: mv.clone(),
            k: self.k,
        }
    }
}
