//! Conjectures about P-positions, checked on a box of positions: a small expression
//! language over the token counts of the edges (`b + C == B + c and b <= c and
//! (A xor b xor B) == 0`), compared position by position with the P-positions the tables
//! compute, optionally up to the graph's symmetries that fix some edges (as the seed's
//! tetrahedron theorem is stated).
//!
//! Grammar, loosest first: `or`, `and`, `not`, comparisons (`== != <= < >= >`), `xor`,
//! `+ -`, `*`, unary `-`, then numbers, edge names and parentheses. Values are integers;
//! comparisons and the logical words give 1 or 0, and any value but 0 counts as true.
//! Arithmetic is checked: a value beyond 64-bit integers is an error, not a wrapped
//! number. Parentheses, `not` and unary `-` nest at most [`MAX_NESTING`] deep and the
//! expression is at most [`MAX_DEPTH`] operations deep, so that neither reading nor
//! evaluating it can overflow the stack.

use std::collections::HashSet;
use std::fmt;

use crosscap_graphs::{Graph, MAX_AUTOMORPHISMS};
use serde::Serialize;

use crate::EdgeNimError;
use crate::orbits::image_into;
use crate::table::{PTable, Progress};

/// A parsed predicate over a graph's edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Predicate {
    expr: Expr,
    text: String,
}

/// How deep parentheses, `not` and unary `-` may nest.
pub const MAX_NESTING: usize = 100;
/// How many operations deep an expression may be (a chain `a + b + c` is two deep).
pub const MAX_DEPTH: usize = 1000;

/// An expression; each operation keeps its depth (a number or an edge is 1 deep).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expr {
    Number(i64),
    Edge(usize),
    Negate(Box<Expr>, usize),
    Not(Box<Expr>, usize),
    Binary(Op, Box<Expr>, Box<Expr>, usize),
}

impl Expr {
    fn depth(&self) -> usize {
        match self {
            Expr::Number(_) | Expr::Edge(_) => 1,
            Expr::Negate(_, depth) | Expr::Not(_, depth) | Expr::Binary(_, _, _, depth) => *depth,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Or,
    And,
    Eq,
    Ne,
    Le,
    Lt,
    Ge,
    Gt,
    Xor,
    Add,
    Sub,
    Mul,
}

/// A predicate whose value at a position is beyond 64-bit integers.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the predicate's arithmetic overflows 64-bit integers at the position {tokens:?} (counts in \
     edge order)"
)]
pub struct PredicateOverflow {
    pub tokens: Vec<u32>,
}

/// Why a predicate could not be read: the text, where, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read the predicate at character {at}: {reason}")]
pub struct PredicateError {
    pub at: usize,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Number(i64),
    Name(String),
    Symbol(&'static str),
    Open,
    Close,
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Number(n) => write!(f, "{n}"),
            Token::Name(name) => write!(f, "`{}`", name.escape_debug()),
            Token::Symbol(s) => write!(f, "`{s}`"),
            Token::Open => f.write_str("`(`"),
            Token::Close => f.write_str("`)`"),
        }
    }
}

/// The operators made of symbols, longest first so that `<=` is not read as `<`.
const SYMBOLS: [&str; 10] = ["==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "^"];

fn tokenize(text: &str) -> Result<Vec<(usize, Token)>, PredicateError> {
    let mut tokens = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '(' || c == ')' {
            tokens.push((at, if c == '(' { Token::Open } else { Token::Close }));
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            // A name, a number, or an edge named by its ends (`0-1`: a `-` between two
            // parts with no space; subtraction is written with spaces, `b - c`), or a
            // parallel edge's (`0-1#2`).
            let start = i;
            while i < chars.len() && (chars[i].1.is_alphanumeric() || chars[i].1 == '_') {
                i += 1;
                let joins = chars[i..]
                    .first()
                    .is_some_and(|&(_, c)| c == '-' || c == '#')
                    && chars.get(i + 1).is_some_and(|&(_, n)| n.is_alphanumeric());
                if joins {
                    i += 1;
                }
            }
            let word: String = chars[start..i].iter().map(|&(_, c)| c).collect();
            if word.chars().all(|c| c.is_ascii_digit()) {
                let n = word.parse().map_err(|_| PredicateError {
                    at,
                    reason: format!("{word} is too large"),
                })?;
                tokens.push((at, Token::Number(n)));
            } else {
                tokens.push((at, Token::Name(word)));
            }
        } else if let Some(symbol) = SYMBOLS.iter().find(|s| text[at..].starts_with(**s)) {
            tokens.push((at, Token::Symbol(symbol)));
            i += symbol.chars().count();
        } else {
            return Err(PredicateError {
                at,
                reason: format!("unexpected {:?}", c),
            });
        }
    }
    Ok(tokens)
}

/// A recursive-descent parser over the tokens.
struct Parser<'a> {
    tokens: Vec<(usize, Token)>,
    next: usize,
    graph: &'a Graph,
    end: usize,
    /// Parentheses, `not` and unary `-` open around the next token.
    nesting: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.next).map(|(_, t)| t)
    }

    fn at(&self) -> usize {
        self.tokens.get(self.next).map_or(self.end, |&(at, _)| at)
    }

    fn error(&self, reason: impl Into<String>) -> PredicateError {
        PredicateError {
            at: self.at(),
            reason: reason.into(),
        }
    }

    /// `op` of `left` and `right`, unless that is deeper than [`MAX_DEPTH`].
    fn binary(&self, op: Op, left: Expr, right: Expr) -> Result<Expr, PredicateError> {
        let depth = 1 + left.depth().max(right.depth());
        self.within_depth(depth)?;
        Ok(Expr::Binary(op, Box::new(left), Box::new(right), depth))
    }

    fn within_depth(&self, depth: usize) -> Result<(), PredicateError> {
        if depth > MAX_DEPTH {
            return Err(self.error(format!(
                "the expression is more than {MAX_DEPTH} operations deep"
            )));
        }
        Ok(())
    }

    /// `inside` read one level of parentheses, `not` or `-` deeper, unless that is deeper
    /// than [`MAX_NESTING`].
    fn nested<T>(
        &mut self,
        inside: impl FnOnce(&mut Self) -> Result<T, PredicateError>,
    ) -> Result<T, PredicateError> {
        if self.nesting >= MAX_NESTING {
            return Err(self.error(format!(
                "parentheses, `not` and `-` nest more than {MAX_NESTING} deep"
            )));
        }
        self.nesting += 1;
        let read = inside(self);
        self.nesting -= 1;
        read
    }

    /// Takes the next token if it is the word or symbol `word`.
    fn eat(&mut self, word: &str) -> bool {
        let matches = match self.peek() {
            Some(Token::Name(name)) => name == word,
            Some(Token::Symbol(symbol)) => *symbol == word,
            _ => false,
        };
        if matches {
            self.next += 1;
        }
        matches
    }

    fn or(&mut self) -> Result<Expr, PredicateError> {
        let mut left = self.and()?;
        while self.eat("or") {
            let right = self.and()?;
            left = self.binary(Op::Or, left, right)?;
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Expr, PredicateError> {
        let mut left = self.not()?;
        while self.eat("and") {
            let right = self.not()?;
            left = self.binary(Op::And, left, right)?;
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<Expr, PredicateError> {
        if self.eat("not") {
            let inner = self.nested(Self::not)?;
            let depth = inner.depth() + 1;
            self.within_depth(depth)?;
            return Ok(Expr::Not(Box::new(inner), depth));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Expr, PredicateError> {
        let left = self.xor()?;
        let op = match self.peek() {
            Some(Token::Symbol("==")) => Op::Eq,
            Some(Token::Symbol("!=")) => Op::Ne,
            Some(Token::Symbol("<=")) => Op::Le,
            Some(Token::Symbol("<")) => Op::Lt,
            Some(Token::Symbol(">=")) => Op::Ge,
            Some(Token::Symbol(">")) => Op::Gt,
            _ => return Ok(left),
        };
        self.next += 1;
        let right = self.xor()?;
        self.binary(op, left, right)
    }

    fn xor(&mut self) -> Result<Expr, PredicateError> {
        let mut left = self.sum()?;
        while self.eat("xor") || self.eat("^") {
            let right = self.sum()?;
            left = self.binary(Op::Xor, left, right)?;
        }
        Ok(left)
    }

    fn sum(&mut self) -> Result<Expr, PredicateError> {
        let mut left = self.product()?;
        loop {
            let op = if self.eat("+") {
                Op::Add
            } else if self.eat("-") {
                Op::Sub
            } else {
                return Ok(left);
            };
            let right = self.product()?;
            left = self.binary(op, left, right)?;
        }
    }

    fn product(&mut self) -> Result<Expr, PredicateError> {
        let mut left = self.unary()?;
        while self.eat("*") {
            let right = self.unary()?;
            left = self.binary(Op::Mul, left, right)?;
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, PredicateError> {
        if self.eat("-") {
            let inner = self.nested(Self::unary)?;
            let depth = inner.depth() + 1;
            self.within_depth(depth)?;
            return Ok(Expr::Negate(Box::new(inner), depth));
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Expr, PredicateError> {
        let token = self.peek().cloned();
        match token {
            Some(Token::Number(n)) => {
                self.next += 1;
                Ok(Expr::Number(n))
            }
            Some(Token::Name(name)) if !["and", "or", "not", "xor"].contains(&name.as_str()) => {
                let edge = self.graph.edge_index(&name).ok_or_else(|| {
                    self.error(format!(
                        "no edge `{}` (the edges are {})",
                        name.escape_debug(),
                        crate::edge_names(self.graph).join(" ")
                    ))
                })?;
                self.next += 1;
                Ok(Expr::Edge(edge))
            }
            Some(Token::Open) => {
                self.next += 1;
                let inner = self.nested(Self::or)?;
                if !matches!(self.peek(), Some(Token::Close)) {
                    return Err(self.error("expected `)`"));
                }
                self.next += 1;
                Ok(inner)
            }
            Some(other) => {
                Err(self.error(format!("expected a number, an edge or `(`, not {other}")))
            }
            None => Err(self.error("the predicate ends too soon")),
        }
    }
}

impl Predicate {
    /// Reads `text` over the edges of `graph` (named as the graph names them).
    pub fn parse(graph: &Graph, text: &str) -> Result<Predicate, PredicateError> {
        let mut parser = Parser {
            tokens: tokenize(text)?,
            next: 0,
            graph,
            end: text.len(),
            nesting: 0,
        };
        let expr = parser.or()?;
        if let Some(token) = parser.peek() {
            let token = token.to_string();
            return Err(parser.error(format!("unexpected {token} after the predicate")));
        }
        Ok(Predicate {
            expr,
            text: text.trim().to_string(),
        })
    }

    /// The predicate as it was written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the predicate holds of `tokens` (counts in edge order); an error when its
    /// arithmetic leaves 64-bit integers there.
    pub fn holds(&self, tokens: &[u32]) -> Result<bool, PredicateOverflow> {
        eval(&self.expr, tokens)
            .map(|value| value != 0)
            .ok_or_else(|| PredicateOverflow {
                tokens: tokens.to_vec(),
            })
    }
}

/// The value of `expr` in checked arithmetic: `None` when a value leaves 64-bit integers.
fn eval(expr: &Expr, tokens: &[u32]) -> Option<i64> {
    let truth = |b: bool| i64::from(b);
    Some(match expr {
        Expr::Number(n) => *n,
        Expr::Edge(e) => i64::from(tokens[*e]),
        Expr::Negate(inner, _) => eval(inner, tokens)?.checked_neg()?,
        Expr::Not(inner, _) => truth(eval(inner, tokens)? == 0),
        Expr::Binary(op, left, right, _) => {
            let l = eval(left, tokens)?;
            // `and` and `or` stop early, as readers expect.
            match op {
                Op::And => return Some(truth(l != 0 && eval(right, tokens)? != 0)),
                Op::Or => return Some(truth(l != 0 || eval(right, tokens)? != 0)),
                _ => {}
            }
            let r = eval(right, tokens)?;
            match op {
                Op::Eq => truth(l == r),
                Op::Ne => truth(l != r),
                Op::Le => truth(l <= r),
                Op::Lt => truth(l < r),
                Op::Ge => truth(l >= r),
                Op::Gt => truth(l > r),
                Op::Xor => l ^ r,
                Op::Add => l.checked_add(r)?,
                Op::Sub => l.checked_sub(r)?,
                Op::Mul => l.checked_mul(r)?,
                Op::And | Op::Or => unreachable!("handled above"),
            }
        }
    })
}

/// What checking a predicate against the P-positions of a box found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PredicateCheck {
    pub predicate: String,
    /// Whether the predicate holds exactly of the P-positions.
    pub holds: bool,
    /// Positions looked at (those with the fixed edges at their values).
    pub positions: u64,
    /// P-positions among them.
    pub p_positions: u64,
    /// The first P-position (in edge order, last edge fastest) the predicate misses.
    pub p_not_predicate: Option<Vec<u32>>,
    /// The first position the predicate calls P that is not.
    pub predicate_not_p: Option<Vec<u32>>,
}

/// A box of positions: every edge from 0 to `max`, the `fixed` edges at their values.
#[derive(Clone, Debug)]
pub struct CheckBox {
    pub max: u32,
    pub fixed: Vec<(usize, u32)>,
    /// Read the predicate up to the graph's symmetries that fix the fixed edges: a position
    /// satisfies it when one of its images does.
    pub up_to_symmetry: bool,
}

/// Checks `predicate` against the P-positions of `graph` on `region`, with tables of at
/// most `max_memory` bytes.
pub fn check_predicate(
    graph: &Graph,
    predicate: &Predicate,
    region: &CheckBox,
    max_memory: u64,
    progress: Progress,
) -> Result<PredicateCheck, EdgeNimError> {
    let edges = graph.edge_count();
    let mut bounds = vec![region.max; edges];
    for &(edge, value) in &region.fixed {
        bounds[edge] = value;
    }
    let symmetries = if region.up_to_symmetry {
        symmetries_fixing(graph, &region.fixed)?
    } else {
        vec![(0..edges).collect()]
    };
    let table = PTable::compute(graph, &bounds, max_memory, progress)?;
    let names = crate::edge_names(graph);
    let says_p = |tokens: &[u32], image: &mut Vec<u32>| -> Result<bool, EdgeNimError> {
        for map in &symmetries {
            image_into(map, tokens, image);
            let holds = predicate.holds(image).map_err(|overflow| {
                let at = names
                    .iter()
                    .zip(&overflow.tokens)
                    .map(|(name, count)| format!("{name}={count}"))
                    .collect::<Vec<_>>()
                    .join(",");
                EdgeNimError::PredicateOverflow(at)
            })?;
            if holds {
                return Ok(true);
            }
        }
        Ok(false)
    };
    let mut check = PredicateCheck {
        predicate: predicate.text().to_string(),
        holds: true,
        positions: 0,
        p_positions: 0,
        p_not_predicate: None,
        predicate_not_p: None,
    };
    let mut tokens = bounds.clone();
    for (e, t) in tokens.iter_mut().enumerate() {
        if !region.fixed.iter().any(|&(f, _)| f == e) {
            *t = 0;
        }
    }
    let free: Vec<usize> = (0..edges)
        .filter(|e| !region.fixed.iter().any(|&(f, _)| f == *e))
        .collect();
    let mut image = vec![0; edges];
    'positions: loop {
        let table_p = table.is_p(&tokens).expect("inside the box");
        let predicate_p = says_p(&tokens, &mut image)?;
        check.positions += 1;
        check.p_positions += u64::from(table_p);
        if table_p && !predicate_p && check.p_not_predicate.is_none() {
            check.p_not_predicate = Some(tokens.clone());
        }
        if predicate_p && !table_p && check.predicate_not_p.is_none() {
            check.predicate_not_p = Some(tokens.clone());
        }
        for &e in free.iter().rev() {
            if tokens[e] < bounds[e] {
                tokens[e] += 1;
                continue 'positions;
            }
            tokens[e] = 0;
        }
        break;
    }
    check.holds = check.p_not_predicate.is_none() && check.predicate_not_p.is_none();
    Ok(check)
}

/// The graph's automorphisms that map each fixed edge to itself, as distinct maps of edges,
/// the identity first. In a multigraph a vertex permutation counts when it keeps the
/// number of edges between every pair, and the parallel edges between a pair go to those
/// between its image in every order: swapping parallel edges is a symmetry. A group of
/// [`MAX_AUTOMORPHISMS`] maps or more (or ten times as many tried) is refused: part of a group
/// would give wrong orbits and wrong answers up to symmetry.
pub fn symmetries_fixing(
    graph: &Graph,
    fixed: &[(usize, u32)],
) -> Result<Vec<Vec<usize>>, EdgeNimError> {
    let too_many = EdgeNimError::TooManySymmetries(MAX_AUTOMORPHISMS);
    let automorphisms = graph.automorphisms();
    if automorphisms.len() >= MAX_AUTOMORPHISMS {
        return Err(too_many);
    }
    // The parallel classes: each edge's pair, the pairs' edges in edge order.
    let classes: Vec<Vec<usize>> = (0..graph.edge_count())
        .filter_map(|e| {
            let (u, v) = graph.edge(e);
            let class = graph.edges_between(u, v);
            (class[0] == e).then_some(class)
        })
        .collect();
    let mut maps: Vec<Vec<usize>> = Vec::new();
    let mut seen = HashSet::new();
    // Maps tried, bounded so that classes of many parallel edges stay cheap.
    let mut candidates = 0;
    for p in automorphisms {
        let images: Option<Vec<Vec<usize>>> = classes
            .iter()
            .map(|class| {
                let (u, v) = graph.edge(class[0]);
                let image = graph.edges_between(p[u], p[v]);
                (image.len() == class.len()).then_some(image)
            })
            .collect();
        let Some(images) = images else { continue };
        // Every way of sending each class onto its image: an ordering per class (by its
        // index among the orderings), counted as an odometer.
        let mut choice = vec![0u64; classes.len()];
        loop {
            candidates += 1;
            let mut map = vec![0; graph.edge_count()];
            for (k, class) in classes.iter().enumerate() {
                let order = nth_ordering(class.len(), choice[k]);
                for (i, &e) in class.iter().enumerate() {
                    map[e] = images[k][order[i]];
                }
            }
            if fixed.iter().all(|&(e, _)| map[e] == e) && seen.insert(map.clone()) {
                maps.push(map);
            }
            if maps.len() >= MAX_AUTOMORPHISMS || candidates >= 10 * MAX_AUTOMORPHISMS {
                return Err(too_many);
            }
            let Some(k) = (0..classes.len()).find(|&k| choice[k] + 1 < orderings(classes[k].len()))
            else {
                break;
            };
            choice[k] += 1;
            choice[..k].iter_mut().for_each(|c| *c = 0);
        }
    }
    Ok(maps)
}

/// The number of orderings of `n` items, saturating.
fn orderings(n: usize) -> u64 {
    (1..=n as u64).fold(1, u64::saturating_mul)
}

/// The `index`-th ordering of `0..n` in lexicographic order (the identity is the 0th), read
/// from the digits of `index` in the factorial number system.
fn nth_ordering(n: usize, mut index: u64) -> Vec<usize> {
    let mut left: Vec<usize> = (0..n).collect();
    let mut order = Vec::with_capacity(n);
    for remaining in (1..=n).rev() {
        let block = orderings(remaining - 1);
        order.push(left.remove((index / block) as usize % remaining));
        index %= block;
    }
    order
}

/// The seed's theorem on the tetrahedron with `a = 0`, as a predicate over `a b c A B C`.
pub const TETRAHEDRON_THEOREM: &str = "b + C == B + c and b <= c and (A xor b xor B) == 0";

#[cfg(test)]
mod tests {
    use super::*;

    fn tetrahedron() -> Graph {
        Graph::from_spec("tetrahedron").unwrap()
    }

    #[test]
    fn expressions_read_and_evaluate_with_the_usual_precedence() {
        let g = tetrahedron();
        let cases = [
            ("a + b * c == 7", [1, 2, 3, 0, 0, 0], true),
            ("(a + b) * c == 9", [1, 2, 3, 0, 0, 0], true),
            ("a xor b == 3", [1, 2, 0, 0, 0, 0], true),
            ("not a == 1 or b > 1", [1, 2, 0, 0, 0, 0], true),
            ("not (a == 1 or b > 1)", [1, 2, 0, 0, 0, 0], false),
            ("-a + 2 >= 1 and c != 5", [1, 0, 5, 0, 0, 0], false),
            ("a ^ A == 0", [4, 0, 0, 4, 0, 0], true),
            ("b - c < 0", [0, 1, 2, 0, 0, 0], true),
        ];
        for (text, tokens, expected) in cases {
            let p = Predicate::parse(&g, text).unwrap();
            assert_eq!(p.holds(&tokens), Ok(expected), "{text}");
        }
    }

    #[test]
    fn bad_predicates_say_where_and_why() {
        let g = tetrahedron();
        for (text, at, needle) in [
            ("a + ", 4, "ends too soon"),
            ("a == z", 5, "no edge `z` (the edges are a b c A B C)"),
            ("(a == 1", 7, "expected `)`"),
            ("a == 1 b", 7, "unexpected `b` after"),
            ("a $ b", 2, "unexpected '$'"),
            ("99999999999999999999 > a", 0, "too large"),
        ] {
            let err = Predicate::parse(&g, text).unwrap_err();
            assert_eq!(err.at, at, "{text}: {err}");
            assert!(err.to_string().contains(needle), "{text}: {err}");
        }
    }

    /// Deep nesting and long chains are refused with a reason, not a stack overflow.
    #[test]
    fn deep_predicates_are_refused_before_the_stack_overflows() {
        let g = tetrahedron();
        for (text, needle) in [
            (
                format!("{}a{}", "(".repeat(10_000), ")".repeat(10_000)),
                "nest more than 100 deep",
            ),
            (
                format!("{}a", "not ".repeat(10_000)),
                "nest more than 100 deep",
            ),
            (
                format!("{}a", "- ".repeat(10_000)),
                "nest more than 100 deep",
            ),
            (
                vec!["a"; 10_000].join(" + "),
                "more than 1000 operations deep",
            ),
            (
                vec!["a"; 10_000].join(" or "),
                "more than 1000 operations deep",
            ),
        ] {
            let err = Predicate::parse(&g, &text).unwrap_err();
            assert!(err.to_string().contains(needle), "{err}");
        }
        // Up to the limits they read.
        let nested = format!("{}a{} == 1", "(".repeat(100), ")".repeat(100));
        assert_eq!(
            Predicate::parse(&g, &nested)
                .unwrap()
                .holds(&[1, 0, 0, 0, 0, 0]),
            Ok(true)
        );
        let chain = vec!["a"; 999].join(" + ") + " == 999";
        assert_eq!(
            Predicate::parse(&g, &chain)
                .unwrap()
                .holds(&[1, 0, 0, 0, 0, 0]),
            Ok(true)
        );
    }

    /// Arithmetic beyond 64 bits is an error, not a wrapped value that may compare equal.
    #[test]
    fn overflow_is_an_error() {
        let g = tetrahedron();
        let p = Predicate::parse(&g, "b * 4611686018427387904 * 4 == 0").unwrap();
        assert_eq!(
            p.holds(&[0, 1, 0, 0, 0, 0]),
            Err(PredicateOverflow {
                tokens: vec![0, 1, 0, 0, 0, 0]
            })
        );
        assert_eq!(p.holds(&[0; 6]), Ok(true));
        for text in [
            "9223372036854775807 + a > 0",
            "0 - 9223372036854775807 - 2 < a",
            "-(0 - 9223372036854775807 - a) > 0",
        ] {
            let p = Predicate::parse(&g, text).unwrap();
            assert!(p.holds(&[1, 0, 0, 0, 0, 0]).is_err(), "{text}");
        }
        // `and` and `or` stop early: what they do not read cannot overflow.
        let p = Predicate::parse(&g, "a == 0 or b * 9223372036854775807 * 2 == 0").unwrap();
        assert_eq!(p.holds(&[0, 1, 0, 0, 0, 0]), Ok(true));
        // Checking a box reports the position where it overflowed.
        let region = CheckBox {
            max: 1,
            fixed: vec![],
            up_to_symmetry: false,
        };
        let p = Predicate::parse(&g, "C * 9223372036854775807 * 2 == 0").unwrap();
        let err = check_predicate(&g, &p, &region, 1 << 30, &|_| {}).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the predicate's arithmetic overflows 64-bit integers at a=0,b=0,c=0,A=0,B=0,C=1"
        );
    }

    /// A random expression, its text (fully parenthesised) and its value in wide
    /// arithmetic, `None` when a step leaves 64-bit integers.
    fn expression() -> impl proptest::strategy::Strategy<Value = (String, Option<i128>)> {
        use proptest::prelude::*;
        const TOKENS: [i128; 6] = [3, 0, 7, 1, 2, 5];
        let fits = |v: i128| (i128::from(i64::MIN)..=i128::from(i64::MAX)).contains(&v);
        let leaf = prop_oneof![
            (0..6usize).prop_map(|e| (
                ["a", "b", "c", "A", "B", "C"][e].to_string(),
                Some(TOKENS[e])
            )),
            any::<i64>().prop_map(|n| {
                let n = n.unsigned_abs().min(i64::MAX as u64) as i128;
                (n.to_string(), Some(n))
            }),
        ];
        leaf.prop_recursive(6, 40, 2, move |inner| {
            prop_oneof![
                inner.clone().prop_map(move |(t, v)| (
                    format!("-({t})"),
                    v.map(|v| -v).filter(|&v| fits(v))
                )),
                inner
                    .clone()
                    .prop_map(|(t, v)| (format!("not ({t})"), v.map(|v| i128::from(v == 0)))),
                (inner.clone(), 0..12usize, inner).prop_map(move |((l, lv), op, (r, rv))| {
                    let ops = [
                        "+", "-", "*", "xor", "==", "!=", "<=", "<", ">=", ">", "and", "or",
                    ];
                    let truth = |b: bool| i128::from(b);
                    let value = match op {
                        10 => lv.and_then(|l| {
                            if l == 0 {
                                Some(0)
                            } else {
                                rv.map(|r| truth(r != 0))
                            }
                        }),
                        11 => lv.and_then(|l| {
                            if l != 0 {
                                Some(1)
                            } else {
                                rv.map(|r| truth(r != 0))
                            }
                        }),
                        _ => lv.zip(rv).and_then(|(l, r)| {
                            let v = match op {
                                0 => l + r,
                                1 => l - r,
                                2 => l.checked_mul(r)?,
                                3 => l ^ r,
                                4 => truth(l == r),
                                5 => truth(l != r),
                                6 => truth(l <= r),
                                7 => truth(l < r),
                                8 => truth(l >= r),
                                _ => truth(l > r),
                            };
                            fits(v).then_some(v)
                        }),
                    };
                    (format!("({l}) {} ({r})", ops[op]), value)
                }),
            ]
        })
    }

    proptest::proptest! {
        /// Checked evaluation agrees with wide arithmetic: the same truth where every
        /// step fits 64 bits, an overflow error where one does not.
        #[test]
        fn evaluation_matches_wide_arithmetic((text, value) in expression()) {
            let p = Predicate::parse(&tetrahedron(), &text).unwrap();
            let tokens = [3, 0, 7, 1, 2, 5];
            proptest::prop_assert_eq!(p.holds(&tokens).ok(), value.map(|v| v != 0), "{}", text);
        }
    }

    #[test]
    fn edges_named_by_their_ends_read_as_one_name() {
        let g = Graph::from_spec("C4").unwrap();
        let p = Predicate::parse(&g, "0-1 + 1-2 == 2 - 1").unwrap();
        assert!(
            Predicate::parse(&g, "a-b == 0")
                .unwrap_err()
                .to_string()
                .contains("no edge `a-b`")
        );
        let mut tokens = vec![0; 4];
        tokens[g.edge_index("1-2").unwrap()] = 1;
        assert_eq!(p.holds(&tokens), Ok(true));
        tokens[g.edge_index("0-1").unwrap()] = 1;
        assert_eq!(p.holds(&tokens), Ok(false));
    }

    #[test]
    fn the_tetrahedron_theorem_is_one_predicate() {
        let g = tetrahedron();
        let theorem = Predicate::parse(&g, TETRAHEDRON_THEOREM).unwrap();
        let a = g.edge_index("a").unwrap();
        let region = CheckBox {
            max: 4,
            fixed: vec![(a, 0)],
            up_to_symmetry: true,
        };
        let check = check_predicate(&g, &theorem, &region, 1 << 30, &|_| {}).unwrap();
        assert!(check.holds, "{check:?}");
        assert_eq!(check.positions, 5u64.pow(5));
        // Without the symmetries the theorem misses P-positions.
        let plain = CheckBox {
            up_to_symmetry: false,
            ..region
        };
        let check = check_predicate(&g, &theorem, &plain, 1 << 30, &|_| {}).unwrap();
        assert!(!check.holds);
        assert!(check.p_not_predicate.is_some());
        assert_eq!(check.predicate_not_p, None);
    }

    #[test]
    fn a_planted_counterexample_is_found_both_ways() {
        let g = tetrahedron();
        let a = g.edge_index("a").unwrap();
        let region = CheckBox {
            max: 3,
            fixed: vec![(a, 0)],
            up_to_symmetry: true,
        };
        let planted = format!("({TETRAHEDRON_THEOREM}) and not (b == 1 and c == 1)");
        let check = check_predicate(
            &g,
            &Predicate::parse(&g, &planted).unwrap(),
            &region,
            1 << 30,
            &|_| {},
        )
        .unwrap();
        assert!(!check.holds);
        let missed = check.p_not_predicate.unwrap();
        assert_eq!(missed[g.edge_index("b").unwrap()], 1);
        let loose = format!("({TETRAHEDRON_THEOREM}) or B == 3");
        let check = check_predicate(
            &g,
            &Predicate::parse(&g, &loose).unwrap(),
            &region,
            1 << 30,
            &|_| {},
        )
        .unwrap();
        assert!(!check.holds);
        assert!(check.predicate_not_p.is_some());
    }
}
