//! Any text given as a certificate: read and checked, or a clean error, never a panic.

use crosscap_certificate::{Certificate, verify};
use crosscap_testkit::{check_message, text_like};
use proptest::prelude::*;

const CERTIFICATES: &[&str] = &[
    "crosscap-certificate 1\ngame projective-hex\nboard goldberg:1\nclaim XO.X.. O 3\nnodes 4\nm 5\nm 3\nr 2 1\nm 6 1\n",
    "crosscap-certificate 1\ngame projective-hex\nboard goldberg:1\nclaim XOXO.. X 0\nnodes 1\nm 5\n",
    "crosscap-certificate 1\ngame projective-hex\nboard taylor:2\nclaim X........... O 0\nnodes 1\nh b2 b3 c2 c3\n",
    "crosscap-certificate 2\ngame projective-hex\nboard goldberg:1\nclaim XO.X.. O 0\nnodes 1\nc 3 5 6\n",
    "crosscap-certificate 2\ngame projective-hex\nboard taylor:2\nclaim X........... O 0\nclaim ..X......... X 1\nclaim ...X........ X 2\nclaim ............ X 3\nnodes 4\nc a2 b1 b2 b3 c1 c2 c3 c4 d1 d2 d3\nc a1 a2 b2 b3 c1 c2 c3 c4 d1 d2 d3\nc a1 a2 b1 b3 c1 c2 c3 c4 d1 d2 d3\nm b1 2\n",
    "crosscap-certificate 1\ngame euler-getter\nboard goldberg:1\nclaim XOXOX. O -5 1\nclaim XOXOX. X -5 3\nnodes 4\ne\nm 6 1\ne\nr 1\n",
    "crosscap-certificate 1\ngame euler-getter\nboard goldberg:1\nclaim XOXO.. X 9 2\nnodes 3\ne\nr 1\nm 5 1\n",
    "crosscap-certificate 1\ngame euler-getter\nboard goldberg:1\nclaim ...... X 1 0\nclaim ...... O -1 1\nnodes 2\ne\ne\n",
    "crosscap-certificate 1\ngame euler-getter\nboard goldberg:2\nclaim XOXOXOXOX............ O -41 0\nnodes 1\ne\n",
    "crosscap-certificate 4\ngame euler-getter\nboard goldberg:1\nsymmetry 2 1 3 5 4 6\nclaim ...... O -1 6\nnodes 7\ne\ns 0 1\ne\ne\ne\ne\nr 6 5 4 3 2 1\n",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_text_is_a_verdict_or_a_clean_error(text in text_like(CERTIFICATES)) {
        match Certificate::read(text.as_bytes()) {
            Ok(certificate) => {
                if let Err(invalid) = verify(&certificate) {
                    check_message(&text, &invalid.to_string())?;
                }
            }
            Err(error) => check_message(&text, &error.to_string())?,
        }
    }
}

/// The seeds above are read as they are meant: the first Euler Getter one proves its
/// claims, the second one claims what its full board does not give, the last two are
/// endgame leaves the checker searches itself (the whole hemi-dodecahedron, X wins by 1;
/// 12 empty cells of goldberg:2, a claim no game can break), and X's first move on the
/// hemi-dodecahedron's cell 2 is carried by a symmetry onto cell 1.
#[test]
fn the_euler_getter_seeds_verify_as_meant() {
    let proved = verify(&Certificate::read(CERTIFICATES[5].as_bytes()).unwrap()).unwrap();
    assert_eq!(proved.scores.len(), 2);
    let refused = verify(&Certificate::read(CERTIFICATES[6].as_bytes()).unwrap());
    assert!(refused.is_err(), "{refused:?}");
    let whole = verify(&Certificate::read(CERTIFICATES[7].as_bytes()).unwrap()).unwrap();
    assert_eq!(whole.results[0].margin, 1);
    verify(&Certificate::read(CERTIFICATES[8].as_bytes()).unwrap()).unwrap();
    let carried = verify(&Certificate::read(CERTIFICATES[9].as_bytes()).unwrap()).unwrap();
    assert_eq!(carried.scores[0].at_least, -1);
}

/// The carrier seeds prove their claims: O wins the hemi-dodecahedron's last three cells,
/// and taylor:2's openings are each one carrier of every empty cell.
#[test]
fn the_carrier_seeds_verify() {
    for seed in &CERTIFICATES[3..5] {
        let proved = verify(&Certificate::read(seed.as_bytes()).unwrap()).unwrap();
        assert!(!proved.claims.is_empty());
    }
}
