//! Any text given as a certificate: read and checked, or a clean error, never a panic.

use crosscap_certificate::{Certificate, verify};
use crosscap_testkit::{check_message, text_like};
use proptest::prelude::*;

const CERTIFICATES: &[&str] = &[
    "crosscap-certificate 1\ngame projective-hex\nboard goldberg:1\nclaim XO.X.. O 3\nnodes 4\nm 5\nm 3\nr 2 1\nm 6 1\n",
    "crosscap-certificate 1\ngame projective-hex\nboard goldberg:1\nclaim XOXO.. X 0\nnodes 1\nm 5\n",
    "crosscap-certificate 1\ngame projective-hex\nboard taylor:2\nclaim X........... O 0\nnodes 1\nh b2 b3 c2 c3\n",
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
