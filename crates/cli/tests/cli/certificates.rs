//! The small certificates in `certificates/` are what the commands the README gives for
//! them write today, so anyone can rewrite them and get the same proofs: a change to a
//! solver that changes its proofs rewrites them too. (The taylor:3 ones take minutes to
//! write; their claims are checked by the certificate crate's ignored tests.)

use std::path::Path;

use crate::{certificate_text, crosscap, scratch, stored_certificate_text};

/// Each small stored certificate and the `crosscap` commands, before `--certificate FILE`,
/// that write it. Euler Getter's on one thread and on two alike: its threads share the
/// solver's table, whose contents vary from run to run; the proofs written must not.
const STORED: [(&str, &str); 4] = [
    (
        "projective-hex-taylor-2.cert.zst",
        "projective-hex solve --board taylor:2 --all-openings",
    ),
    (
        "projective-hex-goldberg-2.cert.zst",
        "projective-hex solve --board goldberg:2 --all-openings",
    ),
    (
        "euler-getter-goldberg-2.cert.zst",
        "euler-getter solve --board goldberg:2 --swap none --max-memory 3GiB --threads 1",
    ),
    (
        "euler-getter-goldberg-2.cert.zst",
        "euler-getter solve --board goldberg:2 --swap none --max-memory 3GiB --threads 2",
    ),
];

#[test]
fn the_small_stored_certificates_are_what_their_commands_write() {
    let stored = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../certificates");
    for (name, command) in STORED {
        let file = scratch(name);
        let mut words: Vec<&str> = command.split(' ').collect();
        words.extend(["--certificate", file.to_str().unwrap()]);
        let run = crosscap(&words);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let written = certificate_text(&file);
        assert!(
            written == stored_certificate_text(&stored.join(name)),
            "certificates/{name} is not what `crosscap {command} --certificate \
             certificates/{name}` writes now: rewrite it with that command"
        );
    }
}
